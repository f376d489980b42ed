// gather: output to input only, for the simplified form XLA's
// gather_simplifier produces (indices of rank 2 with index_vector_dim=1,
// start_index_map the identity {0, 1, ...}, no collapsed slice dims,
// offset_dims={1, ..., rank}); other forms are UNDEFINED. The example of
// XLA's indexing-analysis documentation, "Gather":
//
//   gather = f32[1806,7,8,4] gather(f32[33,76,70] operand,
//            s32[1806,2] indices), offset_dims={1,2,3},
//            collapsed_slice_dims={}, start_index_map={0,1},
//            index_vector_dim=1, slice_sizes={7,8,4}
//   operand: (d0, d1, d2, d3)[s0, s1] -> (d1 + s0, d2 + s1, d3),
//            s0 in [0, 26] (indices at (d0, 0)), s1 in [0, 68] (at (d0, 1))
//   indices: (d0, d1, d2, d3)[s0] -> (d0, s0), s0 in [0, 1]
//
// Output dim 0 picks a row of indices; operand dim k is read at
// d_{k+1} + s_k, where s_k is a runtime variable read from indices[d0, k]
// (clamped like a dynamic-slice offset to [0, operand_dim - slice_size]).
// Gather has no input-to-output rule.

#include <cstdint>
#include <utility>
#include <vector>

#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/rule_helpers.h"

namespace xla_index {

using mlir::AffineExpr;
using mlir::AffineMap;
using mlir::getAffineConstantExpr;
using mlir::getAffineDimExpr;
using mlir::getAffineSymbolExpr;

bool IsValidGather(const HloInstruction* gather) {
  if (!AllArrays(gather) || gather->operand_count() != 2) return false;
  const Shape& out = gather->shape();
  const Shape& operand = gather->operand(0)->shape();
  const Shape& indices = gather->operand(1)->shape();
  const GatherDimensionNumbers& dnums = gather->gather_dimension_numbers();
  const std::vector<int64_t>& slice_sizes = gather->gather_slice_sizes();
  const int64_t rank = operand.rank();
  if (indices.rank() != 2 || dnums.index_vector_dim != 1 ||
      !dnums.collapsed_slice_dims.empty() ||
      !dnums.operand_batching_dims.empty() ||
      !dnums.start_indices_batching_dims.empty() ||
      static_cast<int64_t>(slice_sizes.size()) != rank ||
      static_cast<int64_t>(dnums.offset_dims.size()) != rank ||
      out.rank() != rank + 1) {
    return false;
  }
  const int64_t index_vector_length = indices.dimensions(1);
  if (index_vector_length > rank ||
      static_cast<int64_t>(dnums.start_index_map.size()) !=
          index_vector_length ||
      out.dimensions(0) != indices.dimensions(0)) {
    return false;
  }
  for (int64_t k = 0; k < index_vector_length; ++k) {
    if (dnums.start_index_map[k] != k) return false;
  }
  for (int64_t k = 0; k < rank; ++k) {
    if (dnums.offset_dims[k] != k + 1 ||
        out.dimensions(k + 1) != slice_sizes[k] ||
        slice_sizes[k] > operand.dimensions(k)) {
      return false;
    }
  }
  return true;
}

HloInstructionIndexing ComputeOutputToInputGatherIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidGather(instruction))
    return AttributesDoNotFitEachOperand(instruction);
  const Shape& out = instruction->shape();
  const Shape& operand = instruction->operand(0)->shape();
  const HloInstruction* indices = instruction->operand(1);
  const std::vector<int64_t>& slice_sizes = instruction->gather_slice_sizes();
  const int64_t rank = operand.rank();
  const int64_t index_vector_length = indices->shape().dimensions(1);
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
  IndexingMap operand_map(
      AffineMap::get(out_rank, index_vector_length, exprs, context),
      DimBounds(out.dimensions()), {}, std::move(starts));
  IndexingMap indices_map =
      MakeMap(out.dimensions(), {index_vector_length},
              {row, getAffineSymbolExpr(0, context)}, context);
  return HloInstructionIndexing::FromIndexingMaps({operand_map, indices_map});
}

}  // namespace xla_index
