#include "xla_index/output_to_input_indexing.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
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
using mlir::getAffineConstantExpr;
using mlir::getAffineDimExpr;
using mlir::getAffineSymbolExpr;

// The rules below return this when the instruction's attributes do not fit
// its operands: every operand gets the Undefined map.
HloInstructionIndexing UndefinedFor(const HloInstruction* instruction) {
  return HloInstructionIndexing::Undefined(instruction->operand_count());
}

std::vector<int64_t> Dims(const Shape& shape) {
  return {shape.dimensions().begin(), shape.dimensions().end()};
}

// `(d0, ..., dn-1) -> ()` over `dims`: a scalar operand read once per
// output element.
IndexingMap ScalarReadMap(absl::Span<const int64_t> dims,
                          mlir::MLIRContext* context) {
  return IndexingMap::FromTensorSizes(
      AffineMap::get(dims.size(), 0, {}, context), dims, {});
}

// One spatial dimension of a window (reduce-window, convolution) over a
// base that is edge-padded by `low`/`high` and dilated by
// `base_dilation`: the padded position is p = d * stride + s *
// window_dilation, and it reads operand index (p - low) floordiv
// base_dilation when p - low is in [0, (size - 1) * base_dilation] and a
// multiple of base_dilation (otherwise it reads padding). This is the
// window map composed with the implicit pad's indexing
// (ComputePadIndexingMap), written out directly.
struct WindowedIndex {
  AffineExpr expr;
  std::vector<IndexingConstraint> constraints;
};
WindowedIndex ComputeWindowedIndex(AffineExpr output_dim, AffineExpr window,
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

}  // namespace

HloInstructionIndexing ComputeOutputToInputElementwiseIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!AllArrays(instruction)) return UndefinedFor(instruction);
  std::vector<int64_t> out = Dims(instruction->shape());
  HloInstructionIndexing indexing;
  for (const HloInstruction* operand : instruction->operands()) {
    std::vector<int64_t> in = Dims(operand->shape());
    IndexingMap map = IndexingMap::Undefined();
    if (in == out) {
      map = CreateIdentityMap(out, context);
    } else if (in.empty()) {
      map = ScalarReadMap(out, context);
    } else if (in.size() == out.size() + 1 &&
               std::equal(out.begin(), out.end(), in.begin())) {
      // bitcast-convert to a wider type: the new element packs the minor
      // dimension of the operand.
      std::vector<AffineExpr> exprs;
      for (size_t i = 0; i < out.size(); ++i) {
        exprs.push_back(getAffineDimExpr(i, context));
      }
      exprs.push_back(getAffineSymbolExpr(0, context));
      map = MakeMap(out, {in.back()}, exprs, context);
    } else if (in.size() + 1 == out.size() &&
               std::equal(in.begin(), in.end(), out.begin())) {
      // bitcast-convert to a narrower type: the minor output dimension
      // picks a part of one operand element.
      std::vector<AffineExpr> exprs;
      for (size_t i = 0; i < in.size(); ++i) {
        exprs.push_back(getAffineDimExpr(i, context));
      }
      map = MakeMap(out, {}, exprs, context);
    }
    indexing.indexing_maps.emplace_back();
    indexing.indexing_maps.back().Insert(std::move(map));
  }
  return indexing;
}

HloInstructionIndexing ComputeOutputToInputBroadcastIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!IsValidBroadcast(instruction)) return UndefinedFor(instruction);
  const Shape& out = instruction->shape();
  std::vector<AffineExpr> exprs;
  for (int64_t d : instruction->dimensions()) {
    exprs.push_back(getAffineDimExpr(d, context));
  }
  return HloInstructionIndexing::FromIndexingMaps(
      {MakeMap(out.dimensions(), {}, exprs, context)});
}

