// `xla-index analyze` composed input to output (AnalyzeIndexing with
// compose) on generated modules of 1k, 4k and 16k parameters, the shape of a
// training step's many weights: p_i -> negate -> add with p_{i+1}, and the
// root tuples all the sums, so every parameter reaches a few instructions.
// One forward walk for all parameters (ComputeParametersToOutputIndexing)
// makes the time linear in the module; BM_PerParameterWalks, the former
// one-walk-per-parameter scheme, grows with parameters x instructions.
// Parsing happens once, outside the timed loop. Measured (-c opt, 2 shared
// cores): 1k/4k/16k parameters 6.5/40/203 ms CPU; callgrind counts 50.1M and
// 200.9M instructions for 1k and 4k (x4.01: linear; the wall-clock excess is
// the memory hierarchy). BM_PerParameterWalks: 181 ms and 6.5 s (x36).
// BM_AnalyzeTupleOfParameters: a root tuple of parameters, not composed (its
// own maps), against merging its per-output rules: 0.28/1.0/4.6 ms against
// 5.7/75/1302 ms CPU.

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/fusion_indexing.h"
#include "xla_index/indexing_analysis.h"
#include "xla_index/output_to_input_indexing.h"

namespace xla_index {
namespace {

std::string ManyParameters(int64_t n) {
  std::string text = "HloModule m\n\nENTRY main {\n";
  for (int64_t i = 0; i < n; ++i) {
    absl::StrAppend(&text, "  p", i, " = f32[16,8] parameter(", i, ")\n");
  }
  std::string tuple;
  for (int64_t i = 0; i < n; ++i) {
    absl::StrAppend(&text, "  n", i, " = f32[16,8] negate(p", i, ")\n");
    absl::StrAppend(&text, "  s", i, " = f32[16,8] add(n", i, ", p",
                    (i + 1) % n, ")\n");
    absl::StrAppend(&tuple, i ? ", " : "", "s", i);
  }
  return text + "  ROOT t = tuple(" + tuple + ")\n}\n";
}

// The parameter count: state.range(0), or 1/100 of it under the smoke test
// (bench/smoke_test.sh), which checks that the benchmarks run, not speed.
int64_t Parameters(const benchmark::State& state) {
  return std::getenv("XLA_INDEX_BENCHMARK_SMOKE") != nullptr
             ? state.range(0) / 100
             : state.range(0);
}

// A root tuple of the parameters themselves, which `analyze` does not
// compose: it gives the tuple's own maps.
std::string TupleOfParameters(int64_t n) {
  std::string text = "HloModule m\n\nENTRY main {\n";
  std::string tuple;
  for (int64_t i = 0; i < n; ++i) {
    absl::StrAppend(&text, "  p", i, " = f32[16,8] parameter(", i, ")\n");
    absl::StrAppend(&tuple, i ? ", " : "", "p", i);
  }
  return text + "  ROOT t = tuple(" + tuple + ")\n}\n";
}

std::unique_ptr<HloModule> Generate(
    benchmark::State& state,
    std::string (*generator)(int64_t) = ManyParameters) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseHloModule(generator(Parameters(state)));
  if (!module.ok()) {
    state.SkipWithError(std::string(module.status().message()).c_str());
    return nullptr;
  }
  return std::move(*module);
}

void SetCounters(benchmark::State& state, const HloComputation& entry) {
  state.counters["parameters"] = Parameters(state);
  state.counters["instructions"] = entry.instruction_count();
}

void BM_AnalyzeInputToOutput(benchmark::State& state) {
  std::unique_ptr<HloModule> module = Generate(state);
  if (module == nullptr) return;
  const HloComputation& entry = *module->entry_computation();
  mlir::MLIRContext context;
  for (auto _ : state) {
    absl::StatusOr<AnalyzedIndexing> analyzed =
        AnalyzeIndexing(*entry.root(), IndexingDirection::kInputToOutput,
                        AnalyzeOptions{}, &context);
    if (!analyzed.ok()) {
      state.SkipWithError(std::string(analyzed.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(analyzed);
  }
  SetCounters(state, entry);
}

void BM_PerParameterWalks(benchmark::State& state) {
  std::unique_ptr<HloModule> module = Generate(state);
  if (module == nullptr) return;
  const HloComputation& entry = *module->entry_computation();
  mlir::MLIRContext context;
  for (auto _ : state) {
    for (const HloInstruction* parameter : entry.parameters()) {
      HloInstructionIndexing indexing =
          ComputeInputToOutputIndexingThroughComputation(
              entry, parameter, entry.root(), &context);
      benchmark::DoNotOptimize(indexing);
    }
  }
  SetCounters(state, entry);
}

// The own maps of a root tuple of N parameters, output to input: one map
// per operand (ComputeTupleIndexingOfAllOutputs). The baseline,
// BM_MergePerOutputTupleRules, merges the per-output rule over every output
// as `analyze` did before: each output's rule has N sets.
void BM_AnalyzeTupleOfParameters(benchmark::State& state) {
  std::unique_ptr<HloModule> module = Generate(state, TupleOfParameters);
  if (module == nullptr) return;
  const HloComputation& entry = *module->entry_computation();
  mlir::MLIRContext context;
  for (auto _ : state) {
    AnalyzedIndexing analyzed = AnalyzeIndexing(
        *entry.root(), IndexingDirection::kOutputToInput, &context);
    benchmark::DoNotOptimize(analyzed);
  }
  SetCounters(state, entry);
}

void BM_MergePerOutputTupleRules(benchmark::State& state) {
  std::unique_ptr<HloModule> module = Generate(state, TupleOfParameters);
  if (module == nullptr) return;
  const HloInstruction* root = module->entry_computation()->root();
  mlir::MLIRContext context;
  for (auto _ : state) {
    std::vector<IndexingMapSet> merged(root->operand_count());
    for (int64_t out = 0; out < root->operand_count(); ++out) {
      HloInstructionIndexing one =
          ComputeOutputToInputIndexing(root, out, &context);
      for (size_t k = 0; k < merged.size(); ++k) {
        merged[k].InsertAll(one.indexing_maps[k]);
      }
    }
    benchmark::DoNotOptimize(merged);
  }
  SetCounters(state, *module->entry_computation());
}

BENCHMARK(BM_AnalyzeInputToOutput)
    ->Arg(1000)
    ->Arg(4000)
    ->Arg(16000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PerParameterWalks)
    ->Arg(1000)
    ->Arg(4000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AnalyzeTupleOfParameters)
    ->Arg(1000)
    ->Arg(4000)
    ->Arg(16000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MergePerOutputTupleRules)
    ->Arg(1000)
    ->Arg(4000)
    ->Arg(16000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace xla_index
