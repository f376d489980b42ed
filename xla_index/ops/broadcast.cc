// broadcast: both directions, with the worked example of XLA's
// indexing-analysis documentation, "Broadcast":
//
//   bc0 = f32[10, 20, 30] broadcast(f32[20] p0), dimensions={1}
//
//   output to input: (d0, d1, d2) -> (d1),
//                    d0 in [0, 9], d1 in [0, 19], d2 in [0, 29]
//   input to output: (d0)[s0, s1] -> (s0, d0, s1),
//                    d0 in [0, 19], s0 in [0, 9], s1 in [0, 29]

#include <cstdint>
#include <vector>

#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/rule_helpers.h"
#include "xla_index/ops/shape_maps.h"

namespace xla_index {

using mlir::AffineExpr;
using mlir::getAffineDimExpr;
using mlir::getAffineSymbolExpr;

IndexingMap ComputeBroadcastIndexingMap(absl::Span<const int64_t> output_dims,
                                        absl::Span<const int64_t> dimensions,
                                        mlir::MLIRContext* context) {
  std::vector<AffineExpr> exprs;
  for (int64_t d : dimensions) exprs.push_back(getAffineDimExpr(d, context));
  return MakeMap(output_dims, {}, exprs, context);
}

IndexingMap ComputeBroadcastInputToOutputIndexingMap(
    absl::Span<const int64_t> operand_dims,
    absl::Span<const int64_t> output_dims, absl::Span<const int64_t> dimensions,
    mlir::MLIRContext* context) {
  std::vector<AffineExpr> exprs(output_dims.size());
  for (size_t i = 0; i < dimensions.size(); ++i) {
    exprs[dimensions[i]] = getAffineDimExpr(i, context);
  }
  std::vector<int64_t> symbol_sizes;
  for (size_t d = 0; d < output_dims.size(); ++d) {
    if (exprs[d]) continue;
    exprs[d] = getAffineSymbolExpr(symbol_sizes.size(), context);
    symbol_sizes.push_back(output_dims[d]);
  }
  return MakeMap(operand_dims, symbol_sizes, exprs, context);
}

bool IsValidBroadcast(const HloInstruction* broadcast) {
  if (!AllArraysWithOperands(broadcast, 1)) return false;
  const std::vector<int64_t>& dims = broadcast->dimensions();
  return static_cast<int64_t>(dims.size()) ==
             broadcast->operand(0)->shape().rank() &&
         IsDistinctSubset(dims, broadcast->shape().rank());
}

HloInstructionIndexing ComputeOutputToInputBroadcastIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidBroadcast(instruction)) {
    return AttributesDoNotFitEachOperand(instruction);
  }
  return OneMap(ComputeBroadcastIndexingMap(
      instruction->shape().dimensions(), instruction->dimensions(), context));
}

HloInstructionIndexing ComputeInputToOutputBroadcastIndexing(
    const HloInstruction* instruction, int64_t /*input_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidBroadcast(instruction)) {
    return AttributesDoNotFitEachOutput(instruction);
  }
  return OneMap(ComputeBroadcastInputToOutputIndexingMap(
      instruction->operand(0)->shape().dimensions(),
      instruction->shape().dimensions(), instruction->dimensions(), context));
}

}  // namespace xla_index
