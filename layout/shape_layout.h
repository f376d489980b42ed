#ifndef XLA_INDEX_LAYOUT_SHAPE_LAYOUT_H_
#define XLA_INDEX_LAYOUT_SHAPE_LAYOUT_H_

// The bridge from hlo/'s Shape and Layout (kept as data) to the layout
// arithmetic: a validated TiledLayout and the sizes the array occupies.

#include <cstdint>

#include "absl/status/statusor.h"
#include "hlo/shape.h"
#include "layout/layout_sizes.h"
#include "layout/tiled_layout.h"

namespace xla_index {

/// XLA's default layout for a shape without one: dimensions from most major
/// to most minor in dimension order, minor_to_major = {rank-1, ..., 0}.
Layout DefaultLayout(int64_t rank);

/// `shape` with DefaultLayout when it has none (arrays only).
Shape WithDefaultLayout(Shape shape);

/// The TiledLayout of an array shape under its layout (DefaultLayout when
/// it has none; dynamic dimensions count at their bound). InvalidArgument for
/// non-array shapes and for invalid layouts (see TiledLayout::Create).
absl::StatusOr<TiledLayout> TiledLayoutOf(const Shape& shape);

/// Bits one element occupies: E(n) when the layout sets n > 0, otherwise
/// the element type's size in whole bytes (s4 and pred take 8 bits).
int64_t BitsPerElement(const Shape& shape);

/// Element count, padded element count (tiles and L(n)) and byte size
/// (E(n) packing) of an array shape.
absl::StatusOr<LayoutSizes> ShapeLayoutSizes(const Shape& shape);

}  // namespace xla_index

#endif  // XLA_INDEX_LAYOUT_SHAPE_LAYOUT_H_
