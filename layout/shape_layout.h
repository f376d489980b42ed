#ifndef XLA_INDEX_LAYOUT_SHAPE_LAYOUT_H_
#define XLA_INDEX_LAYOUT_SHAPE_LAYOUT_H_

// The bridge from hlo/'s Shape and Layout (kept as data) to the layout
// arithmetic: a validated TiledLayout and the sizes the array occupies.

#include <cstdint>
#include <vector>

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

/// The shape's minor_to_major order, or DefaultLayout's when it has no
/// layout or one whose order does not cover its rank.
std::vector<int64_t> MinorToMajorOrDefault(const Shape& shape);

/// The checks of XLA's LayoutUtil::ValidateLayoutForShape that TiledLayout
/// does not make, for a dense array (a layout without D(...)):
/// InvalidArgument naming the attribute for an index primitive type #(..),
/// a pointer primitive type *(..) or a physical shape P(..) (all three
/// describe sparse arrays), for a split config SC(d:..) whose dimension d is
/// not a position 0..rank-1 of the major-to-minor order, and for split
/// indices that are not strictly increasing inside (0, size of that
/// dimension).
absl::Status ValidateDenseLayoutAttributes(const Shape& shape);

/// The TiledLayout of an array shape under its layout (DefaultLayout when
/// it has none; dynamic dimensions count at their bound). InvalidArgument for
/// non-array shapes and for invalid layouts (see TiledLayout::Create and
/// ValidateDenseLayoutAttributes).
absl::StatusOr<TiledLayout> TiledLayoutOf(const Shape& shape);

/// The largest piece of logical dimension `dim` under the layout's split
/// config for it (XLA's LayoutUtil::MaxSplitSize): max over the pieces
/// [s_{k-1}, s_k) with s_0 = 0 and a last piece [s_last, size); the size
/// itself when no split config names the dimension. A split config's
/// dimension is a position in the major-to-minor order.
int64_t MaxSplitSize(const Shape& shape, int64_t dim);

/// XLA's ShapeUtil::ArraySize of an array shape with a (validated) layout:
/// without tiles, ceil(elements * bits / 8) with no tail padding; with
/// tiles, only the first tile t = (t_1, .., t_n) pads:
///   N = prod_{i < n} RoundUp(m_i, t_{n-i}) * prod_{i >= n} m_i
/// where m_i is MaxSplitSize of the i-th most minor dimension (1 past the
/// rank), then N = RoundUp(N, L) and bytes = ceil(N * bits / 8). A `*` tile
/// entry pads nothing (XLA's RoundUpTo(m, -1) is m). Differs from
/// LayoutSizes::bytes, which applies every tile and ignores splits.
/// InvalidArgument on int64 overflow.
absl::StatusOr<int64_t> XlaArraySizeBytes(const Shape& shape);

/// Bits one element occupies: E(n) when the layout sets n > 0, otherwise
/// the element type's size in whole bytes (s4 and pred take 8 bits).
int64_t BitsPerElement(const Shape& shape);

/// Element count, padded element count (tiles and L(n)) and byte size
/// (E(n) packing) of an array shape.
absl::StatusOr<LayoutSizes> ShapeLayoutSizes(const Shape& shape);

}  // namespace xla_index

#endif  // XLA_INDEX_LAYOUT_SHAPE_LAYOUT_H_
