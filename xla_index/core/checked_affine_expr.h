#ifndef XLA_INDEX_CORE_CHECKED_AFFINE_EXPR_H_
#define XLA_INDEX_CORE_CHECKED_AFFINE_EXPR_H_

// Building mlir::AffineExprs without MLIR's silent int64 wrap.
//
// MLIR's AffineExpr operators (and getAffineBinaryOpExpr and
// replaceDimsAndSymbols, which call them) fold constants as they build, in
// wrapping int64 arithmetic (mlir/lib/IR/AffineExpr.cpp, MLIR 22):
//   - c1 + c2, c1 * c2 (and c floordiv/ceildiv/mod k) of two constants;
//   - (e + c1) + c2 -> e + (c1 + c2), and (e + c) + f -> (e + f) + c;
//   - e * c1 + e * c2 -> e * (c1 + c2) (a bare e counts as e * 1);
//   - (e * c1) * c2 -> e * (c1 * c2), and (e * c) * f -> (e * f) * c;
//   - e - f is e + f * -1 and -e is e * -1 (so -(e * MIN) wraps);
//   - (e * c1) floordiv/ceildiv c -> e * (c1 / c) when c divides c1;
//   - (a + b) floordiv c -> a floordiv c + b floordiv c, and (a + b) mod c
//     -> b mod c (or a mod c), when c divides a's (b's) known divisor;
//   - e mod c -> 0 when c divides e's known divisor, (e mod a) mod c ->
//     e mod c when c divides a; e + (e floordiv q) * -q -> e mod q.
// So `(d0 * 2^62) * 2` becomes `d0 * -2^63` and `d0 - MAX - MAX` becomes
// `d0 + 2`: a different map, not an error.
//
// The functions below build exactly the expression MLIR's operators build,
// following the same folds, but compute every folded constant with checked
// arithmetic: when one does not fit in int64 they return an OutOfRange
// error naming the operation ("9223372036854775807 + 1 does not fit in
// int64") instead of a wrapped expression. A product of two expressions
// that are both non-symbolic (not affine; MLIR asserts) is InvalidArgument.
// Everything that builds expressions from user constants (the map-text
// parser, composition, layout maps) goes through here.

#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "llvm/ADT/ArrayRef.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"

namespace xla_index {

/// `lhs kind rhs` for kind Add, Mul, FloorDiv, CeilDiv or Mod, as
/// mlir::getAffineBinaryOpExpr(kind, lhs, rhs) builds it, or an error when a
/// constant it folds does not fit in int64.
absl::StatusOr<mlir::AffineExpr> CheckedAffineBinaryOp(
    mlir::AffineExprKind kind, mlir::AffineExpr lhs, mlir::AffineExpr rhs);

/// lhs + rhs, lhs * rhs, lhs - rhs (= lhs + rhs * -1), -e (= e * -1).
absl::StatusOr<mlir::AffineExpr> CheckedAffineAdd(mlir::AffineExpr lhs,
                                                  mlir::AffineExpr rhs);
absl::StatusOr<mlir::AffineExpr> CheckedAffineMul(mlir::AffineExpr lhs,
                                                  mlir::AffineExpr rhs);
absl::StatusOr<mlir::AffineExpr> CheckedAffineSub(mlir::AffineExpr lhs,
                                                  mlir::AffineExpr rhs);
absl::StatusOr<mlir::AffineExpr> CheckedAffineNeg(mlir::AffineExpr expr);

/// t0 + t1 + ... + tn exactly as the left fold of CheckedAffineAdd builds
/// it, with fewer nodes: MLIR moves a sum's constant to the right on every
/// addition ((e + c) + t -> (e + t) + c), so a fold builds the sum twice per
/// term after a constant; here the constant is held aside (added to later
/// constants in the same order, checked) and added once at the end, where
/// the fold would have put it. Terms after which the fold does something
/// else (a term that would be swapped before the sum, or is like the sum)
/// go through CheckedAffineAdd unchanged.
class CheckedAffineSum {
 public:
  explicit CheckedAffineSum(mlir::AffineExpr first);
  /// Adds `term`; an error when a constant the fold computes does not fit.
  absl::Status Add(mlir::AffineExpr term);
  /// The sum so far.
  absl::StatusOr<mlir::AffineExpr> Finish() const;

 private:
  // Moves the constant c of base_ = e + c into pending_.
  absl::Status TakeConstant();
  mlir::AffineExpr base_;
  // The sum is base_ + pending_ (base_ alone when unset); base_ never ends
  // in a constant while pending_ is set, and pending_ is never 0.
  std::optional<int64_t> pending_;
};

/// expr.replaceDimsAndSymbols(dims, symbols), rebuilding the changed nodes
/// through CheckedAffineBinaryOp (substitution folds too: replacing d0 by
/// s0 * 2^62 in d0 * 2 makes the product of the coefficients).
absl::StatusOr<mlir::AffineExpr> CheckedReplaceDimsAndSymbols(
    mlir::AffineExpr expr, llvm::ArrayRef<mlir::AffineExpr> dims,
    llvm::ArrayRef<mlir::AffineExpr> symbols);
/// The same for every result of `map`; the new map has `num_dims` dims and
/// `num_symbols` symbols.
absl::StatusOr<mlir::AffineMap> CheckedReplaceDimsAndSymbols(
    mlir::AffineMap map, llvm::ArrayRef<mlir::AffineExpr> dims,
    llvm::ArrayRef<mlir::AffineExpr> symbols, unsigned num_dims,
    unsigned num_symbols);

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_CHECKED_AFFINE_EXPR_H_
