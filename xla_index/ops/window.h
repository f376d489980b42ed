#ifndef XLA_INDEX_OPS_WINDOW_H_
#define XLA_INDEX_OPS_WINDOW_H_

// One spatial dimension of a window, shared by reduce-window
// (ops/reduce_window.cc) and convolution (ops/convolution.cc), in both
// directions.
//
// The window slides over a base that is edge-padded by `padding_low` /
// `padding_high` and dilated by `base_dilation`: output position o and
// window position s meet at the padded position
//   p = o * stride + s * window_dilation,
// which holds operand element e when p - padding_low = e * base_dilation
// (any other p is padding).

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "hlo/attributes.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

/// An index expression and the constraints under which it is a real
/// element (not padding, inside the output).
struct WindowedIndex {
  mlir::AffineExpr expr;
  std::vector<IndexingConstraint> constraints;
};

/// The sizes one window dimension relates: the operand (base) and output
/// sizes along it, and its number (named in errors).
struct WindowExtent {
  int64_t dimension = 0;
  int64_t operand_size = 0;
  int64_t output_size = 0;
};

/// Output to input: the operand index read at output position `output_dim`
/// and window position `window` (null for a size-1 window),
/// (p - low) floordiv base_dilation, constrained to p - low in
/// [0, (operand_size - 1) * base_dilation] and, with base dilation, to a
/// multiple of it. This is the window map composed with the implicit pad's
/// indexing (ComputePadIndexingMap, base dilation as interior padding),
/// written out directly. An OutOfRange error naming the attribute and the
/// window dimension when p - low or that bound does not fit in int64.
absl::StatusOr<WindowedIndex> ComputeWindowedOperandIndex(
    mlir::AffineExpr output_dim, mlir::AffineExpr window,
    const WindowDimension& w, const WindowExtent& extent);

/// Input to output: the output position fed by operand element `element`
/// at window position `position` (null for a size-1 window; either may be
/// an expression over [0, operand_size - 1] and [0, size - 1]),
/// (e * base_dilation + low - s * window_dilation) floordiv stride,
/// constrained to a multiple of the stride (with a stride) within
/// [0, (output_size - 1) * stride]. An OutOfRange error as above when the
/// dividend or that bound does not fit in int64.
absl::StatusOr<WindowedIndex> ComputeWindowedOutputIndex(
    mlir::AffineExpr element, mlir::AffineExpr position,
    const WindowDimension& w, const WindowExtent& extent);

/// Appends `index`'s constraints to `constraints` and returns its expr.
mlir::AffineExpr TakeWindowedIndex(
    WindowedIndex index, std::vector<IndexingConstraint>& constraints);

/// Size, stride and both dilations are at least 1.
bool IsValidWindowDimension(const WindowDimension& w);

}  // namespace xla_index

#endif  // XLA_INDEX_OPS_WINDOW_H_
