#ifndef XLA_INDEX_LAYOUT_LAYOUT_SIZES_H_
#define XLA_INDEX_LAYOUT_LAYOUT_SIZES_H_

// How much memory a shape really occupies under its layout (XLA's
// shapes-and-layout documentation): tiles pad each tiled dimension up to a
// multiple of the tile size, tail padding L(n) rounds the tiled element count
// up to a multiple of n, and E(n) packs elements of n bits, so sub-byte
// elements share bytes.
//
// Example: u32[12582912,1]{1,0:T(8,128)} holds 12582912 elements (48 MiB),
// but the minor dimension of size 1 pads to 128, so it occupies
// 12582912 * 128 elements = 6 GiB.

#include <cstdint>

#include "absl/status/statusor.h"
#include "layout/tiled_layout.h"

namespace xla_index {

/// The sizes of one array under its layout.
struct LayoutSizes {
  /// Product of the logical dimensions.
  int64_t elements = 0;
  /// Elements including tile padding and tail padding.
  int64_t padded_elements = 0;
  /// ceil(padded_elements * bits_per_element / 8).
  int64_t bytes = 0;
  /// XLA's ShapeUtil::ArraySize convention (see XlaArraySizeBytes in
  /// shape_layout.h): only the first tile pads, and a split dimension counts
  /// at its largest piece. Set by ShapeLayoutSizes; 0 from
  /// ComputeLayoutSizes, which does not see the split configs.
  int64_t xla_array_size_bytes = 0;
};

/// Rounds `tiled_elements` up to a multiple of `tail_padding_alignment`
/// (L(n); 0 or 1 mean no tail padding). InvalidArgument for a negative
/// alignment or on int64 overflow.
absl::StatusOr<int64_t> ApplyTailPadding(int64_t tiled_elements,
                                         int64_t tail_padding_alignment);

/// ceil(elements * bits_per_element / 8): elements narrower than a byte are
/// packed. InvalidArgument for bits_per_element < 0 or on int64 overflow.
absl::StatusOr<int64_t> PackedByteSize(int64_t elements,
                                       int64_t bits_per_element);

/// All sizes of `layout`'s array with elements of `bits_per_element` bits
/// and tail padding alignment `tail_padding_alignment` (in elements).
absl::StatusOr<LayoutSizes> ComputeLayoutSizes(const TiledLayout& layout,
                                               int64_t bits_per_element,
                                               int64_t tail_padding_alignment);

}  // namespace xla_index

#endif  // XLA_INDEX_LAYOUT_LAYOUT_SIZES_H_
