// pad: both directions, the attribute check, malformed attributes.

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using PadIndexingTest = OpIndexingTest;

// XLA's indexing-analysis documentation, "Pad".
constexpr absl::string_view kPad = R"(
p0 = f32[4, 4] parameter(0)
p1 = f32[] parameter(1)
pad = f32[12, 16] pad(p0, p1), padding=1_4_1x4_8_0
)";

TEST_F(PadIndexingTest, OutputToInput) {
  EXPECT_THAT(AnalyzeOutputToInput(kPad), ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> ((d0 - 1) floordiv 2, d1 - 4)
domain:
d0 in [1, 7]
d1 in [4, 7]
(d0 - 1) mod 2 in [0, 0])")),
                                                      ElementsAre(Text(R"(
(d0, d1) -> ()
domain:
d0 in [0, 11]
d1 in [0, 15])"))));
}

// Operand element (i, j) lands at (2i + 1, j + 4); the padding value feeds
// every output element.
TEST_F(PadIndexingTest, InputToOutput) {
  EXPECT_THAT(AnalyzeInputToOutput(kPad), ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d0 * 2 + 1, d1 + 4)
domain:
d0 in [0, 3]
d1 in [0, 3])")),
                                                      ElementsAre(Text(R"(
()[s0, s1] -> (s0, s1)
domain:
s0 in [0, 11]
s1 in [0, 15])"))));
}

// Negative edge padding removes elements: they feed nothing.
TEST_F(PadIndexingTest, InputToOutputOfNegativePadding) {
  EXPECT_THAT(InputToOutput(R"(
p0 = f32[6] parameter(0)
p1 = f32[] parameter(1)
pad = f32[3] pad(p0, p1), padding=-2_-1
)",
                            0),
              ElementsAre(ElementsAre(Text(R"(
(d0) -> (d0 - 2)
domain:
d0 in [2, 4])"))));
}

TEST_F(PadIndexingTest, AttributeCheckAcceptsVerifiedPad) {
  ExpectVerifiedRootPasses(R"(
p0 = f32[4] parameter(0)
c = f32[] constant(0)
p = f32[10] pad(p0, c), padding=1_2_1)",
                           IsValidPad);
}

TEST_F(PadIndexingTest, NegativeInteriorIsUndefined) {
  HloInstruction* p = Add(HloOpcode::kPad, Shape(PrimitiveType::kF32, {4}),
                          {Parameter({4}), Parameter({})});
  p->set_padding_config({PaddingDimension{0, 0, -1}});
  ExpectUndefined(p);
}

// Accepted by one direction before both shared one check.
TEST_F(PadIndexingTest, PaddingToTheWrongSizeIsUndefined) {
  // The padding makes 6 elements; the output has 5.
  HloInstruction* p = Add(HloOpcode::kPad, Shape(PrimitiveType::kF32, {5}),
                          {Parameter({4}), Parameter({})});
  p->set_padding_config({PaddingDimension{1, 1, 0}});
  EXPECT_FALSE(IsValidPad(p));
  ExpectUndefined(p);
}

TEST_F(PadIndexingTest, ArrayPaddingValueIsUndefined) {
  HloInstruction* p = Add(HloOpcode::kPad, Shape(PrimitiveType::kF32, {4}),
                          {Parameter({4}), Parameter({1})});
  p->set_padding_config({PaddingDimension{0, 0, 0}});
  EXPECT_FALSE(IsValidPad(p));
  ExpectUndefined(p);
}

}  // namespace
}  // namespace xla_index
