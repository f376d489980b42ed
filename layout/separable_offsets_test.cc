#include "layout/separable_offsets.h"

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "layout/index_util.h"
#include "layout/random_layouts.h"
#include "layout/tiled_layout.h"

namespace xla_index {
namespace {

TiledLayout MakeLayout(std::vector<int64_t> dims,
                       std::vector<int64_t> minor_to_major,
                       std::vector<std::vector<int64_t>> tiles) {
  absl::StatusOr<TiledLayout> layout =
      TiledLayout::Create(dims, minor_to_major, tiles);
  EXPECT_TRUE(layout.ok()) << layout.status();
  return *std::move(layout);
}

TEST(SeparableOffsetsTest, SeedFigure1) {
  std::optional<SeparableOffsets> offsets =
      SeparableOffsets::Create(MakeLayout({3, 5}, {1, 0}, {{2, 2}}));
  ASSERT_TRUE(offsets.has_value());
  EXPECT_EQ(offsets->LinearIndex({2, 3}), 17);
}

TEST(SeparableOffsetsTest, SeedFigure2) {
  std::optional<SeparableOffsets> offsets =
      SeparableOffsets::Create(MakeLayout({4, 8}, {1, 0}, {{2, 4}, {2, 1}}));
  ASSERT_TRUE(offsets.has_value());
  for (int64_t j = 0; j < 8; ++j) {
    EXPECT_EQ(offsets->LinearIndex({0, j}), 2 * j);
    EXPECT_EQ(offsets->LinearIndex({1, j}), 2 * j + 1);
  }
}

TEST(SeparableOffsetsTest, CombinedDimensionsAndHugeShapesAreNotTabulated) {
  EXPECT_FALSE(
      SeparableOffsets::Create(MakeLayout({2, 7, 8}, {2, 1, 0}, {{-1, 2, 3}}))
          .has_value());
  EXPECT_FALSE(
      SeparableOffsets::Create(MakeLayout({1000, 1000}, {1, 0}, {{8, 128}}),
                               /*max_entries=*/1999)
          .has_value());
  EXPECT_TRUE(
      SeparableOffsets::Create(MakeLayout({1000, 1000}, {1, 0}, {{8, 128}}),
                               /*max_entries=*/2000)
          .has_value());
}

// Property: wherever the tables exist, they agree with the step-by-step
// index at every element (this is the separability claim, tested).
TEST(SeparableOffsetsTest, AgreesWithTiledLayoutOnRandomLayouts) {
  std::mt19937 rng(3);
  int tabulated = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    RandomLayoutCase c = RandomTiledLayoutCase(rng, 4, 6, 3, 4);
    absl::StatusOr<TiledLayout> layout =
        TiledLayout::Create(c.dims, c.minor_to_major, c.tiles);
    ASSERT_TRUE(layout.ok()) << c.ToString();
    std::optional<SeparableOffsets> offsets = SeparableOffsets::Create(*layout);
    if (!offsets) continue;
    ++tabulated;
    for (int64_t e = 0; e < layout->element_count(); ++e) {
      std::vector<int64_t> index = RowMajorMultiIndex(c.dims, e);
      ASSERT_EQ(offsets->LinearIndex(index), layout->LinearIndex(index))
          << c.ToString();
    }
  }
  EXPECT_GT(tabulated, 1000);
}

}  // namespace
}  // namespace xla_index
