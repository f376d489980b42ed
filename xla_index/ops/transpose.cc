// transpose: both directions, and the shape-only transpose map
// (shape_maps.h), with the worked example of XLA's indexing-analysis
// documentation, "Transpose":
//
//   transpose = f32[3, 6, 128, 12288] transpose(f32[3, 12288, 6, 128] p0),
//               dimensions={0, 2, 3, 1}
//
// Output dim i is operand dim dimensions[i].
//   output to input: (d0, d1, d2, d3) -> (d0, d3, d1, d2),
//                    d0 in [0, 2], d1 in [0, 5], d2 in [0, 127],
//                    d3 in [0, 12287]
// Input to output is the transpose by the inverse permutation.
//   input to output: (d0, d1, d2, d3) -> (d0, d2, d3, d1),
//                    d0 in [0, 2], d1 in [0, 12287], d2 in [0, 5],
//                    d3 in [0, 127]

#include <cstdint>
#include <vector>

#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/rule_helpers.h"
#include "xla_index/ops/shape_maps.h"

namespace xla_index {

IndexingMap ComputeTransposeIndexingMap(absl::Span<const int64_t> permutation,
                                        absl::Span<const int64_t> output_dims,
                                        mlir::MLIRContext* context) {
  std::vector<mlir::AffineExpr> exprs(output_dims.size());
  for (size_t i = 0; i < output_dims.size(); ++i) {
    exprs[permutation[i]] = mlir::getAffineDimExpr(i, context);
  }
  return MakeMap(output_dims, {}, exprs, context);
}

std::vector<int64_t> InversePermutation(absl::Span<const int64_t> permutation) {
  std::vector<int64_t> inverse(permutation.size());
  for (size_t i = 0; i < permutation.size(); ++i) {
    inverse[permutation[i]] = static_cast<int64_t>(i);
  }
  return inverse;
}

bool IsValidTranspose(const HloInstruction* transpose) {
  if (!AllArraysWithOperands(transpose, 1)) return false;
  const int64_t rank = transpose->shape().rank();
  return transpose->operand(0)->shape().rank() == rank &&
         IsPermutation(transpose->dimensions(), rank);
}

HloInstructionIndexing ComputeOutputToInputTransposeIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidTranspose(instruction)) {
    return AttributesDoNotFitEachOperand(instruction);
  }
  return OneMap(ComputeTransposeIndexingMap(
      instruction->dimensions(), instruction->shape().dimensions(), context));
}

HloInstructionIndexing ComputeInputToOutputTransposeIndexing(
    const HloInstruction* instruction, int64_t /*input_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidTranspose(instruction)) {
    return AttributesDoNotFitEachOutput(instruction);
  }
  return OneMap(ComputeTransposeIndexingMap(
      InversePermutation(instruction->dimensions()),
      instruction->operand(0)->shape().dimensions(), context));
}

}  // namespace xla_index
