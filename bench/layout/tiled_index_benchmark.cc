// Tiled linear index throughput: the direct formula (TiledLayout's index
// arithmetic) versus evaluating the layout's indexing map, element by
// element over whole arrays. Results are in docs/PERFORMANCE.md, "Tiled
// layouts".
//
//   bazel run -c opt //bench/layout:tiled_index_benchmark

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "benchmark/benchmark.h"
#include "hlo/shape.h"
#include "layout/layout_indexing_map.h"
#include "layout/separable_offsets.h"
#include "layout/shape_layout.h"
#include "layout/tiled_layout.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {
namespace {

// The shapes measured, by benchmark argument.
const char* const kShapes[] = {
    // Untiled, column-major: the map is a strided sum.
    "f32[256,256]{0,1}",
    // The TPU bf16 layout of XLA's shapes-and-layout documentation, scaled
    // down: two tiles, no padding.
    "bf16[4,64,1024]{2,1,0:T(8,128)(2,1)}",
    // One tile with padding in both tiled dimensions.
    "f32[100,1000]{1,0:T(8,128)}",
    // Combined dimensions then a tile (the `*` example of XLA's tiled-layout
    // documentation).
    "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
};

TiledLayout LayoutOf(int shape_number) {
  absl::StatusOr<Shape> shape = ParseShape(kShapes[shape_number]);
  absl::StatusOr<TiledLayout> layout = TiledLayoutOf(*shape);
  return *layout;
}

// Calls visit(index) for every logical index in row-major order.
template <typename Visit>
void ForEachElement(const TiledLayout& layout, Visit visit) {
  const absl::Span<const int64_t> dims = layout.dimensions();
  std::vector<int64_t> index(dims.size(), 0);
  for (int64_t e = 0; e < layout.element_count(); ++e) {
    visit(index);
    for (size_t k = dims.size(); k-- > 0;) {
      if (++index[k] < dims[k]) break;
      index[k] = 0;
    }
  }
}

void SetLabels(benchmark::State& state, const TiledLayout& layout) {
  state.SetItemsProcessed(state.iterations() * layout.element_count());
  state.SetLabel(kShapes[state.range(0)]);
}

// The baseline: TiledLayout::LinearIndex, the documented definition step by
// step (transpose, combine, divide and take remainders, linearize).
void BM_DirectFormula(benchmark::State& state) {
  const TiledLayout layout = LayoutOf(state.range(0));
  for (auto _ : state) {
    int64_t sum = 0;
    ForEachElement(layout, [&](const std::vector<int64_t>& index) {
      sum += layout.LinearIndex(index);
    });
    benchmark::DoNotOptimize(sum);
  }
  SetLabels(state, layout);
}

// SeparableOffsets: one table load per dimension (layouts without `*`).
void BM_SeparableOffsets(benchmark::State& state) {
  const TiledLayout layout = LayoutOf(state.range(0));
  std::optional<SeparableOffsets> offsets = SeparableOffsets::Create(layout);
  if (!offsets) {
    state.SkipWithError("the layout combines dimensions: no tables");
    return;
  }
  for (auto _ : state) {
    int64_t sum = 0;
    ForEachElement(layout, [&](const std::vector<int64_t>& index) {
      sum += offsets->LinearIndex(index);
    });
    benchmark::DoNotOptimize(sum);
  }
  SetLabels(state, layout);
}

// IndexingMap::Evaluate on the logical -> linear map: the public way to
// evaluate a map, which returns a fresh vector of results.
void BM_ThroughMapEvaluate(benchmark::State& state) {
  const TiledLayout layout = LayoutOf(state.range(0));
  mlir::MLIRContext context;
  const IndexingMap map = LogicalToLinearMap(layout, &context);
  for (auto _ : state) {
    int64_t sum = 0;
    ForEachElement(layout, [&](const std::vector<int64_t>& index) {
      sum += (*map.Evaluate(index, {}))[0];
    });
    benchmark::DoNotOptimize(sum);
  }
  SetLabels(state, layout);
}

// EvaluateAffineExpr on the map's single result: the expression walk alone,
// without the results vector.
void BM_ThroughMapExpression(benchmark::State& state) {
  const TiledLayout layout = LayoutOf(state.range(0));
  mlir::MLIRContext context;
  const IndexingMap map = LogicalToLinearMap(layout, &context);
  const mlir::AffineExpr offset = map.GetAffineMap().getResult(0);
  for (auto _ : state) {
    int64_t sum = 0;
    ForEachElement(layout, [&](const std::vector<int64_t>& index) {
      sum += *EvaluateAffineExpr(offset, index, {});
    });
    benchmark::DoNotOptimize(sum);
  }
  SetLabels(state, layout);
}

// Building and simplifying the logical -> linear map once.
void BM_BuildMap(benchmark::State& state) {
  const TiledLayout layout = LayoutOf(state.range(0));
  mlir::MLIRContext context;
  for (auto _ : state) {
    IndexingMap map = LogicalToLinearMap(layout, &context);
    benchmark::DoNotOptimize(map);
  }
  state.SetLabel(kShapes[state.range(0)]);
}

BENCHMARK(BM_DirectFormula)->DenseRange(0, 3);
// Shape 3 combines dimensions: SeparableOffsets has no tables for it.
BENCHMARK(BM_SeparableOffsets)->DenseRange(0, 2);
BENCHMARK(BM_ThroughMapEvaluate)->DenseRange(0, 3);
BENCHMARK(BM_ThroughMapExpression)->DenseRange(0, 3);
BENCHMARK(BM_BuildMap)->DenseRange(0, 3);

}  // namespace
}  // namespace xla_index
