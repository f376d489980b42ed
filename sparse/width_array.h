#ifndef XLA_INDEX_SPARSE_WIDTH_ARRAY_H_
#define XLA_INDEX_SPARSE_WIDTH_ARRAY_H_

// WidthArray: non-negative integers stored at the bit width an encoding asks
// for (posWidth / crdWidth: 8, 16, 32 or 64).

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace xla_index::sparse {

/// An array of non-negative integers stored at a fixed bit width (8, 16, 32
/// or 64; a width of 0 in an encoding means the native 64), as the
/// positions and coordinates arrays of a sparse tensor are.
class WidthArray {
 public:
  /// An empty array of 64-bit values.
  WidthArray() : data_(std::vector<uint64_t>()) {}

  /// Stores `values` at `width` bits (0 = 64). InvalidArgument naming `what`
  /// and the element index when a value does not fit (e.g. "positions of
  /// level 1: value 300 at index 4 does not fit in 8 bits (max 255)"), or when
  /// the width is not 0, 8, 16, 32 or 64.
  static absl::StatusOr<WidthArray> Create(absl::Span<const uint64_t> values,
                                           int64_t width,
                                           absl::string_view what);

  /// As above, taking ownership: 64-bit (and native) arrays are moved in
  /// without a copy.
  static absl::StatusOr<WidthArray> Take(std::vector<uint64_t>&& values,
                                         int64_t width, absl::string_view what);

  /// The width in bits (8, 16, 32 or 64).
  int64_t width() const;
  size_t size() const;
  bool empty() const { return size() == 0; }
  uint64_t operator[](size_t index) const;
  /// The values, widened to 64 bits.
  std::vector<uint64_t> ToVector() const;
  /// Bytes of storage: size() * width() / 8.
  int64_t ByteSize() const { return size() * width() / 8; }

 private:
  std::variant<std::vector<uint8_t>, std::vector<uint16_t>,
               std::vector<uint32_t>, std::vector<uint64_t>>
      data_;
};

}  // namespace xla_index::sparse

#endif  // XLA_INDEX_SPARSE_WIDTH_ARRAY_H_
