#ifndef XLA_INDEX_LAYOUT_RANDOM_LAYOUTS_H_
#define XLA_INDEX_LAYOUT_RANDOM_LAYOUTS_H_

// Test support: random small shapes with random valid tiled layouts, for
// property tests that compare two implementations on every element.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace xla_index {

/// A shape's dimensions with a layout given as plain lists.
struct RandomLayoutCase {
  std::vector<int64_t> dims;
  std::vector<int64_t> minor_to_major;
  /// kCombineDimension (-1) for `*`.
  std::vector<std::vector<int64_t>> tiles;

  /// e.g. "[3,5]{1,0:T(2,2)}", for failure messages.
  std::string ToString() const;
};

/// A random valid case: rank in [0, max_rank], sizes in [1, max_size]
/// (occasionally 0), a random minor_to_major, up to `max_tiles` tiles of
/// sizes in [1, max_tile_size], each with a random rank up to the rank of
/// the shape it tiles, some entries `*`. The caller bounds the memory
/// footprint by rejecting cases that are too large.
RandomLayoutCase RandomTiledLayoutCase(std::mt19937& rng, int max_rank,
                                       int64_t max_size, int max_tiles,
                                       int64_t max_tile_size);

}  // namespace xla_index

#endif  // XLA_INDEX_LAYOUT_RANDOM_LAYOUTS_H_
