#ifndef XLA_INDEX_HLO_LITERAL_H_
#define XLA_INDEX_HLO_LITERAL_H_

// Small dense arrays of values: the payload of `constant(...)` and the
// values the reference evaluator computes. Elements are kept in row-major
// order of the logical shape (the last dimension varies fastest), whatever
// the layout; a layout only says how bytes sit in memory.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlo/shape.h"
#include "hlo/text_cursor.h"

namespace xla_index {

class Literal {
 public:
  Literal() = default;
  /// All elements zero (false); tuples get one zero literal per element.
  explicit Literal(const Shape& shape);
  /// A literal of `shape` whose values are unknown (XLA's elided `{...}`);
  /// allocates nothing, so huge constants from real dumps are cheap.
  static Literal MakeElided(const Shape& shape);

  const Shape& shape() const { return shape_; }
  int64_t element_count() const { return shape_.ElementCount(); }
  /// False for a constant XLA printed elided as `{...}`.
  bool has_values() const { return has_values_; }
  void set_has_values(bool has) { has_values_ = has; }

  /// Integer view: pred is 0/1, integral types exact, floating types
  /// truncated toward zero.
  int64_t GetInt(int64_t linear_index) const;
  /// Real view of any element (integers converted).
  double GetDouble(int64_t linear_index) const;
  /// Imaginary part (0 for non-complex).
  double GetImag(int64_t linear_index) const;
  /// Stores `value`, wrapped to the element type's width for integers and
  /// 0/1 for pred.
  void SetInt(int64_t linear_index, int64_t value);
  /// Stores `value`; integer element types take it truncated toward zero.
  void SetDouble(int64_t linear_index, double value);
  void SetComplex(int64_t linear_index, double real, double imag);

  /// Copies element `from_index` of `from` (same element type) into
  /// element `to_index`.
  void CopyElement(const Literal& from, int64_t from_index, int64_t to_index);

  std::vector<Literal>& tuple_elements() { return tuple_; }
  const std::vector<Literal>& tuple_elements() const { return tuple_; }

  /// Values as XLA writes them inside constant(...): `-inf`, `{1, 2}`,
  /// `{ {1, 2}, {3, 4} }`, `(1, {2})` for a tuple, `{...}` when elided.
  std::string ToString() const;

  /// Same shape (ignoring layout) and identical values (NaN equals NaN).
  bool operator==(const Literal& other) const;
  bool operator!=(const Literal& other) const { return !(*this == other); }

 private:
  bool StoresIntegers() const;

  Shape shape_;
  bool has_values_ = true;
  std::vector<int64_t> ints_;
  std::vector<double> reals_;
  std::vector<double> imags_;
  std::vector<Literal> tuple_;
};

/// Rounds `value` to the nearest number of a binary floating-point format
/// with `exponent_bits` and `mantissa_bits` (explicit) bits, ties to even,
/// with subnormals; magnitudes beyond the largest finite value become
/// infinity. NaN and infinities are kept. ReducePrecision's definition
/// (XLA's operation-semantics documentation), and how bf16 = (8, 7) and f16 =
/// (5, 10) values are stored.
double RoundToFloatFormat(double value, int64_t exponent_bits,
                          int64_t mantissa_bits);

/// Row-major linear index of `index` in `dims`.
int64_t LinearIndex(absl::Span<const int64_t> dims,
                    absl::Span<const int64_t> index);
/// Inverse of LinearIndex.
std::vector<int64_t> MultiIndex(absl::Span<const int64_t> dims,
                                int64_t linear_index);

/// Reads the values of a literal of `shape` at the cursor (the text inside
/// `constant(...)`): a scalar (`1.5`, `-inf`, `nan`, `true`, `(1, 2)` for
/// complex), nested braces whose innermost lists hold the elements in
/// row-major order, `{...}` for an elided constant, or `(a, b)` for a tuple.
/// The number of elements and the nesting must match the shape.
///
/// A scalar written for a whole array (`f32[4] constant(1)`, as XLA's
/// parser accepts) is a few bytes of text for any number of elements, so
/// its values are kept only while `*broadcast_elements_left` covers them
/// (the count is then taken from it); past it the literal is elided
/// (has_values() is false). Pass one counter for all the literals of a text
/// to bound them together (ParseHloModule does, starting at
/// kMaxBroadcastElements); null gives this literal a budget of its own.
absl::StatusOr<Literal> ParseLiteralAtCursor(
    TextCursor& cursor, const Shape& shape,
    int64_t* broadcast_elements_left = nullptr);

/// The most array elements that the broadcast scalars of one text
/// (ParseLiteralAtCursor) materialize: 2^20, 8 MiB of values (16 MiB
/// complex).
inline constexpr int64_t kMaxBroadcastElements = int64_t{1} << 20;

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_LITERAL_H_