HloInstructionIndexing ComputeOutputToInputDynamicSliceIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!IsValidDynamicSlice(instruction)) return UndefinedFor(instruction);
  const Shape& out = instruction->shape();
  const Shape& in = instruction->operand(0)->shape();
  const int64_t rank = in.rank();
  AffineMap scalar_access = AffineMap::get(rank, 0, {}, context);
  std::vector<AffineExpr> exprs;
  std::vector<RuntimeVar> offsets;
  for (int64_t i = 0; i < rank; ++i) {
    exprs.push_back(getAffineDimExpr(i, context) +
                    getAffineSymbolExpr(i, context));
    offsets.push_back(MakeRuntimeVar(instruction->operand(i + 1),
                                     in.dimensions(i) - out.dimensions(i),
                                     scalar_access));
  }
  std::vector<Interval> dim_bounds;
  for (int64_t size : out.dimensions()) dim_bounds.push_back({0, size - 1});
  IndexingMap operand_map(AffineMap::get(rank, rank, exprs, context),
                          dim_bounds, {}, std::move(offsets));
  std::vector<IndexingMap> maps = {operand_map};
  for (int64_t i = 0; i < rank; ++i) {
    maps.push_back(ScalarReadMap(out.dimensions(), context));
  }
  return HloInstructionIndexing::FromIndexingMaps(maps);
}

HloInstructionIndexing ComputeOutputToInputDynamicUpdateSliceIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!AllArrays(instruction)) return UndefinedFor(instruction);
  const Shape& out = instruction->shape();
  const int64_t rank = out.rank();
  if (instruction->operand_count() != rank + 2 ||
      !instruction->operand(0)->shape().SameDimensions(out) ||
      instruction->operand(1)->shape().rank() != rank) {
    return UndefinedFor(instruction);
  }
  const Shape& update = instruction->operand(1)->shape();
  AffineMap scalar_access = AffineMap::get(rank, 0, {}, context);
  std::vector<AffineExpr> exprs;
  std::vector<RuntimeVar> offsets;
  for (int64_t i = 0; i < rank; ++i) {
    const HloInstruction* offset = instruction->operand(i + 2);
    int64_t max_offset = out.dimensions(i) - update.dimensions(i);
    if (!offset->shape().IsScalar() || max_offset < 0) {
      return UndefinedFor(instruction);
    }
    exprs.push_back(getAffineDimExpr(i, context) -
                    getAffineSymbolExpr(i, context));
    offsets.push_back(MakeRuntimeVar(offset, max_offset, scalar_access));
  }
  std::vector<Interval> dim_bounds;
  for (int64_t size : out.dimensions()) dim_bounds.push_back({0, size - 1});
  IndexingMap update_map(AffineMap::get(rank, rank, exprs, context), dim_bounds,
                         {}, std::move(offsets));
  std::vector<IndexingMap> maps = {CreateIdentityMap(out, context), update_map};
  for (int64_t i = 0; i < rank; ++i) {
    maps.push_back(ScalarReadMap(out.dimensions(), context));
  }
  return HloInstructionIndexing::FromIndexingMaps(maps);
}

HloInstructionIndexing ComputeOutputToInputGatherIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!AllArrays(instruction) || instruction->operand_count() != 2) {
    return UndefinedFor(instruction);
  }
  const Shape& out = instruction->shape();
  const Shape& operand = instruction->operand(0)->shape();
  const HloInstruction* indices = instruction->operand(1);
  const GatherDimensionNumbers& dnums = instruction->gather_dimension_numbers();
  const std::vector<int64_t>& slice_sizes = instruction->gather_slice_sizes();
  const int64_t rank = operand.rank();
  // Only the simplified form (gather_simplifier.h) has a rule.
  if (indices->shape().rank() != 2 || dnums.index_vector_dim != 1 ||
      !dnums.collapsed_slice_dims.empty() ||
      !dnums.operand_batching_dims.empty() ||
      !dnums.start_indices_batching_dims.empty() ||
      static_cast<int64_t>(slice_sizes.size()) != rank ||
      static_cast<int64_t>(dnums.offset_dims.size()) != rank ||
      out.rank() != rank + 1) {
    return UndefinedFor(instruction);
  }
  const int64_t index_vector_length = indices->shape().dimensions(1);
  if (index_vector_length > rank ||
      static_cast<int64_t>(dnums.start_index_map.size()) !=
          index_vector_length ||
      out.dimensions(0) != indices->shape().dimensions(0)) {
    return UndefinedFor(instruction);
  }
  for (int64_t k = 0; k < index_vector_length; ++k) {
    if (dnums.start_index_map[k] != k) return UndefinedFor(instruction);
  }
  for (int64_t k = 0; k < rank; ++k) {
    if (dnums.offset_dims[k] != k + 1 ||
        out.dimensions(k + 1) != slice_sizes[k] ||
        slice_sizes[k] > operand.dimensions(k)) {
      return UndefinedFor(instruction);
    }
  }
  const int64_t out_rank = out.rank();
  AffineExpr row = getAffineDimExpr(0, context);
  std::vector<AffineExpr> exprs;
  std::vector<RuntimeVar> starts;
  for (int64_t k = 0; k < rank; ++k) {
    AffineExpr e = getAffineDimExpr(k + 1, context);
    if (k < index_vector_length) {
      e = e + getAffineSymbolExpr(k, context);
      AffineMap access = AffineMap::get(
          out_rank, 0, {row, getAffineConstantExpr(k, context)}, context);
      starts.push_back(MakeRuntimeVar(
          indices, operand.dimensions(k) - slice_sizes[k], access));
    }
    exprs.push_back(e);
  }
  std::vector<Interval> dim_bounds;
  for (int64_t size : out.dimensions()) dim_bounds.push_back({0, size - 1});
  IndexingMap operand_map(
      AffineMap::get(out_rank, index_vector_length, exprs, context), dim_bounds,
      {}, std::move(starts));
  IndexingMap indices_map =
      MakeMap(out.dimensions(), {index_vector_length},
              {row, getAffineSymbolExpr(0, context)}, context);
  return HloInstructionIndexing::FromIndexingMaps({operand_map, indices_map});
}

