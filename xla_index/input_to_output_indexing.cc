#include "xla_index/input_to_output_indexing.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "hlo/module.h"
#include "hlo/opcode.h"
#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/fusion_indexing.h"
#include "xla_index/reshape_indexing.h"
#include "xla_index/rule_helpers.h"

namespace xla_index {
namespace {

using mlir::AffineExpr;
using mlir::AffineMap;
using mlir::getAffineDimExpr;
using mlir::getAffineSymbolExpr;

int64_t OutputCount(const HloInstruction* instruction) {
  const Shape& shape = instruction->shape();
  return shape.IsTuple() ? static_cast<int64_t>(shape.tuple_shapes().size())
                         : 1;
}

HloInstructionIndexing UndefinedFor(const HloInstruction* instruction) {
  return HloInstructionIndexing::Undefined(OutputCount(instruction));
}

// `()[s0, ..., sn-1] -> (s0, ..., sn-1)`: a scalar that feeds every element
// of an output of dims `dims`.
IndexingMap ScalarFeedsAllMap(absl::Span<const int64_t> dims,
                              mlir::MLIRContext* context) {
  std::vector<AffineExpr> exprs;
  for (size_t i = 0; i < dims.size(); ++i) {
    exprs.push_back(getAffineSymbolExpr(i, context));
  }
  return MakeMap({}, dims, exprs, context);
}

HloInstructionIndexing One(IndexingMap map) {
  return HloInstructionIndexing::FromIndexingMaps({std::move(map)});
}

bool ValidInput(const HloInstruction* instruction, int64_t input_id) {
  return input_id >= 0 && input_id < instruction->operand_count();
}

}  // namespace

HloInstructionIndexing ComputeInputToOutputElementwiseIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  if (!AllArrays(instruction) || !ValidInput(instruction, input_id)) {
    return UndefinedFor(instruction);
  }
  const Shape& out = instruction->shape();
  const Shape& in = instruction->operand(input_id)->shape();
  if (in.SameDimensions(out) || in.dimensions() == out.dimensions()) {
    return One(CreateIdentityMap(out, context));
  }
  if (in.IsScalar()) return One(ScalarFeedsAllMap(out.dimensions(), context));
  std::vector<int64_t> in_dims(in.dimensions().begin(), in.dimensions().end());
  std::vector<int64_t> out_dims(out.dimensions().begin(),
                                out.dimensions().end());
  if (in_dims.size() == out_dims.size() + 1 &&
      std::equal(out_dims.begin(), out_dims.end(), in_dims.begin())) {
    // bitcast-convert to a wider type: the operand's minor dim is packed.
    std::vector<AffineExpr> exprs;
    for (size_t i = 0; i < out_dims.size(); ++i) {
      exprs.push_back(getAffineDimExpr(i, context));
    }
    return One(MakeMap(in_dims, {}, exprs, context));
  }
  if (in_dims.size() + 1 == out_dims.size() &&
      std::equal(in_dims.begin(), in_dims.end(), out_dims.begin())) {
    std::vector<AffineExpr> exprs;
    for (size_t i = 0; i < in_dims.size(); ++i) {
      exprs.push_back(getAffineDimExpr(i, context));
    }
    exprs.push_back(getAffineSymbolExpr(0, context));
    return One(MakeMap(in_dims, {out_dims.back()}, exprs, context));
  }
  return UndefinedFor(instruction);
}

HloInstructionIndexing ComputeInputToOutputBroadcastIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!IsValidBroadcast(instruction)) return UndefinedFor(instruction);
  const Shape& out = instruction->shape();
  const Shape& in = instruction->operand(0)->shape();
  const std::vector<int64_t>& dims = instruction->dimensions();
  std::vector<AffineExpr> exprs(out.rank());
  for (size_t i = 0; i < dims.size(); ++i) {
    exprs[dims[i]] = getAffineDimExpr(i, context);
  }
  std::vector<int64_t> symbol_sizes;
  for (int64_t d = 0; d < out.rank(); ++d) {
    if (exprs[d]) continue;
    exprs[d] = getAffineSymbolExpr(symbol_sizes.size(), context);
    symbol_sizes.push_back(out.dimensions(d));
  }
  return One(MakeMap(in.dimensions(), symbol_sizes, exprs, context));
}

