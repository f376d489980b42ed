// Speed of the analysis layer on the softmax fusion of XLA's
// indexing-analysis documentation (f32[2,65,125]) and a transposing fusion
// of real size (f32[1024,4096]): one coalescing report (two thread-to-offset
// compositions and 32 warp threads per read), one utilization report (exact
// per-result counting, no enumeration of the output), one tile report (every
// instruction of the fusion).
//
// Run: bazel run -c opt //bench/analysis:analysis_benchmark
//
// CPU time per report, -c opt, on the shared 2-core machine (2026-11-22):
//   coalescing   softmax 131 us   transpose-add 76 us   (unroll 4)
//   utilization  softmax  24 us   transpose-add  9 us
//   tile         softmax 131 us   transpose-add 44 us   (1,8,125) / (8,128)

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "benchmark/benchmark.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/coalescing.h"
#include "xla_index/analysis/fusion_utilization.h"
#include "xla_index/analysis/symbolic_tile.h"

namespace xla_index {
namespace {

constexpr char kSoftmax[] = R"(
HloModule softmax
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
fused {
  p0 = f32[2,65,125] parameter(0)
  ninf = f32[] constant(-inf)
  mx = f32[2,65] reduce(p0, ninf), dimensions={2}, to_apply=max
  mxb = f32[2,65,125] broadcast(mx), dimensions={0,1}
  sub = f32[2,65,125] subtract(p0, mxb)
  ex = f32[2,65,125] exponential(sub)
  zero = f32[] constant(0)
  sm = f32[2,65] reduce(ex, zero), dimensions={2}, to_apply=add
  smb = f32[2,65,125] broadcast(sm), dimensions={0,1}
  ROOT div = f32[2,65,125] divide(ex, smb)
}
ENTRY e {
  x = f32[2,65,125] parameter(0)
  ROOT f = f32[2,65,125] fusion(x), kind=kCustom, calls=fused
})";

constexpr char kTransposeAdd[] = R"(
p0 = f32[1024,4096]{1,0} parameter(0)
p1 = f32[4096,1024]{1,0} parameter(1)
t = f32[1024,4096]{1,0} transpose(p1), dimensions={1,0}
ROOT a = f32[1024,4096]{1,0} add(p0, t)
)";

std::unique_ptr<HloModule> MustParse(const char* text) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  if (!module.ok()) {
    fprintf(stderr, "%s\n", std::string(module.status().message()).c_str());
    abort();
  }
  return std::move(*module);
}

const char* ModuleText(int64_t which) {
  return which == 0 ? kSoftmax : kTransposeAdd;
}

void BM_Coalescing(benchmark::State& state) {
  mlir::MLIRContext context;
  std::unique_ptr<HloModule> module = MustParse(ModuleText(state.range(0)));
  CoalescingOptions options;
  options.unroll = 4;
  for (auto _ : state) {
    absl::StatusOr<CoalescingReport> report =
        AnalyzeCoalescing(*module, options, &context);
    benchmark::DoNotOptimize(report);
  }
}
BENCHMARK(BM_Coalescing)->Arg(0)->Arg(1);

void BM_Utilization(benchmark::State& state) {
  mlir::MLIRContext context;
  std::unique_ptr<HloModule> module = MustParse(ModuleText(state.range(0)));
  for (auto _ : state) {
    absl::StatusOr<UtilizationReport> report =
        AnalyzeUtilization(*module, &context);
    benchmark::DoNotOptimize(report);
  }
}
BENCHMARK(BM_Utilization)->Arg(0)->Arg(1);

void BM_Tiling(benchmark::State& state) {
  mlir::MLIRContext context;
  std::unique_ptr<HloModule> module = MustParse(ModuleText(state.range(0)));
  std::vector<int64_t> sizes = state.range(0) == 0
                                   ? std::vector<int64_t>{1, 8, 125}
                                   : std::vector<int64_t>{8, 128};
  for (auto _ : state) {
    absl::StatusOr<TileReport> report = AnalyzeTiling(*module, sizes, &context);
    benchmark::DoNotOptimize(report);
  }
}
BENCHMARK(BM_Tiling)->Arg(0)->Arg(1);

}  // namespace
}  // namespace xla_index
