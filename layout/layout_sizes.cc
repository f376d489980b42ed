#include "layout/layout_sizes.h"

#include <cstdint>
#include <limits>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "layout/tiled_layout.h"

namespace xla_index {

absl::StatusOr<int64_t> ApplyTailPadding(int64_t tiled_elements,
                                         int64_t tail_padding_alignment) {
  if (tail_padding_alignment < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tail padding alignment L(", tail_padding_alignment, ") is negative"));
  }
  if (tail_padding_alignment <= 1) return tiled_elements;
  std::optional<int64_t> padded =
      CheckedRoundUpTo(tiled_elements, tail_padding_alignment);
  if (!padded) {
    return absl::InvalidArgumentError(
        absl::StrCat(tiled_elements, " elements with tail padding L(",
                     tail_padding_alignment, ") overflow int64"));
  }
  return *padded;
}

absl::StatusOr<int64_t> PackedByteSize(int64_t elements,
                                       int64_t bits_per_element) {
  if (bits_per_element < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("element size E(", bits_per_element, ") is negative"));
  }
  // The bit count may pass int64 where the byte count does not
  // (pred[2^62] is 2^65 bits, 2^62 bytes): count in __int128, where the
  // product of two int64 values always fits.
  const __int128 bits = static_cast<__int128>(elements) * bits_per_element;
  const __int128 bytes = bits / 8 + (bits % 8 != 0 ? 1 : 0);
  if (bytes > std::numeric_limits<int64_t>::max()) {
    return absl::InvalidArgumentError(
        absl::StrCat(elements, " elements of ", bits_per_element,
                     " bits overflow int64 when counted in bytes"));
  }
  return static_cast<int64_t>(bytes);
}

absl::StatusOr<LayoutSizes> ComputeLayoutSizes(const TiledLayout& layout,
                                               int64_t bits_per_element,
                                               int64_t tail_padding_alignment) {
  LayoutSizes sizes;
  sizes.elements = layout.element_count();
  XI_ASSIGN_OR_RETURN(
      int64_t padded,
      ApplyTailPadding(layout.tiled_element_count(), tail_padding_alignment));
  sizes.padded_elements = padded;
  XI_ASSIGN_OR_RETURN(int64_t bytes,
                      PackedByteSize(sizes.padded_elements, bits_per_element));
  sizes.bytes = bytes;
  return sizes;
}

}  // namespace xla_index
