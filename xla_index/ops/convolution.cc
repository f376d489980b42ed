// convolution: both directions. The examples are written in the style of
// XLA's indexing-analysis documentation (which has no convolution
// example); the semantics are XLA's operation semantics, "Conv".
//
// Spatial dims index like reduce-window (ops/window.h) with the kernel's
// spatial dims as the window, lhs_dilate as base dilation and rhs_dilate
// as window dilation.
//
// Output to input: the kernel is read at the same window range variables
// (reversed when rhs_reversal); the input feature is a range variable
// shared with the kernel's input feature, offset by the feature group of
// the output feature; with batch groups the input batch is the batch group
// of the output feature times the output batch size plus the output batch.
//   conv = f32[2,3,7,4] convolution(f32[2,5,7,8] lhs, f32[3,1,8,4] rhs),
//          window={size=3x1}, dim_labels=b01f_01io->b01f
//   lhs: (d0, d1, d2, d3)[s0, s1] -> (d0, d1 + s0, d2, s1)
//   rhs: (d0, d1, d2, d3)[s0, s1] -> (s0, 0, s1, d3)
//   s0 in [0, 2] (window), s1 in [0, 7] (input feature)
//
// Input to output: an input element feeds the output spatial positions
// whose window covers it (one range variable per window position), and
// every output feature of its feature (or batch) group (a range variable);
// a kernel element feeds every output position and batch (range
// variables) at its output feature: every window reads the whole kernel.
//   conv = f32[2,3,4] convolution(f32[2,5,8] lhs, f32[3,8,4] rhs),
//          window={size=3}, dim_labels=b0f_0io->b0f
//   lhs: (d0, d1, d2)[s0, s1] -> (d0, d1 - s0, s1), d1 - s0 in [0, 2],
//        s0 in [0, 2], s1 in [0, 3]

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "base/checked_arithmetic.h"
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

// Each of input, kernel and output: the spatial dims then the two others
// are a permutation of the dims.
bool HasPermutedDimensionNumbers(const ConvolutionDimensionNumbers& dn,
                                 int64_t rank) {
  auto is_permutation = [rank](std::vector<int64_t> dims, int64_t first,
                               int64_t second) {
    dims.push_back(first);
    dims.push_back(second);
    return IsPermutation(dims, rank);
  };
  return is_permutation(dn.input_spatial_dimensions, dn.input_batch_dimension,
                        dn.input_feature_dimension) &&
         is_permutation(dn.kernel_spatial_dimensions,
                        dn.kernel_input_feature_dimension,
                        dn.kernel_output_feature_dimension) &&
         is_permutation(dn.output_spatial_dimensions, dn.output_batch_dimension,
                        dn.output_feature_dimension);
}

// Group counts of at least 1 that divide the features and batches as XLA
// requires.
bool HasConsistentGroups(const HloInstruction* convolution) {
  const Shape& out = convolution->shape();
  const Shape& lhs = convolution->operand(0)->shape();
  const Shape& rhs = convolution->operand(1)->shape();
  const ConvolutionDimensionNumbers& dn =
      convolution->convolution_dimension_numbers();
  const int64_t fgc = convolution->feature_group_count();
  const int64_t bgc = convolution->batch_group_count();
  const int64_t in_features = lhs.dimensions(dn.input_feature_dimension);
  const int64_t out_features = out.dimensions(dn.output_feature_dimension);
  // A product that does not fit in int64 cannot equal a size.
  return fgc >= 1 && bgc >= 1 && in_features % fgc == 0 &&
         out_features % fgc == 0 && out_features % bgc == 0 &&
         CheckedMul(rhs.dimensions(dn.kernel_input_feature_dimension), fgc) ==
             in_features &&
         CheckedMul(out.dimensions(dn.output_batch_dimension), bgc) ==
             lhs.dimensions(dn.input_batch_dimension) &&
         rhs.dimensions(dn.kernel_output_feature_dimension) == out_features;
}

// The sizes spatial dimension k of `convolution` relates.
WindowExtent SpatialExtent(const HloInstruction* convolution, int64_t k) {
  const ConvolutionDimensionNumbers& dn =
      convolution->convolution_dimension_numbers();
  return WindowExtent{
      k,
      convolution->operand(0)->shape().dimensions(
          dn.input_spatial_dimensions[k]),
      convolution->shape().dimensions(dn.output_spatial_dimensions[k])};
}

