#include "layout/layout_indexing_map.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/shape.h"
#include "layout/index_util.h"
#include "layout/random_layouts.h"
#include "layout/tiled_layout.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Optional;

constexpr int64_t kStar = kCombineDimension;

class LayoutIndexingMapTest : public ::testing::Test {
 protected:
  TiledLayout MakeLayout(std::vector<int64_t> dims,
                         std::vector<int64_t> minor_to_major,
                         std::vector<std::vector<int64_t>> tiles) {
    absl::StatusOr<TiledLayout> layout =
        TiledLayout::Create(dims, minor_to_major, tiles);
    EXPECT_TRUE(layout.ok()) << layout.status();
    return *std::move(layout);
  }

  mlir::MLIRContext context_;
};

// Evaluates a map without symbols at a point.
std::vector<int64_t> At(const IndexingMap& map, std::vector<int64_t> dims) {
  std::optional<std::vector<int64_t>> results = map.Evaluate(dims, {});
  EXPECT_TRUE(results.has_value()) << ToString(map);
  return results.value_or(std::vector<int64_t>{});
}

// XLA's tiled-layout documentation, figure 1: F32[3,5]{1,0:T(2,2)}, element
// (2,3) at 17.
TEST_F(LayoutIndexingMapTest, SeedFigure1) {
  TiledLayout layout = MakeLayout({3, 5}, {1, 0}, {{2, 2}});
  IndexingMap linear = LogicalToLinearMap(layout, &context_);
  EXPECT_THAT(At(linear, {2, 3}), ElementsAre(17));
  // Simplified, the map is the documented formula: linear index of the tile in
  // the (2,3) tile grid times the tile volume 4, plus the index in the tile.
  EXPECT_EQ(AffineMapToString(linear.GetAffineMap()),
            "(d0, d1) -> ((d0 floordiv 2) * 12 + (d1 floordiv 2) * 4 + "
            "(d0 mod 2) * 2 + d1 mod 2)");
  EXPECT_EQ(linear.GetDimBound(0), (Interval{0, 2}));
  EXPECT_EQ(linear.GetDimBound(1), (Interval{0, 4}));

  IndexingMap physical = LogicalToPhysicalShapeMap(layout, &context_);
  EXPECT_THAT(At(physical, {2, 3}), ElementsAre(1, 1, 0, 1));

  IndexingMap inverse = LinearToLogicalMap(layout, &context_);
  EXPECT_THAT(At(inverse, {17}), ElementsAre(2, 3));
  EXPECT_EQ(inverse.GetDimBound(0), (Interval{0, 23}));
  // Position 2 is (0,1) of the first tile row: row 1 of tile (0,0) is real,
  // but position 22 is tile (1,2)'s second row, row 3: padding.
  EXPECT_TRUE(inverse.ConstraintsSatisfied({2}, {}));
  EXPECT_FALSE(inverse.ConstraintsSatisfied({22}, {}));
}

// XLA's tiled-layout documentation, figure 2: 4x8 tiled (2,4)(2,1): row 0 at 0,
// 2, ..., 14 and row 1 at 1, 3, ..., 15.
TEST_F(LayoutIndexingMapTest, SeedFigure2) {
  TiledLayout layout = MakeLayout({4, 8}, {1, 0}, {{2, 4}, {2, 1}});
  IndexingMap linear = LogicalToLinearMap(layout, &context_);
  IndexingMap inverse = LinearToLogicalMap(layout, &context_);
  for (int64_t j = 0; j < 8; ++j) {
    EXPECT_THAT(At(linear, {0, j}), ElementsAre(2 * j));
    EXPECT_THAT(At(linear, {1, j}), ElementsAre(2 * j + 1));
    EXPECT_THAT(At(inverse, {2 * j}), ElementsAre(0, j));
    EXPECT_THAT(At(inverse, {2 * j + 1}), ElementsAre(1, j));
  }
  // No padding: every position is an element, and the simplifier proves
  // it, leaving no constraint.
  for (int64_t p = 0; p < 32; ++p) {
    EXPECT_TRUE(inverse.ConstraintsSatisfied({p}, {})) << p;
  }
  EXPECT_EQ(inverse.GetConstraintsCount(), 0) << ToString(inverse);
}

