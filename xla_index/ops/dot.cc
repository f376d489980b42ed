// dot: both directions, with the worked example of XLA's indexing-analysis
// documentation, "Dot":
//
//   dot = f32[4, 128, 64] dot(f32[4, 128, 256] p0, f32[4, 256, 64] p1),
//         lhs_batch_dims={0}, rhs_batch_dims={0},
//         lhs_contracting_dims={2}, rhs_contracting_dims={1}
//
// Output to input: output dims are batch, lhs free, rhs free (in that
// order); each contracting pair shares one range variable.
//   p0: (d0, d1, d2)[s0] -> (d0, d1, s0)
//   p1: (d0, d1, d2)[s0] -> (d0, s0, d2)
//   d0 in [0, 3], d1 in [0, 127], d2 in [0, 63], s0 in [0, 255]
//
// Input to output: an lhs element feeds the outputs at its batch and free
// dims, for every rhs free index (range variables); likewise for rhs.
//   p0: (d0, d1, d2)[s0] -> (d0, d1, s0), s0 in [0, 63]
//   p1: (d0, d1, d2)[s0] -> (d0, s0, d2), s0 in [0, 127]
// (The documentation prints p1's map as `(d0, s0, d1)`, a typo: d1 is the
// contracting dimension; indexing_oracle_test.cc checks this map against
// the evaluator.)

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/rule_helpers.h"

namespace xla_index {
namespace {

using mlir::AffineExpr;
using mlir::getAffineDimExpr;
using mlir::getAffineSymbolExpr;

// The dims of `shape` in neither `batch` nor `contracting`, increasing.
std::vector<int64_t> FreeDims(const Shape& shape,
                              const std::vector<int64_t>& batch,
                              const std::vector<int64_t>& contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
        std::find(contracting.begin(), contracting.end(), d) ==
            contracting.end()) {
      free.push_back(d);
    }
  }
  return free;
}

// lhs dims `l[i]` and rhs dims `r[i]` pair up with equal sizes.
bool SizesMatch(const Shape& lhs, const std::vector<int64_t>& l,
                const Shape& rhs, const std::vector<int64_t>& r) {
  for (size_t i = 0; i < l.size(); ++i) {
    if (lhs.dimensions(l[i]) != rhs.dimensions(r[i])) return false;
  }
  return true;
}

}  // namespace

namespace {

// The roles of the dims of operands 0 (lhs) and 1 (rhs), whatever follows
// them (scaled-dot's scales).
std::optional<DotDimensionRoles> GetLhsRhsRoles(const HloInstruction* dot) {
  if (!AllArrays(dot) || dot->operand_count() < 2) return std::nullopt;
  const Shape& lhs = dot->operand(0)->shape();
  const Shape& rhs = dot->operand(1)->shape();
  const DotDimensionNumbers& dn = dot->dot_dimension_numbers();
  const auto& lb = dn.lhs_batch_dimensions;
  const auto& rb = dn.rhs_batch_dimensions;
  const auto& lc = dn.lhs_contracting_dimensions;
  const auto& rc = dn.rhs_contracting_dimensions;
  std::vector<int64_t> lhs_special(lb), rhs_special(rb);
  lhs_special.insert(lhs_special.end(), lc.begin(), lc.end());
  rhs_special.insert(rhs_special.end(), rc.begin(), rc.end());
  if (lb.size() != rb.size() || lc.size() != rc.size() ||
      !IsDistinctSubset(lhs_special, lhs.rank()) ||
      !IsDistinctSubset(rhs_special, rhs.rank()) ||
      !SizesMatch(lhs, lb, rhs, rb) || !SizesMatch(lhs, lc, rhs, rc)) {
    return std::nullopt;
  }
  DotDimensionRoles roles{FreeDims(lhs, lb, lc), FreeDims(rhs, rb, rc)};
  if (dot->shape().rank() !=
      static_cast<int64_t>(lb.size() + roles.lhs_free.size() +
                           roles.rhs_free.size())) {
    return std::nullopt;
  }
  return roles;
}

}  // namespace

std::optional<DotDimensionRoles> GetDotDimensionRoles(
    const HloInstruction* dot) {
  if (dot->operand_count() != 2) return std::nullopt;
  return GetLhsRhsRoles(dot);
}

