#include "layout/tiled_layout.h"

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "layout/index_util.h"
#include "layout/random_layouts.h"
#include "layout/reference_tiling.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr int64_t kStar = kCombineDimension;

TiledLayout MakeLayout(std::vector<int64_t> dims,
                       std::vector<int64_t> minor_to_major,
                       std::vector<std::vector<int64_t>> tiles) {
  absl::StatusOr<TiledLayout> layout =
      TiledLayout::Create(dims, minor_to_major, tiles);
  EXPECT_TRUE(layout.ok()) << layout.status();
  return *std::move(layout);
}

std::string CreateError(std::vector<int64_t> dims,
                        std::vector<int64_t> minor_to_major,
                        std::vector<std::vector<int64_t>> tiles) {
  absl::StatusOr<TiledLayout> layout =
      TiledLayout::Create(dims, minor_to_major, tiles);
  if (layout.ok()) return "OK";
  EXPECT_EQ(layout.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(layout.status().message());
}

// The single-tile formula of XLA's tiled-layout documentation, written out:
// with e = (e_n, .., e_1) in d = (d_n, .., d_1) and tile t,
//   linear_index_with_tile(e, d, t)
//     = linear_index(e div t, ceil(d/t)) * prod(t) + linear_index(e mod t, t).
int64_t SeedSingleTileFormula(std::vector<int64_t> e, std::vector<int64_t> d,
                              std::vector<int64_t> t) {
  std::vector<int64_t> tile_index, tile_counts, in_tile;
  int64_t tile_volume = 1;
  for (size_t k = 0; k < e.size(); ++k) {
    tile_index.push_back(e[k] / t[k]);
    tile_counts.push_back((d[k] + t[k] - 1) / t[k]);
    in_tile.push_back(e[k] % t[k]);
    tile_volume *= t[k];
  }
  return RowMajorLinearIndex(tile_counts, tile_index) * tile_volume +
         RowMajorLinearIndex(t, in_tile);
}

// XLA's tiled-layout documentation, figure 1: F32[3,5]{1,0:T(2,2)}. Element
// (2,3) has tile index (1,1) and index in tile (0,1), combined (1,1,0,1) in
// bounds (2,3,2,2): linear index 17.
TEST(TiledLayoutTest, SeedFigure1) {
  TiledLayout layout = MakeLayout({3, 5}, {1, 0}, {{2, 2}});
  EXPECT_THAT(layout.physical_dimensions(), ElementsAre(2, 3, 2, 2));
  EXPECT_THAT(layout.PhysicalIndex({2, 3}), ElementsAre(1, 1, 0, 1));
  EXPECT_EQ(layout.LinearIndex({2, 3}), 17);
  EXPECT_THAT(layout.LogicalIndex(17), ::testing::Optional(ElementsAre(2, 3)));
  // 15 elements in 6 tiles of 4: 9 padding positions (white in the figure).
  EXPECT_EQ(layout.element_count(), 15);
  EXPECT_EQ(layout.tiled_element_count(), 24);
  int padding = 0;
  for (int64_t p = 0; p < 24; ++p) padding += !layout.LogicalIndex(p);
  EXPECT_EQ(padding, 9);
}

// A tile of higher rank than the shape first pads the shape with leading
// dimensions of size 1 (XLA's ShapeUtil::ArraySize reads the missing
// dimensions as size 1). f32[8]{0:T(2,2)}: (8) -> (1,8) -> tiled
// (ceil(1/2), ceil(8/2), 2, 2) = (1,4,2,2). Element 5 -> (0,5) -> (0,2,0,1):
// ((0*4 + 2)*2 + 0)*2 + 1 = 9.
TEST(TiledLayoutTest, TileOfHigherRankPadsWithLeadingOnes) {
  TiledLayout layout = MakeLayout({8}, {0}, {{2, 2}});
  EXPECT_THAT(layout.physical_dimensions(), ElementsAre(1, 4, 2, 2));
  EXPECT_THAT(layout.PhysicalIndex({5}), ElementsAre(0, 2, 0, 1));
  EXPECT_EQ(layout.LinearIndex({5}), 9);
  EXPECT_THAT(layout.LogicalIndex(9), ::testing::Optional(ElementsAre(5)));
  // Positions 2, 3 have in-tile row 1 of the size-1 padded dimension.
  EXPECT_EQ(layout.LogicalIndex(2), std::nullopt);
  EXPECT_EQ(layout.element_count(), 8);
  EXPECT_EQ(layout.tiled_element_count(), 16);
  ASSERT_EQ(layout.steps().size(), 2u);
  EXPECT_EQ(layout.steps()[0].kind, TilingStep::Kind::kExpand);
  for (int64_t i = 0; i < 8; ++i) {
    EXPECT_EQ(layout.LinearIndex({i}), (i / 2) * 4 + i % 2) << i;
  }
}

// u32[]{:T(128)}: () -> (1) -> (1, 128); the scalar is at 0 and the other
// 127 positions are padding. f32[3]{0:T(8,128)}: (3) -> (1,3) ->
// (1,1,8,128), 1024 positions; element 2 -> (0,0,0,2) at 2.
TEST(TiledLayoutTest, ScalarsAndVectorsTiledByLargerTiles) {
  TiledLayout scalar = MakeLayout({}, {}, {{128}});
  EXPECT_THAT(scalar.physical_dimensions(), ElementsAre(1, 128));
  EXPECT_EQ(scalar.LinearIndex({}), 0);
  EXPECT_EQ(scalar.tiled_element_count(), 128);
  EXPECT_EQ(scalar.LogicalIndex(1), std::nullopt);
  TiledLayout scalar_one = MakeLayout({}, {}, {{1}});
  EXPECT_THAT(scalar_one.physical_dimensions(), ElementsAre(1, 1));
  TiledLayout vector = MakeLayout({3}, {0}, {{8, 128}});
  EXPECT_THAT(vector.physical_dimensions(), ElementsAre(1, 1, 8, 128));
  EXPECT_EQ(vector.LinearIndex({2}), 2);
  EXPECT_EQ(vector.tiled_element_count(), 1024);
  // (3,5) under (2,2,2): (1,3,5) -> (1,2,3,2,2,2), 48 positions; (2,3) ->
  // (0,2,3) -> (0,1,1,0,0,1) at ((((0*2+1)*3+1)*2+0)*2+0)*2+1 = 33.
  TiledLayout three = MakeLayout({3, 5}, {1, 0}, {{2, 2, 2}});
  EXPECT_THAT(three.physical_dimensions(), ElementsAre(1, 2, 3, 2, 2, 2));
  EXPECT_EQ(three.LinearIndex({2, 3}), 33);
  // Against the array-moving oracle, which pads the same way.
  for (const auto& [dims, tiles] : std::vector<
           std::pair<std::vector<int64_t>, std::vector<std::vector<int64_t>>>>{
           {{8}, {{2, 2}}}, {{3}, {{8, 4}}}, {{5}, {{2, 2}, {2, 1, 1}}}}) {
    TiledLayout layout = MakeLayout(dims, {0}, tiles);
    std::vector<int64_t> image = ReferenceMemoryImage(dims, {0}, tiles);
    ASSERT_EQ(static_cast<int64_t>(image.size()), layout.tiled_element_count());
    for (int64_t p = 0; p < layout.tiled_element_count(); ++p) {
      std::optional<std::vector<int64_t>> logical = layout.LogicalIndex(p);
      EXPECT_EQ(logical.has_value() ? (*logical)[0] : -1, image[p]) << p;
    }
  }
}

TEST(TiledLayoutTest, SeedFigure1AgreesWithTheSeedFormula) {
  TiledLayout layout = MakeLayout({3, 5}, {1, 0}, {{2, 2}});
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 5; ++j) {
      EXPECT_EQ(layout.LinearIndex({i, j}),
                SeedSingleTileFormula({i, j}, {3, 5}, {2, 2}))
          << i << "," << j;
    }
  }
}

