#ifndef XLA_INDEX_CORE_BOX_POINTS_H_
#define XLA_INDEX_CORE_BOX_POINTS_H_

// The one enumeration of the integer points of a box (a product of closed
// intervals), used wherever a map is checked or counted by brute force:
// utilization, the reference tiling, the simplifier's soundness tests.

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "xla_index/core/interval.h"

namespace xla_index {

/// The number of integer points of `box`: 0 when any interval is empty (an
/// empty box, even if other intervals are unbounded), nullopt when the count
/// does not fit in int64_t.
inline std::optional<int64_t> CountBoxPoints(absl::Span<const Interval> box) {
  for (Interval b : box) {
    if (b.IsEmpty()) return 0;
  }
  int64_t count = 1;
  for (Interval b : box) {
    // NumElements saturates at INT64_MAX for [INT64_MIN, INT64_MAX].
    int64_t n = b.NumElements();
    if (n == Interval::kMax || __builtin_mul_overflow(count, n, &count)) {
      return std::nullopt;
    }
  }
  return count;
}

/// Steps `point`, a point of the non-empty `box`, to the next one in
/// row-major order (the last coordinate varies fastest, carrying into the
/// one before). Returns false, with `point` back at the box's lower corner,
/// after the last point.
inline bool NextBoxPoint(absl::Span<const Interval> box,
                         std::vector<int64_t>& point) {
  for (int64_t i = static_cast<int64_t>(box.size()) - 1; i >= 0; --i) {
    if (point[i] < box[i].upper) {
      ++point[i];
      return true;
    }
    point[i] = box[i].lower;
  }
  return false;
}

/// Calls `visit(point)` (a `const std::vector<int64_t>&`, returning whether
/// to go on) for every point of `box` in row-major order (the last
/// coordinate varies fastest), until it returns false. Visits nothing and
/// returns false when the box has more than `limit` points; returns false
/// when `visit` stopped the walk, true otherwise (also for an empty box).
template <typename Visit>
bool ForEachBoxPointWhile(absl::Span<const Interval> box, int64_t limit,
                          Visit&& visit) {
  std::optional<int64_t> count = CountBoxPoints(box);
  if (!count.has_value() || *count > limit) return false;
  if (*count == 0) return true;
  std::vector<int64_t> point(box.size());
  for (size_t i = 0; i < box.size(); ++i) point[i] = box[i].lower;
  do {
    if (!visit(static_cast<const std::vector<int64_t>&>(point))) return false;
  } while (NextBoxPoint(box, point));
  return true;
}

/// ForEachBoxPointWhile with a `visit` that never stops the walk: false only
/// when the box has more than `limit` points.
template <typename Visit>
bool ForEachBoxPoint(absl::Span<const Interval> box, int64_t limit,
                     Visit&& visit) {
  return ForEachBoxPointWhile(box, limit,
                              [&visit](const std::vector<int64_t>& point) {
                                visit(point);
                                return true;
                              });
}

/// The box [0, sizes[0] - 1] x ... x [0, sizes[n-1] - 1] of a shape.
inline std::vector<Interval> ShapeBox(absl::Span<const int64_t> sizes) {
  std::vector<Interval> box;
  box.reserve(sizes.size());
  for (int64_t size : sizes) box.push_back({0, size - 1});
  return box;
}

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_BOX_POINTS_H_