HloInstructionIndexing ComputeInputToOutputConcatenateIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  if (!IsValidConcatenate(instruction) || !ValidInput(instruction, input_id)) {
    return UndefinedFor(instruction);
  }
  const int64_t dim = instruction->dimension();
  int64_t offset = 0;
  for (int64_t k = 0; k < input_id; ++k) {
    offset += instruction->operand(k)->shape().dimensions(dim);
  }
  const Shape& in = instruction->operand(input_id)->shape();
  std::vector<AffineExpr> exprs;
  for (int64_t i = 0; i < in.rank(); ++i) {
    AffineExpr d = getAffineDimExpr(i, context);
    exprs.push_back(i == dim ? d + offset : d);
  }
  return One(MakeMap(in.dimensions(), {}, exprs, context));
}

HloInstructionIndexing ComputeInputToOutputReduceIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  if (!IsValidReduce(instruction) || !ValidInput(instruction, input_id)) {
    return UndefinedFor(instruction);
  }
  const int64_t count = instruction->operand_count() / 2;
  const Shape& in = instruction->operand(0)->shape();
  std::vector<int64_t> reduced = instruction->dimensions();
  std::sort(reduced.begin(), reduced.end());
  std::vector<int64_t> out_dims;
  std::vector<AffineExpr> exprs;
  for (int64_t d = 0; d < in.rank(); ++d) {
    if (!std::binary_search(reduced.begin(), reduced.end(), d)) {
      exprs.push_back(getAffineDimExpr(d, context));
      out_dims.push_back(in.dimensions(d));
    }
  }
  IndexingMap map = input_id < count
                        ? MakeMap(in.dimensions(), {}, exprs, context)
                        : ScalarFeedsAllMap(out_dims, context);
  HloInstructionIndexing indexing;
  indexing.indexing_maps.resize(OutputCount(instruction));
  for (IndexingMapSet& set : indexing.indexing_maps) set.Insert(map);
  return indexing;
}

HloInstructionIndexing ComputeInputToOutputReshapeIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!AllArraysWithOperands(instruction, 1)) return UndefinedFor(instruction);
  return One(ComputeReshapeIndexingMap(
      instruction->shape().dimensions(),
      instruction->operand(0)->shape().dimensions(), context));
}

HloInstructionIndexing ComputeInputToOutputReverseIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!IsValidReverse(instruction)) return UndefinedFor(instruction);
  const Shape& in = instruction->operand(0)->shape();
  std::vector<AffineExpr> exprs;
  for (int64_t i = 0; i < in.rank(); ++i) {
    exprs.push_back(getAffineDimExpr(i, context));
  }
  for (int64_t d : instruction->dimensions()) {
    exprs[d] = in.dimensions(d) - 1 - exprs[d];
  }
  return One(MakeMap(in.dimensions(), {}, exprs, context));
}

HloInstructionIndexing ComputeInputToOutputSliceIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!IsValidSlice(instruction)) return UndefinedFor(instruction);
  const Shape& out = instruction->shape();
  const Shape& in = instruction->operand(0)->shape();
  const std::vector<SliceDimension>& slice = instruction->slice();
  std::vector<AffineExpr> exprs;
  std::vector<Interval> dim_bounds;
  std::vector<IndexingConstraint> constraints;
  for (int64_t i = 0; i < in.rank(); ++i) {
    const SliceDimension& s = slice[i];
    AffineExpr shifted = getAffineDimExpr(i, context) - s.start;
    exprs.push_back(s.stride == 1 ? shifted : shifted.floorDiv(s.stride));
    if (s.stride != 1) {
      constraints.push_back({shifted % s.stride, Interval::Point(0)});
    }
    dim_bounds.push_back(
        {s.start, s.start + (out.dimensions(i) - 1) * s.stride});
  }
  IndexingMap map(AffineMap::get(in.rank(), 0, exprs, context),
                  std::move(dim_bounds), {}, {}, std::move(constraints));
  return One(std::move(map));
}

HloInstructionIndexing ComputeInputToOutputTransposeIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!IsValidTranspose(instruction)) return UndefinedFor(instruction);
  const Shape& in = instruction->operand(0)->shape();
  std::vector<AffineExpr> exprs;
  for (int64_t p : instruction->dimensions()) {
    exprs.push_back(getAffineDimExpr(p, context));
  }
  return One(MakeMap(in.dimensions(), {}, exprs, context));
}

