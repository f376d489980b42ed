#include "layout/tiled_layout.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "layout/index_util.h"

namespace xla_index {
namespace {

std::string TileToString(absl::Span<const int64_t> tile) {
  return absl::StrCat("(",
                      absl::StrJoin(tile, ",",
                                    [](std::string* out, int64_t size) {
                                      if (size == kCombineDimension) {
                                        out->append("*");
                                      } else {
                                        absl::StrAppend(out, size);
                                      }
                                    }),
                      ")");
}

std::string ShapeToString(absl::Span<const int64_t> shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ","), "]");
}

absl::Status TileError(int64_t tile_number, std::string message) {
  absl::Status status = absl::InvalidArgumentError(std::move(message));
  status.SetPayload(kTileNumberPayload, absl::Cord(absl::StrCat(tile_number)));
  return status;
}

// Checks the entries of tile number `tile_number`. Its rank may exceed the
// shape's: Create pads the shape with leading size-1 dimensions first.
absl::Status ValidateTile(int64_t tile_number, absl::Span<const int64_t> tile) {
  const std::string name =
      absl::StrCat("tile ", tile_number, " ", TileToString(tile));
  if (tile.empty()) {
    return TileError(tile_number, absl::StrCat(name, " is empty"));
  }
  for (size_t k = 0; k < tile.size(); ++k) {
    if (tile[k] == kCombineDimension) {
      if (k + 1 == tile.size()) {
        return TileError(
            tile_number,
            absl::StrCat(
                name, ": entry ", k,
                " is `*`, but the most minor entry has no more minor dimension "
                "to combine into"));
      }
      continue;
    }
    if (tile[k] <= 0) {
      return TileError(tile_number,
                       absl::StrCat(name, ": entry ", k, " is ", tile[k],
                                    "; tile sizes must be positive (or `*`)"));
    }
  }
  return absl::OkStatus();
}

absl::Status OverflowError(int64_t tile_number, absl::Span<const int64_t> tile,
                           absl::Span<const int64_t> shape) {
  return TileError(tile_number,
                   absl::StrCat("tile ", tile_number, " ", TileToString(tile),
                                " on physical shape ", ShapeToString(shape),
                                ": the padded size overflows int64"));
}

}  // namespace

std::optional<int64_t> ErrorTileNumber(const absl::Status& status) {
  const auto payload = status.GetPayload(kTileNumberPayload);
  int64_t tile_number;
  if (!payload || !absl::SimpleAtoi(std::string(*payload), &tile_number)) {
    return std::nullopt;
  }
  return tile_number;
}

std::string TilesToString(absl::Span<const std::vector<int64_t>> tiles) {
  std::string result;
  for (const std::vector<int64_t>& tile : tiles) {
    result += TileToString(tile);
  }
  return result;
}