// Without tiles, the map is the strided sum IndexUtil computes.
TEST_F(LayoutIndexingMapTest, UntiledLayoutIsAStridedSum) {
  TiledLayout layout = MakeLayout({2, 3, 4}, {0, 2, 1}, {});
  IndexingMap linear = LogicalToLinearMap(layout, &context_);
  // Strides: dim 0 is minor (1), then dim 2 (2), then dim 1 (8).
  EXPECT_EQ(AffineMapToString(linear.GetAffineMap()),
            "(d0, d1, d2) -> (d0 + d1 * 8 + d2 * 2)");
}

TEST_F(LayoutIndexingMapTest, ShapeOverloadUsesTheLayout) {
  absl::StatusOr<Shape> shape = ParseShape("f32[3,5]{1,0:T(2,2)}");
  ASSERT_TRUE(shape.ok());
  absl::StatusOr<IndexingMap> linear = LogicalToLinearMap(*shape, &context_);
  ASSERT_TRUE(linear.ok()) << linear.status();
  EXPECT_THAT(At(*linear, {2, 3}), ElementsAre(17));

  // A rank-3 tile pads (3,5) to (1,3,5): (2,3) -> (0,1,1,0,0,1) in
  // (1,2,3,2,2,2), linear 33 (TiledLayoutTest computes it).
  absl::StatusOr<Shape> higher = ParseShape("f32[3,5]{1,0:T(2,2,2)}");
  ASSERT_TRUE(higher.ok());
  absl::StatusOr<IndexingMap> higher_linear =
      LogicalToLinearMap(*higher, &context_);
  ASSERT_TRUE(higher_linear.ok()) << higher_linear.status();
  EXPECT_THAT(At(*higher_linear, {2, 3}), ElementsAre(33));
}

// An output-to-input map of a transpose, (d0, d1) -> (d1, d0), composed with
// the operand's layout gives the memory offset each output element reads.
TEST_F(LayoutIndexingMapTest, ComposeWithOperandLayout) {
  absl::StatusOr<Shape> operand = ParseShape("f32[3,5]{1,0:T(2,2)}");
  ASSERT_TRUE(operand.ok());
  mlir::AffineMap transpose = mlir::AffineMap::getPermutationMap(
      llvm::ArrayRef<unsigned>{1, 0}, &context_);
  IndexingMap output_to_operand =
      IndexingMap::FromTensorSizes(transpose, {5, 3}, {});
  absl::StatusOr<IndexingMap> offsets =
      ComposeWithLayout(output_to_operand, *operand);
  ASSERT_TRUE(offsets.ok()) << offsets.status();
  TiledLayout layout = MakeLayout({3, 5}, {1, 0}, {{2, 2}});
  for (int64_t i = 0; i < 5; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      EXPECT_THAT(At(*offsets, {i, j}),
                  ElementsAre(layout.LinearIndex({j, i})));
    }
  }
  absl::StatusOr<Shape> rank3 = ParseShape("f32[3,5,2]");
  EXPECT_THAT(ComposeWithLayout(output_to_operand, *rank3).status().message(),
              HasSubstr("2 results cannot index"));
}