namespace {

// The lhs and rhs maps of output to input: output dims are batch, then lhs
// free, then rhs free; contracting dims are range variables.
std::pair<IndexingMap, IndexingMap> LhsRhsOutputToInputMaps(
    const HloInstruction* instruction, const DotDimensionRoles& roles,
    mlir::MLIRContext* context) {
  const Shape& out = instruction->shape();
  const Shape& lhs = instruction->operand(0)->shape();
  const Shape& rhs = instruction->operand(1)->shape();
  const DotDimensionNumbers& dnums = instruction->dot_dimension_numbers();
  const auto& lb = dnums.lhs_batch_dimensions;
  const auto& rb = dnums.rhs_batch_dimensions;
  const auto& lc = dnums.lhs_contracting_dimensions;
  const auto& rc = dnums.rhs_contracting_dimensions;
  std::vector<AffineExpr> lhs_exprs(lhs.rank()), rhs_exprs(rhs.rank());
  std::vector<int64_t> symbol_sizes;
  int64_t out_dim = 0;
  for (size_t i = 0; i < lb.size(); ++i) {
    lhs_exprs[lb[i]] = rhs_exprs[rb[i]] = getAffineDimExpr(out_dim++, context);
  }
  for (int64_t d : roles.lhs_free) {
    lhs_exprs[d] = getAffineDimExpr(out_dim++, context);
  }
  for (int64_t d : roles.rhs_free) {
    rhs_exprs[d] = getAffineDimExpr(out_dim++, context);
  }
  for (size_t j = 0; j < lc.size(); ++j) {
    lhs_exprs[lc[j]] = rhs_exprs[rc[j]] = getAffineSymbolExpr(j, context);
    symbol_sizes.push_back(lhs.dimensions(lc[j]));
  }
  return {MakeMap(out.dimensions(), symbol_sizes, lhs_exprs, context),
          MakeMap(out.dimensions(), symbol_sizes, rhs_exprs, context)};
}

}  // namespace

HloInstructionIndexing ComputeOutputToInputDotIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  std::optional<DotDimensionRoles> roles = GetDotDimensionRoles(instruction);
  if (!roles.has_value()) return AttributesDoNotFitEachOperand(instruction);
  auto [lhs_map, rhs_map] =
      LhsRhsOutputToInputMaps(instruction, *roles, context);
  return HloInstructionIndexing::FromIndexingMaps({lhs_map, rhs_map});
}

namespace {

// The input-to-output map of operand `input_id` (0: lhs, 1: rhs): its
// batch and free dims from its index; the other operand's free dims are
// range variables.
IndexingMap LhsOrRhsInputToOutputMap(const HloInstruction* instruction,
                                     const DotDimensionRoles& roles,
                                     int64_t input_id,
                                     mlir::MLIRContext* context) {
  const Shape& lhs = instruction->operand(0)->shape();
  const Shape& rhs = instruction->operand(1)->shape();
  const DotDimensionNumbers& dn = instruction->dot_dimension_numbers();
  const bool is_lhs = input_id == 0;
  const Shape& in = is_lhs ? lhs : rhs;
  const std::vector<int64_t>& batch =
      is_lhs ? dn.lhs_batch_dimensions : dn.rhs_batch_dimensions;
  std::vector<AffineExpr> exprs;
  std::vector<int64_t> symbol_sizes;
  for (int64_t d : batch) exprs.push_back(getAffineDimExpr(d, context));
  auto append_free = [&](const std::vector<int64_t>& free, const Shape& shape,
                         bool own) {
    for (int64_t d : free) {
      if (own) {
        exprs.push_back(getAffineDimExpr(d, context));
      } else {
        exprs.push_back(getAffineSymbolExpr(symbol_sizes.size(), context));
        symbol_sizes.push_back(shape.dimensions(d));
      }
    }
  };
  append_free(roles.lhs_free, lhs, is_lhs);
  append_free(roles.rhs_free, rhs, !is_lhs);
  return MakeMap(in.dimensions(), symbol_sizes, exprs, context);
}

}  // namespace

HloInstructionIndexing ComputeInputToOutputDotIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  std::optional<DotDimensionRoles> roles = GetDotDimensionRoles(instruction);
  if (!roles.has_value()) return AttributesDoNotFitEachOutput(instruction);
  return OneMap(
      LhsOrRhsInputToOutputMap(instruction, *roles, input_id, context));
}

// ---- scaled-dot ----

namespace {

// Per dim of operand k (0: lhs, 1: rhs), the block size its scale (operand
// k + 2) covers: operand size / scale size. Nullopt when the scale is not
// of the operand's rank or a scale size does not divide the operand's.
std::optional<std::vector<int64_t>> ScaleBlockSizes(
    const HloInstruction* instruction, int64_t k) {
  const Shape& operand = instruction->operand(k)->shape();
  const Shape& scale = instruction->operand(k + 2)->shape();
  if (operand.rank() != scale.rank()) return std::nullopt;
  std::vector<int64_t> blocks;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    const int64_t size = operand.dimensions(d);
    const int64_t scale_size = scale.dimensions(d);
    if (scale_size < 1 || size % scale_size != 0) return std::nullopt;
    blocks.push_back(size / scale_size);
  }
  return blocks;
}

