#include "layout/shape_layout.h"

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/shape.h"
#include "layout/layout_sizes.h"
#include "layout/tiled_layout.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Shape Parse(const std::string& text) {
  absl::StatusOr<Shape> shape = ParseShape(text);
  EXPECT_TRUE(shape.ok()) << text << ": " << shape.status();
  return *shape;
}

LayoutSizes SizesOf(const std::string& text) {
  absl::StatusOr<LayoutSizes> sizes = ShapeLayoutSizes(Parse(text));
  EXPECT_TRUE(sizes.ok()) << text << ": " << sizes.status();
  return sizes.ok() ? *sizes : LayoutSizes{};
}

TEST(ShapeLayoutTest, SeedFigure1FromText) {
  absl::StatusOr<TiledLayout> layout =
      TiledLayoutOf(Parse("F32[3,5]{1,0:T(2,2)}"));
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_EQ(layout->LinearIndex({2, 3}), 17);
}

TEST(ShapeLayoutTest, SeedFigure2FromText) {
  absl::StatusOr<TiledLayout> layout =
      TiledLayoutOf(Parse("f32[4,8]{1,0:T(2,4)(2,1)}"));
  ASSERT_TRUE(layout.ok()) << layout.status();
  for (int64_t j = 0; j < 8; ++j) {
    EXPECT_EQ(layout->LinearIndex({0, j}), 2 * j);
    EXPECT_EQ(layout->LinearIndex({1, j}), 2 * j + 1);
  }
}

TEST(ShapeLayoutTest, SeedCombinedTileFromText) {
  absl::StatusOr<TiledLayout> layout =
      TiledLayoutOf(Parse("F32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}"));
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_THAT(layout->physical_dimensions(), ElementsAre(56, 37, 2, 3));
}

TEST(ShapeLayoutTest, NoLayoutMeansMajorToMinor) {
  absl::StatusOr<TiledLayout> layout = TiledLayoutOf(Parse("f32[2,3,4]"));
  ASSERT_TRUE(layout.ok());
  EXPECT_THAT(layout->minor_to_major(), ElementsAre(2, 1, 0));
  EXPECT_EQ(WithDefaultLayout(Parse("f32[2,3]")).ToString(), "f32[2,3]{1,0}");
}

TEST(ShapeLayoutTest, MinorToMajorOrDefault) {
  EXPECT_THAT(MinorToMajorOrDefault(Parse("f32[2,3,4]")), ElementsAre(2, 1, 0));
  EXPECT_THAT(MinorToMajorOrDefault(Parse("f32[2,3,4]{0,2,1}")),
              ElementsAre(0, 2, 1));
  EXPECT_TRUE(MinorToMajorOrDefault(Parse("f32[]")).empty());
}

// A dynamic dimension `<=n` is laid out at its bound n.
TEST(ShapeLayoutTest, DynamicDimensionsUseTheirBound) {
  absl::StatusOr<TiledLayout> layout =
      TiledLayoutOf(Parse("f32[<=5,3]{1,0:T(2,2)}"));
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_THAT(layout->dimensions(), ElementsAre(5, 3));
  EXPECT_EQ(layout->tiled_element_count(), 6 * 4);
  EXPECT_EQ(SizesOf("f32[<=5,3]{1,0:T(2,2)}").bytes, 96);
}

TEST(ShapeLayoutTest, SizesOfSeedShapes) {
  // 48 MiB of data occupying 6 GiB: the minor dimension pads 1 -> 128.
  LayoutSizes narrow = SizesOf("u32[12582912,1]{1,0:T(8,128)}");
  EXPECT_EQ(narrow.elements, 12582912);
  EXPECT_EQ(narrow.padded_elements, int64_t{12582912} * 128);
  EXPECT_EQ(narrow.bytes, int64_t{6} << 30);

  LayoutSizes bf16 = SizesOf("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}");
  EXPECT_EQ(bf16.padded_elements, bf16.elements);
  EXPECT_EQ(bf16.bytes, 2 * bf16.elements);

  // bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}: VMEM, no padding.
  Shape vmem = Parse("bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}");
  EXPECT_EQ(vmem.layout().memory_space, 1);
  EXPECT_EQ(ShapeLayoutSizes(vmem)->bytes, 32 * 32 * 4096 * 2);
}

