#ifndef XLA_INDEX_CORE_EXACT_AFFINE_EVAL_H_
#define XLA_INDEX_CORE_EXACT_AFFINE_EVAL_H_

// Exact evaluation of indexing maps, for test oracles.
//
// The library evaluates with int64 (IndexingMap::Evaluate saturates); an
// oracle that did the same could not see a simplification that wraps. Here
// every value is the mathematical integer (exact_expr_value.h: __int128,
// MLIR's semantics over the integers).

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/core/box_points.h"
#include "xla_index/core/exact_expr_value.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/interval.h"

namespace xla_index {
namespace exact {

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
