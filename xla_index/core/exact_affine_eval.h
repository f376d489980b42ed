#ifndef XLA_INDEX_CORE_EXACT_AFFINE_EVAL_H_
#define XLA_INDEX_CORE_EXACT_AFFINE_EVAL_H_

// Exact evaluation of affine expressions and indexing maps, for test oracles.
//
// The library evaluates with int64 (IndexingMap::Evaluate saturates); an
// oracle that did the same could not see a simplification that wraps. Here
// every value is the mathematical integer, computed in __int128: a product of
// two int64 values always fits, and a value beyond __int128 (long chains of
// large products) is reported as such instead of wrapping. The semantics are
// MLIR's affine expressions over the integers: `floordiv` / `ceildiv` round
// toward -inf / +inf for any nonzero divisor, `mod` is defined for positive
// divisors only (its result is in [0, divisor)); a division by zero or a
// modulo by a non-positive value has no value, and so has a variable beyond
// the map's dims or symbols.

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/core/box_points.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/interval.h"

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

/// Whether every constraint of `map` holds at (dims, symbols): kValue with
/// value 1 or 0, or the reason a constraint has no value. A constraint that
/// fails excludes the point whatever the others are, so the answer does not
/// depend on the constraints' order: no value is reported only when no
/// constraint fails.
inline Value ConstraintsHold(const IndexingMap& map,
                             absl::Span<const int64_t> dims,
                             absl::Span<const int64_t> symbols) {
  std::optional<Value> no_value;
  for (const IndexingConstraint& c : map.GetConstraints()) {
    Value v = Evaluate(c.expr, dims, symbols);
    if (v.kind != Value::kValue) {
      if (!no_value) no_value = v;
      continue;
    }
    if (v.value < c.interval.lower || v.value > c.interval.upper) {
      return {Value::kValue, 0};
    }
  }
  return no_value ? *no_value : Value{Value::kValue, 1};
}

/// A map at one point (dims, symbols): whether its constraints hold and, if
/// they do, its exact results; `kind` says why there is no answer.
struct PointValue {
  Value::Kind kind = Value::kValue;
  bool holds = false;
  std::vector<Int> results;
};

inline PointValue EvaluateAt(const IndexingMap& map,
                             absl::Span<const int64_t> dims,
                             absl::Span<const int64_t> symbols) {
  PointValue out;
  Value holds = ConstraintsHold(map, dims, symbols);
  if (holds.kind != Value::kValue) {
    out.kind = holds.kind;
    return out;
  }
  out.holds = holds.value == 1;
  if (!out.holds) return out;
  for (mlir::AffineExpr r : map.GetAffineMap().getResults()) {
    Value v = Evaluate(r, dims, symbols);
    if (v.kind != Value::kValue) {
      out.kind = v.kind;
      out.results.clear();
      return out;
    }
    out.results.push_back(v.value);
  }
  return out;
}

/// A map's relation { (d, f(d, s)) } as a set of (dims, exact results).
using Relation = std::set<std::pair<std::vector<int64_t>, std::vector<Int>>>;

/// The outcome of enumerating a map's relation.
struct Enumeration {
  enum Kind {
    kDone,       // `relation` is the whole relation
    kTooBig,     // the box of (dims, symbols) has more than max_points
    kUndefined,  // some point of the box has no value (see Value)
    kBeyondInt128,
  };
  Kind kind = kDone;
  Relation relation;
  // For kUndefined / kBeyondInt128: the point (dims then symbols).
  std::vector<int64_t> point;
};

/// The exact relation of `map` by brute force over the box of its dims and
/// symbols, when the box has at most `max_points` points. A KNOWN EMPTY map
/// has the empty relation.
inline Enumeration Enumerate(const IndexingMap& map, int64_t max_points) {
  Enumeration out;
  if (map.IsKnownEmpty()) return out;
  std::vector<Interval> box = map.GetDimBounds();
  for (Interval b : map.GetSymbolBounds()) box.push_back(b);
  const size_t num_dims = map.GetDimensionCount();
  const bool visited =
      ForEachBoxPoint(box, max_points, [&](const std::vector<int64_t>& point) {
        if (out.kind != Enumeration::kDone) return;
        absl::Span<const int64_t> dims(point.data(), num_dims);
        absl::Span<const int64_t> symbols(point.data() + num_dims,
                                          point.size() - num_dims);
        PointValue value = EvaluateAt(map, dims, symbols);
        if (value.kind != Value::kValue) {
          out.kind = value.kind == Value::kUndefined
                         ? Enumeration::kUndefined
                         : Enumeration::kBeyondInt128;
          out.point = point;
        } else if (value.holds) {
          out.relation.insert({std::vector<int64_t>(dims.begin(), dims.end()),
                               std::move(value.results)});
        }
      });
  if (!visited) out.kind = Enumeration::kTooBig;
  if (out.kind != Enumeration::kDone) out.relation.clear();
  return out;
}

/// Decimal text of an exact integer (for messages).
inline std::string ToString(Int v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 u = negative ? static_cast<unsigned __int128>(0) -
                                       static_cast<unsigned __int128>(v)
                                 : static_cast<unsigned __int128>(v);
  std::string digits;
  for (; u != 0; u /= 10) digits.insert(digits.begin(), '0' + (u % 10));
  return negative ? "-" + digits : digits;
}

/// "(d...) -> (r...)" for one element of a relation.
inline std::string ToString(const std::vector<int64_t>& dims,
                            const std::vector<Int>& results) {
  std::string s = "(";
  for (size_t i = 0; i < dims.size(); ++i) {
    s += (i ? ", " : "") + std::to_string(dims[i]);
  }
  s += ") -> (";
  for (size_t i = 0; i < results.size(); ++i) {
    s += (i ? ", " : "") + ToString(results[i]);
  }
  return s + ")";
}

/// The first pair in exactly one of `a` and `b`, as text ("" when equal):
/// "only in A: (..) -> (..)".
inline std::string FirstDifference(const Relation& a, const Relation& b) {
  for (const auto& p : a) {
    if (!b.count(p)) return "only in the first: " + ToString(p.first, p.second);
  }
  for (const auto& p : b) {
    if (!a.count(p)) {
      return "only in the second: " + ToString(p.first, p.second);
    }
  }
  return "";
}

}  // namespace exact
}  // namespace xla_index

#endif  // XLA_INDEX_CORE_EXACT_AFFINE_EVAL_H_
