// dynamic-slice and dynamic-update-slice. Their offsets are runtime
// variables read from scalar operands, with feasible values
// [0, operand_dim - slice_size] (XLA clamps the start indices so that the
// slice stays in bounds; XLA's operation semantics, "DynamicSlice").
//
// dynamic-slice, both directions. Output to input, the example of XLA's
// indexing-analysis documentation, "DynamicSlice": operand index = output
// index + offset; the offset operands are read at `()`.
//   ds = s32[1,2,32] dynamic-slice(s32[2,2,258] src, of1, of2, of3),
//        dynamic_slice_sizes={1, 2, 32}
//   src: (d0, d1, d2)[s0, s1, s2] -> (d0 + s0, d1 + s1, d2 + s2),
//        s0 in [0, 1] (hlo: of1, (d0, d1, d2) -> ()), s1 in [0, 0],
//        s2 in [0, 226]
//   of1, of2, of3: (d0, d1, d2) -> ()
// Input to output (in the documentation's style): operand element d feeds
// output d - s when that lies in the slice; each offset feeds every output
// element, `()[s...] -> (s...)`.
//   ds = f32[2] dynamic-slice(f32[8] p0, s32[] o), dynamic_slice_sizes={2}
//   p0: (d0)[s0] -> (d0 - s0), s0 in [0, 6] (hlo: o), d0 - s0 in [0, 1]
//
// dynamic-update-slice, output to input only, the example of the
// documentation, "DynamicUpdateSlice": the operand is read at the same index
// (an over-approximation: updated elements do not read it); the update at
// output index - offset, offsets in [0, operand_dim - update_dim].
//   dus = s32[20,30] dynamic-update-slice(src, s32[5,10] upd, of1, of2)
//   src: (d0, d1) -> (d0, d1)
//   upd: (d0, d1)[s0, s1] -> (d0 - s0, d1 - s1), s0 in [0, 15],
//        s1 in [0, 20]
//   of1, of2: (d0, d1) -> ()
// It has no input-to-output rule: which operand elements survive depends
// on the offsets.
//
// Offsets whose values are known at compile time (constants, iotas, integer
// ops on them) fold into the maps, clamped as XLA clamps them
// (runtime_variable_folding.h): with of1 = s32[] constant(3) and
// of2 = s32[] constant(25) the update above is read at (d0 - 3, d1 - 20).

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/rule_helpers.h"
#include "xla_index/ops/runtime_variable_folding.h"