// XLA's tiled-layout documentation, figure 2: a 4x8 array tiled (2,4)(2,1). Row
// 0 is at 0, 2, 4, ..., 14 and row 1 at 1, 3, ..., 15: the 2x1 tiles pair the
// two rows of each 2x4 tile.
TEST(TiledLayoutTest, SeedFigure2) {
  TiledLayout layout = MakeLayout({4, 8}, {1, 0}, {{2, 4}, {2, 1}});
  for (int64_t j = 0; j < 8; ++j) {
    EXPECT_EQ(layout.LinearIndex({0, j}), 2 * j) << j;
    EXPECT_EQ(layout.LinearIndex({1, j}), 2 * j + 1) << j;
  }
  EXPECT_EQ(layout.tiled_element_count(), 32);  // 4x8 divides into tiles
}

// XLA's tiled-layout documentation, "Combining dimensions using tiles":
// F32[2,7,8,11,10]{4,3,2,1,0} with tile (*,*,2,*,3) is F32[112,110]{1,0} tiled
// with (2,3).
TEST(TiledLayoutTest, SeedCombinedDimensions) {
  TiledLayout combined = MakeLayout({2, 7, 8, 11, 10}, {4, 3, 2, 1, 0},
                                    {{kStar, kStar, 2, kStar, 3}});
  TiledLayout flat = MakeLayout({112, 110}, {1, 0}, {{2, 3}});
  EXPECT_THAT(combined.physical_dimensions(), ElementsAre(56, 37, 2, 3));
  EXPECT_EQ(combined.tiled_element_count(), flat.tiled_element_count());
  for (int64_t a = 0; a < 2; ++a)
    for (int64_t b = 0; b < 7; ++b)
      for (int64_t c = 0; c < 8; ++c)
        for (int64_t d = 0; d < 11; ++d)
          for (int64_t e = 0; e < 10; ++e) {
            ASSERT_EQ(combined.LinearIndex({a, b, c, d, e}),
                      flat.LinearIndex({(a * 7 + b) * 8 + c, d * 10 + e}));
          }
}