// The slice of XLA's indexing-analysis documentation, output to input, composed
// with a tiled layout of the operand: each output element reads the memory
// offset of its input element.
TEST_F(LayoutIndexingMapTest, ComposeSeedSliceWithTiledOperand) {
  absl::StatusOr<IndexingMap> slice = ParseIndexingMap(
      "(d0, d1, d2) -> (d0 + 5, d1 * 7 + 3, d2 * 2)\n"
      "domain:\n"
      "d0 in [0, 4]\n"
      "d1 in [0, 2]\n"
      "d2 in [0, 24]",
      &context_);
  ASSERT_TRUE(slice.ok()) << slice.status();
  absl::StatusOr<Shape> operand = ParseShape("f32[10,20,50]{2,1,0:T(4,8)}");
  ASSERT_TRUE(operand.ok());
  absl::StatusOr<IndexingMap> offsets = ComposeWithLayout(*slice, *operand);
  ASSERT_TRUE(offsets.ok()) << offsets.status();
  TiledLayout layout = MakeLayout({10, 20, 50}, {2, 1, 0}, {{4, 8}});
  for (int64_t i = 0; i < 5; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      for (int64_t k = 0; k < 25; ++k) {
        ASSERT_TRUE(offsets->ConstraintsSatisfied({i, j, k}, {}));
        ASSERT_THAT(At(*offsets, {i, j, k}),
                    ElementsAre(layout.LinearIndex({i + 5, j * 7 + 3, k * 2})))
            << ToString(*offsets);
      }
    }
  }
}

// The reduce of XLA's indexing-analysis documentation, output to input (d0)[s0]
// -> (s0, d0), composed with a column-major tiled operand: output element d0
// reads the offsets of the whole column d0, one for each value of the range
// variable s0.
TEST_F(LayoutIndexingMapTest, ComposeSeedReduceWithTiledOperand) {
  absl::StatusOr<IndexingMap> reduce = ParseIndexingMap(
      "(d0)[s0] -> (s0, d0)\n"
      "domain:\n"
      "d0 in [0, 9]\n"
      "s0 in [0, 255]",
      &context_);
  ASSERT_TRUE(reduce.ok()) << reduce.status();
  absl::StatusOr<Shape> operand = ParseShape("f32[256,10]{0,1:T(2,128)}");
  ASSERT_TRUE(operand.ok());
  absl::StatusOr<IndexingMap> offsets = ComposeWithLayout(*reduce, *operand);
  ASSERT_TRUE(offsets.ok()) << offsets.status();
  absl::StatusOr<std::vector<IndexingPoint>> image = EnumerateImage(*offsets);
  ASSERT_TRUE(image.ok()) << image.status();

  TiledLayout layout = MakeLayout({256, 10}, {0, 1}, {{2, 128}});
  std::vector<IndexingPoint> expected;
  for (int64_t d0 = 0; d0 < 10; ++d0) {
    for (int64_t s0 = 0; s0 < 256; ++s0) {
      expected.push_back({{d0}, {layout.LinearIndex({s0, d0})}});
    }
  }
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(*image, expected) << ToString(*offsets);
}

// The layout map followed by its inverse is the identity on the logical
// domain; the simplifier proves it for the documented layouts (a size-1
// dimension may come out as the constant 0, its only value).
TEST_F(LayoutIndexingMapTest, LayoutThenInverseSimplifiesToIdentity) {
  const std::vector<TiledLayout> layouts = {
      MakeLayout({3, 5}, {1, 0}, {{2, 2}}),
      MakeLayout({4, 8}, {1, 0}, {{2, 4}, {2, 1}}),
      MakeLayout({8, 1, 1280, 16384}, {3, 2, 0, 1}, {{8, 128}, {2, 1}}),
  };
  for (const TiledLayout& layout : layouts) {
    IndexingMap through_memory =
        ComposeIndexingMaps(LogicalToLinearMap(layout, &context_),
                            LinearToLogicalMap(layout, &context_));
    through_memory.Simplify();
    IndexingMap through_physical_shape =
        ComposeIndexingMaps(LogicalToPhysicalShapeMap(layout, &context_),
                            PhysicalShapeToLogicalMap(layout, &context_));
    through_physical_shape.Simplify();
    for (const IndexingMap& map : {through_memory, through_physical_shape}) {
      ASSERT_EQ(map.GetResultCount(), layout.rank());
      for (int64_t i = 0; i < layout.rank(); ++i) {
        const mlir::AffineExpr result = map.GetAffineMap().getResult(i);
        if (layout.dimensions()[i] == 1) {
          EXPECT_TRUE(result == mlir::getAffineDimExpr(i, &context_) ||
                      result == mlir::getAffineConstantExpr(0, &context_))
              << ToString(map);
        } else {
          EXPECT_EQ(result, mlir::getAffineDimExpr(i, &context_))
              << ToString(map);
        }
      }
      EXPECT_EQ(map.GetConstraintsCount(), 0) << ToString(map);
    }
  }
}

