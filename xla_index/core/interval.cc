#include "xla_index/core/interval.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace xla_index {

int64_t Interval::NumElements() const {
  if (IsEmpty()) return 0;
  return SaturatingAdd(SaturatingSub(upper, lower), 1);
}

Interval Interval::Union(Interval other) const {
  if (IsEmpty()) return other;
  if (other.IsEmpty()) return *this;
  return {std::min(lower, other.lower), std::max(upper, other.upper)};
}

std::string Interval::ToString() const {
  return absl::StrCat("[", lower, ", ", upper, "]");
}

std::ostream& operator<<(std::ostream& os, Interval interval) {
  return os << interval.ToString();
}

Interval operator-(Interval a, Interval b) {
  return {SaturatingSub(a.lower, b.upper), SaturatingSub(a.upper, b.lower)};
}

Interval operator-(Interval a) {
  return {SaturatingNeg(a.upper), SaturatingNeg(a.lower)};
}

// Hull of {f(x, y)} over the corners; exact for functions that are monotone
// in each argument on the box (products, and quotients when 0 is not in b).
template <typename F>
static Interval CornerHull(Interval a, Interval b, F f) {
  int64_t c0 = f(a.lower, b.lower), c1 = f(a.lower, b.upper),
          c2 = f(a.upper, b.lower), c3 = f(a.upper, b.upper);
  return {std::min({c0, c1, c2, c3}), std::max({c0, c1, c2, c3})};
}

Interval operator*(Interval a, Interval b) {
  if (a.IsEmpty() || b.IsEmpty()) return {0, -1};
  return CornerHull(a, b, SaturatingMul);
}

Interval FloorDiv(Interval a, Interval b) {
  if (a.IsEmpty() || b.IsEmpty()) return {0, -1};
  if (b.Contains(0)) return Interval::Unbounded();
  if (b.IsPoint() && b.lower > 0) return FloorDiv(a, b.lower);
  return CornerHull(a, b, [](int64_t x, int64_t y) { return FloorDiv(x, y); });
}

Interval CeilDiv(Interval a, Interval b) {
  if (a.IsEmpty() || b.IsEmpty()) return {0, -1};
  if (b.Contains(0)) return Interval::Unbounded();
  return CornerHull(a, b, [](int64_t x, int64_t y) { return CeilDiv(x, y); });
}

Interval Mod(Interval a, Interval b) {
  if (a.IsEmpty() || b.IsEmpty()) return {0, -1};
  if (b.lower < 1) return Interval::Unbounded();
  if (b.IsPoint()) return Mod(a, b.lower);
  // x mod y is in [0, y - 1]; for non-negative x also at most x.
  int64_t upper = b.upper - 1;
  if (a.lower >= 0) upper = std::min(upper, a.upper);
  return {0, upper};
}

std::optional<bool> IsLess(Interval a, Interval b) {
  if (a.upper < b.lower) return true;
  if (a.lower >= b.upper) return false;
  return std::nullopt;
}

std::optional<bool> IsLessEqual(Interval a, Interval b) {
  if (a.upper <= b.lower) return true;
  if (a.lower > b.upper) return false;
  return std::nullopt;
}

std::optional<bool> IsGreater(Interval a, Interval b) { return IsLess(b, a); }

std::optional<bool> IsGreaterEqual(Interval a, Interval b) {
  return IsLessEqual(b, a);
}

std::optional<bool> IsEqual(Interval a, Interval b) {
  if (a.IsPoint() && b.IsPoint() && a.lower == b.lower) return true;
  if (a.upper < b.lower || b.upper < a.lower) return false;
  return std::nullopt;
}

std::optional<bool> IsNotEqual(Interval a, Interval b) {
  std::optional<bool> equal = IsEqual(a, b);
  if (!equal.has_value()) return std::nullopt;
  return !*equal;
}

}  // namespace xla_index