// The BF16 TPU layout of XLA's shapes-and-layout documentation:
// bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}.
TEST(TiledLayoutTest, SeedTpuBf16Layout) {
  TiledLayout layout =
      MakeLayout({8, 1, 1280, 16384}, {3, 2, 0, 1}, {{8, 128}, {2, 1}});
  // Physical (1, 8, 1280, 16384) -> (1, 8, 160, 128, 8, 128)
  //                              -> (1, 8, 160, 128, 4, 128, 2, 1).
  EXPECT_THAT(layout.physical_dimensions(),
              ElementsAre(1, 8, 160, 128, 4, 128, 2, 1));
  EXPECT_EQ(layout.tiled_element_count(), layout.element_count());
  // Rows 2r and 2r+1 of a tile sit side by side (the (2,1) tile).
  EXPECT_EQ(layout.LinearIndex({0, 0, 1, 0}), 1);
  EXPECT_EQ(layout.LinearIndex({0, 0, 0, 1}), 2);
  EXPECT_EQ(layout.LinearIndex({0, 0, 2, 0}), 256);
  EXPECT_EQ(layout.LinearIndex({0, 0, 0, 128}), 1024);
  EXPECT_EQ(layout.LinearIndex({1, 0, 0, 0}), 1280 * 16384);
}