namespace {

// Expand: prepends size-1 dimensions until `shape` has `rank` dimensions,
// as XLA pads a shape to the rank of a larger tile.
void ExpandToRank(size_t rank, std::vector<int64_t>& shape,
                  std::vector<TilingStep>& steps) {
  if (shape.size() >= rank) return;
  TilingStep step{TilingStep::Kind::kExpand, 0, {}, shape, {}};
  shape.insert(shape.begin(), rank - shape.size(), 1);
  step.shape_after = shape;
  steps.push_back(std::move(step));
}

// Combine: each `*` of `tile`, most major first, merges its dimension into
// the next more minor one, (.., a, b, ..) -> (.., a*b, ..); the tile loses
// that entry. Returns the tile without `*`.
absl::StatusOr<std::vector<int64_t>> CombineDimensions(
    int64_t tile_number, const std::vector<int64_t>& original_tile,
    std::vector<int64_t>& shape, std::vector<TilingStep>& steps) {
  std::vector<int64_t> tile = original_tile;
  for (size_t k = 0; k < tile.size();) {
    if (tile[k] != kCombineDimension) {
      ++k;
      continue;
    }
    const int64_t position = shape.size() - tile.size() + k;
    TilingStep step{TilingStep::Kind::kCombine, position, {}, shape, {}};
    std::optional<int64_t> merged =
        CheckedMul(shape[position], shape[position + 1]);
    if (!merged) return OverflowError(tile_number, original_tile, shape);
    shape[position] = *merged;
    shape.erase(shape.begin() + position + 1);
    step.shape_after = shape;
    steps.push_back(std::move(step));
    tile.erase(tile.begin() + k);
  }
  return tile;
}

// Tile: (.., d_k, ..) -> (.., ceil(d_k/t_k), .., t_k, ..), refusing a
// physical rank above kMaxPhysicalRank or sizes whose product overflows.
absl::Status TileDimensions(int64_t tile_number,
                            const std::vector<int64_t>& original_tile,
                            const std::vector<int64_t>& tile,
                            std::vector<int64_t>& shape,
                            std::vector<TilingStep>& steps) {
  const int64_t first = shape.size() - tile.size();
  TilingStep step{TilingStep::Kind::kTile, first, tile, shape, {}};
  for (size_t k = 0; k < tile.size(); ++k) {
    shape[first + k] = CeilOfRatio(shape[first + k], tile[k]);
  }
  shape.insert(shape.end(), tile.begin(), tile.end());
  if (static_cast<int64_t>(shape.size()) > kMaxPhysicalRank) {
    return TileError(
        tile_number,
        absl::StrCat("tile ", tile_number, " ", TileToString(original_tile),
                     " makes the physical shape rank ", shape.size(),
                     ", more than the ", kMaxPhysicalRank, " supported"));
  }
  // The product of the non-zero sizes must fit: with a zero size the
  // element count is 0, but maps still use strides over the others.
  int64_t count = 1;
  for (int64_t size : shape) {
    if (size == 0) continue;
    std::optional<int64_t> product = CheckedMul(count, size);
    if (!product) return OverflowError(tile_number, original_tile, shape);
    count = *product;
  }
  step.shape_after = shape;
  steps.push_back(std::move(step));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<TiledLayout> TiledLayout::Create(
    absl::Span<const int64_t> dims, absl::Span<const int64_t> minor_to_major,
    absl::Span<const std::vector<int64_t>> tiles) {
  XI_RETURN_IF_ERROR(ValidateDimensions(dims));
  XI_RETURN_IF_ERROR(ValidateMinorToMajor(dims.size(), minor_to_major));
  if (static_cast<int64_t>(tiles.size()) > kMaxTiles) {
    return absl::InvalidArgumentError(
        absl::StrCat("the layout has ", tiles.size(), " tiles, more than the ",
                     kMaxTiles, " supported"));
  }
  TiledLayout layout;
  layout.dims_.assign(dims.begin(), dims.end());
  layout.minor_to_major_.assign(minor_to_major.begin(), minor_to_major.end());
  layout.major_to_minor_dims_ = MajorToMinorDimensions(dims, minor_to_major);
  layout.element_count_ = 1;
  for (int64_t size : dims) layout.element_count_ *= size;  // validated above

  std::vector<int64_t> shape = layout.major_to_minor_dims_;
  for (size_t tile_number = 0; tile_number < tiles.size(); ++tile_number) {
    const std::vector<int64_t>& original_tile = tiles[tile_number];
    XI_RETURN_IF_ERROR(ValidateTile(tile_number, original_tile));
    if (original_tile.size() > static_cast<size_t>(kMaxPhysicalRank)) {
      return TileError(
          tile_number,
          absl::StrCat("tile ", tile_number, " ", TileToString(original_tile),
                       " has rank ", original_tile.size(), ", more than the ",
                       kMaxPhysicalRank, " supported"));
    }
    ExpandToRank(original_tile.size(), shape, layout.steps_);
    XI_ASSIGN_OR_RETURN(
        std::vector<int64_t> tile,
        CombineDimensions(tile_number, original_tile, shape, layout.steps_));
    XI_RETURN_IF_ERROR(
        TileDimensions(tile_number, original_tile, tile, shape, layout.steps_));
  }
  layout.physical_dims_ = shape;
  int64_t count = 1;
  for (int64_t size : shape) count *= size;  // checked in TileDimensions
  layout.tiled_element_count_ = count;
  return layout;
}

namespace {

// Index vectors live on the stack for the usual ranks: LinearIndex is the
// "direct formula" the benchmark compares the indexing map against.
using IndexVector = absl::InlinedVector<int64_t, 16>;

void ApplyStep(const TilingStep& step, IndexVector& index) {
  const int64_t position = step.position;
  if (step.kind == TilingStep::Kind::kExpand) {
    index.insert(index.begin(),
                 step.shape_after.size() - step.shape_before.size(), 0);
    return;
  }
  if (step.kind == TilingStep::Kind::kCombine) {
    index[position] =
        index[position] * step.shape_before[position + 1] + index[position + 1];
    index.erase(index.begin() + position + 1);
    return;
  }
  const size_t n = step.tile.size();
  index.resize(position + 2 * n);
  for (size_t k = 0; k < n; ++k) {
    const int64_t e = index[position + k];
    index[position + k] = e / step.tile[k];
    index[position + n + k] = e % step.tile[k];
  }
}

// Undoes ApplyStep; false when the result is outside step.shape_before,
// i.e. the element is padding.
bool UndoStep(const TilingStep& step, IndexVector& index) {
  const int64_t position = step.position;
  if (step.kind == TilingStep::Kind::kExpand) {
    // The prepended dimensions have size 1: a nonzero entry is padding.
    const size_t added = step.shape_after.size() - step.shape_before.size();
    bool in_bounds = true;
    for (size_t k = 0; k < added; ++k) in_bounds &= index[k] == 0;
    index.erase(index.begin(), index.begin() + added);
    return in_bounds;
  }
  if (step.kind == TilingStep::Kind::kCombine) {
    const int64_t minor_size = step.shape_before[position + 1];
    const int64_t combined = index[position];
    index.insert(index.begin() + position + 1, combined % minor_size);
    index[position] = combined / minor_size;
    return index[position] < step.shape_before[position];
  }
  const size_t n = step.tile.size();
  bool in_bounds = true;
  for (size_t k = 0; k < n; ++k) {
    const int64_t e =
        index[position + k] * step.tile[k] + index[position + n + k];
    index[position + k] = e;
    in_bounds &= e < step.shape_before[position + k];
  }
  index.resize(position + n);
  return in_bounds;
}

IndexVector TransposeToPhysical(absl::Span<const int64_t> minor_to_major,
                                absl::Span<const int64_t> index) {
  const size_t rank = minor_to_major.size();
  IndexVector physical(rank);
  for (size_t k = 0; k < rank; ++k) {
    physical[k] = index[minor_to_major[rank - 1 - k]];
  }
  return physical;
}

}  // namespace

std::vector<int64_t> TiledLayout::PhysicalIndex(
    absl::Span<const int64_t> index) const {
  IndexVector physical = TransposeToPhysical(minor_to_major_, index);
  for (const TilingStep& step : steps_) ApplyStep(step, physical);
  return std::vector<int64_t>(physical.begin(), physical.end());
}

std::vector<int64_t> TiledLayout::PartialPhysicalIndex(
    absl::Span<const int64_t> index, size_t num_steps) const {
  IndexVector physical = TransposeToPhysical(minor_to_major_, index);
  for (size_t s = 0; s < num_steps && s < steps_.size(); ++s) {
    ApplyStep(steps_[s], physical);
  }
  return std::vector<int64_t>(physical.begin(), physical.end());
}

int64_t TiledLayout::LinearIndex(absl::Span<const int64_t> index) const {
  IndexVector physical = TransposeToPhysical(minor_to_major_, index);
  for (const TilingStep& step : steps_) ApplyStep(step, physical);
  return RowMajorLinearIndex(physical_dims_, physical);
}

absl::StatusOr<int64_t> TiledLayout::CheckedLinearIndex(
    absl::Span<const int64_t> index) const {
  XI_RETURN_IF_ERROR(ValidateIndex(dims_, index));
  return LinearIndex(index);
}

std::optional<std::vector<int64_t>> TiledLayout::LogicalIndex(
    int64_t linear) const {
  if (linear < 0 || linear >= tiled_element_count_) return std::nullopt;
  std::vector<int64_t> multi = RowMajorMultiIndex(physical_dims_, linear);
  IndexVector physical(multi.begin(), multi.end());
  for (size_t s = steps_.size(); s-- > 0;) {
    if (!UndoStep(steps_[s], physical)) return std::nullopt;
  }
  const size_t rank = dims_.size();
  std::vector<int64_t> index(rank);
  for (size_t k = 0; k < rank; ++k) {
    index[minor_to_major_[rank - 1 - k]] = physical[k];
  }
  for (size_t i = 0; i < rank; ++i) {
    if (index[i] >= dims_[i]) return std::nullopt;
  }
  return index;
}

}  // namespace xla_index
