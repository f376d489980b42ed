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
#include <utility>
#include <vector>

#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/rule_helpers.h"
#include "xla_index/ops/shape_maps.h"

namespace xla_index {

using mlir::AffineExpr;
using mlir::getAffineDimExpr;

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
  IndexingMap map(mlir::AffineMap::get(rank, 0, exprs, context),
                  std::move(dim_bounds), {}, {}, std::move(constraints));
  SimplifyAndRemoveUnusedSymbols(map);
  return map;
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
    int64_t padded = p.low + p.high + in.dimensions(i) +
                     std::max<int64_t>(in.dimensions(i) - 1, 0) * p.interior;
    if (p.interior < 0 || padded != out.dimensions(i)) return false;
  }
  return true;
}

HloInstructionIndexing ComputeOutputToInputPadIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidPad(instruction))
    return AttributesDoNotFitEachOperand(instruction);
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

HloInstructionIndexing ComputeInputToOutputPadIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  if (!IsValidPad(instruction))
    return AttributesDoNotFitEachOutput(instruction);
  const Shape& out = instruction->shape();
  if (input_id == 1)
    return OneMap(ScalarFeedsAllMap(out.dimensions(), context));
  const Shape& in = instruction->operand(0)->shape();
  const PaddingConfig& config = instruction->padding_config();
  std::vector<AffineExpr> exprs;
  std::vector<IndexingConstraint> constraints;
  for (int64_t i = 0; i < in.rank(); ++i) {
    const PaddingDimension& p = config[i];
    AffineExpr e = getAffineDimExpr(i, context) * (p.interior + 1) + p.low;
    exprs.push_back(e);
    // Negative edge padding removes elements: they feed nothing.
    constraints.push_back({e, Interval{0, out.dimensions(i) - 1}});
  }
  return OneMap(
      MakeConstrainedMap(in.dimensions(), {}, exprs, constraints, context));
}

}  // namespace xla_index
