// pad: both directions, and the shape-only pad map (shape_maps.h).
//
// Output to input, the example of XLA's indexing-analysis documentation,
// "Pad": pad is the inverse of a strided slice. With low l and interior i,
// output d reads (d - l) floordiv (i + 1) when (d - l) mod (i + 1) == 0;
// the domain is the part of the output the operand covers. The padding
// value is read at `()` everywhere (an over-approximation).
//   pad = f32[12, 16] pad(f32[4, 4] p0, p1), padding=1_4_1x4_8_0
//   p0: (d0, d1) -> ((d0 - 1) floordiv 2, d1 - 4), d0 in [1, 7],
//       d1 in [4, 7], (d0 - 1) mod 2 in [0, 0]
//   p1: (d0, d1) -> (), d0 in [0, 11], d1 in [0, 15]
//
// Input to output (in the documentation's style): operand index d goes to
// d * (interior + 1) + low (elements removed by negative edge padding are
// outside the domain); the padding value feeds every output element,
// `()[s...] -> (s...)` (an over-approximation). For the pad above:
//   p0: (d0, d1) -> (d0 * 2 + 1, d1 + 4), d0 in [0, 3], d1 in [0, 3]
//   p1: ()[s0, s1] -> (s0, s1), s0 in [0, 11], s1 in [0, 15]

#include <algorithm>
#include <cstdint>
#include <optional>
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
#include "xla_index/ops/shape_maps.h"

