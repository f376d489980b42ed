// reverse: both directions, with the worked example of XLA's
// indexing-analysis documentation, "Reverse":
//
//   reverse = f32[1, 17, 9, 9] reverse(f32[1, 17, 9, 9] p0),
//             dimensions={1, 2}
//
// A reversed dim of size n reads n - 1 - d, so reverse is its own inverse:
//   output to input and input to output:
//     (d0, d1, d2, d3) -> (d0, -d1 + 16, -d2 + 8, d3),
//     d0 in [0, 0], d1 in [0, 16], d2 in [0, 8], d3 in [0, 8]

#include <cstdint>
#include <vector>

#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/rule_helpers.h"

namespace xla_index {
namespace {

// The map over `dims` that reverses `reversed`.
IndexingMap ReverseMap(absl::Span<const int64_t> dims,
                       absl::Span<const int64_t> reversed,
                       mlir::MLIRContext* context) {
  std::vector<mlir::AffineExpr> exprs;
  for (size_t i = 0; i < dims.size(); ++i) {
    exprs.push_back(mlir::getAffineDimExpr(i, context));
  }
  for (int64_t d : reversed) exprs[d] = dims[d] - 1 - exprs[d];
  return MakeMap(dims, {}, exprs, context);
}

}  // namespace

bool IsValidReverse(const HloInstruction* reverse) {
  if (!AllArraysWithOperands(reverse, 1)) return false;
  const int64_t rank = reverse->shape().rank();
  return reverse->operand(0)->shape().rank() == rank &&
         IsDistinctSubset(reverse->dimensions(), rank);
}

HloInstructionIndexing ComputeOutputToInputReverseIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidReverse(instruction))
    return AttributesDoNotFitEachOperand(instruction);
  return OneMap(ReverseMap(instruction->shape().dimensions(),
                           instruction->dimensions(), context));
}

HloInstructionIndexing ComputeInputToOutputReverseIndexing(
    const HloInstruction* instruction, int64_t /*input_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidReverse(instruction))
    return AttributesDoNotFitEachOutput(instruction);
  return OneMap(ReverseMap(instruction->operand(0)->shape().dimensions(),
                           instruction->dimensions(), context));
}

}  // namespace xla_index