// A second tile of higher rank than the first reaches across the first
// tile's tile-count dimensions: (2,2) then (2,1,1) groups pairs of tile rows.
TEST(TiledLayoutTest, LaterTileReachesAcrossTileCounts) {
  TiledLayout layout = MakeLayout({4, 4}, {1, 0}, {{2, 2}, {2, 1, 1}});
  // (4,4) -> (2,2,2,2) -> (2,1,2,2,2,1,1).
  EXPECT_THAT(layout.physical_dimensions(), ElementsAre(2, 1, 2, 2, 2, 1, 1));
  // Tile (0,0) and tile (0,1) (first tile row) now interleave: element
  // (0,0) at 0, its neighbour in tile (0,1) right after.
  EXPECT_EQ(layout.LinearIndex({0, 0}), 0);
  EXPECT_EQ(layout.LinearIndex({0, 2}), 1);
  EXPECT_EQ(layout.LinearIndex({0, 1}), 2);
}

TEST(TiledLayoutTest, PartialPhysicalIndex) {
  TiledLayout layout = MakeLayout({4, 8}, {1, 0}, {{2, 4}, {2, 1}});
  EXPECT_THAT(layout.PartialPhysicalIndex({3, 6}, 0), ElementsAre(3, 6));
  EXPECT_THAT(layout.PartialPhysicalIndex({3, 6}, 1), ElementsAre(1, 1, 1, 2));
  EXPECT_EQ(layout.PartialPhysicalIndex({3, 6}, 2),
            layout.PhysicalIndex({3, 6}));
}

TEST(TiledLayoutTest, UntiledIsIndexUtil) {
  TiledLayout layout = MakeLayout({2, 3, 4}, {0, 2, 1}, {});
  for (int64_t p = 0; p < 24; ++p) {
    std::vector<int64_t> index =
        LinearIndexToMultidimensionalIndex({2, 3, 4}, {0, 2, 1}, p);
    EXPECT_EQ(layout.LinearIndex(index), p);
  }
}

TEST(TiledLayoutTest, ScalarAndEmpty) {
  TiledLayout scalar = MakeLayout({}, {}, {});
  EXPECT_EQ(scalar.LinearIndex({}), 0);
  EXPECT_EQ(scalar.tiled_element_count(), 1);
  TiledLayout empty = MakeLayout({0, 5}, {1, 0}, {{2, 2}});
  EXPECT_EQ(empty.tiled_element_count(), 0);
  EXPECT_EQ(empty.LogicalIndex(0), std::nullopt);
}

TEST(TiledLayoutTest, CheckedLinearIndexRejectsOutOfBounds) {
  TiledLayout layout = MakeLayout({3, 5}, {1, 0}, {{2, 2}});
  EXPECT_EQ(*layout.CheckedLinearIndex({2, 3}), 17);
  EXPECT_THAT(layout.CheckedLinearIndex({3, 0}).status().message(),
              HasSubstr("entry 0 is 3, outside [0, 2]"));
  EXPECT_THAT(layout.CheckedLinearIndex({1}).status().message(),
              HasSubstr("rank 2"));
  EXPECT_EQ(layout.LogicalIndex(-1), std::nullopt);
  EXPECT_EQ(layout.LogicalIndex(24), std::nullopt);
}

TEST(TiledLayoutTest, RejectsInvalidLayouts) {
  EXPECT_THAT(CreateError({3, 5}, {1, 1}, {}), HasSubstr("not a permutation"));
  EXPECT_THAT(CreateError({3, 5}, {1, 0}, {{2, 0}}),
              HasSubstr("tile 0 (2,0): entry 1 is 0; tile sizes must be"));
  EXPECT_THAT(CreateError({3, 5}, {1, 0}, {{2, 2}, {-3, 1}}),
              HasSubstr("tile 1 (-3,1): entry 0 is -3"));
  EXPECT_THAT(CreateError({3, 5}, {1, 0}, {{2, kStar}}),
              HasSubstr("entry 1 is `*`"));
  EXPECT_THAT(CreateError({3, 5}, {1, 0}, {{}}),
              HasSubstr("tile 0 () is empty"));
  EXPECT_THAT(CreateError({3, -5}, {1, 0}, {}), HasSubstr("negative size -5"));
  // Elements fit in int64 but padding to the tile does not.
  const int64_t big = int64_t{1} << 62;
  EXPECT_THAT(CreateError({big + 1}, {0}, {{big}}), HasSubstr("overflows"));
  EXPECT_THAT(
      CreateError({1, 1}, {1, 0}, {{int64_t{1} << 40, int64_t{1} << 40}}),
      HasSubstr("overflows"));
}

