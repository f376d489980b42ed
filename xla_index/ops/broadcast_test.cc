// broadcast: both directions, the attribute check, malformed attributes.

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using BroadcastIndexingTest = OpIndexingTest;

// XLA's indexing-analysis documentation, "Broadcast".
constexpr absl::string_view kBroadcast = R"(
p0 = f32[20] parameter(0)
bc0 = f32[10, 20, 30] broadcast(p0), dimensions={1}
)";

TEST_F(BroadcastIndexingTest, OutputToInput) {
  EXPECT_THAT(AnalyzeOutputToInput(kBroadcast), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d1)
domain:
d0 in [0, 9]
d1 in [0, 19]
d2 in [0, 29])"))));
}

TEST_F(BroadcastIndexingTest, InputToOutput) {
  EXPECT_THAT(AnalyzeInputToOutput(kBroadcast), ElementsAre(ElementsAre(Text(R"(
(d0)[s0, s1] -> (s0, d0, s1)
domain:
d0 in [0, 19]
s0 in [0, 9]
s1 in [0, 29])"))));
}

TEST_F(BroadcastIndexingTest, AttributeCheckAcceptsVerifiedBroadcast) {
  ExpectVerifiedRootPasses(R"(
p0 = f32[3] parameter(0)
b = f32[2,3] broadcast(p0), dimensions={1})",
                           IsValidBroadcast);
}

TEST_F(BroadcastIndexingTest, DimensionOutOfRangeIsUndefined) {
  HloInstruction* b = Add(HloOpcode::kBroadcast,
                          Shape(PrimitiveType::kF32, {2, 3}), {Parameter({3})});
  b->set_dimensions({7});
  ExpectUndefined(b);
}

// Accepted by one direction before both shared one check.
TEST_F(BroadcastIndexingTest, RepeatedDimensionIsUndefined) {
  HloInstruction* b =
      Add(HloOpcode::kBroadcast, Shape(PrimitiveType::kF32, {2, 3}),
          {Parameter({3, 3})});
  b->set_dimensions({1, 1});
  EXPECT_FALSE(IsValidBroadcast(b));
  ExpectUndefined(b);
}

}  // namespace
}  // namespace xla_index
