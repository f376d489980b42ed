// reduce (variadic): both directions, with the worked example of XLA's
// indexing-analysis documentation, "(Variadic)Reduce":
//
//   reduce = (f32[10], s32[10]) reduce(f32[256,10] p0, s32[256,10] p1,
//            f32[] p0_init, s32[] p1_init), dimensions={0}
//
// Output to input: every input reads the kept dims from the output and the
// reduced dims (in increasing order) from range variables; every init is
// read at `()`. All outputs have the same maps.
//   p0, p1:            (d0)[s0] -> (s0, d0), d0 in [0, 9], s0 in [0, 255]
//   p0_init, p1_init:  (d0) -> (), d0 in [0, 9]
// Input to output: an input element feeds every output at its kept dims;
// an init value feeds every output element.
//   p0, p1:            (d0, d1) -> (d1), d0 in [0, 255], d1 in [0, 9]
//   p0_init, p1_init:  ()[s0] -> (s0), s0 in [0, 9]

#include <algorithm>
#include <cstdint>
#include <vector>

#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/rule_helpers.h"

namespace xla_index {

using mlir::AffineExpr;
using mlir::getAffineDimExpr;
using mlir::getAffineSymbolExpr;

bool IsValidReduce(const HloInstruction* reduce) {
  return HasInputsAndInits(reduce) &&
         IsDistinctSubset(reduce->dimensions(),
                          reduce->operand(0)->shape().rank());
}

HloInstructionIndexing ComputeOutputToInputReduceIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidReduce(instruction))
    return AttributesDoNotFitEachOperand(instruction);
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

HloInstructionIndexing ComputeInputToOutputReduceIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  if (!IsValidReduce(instruction))
    return AttributesDoNotFitEachOutput(instruction);
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
  return SameMapForEachOutput(instruction,
                              input_id < count
                                  ? MakeMap(in.dimensions(), {}, exprs, context)
                                  : ScalarFeedsAllMap(out_dims, context));
}

}  // namespace xla_index