// Input to output for the kernel: every output position and batch reads
// the whole kernel window (ComputeOutputToInputConvolutionIndexing), so
// kernel element (..., i, o) feeds all of them at output feature o.
//   conv = f32[2,3,4] convolution(f32[2,5,8] lhs, f32[3,8,4] rhs),
//          window={size=3}, dim_labels=b0f_0io->b0f
//   rhs: (d0, d1, d2)[s0, s1] -> (s0, s1, d2), s0 in [0, 1], s1 in [0, 2]
HloInstructionIndexing KernelToOutputIndexing(const HloInstruction* instruction,
                                              mlir::MLIRContext* context) {
  const Shape& out = instruction->shape();
  const Shape& rhs = instruction->operand(1)->shape();
  const ConvolutionDimensionNumbers& dn =
      instruction->convolution_dimension_numbers();
  std::vector<AffineExpr> exprs(out.rank());
  std::vector<int64_t> symbol_sizes;
  for (int64_t d = 0; d < out.rank(); ++d) {
    if (d == dn.output_feature_dimension) {
      exprs[d] = getAffineDimExpr(dn.kernel_output_feature_dimension, context);
      continue;
    }
    exprs[d] = getAffineSymbolExpr(symbol_sizes.size(), context);
    symbol_sizes.push_back(out.dimensions(d));
  }
  return OneMap(
      MakeConstrainedMap(rhs.dimensions(), symbol_sizes, exprs, {}, context));
}

}  // namespace

// nullopt when: operands and output are not all arrays of one rank >= 2,
// the dimension numbers are not a permutation of the dims for each of
// input, kernel and output, the window has another rank, a window size
// differs from the kernel's spatial size, a stride or dilation is below 1,
// a group count is below 1 or both are above 1, input features differ from
// kernel input features * feature_group_count, output features are not
// divisible by either group count or differ from the kernel's, or the
// input batch differs from output batch * batch_group_count.
std::optional<std::vector<WindowDimension>> GetConvolutionWindow(
    const HloInstruction* convolution) {
  if (!AllArraysWithOperands(convolution, 2)) return std::nullopt;
  const Shape& out = convolution->shape();
  const Shape& lhs = convolution->operand(0)->shape();
  const Shape& rhs = convolution->operand(1)->shape();
  const ConvolutionDimensionNumbers& dn =
      convolution->convolution_dimension_numbers();
  const int64_t rank = out.rank();
  const int64_t spatial = rank - 2;
  if (lhs.rank() != rank || rhs.rank() != rank || spatial < 0) {
    return std::nullopt;
  }
  // XLA does not combine feature and batch grouping (the verifier rejects
  // it), and the rules do not index it.
  if (convolution->feature_group_count() > 1 &&
      convolution->batch_group_count() > 1) {
    return std::nullopt;
  }
  if (!HasPermutedDimensionNumbers(dn, rank)) return std::nullopt;
  std::vector<WindowDimension> window = convolution->window().dimensions;
  if (!convolution->has_window()) {
    // No window attribute: the window is the whole kernel, stride 1.
    window.assign(spatial, WindowDimension{});
    for (int64_t k = 0; k < spatial; ++k) {
      window[k].size = rhs.dimensions(dn.kernel_spatial_dimensions[k]);
    }
  }
  if (static_cast<int64_t>(window.size()) != spatial) return std::nullopt;
  for (int64_t k = 0; k < spatial; ++k) {
    if (!IsValidWindowDimension(window[k]) ||
        rhs.dimensions(dn.kernel_spatial_dimensions[k]) != window[k].size) {
      return std::nullopt;
    }
  }
  if (!HasConsistentGroups(convolution)) return std::nullopt;
  return window;
}

