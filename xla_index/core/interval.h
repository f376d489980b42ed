#ifndef XLA_INDEX_CORE_INTERVAL_H_
#define XLA_INDEX_CORE_INTERVAL_H_

// Interval: a closed integer interval with over-approximating, saturating
// interval arithmetic (the ranges of dims, symbols and expressions).

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <utility>

#include "base/checked_arithmetic.h"

namespace xla_index {

// The interval operations the simplifier runs on every term are defined
// inline here: out-of-line calls were a fifth of its time. The scalar
// arithmetic they use is in checked_arithmetic.h.

/// The closed integer interval [lower, upper]. It is empty (infeasible) when
/// lower > upper. All arithmetic is interval arithmetic that over-approximates
/// the exact set ({x op y | x in a, y in b} is contained in the result) and
/// saturates at the int64 limits instead of overflowing.
struct Interval {
  int64_t lower = 0;
  int64_t upper = -1;

  static constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  static constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

  /// [x, x].
  static Interval Point(int64_t x) { return {x, x}; }
  /// [INT64_MIN, INT64_MAX]: nothing is known.
  static Interval Unbounded() { return {kMin, kMax}; }

  /// lower == upper.
  bool IsPoint() const { return lower == upper; }
  /// lower <= upper: the interval has at least one element.
  bool IsFeasible() const { return lower <= upper; }
  /// lower > upper.
  bool IsEmpty() const { return lower > upper; }
  /// x in [lower, upper].
  bool Contains(int64_t x) const { return lower <= x && x <= upper; }
  /// other is a subset of this (an empty `other` is contained in anything).
  bool Contains(Interval other) const {
    return other.IsEmpty() || (lower <= other.lower && other.upper <= upper);
  }
  /// upper - lower + 1, saturating; 0 when empty.
  int64_t NumElements() const;

  /// [max(lower), min(upper)]: the set intersection.
  Interval Intersect(Interval other) const {
    return {lower > other.lower ? lower : other.lower,
            upper < other.upper ? upper : other.upper};
  }
  /// [min(lower), max(upper)]: the smallest interval containing both (the
  /// hull). An empty operand is ignored.
  Interval Union(Interval other) const;

  /// "[lower, upper]".
  std::string ToString() const;
};

inline bool operator==(Interval a, Interval b) {
  return a.lower == b.lower && a.upper == b.upper;
}
inline bool operator!=(Interval a, Interval b) { return !(a == b); }
std::ostream& operator<<(std::ostream& os, Interval interval);

template <typename H>
H AbslHashValue(H h, Interval interval) {
  return H::combine(std::move(h), interval.lower, interval.upper);
}

/// [a.lower + b.lower, a.upper + b.upper].
inline Interval operator+(Interval a, Interval b) {
  return {SaturatingAdd(a.lower, b.lower), SaturatingAdd(a.upper, b.upper)};
}
/// [a.lower - b.upper, a.upper - b.lower].
Interval operator-(Interval a, Interval b);
/// [-upper, -lower].
Interval operator-(Interval a);
/// Hull of the four corner products.
Interval operator*(Interval a, Interval b);
/// a * [k, k] (monotone in x: two products instead of four corners).
inline Interval operator*(Interval a, int64_t k) {
  if (a.IsEmpty()) return {0, -1};
  if (k >= 0) return {SaturatingMul(a.lower, k), SaturatingMul(a.upper, k)};
  return {SaturatingMul(a.upper, k), SaturatingMul(a.lower, k)};
}

Interval FloorDiv(Interval a, Interval b);
Interval Mod(Interval a, Interval b);

/// a + b and a * [k, k] when every bound fits in int64, else nullopt. A
/// saturated bound is no bound of the exact values (which left int64), so
/// code that reasons from bounds exactly (the simplifier) uses these.
inline std::optional<Interval> CheckedAdd(Interval a, Interval b) {
  Interval sum;
  if (__builtin_add_overflow(a.lower, b.lower, &sum.lower) ||
      __builtin_add_overflow(a.upper, b.upper, &sum.upper)) {
    return std::nullopt;
  }
  return sum;
}
inline std::optional<Interval> CheckedMul(Interval a, int64_t k) {
  if (a.IsEmpty()) return Interval{0, -1};
  Interval product;
  if (__builtin_mul_overflow(a.lower, k, &product.lower) ||
      __builtin_mul_overflow(a.upper, k, &product.upper)) {
    return std::nullopt;
  }
  if (k < 0) std::swap(product.lower, product.upper);
  return product;
}

/// The constraint lo <= y <= hi, whose exact bounds may leave int64, as an
/// interval for a y whose values all lie in int64: a bound beyond int64 on
/// its own side (lo below INT64_MIN, hi above INT64_MAX) excludes none of
/// those values and becomes the limit; a bound beyond the other side
/// excludes all of them (the interval is empty).
inline Interval ConstraintBoundsInInt64(__int128 lo, __int128 hi) {
  if (lo > Interval::kMax || hi < Interval::kMin) return {0, -1};
  return {lo < Interval::kMin ? Interval::kMin : static_cast<int64_t>(lo),
          hi > Interval::kMax ? Interval::kMax : static_cast<int64_t>(hi)};
}

/// {floor(x / k)} and {x mod k} for a constant k: what simplifier atoms
/// need, inline for k >= 1 (a divisor k < 1 goes to the interval versions
/// below: unbounded for 0, the corner hull for a negative floordiv).
/// floor(x / k) is monotone in x; x mod k is [a.lower mod k, a.upper mod k]
/// when a fits in one period of k, else [0, min(k - 1, a.upper)] (at most x
/// for non-negative x).
inline Interval FloorDiv(Interval a, int64_t k) {
  if (k < 1) return FloorDiv(a, Interval::Point(k));
  if (a.IsEmpty()) return {0, -1};
  return {FloorDiv(a.lower, k), FloorDiv(a.upper, k)};
}
inline Interval Mod(Interval a, int64_t k) {
  if (k < 1) return Mod(a, Interval::Point(k));
  if (a.IsEmpty()) return {0, -1};
  if (FloorDiv(a.lower, k) == FloorDiv(a.upper, k)) {
    return {FloorMod(a.lower, k), FloorMod(a.upper, k)};
  }
  return {0, a.lower >= 0 ? std::min(k - 1, a.upper) : k - 1};
}

/// {floor(x / y)}: hull of the corner quotients when b does not contain 0;
/// unbounded otherwise (the exact set is then undefined at y = 0).
Interval FloorDiv(Interval a, Interval b);
/// {ceil(x / y)}, as FloorDiv.
Interval CeilDiv(Interval a, Interval b);
/// {x mod y} for y >= 1: exact [a.lower mod k, a.upper mod k] when b is a
/// point k and a fits in one period of k, else [0, b.upper - 1]. Unbounded
/// when b may be < 1 (MLIR only defines a positive divisor).
Interval Mod(Interval a, Interval b);

/// Three-valued comparisons: true or false when the answer is the same for
/// every x in a and y in b, std::nullopt when it depends on the values.
std::optional<bool> IsLess(Interval a, Interval b);
std::optional<bool> IsLessEqual(Interval a, Interval b);
std::optional<bool> IsGreater(Interval a, Interval b);
std::optional<bool> IsGreaterEqual(Interval a, Interval b);
std::optional<bool> IsEqual(Interval a, Interval b);
std::optional<bool> IsNotEqual(Interval a, Interval b);

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_INTERVAL_H_
