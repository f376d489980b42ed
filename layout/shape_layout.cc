#include "layout/shape_layout.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "hlo/primitive_type.h"
#include "hlo/shape.h"
#include "layout/layout_sizes.h"
#include "layout/tiled_layout.h"

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

std::vector<int64_t> MinorToMajorOrDefault(const Shape& shape) {
  if (shape.has_layout() &&
      static_cast<int64_t>(shape.layout().minor_to_major.size()) ==
          shape.rank()) {
    return shape.layout().minor_to_major;
  }
  return DefaultLayout(shape.rank()).minor_to_major;
}

namespace {

// Split config number `number` against the layout of `shape`.
absl::Status ValidateSplitConfig(const Shape& shape, size_t number) {
  const SplitConfig& config = shape.layout().split_configs[number];
  const int64_t rank = shape.rank();
  const std::string name =
      absl::StrCat("split config ", number, " SC(", config.dimension, ":...)");
  if (config.dimension < 0 || config.dimension >= rank) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, " of ", shape.ToString(), " names dimension ", config.dimension,
        ", outside the layout's positions 0..", rank - 1));
  }
  const int64_t dim =
      shape.layout().minor_to_major[rank - 1 - config.dimension];
  const int64_t size = shape.dimensions(dim);
  int64_t previous = 0;
  for (int64_t split : config.split_indices) {
    if (split <= previous || split >= size) {
      return absl::InvalidArgumentError(absl::StrCat(
          name, " of ", shape.ToString(), ": split index ", split,
          " is out of range; the indices must increase strictly inside (0, ",
          size, "), the size of dimension ", dim));
    }
    previous = split;
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateDenseLayoutAttributes(const Shape& shape) {
  if (!shape.has_layout() || !shape.layout().dim_level_types.empty()) {
    return absl::OkStatus();
  }
  const Layout& layout = shape.layout();
  auto sparse_only = [&](absl::string_view attribute) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the layout of ", shape.ToString(), " has ", attribute,
        ", which only a sparse array (a layout with D(...)) may have"));
  };
  if (layout.index_primitive_type != PrimitiveType::kInvalid) {
    return sparse_only(
        absl::StrCat("an index primitive type #(",
                     PrimitiveTypeName(layout.index_primitive_type), ")"));
  }
  if (layout.pointer_primitive_type != PrimitiveType::kInvalid) {
    return sparse_only(
        absl::StrCat("a pointer primitive type *(",
                     PrimitiveTypeName(layout.pointer_primitive_type), ")"));
  }
  if (layout.physical_shape != nullptr) {
    return sparse_only("a physical shape P(...)");
  }
  for (size_t k = 0; k < layout.split_configs.size(); ++k) {
    XI_RETURN_IF_ERROR(ValidateSplitConfig(shape, k));
  }
  return absl::OkStatus();
}

int64_t MaxSplitSize(const Shape& shape, int64_t dim) {
  const int64_t size = shape.dimensions(dim);
  if (!shape.has_layout()) return size;
  const Layout& layout = shape.layout();
  const int64_t rank = shape.rank();
  for (const SplitConfig& config : layout.split_configs) {
    if (config.dimension < 0 || config.dimension >= rank ||
        layout.minor_to_major[rank - 1 - config.dimension] != dim) {
      continue;
    }
    int64_t largest = 0, previous = 0;
    for (int64_t split : config.split_indices) {
      largest = std::max(largest, split - previous);
      previous = split;
    }
    return std::max(largest, size - previous);
  }
  return size;
}

absl::StatusOr<int64_t> XlaArraySizeBytes(const Shape& shape) {
  const Layout layout =
      shape.has_layout() ? shape.layout() : DefaultLayout(shape.rank());
  const int64_t rank = shape.rank();
  const int64_t bits = BitsPerElement(shape);
  auto overflow = [&]() {
    return absl::InvalidArgumentError(absl::StrCat(
        "the ShapeUtil::ArraySize of ", shape.ToString(), " overflows int64"));
  };
  if (layout.tiles.empty()) {
    std::optional<int64_t> elements = CheckedProduct(shape.dimensions());
    if (!elements) return overflow();
    return PackedByteSize(*elements, bits);
  }
  const std::vector<int64_t>& tile = layout.tiles[0].dimensions;
  const int64_t tile_rank = tile.size();
  std::optional<int64_t> count = 1;
  for (int64_t i = 0; i < std::max(tile_rank, rank) && count; ++i) {
    int64_t size = i < rank ? MaxSplitSize(shape, layout.minor_to_major[i]) : 1;
    if (i < tile_rank && tile[tile_rank - 1 - i] > 0) {
      std::optional<int64_t> padded =
          CheckedRoundUpTo(size, tile[tile_rank - 1 - i]);
      if (!padded) return overflow();
      size = *padded;
    }
    count = CheckedMul(*count, size);
  }
  if (!count) return overflow();
  XI_ASSIGN_OR_RETURN(
      int64_t padded,
      ApplyTailPadding(*count, layout.tail_padding_alignment_in_elements));
  return PackedByteSize(padded, bits);
}

absl::StatusOr<TiledLayout> TiledLayoutOf(const Shape& shape) {
  if (!shape.IsArray()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a memory layout needs an array shape, not ", shape.ToString()));
  }
  XI_RETURN_IF_ERROR(ValidateDenseLayoutAttributes(shape));
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
  XI_ASSIGN_OR_RETURN(
      LayoutSizes sizes,
      ComputeLayoutSizes(tiled, BitsPerElement(shape), tail_padding));
  XI_ASSIGN_OR_RETURN(sizes.xla_array_size_bytes, XlaArraySizeBytes(shape));
  return sizes;
}

}  // namespace xla_index