HloInstructionIndexing ComputeOutputToInputConvolutionIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  std::optional<std::vector<WindowDimension>> window =
      GetConvolutionWindow(instruction);
  if (!window.has_value()) return AttributesDoNotFitEachOperand(instruction);
  const Shape& out = instruction->shape();
  const Shape& rhs = instruction->operand(1)->shape();
  const ConvolutionDimensionNumbers& dn =
      instruction->convolution_dimension_numbers();
  const int64_t rank = out.rank();
  const int64_t spatial = rank - 2;
  const int64_t fgc = instruction->feature_group_count();
  const int64_t bgc = instruction->batch_group_count();
  const int64_t out_features = out.dimensions(dn.output_feature_dimension);
  const int64_t out_batch = out.dimensions(dn.output_batch_dimension);
  const int64_t kernel_in_features =
      rhs.dimensions(dn.kernel_input_feature_dimension);
  // Symbols: one window variable per spatial dim, then the input feature.
  std::vector<int64_t> symbol_sizes;
  std::vector<AffineExpr> lhs_exprs(rank), rhs_exprs(rank);
  std::vector<IndexingConstraint> constraints;
  // The input's index may not fit in int64; the kernel's always does.
  absl::Status lhs_status;
  for (int64_t k = 0; k < spatial; ++k) {
    const WindowDimension& w = (*window)[k];
    AffineExpr s = getAffineSymbolExpr(k, context);
    symbol_sizes.push_back(w.size);
    absl::StatusOr<WindowedIndex> index = ComputeWindowedOperandIndex(
        getAffineDimExpr(dn.output_spatial_dimensions[k], context), s, w,
        SpatialExtent(instruction, k));
    if (index.ok()) {
      lhs_exprs[dn.input_spatial_dimensions[k]] =
          TakeWindowedIndex(*std::move(index), constraints);
    } else if (lhs_status.ok()) {
      lhs_status = index.status();
    }
    rhs_exprs[dn.kernel_spatial_dimensions[k]] =
        w.window_reversal ? (w.size - 1) - s : s;
  }
  AffineExpr feature = getAffineSymbolExpr(spatial, context);
  symbol_sizes.push_back(kernel_in_features);
  AffineExpr out_feature =
      getAffineDimExpr(dn.output_feature_dimension, context);
  AffineExpr out_batch_expr =
      getAffineDimExpr(dn.output_batch_dimension, context);
  // Output feature f belongs to feature group f floordiv (out_features /
  // fgc), which reads input features [g * kernel_in_features, ...). The
  // group checks bound these by the input's sizes (no constant folds).
  lhs_exprs[dn.input_feature_dimension] =
      fgc == 1 ? feature
               : out_feature.floorDiv(out_features / fgc) * kernel_in_features +
                     feature;
  // With batch groups, output feature f reads the batch group f floordiv
  // (out_features / bgc), a block of out_batch input batches.
  lhs_exprs[dn.input_batch_dimension] =
      bgc == 1 ? out_batch_expr
               : out_feature.floorDiv(out_features / bgc) * out_batch +
                     out_batch_expr;
  rhs_exprs[dn.kernel_input_feature_dimension] = feature;
  rhs_exprs[dn.kernel_output_feature_dimension] = out_feature;

  IndexingMap lhs_map =
      lhs_status.ok() ? MakeConstrainedMap(out.dimensions(), symbol_sizes,
                                           lhs_exprs, constraints, context)
                      : MapOrUndefined(instruction, lhs_status);
  // The whole kernel window is read, also where the input position is
  // padding or a hole of lhs dilation (the kernel then multiplies a zero),
  // as XLA's indexing analysis has it.
  IndexingMap rhs_map = MakeConstrainedMap(out.dimensions(), symbol_sizes,
                                           rhs_exprs, {}, context);
  return HloInstructionIndexing::FromIndexingMaps({lhs_map, rhs_map});
}

HloInstructionIndexing ComputeInputToOutputConvolutionIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  std::optional<std::vector<WindowDimension>> window =
      GetConvolutionWindow(instruction);
  if (!window.has_value()) return AttributesDoNotFitEachOutput(instruction);
  if (input_id == 1) return KernelToOutputIndexing(instruction, context);
  const Shape& out = instruction->shape();
  const Shape& lhs = instruction->operand(0)->shape();
  const Shape& rhs = instruction->operand(1)->shape();
  const ConvolutionDimensionNumbers& dn =
      instruction->convolution_dimension_numbers();
  const int64_t spatial = out.rank() - 2;
  const int64_t fgc = instruction->feature_group_count();
  const int64_t bgc = instruction->batch_group_count();
  const int64_t out_features = out.dimensions(dn.output_feature_dimension);
  const int64_t out_batch = out.dimensions(dn.output_batch_dimension);
  const int64_t kernel_in = rhs.dimensions(dn.kernel_input_feature_dimension);
  std::vector<AffineExpr> exprs(out.rank());
  std::vector<int64_t> symbol_sizes;
  std::vector<IndexingConstraint> constraints;
  auto symbol = [&](int64_t size) {
    symbol_sizes.push_back(size);
    return getAffineSymbolExpr(symbol_sizes.size() - 1, context);
  };
  for (int64_t k = 0; k < spatial; ++k) {
    // Output o reads input e at window position p when
    // o * stride + p * window_dilation - low = e * base_dilation.
    const WindowDimension& w = (*window)[k];
    AffineExpr element =
        getAffineDimExpr(dn.input_spatial_dimensions[k], context);
    absl::StatusOr<WindowedIndex> index = ComputeWindowedOutputIndex(
        element, symbol(w.size), w, SpatialExtent(instruction, k));
    if (!index.ok()) return OneMap(MapOrUndefined(instruction, index.status()));
    exprs[dn.output_spatial_dimensions[k]] =
        TakeWindowedIndex(*std::move(index), constraints);
  }
  AffineExpr batch = getAffineDimExpr(dn.input_batch_dimension, context);
  AffineExpr feature = getAffineDimExpr(dn.input_feature_dimension, context);
  exprs[dn.output_batch_dimension] = bgc == 1 ? batch : batch % out_batch;
  // The output features of the element's group.
  const int64_t group_size = out_features / (fgc * bgc);
  AffineExpr group = fgc > 1   ? feature.floorDiv(kernel_in)
                     : bgc > 1 ? batch.floorDiv(out_batch)
                               : AffineExpr();
  AffineExpr offset = symbol(group_size);
  exprs[dn.output_feature_dimension] =
      group ? group * group_size + offset : offset;
  return OneMap(MakeConstrainedMap(lhs.dimensions(), symbol_sizes, exprs,
                                   constraints, context));
}

}  // namespace xla_index
