#include "layout/random_layouts.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "layout/tiled_layout.h"

namespace xla_index {

std::string RandomLayoutCase::ToString() const {
  std::string text = absl::StrCat("[", absl::StrJoin(dims, ","), "]{",
                                  absl::StrJoin(minor_to_major, ","));
  if (!tiles.empty()) absl::StrAppend(&text, ":T", TilesToString(tiles));
  return text + "}";
}

RandomLayoutCase RandomTiledLayoutCase(std::mt19937& rng, int max_rank,
                                       int64_t max_size, int max_tiles,
                                       int64_t max_tile_size) {
  auto uniform = [&rng](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  RandomLayoutCase result;
  const int64_t rank = uniform(0, max_rank);
  for (int64_t i = 0; i < rank; ++i) {
    // One dimension in 25 is empty, to cover zero-element arrays.
    result.dims.push_back(uniform(0, 24) == 0 ? 0 : uniform(1, max_size));
    result.minor_to_major.push_back(i);
  }
  std::shuffle(result.minor_to_major.begin(), result.minor_to_major.end(), rng);

  int64_t physical_rank = rank;
  const int64_t tile_count = uniform(0, max_tiles);
  for (int64_t t = 0; t < tile_count; ++t) {
    // One more than the physical rank: the shape is then padded with a
    // leading dimension of size 1 (TilingStep::Kind::kExpand).
    const int64_t tile_rank = uniform(1, physical_rank + 1);
    physical_rank = std::max(physical_rank, tile_rank);
    std::vector<int64_t> tile;
    int64_t stars = 0;
    for (int64_t k = 0; k < tile_rank; ++k) {
      const bool star = k + 1 < tile_rank && uniform(0, 4) == 0;
      tile.push_back(star ? kCombineDimension : uniform(1, max_tile_size));
      stars += star;
    }
    // Stars remove dimensions; the tile appends one per sized entry.
    physical_rank = physical_rank - stars + (tile_rank - stars);
    result.tiles.push_back(std::move(tile));
  }
  return result;
}

}  // namespace xla_index
