// Output-to-input analysis time of generated fusions of 10 to 10,000
// instructions, in three shapes:
//   - elementwise chains: v_i = exp/negate/add(v_{i-1}, p0), so p0 is read
//     along many paths that all compose to the identity (deduplicated);
//   - reshape/transpose chains: [8,16,32] -> [128,32] -> [8,16,32] ->
//     transpose -> transpose back, repeated; the simplifier must cancel each
//     round trip or the maps grow with the chain;
//   - broadcast-reduce blocks (softmax-like): x -> reduce -> broadcast ->
//     subtract(x, .) -> exp -> next block.
// Parsing happens once, outside the timed loop. Results (with T(8N)/T(N))
// are in docs/PERFORMANCE.md, "Indexing analysis".

#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/fusion_indexing.h"

namespace xla_index {
namespace {

constexpr absl::string_view kHeader = R"(HloModule m

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY fusion {
)";

std::string ElementwiseChain(int64_t n) {
  std::string text(kHeader);
  absl::StrAppend(&text, "  p0 = f32[64,128] parameter(0)\n");
  std::string previous = "p0";
  for (int64_t i = 0; i < n; ++i) {
    std::string name = absl::StrCat("v", i);
    const char* root = i + 1 == n ? "ROOT " : "";
    switch (i % 3) {
      case 0:
        absl::StrAppend(&text, "  ", root, name, " = f32[64,128] exponential(",
                        previous, ")\n");
        break;
      case 1:
        absl::StrAppend(&text, "  ", root, name, " = f32[64,128] negate(",
                        previous, ")\n");
        break;
      default:
        absl::StrAppend(&text, "  ", root, name, " = f32[64,128] add(",
                        previous, ", p0)\n");
        break;
    }
    previous = name;
  }
  return text + "}\n";
}

std::string ReshapeTransposeChain(int64_t n) {
  std::string text(kHeader);
  absl::StrAppend(&text, "  p0 = f32[8,16,32] parameter(0)\n");
  std::string previous = "p0";
  for (int64_t i = 0; i < n; ++i) {
    std::string name = absl::StrCat("v", i);
    const char* root = i + 1 == n ? "ROOT " : "";
    // Shapes cycle [8,16,32] -> [128,32] -> [8,16,32] -> [8,32,16] -> ...
    switch (i % 4) {
      case 0:
        absl::StrAppend(&text, "  ", root, name, " = f32[128,32] reshape(",
                        previous, ")\n");
        break;
      case 1:
        absl::StrAppend(&text, "  ", root, name, " = f32[8,16,32] reshape(",
                        previous, ")\n");
        break;
      case 2:
        absl::StrAppend(&text, "  ", root, name, " = f32[8,32,16] transpose(",
                        previous, "), dimensions={0,2,1}\n");
        break;
      default:
        absl::StrAppend(&text, "  ", root, name, " = f32[8,16,32] transpose(",
                        previous, "), dimensions={0,2,1}\n");
        break;
    }
    previous = name;
  }
  return text + "}\n";
}

std::string BroadcastReduceBlocks(int64_t n) {
  std::string text(kHeader);
  absl::StrAppend(&text,
                  "  p0 = f32[16,256] parameter(0)\n"
                  "  zero = f32[] constant(0)\n");
  std::string previous = "p0";
  for (int64_t i = 0; i < n; ++i) {
    std::string name = absl::StrCat("v", i);
    const char* root = i + 1 == n ? "ROOT " : "";
    switch (i % 4) {
      case 0:
        absl::StrAppend(&text, "  ", root, name, " = f32[16] reduce(", previous,
                        ", zero), dimensions={1}, to_apply=add\n");
        break;
      case 1:
        absl::StrAppend(&text, "  ", root, name, " = f32[16,256] broadcast(v",
                        i - 1, "), dimensions={0}\n");
        break;
      case 2: {
        // The block's input minus the broadcast of its reduction.
        std::string input = i >= 3 ? absl::StrCat("v", i - 3) : "p0";
        absl::StrAppend(&text, "  ", root, name, " = f32[16,256] subtract(",
                        input, ", ", previous, ")\n");
        break;
      }
      default:
        absl::StrAppend(&text, "  ", root, name, " = f32[16,256] exponential(",
                        previous, ")\n");
        break;
    }
    previous = name;
  }
  return text + "}\n";
}

void RunAnalysis(benchmark::State& state, std::string (*generate)(int64_t)) {
  const int64_t n = state.range(0);
  std::string text = generate(n);
  auto module = ParseHloModule(text);
  if (!module.ok()) {
    state.SkipWithError(std::string(module.status().message()).c_str());
    return;
  }
  const HloComputation& fusion = *(*module)->entry_computation();
  mlir::MLIRContext context;
  int64_t maps = 0;
  for (auto _ : state) {
    HloInstructionIndexing indexing = ComputeComputationOutputToInputIndexing(
        fusion, fusion.root(), 0, &context);
    maps =
        indexing.indexing_maps.empty() ? 0 : indexing.indexing_maps[0].size();
    benchmark::DoNotOptimize(indexing);
  }
  state.counters["instructions"] = fusion.instruction_count();
  state.counters["maps_of_p0"] = maps;
  state.counters["us_per_instruction"] =
      benchmark::Counter(fusion.instruction_count(),
                         benchmark::Counter::kIsIterationInvariantRate |
                             benchmark::Counter::kInvert);
}

void BM_ElementwiseChain(benchmark::State& state) {
  RunAnalysis(state, ElementwiseChain);
}
void BM_ReshapeTransposeChain(benchmark::State& state) {
  RunAnalysis(state, ReshapeTransposeChain);
}
void BM_BroadcastReduceBlocks(benchmark::State& state) {
  RunAnalysis(state, BroadcastReduceBlocks);
}

// 10, 80, 640, 5120 (each 8x the previous) and 10,000.
void Sizes(benchmark::internal::Benchmark* b) {
  for (int64_t n : {10, 80, 640, 5120, 10000}) b->Arg(n);
  b->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_ElementwiseChain)->Apply(Sizes);
BENCHMARK(BM_ReshapeTransposeChain)->Apply(Sizes);
BENCHMARK(BM_BroadcastReduceBlocks)->Apply(Sizes);

}  // namespace
}  // namespace xla_index
