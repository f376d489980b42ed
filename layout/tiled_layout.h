#ifndef XLA_INDEX_LAYOUT_TILED_LAYOUT_H_
#define XLA_INDEX_LAYOUT_TILED_LAYOUT_H_

// The tiled linear index of XLA's tiled layouts, exactly as XLA's tiled-layout
// documentation
// ("Tiled layout") defines it, on plain dimension lists.
//
// A layout {minor_to_major : T(t...)(u...)...} places a logical element in
// memory in three stages, all acting on the *physical* shape, which lists the
// dimensions most major first:
//
//  1. Transpose: the physical shape is dims[m2m[r-1]], ..., dims[m2m[0]].
//  2. For each tile, in order:
//     a. Combine: a `*` at a tile entry merges that physical dimension into
//        the next more minor one, (.., a, b, ..) -> (.., a*b, ..), with index
//        (.., i, j, ..) -> (.., i*b + j, ..); the `*` leaves the tile.
//     a'. Expand: a tile with more entries than the shape has dimensions
//        first prepends dimensions of size 1, index 0, up to the tile's rank.
//     b. Tile: a tile (t_1, ..., t_n) covers the n most minor dimensions
//        (d_1, ..., d_n) of the current shape (more major ones stay as they
//        are). Pad each d_k to ceil(d_k/t_k)*t_k, reshape it into
//        (ceil(d_k/t_k), t_k), and move the t_k minor keeping their order:
//          (.., d_1, .., d_n) -> (.., ceil(d_1/t_1), .., ceil(d_n/t_n),
//                                     t_1, .., t_n)
//          (.., e_1, .., e_n) -> (.., e_1 floordiv t_1, .., e_n floordiv t_n,
//                                     e_1 mod t_1, .., e_n mod t_n)
//        A later tile sees this longer shape, so it may reorder elements
//        inside the previous tile, as (8,128)(2,1) does, or reach across
//        into the previous tile's tile-count dimensions.
//  3. The linear index is the row-major position in the final shape.
//
// Figure 1 of XLA's tiled-layout documentation: F32[3,5]{1,0:T(2,2)}: element
// (2,3) -> (1,1,0,1) in (2,3,2,2) -> linear index ((1*3 + 1)*2 + 0)*2 + 1 = 17.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace xla_index {

/// A tile entry that merges its dimension into the next more minor one,
/// written `*`. XLA's tiled-layout documentation: "represented by a value of -1
/// ... which is not valid in a tile as a dimension size".
inline constexpr int64_t kCombineDimension = -1;

/// Each tile adds dimensions to the physical shape; beyond this rank a
/// layout is rejected (it bounds the work and memory a layout string can
/// ask for; real layouts stay far below).
inline constexpr int64_t kMaxPhysicalRank = 64;

/// At most this many tiles in a layout. Each tile nests floordiv/mod of the
/// previous level's linear index in the layout's indexing maps, so printed
/// maps can double in size per tile (a fuzzer's 30-tile layout printed 93
/// MB); XLA's layouts use one to three tiles.
inline constexpr int64_t kMaxTiles = 8;

/// Errors of TiledLayout::Create about one tile carry the tile's number
/// (0-based, decimal text) as a payload under this URL, so callers that
/// have the layout text can point at the tile.
inline constexpr char kTileNumberPayload[] = "xla_index.layout.tile_number";

/// The tile number an error from TiledLayout::Create is about, if any.
std::optional<int64_t> ErrorTileNumber(const absl::Status& status);

/// One step of the tiling, acting on the physical shape (most major first).
struct TilingStep {
  enum class Kind {
    /// Physical dimension `position` merges into `position + 1`.
    kCombine,
    /// Dimensions of size 1 are prepended (position 0) until the physical
    /// shape has the rank of the next tile: a tile of higher rank than the
    /// shape tiles (1, .., 1, d_1, .., d_r), as XLA pads the shape with
    /// leading dimensions of size 1 (ShapeUtil::ArraySize reads the missing
    /// dimensions as size 1). The index gains leading zeros.
    kExpand,
    /// The dimensions from `position` to the end are tiled by `tile`.
    kTile,
  };
  Kind kind;
  int64_t position;
  /// kTile only: the tile sizes, without `*` entries, most major first.
  std::vector<int64_t> tile;
  /// The physical shape this step applies to.
  std::vector<int64_t> shape_before;
  /// The physical shape this step produces.
  std::vector<int64_t> shape_after;
};

