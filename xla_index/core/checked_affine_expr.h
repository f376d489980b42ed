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
#include <memory>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
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

/// The functions above, for many builds in one context (one parse): the
/// same results and errors, with two caches. A constant's node is looked up
/// in MLIR once per value; an operation on operands it has already built
/// with returns the node it built then (MLIR's operators are functions of
/// their uniqued operands, so it is the node MLIR would give again; errors
/// are not kept). Each MLIR call costs a uniquer lookup (a hash of the
/// operands and a probe of the context's table) plus its folding checks;
/// a hit here is a probe of a small local table. Not thread-safe.
class CheckedAffineBuilder {
 public:
  explicit CheckedAffineBuilder(mlir::MLIRContext* context);
  CheckedAffineBuilder(const CheckedAffineBuilder&) = delete;
  CheckedAffineBuilder& operator=(const CheckedAffineBuilder&) = delete;

  mlir::MLIRContext* context() const { return context_; }
  /// mlir::getAffineConstantExpr(value, context()).
  mlir::AffineExpr Constant(int64_t value);
  /// CheckedAffineBinaryOp(kind, lhs, rhs).
  absl::StatusOr<mlir::AffineExpr> BinaryOp(mlir::AffineExprKind kind,
                                            mlir::AffineExpr lhs,
                                            mlir::AffineExpr rhs);
  /// BinaryOp(kind, variable, Constant(k)) for a `variable` the caller knows
  /// is a dimension or a symbol: none of MLIR's folds but the ones by 0 and
  /// 1 apply to it, so the node is built without testing for them.
  absl::StatusOr<mlir::AffineExpr> VariableOp(mlir::AffineExprKind kind,
                                              mlir::AffineExpr variable,
                                              int64_t k);
  /// The node this builder built for `kind lhs rhs`, or a null expression.
  mlir::AffineExpr Lookup(mlir::AffineExprKind kind, mlir::AffineExpr lhs,
                          mlir::AffineExpr rhs) const;
  /// Records that `kind lhs rhs` is `result`.
  void Remember(mlir::AffineExprKind kind, mlir::AffineExpr lhs,
                mlir::AffineExpr rhs, mlir::AffineExpr result);

 private:
  // A slot of the operation table but its lhs, which is kept apart (null:
  // an empty slot).
  struct Operation {
    const void* rhs;
    const void* result;
    uint64_t kind;
  };
  struct ConstantSlot {
    int64_t value;
    const void* expr;
  };
  static constexpr int kInlineOperations = 32;
  static constexpr int kConstantSlots = 16;
  size_t Slot(uint64_t kind, const void* lhs, const void* rhs) const;
  void Grow();

  mlir::MLIRContext* context_;
  // Open addressing with linear probing; a power-of-two size, at most half
  // full, slot i being lhs_[i] and operations_[i]. Starts in the inline
  // arrays (no allocation for small maps), of which only inline_lhs_ is
  // cleared, on the first Remember (count_ == 0 before: Lookup reads
  // nothing); a slot's operation is read only when its lhs is set.
  const void* inline_lhs_[kInlineOperations];
  Operation inline_[kInlineOperations];
  std::unique_ptr<const void*[]> heap_lhs_;
  std::unique_ptr<Operation[]> heap_;
  const void** lhs_ = inline_lhs_;
  Operation* operations_ = inline_;
  size_t mask_ = kInlineOperations - 1;
  size_t count_ = 0;
  // Direct-mapped by value: a collision replaces the older constant. Slot i
  // is filled when bit i of constants_filled_ is set (no clearing per
  // builder).
  ConstantSlot constants_[kConstantSlots];
  uint32_t constants_filled_ = 0;
};

/// What a caller that built a term of a CheckedAffineSum knows of it:
/// `simple` when it is a dimension or symbol `variable`, or `variable * k`
/// with k not 0 or 1 (as CheckedAffineBuilder::VariableOp builds it).
/// Adding such terms needs none of the operand queries of the general fold.
struct CheckedSumTerm {
  bool simple = false;
  mlir::AffineExpr variable;
  bool is_dim = false;
  unsigned position = 0;
  bool scaled = false;  // variable * k
};

