// reshape and bitcast: both directions, the shape-only reshape map,
// malformed attributes.

#include <cstdint>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/ops/op_test_util.h"
#include "xla_index/ops/shape_maps.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ReshapeIndexingTest = OpIndexingTest;

// The examples of XLA's indexing-analysis documentation, "Reshape".
constexpr absl::string_view kCollapse = R"(
p0 = f32[4,8] parameter(0)
reshape = f32[32] reshape(p0)
)";
constexpr absl::string_view kExpand = R"(
p0 = f32[32] parameter(0)
reshape = f32[4, 8] reshape(p0)
)";
constexpr absl::string_view kDelinearize = R"(
(d0) -> (d0 floordiv 8, d0 mod 8)
domain:
d0 in [0, 31])";
constexpr absl::string_view kLinearize = R"(
(d0, d1) -> (d0 * 8 + d1)
domain:
d0 in [0, 3]
d1 in [0, 7])";

TEST_F(ReshapeIndexingTest, CollapseShapeOutputToInput) {
  EXPECT_THAT(AnalyzeOutputToInput(kCollapse),
              ElementsAre(ElementsAre(Text(kDelinearize))));
}

TEST_F(ReshapeIndexingTest, CollapseShapeInputToOutput) {
  EXPECT_THAT(AnalyzeInputToOutput(kCollapse),
              ElementsAre(ElementsAre(Text(kLinearize))));
}

TEST_F(ReshapeIndexingTest, ExpandShapeOutputToInput) {
  EXPECT_THAT(AnalyzeOutputToInput(kExpand),
              ElementsAre(ElementsAre(Text(kLinearize))));
}

TEST_F(ReshapeIndexingTest, ExpandShapeInputToOutput) {
  EXPECT_THAT(AnalyzeInputToOutput(kExpand),
              ElementsAre(ElementsAre(Text(kDelinearize))));
}

constexpr absl::string_view kGenericReshape1 = R"(
p0 = f32[4,8] parameter(0)
reshape = f32[2, 4, 4] reshape(p0)
)";

TEST_F(ReshapeIndexingTest, GenericLinearizeDelinearizeOutputToInput) {
  EXPECT_THAT(AnalyzeOutputToInput(kGenericReshape1),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d0 * 2 + d1 floordiv 2, d2 + (d1 mod 2) * 4)
domain:
d0 in [0, 1]
d1 in [0, 3]
d2 in [0, 3])"))));
}

TEST_F(ReshapeIndexingTest, GenericLinearizeDelinearizeInputToOutput) {
  EXPECT_THAT(AnalyzeInputToOutput(kGenericReshape1),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d0 floordiv 2, d1 floordiv 4 + (d0 mod 2) * 2, d1 mod 4)
domain:
d0 in [0, 3]
d1 in [0, 7])"))));
}

constexpr absl::string_view kGenericReshape2 = R"(
p0 = f32[4, 8, 12] parameter(0)
reshape = f32[32, 3, 4] reshape(p0)
)";

TEST_F(ReshapeIndexingTest, GenericSubshapesOutputToInput) {
  EXPECT_THAT(AnalyzeOutputToInput(kGenericReshape2),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d0 floordiv 8, d0 mod 8, d1 * 4 + d2)
domain:
d0 in [0, 31]
d1 in [0, 2]
d2 in [0, 3])"))));
}

TEST_F(ReshapeIndexingTest, GenericSubshapesInputToOutput) {
  EXPECT_THAT(AnalyzeInputToOutput(kGenericReshape2),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d0 * 8 + d1, d2 floordiv 4, d2 mod 4)
domain:
d0 in [0, 3]
d1 in [0, 7]
d2 in [0, 11])"))));
}

TEST_F(ReshapeIndexingTest, ShapeMapWithUnitDimensions) {
  // [1, 4] -> [4, 1]: the element (0, j) becomes (j, 0).
  mlir::AffineMap map = ComputeReshapeAffineMap({1, 4}, {4, 1}, &context_);
  IndexingMap indexing = ComputeReshapeIndexingMap({1, 4}, {4, 1}, &context_);
  for (int64_t j = 0; j < 4; ++j) {
    auto result = indexing.Evaluate({j, 0}, {});
    ASSERT_TRUE(result.has_value()) << AffineMapToString(map);
    EXPECT_THAT(*result, ElementsAre(0, j));
  }
}

TEST_F(ReshapeIndexingTest, ShapeMapWithDifferentElementCountsIsUndefined) {
  EXPECT_TRUE(ComputeReshapeIndexingMap({4, 8}, {31}, &context_).IsUndefined());
}

// Sizes whose product does not fit in int64 (an unverified shape): the map
// says so, rather than that the counts differ.
TEST_F(ReshapeIndexingTest, ElementCountBeyondInt64IsUndefinedWithAReason) {
  constexpr int64_t k2To62 = int64_t{1} << 62;
  EXPECT_EQ(ComputeReshapeIndexingMap({k2To62, 4}, {k2To62, 4}, &context_)
                .undefined_reason(),
            "reshape: an element count does not fit in int64");
}

// A zero size makes zero elements even when the other sizes multiply
// beyond int64: the map is that of any other zero-element reshape (it was
// UNDEFINED before).
TEST_F(ReshapeIndexingTest, ZeroElementsNextToHugeSizesAreZeroElements) {
  constexpr int64_t k2To62 = int64_t{1} << 62;
  IndexingMap huge = ComputeReshapeIndexingMap({k2To62, 4, 0}, {0}, &context_);
  EXPECT_FALSE(huge.IsUndefined()) << huge.undefined_reason();
  EXPECT_EQ(ToString(huge),
            ToString(ComputeReshapeIndexingMap({2, 4, 0}, {0}, &context_)));
}

TEST_F(ReshapeIndexingTest, ChangingTheElementCountIsUndefined) {
  ExpectUndefined(Add(HloOpcode::kReshape, Shape(PrimitiveType::kF32, {5}),
                      {Parameter({2, 3})}));
}

using BitcastIndexingTest = OpIndexingTest;

TEST_F(BitcastIndexingTest, WithLayoutsIsATranspose) {
  // Same physical order: f32[3, 6]{0, 1} stores column-major, which is the
  // row-major order of f32[6, 3].
  EXPECT_THAT(OutputToInput(R"(
p0 = f32[3, 6]{0, 1} parameter(0)
b = f32[6, 3]{1, 0} bitcast(p0)
)"),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d1, d0)
domain:
d0 in [0, 5]
d1 in [0, 2])"))));
}

TEST_F(BitcastIndexingTest, WithDefaultLayoutsIsAReshape) {
  EXPECT_THAT(OutputToInput(R"(
p0 = f32[4, 8] parameter(0)
b = f32[32] bitcast(p0)
)"),
              ElementsAre(ElementsAre(Text(R"(
(d0) -> (d0 floordiv 8, d0 mod 8)
domain:
d0 in [0, 31])"))));
  EXPECT_THAT(InputToOutput(R"(
p0 = f32[4, 8] parameter(0)
b = f32[32] bitcast(p0)
)",
                            0),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d0 * 8 + d1)
domain:
d0 in [0, 3]
d1 in [0, 7])"))));
}

}  // namespace
}  // namespace xla_index
