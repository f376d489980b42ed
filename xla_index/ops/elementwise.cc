// Elementwise ops (unary, binary, compare, select, clamp, convert, ...) and
// map: both directions, with the worked example of XLA's indexing-analysis
// documentation, "Elementwise":
//
//   p0 = f32[10, 20] parameter(0)
//   p1 = f32[10, 20] parameter(1)
//   add = f32[10, 20] add(p0, p1)
//
//   output to input, operands 0 and 1: (d0, d1) -> (d0, d1),
//                                      d0 in [0, 9], d1 in [0, 19]
//   input to output, operands 0 and 1: the same identity
//
// A scalar operand (clamp bounds, select predicate) is read at `()` and
// feeds every output element, `()[s0, ..., sn-1] -> (s0, ..., sn-1)`.
// bitcast-convert between element types of different widths adds or drops
// the minor dimension (XLA's operation semantics, "BitcastConvertType").

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/rule_helpers.h"

namespace xla_index {
namespace {

using mlir::AffineExpr;
using mlir::getAffineDimExpr;
using mlir::getAffineSymbolExpr;

// (d0, ..., d{n-1}) for the first n = `count` dims.
std::vector<AffineExpr> LeadingDims(size_t count, mlir::MLIRContext* context) {
  std::vector<AffineExpr> exprs;
  for (size_t i = 0; i < count; ++i) {
    exprs.push_back(getAffineDimExpr(i, context));
  }
  return exprs;
}

// `longer` is `shorter` with one more (minor) dimension.
bool AddsMinorDim(absl::Span<const int64_t> shorter,
                  absl::Span<const int64_t> longer) {
  return longer.size() == shorter.size() + 1 &&
         std::equal(shorter.begin(), shorter.end(), longer.begin());
}

}  // namespace

HloInstructionIndexing ComputeOutputToInputElementwiseIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  if (!AllArrays(instruction))
    return AttributesDoNotFitEachOperand(instruction);
  absl::Span<const int64_t> out = instruction->shape().dimensions();
  HloInstructionIndexing indexing;
  for (const HloInstruction* operand : instruction->operands()) {
    absl::Span<const int64_t> in = operand->shape().dimensions();
    IndexingMap map =
        IndexingMap::Undefined(AttributesDoNotFitReason(instruction));
    if (in == out) {
      map = CreateIdentityMap(out, context);
    } else if (in.empty()) {
      map = ScalarReadMap(out, context);
    } else if (AddsMinorDim(out, in)) {
      // bitcast-convert to a wider type: the new element packs the minor
      // dimension of the operand.
      std::vector<AffineExpr> exprs = LeadingDims(out.size(), context);
      exprs.push_back(getAffineSymbolExpr(0, context));
      map = MakeMap(out, {in.back()}, exprs, context);
    } else if (AddsMinorDim(in, out)) {
      // bitcast-convert to a narrower type: the minor output dimension
      // picks a part of one operand element.
      map = MakeMap(out, {}, LeadingDims(in.size(), context), context);
    }
    indexing.indexing_maps.emplace_back();
    indexing.indexing_maps.back().Insert(std::move(map));
  }
  return indexing;
}

HloInstructionIndexing ComputeInputToOutputElementwiseIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  if (!AllArrays(instruction)) return AttributesDoNotFitEachOutput(instruction);
  absl::Span<const int64_t> out = instruction->shape().dimensions();
  absl::Span<const int64_t> in =
      instruction->operand(input_id)->shape().dimensions();
  if (in == out) return OneMap(CreateIdentityMap(out, context));
  if (in.empty()) return OneMap(ScalarFeedsAllMap(out, context));
  if (AddsMinorDim(out, in)) {
    // bitcast-convert to a wider type: the operand's minor dim is packed.
    return OneMap(MakeMap(in, {}, LeadingDims(out.size(), context), context));
  }
  if (AddsMinorDim(in, out)) {
    std::vector<AffineExpr> exprs = LeadingDims(in.size(), context);
    exprs.push_back(getAffineSymbolExpr(0, context));
    return OneMap(MakeMap(in, {out.back()}, exprs, context));
  }
  return AttributesDoNotFitEachOutput(instruction);
}

}  // namespace xla_index
