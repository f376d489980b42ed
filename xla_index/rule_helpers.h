#ifndef XLA_INDEX_RULE_HELPERS_H_
#define XLA_INDEX_RULE_HELPERS_H_

// Helpers shared by the per-op indexing rules of both directions
// (output_to_input_indexing.cc, input_to_output_indexing.cc): attribute
// checks, one per op, and map construction.

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "hlo/attributes.h"
#include "hlo/instruction.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

/// The output and every operand are arrays (no tuples or tokens).
bool AllArrays(const HloInstruction* instruction);

/// AllArrays, with exactly `operand_count` operands.
bool AllArraysWithOperands(const HloInstruction* instruction,
                           int64_t operand_count);

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

/// MakeMap with `constraints` added, then simplified with its unused
/// symbols removed (SimplifyAndRemoveUnusedSymbols).
IndexingMap MakeConstrainedMap(absl::Span<const int64_t> dims,
                               absl::Span<const int64_t> symbol_sizes,
                               absl::Span<const mlir::AffineExpr> exprs,
                               absl::Span<const IndexingConstraint> constraints,
                               mlir::MLIRContext* context);

// Per-op attribute checks, one per op, shared by both directions: each
// says whether the instruction's attributes fit its operands and output
// (a rule gives UNDEFINED where they do not). The HLO verifier rejects
// every such instruction; these guard instructions built without it.

/// broadcast: one array operand; `dimensions` has one entry per operand
/// dim, distinct dims of the output.
bool IsValidBroadcast(const HloInstruction* broadcast);

/// transpose: one array operand of the output's rank; `dimensions` is a
/// permutation of its dims.
bool IsValidTranspose(const HloInstruction* transpose);

/// reverse: one array operand of the output's rank; `dimensions` lists
/// distinct dims of it.
bool IsValidReverse(const HloInstruction* reverse);

/// slice: one array operand of the output's rank, one range per dim, each
/// with stride >= 1.
bool IsValidSlice(const HloInstruction* slice);

/// pad: an array operand and a scalar padding value; one padding config per
/// operand dim, with interior >= 0, padding each dim to the output's size.
bool IsValidPad(const HloInstruction* pad);

/// concatenate: one or more array operands of the output's rank, `dimension`
/// one of its dims, the operands equal to the output in every other dim and
/// their sizes along `dimension` adding up to the output's.
bool IsValidConcatenate(const HloInstruction* concatenate);

/// dynamic-slice: an array operand of the output's rank, no smaller than
/// the output in any dim, then one scalar offset per dim.
bool IsValidDynamicSlice(const HloInstruction* dynamic_slice);

/// reduce: N >= 1 array inputs of equal dims, then N scalar init values;
/// `dimensions` lists distinct dims of the inputs.
bool IsValidReduce(const HloInstruction* reduce);

/// The window of a reduce-window, one dimension per input dim (size-1
/// windows when it has no window attribute), or nullopt when it does not
/// fit: other than N >= 1 array inputs of equal dims then N scalar init
/// values, an output (or first tuple element) of another rank, a window of
/// another rank, or a window size, stride or dilation below 1.
std::optional<std::vector<WindowDimension>> GetReduceWindowWindow(
    const HloInstruction* reduce_window);

/// The window of a convolution, one dimension per spatial dim (the whole
/// kernel at stride 1 when it has no window attribute), or nullopt when it
/// does not fit: operands and output not all arrays of one rank >= 2,
/// dimension numbers that are not a permutation of the dims for each of
/// input, kernel and output, a window of another rank, a window size other
/// than the kernel's spatial size, a stride or dilation below 1, group
/// counts below 1 or both above 1, input features other than kernel input
/// features * feature_group_count, output features not divisible by either
/// group count or unequal to the kernel's, or input batch other than output
/// batch
/// * batch_group_count.
std::optional<std::vector<WindowDimension>> GetConvolutionWindow(
    const HloInstruction* convolution);

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
