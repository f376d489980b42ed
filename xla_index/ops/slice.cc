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
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/core/checked_affine_expr.h"
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

namespace {

// The first and last operand index dimension `i` of `slice` reads, start
// and start + (size - 1) * stride (for a size >= 1), or an error when the
// last or -start (the input-to-output map subtracts the start) does not fit
// in int64.
absl::StatusOr<Interval> ReadRange(const HloInstruction* slice, int64_t i) {
  const SliceDimension& s = slice->slice()[i];
  const std::string where = absl::StrCat("dimension ", i);
  XI_RETURN_IF_ERROR(
      FitsInInt64(CheckedNeg(s.start), "-start", where).status());
  XI_ASSIGN_OR_RETURN(
      int64_t last, FitsInInt64(CheckedMulAdd(slice->shape().dimensions(i) - 1,
                                              s.stride, s.start),
                                "start + (size - 1) * stride", where));
  return Interval{s.start, last};
}

// Output to input: d * stride + start.
absl::StatusOr<IndexingMap> SliceOperandMap(const HloInstruction* slice,
                                            mlir::MLIRContext* context) {
  const Shape& out = slice->shape();
  std::vector<AffineExpr> exprs;
  for (int64_t i = 0; i < out.rank(); ++i) {
    const SliceDimension& s = slice->slice()[i];
    XI_RETURN_IF_ERROR(ReadRange(slice, i).status());
    XI_ASSIGN_OR_RETURN(
        AffineExpr scaled,
        CheckedAffineMul(getAffineDimExpr(i, context),
                         mlir::getAffineConstantExpr(s.stride, context)));
    XI_ASSIGN_OR_RETURN(AffineExpr e,
                        CheckedAffineAdd(scaled, mlir::getAffineConstantExpr(
                                                     s.start, context)));
    exprs.push_back(e);
  }
  return MakeMap(out.dimensions(), {}, exprs, context);
}

// Input to output: (d - start) floordiv stride on the elements read.
absl::StatusOr<IndexingMap> SliceOutputMap(const HloInstruction* slice,
                                           mlir::MLIRContext* context) {
  const int64_t rank = slice->shape().rank();
  std::vector<AffineExpr> exprs;
  std::vector<Interval> dim_bounds;
  std::vector<IndexingConstraint> constraints;
  for (int64_t i = 0; i < rank; ++i) {
    const SliceDimension& s = slice->slice()[i];
    XI_ASSIGN_OR_RETURN(Interval read, ReadRange(slice, i));
    XI_ASSIGN_OR_RETURN(
        AffineExpr shifted,
        CheckedAffineSub(getAffineDimExpr(i, context),
                         mlir::getAffineConstantExpr(s.start, context)));
    exprs.push_back(UnstrideIndex(shifted, s.stride, constraints));
    dim_bounds.push_back(read);
  }
  return IndexingMap(mlir::AffineMap::get(rank, 0, exprs, context),
                     std::move(dim_bounds), {}, {}, std::move(constraints));
}

}  // namespace

HloInstructionIndexing ComputeOutputToInputSliceIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidSlice(instruction))
    return AttributesDoNotFitEachOperand(instruction);
  return OneMap(
      MapOrUndefined(instruction, SliceOperandMap(instruction, context)));
}

HloInstructionIndexing ComputeInputToOutputSliceIndexing(
    const HloInstruction* instruction, int64_t /*input_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidSlice(instruction))
    return AttributesDoNotFitEachOutput(instruction);
  return OneMap(
      MapOrUndefined(instruction, SliceOutputMap(instruction, context)));
}

}  // namespace xla_index