TEST(ShapeLayoutTest, ElementSizeAndTailPadding) {
  EXPECT_EQ(SizesOf("s4[3,5]{1,0:E(4)}").bytes, 8);  // 60 bits
  EXPECT_EQ(SizesOf("s4[3,5]{1,0}").bytes, 15);      // unpacked: a byte each
  EXPECT_EQ(SizesOf("pred[10]{0}").bytes, 10);
  EXPECT_EQ(SizesOf("f32[3,5]{1,0:T(2,2)L(16)}").padded_elements, 32);
  EXPECT_EQ(SizesOf("f32[3,5]{1,0:T(2,2)L(16)}").bytes, 128);
  EXPECT_EQ(SizesOf("f32[]").bytes, 4);
}

// Two size conventions. `bytes` applies every tile; XLA's
// ShapeUtil::ArraySize pads only to the first tile and counts a split
// dimension at its largest piece.
//  f32[4,4,4,4]{3,2,1,0:T(42,123)(4,5)L(100)E(42)}:
//   bytes: (4,4,4,4) -T(42,123)-> (4,4,1,1,42,123) -T(4,5)->
//     (4,4,1,1,11,25,4,5) = 88000 elements, L(100) keeps 88000,
//     88000 * 42 bits / 8 = 462000.
//   ArraySize: RoundUp(4,123) * RoundUp(4,42) * 4 * 4 = 123*42*16 = 82656,
//     L(100) -> 82700, 82700 * 42 / 8 = 434175.
//  pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}: SC(1:...) names major position
//   1, dimension 1, split into 200 + 256.
//   bytes: 62 * 4 tiles of 2x128 = 124 * 512 = 63488 (1 byte a pred).
//   ArraySize: RoundUp(256,128) * RoundUp(123,2) = 256 * 124 = 31744.
TEST(ShapeLayoutTest, XlaArraySizeAppliesOnlyTheFirstTileAndLargestSplit) {
  LayoutSizes tiled =
      SizesOf("f32[4,4,4,4]{3,2,1,0:T(42,123)(4,5)L(100)E(42)}");
  EXPECT_EQ(tiled.bytes, 462000);
  EXPECT_EQ(tiled.xla_array_size_bytes, 434175);
  LayoutSizes split = SizesOf("pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}");
  EXPECT_EQ(split.bytes, 63488);
  EXPECT_EQ(split.xla_array_size_bytes, 31744);
  // Without tiles ArraySize is the element bytes, with no tail padding:
  // 15 * 4 = 60, where L(8) pads `bytes` to 16 * 4 = 64.
  LayoutSizes untiled = SizesOf("f32[3,5]{1,0:L(8)}");
  EXPECT_EQ(untiled.bytes, 64);
  EXPECT_EQ(untiled.xla_array_size_bytes, 60);
  // A first tile of higher rank reads the missing dimensions as 1:
  // f32[3]{0:T(8,128)}: RoundUp(3,128) * RoundUp(1,8) = 1024 elements,
  // 4096 bytes either way; u32[]{:T(128)}: 128 * 4 = 512; s32[]{:T(256)}:
  // 256 * 4 = 1024.
  EXPECT_EQ(SizesOf("f32[3]{0:T(8,128)}").bytes, 4096);
  EXPECT_EQ(SizesOf("f32[3]{0:T(8,128)}").xla_array_size_bytes, 4096);
  EXPECT_EQ(SizesOf("u32[]{:T(128)}").bytes, 512);
  EXPECT_EQ(SizesOf("u32[]{:T(128)}").xla_array_size_bytes, 512);
  EXPECT_EQ(SizesOf("s32[]{:T(256)}").xla_array_size_bytes, 1024);
  // f32[8]{0:T(2,2)}: (1,8) tiled to (1,4,2,2), 16 elements, 64 bytes.
  EXPECT_EQ(SizesOf("f32[8]{0:T(2,2)}").bytes, 64);
  EXPECT_EQ(SizesOf("f32[8]{0:T(2,2)}").xla_array_size_bytes, 64);
}

