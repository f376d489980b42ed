#ifndef XLA_INDEX_LAYOUT_REFERENCE_TILING_H_
#define XLA_INDEX_LAYOUT_REFERENCE_TILING_H_

// Test oracle: lays out an actual array by the operations XLA's tiled-layout
// documentation uses to define tiling ("Tiling as pad-reshape-transpose"),
// moving element ids around in buffers, with no tiled-index formula.
// Independent of TiledLayout's index arithmetic, which tests check against it.

#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace xla_index {

/// The memory image of an array of shape `dims` laid out by
/// `minor_to_major` and `tiles` (kCombineDimension for `*`): entry p is the
/// row-major logical linear index of the element stored at memory position
/// p, or -1 for a padding element. Inputs must be valid (see
/// TiledLayout::Create) and small: the image is materialized.
std::vector<int64_t> ReferenceMemoryImage(
    absl::Span<const int64_t> dims, absl::Span<const int64_t> minor_to_major,
    absl::Span<const std::vector<int64_t>> tiles);

}  // namespace xla_index

#endif  // XLA_INDEX_LAYOUT_REFERENCE_TILING_H_