// The dot roles, and the block sizes of the lhs and rhs scales.
struct ScaledDotRoles {
  DotDimensionRoles roles;
  std::vector<int64_t> lhs_blocks, rhs_blocks;
};
std::optional<ScaledDotRoles> GetScaledDotRoles(
    const HloInstruction* scaled_dot) {
  if (scaled_dot->operand_count() != 4) return std::nullopt;
  std::optional<DotDimensionRoles> roles = GetLhsRhsRoles(scaled_dot);
  if (!roles.has_value()) return std::nullopt;
  std::optional<std::vector<int64_t>> lhs = ScaleBlockSizes(scaled_dot, 0);
  std::optional<std::vector<int64_t>> rhs = ScaleBlockSizes(scaled_dot, 1);
  if (!lhs.has_value() || !rhs.has_value()) return std::nullopt;
  return ScaledDotRoles{*std::move(roles), *std::move(lhs), *std::move(rhs)};
}

// `map` with result k divided by blocks[k]: from an operand element to the
// scale element of its block.
IndexingMap ToScaleMap(const IndexingMap& map,
                       const std::vector<int64_t>& blocks) {
  mlir::AffineMap affine = map.GetAffineMap();
  std::vector<AffineExpr> exprs;
  for (size_t k = 0; k < blocks.size(); ++k) {
    AffineExpr e = affine.getResult(k);
    exprs.push_back(blocks[k] == 1 ? e : e.floorDiv(blocks[k]));
  }
  IndexingMap scaled(
      mlir::AffineMap::get(affine.getNumDims(), affine.getNumSymbols(), exprs,
                           affine.getContext()),
      map.GetDimBounds(), map.GetRangeVarBounds(), map.GetRuntimeVars(),
      map.GetConstraints());
  SimplifyAndRemoveUnusedSymbols(scaled);
  return scaled;
}

// From a scale element to the operand elements of its block:
// d_k * blocks[k] + s_k, s_k in [0, blocks[k] - 1] (d_k where the block is
// 1).
IndexingMap ScaleBlockMap(const Shape& scale,
                          const std::vector<int64_t>& blocks,
                          mlir::MLIRContext* context) {
  std::vector<AffineExpr> exprs;
  std::vector<int64_t> symbol_sizes;
  for (size_t k = 0; k < blocks.size(); ++k) {
    AffineExpr d = getAffineDimExpr(k, context);
    if (blocks[k] == 1) {
      exprs.push_back(d);
      continue;
    }
    exprs.push_back(d * blocks[k] +
                    getAffineSymbolExpr(symbol_sizes.size(), context));
    symbol_sizes.push_back(blocks[k]);
  }
  return MakeMap(scale.dimensions(), symbol_sizes, exprs, context);
}

}  // namespace

HloInstructionIndexing ComputeOutputToInputScaledDotIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  std::optional<ScaledDotRoles> roles = GetScaledDotRoles(instruction);
  if (!roles.has_value()) return AttributesDoNotFitEachOperand(instruction);
  auto [lhs_map, rhs_map] =
      LhsRhsOutputToInputMaps(instruction, roles->roles, context);
  return HloInstructionIndexing::FromIndexingMaps(
      {lhs_map, rhs_map, ToScaleMap(lhs_map, roles->lhs_blocks),
       ToScaleMap(rhs_map, roles->rhs_blocks)});
}

HloInstructionIndexing ComputeInputToOutputScaledDotIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  std::optional<ScaledDotRoles> roles = GetScaledDotRoles(instruction);
  if (!roles.has_value()) return AttributesDoNotFitEachOutput(instruction);
  if (input_id < 2) {
    return OneMap(
        LhsOrRhsInputToOutputMap(instruction, roles->roles, input_id, context));
  }
  // A scale element feeds what every operand element of its block feeds.
  const int64_t operand = input_id - 2;
  IndexingMap block = ScaleBlockMap(
      instruction->operand(input_id)->shape(),
      operand == 0 ? roles->lhs_blocks : roles->rhs_blocks, context);
  IndexingMap composed = ComposeIndexingMaps(
      block,
      LhsOrRhsInputToOutputMap(instruction, roles->roles, operand, context));
  SimplifyAndRemoveUnusedSymbols(composed);
  return OneMap(std::move(composed));
}

}  // namespace xla_index
