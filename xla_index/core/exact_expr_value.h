#ifndef XLA_INDEX_CORE_EXACT_EXPR_VALUE_H_
#define XLA_INDEX_CORE_EXACT_EXPR_VALUE_H_

// The exact value of an affine expression at a point, in __int128: a
// product of two int64 values always fits, and a value beyond __int128
// (long chains of large products) is reported as such instead of wrapping.
// The semantics are MLIR's affine expressions over the integers:
// `floordiv` / `ceildiv` round toward -inf / +inf for any nonzero divisor,
// `mod` is defined for positive divisors only (its result is in
// [0, divisor)); a division by zero or a modulo by a non-positive value has
// no value, and so has a variable beyond the point's dims or symbols.
//
// IndexingMap::ConstraintsSatisfied falls back to it when int64 overflows;
// exact_affine_eval.h builds the test oracles' map evaluation on it.

#include <cstdint>

#include "absl/types/span.h"
#include "mlir/IR/AffineExpr.h"

namespace xla_index {
namespace exact {

using Int = __int128;

/// The value of an expression at a point.
struct Value {
  enum Kind {
    kValue,      // `value` is the exact result
    kUndefined,  // a division by 0, a modulo by a non-positive value, or a
                 // variable the point does not have
    kTooBig,     // some intermediate value does not fit in __int128
  };
  Kind kind = kValue;
  Int value = 0;
};

inline Value Undefined() { return {Value::kUndefined, 0}; }
inline Value TooBig() { return {Value::kTooBig, 0}; }

/// The worse of two non-values (undefined wins: it is a property of the
/// expression, not of the arithmetic).
inline Value Worse(const Value& a, const Value& b) {
  if (a.kind == Value::kUndefined || b.kind == Value::kUndefined) {
    return Undefined();
  }
  return TooBig();
}

/// floor(a / b) for b != 0, or nullopt-like TooBig for INT128_MIN / -1.
inline Value FloorDiv(Int a, Int b) {
  if (b == 0) return Undefined();
  if (b == -1) {
    Int r;
    if (__builtin_sub_overflow(Int{0}, a, &r)) return TooBig();
    return {Value::kValue, r};
  }
  Int q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return {Value::kValue, q};
}

inline Value CeilDiv(Int a, Int b) {
  if (b == 0) return Undefined();
  if (b == -1) return FloorDiv(a, b);
  Int q = a / b;
  if (a % b != 0 && ((a < 0) == (b < 0))) ++q;
  return {Value::kValue, q};
}

/// The exact value of `expr` with dimension values `dims` and symbol values
/// `symbols`.
inline Value Evaluate(mlir::AffineExpr expr, absl::Span<const int64_t> dims,
                      absl::Span<const int64_t> symbols) {
  switch (expr.getKind()) {
    case mlir::AffineExprKind::Constant:
      return {Value::kValue,
              mlir::cast<mlir::AffineConstantExpr>(expr).getValue()};
    case mlir::AffineExprKind::DimId: {
      // A variable the map does not have (a malformed map) has no value.
      unsigned i = mlir::cast<mlir::AffineDimExpr>(expr).getPosition();
      if (i >= dims.size()) return Undefined();
      return {Value::kValue, dims[i]};
    }
    case mlir::AffineExprKind::SymbolId: {
      unsigned i = mlir::cast<mlir::AffineSymbolExpr>(expr).getPosition();
      if (i >= symbols.size()) return Undefined();
      return {Value::kValue, symbols[i]};
    }
    default:
      break;
  }
  auto bin = mlir::cast<mlir::AffineBinaryOpExpr>(expr);
  const Value l = Evaluate(bin.getLHS(), dims, symbols);
  const Value r = Evaluate(bin.getRHS(), dims, symbols);
  if (l.kind != Value::kValue || r.kind != Value::kValue) return Worse(l, r);
  Int out;
  switch (expr.getKind()) {
    case mlir::AffineExprKind::Add:
      if (__builtin_add_overflow(l.value, r.value, &out)) return TooBig();
      return {Value::kValue, out};
    case mlir::AffineExprKind::Mul:
      if (__builtin_mul_overflow(l.value, r.value, &out)) return TooBig();
      return {Value::kValue, out};
    case mlir::AffineExprKind::FloorDiv:
      return FloorDiv(l.value, r.value);
    case mlir::AffineExprKind::CeilDiv:
      return CeilDiv(l.value, r.value);
    case mlir::AffineExprKind::Mod: {
      if (r.value <= 0) return Undefined();
      Int m = l.value % r.value;
      if (m < 0) m += r.value;
      return {Value::kValue, m};
    }
    default:
      return Undefined();
  }
}

}  // namespace exact
}  // namespace xla_index

#endif  // XLA_INDEX_CORE_EXACT_EXPR_VALUE_H_
