#include "layout/shape_layout.h"

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "hlo/primitive_type.h"
#include "hlo/shape.h"
#include "layout/layout_sizes.h"
#include "layout/tiled_layout.h"
#include "xla_index/core/status_macros.h"

namespace xla_index {

// hlo/ and layout/ both spell `*` as -1, the value of XLA's tiled-layout
// documentation.
static_assert(Tile::kCombined == kCombineDimension);

Layout DefaultLayout(int64_t rank) {
  Layout layout;
  for (int64_t dim = rank - 1; dim >= 0; --dim) {
    layout.minor_to_major.push_back(dim);
  }
  return layout;
}

Shape WithDefaultLayout(Shape shape) {
  if (shape.IsArray() && !shape.has_layout()) {
    shape.set_layout(DefaultLayout(shape.rank()));
  }
  return shape;
}

absl::StatusOr<TiledLayout> TiledLayoutOf(const Shape& shape) {
  if (!shape.IsArray()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a memory layout needs an array shape, not ", shape.ToString()));
  }
  const Layout layout =
      shape.has_layout() ? shape.layout() : DefaultLayout(shape.rank());
  std::vector<std::vector<int64_t>> tiles;
  tiles.reserve(layout.tiles.size());
  for (const Tile& tile : layout.tiles) tiles.push_back(tile.dimensions);
  return TiledLayout::Create(shape.dimensions(), layout.minor_to_major, tiles);
}

int64_t BitsPerElement(const Shape& shape) {
  if (shape.has_layout() && shape.layout().element_size_in_bits > 0) {
    return shape.layout().element_size_in_bits;
  }
  // Unpacked, a sub-byte element still takes a whole byte (XLA's
  // ByteSizeOfPrimitiveType); only E(n) packs.
  return 8 * ByteSize(shape.element_type());
}

absl::StatusOr<LayoutSizes> ShapeLayoutSizes(const Shape& shape) {
  XI_ASSIGN_OR_RETURN(TiledLayout tiled, TiledLayoutOf(shape));
  const int64_t tail_padding =
      shape.has_layout() ? shape.layout().tail_padding_alignment_in_elements
                         : 1;
  return ComputeLayoutSizes(tiled, BitsPerElement(shape), tail_padding);
}

}  // namespace xla_index
