// slice: both directions, with the worked example of XLA's
// indexing-analysis documentation, "Slice":
//
//   slice = f32[5, 3, 25] slice(f32[10, 20, 50] p0),
//           slice={[5:10:1], [3:20:7], [0:50:2]}
//
// Output to input: d * stride + start.
//   (d0, d1, d2) -> (d0 + 5, d1 * 7 + 3, d2 * 2),
//   d0 in [0, 4], d1 in [0, 2], d2 in [0, 24]
// Input to output: (d - start) floordiv stride on the read elements only:
// the domain is [start, start + (size - 1) * stride] with
// (d - start) mod stride = 0.
//   (d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2),
//   d0 in [5, 9], d1 in [3, 17], d2 in [0, 48], (d1 - 3) mod 7 in [0, 0],
//   d2 mod 2 in [0, 0]

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

bool IsValidSlice(const HloInstruction* slice) {
  if (!AllArraysWithOperands(slice, 1)) return false;
  const int64_t rank = slice->shape().rank();
  const std::vector<SliceDimension>& ranges = slice->slice();
  if (slice->operand(0)->shape().rank() != rank ||
      static_cast<int64_t>(ranges.size()) != rank) {
    return false;
  }
  for (const SliceDimension& s : ranges) {
    if (s.stride < 1) return false;
  }
  return true;
}

HloInstructionIndexing ComputeOutputToInputSliceIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidSlice(instruction))
    return AttributesDoNotFitEachOperand(instruction);
  const Shape& out = instruction->shape();
  const std::vector<SliceDimension>& slice = instruction->slice();
  std::vector<AffineExpr> exprs;
  for (int64_t i = 0; i < out.rank(); ++i) {
    exprs.push_back(getAffineDimExpr(i, context) * slice[i].stride +
                    slice[i].start);
  }
  return OneMap(MakeMap(out.dimensions(), {}, exprs, context));
}

HloInstructionIndexing ComputeInputToOutputSliceIndexing(
    const HloInstruction* instruction, int64_t /*input_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidSlice(instruction))
    return AttributesDoNotFitEachOutput(instruction);
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
  return OneMap(IndexingMap(mlir::AffineMap::get(in.rank(), 0, exprs, context),
                            std::move(dim_bounds), {}, {},
                            std::move(constraints)));
}

}  // namespace xla_index