HloInstructionIndexing ComputeInputToOutputBitcastIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!AllArraysWithOperands(instruction, 1)) return UndefinedFor(instruction);
  return One(ComputeBitcastIndexingMap(
      instruction->shape(), instruction->operand(0)->shape(), context));
}

HloInstructionIndexing ComputeInputToOutputDotIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  std::optional<DotDimensionRoles> roles = GetDotDimensionRoles(instruction);
  if (!roles.has_value() || !ValidInput(instruction, input_id)) {
    return UndefinedFor(instruction);
  }
  const Shape& lhs = instruction->operand(0)->shape();
  const Shape& rhs = instruction->operand(1)->shape();
  const DotDimensionNumbers& dn = instruction->dot_dimension_numbers();
  const std::vector<int64_t>& lhs_free = roles->lhs_free;
  const std::vector<int64_t>& rhs_free = roles->rhs_free;
  const bool is_lhs = input_id == 0;
  const Shape& in = is_lhs ? lhs : rhs;
  const std::vector<int64_t>& batch =
      is_lhs ? dn.lhs_batch_dimensions : dn.rhs_batch_dimensions;
  std::vector<AffineExpr> exprs;
  std::vector<int64_t> symbol_sizes;
  for (int64_t d : batch) exprs.push_back(getAffineDimExpr(d, context));
  // The operand's own free dims come from its index; the other operand's
  // free dims are range variables.
  for (int64_t d : lhs_free) {
    if (is_lhs) {
      exprs.push_back(getAffineDimExpr(d, context));
    } else {
      exprs.push_back(getAffineSymbolExpr(symbol_sizes.size(), context));
      symbol_sizes.push_back(lhs.dimensions(d));
    }
  }
  for (int64_t d : rhs_free) {
    if (!is_lhs) {
      exprs.push_back(getAffineDimExpr(d, context));
    } else {
      exprs.push_back(getAffineSymbolExpr(symbol_sizes.size(), context));
      symbol_sizes.push_back(rhs.dimensions(d));
    }
  }
  return One(MakeMap(in.dimensions(), symbol_sizes, exprs, context));
}

HloInstructionIndexing ComputeInputToOutputPadIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  if (!IsValidPad(instruction) || !ValidInput(instruction, input_id)) {
    return UndefinedFor(instruction);
  }
  const Shape& out = instruction->shape();
  if (input_id == 1) return One(ScalarFeedsAllMap(out.dimensions(), context));
  const Shape& in = instruction->operand(0)->shape();
  const PaddingConfig& config = instruction->padding_config();
  std::vector<AffineExpr> exprs;
  std::vector<IndexingConstraint> constraints;
  for (int64_t i = 0; i < in.rank(); ++i) {
    const PaddingDimension& p = config[i];
    AffineExpr e = getAffineDimExpr(i, context) * (p.interior + 1) + p.low;
    exprs.push_back(e);
    // Negative edge padding removes elements: they feed nothing.
    constraints.push_back({e, Interval{0, out.dimensions(i) - 1}});
  }
  return One(
      MakeConstrainedMap(in.dimensions(), {}, exprs, constraints, context));
}

