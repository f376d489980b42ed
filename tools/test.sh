#!/usr/bin/env bash
# The whole test suite, from nothing: installs what is missing, runs every
# Bazel test (results are never taken from the cache, so every case really
# runs), and ends with "N passed, N failed" counting every test case. The
# repository checks count as one case each: build parity (Bazel and CMake
# name the same sources, targets and deps), no library function over 120
# lines (tools/check_function_length.py), no include from a higher layer
# (tools/check_layers.py), every header opens with a comment saying what
# it holds (tools/check_header_comments.py), and docs/ARCHITECTURE.md's
# target graph matches the BUILD files (tools/target_graph.py --check).
#
#   tools/test.sh [extra bazel test flags, e.g. --config=asan]
set -uo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh || exit 1

start=$(date +%s)
bazel test --nocache_test_results "$@" //...
bazel_rc=$?
# The test logs of the configuration just run (--config=asan has its own).
bazel_line=$(python3 tools/count_tests.py bazel --newer-than "$start" \
  "$(bazel info "$@" bazel-testlogs 2>/dev/null)")
echo "$bazel_line"
python3 tools/check_build_parity.py
parity_rc=$?
python3 tools/check_function_length.py
length_rc=$?
python3 tools/check_layers.py
layers_rc=$?
python3 tools/check_header_comments.py
headers_rc=$?
python3 tools/target_graph.py --check
graph_rc=$?

# Sum them: the last line is the one CI reads.
read -r p f <<<"$(echo "$bazel_line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/')"
for rc in "$parity_rc" "$length_rc" "$layers_rc" "$headers_rc" "$graph_rc"; do
  if ((rc == 0)); then p=$((p + 1)); else f=$((f + 1)); fi
done
echo "$p passed, $f failed"
((bazel_rc == 0 && parity_rc == 0 && length_rc == 0 && layers_rc == 0 &&
  headers_rc == 0 && graph_rc == 0 && f == 0))
