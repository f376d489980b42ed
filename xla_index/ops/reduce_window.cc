// reduce-window (variadic): both directions. The window of each dimension
// indexes as described in ops/window.h.
//
// Output to input, the example of XLA's indexing-analysis documentation,
// "ReduceWindow": the window map d * stride + s * window_dilation (one
// range variable per dim whose window is wider than 1), composed with the
// indexing of the implicit pad (edge padding, and base dilation as interior
// padding). Inits are read at `()`.
//   reduce-window = f32[1024, 3] reduce-window(f32[1024, 514] p0, c_inf),
//                   window={size=1x512 pad=0_0x0_0}
//   p0: (d0, d1)[s0] -> (d0, d1 + s0), s0 in [0, 511]
//   c_inf: (d0, d1) -> ()
//
// Input to output (in the documentation's style): operand element e (per
// dim) feeds the outputs o whose window covers it,
// o * stride + s * window_dilation - low = e * base_dilation for a window
// position s: one range variable per dim with a window wider than 1,
//   (d)[s] -> ((d * base_dilation + low - s * window_dilation) floordiv
//   stride), constraint (...) mod stride in [0, 0] and the quotient within
//   the output;
// the init values feed every output element, `()[s...] -> (s...)`.
//   reduce-window(f32[8] p0, c), window={size=3 stride=2}:
//   p0: (d0)[s0] -> ((d0 - s0) floordiv 2), (d0 - s0) mod 2 in [0, 0],
//       d0 - s0 in [0, 4], d0 in [0, 6] (element 7 is in no window)

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/status_macros.h"
#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/rule_helpers.h"
#include "xla_index/ops/window.h"

namespace xla_index {
namespace {

using mlir::AffineExpr;
using mlir::getAffineDimExpr;
using mlir::getAffineSymbolExpr;

// The (first) output's shape.
const Shape& FirstOutput(const HloInstruction* reduce_window) {
  return reduce_window->shape().IsTuple()
             ? reduce_window->shape().tuple_shapes(0)
             : reduce_window->shape();
}

}  // namespace

// nullopt when the operands are not N >= 1 array inputs of equal dims then
// N scalar init values, the output (or first tuple element) has another
// rank, the window has another rank, or a window size, stride or dilation
// is below 1.
std::optional<std::vector<WindowDimension>> GetReduceWindowWindow(
    const HloInstruction* reduce_window) {
  if (!HasInputsAndInits(reduce_window)) return std::nullopt;
  const int64_t rank = reduce_window->operand(0)->shape().rank();
  const Shape& out = FirstOutput(reduce_window);
  if (!out.IsArray() || out.rank() != rank) return std::nullopt;
  std::vector<WindowDimension> window = reduce_window->window().dimensions;
  if (!reduce_window->has_window()) window.assign(rank, WindowDimension{});
  if (static_cast<int64_t>(window.size()) != rank) return std::nullopt;
  for (const WindowDimension& w : window) {
    if (!IsValidWindowDimension(w)) return std::nullopt;
  }
  return window;
}

namespace {

// The map of each input in either direction (see the top of the file):
// over the output's dims to operand indices when `output_to_input`, else
// over the operand's dims to output indices. One range variable per window
// dimension wider than 1 in both.
absl::StatusOr<IndexingMap> ReduceWindowInputMap(
    const HloInstruction* reduce_window,
    absl::Span<const WindowDimension> window, bool output_to_input,
    mlir::MLIRContext* context) {
  const Shape& in = reduce_window->operand(0)->shape();
  const Shape& out = FirstOutput(reduce_window);
  std::vector<AffineExpr> exprs;
  std::vector<int64_t> symbol_sizes;
  std::vector<IndexingConstraint> constraints;
  for (int64_t i = 0; i < in.rank(); ++i) {
    const WindowDimension& w = window[i];
    AffineExpr symbol;
    if (w.size > 1) {
      symbol = getAffineSymbolExpr(symbol_sizes.size(), context);
      symbol_sizes.push_back(w.size);
    }
    const WindowExtent extent{i, in.dimensions(i), out.dimensions(i)};
    AffineExpr dim = getAffineDimExpr(i, context);
    XI_ASSIGN_OR_RETURN(
        WindowedIndex index,
        output_to_input ? ComputeWindowedOperandIndex(dim, symbol, w, extent)
                        : ComputeWindowedOutputIndex(dim, symbol, w, extent));
    exprs.push_back(TakeWindowedIndex(std::move(index), constraints));
  }
  return MakeConstrainedMap(
      output_to_input ? out.dimensions() : in.dimensions(), symbol_sizes, exprs,
      constraints, context);
}

}  // namespace

HloInstructionIndexing ComputeOutputToInputReduceWindowIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  std::optional<std::vector<WindowDimension>> window =
      GetReduceWindowWindow(instruction);
  if (!window.has_value()) return AttributesDoNotFitEachOperand(instruction);
  const int64_t count = instruction->operand_count() / 2;
  IndexingMap input_map = MapOrUndefined(
      instruction, ReduceWindowInputMap(instruction, *window,
                                        /*output_to_input=*/true, context));
  std::vector<IndexingMap> maps(count, input_map);
  maps.insert(maps.end(), count,
              ScalarReadMap(FirstOutput(instruction).dimensions(), context));
  return HloInstructionIndexing::FromIndexingMaps(maps);
}

HloInstructionIndexing ComputeInputToOutputReduceWindowIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  std::optional<std::vector<WindowDimension>> window =
      GetReduceWindowWindow(instruction);
  if (!window.has_value()) return AttributesDoNotFitEachOutput(instruction);
  if (input_id >= instruction->operand_count() / 2) {
    return SameMapForEachOutput(
        instruction,
        ScalarFeedsAllMap(FirstOutput(instruction).dimensions(), context));
  }
  return SameMapForEachOutput(
      instruction,
      MapOrUndefined(instruction,
                     ReduceWindowInputMap(instruction, *window,
                                          /*output_to_input=*/false, context)));
}

}  // namespace xla_index