// Property: on thousands of random (shape, layout) pairs, the maps agree
// with the index arithmetic on every element and every memory position.
TEST_F(LayoutIndexingMapTest, MapsAgreeWithIndexArithmeticOnRandomLayouts) {
  std::mt19937 rng(7);
  int checked = 0, with_padding = 0, repeated_tiles = 0, combined = 0;
  while (checked < 2000) {
    RandomLayoutCase c = RandomTiledLayoutCase(rng, /*max_rank=*/4,
                                               /*max_size=*/6, /*max_tiles=*/3,
                                               /*max_tile_size=*/4);
    absl::StatusOr<TiledLayout> layout =
        TiledLayout::Create(c.dims, c.minor_to_major, c.tiles);
    ASSERT_TRUE(layout.ok()) << c.ToString() << ": " << layout.status();
    if (layout->tiled_element_count() > 256) continue;
    ++checked;
    with_padding += layout->tiled_element_count() > layout->element_count();
    repeated_tiles += c.tiles.size() >= 2;
    for (const std::vector<int64_t>& tile : c.tiles) {
      if (absl::c_linear_search(tile, kStar)) {
        ++combined;
        break;
      }
    }

    IndexingMap linear = LogicalToLinearMap(*layout, &context_);
    IndexingMap physical = LogicalToPhysicalShapeMap(*layout, &context_);
    IndexingMap inverse = LinearToLogicalMap(*layout, &context_);
    IndexingMap physical_inverse =
        PhysicalShapeToLogicalMap(*layout, &context_);
    if (layout->element_count() == 0) continue;  // maps of an empty domain
    ASSERT_FALSE(linear.IsKnownEmpty()) << c.ToString();
    // On a sample of cases (composition costs more than the rest), the map
    // then its inverse gives every element back, by evaluation: a check of
    // the pair that does not depend on how far the simplifier gets.
    std::optional<IndexingMap> round_trip;
    if (checked % 8 == 0) {
      round_trip = ComposeIndexingMaps(linear, inverse);
      round_trip->Simplify();
    }

    for (int64_t e = 0; e < layout->element_count(); ++e) {
      std::vector<int64_t> index = RowMajorMultiIndex(c.dims, e);
      ASSERT_TRUE(linear.ConstraintsSatisfied(index, {})) << c.ToString();
      ASSERT_THAT(linear.Evaluate(index, {}),
                  Optional(ElementsAre(layout->LinearIndex(index))))
          << c.ToString() << "\n"
          << ToString(linear);
      ASSERT_EQ(physical.Evaluate(index, {}), layout->PhysicalIndex(index))
          << c.ToString() << "\n"
          << ToString(physical);
      if (round_trip) {
        ASSERT_TRUE(round_trip->ConstraintsSatisfied(index, {}))
            << c.ToString() << "\n"
            << ToString(*round_trip);
        ASSERT_EQ(round_trip->Evaluate(index, {}), index)
            << c.ToString() << "\n"
            << ToString(*round_trip);
      }
    }
    for (int64_t p = 0; p < layout->tiled_element_count(); ++p) {
      std::optional<std::vector<int64_t>> element = layout->LogicalIndex(p);
      ASSERT_EQ(inverse.ConstraintsSatisfied({p}, {}), element.has_value())
          << c.ToString() << " position " << p << "\n"
          << ToString(inverse);
      std::vector<int64_t> physical_index =
          RowMajorMultiIndex(layout->physical_dimensions(), p);
      ASSERT_EQ(physical_inverse.ConstraintsSatisfied(physical_index, {}),
                element.has_value())
          << c.ToString() << " position " << p << "\n"
          << ToString(physical_inverse);
      if (!element) continue;
      ASSERT_EQ(inverse.Evaluate({p}, {}), *element)
          << c.ToString() << " position " << p << "\n"
          << ToString(inverse);
      ASSERT_EQ(physical_inverse.Evaluate(physical_index, {}), *element)
          << c.ToString() << "\n"
          << ToString(physical_inverse);
    }
  }
  // The random cases exercise what they are meant to.
  EXPECT_GT(with_padding, 500);
  EXPECT_GT(repeated_tiles, 300);
  EXPECT_GT(combined, 300);
}