HloInstructionIndexing ComputeInputToOutputReduceWindowIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  std::optional<std::vector<WindowDimension>> window =
      GetReduceWindowWindow(instruction);
  if (!window.has_value() || !ValidInput(instruction, input_id)) {
    return UndefinedFor(instruction);
  }
  const int64_t count = instruction->operand_count() / 2;
  const Shape& in = instruction->operand(0)->shape();
  const Shape& out = instruction->shape().IsTuple()
                         ? instruction->shape().tuple_shapes(0)
                         : instruction->shape();
  IndexingMap map = IndexingMap::Undefined();
  if (input_id >= count) {
    map = ScalarFeedsAllMap(out.dimensions(), context);
  } else {
    const int64_t rank = in.rank();
    std::vector<AffineExpr> exprs;
    std::vector<int64_t> symbol_sizes;
    std::vector<IndexingConstraint> constraints;
    for (int64_t i = 0; i < rank; ++i) {
      const WindowDimension& w = (*window)[i];
      // The output position times the stride, for window position s.
      AffineExpr scaled =
          getAffineDimExpr(i, context) * w.base_dilation + w.padding_low;
      if (w.size > 1) {
        scaled = scaled - getAffineSymbolExpr(symbol_sizes.size(), context) *
                              w.window_dilation;
        symbol_sizes.push_back(w.size);
      }
      exprs.push_back(w.stride == 1 ? scaled : scaled.floorDiv(w.stride));
      if (w.stride != 1) {
        constraints.push_back({scaled % w.stride, Interval::Point(0)});
      }
      constraints.push_back(
          {scaled, Interval{0, (out.dimensions(i) - 1) * w.stride}});
    }
    map = MakeConstrainedMap(in.dimensions(), symbol_sizes, exprs, constraints,
                             context);
  }
  HloInstructionIndexing indexing;
  indexing.indexing_maps.resize(OutputCount(instruction));
  for (IndexingMapSet& set : indexing.indexing_maps) set.Insert(map);
  return indexing;
}

HloInstructionIndexing ComputeInputToOutputConvolutionIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  std::optional<std::vector<WindowDimension>> window =
      GetConvolutionWindow(instruction);
  if (!window.has_value() || !ValidInput(instruction, input_id)) {
    return UndefinedFor(instruction);
  }
  const Shape& out = instruction->shape();
  const Shape& lhs = instruction->operand(0)->shape();
  const Shape& rhs = instruction->operand(1)->shape();
  const ConvolutionDimensionNumbers& dn =
      instruction->convolution_dimension_numbers();
  const int64_t rank = out.rank();
  const int64_t spatial = rank - 2;
  const int64_t fgc = instruction->feature_group_count();
  const int64_t bgc = instruction->batch_group_count();
  const int64_t out_features = out.dimensions(dn.output_feature_dimension);
  const int64_t out_batch = out.dimensions(dn.output_batch_dimension);
  const int64_t kernel_in = rhs.dimensions(dn.kernel_input_feature_dimension);
  const bool is_lhs = input_id == 0;
  const Shape& in = is_lhs ? lhs : rhs;
  std::vector<AffineExpr> exprs(rank);
  std::vector<int64_t> symbol_sizes;
  std::vector<IndexingConstraint> constraints;
  auto symbol = [&](int64_t size) {
    symbol_sizes.push_back(size);
    return getAffineSymbolExpr(symbol_sizes.size() - 1, context);
  };
  for (int64_t k = 0; k < spatial; ++k) {
    const WindowDimension& w = (*window)[k];
    const int64_t kernel_dim = dn.kernel_spatial_dimensions[k];
    const int64_t input_dim = dn.input_spatial_dimensions[k];
    // Output o reads input e at window position p when
    // o * stride + p * window_dilation - low = e * base_dilation.
    AffineExpr element, position;
    if (is_lhs) {
      element = getAffineDimExpr(input_dim, context);
      position = symbol(w.size);
    } else {
      AffineExpr kernel_index = getAffineDimExpr(kernel_dim, context);
      position = w.window_reversal ? (w.size - 1) - kernel_index : kernel_index;
      element = symbol(lhs.dimensions(input_dim));
    }
    AffineExpr scaled = element * w.base_dilation + w.padding_low -
                        position * w.window_dilation;
    exprs[dn.output_spatial_dimensions[k]] =
        w.stride == 1 ? scaled : scaled.floorDiv(w.stride);
    if (w.stride != 1) {
      constraints.push_back({scaled % w.stride, Interval::Point(0)});
    }
    constraints.push_back(
        {scaled,
         Interval{0, (out.dimensions(dn.output_spatial_dimensions[k]) - 1) *
                         w.stride}});
  }
  if (is_lhs) {
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
  } else {
    exprs[dn.output_batch_dimension] = symbol(out_batch);
    exprs[dn.output_feature_dimension] =
        getAffineDimExpr(dn.kernel_output_feature_dimension, context);
  }
  return One(MakeConstrainedMap(in.dimensions(), symbol_sizes, exprs,
                                constraints, context));
}