/// Formats tiles the way XLA prints them: "(8,128)(2,1)", `*` for combine.
std::string TilesToString(absl::Span<const std::vector<int64_t>> tiles);

/// A validated tiled layout of one shape, with the index arithmetic of the
/// layout precomputed as a list of TilingSteps.
class TiledLayout {
 public:
  /// Validates and prepares the layout. A tile of higher rank than the
  /// shape it tiles first pads the shape with leading dimensions of size 1
  /// (a kExpand step), so f32[8]{0:T(2,2)} has physical shape (1,4,2,2).
  /// Errors (InvalidArgument) for:
  /// negative dimensions, minor_to_major not a permutation of the
  /// dimensions, an empty tile, a tile size <= 0 (other than `*`), `*` as a
  /// tile's most minor
  /// entry, more than kMaxTiles tiles, physical sizes that overflow int64,
  /// and physical shapes of rank above kMaxPhysicalRank.
  static absl::StatusOr<TiledLayout> Create(
      absl::Span<const int64_t> dims, absl::Span<const int64_t> minor_to_major,
      absl::Span<const std::vector<int64_t>> tiles);

  int64_t rank() const { return dims_.size(); }
  /// Logical dimension sizes, in dimension-number order.
  absl::Span<const int64_t> dimensions() const { return dims_; }
  absl::Span<const int64_t> minor_to_major() const { return minor_to_major_; }
  /// The physical shape before any tile: the dimensions most major first.
  absl::Span<const int64_t> major_to_minor_dimensions() const {
    return major_to_minor_dims_;
  }
  /// The final physical shape after all tiles, most major first; its
  /// row-major order is memory order.
  absl::Span<const int64_t> physical_dimensions() const {
    return physical_dims_;
  }
  const std::vector<TilingStep>& steps() const { return steps_; }

  /// Product of the logical dimensions.
  int64_t element_count() const { return element_count_; }
  /// Product of the physical dimensions: elements plus tile padding (no
  /// tail padding).
  int64_t tiled_element_count() const { return tiled_element_count_; }

  /// The index of a logical element in the physical shape.
  /// Precondition: index is in bounds (see CheckedLinearIndex).
  std::vector<int64_t> PhysicalIndex(absl::Span<const int64_t> index) const;

  /// The index after only the first `num_steps` steps (PhysicalIndex is
  /// num_steps = steps().size()). `index` may also lie in the first tile's
  /// padding, which the steps move like elements.
  std::vector<int64_t> PartialPhysicalIndex(absl::Span<const int64_t> index,
                                            size_t num_steps) const;

  /// The position in memory (in elements) of the logical element `index`.
  /// Precondition: index is in bounds (see CheckedLinearIndex).
  int64_t LinearIndex(absl::Span<const int64_t> index) const;

  /// LinearIndex with the index validated: InvalidArgument for a wrong
  /// number of entries or an entry out of its dimension's bounds.
  absl::StatusOr<int64_t> CheckedLinearIndex(
      absl::Span<const int64_t> index) const;

  /// The logical element stored at memory position `linear`, or nullopt when
  /// that position is padding (or outside [0, tiled_element_count)).
  std::optional<std::vector<int64_t>> LogicalIndex(int64_t linear) const;

 private:
  TiledLayout() = default;

  std::vector<int64_t> dims_;
  std::vector<int64_t> minor_to_major_;
  std::vector<int64_t> major_to_minor_dims_;
  std::vector<int64_t> physical_dims_;
  std::vector<TilingStep> steps_;
  int64_t element_count_ = 0;
  int64_t tiled_element_count_ = 0;
};

}  // namespace xla_index

#endif  // XLA_INDEX_LAYOUT_TILED_LAYOUT_H_
