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

std::optional<DotDimensionRoles> GetDotDimensionRoles(
    const HloInstruction* dot) {
  if (!AllArrays(dot) || dot->operand_count() != 2) return std::nullopt;
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

HloInstructionIndexing ComputeOutputToInputDotIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  std::optional<DotDimensionRoles> roles = GetDotDimensionRoles(instruction);
  if (!roles.has_value()) return AttributesDoNotFitEachOperand(instruction);
  const Shape& out = instruction->shape();
  const Shape& lhs = instruction->operand(0)->shape();
  const Shape& rhs = instruction->operand(1)->shape();
  const DotDimensionNumbers& dnums = instruction->dot_dimension_numbers();
  const auto& lb = dnums.lhs_batch_dimensions;
  const auto& rb = dnums.rhs_batch_dimensions;
  const auto& lc = dnums.lhs_contracting_dimensions;
  const auto& rc = dnums.rhs_contracting_dimensions;
  // Output dims: batch, then lhs free, then rhs free; contracting dims are
  // range variables.
  std::vector<AffineExpr> lhs_exprs(lhs.rank()), rhs_exprs(rhs.rank());
  std::vector<int64_t> symbol_sizes;
  int64_t out_dim = 0;
  for (size_t i = 0; i < lb.size(); ++i) {
    lhs_exprs[lb[i]] = rhs_exprs[rb[i]] = getAffineDimExpr(out_dim++, context);
  }
  for (int64_t d : roles->lhs_free) {
    lhs_exprs[d] = getAffineDimExpr(out_dim++, context);
  }
  for (int64_t d : roles->rhs_free) {
    rhs_exprs[d] = getAffineDimExpr(out_dim++, context);
  }
  for (size_t j = 0; j < lc.size(); ++j) {
    lhs_exprs[lc[j]] = rhs_exprs[rc[j]] = getAffineSymbolExpr(j, context);
    symbol_sizes.push_back(lhs.dimensions(lc[j]));
  }
  return HloInstructionIndexing::FromIndexingMaps(
      {MakeMap(out.dimensions(), symbol_sizes, lhs_exprs, context),
       MakeMap(out.dimensions(), symbol_sizes, rhs_exprs, context)});
}

HloInstructionIndexing ComputeInputToOutputDotIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  std::optional<DotDimensionRoles> roles = GetDotDimensionRoles(instruction);
  if (!roles.has_value()) return AttributesDoNotFitEachOutput(instruction);
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
  // The operand's own free dims come from its index; the other operand's
  // free dims are range variables.
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
  append_free(roles->lhs_free, lhs, is_lhs);
  append_free(roles->rhs_free, rhs, !is_lhs);
  return OneMap(MakeMap(in.dimensions(), symbol_sizes, exprs, context));
}

}  // namespace xla_index
