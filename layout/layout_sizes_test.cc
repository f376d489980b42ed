#include "layout/layout_sizes.h"

#include <cstdint>
#include <limits>
#include <vector>

#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "layout/tiled_layout.h"

namespace xla_index {
namespace {

using ::testing::HasSubstr;

LayoutSizes Sizes(std::vector<int64_t> dims, std::vector<int64_t> m2m,
                  std::vector<std::vector<int64_t>> tiles, int64_t bits,
                  int64_t tail_alignment = 1) {
  absl::StatusOr<TiledLayout> layout = TiledLayout::Create(dims, m2m, tiles);
  EXPECT_TRUE(layout.ok()) << layout.status();
  absl::StatusOr<LayoutSizes> sizes =
      ComputeLayoutSizes(*layout, bits, tail_alignment);
  EXPECT_TRUE(sizes.ok()) << sizes.status();
  return *sizes;
}

// u32[12582912,1]{1,0:T(8,128)}: the minor dimension of size 1 pads to 128
// and 12582912 rows are a multiple of 8, so the array occupies
// 12582912 * 128 elements of 4 bytes: 6 GiB for 48 MiB of data.
TEST(LayoutSizesTest, NarrowMinorDimensionPadsToTheTile) {
  LayoutSizes sizes = Sizes({12582912, 1}, {1, 0}, {{8, 128}}, 32);
  EXPECT_EQ(sizes.elements, 12582912);
  EXPECT_EQ(sizes.padded_elements, int64_t{12582912} * 128);
  EXPECT_EQ(sizes.bytes, int64_t{6} << 30);
}

TEST(LayoutSizesTest, SeedFigure1) {
  // F32[3,5]{1,0:T(2,2)}: 6 tiles of 4 elements.
  LayoutSizes sizes = Sizes({3, 5}, {1, 0}, {{2, 2}}, 32);
  EXPECT_EQ(sizes.elements, 15);
  EXPECT_EQ(sizes.padded_elements, 24);
  EXPECT_EQ(sizes.bytes, 96);
}

TEST(LayoutSizesTest, TailPaddingRoundsUpTheTiledCount) {
  EXPECT_EQ(Sizes({3, 5}, {1, 0}, {{2, 2}}, 32, 16).padded_elements, 32);
  EXPECT_EQ(Sizes({3, 5}, {1, 0}, {{2, 2}}, 32, 8).padded_elements, 24);
  EXPECT_EQ(Sizes({3, 5}, {1, 0}, {}, 32, 4).padded_elements, 16);
  EXPECT_EQ(Sizes({3, 5}, {1, 0}, {}, 32, 0).padded_elements, 15);
}

TEST(LayoutSizesTest, SubByteElementsArePacked) {
  // s4[3,5]{1,0:E(4)}: 15 nibbles need 60 bits, 8 bytes.
  EXPECT_EQ(Sizes({3, 5}, {1, 0}, {}, 4).bytes, 8);
  EXPECT_EQ(Sizes({16}, {0}, {}, 4).bytes, 8);
  EXPECT_EQ(Sizes({3}, {0}, {}, 1).bytes, 1);
  EXPECT_EQ(Sizes({9}, {0}, {}, 1).bytes, 2);
  // bf16 seed shape: no padding, 2 bytes an element.
  EXPECT_EQ(
      Sizes({8, 1, 1280, 16384}, {3, 2, 0, 1}, {{8, 128}, {2, 1}}, 16).bytes,
      int64_t{8} * 1280 * 16384 * 2);
}

TEST(LayoutSizesTest, ReportsOverflowAndBadParameters) {
  EXPECT_THAT(PackedByteSize(int64_t{1} << 62, 32).status().message(),
              HasSubstr("overflow int64 when counted in bytes"));
  // Counted in bytes, not bits: 2^62 one-byte elements are 2^65 bits but
  // 2^62 bytes, as XLA's ShapeUtil::ByteSizeOf counts them; 2^63 - 1
  // elements of 4 bits are ceil((2^63 - 1) / 2) = 2^62 bytes, and
  // 2^63 - 1 bytes is the largest size.
  EXPECT_EQ(*PackedByteSize(int64_t{1} << 62, 8), int64_t{1} << 62);
  const int64_t max = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(*PackedByteSize(max, 4), int64_t{1} << 62);
  EXPECT_EQ(*PackedByteSize(max, 8), max);
  EXPECT_FALSE(PackedByteSize(max, 9).ok());
  EXPECT_FALSE(PackedByteSize((int64_t{1} << 62) + 1, 16).ok());
  EXPECT_THAT(ApplyTailPadding((int64_t{1} << 62) + 1, int64_t{1} << 62)
                  .status()
                  .message(),
              HasSubstr("overflow"));
  EXPECT_THAT(ApplyTailPadding(10, -4).status().message(),
              HasSubstr("L(-4) is negative"));
  EXPECT_THAT(PackedByteSize(10, -1).status().message(),
              HasSubstr("E(-1) is negative"));
}

}  // namespace
}  // namespace xla_index
