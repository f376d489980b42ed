# Helpers that mirror the Bazel rules, so each folder's CMakeLists.txt reads
# like its BUILD file. A target //dir/sub:name is the CMake target dir_sub_name.
include(CMakeParseArguments)
include(GoogleTest)

# Derives the CMake name of target NAME in the current folder.
function(xi_target_name out name)
  file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${CMAKE_CURRENT_SOURCE_DIR}")
  string(REPLACE "/" "_" prefix "${rel}")
  set(${out} "${prefix}_${name}" PARENT_SCOPE)
endfunction()

# xi_cc_library(NAME n SRCS a.cc HDRS a.h DEPS other_target ...)
function(xi_cc_library)
  cmake_parse_arguments(A "" "NAME" "SRCS;HDRS;DEPS" ${ARGN})
  xi_target_name(target ${A_NAME})
  if(A_SRCS)
    add_library(${target} ${A_SRCS} ${A_HDRS})
    target_link_libraries(${target} PUBLIC ${A_DEPS})
    target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR})
  else()
    add_library(${target} INTERFACE)
    target_link_libraries(${target} INTERFACE ${A_DEPS})
    target_include_directories(${target} INTERFACE ${PROJECT_SOURCE_DIR})
  endif()
endfunction()

# xi_cc_test(NAME n SRCS a_test.cc DEPS ...): a GoogleTest binary whose cases
# ctest lists one by one. Tests run from the source root, as under Bazel, so
# data files are opened by their path in the repository.
function(xi_cc_test)
  cmake_parse_arguments(A "" "NAME" "SRCS;DEPS" ${ARGN})
  xi_target_name(target ${A_NAME})
  add_executable(${target} ${A_SRCS})
  target_link_libraries(${target} PRIVATE ${A_DEPS} xi_gtest_main)
  gtest_discover_tests(${target} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                       DISCOVERY_TIMEOUT 60)
endfunction()

# xi_cc_binary(NAME n SRCS main.cc DEPS ... [OUTPUT_NAME name])
function(xi_cc_binary)
  cmake_parse_arguments(A "" "NAME;OUTPUT_NAME" "SRCS;DEPS" ${ARGN})
  xi_target_name(target ${A_NAME})
  add_executable(${target} ${A_SRCS})
  target_link_libraries(${target} PRIVATE ${A_DEPS})
  if(A_OUTPUT_NAME)
    set_target_properties(${target} PROPERTIES OUTPUT_NAME ${A_OUTPUT_NAME})
  endif()
endfunction()

# xi_cc_benchmark(NAME n SRCS a_benchmark.cc DEPS ... [SMOKE_ARGS ...]):
# Google Benchmark binary, plus the test n_smoke_test that runs each
# benchmark once (bench/smoke_test.sh) with the extra flags SMOKE_ARGS.
function(xi_cc_benchmark)
  cmake_parse_arguments(A "" "NAME" "SRCS;DEPS;SMOKE_ARGS" ${ARGN})
  xi_target_name(target ${A_NAME})
  add_executable(${target} ${A_SRCS})
  target_link_libraries(${target} PRIVATE ${A_DEPS} benchmark::benchmark_main)
  add_test(NAME ${target}_smoke_test
           COMMAND ${PROJECT_SOURCE_DIR}/bench/smoke_test.sh
                   $<TARGET_FILE:${target}> ${A_SMOKE_ARGS})
endfunction()