HloInstructionIndexing ComputeOutputToInputTransposeIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!IsValidTranspose(instruction)) return UndefinedFor(instruction);
  const Shape& out = instruction->shape();
  const std::vector<int64_t>& perm = instruction->dimensions();
  std::vector<AffineExpr> exprs(out.rank());
  for (int64_t i = 0; i < out.rank(); ++i) {
    exprs[perm[i]] = getAffineDimExpr(i, context);
  }
  return HloInstructionIndexing::FromIndexingMaps(
      {MakeMap(out.dimensions(), {}, exprs, context)});
}

HloInstructionIndexing ComputeOutputToInputReverseIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!IsValidReverse(instruction)) return UndefinedFor(instruction);
  const Shape& out = instruction->shape();
  std::vector<AffineExpr> exprs;
  for (int64_t i = 0; i < out.rank(); ++i) {
    exprs.push_back(getAffineDimExpr(i, context));
  }
  for (int64_t d : instruction->dimensions()) {
    exprs[d] = out.dimensions(d) - 1 - exprs[d];
  }
  return HloInstructionIndexing::FromIndexingMaps(
      {MakeMap(out.dimensions(), {}, exprs, context)});
}

HloInstructionIndexing ComputeOutputToInputReduceIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!IsValidReduce(instruction)) return UndefinedFor(instruction);
  const int64_t count = instruction->operand_count() / 2;
  const Shape& in = instruction->operand(0)->shape();
  std::vector<int64_t> reduced = instruction->dimensions();
  std::sort(reduced.begin(), reduced.end());
  std::vector<int64_t> out_dims, symbol_sizes;
  std::vector<AffineExpr> exprs;
  for (int64_t d = 0; d < in.rank(); ++d) {
    if (std::binary_search(reduced.begin(), reduced.end(), d)) {
      exprs.push_back(getAffineSymbolExpr(symbol_sizes.size(), context));
      symbol_sizes.push_back(in.dimensions(d));
    } else {
      exprs.push_back(getAffineDimExpr(out_dims.size(), context));
      out_dims.push_back(in.dimensions(d));
    }
  }
  IndexingMap input_map = MakeMap(out_dims, symbol_sizes, exprs, context);
  IndexingMap init_map = ScalarReadMap(out_dims, context);
  std::vector<IndexingMap> maps(count, input_map);
  maps.insert(maps.end(), count, init_map);
  return HloInstructionIndexing::FromIndexingMaps(maps);
}

HloInstructionIndexing ComputeOutputToInputSliceIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!IsValidSlice(instruction)) return UndefinedFor(instruction);
  const Shape& out = instruction->shape();
  const std::vector<SliceDimension>& slice = instruction->slice();
  std::vector<AffineExpr> exprs;
  for (int64_t i = 0; i < out.rank(); ++i) {
    exprs.push_back(getAffineDimExpr(i, context) * slice[i].stride +
                    slice[i].start);
  }
  return HloInstructionIndexing::FromIndexingMaps(
      {MakeMap(out.dimensions(), {}, exprs, context)});
}