/// t0 + t1 + ... + tn exactly as the left fold of CheckedAffineAdd builds
/// it, with fewer nodes: MLIR moves a sum's constant to the right on every
/// addition ((e + c) + t -> (e + t) + c), so a fold builds the sum twice per
/// term after a constant; here the constant is held aside (added to later
/// constants in the same order, checked) and added once at the end, where
/// the fold would have put it. Terms after which the fold does something
/// else (a term that would be swapped before the sum, or is like the sum)
/// go through CheckedAffineAdd unchanged. With a builder, its caches are
/// used, and whether the sum so far has a dimension is remembered from one
/// term to the next instead of walking the sum again.
class CheckedAffineSum {
 public:
  using Term = CheckedSumTerm;

  explicit CheckedAffineSum(mlir::AffineExpr first,
                            CheckedAffineBuilder* builder = nullptr,
                            const Term& facts = Term());
  /// Adds `term`; an error when a constant the fold computes does not fit.
  /// `facts` must be true of `term` (or say nothing).
  absl::Status Add(mlir::AffineExpr term, const Term& facts = Term());
  /// Add(the constant k), without looking k up in MLIR when the fold only
  /// adds it to the sum's constant.
  absl::Status AddConstant(int64_t k);
  /// The sum so far.
  absl::StatusOr<mlir::AffineExpr> Finish() const;

 private:
  // Moves the constant c of base_ = e + c into pending_.
  absl::Status TakeConstant();
  // base_ is a constant or e + c: then constants are added as terms.
  bool BaseIsConstant() const;
  // pending_ += k.
  absl::Status AddPending(int64_t k);
  // Whether base_ has no dimension (AffineExpr::isSymbolicOrConstant).
  bool BaseSymbolic();
  // Add for a simple term when base_ is plain or simple and the fold is a
  // node of the two (in one order or the other); false when it is not.
  bool AddSimple(mlir::AffineExpr term, const Term& facts,
                 absl::Status& status);
  mlir::AffineExpr base_;
  // The sum is base_ + pending_ (base_ alone when unset); base_ never ends
  // in a constant while pending_ is set, and pending_ is never 0.
  std::optional<int64_t> pending_;
  CheckedAffineBuilder* builder_;
  // BaseSymbolic() of the current base_, when known: -1 unknown, 0, 1.
  int8_t base_symbolic_ = -1;
  // base_ is known to be a sum whose right operand is not a constant (so
  // it is not a constant and has no constant to take).
  bool base_plain_ = false;
  // What is known of base_ when it is a single simple term.
  Term base_term_;
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

/// CheckedReplaceDimsAndSymbols with one substitution applied to many
/// expressions: what it needs to know of the replacements is computed once.
/// Where an operation's operands have no constant and no known divisor
/// above 2^15 (so no fold of MLIR's can leave int64) and MLIR builds what
/// CheckedAffineBinaryOp builds, MLIR's operation is taken as it is, with
/// no check of its own; the other operations go through
/// CheckedAffineBinaryOp. The same results and errors as
/// CheckedReplaceDimsAndSymbols. Holds references to `dims` and `symbols`.
class CheckedSubstitution {
 public:
  CheckedSubstitution(llvm::ArrayRef<mlir::AffineExpr> dims,
                      llvm::ArrayRef<mlir::AffineExpr> symbols);
  absl::StatusOr<mlir::AffineExpr> Apply(mlir::AffineExpr expr) const;
  /// Every result of `map`; the new map has `num_dims` dims and
  /// `num_symbols` symbols. A binary node shared by several results (or
  /// met twice in one) is substituted once.
  absl::StatusOr<mlir::AffineMap> Apply(mlir::AffineMap map, unsigned num_dims,
                                        unsigned num_symbols) const;

  /// What the check of each operation reads of an operand, kept so that it
  /// asks MLIR nothing again (each AffineExpr accessor is a call into the
  /// MLIR library), packed in one word (the fields are in
  /// checked_affine_expr.cc). Whether one of the expression's constants, or
  /// the known divisor (MLIR's getLargestKnownDivisor) of one of its nodes,
  /// is above 2^15 in magnitude (`big`); and, meaningful only when it is
  /// not: its own known divisor, its value when it is a constant, its
  /// AffineExprKind, whether it is a binary node whose right operand is -1
  /// or a product of a floordiv by anything but a constant >= 1 (the
  /// operand shapes of MLIR's rewrites of a sum to a mod), and whether it
  /// is such a floordiv.
  struct Facts {
    uint64_t bits = 0;
  };

 private:
  llvm::ArrayRef<mlir::AffineExpr> dims_, symbols_;
  llvm::SmallVector<Facts, 8> dim_facts_, symbol_facts_;
};

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_CHECKED_AFFINE_EXPR_H_
