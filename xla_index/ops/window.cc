#include "xla_index/ops/window.h"

namespace xla_index {

using mlir::AffineExpr;

WindowedIndex ComputeWindowedOperandIndex(AffineExpr output_dim,
                                          AffineExpr window,
                                          const WindowDimension& w,
                                          int64_t operand_size) {
  AffineExpr position = output_dim * w.stride;
  if (window) position = position + window * w.window_dilation;
  AffineExpr shifted = position - w.padding_low;
  WindowedIndex result;
  result.expr =
      w.base_dilation == 1 ? shifted : shifted.floorDiv(w.base_dilation);
  result.constraints.push_back(
      {shifted, Interval{0, (operand_size - 1) * w.base_dilation}});
  if (w.base_dilation != 1) {
    result.constraints.push_back(
        {shifted % w.base_dilation, Interval::Point(0)});
  }
  return result;
}

WindowedIndex ComputeWindowedOutputIndex(AffineExpr element,
                                         AffineExpr position,
                                         const WindowDimension& w,
                                         int64_t output_size) {
  // The output position times the stride.
  AffineExpr scaled = element * w.base_dilation + w.padding_low;
  if (position) scaled = scaled - position * w.window_dilation;
  WindowedIndex result;
  result.expr = w.stride == 1 ? scaled : scaled.floorDiv(w.stride);
  if (w.stride != 1) {
    result.constraints.push_back({scaled % w.stride, Interval::Point(0)});
  }
  result.constraints.push_back(
      {scaled, Interval{0, (output_size - 1) * w.stride}});
  return result;
}

bool IsValidWindowDimension(const WindowDimension& w) {
  return w.size >= 1 && w.stride >= 1 && w.base_dilation >= 1 &&
         w.window_dilation >= 1;
}

}  // namespace xla_index
