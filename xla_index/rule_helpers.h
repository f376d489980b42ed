#ifndef XLA_INDEX_RULE_HELPERS_H_
#define XLA_INDEX_RULE_HELPERS_H_

// Helpers shared by the per-op indexing rules of both directions
// (output_to_input_indexing.cc, input_to_output_indexing.cc): attribute
// checks and map construction.

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "hlo/instruction.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

/// The output and every operand are arrays (no tuples or tokens).
bool AllArrays(const HloInstruction* instruction);

/// `dims` lists distinct values of [0, n).
bool IsDistinctSubset(absl::Span<const int64_t> dims, int64_t n);

/// `dims` is a permutation of [0, n).
bool IsPermutation(absl::Span<const int64_t> dims, int64_t n);

/// The map `(d...)[s...] -> (exprs)` over dims of sizes `dims` and range
/// variables of sizes `symbol_sizes`, as built (not simplified: the rules
/// build maps that are already simple, and the seed prints them so, e.g.
/// `d0` with d0 in [0, 0] stays d0).
IndexingMap MakeMap(absl::Span<const int64_t> dims,
                    absl::Span<const int64_t> symbol_sizes,
                    absl::Span<const mlir::AffineExpr> exprs,
                    mlir::MLIRContext* context);

/// The roles of a dot's operand dimensions. The output is batch dims (in
/// lhs_batch order), then the lhs free dims, then the rhs free dims, each in
/// increasing order (seed 003, DotGeneral).
struct DotDimensionRoles {
  std::vector<int64_t> lhs_free;
  std::vector<int64_t> rhs_free;
};

/// The roles of `dot`'s dimensions, or nullopt when its dimension numbers
/// do not fit its operands: repeated or out-of-range dims, unequal batch or
/// contracting counts or sizes, or an output rank other than batch + free.
std::optional<DotDimensionRoles> GetDotDimensionRoles(
    const HloInstruction* dot);

}  // namespace xla_index

#endif  // XLA_INDEX_RULE_HELPERS_H_
