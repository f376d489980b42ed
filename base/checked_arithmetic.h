#ifndef XLA_INDEX_BASE_CHECKED_ARITHMETIC_H_
#define XLA_INDEX_BASE_CHECKED_ARITHMETIC_H_

// The one home of int64 arithmetic that must not wrap. Every layer (hlo/,
// layout/, sparse/, the simplifier, the analyses) computes with user-given
// sizes, strides and constants; it uses these instead of `+`, `-`, `*` where
// a result may not fit:
//   - Checked*: the exact result, or nullopt when it does not fit in int64
//     (the caller turns that into an error naming the input);
//   - Saturating*: clamped to INT64_MIN / INT64_MAX, which interval code
//     reads as -inf / +inf (an over-approximation stays sound);
//   - FloorDiv, CeilDiv, FloorMod: the rounding of MLIR's affine
//     `floordiv`, `ceildiv` and `mod` (C++ `/` and `%` round toward zero).
// Everything is inline: the simplifier calls these on every term.

#include <cstdint>
#include <limits>
#include <optional>

#include "absl/types/span.h"

namespace xla_index {

/// a + b, or nullopt when the sum does not fit in int64_t.
inline std::optional<int64_t> CheckedAdd(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_add_overflow(a, b, &result)) return std::nullopt;
  return result;
}
/// a - b, or nullopt when the difference does not fit in int64_t.
inline std::optional<int64_t> CheckedSub(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_sub_overflow(a, b, &result)) return std::nullopt;
  return result;
}
/// a * b, or nullopt when the product does not fit in int64_t.
inline std::optional<int64_t> CheckedMul(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_mul_overflow(a, b, &result)) return std::nullopt;
  return result;
}
/// -a, or nullopt for INT64_MIN.
inline std::optional<int64_t> CheckedNeg(int64_t a) {
  if (a == std::numeric_limits<int64_t>::min()) return std::nullopt;
  return -a;
}
/// The product of `values` (1 for none), or nullopt when it, or any partial
/// product, does not fit. A zero factor does not excuse an overflow before
/// it: callers that allow zero sizes check the nonzero ones first.
inline std::optional<int64_t> CheckedProduct(absl::Span<const int64_t> values) {
  int64_t product = 1;
  for (int64_t v : values) {
    if (__builtin_mul_overflow(product, v, &product)) return std::nullopt;
  }
  return product;
}

/// Saturating int64 arithmetic: a result that would overflow is clamped to
/// INT64_MIN / INT64_MAX.
inline int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_add_overflow(a, b, &result)) {
    return b > 0 ? std::numeric_limits<int64_t>::max()
                 : std::numeric_limits<int64_t>::min();
  }
  return result;
}
inline int64_t SaturatingSub(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_sub_overflow(a, b, &result)) {
    return b < 0 ? std::numeric_limits<int64_t>::max()
                 : std::numeric_limits<int64_t>::min();
  }
  return result;
}
inline int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_mul_overflow(a, b, &result)) {
    return (a < 0) != (b < 0) ? std::numeric_limits<int64_t>::min()
                              : std::numeric_limits<int64_t>::max();
  }
  return result;
}
inline int64_t SaturatingNeg(int64_t a) {
  return a == std::numeric_limits<int64_t>::min()
             ? std::numeric_limits<int64_t>::max()
             : -a;
}

/// floor(a / b) and ceil(a / b) in 128 bits, exact for b != 0 (constraint
/// bounds are divided there, where a quotient may leave int64).
inline __int128 FloorDiv128(__int128 a, __int128 b) {
  const __int128 q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
inline __int128 CeilDiv128(__int128 a, __int128 b) {
  const __int128 q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

/// floor(a / b) and ceil(a / b) for b != 0. INT64_MIN / -1 saturates to
/// INT64_MAX.
inline int64_t FloorDiv(int64_t a, int64_t b) {
  if (b == -1) return SaturatingNeg(a);
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
inline int64_t CeilDiv(int64_t a, int64_t b) {
  if (b == -1) return SaturatingNeg(a);
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) == (b < 0))) ++q;
  return q;
}
/// a - FloorDiv(a, b) * b for b != 0: the result has the sign of b (in
/// [0, b) for b > 0), as MLIR's affine `mod`.
inline int64_t FloorMod(int64_t a, int64_t b) {
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

/// ceil(a / b) for a >= 0 and b > 0, without the overflow of
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

#endif  // XLA_INDEX_BASE_CHECKED_ARITHMETIC_H_
