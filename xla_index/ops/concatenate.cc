// concatenate: both directions, with the worked example of XLA's
// indexing-analysis documentation, "Concatenate":
//
//   concat = f32[2, 33, 7] concatenate(f32[2, 5, 7] p0, f32[2, 11, 7] p1,
//            f32[2, 17, 7] p2), dimensions={1}
//
// Operand k covers the output slab that starts at offset_k (the sum of the
// sizes before it) along the dimension.
//   output to input, p1: (d0, d1, d2) -> (d0, d1 - 5, d2),
//                        d0 in [0, 1], d1 in [5, 15], d2 in [0, 6]
//                    (its domain is that slab only)
//   input to output, p1: (d0, d1, d2) -> (d0, d1 + 5, d2),
//                        d0 in [0, 1], d1 in [0, 10], d2 in [0, 6]

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
using mlir::getAffineDimExpr;

bool IsValidConcatenate(const HloInstruction* concatenate) {
  if (!AllArrays(concatenate) || concatenate->operand_count() == 0) {
    return false;
  }
  const Shape& out = concatenate->shape();
  const int64_t dim = concatenate->dimension();
  if (dim < 0 || dim >= out.rank()) return false;
  int64_t size = 0;
  for (const HloInstruction* operand : concatenate->operands()) {
    const Shape& in = operand->shape();
    if (in.rank() != out.rank()) return false;
    for (int64_t i = 0; i < out.rank(); ++i) {
      if (i != dim && in.dimensions(i) != out.dimensions(i)) return false;
    }
    size += in.dimensions(dim);
  }
  return size == out.dimensions(dim);
}

HloInstructionIndexing ComputeOutputToInputConcatenateIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidConcatenate(instruction)) {
    return AttributesDoNotFitEachOperand(instruction);
  }
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
    IndexingMap map(mlir::AffineMap::get(out.rank(), 0, exprs, context),
                    std::move(dim_bounds), {}, {});
    indexing.indexing_maps.emplace_back();
    indexing.indexing_maps.back().Insert(std::move(map));
  }
  return indexing;
}

HloInstructionIndexing ComputeInputToOutputConcatenateIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  if (!IsValidConcatenate(instruction)) {
    return AttributesDoNotFitEachOutput(instruction);
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
  return OneMap(MakeMap(in.dimensions(), {}, exprs, context));
}

}  // namespace xla_index
