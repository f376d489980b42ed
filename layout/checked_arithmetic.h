#ifndef XLA_INDEX_LAYOUT_CHECKED_ARITHMETIC_H_
#define XLA_INDEX_LAYOUT_CHECKED_ARITHMETIC_H_

#include <cstdint>
#include <optional>

namespace xla_index {

/// Returns a + b, or nullopt when the sum does not fit in int64_t.
inline std::optional<int64_t> CheckedAdd(int64_t a, int64_t b) {
  int64_t sum;
  if (__builtin_add_overflow(a, b, &sum)) return std::nullopt;
  return sum;
}

/// Returns a * b, or nullopt when the product does not fit in int64_t.
inline std::optional<int64_t> CheckedMul(int64_t a, int64_t b) {
  int64_t product;
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

/// ceil(a / b) for a >= 0 and b > 0, computed without the overflow of
/// (a + b - 1) / b.
inline int64_t CeilOfRatio(int64_t a, int64_t b) {
  return a / b + (a % b != 0 ? 1 : 0);
}

/// The smallest multiple of `alignment` that is >= a (a >= 0,
/// alignment > 0), or nullopt when it does not fit in int64_t.
inline std::optional<int64_t> CheckedRoundUpTo(int64_t a, int64_t alignment) {
  return CheckedMul(CeilOfRatio(a, alignment), alignment);
}

}  // namespace xla_index

#endif  // XLA_INDEX_LAYOUT_CHECKED_ARITHMETIC_H_