// Sizes near the int64 limits (TiledLayout::Create accepts a layout only
// when the products of its nonzero physical sizes fit, so every coefficient
// the maps fold fits too): the maps agree with the index arithmetic at the
// corners and at points in between, both directions.
TEST_F(LayoutIndexingMapTest, SizesNearTheInt64LimitsStayExact) {
  constexpr int64_t k2To30 = int64_t{1} << 30;
  struct Case {
    std::vector<int64_t> dims, minor_to_major;
    std::vector<std::vector<int64_t>> tiles;
  };
  const std::vector<Case> cases = {
      {{2 * k2To30, 2 * k2To30 - 1}, {1, 0}, {{k2To30, 1024}}},
      {{3, k2To30 * k2To30}, {1, 0}, {{2, k2To30 * k2To30}}},
      {{k2To30 * 4 - 1, 3, 5}, {0, 1, 2}, {{7, 2, 4}, {2}}},
      {{k2To30, 2 * k2To30, 3}, {2, 1, 0}, {{kStar, 4}}},
      {{(int64_t{1} << 62) - 1}, {0}, {{int64_t{1} << 61}}},
  };
  for (const Case& c : cases) {
    TiledLayout layout = MakeLayout(c.dims, c.minor_to_major, c.tiles);
    IndexingMap linear = LogicalToLinearMap(layout, &context_);
    IndexingMap inverse = LinearToLogicalMap(layout, &context_);
    const std::string name = absl::StrCat("dims ", absl::StrJoin(c.dims, ","),
                                          " tiles ", TilesToString(c.tiles));
    // Corners and two points in between of the logical index space.
    for (int corner = 0; corner < (1 << c.dims.size()) + 2; ++corner) {
      std::vector<int64_t> index;
      for (size_t k = 0; k < c.dims.size(); ++k) {
        int64_t d = c.dims[k];
        index.push_back(corner >= (1 << c.dims.size())
                            ? (d / (corner % 2 ? 3 : 7))
                            : ((corner >> k) & 1 ? d - 1 : 0));
      }
      ASSERT_THAT(linear.Evaluate(index, {}),
                  Optional(ElementsAre(layout.LinearIndex(index))))
          << name << "\n"
          << ToString(linear);
      int64_t p = layout.LinearIndex(index);
      ASSERT_EQ(inverse.Evaluate({p}, {}), index) << name << "\n"
                                                  << ToString(inverse);
      ASSERT_TRUE(inverse.ConstraintsSatisfied({p}, {})) << name;
    }
    // The last memory position: padding exactly when the layout says so.
    const int64_t last = layout.tiled_element_count() - 1;
    EXPECT_EQ(inverse.ConstraintsSatisfied({last}, {}),
              layout.LogicalIndex(last).has_value())
        << name << "\n"
        << ToString(inverse);
  }
}

}  // namespace
}  // namespace xla_index