TEST(ShapeLayoutTest, MaxSplitSizeIsTheLargestPiece) {
  // SC(0:...) is major position 0: dimension 0 under {1,0}, dimension 1
  // under {0,1}. Pieces of 16 at 4, 8: 4, 4, 8.
  EXPECT_EQ(MaxSplitSize(Parse("f32[16,16]{1,0:SC(0:4,8)}"), 0), 8);
  EXPECT_EQ(MaxSplitSize(Parse("f32[16,16]{1,0:SC(0:4,8)}"), 1), 16);
  EXPECT_EQ(MaxSplitSize(Parse("f32[16,10]{0,1:SC(0:7)}"), 1), 7);
}

// XLA's LayoutUtil::ValidateLayoutForShape: sparse-only attributes on a
// dense layout, and split configs outside the layout, are errors naming
// the attribute.
TEST(ShapeLayoutTest, RejectsSparseAttributesAndBadSplitsOnDenseLayouts) {
  auto error = [](const std::string& text) {
    return std::string(TiledLayoutOf(Parse(text)).status().message());
  };
  EXPECT_THAT(error("f32[4,4]{0,1:SC(0:5)}"),
              HasSubstr("split config 0 SC(0:...) of f32[4,4]{0,1:SC(0:5)}: "
                        "split index 5 is out of range"));
  EXPECT_THAT(error("f32[4,4]{1,0:SC(2:1)}"), HasSubstr("names dimension 2"));
  EXPECT_THAT(error("f32[8,4]{1,0:SC(0:4,2)}"),
              HasSubstr("split index 2 is out of range"));
  EXPECT_THAT(error("f32[8,4]{1,0:SC(0:0)}"),
              HasSubstr("split index 0 is out of range"));
  EXPECT_THAT(error("f32[4]{0:#(u32)}"),
              HasSubstr("an index primitive type #(u32)"));
  EXPECT_THAT(error("f32[4]{0:*(u16)}"),
              HasSubstr("a pointer primitive type *(u16)"));
  EXPECT_THAT(error("f32[16]{0:P(s32[4]{0})}"),
              HasSubstr("a physical shape P(...)"));
  // Valid splits pass.
  EXPECT_TRUE(TiledLayoutOf(Parse("f32[16,16]{1,0:SC(0:4,8)(1:2)}")).ok());
}

TEST(ShapeLayoutTest, RejectsWhatIsNotALayoutOfAnArray) {
  EXPECT_THAT(TiledLayoutOf(Parse("(f32[2], s32[])")).status().message(),
              HasSubstr("needs an array shape"));
  // A tile of rank 5 on the rank-4 shape (2,2,2,4) after T(2,4) pads it to
  // (1,2,2,2,4): tiled (1,2,2,2,4,2,1,1,1,1), 64 positions.
  absl::StatusOr<TiledLayout> higher =
      TiledLayoutOf(Parse("f32[4,8]{1,0:T(2,4)(2,1,1,1,1)}"));
  ASSERT_TRUE(higher.ok()) << higher.status();
  EXPECT_EQ(higher->tiled_element_count(), 64);
  // 2^62 + 1 elements fit in int64; padded to two tiles of 2^62 they do not.
  EXPECT_THAT(ShapeLayoutSizes(Parse("f32[4611686018427387905]{0:T("
                                     "4611686018427387904)}"))
                  .status()
                  .message(),
              HasSubstr("overflows"));
  // 2^61 elements fit, but not their 2^66 bits.
  EXPECT_THAT(
      ShapeLayoutSizes(Parse("f32[2305843009213693952]")).status().message(),
      HasSubstr("overflow"));
}

}  // namespace
}  // namespace xla_index
