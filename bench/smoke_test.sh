#!/usr/bin/env bash
# Runs every benchmark of a Google Benchmark binary for a single iteration,
# with XLA_INDEX_BENCHMARK_SMOKE set (benchmarks with large inputs make them
# small). CI checks that the benchmarks run without crashing or reporting an
# error, not their speed (measured by hand, docs/PERFORMANCE.md).
#
#   bench/smoke_test.sh BENCHMARK_BINARY [BENCHMARK_FLAGS...]
set -euo pipefail
export XLA_INDEX_BENCHMARK_SMOKE=1
output=$("$1" --benchmark_min_time=0 "${@:2}" 2>&1)
echo "$output"
# A benchmark that calls SkipWithError still exits 0.
if grep -q "ERROR OCCURRED" <<<"$output"; then
  echo "smoke test: a benchmark reported an error" >&2
  exit 1
fi
