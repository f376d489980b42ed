// concatenate: both directions, the attribute check, malformed attributes.

#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ConcatenateIndexingTest = OpIndexingTest;

// XLA's indexing-analysis documentation, "Concatenate".
constexpr absl::string_view kConcat = R"(
p0 = f32[2, 5, 7] parameter(0)
p1 = f32[2, 11, 7] parameter(1)
p2 = f32[2, 17, 7] parameter(2)
ROOT concat = f32[2, 33, 7] concatenate(f32[2, 5, 7] p0, f32[2, 11, 7] p1, f32[2, 17, 7] p2), dimensions={1}
)";

TEST_F(ConcatenateIndexingTest, OutputToInput) {
  EXPECT_THAT(AnalyzeOutputToInput(kConcat), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d0, d1, d2)
domain:
d0 in [0, 1]
d1 in [0, 4]
d2 in [0, 6])")),
                                                         ElementsAre(Text(R"(
(d0, d1, d2) -> (d0, d1 - 5, d2)
domain:
d0 in [0, 1]
d1 in [5, 15]
d2 in [0, 6])")),
                                                         ElementsAre(Text(R"(
(d0, d1, d2) -> (d0, d1 - 16, d2)
domain:
d0 in [0, 1]
d1 in [16, 32]
d2 in [0, 6])"))));
}

TEST_F(ConcatenateIndexingTest, InputToOutput) {
  EXPECT_THAT(AnalyzeInputToOutput(kConcat), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d0, d1, d2)
domain:
d0 in [0, 1]
d1 in [0, 4]
d2 in [0, 6])")),
                                                         ElementsAre(Text(R"(
(d0, d1, d2) -> (d0, d1 + 5, d2)
domain:
d0 in [0, 1]
d1 in [0, 10]
d2 in [0, 6])")),
                                                         ElementsAre(Text(R"(
(d0, d1, d2) -> (d0, d1 + 16, d2)
domain:
d0 in [0, 1]
d1 in [0, 16]
d2 in [0, 6])"))));
}

TEST_F(ConcatenateIndexingTest, AttributeCheckAcceptsVerifiedConcatenate) {
  ExpectVerifiedRootPasses(R"(
p0 = f32[2,3] parameter(0)
p1 = f32[2,5] parameter(1)
c = f32[2,8] concatenate(p0, p1), dimensions={1})",
                           IsValidConcatenate);
}

// Accepted by one direction before both shared one check.
TEST_F(ConcatenateIndexingTest, OperandsThatDoNotFitAreUndefined) {
  // Along dimension 1 into f32[2, 8]: sizes adding up to 7, then an operand
  // that differs in dimension 0.
  for (const std::vector<int64_t>& second :
       {std::vector<int64_t>{2, 4}, std::vector<int64_t>{1, 5}}) {
    HloInstruction* c =
        Add(HloOpcode::kConcatenate, Shape(PrimitiveType::kF32, {2, 8}),
            {Parameter({2, 3}), Parameter(second)});
    c->set_dimensions({1});
    EXPECT_FALSE(IsValidConcatenate(c));
    ExpectUndefined(c);
  }
}

}  // namespace
}  // namespace xla_index
