// transpose: both directions, the shape-only map, the attribute check,
// malformed attributes.

#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/op_test_util.h"
#include "xla_index/ops/shape_maps.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using TransposeIndexingTest = OpIndexingTest;

// XLA's indexing-analysis documentation, "Transpose".
constexpr absl::string_view kTranspose = R"(
p0 = f32[3, 12288, 6, 128] parameter(0)
transpose = f32[3, 6, 128, 12288] transpose(p0), dimensions={0, 2, 3, 1}
)";

TEST_F(TransposeIndexingTest, OutputToInput) {
  EXPECT_THAT(AnalyzeOutputToInput(kTranspose), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2, d3) -> (d0, d3, d1, d2)
domain:
d0 in [0, 2]
d1 in [0, 5]
d2 in [0, 127]
d3 in [0, 12287])"))));
}

TEST_F(TransposeIndexingTest, InputToOutput) {
  EXPECT_THAT(AnalyzeInputToOutput(kTranspose), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2, d3) -> (d0, d2, d3, d1)
domain:
d0 in [0, 2]
d1 in [0, 12287]
d2 in [0, 5]
d3 in [0, 127])"))));
}

TEST_F(TransposeIndexingTest, InversePermutation) {
  EXPECT_THAT(InversePermutation(std::vector<int64_t>{0, 2, 3, 1}),
              ElementsAre(0, 3, 1, 2));
}

TEST_F(TransposeIndexingTest, AttributeCheckAcceptsVerifiedTranspose) {
  ExpectVerifiedRootPasses(R"(
p0 = f32[2,3] parameter(0)
t = f32[3,2] transpose(p0), dimensions={1,0})",
                           IsValidTranspose);
}

TEST_F(TransposeIndexingTest, RepeatedDimensionIsUndefined) {
  HloInstruction* t =
      Add(HloOpcode::kTranspose, Shape(PrimitiveType::kF32, {2, 3}),
          {Parameter({3, 2})});
  t->set_dimensions({0, 0});
  ExpectUndefined(t);
}

// Accepted by one direction before both shared one check.
TEST_F(TransposeIndexingTest, ToAnotherRankIsUndefined) {
  HloInstruction* t =
      Add(HloOpcode::kTranspose, Shape(PrimitiveType::kF32, {3, 2, 1}),
          {Parameter({2, 3})});
  t->set_dimensions({1, 0});
  EXPECT_FALSE(IsValidTranspose(t));
  ExpectUndefined(t);
}

}  // namespace
}  // namespace xla_index
