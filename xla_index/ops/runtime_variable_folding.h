#ifndef XLA_INDEX_OPS_RUNTIME_VARIABLE_FOLDING_H_
#define XLA_INDEX_OPS_RUNTIME_VARIABLE_FOLDING_H_

// Runtime variables whose value is known at compile time, folded into the
// map (as XLA's indexing analysis folds them, "RTVar" optimization).
//
// A runtime variable reads element `access(d)` of its instruction. When
// that instruction is computed from constants and iotas only, through
//   broadcast, reshape, bitcast, transpose, reverse, slice  (the element is
//       read at the op's own output-to-input map composed with `access`),
//   convert between integer types, negate, add, subtract, multiply (one
//       side constant), divide (a non-negative dividend by a positive
//       constant), clamp,
// its value is an affine expression f(d) of the map's dims: a constant c
// at a constant index, `access(d)[iota_dimension]` for an iota. Each step
// is checked: every intermediate value must fit its element type (an HLO
// integer op that could wrap is not affine) and int64 (checked arithmetic);
// otherwise the variable is kept.
//
// The consumers (dynamic-slice, dynamic-update-slice, gather) clamp a start
// index into [0, operand_dim - slice_size] (XLA's operation semantics,
// "DynamicSlice", "Gather"), the variable's feasible values. So f(d)
// replaces the variable when every value of f lies in the feasible
// interval, or when f is a constant c (which becomes clamp(c, lo, hi): a
// constant 5000 for a 4096-slice range is 4086, -3 is 0). An f that may
// leave the interval is not affine after clamping: the variable is kept.
//
//   p = f32[4096] parameter(0)
//   c = s64[] constant(42)
//   ds = f32[10] dynamic-slice(p, c), dynamic_slice_sizes={10}
//   p: (d0) -> (d0 + 42), d0 in [0, 9]   (not s0 in [0, 4086])

#include <optional>

#include "absl/types/span.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/interval.h"

namespace xla_index {

/// The value of runtime variable `var` (whose `hlo` is an HloInstruction or
/// null) after clamping into var.feasible_values, as an affine expression
/// of the dims of a map whose dim intervals are `dim_bounds`; nullopt when
/// it is not known exactly at compile time (see above). `var.access` must
/// use dims only (nullopt otherwise), and var.feasible_values must be the
/// consumer's clamping interval, as the rules build it (an interval the
/// simplifier tightened from constraints is not a clamp: fold before
/// simplifying).
std::optional<mlir::AffineExpr> FoldRuntimeVariable(
    const RuntimeVar& var, absl::Span<const Interval> dim_bounds);

/// `map` with each runtime variable that FoldRuntimeVariable can fold
/// replaced by its value in the results, the constraints and the other
/// variables' access maps, then simplified (SimplifyAndRemoveUnusedSymbols).
/// A map where nothing folds is returned unchanged.
IndexingMap FoldRuntimeVariables(IndexingMap map);

}  // namespace xla_index

#endif  // XLA_INDEX_OPS_RUNTIME_VARIABLE_FOLDING_H_