TEST(TiledLayoutTest, RejectsPhysicalRankBeyondTheLimit) {
  // Each rank-8 tile of ones adds eight dimensions: 8 + 7 * 8 = 64 is
  // allowed, 72 is not.
  const std::vector<int64_t> dims(8, 1),
      minor_to_major = {7, 6, 5, 4, 3, 2, 1, 0};
  std::vector<std::vector<int64_t>> tiles(7, std::vector<int64_t>(8, 1));
  EXPECT_EQ(CreateError(dims, minor_to_major, tiles), "OK");
  tiles.push_back(std::vector<int64_t>(8, 1));
  EXPECT_THAT(CreateError(dims, minor_to_major, tiles),
              HasSubstr("tile 7 (1,1,1,1,1,1,1,1) makes the physical shape "
                        "rank 72"));
}

TEST(TiledLayoutTest, RejectsMoreThanEightTiles) {
  std::vector<std::vector<int64_t>> tiles(8, std::vector<int64_t>{1});
  EXPECT_EQ(CreateError({3, 5}, {1, 0}, tiles), "OK");
  tiles.push_back({1});
  EXPECT_THAT(CreateError({3, 5}, {1, 0}, tiles),
              HasSubstr("the layout has 9 tiles, more than the 8 supported"));
}

TEST(TiledLayoutTest, TileErrorsNameTheTile) {
  EXPECT_EQ(
      ErrorTileNumber(
          TiledLayout::Create({3, 5}, {1, 0}, {{2, 2}, {2, kStar}}).status()),
      1);
  EXPECT_EQ(
      ErrorTileNumber(TiledLayout::Create({3, 5}, {1, 0}, {{0, 2}}).status()),
      0);
  EXPECT_EQ(ErrorTileNumber(TiledLayout::Create({3, 5}, {0, 0}, {}).status()),
            std::nullopt);
}

// Property: for random shapes and layouts, the index arithmetic places every
// element where the pad-reshape-transpose reference puts it, and the inverse
// gives back the element or reports padding.
TEST(TiledLayoutTest, AgreesWithPadReshapeTransposeOnRandomLayouts) {
  std::mt19937 rng(2024);
  int checked = 0;
  for (int trial = 0; checked < 3000; ++trial) {
    RandomLayoutCase c = RandomTiledLayoutCase(rng, /*max_rank=*/4,
                                               /*max_size=*/6, /*max_tiles=*/3,
                                               /*max_tile_size=*/4);
    absl::StatusOr<TiledLayout> layout =
        TiledLayout::Create(c.dims, c.minor_to_major, c.tiles);
    ASSERT_TRUE(layout.ok()) << c.ToString() << ": " << layout.status();
    if (layout->tiled_element_count() > 4096) continue;
    ++checked;
    std::vector<int64_t> image =
        ReferenceMemoryImage(c.dims, c.minor_to_major, c.tiles);
    ASSERT_EQ(static_cast<int64_t>(image.size()), layout->tiled_element_count())
        << c.ToString();
    for (int64_t p = 0; p < static_cast<int64_t>(image.size()); ++p) {
      std::optional<std::vector<int64_t>> logical = layout->LogicalIndex(p);
      if (image[p] < 0) {
        ASSERT_EQ(logical, std::nullopt) << c.ToString() << " position " << p;
        continue;
      }
      std::vector<int64_t> index = RowMajorMultiIndex(c.dims, image[p]);
      ASSERT_EQ(layout->LinearIndex(index), p) << c.ToString();
      ASSERT_EQ(logical, index) << c.ToString() << " position " << p;
    }
  }
}

}  // namespace
}  // namespace xla_index
