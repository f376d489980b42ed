#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ with clang-22 under
# AddressSanitizer + UndefinedBehaviorSanitizer and runs each one.
#
#   tools/fuzz.sh [--runs=N | --time=SECONDS | --merge] [--build-dir=DIR]
#                 [TARGET...]
#
#   --runs=N        run each target for N inputs (CI: a small fixed count)
#   --time=SECONDS  run each target for that long (campaigns: 1800)
#   --merge         no fuzzing: add to tests/fuzz/corpus/<target>/ the inputs
#                   of DIR/corpus/<target>/ that reach new coverage (to
#                   commit after a campaign; crashing inputs are left out)
#   TARGET          hlo_parser indexing_map_text shape_layout sparse_encoding
#                   simplifier exact_questions (default: all)
#
# A target's libFuzzer dictionary tests/fuzz/dict/<target>.dict, when it
# exists, is passed with -dict=.
# The starting corpus tests/fuzz/corpus/<target>/ is read, never written: new
# inputs libFuzzer finds go to DIR/corpus/<target>/ (kept between runs, so a
# campaign can be spread over several sessions), crashes to
# DIR/artifacts/<target>/, the log to DIR/logs/<target>.log. Prints one line
# per target with its executions, and "fuzz: N passed, N failed" last; exits
# non-zero when a target crashed, hung, leaked or hit a sanitizer report.
#
# Installs clang-22 and libclang-rt-22-dev (Debian) when they are missing.
# MLIR 22's headers and libraries (/usr/lib/llvm-22) are what gcc uses too;
# clang-22 is ABI-compatible with them.
set -uo pipefail
cd "$(dirname "$0")/.."

runs=""
time_s=""
merge=0
build_dir="$PWD/build-fuzz"
targets=()
for arg in "$@"; do
  case "$arg" in
    --runs=*) runs="${arg#--runs=}" ;;
    --time=*) time_s="${arg#--time=}" ;;
    --build-dir=*) build_dir="${arg#--build-dir=}" ;;
    --merge) merge=1 ;;
    -h | --help)
      sed -n '2,22p' "$0"
      exit 0
      ;;
    -*)
      echo "fuzz.sh: unknown flag $arg" >&2
      exit 2
      ;;
    *) targets+=("$arg") ;;
  esac
done
if [[ -z "$runs" && -z "$time_s" ]]; then
  runs=1000
fi
if ((${#targets[@]} == 0)); then
  targets=(hlo_parser indexing_map_text shape_layout sparse_encoding
    simplifier exact_questions)
fi

# 1. The toolchain: clang-22 and its runtime (libFuzzer, ASan, UBSan).
fuzzer_rt=$(ls /usr/lib/llvm-22/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a \
  2>/dev/null | head -1)
if ! command -v clang++-22 >/dev/null || [[ -z "$fuzzer_rt" ]]; then
  sudo=""
  ((EUID == 0)) || sudo="sudo"
  echo "fuzz.sh: installing clang-22 libclang-rt-22-dev" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y -qq --no-install-recommends clang-22 \
    libclang-rt-22-dev >&2 ||
    { $sudo apt-get update -qq >&2 &&
      $sudo apt-get install -y -qq --no-install-recommends clang-22 \
        libclang-rt-22-dev >&2; } ||
    { echo "fuzz.sh: cannot install clang-22" >&2; exit 1; }
fi

# 2. Build (C++ only: naming a C compiler makes LLVM's FindFFI probe with it,
# which fails in this C++-only project). The whole library is instrumented for coverage (fuzzer-no-link)
# and the sanitizers; only the fuzzer binaries link libFuzzer's main. vptr is
# off because LLVM/MLIR are built without RTTI. Debug keeps assert() on.
# -fclang-abi-compat=17: clang 18+ mangles some templates (Abseil's
# enable_if constructors, e.g. absl::Cord(std::string&&)) differently from
# gcc, which built Debian's libabsl; the older mangling links against it.
abi="-fclang-abi-compat=17"
san="-fsanitize=address,undefined -fno-sanitize=vptr"
san="$san -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_DIR="${CCACHE_DIR:-/var/cache/xla_index/ccache}"
  # Hits across clones (CI builds in a fresh one): paths relative to the
  # checkout, and -g does not put the working directory into the hash.
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
mkdir -p "$build_dir"
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_COMPILER=clang++-22 \
  "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS="-O1 -g $abi $san -fsanitize=fuzzer-no-link" \
  -DCMAKE_EXE_LINKER_FLAGS="$san" \
  -DXLA_INDEX_FUZZ=ON >"$build_dir/configure.log" 2>&1 ||
  { tail -30 "$build_dir/configure.log"; echo "fuzz.sh: configure failed" >&2; exit 1; }
build_targets=()
for t in "${targets[@]}"; do build_targets+=("tests_fuzz_${t}_fuzzer"); done
cmake --build "$build_dir" -j2 --target "${build_targets[@]}" \
  >"$build_dir/build.log" 2>&1 ||
  { grep -E "error|Error" "$build_dir/build.log" | head -30
    echo "fuzz.sh: build failed (log: $build_dir/build.log)" >&2; exit 1; }

# 3. Run each target.
# detect_leaks: MLIR contexts are freed per input, so a leak is ours.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
passed=0
failed=0
for t in "${targets[@]}"; do
  bin="$build_dir/tests/fuzz/tests_fuzz_${t}_fuzzer"
  work="$build_dir/corpus/$t"
  artifacts="$build_dir/artifacts/$t"
  log="$build_dir/logs/$t.log"
  mkdir -p "$work" "$artifacts" "$(dirname "$log")"
  if ((merge)); then
    before=$(ls "tests/fuzz/corpus/$t" | wc -l)
    "$bin" -merge=1 -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
      -artifact_prefix="$artifacts/" "tests/fuzz/corpus/$t" "$work" \
      >"$log" 2>&1
    rc=$?
    after=$(ls "tests/fuzz/corpus/$t" | wc -l)
    echo "fuzz: $t: merge exit $rc, corpus $before -> $after files"
    if ((rc == 0)); then passed=$((passed + 1)); else failed=$((failed + 1)); fi
    continue
  fi
  limit=()
  # A fixed-count run (CI's smoke run) is reproducible: the same seed every
  # time. Campaigns (--time) draw a fresh seed.
  if [[ -n "$runs" ]]; then limit+=("-runs=$runs" "-seed=1"); fi
  if [[ -n "$time_s" ]]; then limit+=("-max_total_time=$time_s"); fi
  # A target's dictionary of keywords, when it has one.
  if [[ -f "tests/fuzz/dict/$t.dict" ]]; then
    limit+=("-dict=tests/fuzz/dict/$t.dict")
  fi
  start=$(date +%s)
  "$bin" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$work" "tests/fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" |
    grep -oE '[0-9]+$' | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1)
  secs=$(($(date +%s) - start))
  if ((rc == 0)); then
    passed=$((passed + 1))
    echo "fuzz: $t: OK, ${execs:-?} executions in $secs s (${cov:-cov: ?})"
  else
    failed=$((failed + 1))
    echo "fuzz: $t: FAILED (exit $rc) after ${execs:-?} executions in $secs s;" \
      "log $log, artifacts $artifacts"
    grep -E "ERROR:|runtime error|SUMMARY|^simplifier_fuzzer|_fuzzer:|Test unit written" \
      "$log" | head -8
  fi
done
echo "fuzz: $passed passed, $failed failed"
((failed == 0))