HloInstructionIndexing ComputeOutputToInputReshapeIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!AllArraysWithOperands(instruction, 1)) return UndefinedFor(instruction);
  return HloInstructionIndexing::FromIndexingMaps(
      {ComputeReshapeIndexingMap(instruction->operand(0)->shape().dimensions(),
                                 instruction->shape().dimensions(), context)});
}

HloInstructionIndexing ComputeOutputToInputBitcastIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!AllArraysWithOperands(instruction, 1)) return UndefinedFor(instruction);
  return HloInstructionIndexing::FromIndexingMaps({ComputeBitcastIndexingMap(
      instruction->operand(0)->shape(), instruction->shape(), context)});
}

HloInstructionIndexing ComputeOutputToInputConcatenateIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!IsValidConcatenate(instruction)) return UndefinedFor(instruction);
  const Shape& out = instruction->shape();
  const int64_t dim = instruction->dimension();
  HloInstructionIndexing indexing;
  int64_t offset = 0;
  for (const HloInstruction* operand : instruction->operands()) {
    const Shape& in = operand->shape();
    std::vector<AffineExpr> exprs;
    std::vector<Interval> dim_bounds;
    for (int64_t i = 0; i < out.rank(); ++i) {
      AffineExpr d = getAffineDimExpr(i, context);
      if (i == dim) {
        exprs.push_back(d - offset);
        dim_bounds.push_back({offset, offset + in.dimensions(i) - 1});
      } else {
        exprs.push_back(d);
        dim_bounds.push_back({0, out.dimensions(i) - 1});
      }
    }
    offset += in.dimensions(dim);
    IndexingMap map(AffineMap::get(out.rank(), 0, exprs, context),
                    std::move(dim_bounds), {}, {});
    indexing.indexing_maps.emplace_back();
    indexing.indexing_maps.back().Insert(std::move(map));
  }
  return indexing;
}

HloInstructionIndexing ComputeOutputToInputDotIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  std::optional<DotDimensionRoles> roles = GetDotDimensionRoles(instruction);
  if (!roles.has_value()) return UndefinedFor(instruction);
  const Shape& out = instruction->shape();
  const Shape& lhs = instruction->operand(0)->shape();
  const Shape& rhs = instruction->operand(1)->shape();
  const DotDimensionNumbers& dnums = instruction->dot_dimension_numbers();
  const auto& lb = dnums.lhs_batch_dimensions;
  const auto& rb = dnums.rhs_batch_dimensions;
  const auto& lc = dnums.lhs_contracting_dimensions;
  const auto& rc = dnums.rhs_contracting_dimensions;
  // Output dims: batch, then lhs free, then rhs free; contracting dims are
  // range variables.
  std::vector<AffineExpr> lhs_exprs(lhs.rank()), rhs_exprs(rhs.rank());
  std::vector<int64_t> symbol_sizes;
  int64_t out_dim = 0;
  for (size_t i = 0; i < lb.size(); ++i) {
    lhs_exprs[lb[i]] = rhs_exprs[rb[i]] = getAffineDimExpr(out_dim++, context);
  }
  for (int64_t d : roles->lhs_free) {
    lhs_exprs[d] = getAffineDimExpr(out_dim++, context);
  }
  for (int64_t d : roles->rhs_free) {
    rhs_exprs[d] = getAffineDimExpr(out_dim++, context);
  }
  for (size_t j = 0; j < lc.size(); ++j) {
    lhs_exprs[lc[j]] = rhs_exprs[rc[j]] = getAffineSymbolExpr(j, context);
    symbol_sizes.push_back(lhs.dimensions(lc[j]));
  }
  return HloInstructionIndexing::FromIndexingMaps(
      {MakeMap(out.dimensions(), symbol_sizes, lhs_exprs, context),
       MakeMap(out.dimensions(), symbol_sizes, rhs_exprs, context)});
}

