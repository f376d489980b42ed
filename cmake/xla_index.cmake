# Helpers that mirror the Bazel rules, so each folder's CMakeLists.txt reads
# like its BUILD file. A target //dir/sub:name is the CMake target dir_sub_name.
include(CMakeParseArguments)
include(GNUInstallDirs)
if(XLA_INDEX_BUILD_TESTS)
  include(GoogleTest)
endif()

# Derives the CMake name of target NAME in the current folder.
function(xi_target_name out name)
  file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${CMAKE_CURRENT_SOURCE_DIR}")
  string(REPLACE "/" "_" prefix "${rel}")
  set(${out} "${prefix}_${name}" PARENT_SCOPE)
endfunction()

# The folders whose libraries are installed (with their headers) and exported
# by cmake --install; tools/, tests/ and bench/ are not.
set(XI_LIBRARY_FOLDERS base hlo layout sparse xla_index)

# xi_cc_library(NAME n SRCS a.cc HDRS a.h DEPS other_target ...)
#
# Every library carries C++17 to its users (cxx_std_17 is a usage
# requirement: a consumer target that links it compiles with -std=c++17 or
# later, whatever its compiler's default), has the namespaced ALIAS
# xla_index::dir_sub_name (a misspelled namespaced name is a configure error,
# not -ldir_sub_name at link time), and is installed unless it is a test or
# benchmark helper: listed in XI_TESTONLY_LIBRARIES, or linking GoogleTest
# (which is neither required nor exported for consumers).
function(xi_cc_library)
  cmake_parse_arguments(A "" "NAME" "SRCS;HDRS;DEPS" ${ARGN})
  xi_target_name(target ${A_NAME})
  set(include_dirs $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                   $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  if(A_SRCS)
    add_library(${target} ${A_SRCS} ${A_HDRS})
    set(scope PUBLIC)
  else()
    add_library(${target} INTERFACE)
    set(scope INTERFACE)
  endif()
  target_link_libraries(${target} ${scope} ${A_DEPS})
  target_include_directories(${target} ${scope} ${include_dirs})
  target_compile_features(${target} ${scope} cxx_std_17)
  add_library(xla_index::${target} ALIAS ${target})

  file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${CMAKE_CURRENT_SOURCE_DIR}")
  string(REGEX REPLACE "/.*" "" top "${rel}")
  if(target IN_LIST XI_TESTONLY_LIBRARIES OR "xi_gtest" IN_LIST A_DEPS OR
     "xi_gmock" IN_LIST A_DEPS)
    if(NOT XLA_INDEX_BUILD_TESTS)
      set_property(TARGET ${target} PROPERTY EXCLUDE_FROM_ALL TRUE)
    endif()
  elseif(top IN_LIST XI_LIBRARY_FOLDERS)
    set_property(GLOBAL APPEND PROPERTY XI_INSTALLED_LIBRARIES ${target})
    install(FILES ${A_HDRS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${rel})
  endif()
endfunction()

# xi_cc_test(NAME n SRCS a_test.cc DEPS ...): a GoogleTest binary whose cases
# ctest lists one by one. Tests run from the source root, as under Bazel, so
# data files are opened by their path in the repository. Nothing unless
# XLA_INDEX_BUILD_TESTS.
function(xi_cc_test)
  if(NOT XLA_INDEX_BUILD_TESTS)
    return()
  endif()
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
  target_compile_features(${target} PRIVATE cxx_std_17)
  if(A_OUTPUT_NAME)
    set_target_properties(${target} PROPERTIES OUTPUT_NAME ${A_OUTPUT_NAME})
  endif()
endfunction()

# xi_cc_benchmark(NAME n SRCS a_benchmark.cc DEPS ... [SMOKE_ARGS ...]):
# Google Benchmark binary, plus the test n_smoke_test that runs each
# benchmark once (bench/smoke_test.sh) with the extra flags SMOKE_ARGS.
# Nothing unless XLA_INDEX_BUILD_TESTS.
function(xi_cc_benchmark)
  if(NOT XLA_INDEX_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(A "" "NAME" "SRCS;DEPS;SMOKE_ARGS" ${ARGN})
  xi_target_name(target ${A_NAME})
  add_executable(${target} ${A_SRCS})
  target_link_libraries(${target} PRIVATE ${A_DEPS} benchmark::benchmark_main)
  add_test(NAME ${target}_smoke_test
           COMMAND ${PROJECT_SOURCE_DIR}/bench/smoke_test.sh
                   $<TARGET_FILE:${target}> ${A_SMOKE_ARGS})
endfunction()
