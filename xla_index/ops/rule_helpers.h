#ifndef XLA_INDEX_OPS_RULE_HELPERS_H_
#define XLA_INDEX_OPS_RULE_HELPERS_H_

// Map-building and shape-checking helpers shared by the per-op rules in
// this folder (both directions). Used only inside xla_index/ops/; the rules
// themselves are declared in op_rules.h.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlo/instruction.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/ops/instruction_indexing.h"

namespace xla_index {

// ---- Shape checks (the building blocks of the per-op attribute checks).

/// The output and every operand are arrays (no tuples or tokens).
bool AllArrays(const HloInstruction* instruction);

/// AllArrays, with exactly `operand_count` operands.
bool AllArraysWithOperands(const HloInstruction* instruction,
                           int64_t operand_count);

/// N >= 1 array inputs with the dims of the first, then N scalars (the
/// operands of reduce and reduce-window).
bool HasInputsAndInits(const HloInstruction* instruction);

/// `dims` lists distinct values of [0, n).
bool IsDistinctSubset(absl::Span<const int64_t> dims, int64_t n);

/// `dims` is a permutation of [0, n).
bool IsPermutation(absl::Span<const int64_t> dims, int64_t n);

// ---- Values that must fit in int64.
//
// The rules compute strides, offsets and bounds from attributes that an
// unverified module may set near INT64_MAX. Each such value goes through
// base/checked_arithmetic.h and, when it does not fit, becomes an error that
// the rule turns into an Undefined map naming the op and the attribute, never
// a wrapped (different) map.

/// a * b + c, or nullopt when the product or the sum does not fit in int64.
std::optional<int64_t> CheckedMulAdd(int64_t a, int64_t b, int64_t c);

/// `*value` (a Checked* result), or an OutOfRange error "WHAT of WHERE does
/// not fit in int64", e.g. "start + (size - 1) * stride of dimension 1 does
/// not fit in int64".
absl::StatusOr<int64_t> FitsInInt64(std::optional<int64_t> value,
                                    absl::string_view what,
                                    absl::string_view where);

/// `*map`, or Undefined with reason "OPCODE 'NAME': MESSAGE" (the form of
/// AttributesDoNotFitReason) when `map` is an error.
IndexingMap MapOrUndefined(const HloInstruction* instruction,
                           absl::StatusOr<IndexingMap> map);

// ---- Map construction.

/// `shifted floordiv step` (just `shifted` for step 1), appending the
/// constraint `shifted mod step in [0, 0]` for step > 1: the index x of a
/// strided placement `shifted = x * step`. Shared by the inverse of a slice's
/// stride, a pad's interior padding and a window's stride and base
/// dilation. `step` >= 1 (MLIR folds floordiv and mod by it exactly).
mlir::AffineExpr UnstrideIndex(mlir::AffineExpr shifted, int64_t step,
                               std::vector<IndexingConstraint>& constraints);

/// The map `(d...)[s...] -> (exprs)` over dims of sizes `dims` and range
/// variables of sizes `symbol_sizes`, as built (not simplified: the rules
/// build maps that are already simple, and XLA's indexing-analysis
/// documentation prints them so, e.g. `d0` with d0 in [0, 0] stays d0).
IndexingMap MakeMap(absl::Span<const int64_t> dims,
                    absl::Span<const int64_t> symbol_sizes,
                    absl::Span<const mlir::AffineExpr> exprs,
                    mlir::MLIRContext* context);

/// MakeMap with `constraints` added, then simplified with its unused
/// symbols removed (SimplifyAndRemoveUnusedSymbols).
IndexingMap MakeConstrainedMap(absl::Span<const int64_t> dims,
                               absl::Span<const int64_t> symbol_sizes,
                               absl::Span<const mlir::AffineExpr> exprs,
                               absl::Span<const IndexingConstraint> constraints,
                               mlir::MLIRContext* context);

/// `(d0, ..., dn-1) -> ()` over `dims`: a scalar operand read once per
/// output element (output-to-input).
IndexingMap ScalarReadMap(absl::Span<const int64_t> dims,
                          mlir::MLIRContext* context);

/// `()[s0, ..., sn-1] -> (s0, ..., sn-1)`: a scalar operand that feeds every
/// element of an output of dims `dims` (input-to-output).
IndexingMap ScalarFeedsAllMap(absl::Span<const int64_t> dims,
                              mlir::MLIRContext* context);

/// [0, size - 1] for each size: the domain of a map over `dims`.
std::vector<Interval> DimBounds(absl::Span<const int64_t> dims);

/// One set holding `map`: the answer of an op with one operand
/// (output-to-input) or one output (input-to-output).
HloInstructionIndexing OneMap(IndexingMap map);

/// OutputCount(instruction) sets, each holding `map` (input-to-output of an
/// operand that feeds every output the same way: variadic reduce and
/// reduce-window).
HloInstructionIndexing SameMapForEachOutput(const HloInstruction* instruction,
                                            const IndexingMap& map);

}  // namespace xla_index

#endif  // XLA_INDEX_OPS_RULE_HELPERS_H_