IndexingMap ComputePadIndexingMap(absl::Span<const int64_t> operand_dims,
                                  absl::Span<const PadDimension> padding,
                                  mlir::MLIRContext* context) {
  const int64_t rank = operand_dims.size();
  std::vector<AffineExpr> exprs;
  std::vector<Interval> dim_bounds;
  std::vector<IndexingConstraint> constraints;
  for (int64_t i = 0; i < rank; ++i) {
    const PadDimension& p = padding[i];
    const int64_t size = operand_dims[i];
    const int64_t padded =
        p.low + p.high + size + std::max<int64_t>(size - 1, 0) * p.interior;
    AffineExpr shifted = getAffineDimExpr(i, context) - p.low;
    if (p.interior == 0) {
      exprs.push_back(shifted);
    } else {
      exprs.push_back(shifted.floorDiv(p.interior + 1));
      constraints.push_back({shifted % (p.interior + 1), Interval::Point(0)});
    }
    dim_bounds.push_back(
        {std::max<int64_t>(0, p.low),
         std::min(padded - 1, p.low + (size - 1) * (p.interior + 1))});
  }
  IndexingMap map(AffineMap::get(rank, 0, exprs, context),
                  std::move(dim_bounds), {}, {}, std::move(constraints));
  SimplifyAndRemoveUnusedSymbols(map);
  return map;
}

HloInstructionIndexing ComputeOutputToInputPadIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!IsValidPad(instruction)) return UndefinedFor(instruction);
  const Shape& out = instruction->shape();
  const Shape& in = instruction->operand(0)->shape();
  std::vector<PadDimension> padding;
  for (const PaddingDimension& p : instruction->padding_config()) {
    padding.push_back({p.low, p.high, p.interior});
  }
  return HloInstructionIndexing::FromIndexingMaps(
      {ComputePadIndexingMap(in.dimensions(), padding, context),
       ScalarReadMap(out.dimensions(), context)});
}

HloInstructionIndexing ComputeOutputToInputReduceWindowIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  std::optional<std::vector<WindowDimension>> window =
      GetReduceWindowWindow(instruction);
  if (!window.has_value()) return UndefinedFor(instruction);
  const int64_t count = instruction->operand_count() / 2;
  const Shape& in = instruction->operand(0)->shape();
  const Shape& out_any = instruction->shape().IsTuple()
                             ? instruction->shape().tuple_shapes(0)
                             : instruction->shape();
  const int64_t rank = in.rank();
  std::vector<AffineExpr> exprs;
  std::vector<int64_t> symbol_sizes;
  std::vector<IndexingConstraint> constraints;
  for (int64_t i = 0; i < rank; ++i) {
    const WindowDimension& w = (*window)[i];
    AffineExpr symbol;
    if (w.size > 1) {
      symbol = getAffineSymbolExpr(symbol_sizes.size(), context);
      symbol_sizes.push_back(w.size);
    }
    WindowedIndex index = ComputeWindowedIndex(getAffineDimExpr(i, context),
                                               symbol, w, in.dimensions(i));
    exprs.push_back(index.expr);
    constraints.insert(constraints.end(), index.constraints.begin(),
                       index.constraints.end());
  }
  IndexingMap input_map = MakeConstrainedMap(out_any.dimensions(), symbol_sizes,
                                             exprs, constraints, context);
  std::vector<IndexingMap> maps(count, input_map);
  maps.insert(maps.end(), count, ScalarReadMap(out_any.dimensions(), context));
  return HloInstructionIndexing::FromIndexingMaps(maps);
}

HloInstructionIndexing ComputeOutputToInputConvolutionIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  std::optional<std::vector<WindowDimension>> window =
      GetConvolutionWindow(instruction);
  if (!window.has_value()) return UndefinedFor(instruction);
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
  const int64_t kernel_in_features =
      rhs.dimensions(dn.kernel_input_feature_dimension);
  // Symbols: one window variable per spatial dim, then the input feature.
  std::vector<int64_t> symbol_sizes;
  std::vector<AffineExpr> lhs_exprs(rank), rhs_exprs(rank);
  std::vector<IndexingConstraint> constraints;
  for (int64_t k = 0; k < spatial; ++k) {
    const WindowDimension& w = (*window)[k];
    AffineExpr s = getAffineSymbolExpr(k, context);
    symbol_sizes.push_back(w.size);
    WindowedIndex index = ComputeWindowedIndex(
        getAffineDimExpr(dn.output_spatial_dimensions[k], context), s, w,
        lhs.dimensions(dn.input_spatial_dimensions[k]));
    lhs_exprs[dn.input_spatial_dimensions[k]] = index.expr;
    constraints.insert(constraints.end(), index.constraints.begin(),
                       index.constraints.end());
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
  // fgc), which reads input features [g * kernel_in_features, ...).
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

  IndexingMap lhs_map = MakeConstrainedMap(out.dimensions(), symbol_sizes,
                                           lhs_exprs, constraints, context);
  // The kernel element is only read where the input element exists.
  IndexingMap rhs_map = MakeConstrainedMap(out.dimensions(), symbol_sizes,
                                           rhs_exprs, constraints, context);
  return HloInstructionIndexing::FromIndexingMaps({lhs_map, rhs_map});
}

