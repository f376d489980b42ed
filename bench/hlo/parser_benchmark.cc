// How fast ParseHloModule reads a large module. The module is generated:
// N instructions in the shape of a real XLA dump (a reducer computation,
// '%' names, operand shapes, layouts, metadata), cycling through
// parameters, elementwise ops, broadcasts, reshapes, transposes, slices,
// reduces, dots and concatenates. A second generator writes modules in the
// style of real-model dumps (dump_style_module.h). The baseline is the
// cheapest possible pass over the same text (counting its lines), measured
// in the same run; peak heap is counted by allocation_counter.h and
// reported as a multiple of the text's size.

#include <time.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "bench/hlo/allocation_counter.h"
#include "bench/hlo/dump_style_module.h"
#include "benchmark/benchmark.h"
#include "hlo/parser.h"
#include "hlo/verifier.h"

namespace xla_index {
namespace {

// A module with `count` instructions in its entry computation (plus the
// 3-instruction reducer).
std::string MakeModule(int64_t count) {
  std::string text =
      "HloModule bench, entry_computation_layout={(f32[64,128]{1,0})->"
      "f32[64,128]{1,0}}\n\n"
      "%add (a: f32[], b: f32[]) -> f32[] {\n"
      "  %a = f32[] parameter(0)\n"
      "  %b = f32[] parameter(1)\n"
      "  ROOT %s = f32[] add(f32[] %a, f32[] %b)\n"
      "}\n\n"
      "ENTRY %main (p: f32[64,128]) -> f32[64,128] {\n"
      "  %p = f32[64,128]{1,0} parameter(0)\n"
      "  %zero = f32[] constant(0)\n";
  // Every instruction keeps the running value v<i> of shape f32[64,128].
  std::string last = "p";
  for (int64_t i = 2; i < count; ++i) {
    std::string name = absl::StrCat("v", i);
    std::string metadata =
        absl::StrCat(", metadata={op_name=\"jit(f)/op_", i,
                     "\" source_file=\"model.py\" source_line=", i % 997, "}");
    switch (i % 8) {
      case 0:
        absl::StrAppend(&text, "  %", name,
                        " = f32[64,128]{1,0} add(f32[64,128]{1,0} %", last,
                        ", f32[64,128]{1,0} %p)", metadata, "\n");
        break;
      case 1:
        absl::StrAppend(&text, "  %", name,
                        " = f32[64,128]{1,0} exponential(f32[64,128]{1,0} %",
                        last, ")", metadata, "\n");
        break;
      case 2:
        absl::StrAppend(
            &text, "  %r", i, " = f32[64]{0} reduce(f32[64,128]{1,0} %", last,
            ", f32[] %zero), dimensions={1}, to_apply=%add", metadata, "\n  %",
            name, " = f32[64,128]{1,0} broadcast(f32[64]{0} %r", i,
            "), dimensions={0}\n");
        ++i;
        break;
      case 3:
        absl::StrAppend(&text, "  %", name,
                        " = f32[128,64]{1,0} transpose(f32[64,128]{1,0} %",
                        last, "), dimensions={1,0}\n  %t", i,
                        " = f32[64,128]{1,0} transpose(f32[128,64]{1,0} %",
                        name, "), dimensions={1,0}\n");
        name = absl::StrCat("t", i);
        ++i;
        break;
      case 4:
        absl::StrAppend(
            &text, "  %", name, " = f32[8192]{0} reshape(f32[64,128]{1,0} %",
            last, ")\n  %q", i, " = f32[64,128]{1,0} reshape(f32[8192]{0} %",
            name, ")\n");
        name = absl::StrCat("q", i);
        ++i;
        break;
      case 5:
        absl::StrAppend(
            &text, "  %", name, " = f32[64,64]{1,0} slice(f32[64,128]{1,0} %",
            last, "), slice={[0:64], [0:128:2]}\n  %c", i,
            " = f32[64,128]{1,0} concatenate(f32[64,64]{1,0} %", name,
            ", f32[64,64]{1,0} %", name, "), dimensions={1}\n");
        name = absl::StrCat("c", i);
        ++i;
        break;
      case 6:
        absl::StrAppend(&text, "  %", name,
                        " = f32[64,128]{1,0} dot(f32[64,128]{1,0} %", last,
                        ", f32[128,128]{1,0} %w), lhs_contracting_dims={1}, "
                        "rhs_contracting_dims={0}",
                        metadata, "\n");
        break;
      default:
        absl::StrAppend(&text, "  %", name, " = f32[64,128]{1,0} multiply(%",
                        last, ", %", last, ")\n");
        break;
    }
    last = name;
  }
  absl::StrAppend(&text, "  %w = f32[128,128]{1,0} parameter(1)\n");
  absl::StrAppend(&text, "  ROOT %out = f32[64,128]{1,0} negate(%", last,
                  ")\n}\n");
  return text;
}

int64_t CountInstructions(const HloModule& module) {
  int64_t n = 0;
  for (const auto& c : module.computations()) n += c->instruction_count();
  return n;
}

void BM_BaselineCountLines(benchmark::State& state) {
  std::string text = MakeModule(state.range(0));
  for (auto _ : state) {
    int64_t lines = 0;
    for (char c : text) lines += c == '\n';
    benchmark::DoNotOptimize(lines);
  }
  state.SetBytesProcessed(state.iterations() * text.size());
}
BENCHMARK(BM_BaselineCountLines)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_ParseHloModule(benchmark::State& state) {
  std::string text = MakeModule(state.range(0));
  int64_t instructions = 0;
  for (auto _ : state) {
    absl::StatusOr<std::unique_ptr<HloModule>> module = ParseHloModule(text);
    if (!module.ok()) {
      state.SkipWithError(std::string(module.status().message()).c_str());
      return;
    }
    instructions = CountInstructions(**module);
    benchmark::DoNotOptimize(module);
  }
  state.counters["instructions"] = instructions;
  state.counters["bytes"] = text.size();
  state.SetBytesProcessed(state.iterations() * text.size());
  state.SetItemsProcessed(state.iterations() * instructions);
}
BENCHMARK(BM_ParseHloModule)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

void BM_ParseAndVerifyHloModule(benchmark::State& state) {
  std::string text = MakeModule(state.range(0));
  for (auto _ : state) {
    absl::StatusOr<std::unique_ptr<HloModule>> module =
        ParseAndVerifyHloModule(text);
    if (!module.ok()) {
      state.SkipWithError(std::string(module.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(module);
  }
  state.SetBytesProcessed(state.iterations() * text.size());
}
BENCHMARK(BM_ParseAndVerifyHloModule)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond);

void BM_PrintHloModule(benchmark::State& state) {
  std::string text = MakeModule(state.range(0));
  std::unique_ptr<HloModule> module = *ParseHloModule(text);
  for (auto _ : state) {
    std::string printed = module->ToString();
    benchmark::DoNotOptimize(printed);
  }
}
BENCHMARK(BM_PrintHloModule)->Arg(10000)->Unit(benchmark::kMillisecond);

// Real-model dumps: parse and verify, with the peak heap of one parse as a
// multiple of the text size. Arg: instructions.
void BM_BaselineCountLinesDumpStyle(benchmark::State& state) {
  std::string text = MakeDumpStyleModule(state.range(0));
  for (auto _ : state) {
    int64_t lines = 0;
    for (char c : text) lines += c == '\n';
    benchmark::DoNotOptimize(lines);
  }
  state.SetBytesProcessed(state.iterations() * text.size());
}
BENCHMARK(BM_BaselineCountLinesDumpStyle)
    ->Arg(20000)
    ->Unit(benchmark::kMillisecond);

// CPU seconds of this thread.
double ThreadCpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The fastest of a few newline counts over `text`, in CPU seconds: the
// baseline each parse is compared with, measured in the same run.
double NewlineCountSeconds(const std::string& text) {
  double best = 1e30;
  for (int round = 0; round < 5; ++round) {
    double start = ThreadCpuSeconds();
    int64_t lines = 0;
    for (char c : text) lines += c == '\n';
    benchmark::DoNotOptimize(lines);
    best = std::min(best, ThreadCpuSeconds() - start);
  }
  return best;
}

// Counters: parse_MB_per_s (CPU), x_newline_count (parse CPU time over the
// newline count's on the same text), peak_heap_over_text.
void BM_ParseAndVerifyDumpStyle(benchmark::State& state) {
  std::string text = MakeDumpStyleModule(state.range(0));
  const double newline_seconds = NewlineCountSeconds(text);
  int64_t instructions = 0;
  int64_t peak = 0;
  double parse_seconds = 0;
  for (auto _ : state) {
    ResetPeakHeapBytes();
    const int64_t before = CurrentHeapBytes();
    const double start = ThreadCpuSeconds();
    absl::StatusOr<std::unique_ptr<HloModule>> module =
        ParseAndVerifyHloModule(text);
    parse_seconds += ThreadCpuSeconds() - start;
    if (!module.ok()) {
      state.SkipWithError(std::string(module.status().message()).c_str());
      return;
    }
    peak = PeakHeapBytes() - before;
    instructions = CountInstructions(**module);
    benchmark::DoNotOptimize(module);
  }
  const double per_parse = parse_seconds / state.iterations();
  state.counters["instructions"] = instructions;
  state.counters["MB"] = text.size() / 1e6;
  state.counters["parse_MB_per_s"] = text.size() / 1e6 / per_parse;
  state.counters["x_newline_count"] = per_parse / newline_seconds;
  state.counters["peak_heap_over_text"] =
      static_cast<double>(peak) / static_cast<double>(text.size());
  state.SetBytesProcessed(state.iterations() * text.size());
}
// 400,000 instructions is a 112 MB module.
BENCHMARK(BM_ParseAndVerifyDumpStyle)
    ->Arg(2000)
    ->Arg(20000)
    ->Arg(200000)
    ->Arg(400000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace xla_index
