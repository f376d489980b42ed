#ifndef XLA_INDEX_CORE_WIDE_SUBSTITUTION_H_
#define XLA_INDEX_CORE_WIDE_SUBSTITUTION_H_

// Substitution into affine expressions computed in 128-bit arithmetic and
// expressed again in int64, for the compositions whose int64 folds leave
// int64 although the composed map itself fits.
//
// CheckedReplaceDimsAndSymbols (checked_affine_expr.h) follows MLIR's folds
// and refuses one whose constant leaves int64: replacing d0 by d0 * 2^62 in
// (d0 * 2) floordiv 2^62 folds the product d0 * 2^63. Yet the expression's
// value is 2 * d0 at every point. Here the substituted expression is first
// normalized over the integers, with every constant in __int128:
//   - sums and products by constants become linear forms
//     sum(coefficient * atom) + constant, where an atom is a dimension, a
//     symbol, or a division of a normalized form by a constant;
//   - (M*c + k + rest) floordiv c, with M the terms whose coefficients are
//     multiples of c and k = q*c + r (0 <= r < c), is M + q + (r + rest)
//     floordiv c (the last part only when rest has terms), ceildiv alike
//     with M + q + (r + rest) ceildiv c, and (M*c + k + rest) mod c is
//     (r + rest) mod c;
//   - x floordiv -c is (-x) floordiv c, x ceildiv -c is (-x) ceildiv c;
// and is then built as an mlir::AffineExpr through the checked builders.
// Each rewrite is an identity over the integers, so the result is the
// exact value wherever it is built. It is an error when a coefficient,
// constant or divisor of the normal form does not fit in int64, a 128-bit
// operation overflows, a product has no constant factor, a divisor is not
// a constant, or a mod's divisor is not positive: then no int64 expression
// of this form exists.

#include "absl/status/statusor.h"
#include "llvm/ADT/ArrayRef.h"
#include "mlir/IR/AffineExpr.h"

namespace xla_index {

/// `expr` with dimension i replaced by dims[i] and symbol j by symbols[j]
/// (those beyond the arrays kept), normalized and built again as above.
absl::StatusOr<mlir::AffineExpr> WideReplaceDimsAndSymbols(
    mlir::AffineExpr expr, llvm::ArrayRef<mlir::AffineExpr> dims,
    llvm::ArrayRef<mlir::AffineExpr> symbols);

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_WIDE_SUBSTITUTION_H_
