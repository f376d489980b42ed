#include "xla_index/ops/window.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "xla_index/core/checked_affine_expr.h"
#include "xla_index/ops/rule_helpers.h"

namespace xla_index {

using mlir::AffineExpr;

namespace {

// c * e, or e for c = 1.
absl::StatusOr<AffineExpr> Scale(AffineExpr e, int64_t c) {
  if (c == 1) return e;
  return CheckedAffineMul(e, mlir::getAffineConstantExpr(c, e.getContext()));
}

}  // namespace

absl::StatusOr<WindowedIndex> ComputeWindowedOperandIndex(
    AffineExpr output_dim, AffineExpr window, const WindowDimension& w,
    const WindowExtent& extent) {
  const std::string where = absl::StrCat("window dimension ", extent.dimension);
  // p = o * stride + s * window_dilation lies in [0, reach]; the operand
  // element e sits at p - low = e * base_dilation.
  XI_ASSIGN_OR_RETURN(
      int64_t last_output,
      FitsInInt64(
          CheckedMul(std::max<int64_t>(extent.output_size - 1, 0), w.stride),
          "(output size - 1) * stride", where));
  XI_ASSIGN_OR_RETURN(
      int64_t reach,
      FitsInInt64(CheckedMulAdd(w.size - 1, w.window_dilation, last_output),
                  "(output size - 1) * stride + (window size - 1) * "
                  "window_dilation",
                  where));
  XI_ASSIGN_OR_RETURN(int64_t minus_low, FitsInInt64(CheckedNeg(w.padding_low),
                                                     "-padding_low", where));
  XI_RETURN_IF_ERROR(
      FitsInInt64(CheckedAdd(reach, minus_low),
                  "(output size - 1) * stride + (window size - 1) * "
                  "window_dilation - padding_low",
                  where)
          .status());
  XI_ASSIGN_OR_RETURN(
      int64_t last_element,
      FitsInInt64(CheckedMul(extent.operand_size - 1, w.base_dilation),
                  "(operand size - 1) * base_dilation", where));

  mlir::MLIRContext* context = output_dim.getContext();
  XI_ASSIGN_OR_RETURN(AffineExpr position, Scale(output_dim, w.stride));
  if (window) {
    XI_ASSIGN_OR_RETURN(AffineExpr offset, Scale(window, w.window_dilation));
    XI_ASSIGN_OR_RETURN(position, CheckedAffineAdd(position, offset));
  }
  XI_ASSIGN_OR_RETURN(AffineExpr shifted,
                      CheckedAffineAdd(position, mlir::getAffineConstantExpr(
                                                     minus_low, context)));
  WindowedIndex result;
  result.constraints.push_back({shifted, Interval{0, last_element}});
  result.expr = UnstrideIndex(shifted, w.base_dilation, result.constraints);
  return result;
}

absl::StatusOr<WindowedIndex> ComputeWindowedOutputIndex(
    AffineExpr element, AffineExpr position, const WindowDimension& w,
    const WindowExtent& extent) {
  const std::string where = absl::StrCat("window dimension ", extent.dimension);
  // scaled = e * base_dilation + low - s * window_dilation is the output
  // position times the stride; it lies in [low - reach, last + low].
  XI_RETURN_IF_ERROR(
      FitsInInt64(CheckedMulAdd(std::max<int64_t>(extent.operand_size - 1, 0),
                                w.base_dilation, w.padding_low),
                  "(operand size - 1) * base_dilation + padding_low", where)
          .status());
  XI_ASSIGN_OR_RETURN(
      int64_t reach, FitsInInt64(CheckedMul(w.size - 1, w.window_dilation),
                                 "(window size - 1) * window_dilation", where));
  XI_RETURN_IF_ERROR(FitsInInt64(CheckedSub(w.padding_low, reach),
                                 "padding_low - (window size - 1) * "
                                 "window_dilation",
                                 where)
                         .status());
  XI_ASSIGN_OR_RETURN(int64_t last_output,
                      FitsInInt64(CheckedMul(extent.output_size - 1, w.stride),
                                  "(output size - 1) * stride", where));

  mlir::MLIRContext* context = element.getContext();
  XI_ASSIGN_OR_RETURN(AffineExpr scaled, Scale(element, w.base_dilation));
  XI_ASSIGN_OR_RETURN(
      scaled, CheckedAffineAdd(
                  scaled, mlir::getAffineConstantExpr(w.padding_low, context)));
  if (position) {
    XI_ASSIGN_OR_RETURN(AffineExpr offset, Scale(position, w.window_dilation));
    XI_ASSIGN_OR_RETURN(scaled, CheckedAffineSub(scaled, offset));
  }
  WindowedIndex result;
  result.expr = UnstrideIndex(scaled, w.stride, result.constraints);
  result.constraints.push_back({scaled, Interval{0, last_output}});
  return result;
}

AffineExpr TakeWindowedIndex(WindowedIndex index,
                             std::vector<IndexingConstraint>& constraints) {
  constraints.insert(constraints.end(), index.constraints.begin(),
                     index.constraints.end());
  return index.expr;
}

bool IsValidWindowDimension(const WindowDimension& w) {
  return w.size >= 1 && w.stride >= 1 && w.base_dilation >= 1 &&
         w.window_dilation >= 1;
}

}  // namespace xla_index