HloInstructionIndexing ComputeInputToOutputDynamicSliceIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  if (!IsValidDynamicSlice(instruction) || !ValidInput(instruction, input_id)) {
    return UndefinedFor(instruction);
  }
  const Shape& out = instruction->shape();
  const Shape& in = instruction->operand(0)->shape();
  const int64_t rank = in.rank();
  if (input_id > 0) return One(ScalarFeedsAllMap(out.dimensions(), context));
  AffineMap scalar_access = AffineMap::get(rank, 0, {}, context);
  std::vector<AffineExpr> exprs;
  std::vector<RuntimeVar> offsets;
  std::vector<Interval> dim_bounds;
  for (int64_t i = 0; i < rank; ++i) {
    exprs.push_back(getAffineDimExpr(i, context) -
                    getAffineSymbolExpr(i, context));
    offsets.push_back(MakeRuntimeVar(instruction->operand(i + 1),
                                     in.dimensions(i) - out.dimensions(i),
                                     scalar_access));
    dim_bounds.push_back({0, in.dimensions(i) - 1});
  }
  IndexingMap map(AffineMap::get(rank, rank, exprs, context),
                  std::move(dim_bounds), {}, std::move(offsets));
  for (int64_t i = 0; i < rank; ++i) {
    map.AddConstraint(exprs[i], Interval{0, out.dimensions(i) - 1});
  }
  return One(std::move(map));
}

HloInstructionIndexing ComputeInputToOutputTupleIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  HloInstructionIndexing indexing;
  indexing.indexing_maps.resize(instruction->operand_count());
  if (!ValidInput(instruction, input_id)) return UndefinedFor(instruction);
  const Shape& element = instruction->operand(input_id)->shape();
  indexing.indexing_maps[input_id].Insert(
      element.IsArray() ? CreateIdentityMap(element, context)
                        : IndexingMap::Undefined());
  return indexing;
}

HloInstructionIndexing ComputeInputToOutputIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  const HloOpcode opcode = instruction->opcode();
  if (IsElementwise(opcode) || opcode == HloOpcode::kMap) {
    return ComputeInputToOutputElementwiseIndexing(instruction, input_id,
                                                   context);
  }
  switch (opcode) {
    case HloOpcode::kBroadcast:
      return ComputeInputToOutputBroadcastIndexing(instruction, context);
    case HloOpcode::kConcatenate:
      return ComputeInputToOutputConcatenateIndexing(instruction, input_id,
                                                     context);
    case HloOpcode::kReduce:
      return ComputeInputToOutputReduceIndexing(instruction, input_id, context);
    case HloOpcode::kReshape:
      return ComputeInputToOutputReshapeIndexing(instruction, context);
    case HloOpcode::kReverse:
      return ComputeInputToOutputReverseIndexing(instruction, context);
    case HloOpcode::kSlice:
      return ComputeInputToOutputSliceIndexing(instruction, context);
    case HloOpcode::kTranspose:
      return ComputeInputToOutputTransposeIndexing(instruction, context);
    case HloOpcode::kBitcast:
      return ComputeInputToOutputBitcastIndexing(instruction, context);
    case HloOpcode::kDot:
      return ComputeInputToOutputDotIndexing(instruction, input_id, context);
    case HloOpcode::kPad:
      return ComputeInputToOutputPadIndexing(instruction, input_id, context);
    case HloOpcode::kDynamicSlice:
      return ComputeInputToOutputDynamicSliceIndexing(instruction, input_id,
                                                      context);
    case HloOpcode::kConvolution:
      return ComputeInputToOutputConvolutionIndexing(instruction, input_id,
                                                     context);
    case HloOpcode::kReduceWindow:
      return ComputeInputToOutputReduceWindowIndexing(instruction, input_id,
                                                      context);
    case HloOpcode::kTuple:
      return ComputeInputToOutputTupleIndexing(instruction, input_id, context);
    case HloOpcode::kGetTupleElement:
      if (instruction->shape().IsArray()) {
        return One(CreateIdentityMap(instruction->shape(), context));
      }
      return UndefinedFor(instruction);
    case HloOpcode::kFusion:
    case HloOpcode::kCall:
      return ComputeInputToOutputFusionIndexing(instruction, input_id, context);
    default:
      return UndefinedFor(instruction);
  }
}

}  // namespace xla_index