HloInstructionIndexing ComputeOutputToInputTupleIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context) {
  HloInstructionIndexing indexing;
  indexing.indexing_maps.resize(instruction->operand_count());
  if (output_id < 0 || output_id >= instruction->operand_count()) {
    return UndefinedFor(instruction);
  }
  const Shape& element = instruction->operand(output_id)->shape();
  indexing.indexing_maps[output_id].Insert(
      element.IsArray() ? CreateIdentityMap(element, context)
                        : IndexingMap::Undefined());
  return indexing;
}

HloInstructionIndexing ComputeOutputToInputGetTupleElementIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!instruction->shape().IsArray() || instruction->operand_count() != 1) {
    return UndefinedFor(instruction);
  }
  return HloInstructionIndexing::FromIndexingMaps(
      {CreateIdentityMap(instruction->shape(), context)});
}

HloInstructionIndexing ComputeOutputToInputIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context) {
  const HloOpcode opcode = instruction->opcode();
  if (IsElementwise(opcode) || opcode == HloOpcode::kMap) {
    return ComputeOutputToInputElementwiseIndexing(instruction, context);
  }
  switch (opcode) {
    case HloOpcode::kParameter:
    case HloOpcode::kConstant:
    case HloOpcode::kIota:
      return HloInstructionIndexing{};
    case HloOpcode::kBroadcast:
      return ComputeOutputToInputBroadcastIndexing(instruction, context);
    case HloOpcode::kDynamicSlice:
      return ComputeOutputToInputDynamicSliceIndexing(instruction, context);
    case HloOpcode::kDynamicUpdateSlice:
      return ComputeOutputToInputDynamicUpdateSliceIndexing(instruction,
                                                            context);
    case HloOpcode::kGather:
      return ComputeOutputToInputGatherIndexing(instruction, context);
    case HloOpcode::kTranspose:
      return ComputeOutputToInputTransposeIndexing(instruction, context);
    case HloOpcode::kReverse:
      return ComputeOutputToInputReverseIndexing(instruction, context);
    case HloOpcode::kReduce:
      return ComputeOutputToInputReduceIndexing(instruction, context);
    case HloOpcode::kSlice:
      return ComputeOutputToInputSliceIndexing(instruction, context);
    case HloOpcode::kReshape:
      return ComputeOutputToInputReshapeIndexing(instruction, context);
    case HloOpcode::kBitcast:
      return ComputeOutputToInputBitcastIndexing(instruction, context);
    case HloOpcode::kConcatenate:
      return ComputeOutputToInputConcatenateIndexing(instruction, context);
    case HloOpcode::kDot:
      return ComputeOutputToInputDotIndexing(instruction, context);
    case HloOpcode::kPad:
      return ComputeOutputToInputPadIndexing(instruction, context);
    case HloOpcode::kReduceWindow:
      return ComputeOutputToInputReduceWindowIndexing(instruction, context);
    case HloOpcode::kConvolution:
      return ComputeOutputToInputConvolutionIndexing(instruction, context);
    case HloOpcode::kTuple:
      return ComputeOutputToInputTupleIndexing(instruction, output_id, context);
    case HloOpcode::kGetTupleElement:
      return ComputeOutputToInputGetTupleElementIndexing(instruction, context);
    case HloOpcode::kFusion:
    case HloOpcode::kCall:
      return ComputeOutputToInputFusionIndexing(instruction, output_id,
                                                context);
    default:
      return UndefinedFor(instruction);
  }
}

}  // namespace xla_index