namespace xla_index {

using mlir::AffineExpr;
using mlir::AffineMap;
using mlir::getAffineDimExpr;
using mlir::getAffineSymbolExpr;

bool IsValidDynamicSlice(const HloInstruction* dynamic_slice) {
  if (!AllArrays(dynamic_slice) || dynamic_slice->operand_count() < 1) {
    return false;
  }
  const Shape& out = dynamic_slice->shape();
  const Shape& in = dynamic_slice->operand(0)->shape();
  const int64_t rank = in.rank();
  if (out.rank() != rank || dynamic_slice->operand_count() != rank + 1) {
    return false;
  }
  for (int64_t i = 0; i < rank; ++i) {
    if (!dynamic_slice->operand(i + 1)->shape().IsScalar() ||
        in.dimensions(i) < out.dimensions(i)) {
      return false;
    }
  }
  return true;
}

namespace {

// The offset map shared by both ops and directions: for each dim i,
// d_i + sign * s_i over a domain of dims `domain`, where s_i is the runtime
// start index read from operand `first_offset + i` of `instruction`, with
// feasible values [0, full_dims[i] - window_dims[i]] (XLA's clamp). With
// `constrain_to_window`, each result is constrained to
// [0, window_dims[i] - 1] (input to output: the element lies in the
// slice). Offsets with known values are folded (runtime_variable_folding.h).
IndexingMap OffsetMap(const HloInstruction* instruction, int64_t first_offset,
                      absl::Span<const int64_t> full_dims,
                      absl::Span<const int64_t> window_dims,
                      absl::Span<const int64_t> domain, int64_t sign,
                      bool constrain_to_window, mlir::MLIRContext* context) {
  const int64_t rank = full_dims.size();
  AffineMap scalar_access = AffineMap::get(rank, 0, {}, context);
  std::vector<AffineExpr> exprs;
  std::vector<RuntimeVar> offsets;
  for (int64_t i = 0; i < rank; ++i) {
    exprs.push_back(getAffineDimExpr(i, context) +
                    getAffineSymbolExpr(i, context) * sign);
    offsets.push_back(MakeRuntimeVar(instruction->operand(first_offset + i),
                                     full_dims[i] - window_dims[i],
                                     scalar_access));
  }
  IndexingMap map(AffineMap::get(rank, rank, exprs, context), DimBounds(domain),
                  {}, std::move(offsets));
  if (constrain_to_window) {
    for (int64_t i = 0; i < rank; ++i) {
      map.AddConstraint(exprs[i], Interval{0, window_dims[i] - 1});
    }
  }
  return FoldRuntimeVariables(std::move(map));
}

}  // namespace

HloInstructionIndexing ComputeOutputToInputDynamicSliceIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidDynamicSlice(instruction)) {
    return AttributesDoNotFitEachOperand(instruction);
  }
  const Shape& out = instruction->shape();
  const Shape& in = instruction->operand(0)->shape();
  std::vector<IndexingMap> maps = {
      OffsetMap(instruction, /*first_offset=*/1, in.dimensions(),
                out.dimensions(), out.dimensions(), /*sign=*/1,
                /*constrain_to_window=*/false, context)};
  for (int64_t i = 0; i < in.rank(); ++i) {
    maps.push_back(ScalarReadMap(out.dimensions(), context));
  }
  return HloInstructionIndexing::FromIndexingMaps(maps);
}

HloInstructionIndexing ComputeInputToOutputDynamicSliceIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  if (!IsValidDynamicSlice(instruction)) {
    return AttributesDoNotFitEachOutput(instruction);
  }
  const Shape& out = instruction->shape();
  const Shape& in = instruction->operand(0)->shape();
  if (input_id > 0) return OneMap(ScalarFeedsAllMap(out.dimensions(), context));
  return OneMap(OffsetMap(instruction, /*first_offset=*/1, in.dimensions(),
                          out.dimensions(), in.dimensions(), /*sign=*/-1,
                          /*constrain_to_window=*/true, context));
}

bool IsValidDynamicUpdateSlice(const HloInstruction* dynamic_update_slice) {
  if (!AllArrays(dynamic_update_slice)) return false;
  const Shape& out = dynamic_update_slice->shape();
  const int64_t rank = out.rank();
  if (dynamic_update_slice->operand_count() != rank + 2 ||
      !dynamic_update_slice->operand(0)->shape().SameDimensions(out) ||
      dynamic_update_slice->operand(1)->shape().rank() != rank) {
    return false;
  }
  const Shape& update = dynamic_update_slice->operand(1)->shape();
  for (int64_t i = 0; i < rank; ++i) {
    if (!dynamic_update_slice->operand(i + 2)->shape().IsScalar() ||
        out.dimensions(i) < update.dimensions(i)) {
      return false;
    }
  }
  return true;
}

HloInstructionIndexing ComputeOutputToInputDynamicUpdateSliceIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  if (!IsValidDynamicUpdateSlice(instruction)) {
    return AttributesDoNotFitEachOperand(instruction);
  }
  const Shape& out = instruction->shape();
  const Shape& update = instruction->operand(1)->shape();
  std::vector<IndexingMap> maps = {
      CreateIdentityMap(out, context),
      OffsetMap(instruction, /*first_offset=*/2, out.dimensions(),
                update.dimensions(), out.dimensions(), /*sign=*/-1,
                /*constrain_to_window=*/false, context)};
  for (int64_t i = 0; i < out.rank(); ++i) {
    maps.push_back(ScalarReadMap(out.dimensions(), context));
  }
  return HloInstructionIndexing::FromIndexingMaps(maps);
}

}  // namespace xla_index
