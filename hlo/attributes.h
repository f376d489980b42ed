#ifndef XLA_INDEX_HLO_ATTRIBUTES_H_
#define XLA_INDEX_HLO_ATTRIBUTES_H_

// Typed values of the HLO instruction attributes that the semantics of the
// ops depend on (XLA's operation-semantics documentation): slice ranges,
// padding configurations, windows, and the dimension numbers of dot, gather,
// scatter and convolution.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace xla_index {

/// One dimension of `slice={[start:limit:stride], ...}`: the output takes
/// operand indices start, start + stride, ... below limit.
struct SliceDimension {
  int64_t start = 0;
  int64_t limit = 0;
  int64_t stride = 1;
  bool operator==(const SliceDimension& o) const {
    return start == o.start && limit == o.limit && stride == o.stride;
  }
};

/// One dimension of `padding=low_high_interior x ...`. Edge padding may be
/// negative (elements are removed); interior padding may not.
struct PaddingDimension {
  int64_t low = 0;
  int64_t high = 0;
  int64_t interior = 0;
  bool operator==(const PaddingDimension& o) const {
    return low == o.low && high == o.high && interior == o.interior;
  }
};
using PaddingConfig = std::vector<PaddingDimension>;

/// One dimension of `window={size=.. stride=.. pad=.. lhs_dilate=..
/// rhs_dilate=.. rhs_reversal=..}` (reduce-window, convolution).
struct WindowDimension {
  int64_t size = 1;
  int64_t stride = 1;
  int64_t padding_low = 0;
  int64_t padding_high = 0;
  /// lhs_dilate: base dilation (holes between the operand's elements).
  int64_t base_dilation = 1;
  /// rhs_dilate: window dilation (holes between the window's elements).
  int64_t window_dilation = 1;
  bool window_reversal = false;
};

struct Window {
  std::vector<WindowDimension> dimensions;
};

/// Dot: lhs_batch_dims, rhs_batch_dims, lhs_contracting_dims,
/// rhs_contracting_dims. Output dimensions are batch, then lhs free, then
/// rhs free (XLA's operation-semantics documentation, DotGeneral).
struct DotDimensionNumbers {
  std::vector<int64_t> lhs_batch_dimensions;
  std::vector<int64_t> rhs_batch_dimensions;
  std::vector<int64_t> lhs_contracting_dimensions;
  std::vector<int64_t> rhs_contracting_dimensions;
};

/// Gather (XLA's operation-semantics documentation): offset_dims,
/// collapsed_slice_dims, start_index_map, index_vector_dim, and the batching
/// dims of newer XLA.
struct GatherDimensionNumbers {
  std::vector<int64_t> offset_dims;
  std::vector<int64_t> collapsed_slice_dims;
  std::vector<int64_t> start_index_map;
  int64_t index_vector_dim = 0;
  std::vector<int64_t> operand_batching_dims;
  std::vector<int64_t> start_indices_batching_dims;
};

/// Scatter (XLA's operation-semantics documentation): update_window_dims,
/// inserted_window_dims, scatter_dims_to_operand_dims, index_vector_dim,
/// batching dims.
struct ScatterDimensionNumbers {
  std::vector<int64_t> update_window_dims;
  std::vector<int64_t> inserted_window_dims;
  std::vector<int64_t> scatter_dims_to_operand_dims;
  int64_t index_vector_dim = 0;
  std::vector<int64_t> input_batching_dims;
  std::vector<int64_t> scatter_indices_batching_dims;
};

/// Convolution `dim_labels=b01f_01io->b01f`: which dimension of the input,
/// kernel and output is batch / feature / each spatial dimension.
struct ConvolutionDimensionNumbers {
  int64_t input_batch_dimension = 0;
  int64_t input_feature_dimension = 0;
  std::vector<int64_t> input_spatial_dimensions;
  int64_t kernel_input_feature_dimension = 0;
  int64_t kernel_output_feature_dimension = 0;
  std::vector<int64_t> kernel_spatial_dimensions;
  int64_t output_batch_dimension = 0;
  int64_t output_feature_dimension = 0;
  std::vector<int64_t> output_spatial_dimensions;
};

/// `direction=` of compare.
enum class ComparisonDirection { kEq, kNe, kGe, kGt, kLe, kLt };

absl::string_view ComparisonDirectionName(ComparisonDirection direction);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_ATTRIBUTES_H_
