#!/usr/bin/env bash
# Builds and runs examples/fusion_pass the ways a consumer would, and checks
# each run's output against fusion_pass.expected:
#   bazel                 the consumer workspace (-c opt, its .bazelrc)
#   cmake_subdir_g++      CMake, add_subdirectory of this tree, g++
#   cmake_subdir_clang++  the same with clang++
#   cmake_installed_g++   CMake, find_package(xla_index) after cmake --install
#   cmake_installed_clang++
#   installed_tool        the installed bin/xla-index runs
#   readme_snippet        README.md's WORKSPACE snippet is the example's
# Ends with "examples: N passed, N failed"; exits 1 on any failure.
#
#   examples/run.sh [XLA_INDEX_BUILD_DIR]
#
# XLA_INDEX_BUILD_DIR: an existing CMake build of this tree to install from
# (CI passes its own build/); without it, one is configured and built here
# with tests off. Objects come from ccache and the Bazel disk cache under
# /var/cache/xla_index, so a second run rebuilds almost nothing.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
example=$root/examples/fusion_pass
out=$root/build-examples
mkdir -p "$out"
export CCACHE_DIR=${CCACHE_DIR:-/var/cache/xla_index/ccache}
passed=0
failed=0

# check NAME BINARY: runs the pass on the bundled module.
fail() {
  echo "FAIL examples/$1 ($2)"
  failed=$((failed + 1))
}
check() {
  local name=$1 binary=$2
  if [[ -x $binary ]] &&
    "$binary" "$example/fusion_pass.hlo" >"$out/$name.out" 2>&1 &&
    diff -u "$example/fusion_pass.expected" "$out/$name.out"; then
    echo "PASS examples/$name"
    passed=$((passed + 1))
  else
    fail "$name" "output in $out/$name.out"
  fi
}

# step NAME COMMAND...: runs a build step quietly, timing it; on failure
# prints the end of its log.
step() {
  local name=$1 t0=$SECONDS
  shift
  if "$@" >"$out/$name.log" 2>&1; then
    echo "  $name: $((SECONDS - t0)) s"
  else
    echo "  $name: FAILED after $((SECONDS - t0)) s"
    tail -30 "$out/$name.log"
    return 1
  fi
}

cmake_example() {  # cmake_example NAME COMPILER [CMAKE ARGS...]
  local name=$1 compiler=$2
  shift 2
  step "$name" bash -c '
    cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$3" \
      -DCMAKE_CXX_COMPILER_LAUNCHER=ccache "${@:4}" &&
      cmake --build "$2" -j2' _ "$example" "$out/$name" "$compiler" "$@" ||
    { fail "$name" "build failed"; return; }
  check "$name" "$out/$name/fusion_pass"
}

# 0. The README's WORKSPACE snippet, with /path/to/xla_index -> ../.., is
# the example's WORKSPACE after its workspace() line, and its .bazelrc
# snippet is the example's .bazelrc: what CI builds below is what a reader
# copies.
if python3 - "$root/README.md" "$example/WORKSPACE" "$example/.bazelrc" <<'PY'
import re, sys
readme, workspace, bazelrc = (open(p).read() for p in sys.argv[1:])
ws = re.search(r"`WORKSPACE` \(replace.*?```python\n(.*?)```", readme, re.S)
rc = re.search(r"`\.bazelrc`: .*?```\n(.*?)```", readme, re.S)
body = workspace.split('workspace(name = "fusion_pass")\n\n', 1)[-1]
sys.exit(0 if ws and rc and rc.group(1) == bazelrc and
         ws.group(1).replace("/path/to/xla_index", "../..") == body else 1)
PY
then
  echo "PASS examples/readme_snippet"
  passed=$((passed + 1))
else
  fail readme_snippet "README.md's WORKSPACE or .bazelrc snippet differs from $example's"
fi

# 1. Bazel: its own server, output root and disk cache shared with the main
# workspace's, then shut down.
bazel_startup=(--output_user_root=/var/cache/xla_index/bazel-root)
if step bazel bash -c 'cd "$1" && bazel "${@:2}" build \
  --disk_cache=/var/cache/xla_index/bazel-disk-cache --jobs=2 //:fusion_pass' \
  _ "$example" "${bazel_startup[@]}"; then
  check bazel "$example/bazel-bin/fusion_pass"
else
  fail bazel "build failed"
fi
(cd "$example" && bazel "${bazel_startup[@]}" shutdown)

# 2. CMake, add_subdirectory.
cmake_example cmake_subdir_g++ g++
cmake_example cmake_subdir_clang++ clang++

# 3. CMake, find_package after cmake --install into a fresh prefix.
prefix=$out/prefix
rm -rf "$prefix"
build=${1:-$out/xla_index}
if [[ -z ${1:-} ]]; then
  step xla_index_build bash -c '
    cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DXLA_INDEX_BUILD_TESTS=OFF \
      -DCMAKE_CXX_COMPILER_LAUNCHER=ccache && cmake --build "$2" -j2' \
    _ "$root" "$build"
fi
step install cmake --install "$build" --prefix "$prefix"
cmake_example cmake_installed_g++ g++ -DUSE_INSTALLED_XLA_INDEX=ON \
  -DCMAKE_PREFIX_PATH="$prefix"
cmake_example cmake_installed_clang++ clang++ -DUSE_INSTALLED_XLA_INDEX=ON \
  -DCMAKE_PREFIX_PATH="$prefix"
if "$prefix/bin/xla-index" analyze "$root/tests/testdata/softmax.hlo" \
  >"$out/installed_tool.out" 2>&1 &&
  grep -q "operand id = 0" "$out/installed_tool.out"; then
  echo "PASS examples/installed_tool"
  passed=$((passed + 1))
else
  fail installed_tool "output in $out/installed_tool.out"
fi

echo "examples: $passed passed, $failed failed"
((failed == 0))
