// reverse: both directions, the attribute check, malformed attributes.

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ReverseIndexingTest = OpIndexingTest;

// XLA's indexing-analysis documentation, "Reverse".
constexpr absl::string_view kReverse = R"(
p0 = f32[1, 17, 9, 9] parameter(0)
reverse = f32[1, 17, 9, 9] reverse(p0), dimensions={1, 2}
)";
constexpr absl::string_view kReverseMap = R"(
(d0, d1, d2, d3) -> (d0, -d1 + 16, -d2 + 8, d3)
domain:
d0 in [0, 0]
d1 in [0, 16]
d2 in [0, 8]
d3 in [0, 8])";

TEST_F(ReverseIndexingTest, OutputToInput) {
  EXPECT_THAT(AnalyzeOutputToInput(kReverse),
              ElementsAre(ElementsAre(Text(kReverseMap))));
}

TEST_F(ReverseIndexingTest, InputToOutput) {
  EXPECT_THAT(AnalyzeInputToOutput(kReverse),
              ElementsAre(ElementsAre(Text(kReverseMap))));
}

TEST_F(ReverseIndexingTest, AttributeCheckAcceptsVerifiedReverse) {
  ExpectVerifiedRootPasses(R"(
p0 = f32[2,3] parameter(0)
r = f32[2,3] reverse(p0), dimensions={1})",
                           IsValidReverse);
}

// Accepted by one direction before both shared one check.
TEST_F(ReverseIndexingTest, ToAnotherRankIsUndefined) {
  HloInstruction* r =
      Add(HloOpcode::kReverse, Shape(PrimitiveType::kF32, {2, 3, 1}),
          {Parameter({2, 3})});
  r->set_dimensions({0});
  EXPECT_FALSE(IsValidReverse(r));
  ExpectUndefined(r);
}

}  // namespace
}  // namespace xla_index