namespace xla_index {

using mlir::AffineExpr;
using mlir::getAffineDimExpr;

namespace {

// low + high + size + (size - 1) * interior, the padded size, or nullopt
// when it does not fit in int64.
std::optional<int64_t> CheckedPaddedSize(int64_t low, int64_t high,
                                         int64_t interior, int64_t size) {
  std::optional<int64_t> edges = CheckedAdd(low, high);
  std::optional<int64_t> inner =
      CheckedMulAdd(std::max<int64_t>(size - 1, 0), interior, size);
  if (!edges.has_value() || !inner.has_value()) return std::nullopt;
  return CheckedAdd(*edges, *inner);
}

// The int64 values one padded dimension relates.
struct PadExtent {
  int64_t step = 1;    // interior + 1: operand elements lie `step` apart
  int64_t padded = 0;  // the padded size
  int64_t last = 0;    // low + (size - 1) * step: the last element's place
};

// The extent of dimension `dimension` (operand size `size`), or an error
// naming the value that does not fit in int64.
absl::StatusOr<PadExtent> GetPadExtent(const PadDimension& p, int64_t size,
                                       int64_t dimension) {
  const std::string where = absl::StrCat("dimension ", dimension);
  // Interior padding only separates elements: next to at most one element
  // it pads nothing, so interior INT64_MAX stays exact there.
  std::optional<int64_t> step = CheckedAdd(p.interior, 1);
  if (!step.has_value() && size <= 1) step = 1;
  PadExtent extent;
  XI_ASSIGN_OR_RETURN(extent.step, FitsInInt64(step, "interior + 1", where));
  XI_RETURN_IF_ERROR(FitsInInt64(CheckedNeg(p.low), "-low", where).status());
  XI_ASSIGN_OR_RETURN(
      extent.padded,
      FitsInInt64(CheckedPaddedSize(p.low, p.high, p.interior, size),
                  "low + high + size + (size - 1) * interior", where));
  XI_ASSIGN_OR_RETURN(extent.last,
                      FitsInInt64(CheckedMulAdd(size - 1, extent.step, p.low),
                                  "low + (size - 1) * (interior + 1)", where));
  return extent;
}

// ComputePadIndexingMap, or an error naming the value that does not fit.
absl::StatusOr<IndexingMap> PadOperandMap(
    absl::Span<const int64_t> operand_dims,
    absl::Span<const PadDimension> padding, mlir::MLIRContext* context) {
  const int64_t rank = operand_dims.size();
  std::vector<AffineExpr> exprs;
  std::vector<Interval> dim_bounds;
  std::vector<IndexingConstraint> constraints;
  for (int64_t i = 0; i < rank; ++i) {
    const PadDimension& p = padding[i];
    XI_ASSIGN_OR_RETURN(PadExtent extent, GetPadExtent(p, operand_dims[i], i));
    XI_ASSIGN_OR_RETURN(
        AffineExpr shifted,
        CheckedAffineSub(getAffineDimExpr(i, context),
                         mlir::getAffineConstantExpr(p.low, context)));
    exprs.push_back(UnstrideIndex(shifted, extent.step, constraints));
    dim_bounds.push_back({std::max<int64_t>(0, p.low),
                          std::min(extent.padded - 1, extent.last)});
  }
  IndexingMap map(mlir::AffineMap::get(rank, 0, exprs, context),
                  std::move(dim_bounds), {}, {}, std::move(constraints));
  SimplifyAndRemoveUnusedSymbols(map);
  return map;
}

// Input to output: operand index d goes to d * (interior + 1) + low.
absl::StatusOr<IndexingMap> PadOutputMap(const HloInstruction* pad,
                                         mlir::MLIRContext* context) {
  const Shape& out = pad->shape();
  const Shape& in = pad->operand(0)->shape();
  std::vector<AffineExpr> exprs;
  std::vector<IndexingConstraint> constraints;
  for (int64_t i = 0; i < in.rank(); ++i) {
    const PaddingDimension& p = pad->padding_config()[i];
    XI_ASSIGN_OR_RETURN(
        PadExtent extent,
        GetPadExtent({p.low, p.high, p.interior}, in.dimensions(i), i));
    XI_ASSIGN_OR_RETURN(
        AffineExpr scaled,
        CheckedAffineMul(getAffineDimExpr(i, context),
                         mlir::getAffineConstantExpr(extent.step, context)));
    XI_ASSIGN_OR_RETURN(
        AffineExpr e,
        CheckedAffineAdd(scaled, mlir::getAffineConstantExpr(p.low, context)));
    exprs.push_back(e);
    // Negative edge padding removes elements: they feed nothing.
    constraints.push_back({e, Interval{0, out.dimensions(i) - 1}});
  }
  return MakeConstrainedMap(in.dimensions(), {}, exprs, constraints, context);
}

// The padding config as PadDimensions.
std::vector<PadDimension> PadDimensions(const HloInstruction* pad) {
  std::vector<PadDimension> padding;
  for (const PaddingDimension& p : pad->padding_config()) {
    padding.push_back({p.low, p.high, p.interior});
  }
  return padding;
}

}  // namespace

IndexingMap ComputePadIndexingMap(absl::Span<const int64_t> operand_dims,
                                  absl::Span<const PadDimension> padding,
                                  mlir::MLIRContext* context) {
  absl::StatusOr<IndexingMap> map =
      PadOperandMap(operand_dims, padding, context);
  if (!map.ok()) {
    return IndexingMap::Undefined(
        absl::StrCat("pad: ", map.status().message()));
  }
  return *std::move(map);
}

bool IsValidPad(const HloInstruction* pad) {
  if (!AllArraysWithOperands(pad, 2) || !pad->operand(1)->shape().IsScalar()) {
    return false;
  }
  const Shape& out = pad->shape();
  const Shape& in = pad->operand(0)->shape();
  const PaddingConfig& config = pad->padding_config();
  if (in.rank() != out.rank() ||
      static_cast<int64_t>(config.size()) != in.rank()) {
    return false;
  }
  for (int64_t i = 0; i < in.rank(); ++i) {
    const PaddingDimension& p = config[i];
    // A padded size beyond int64 cannot be the output's.
    if (p.interior < 0 ||
        CheckedPaddedSize(p.low, p.high, p.interior, in.dimensions(i)) !=
            out.dimensions(i)) {
      return false;
    }
  }
  return true;
}

HloInstructionIndexing ComputeOutputToInputPadIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidPad(instruction))
    return AttributesDoNotFitEachOperand(instruction);
  return HloInstructionIndexing::FromIndexingMaps(
      {MapOrUndefined(
           instruction,
           PadOperandMap(instruction->operand(0)->shape().dimensions(),
                         PadDimensions(instruction), context)),
       ScalarReadMap(instruction->shape().dimensions(), context)});
}

HloInstructionIndexing ComputeInputToOutputPadIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  if (!IsValidPad(instruction))
    return AttributesDoNotFitEachOutput(instruction);
  const Shape& out = instruction->shape();
  if (input_id == 1)
    return OneMap(ScalarFeedsAllMap(out.dimensions(), context));
  return OneMap(
      MapOrUndefined(instruction, PadOutputMap(instruction, context)));
}

}  // namespace xla_index
