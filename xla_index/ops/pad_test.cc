// pad: both directions, the attribute check, malformed attributes.

#include <cstdint>
#include <limits>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/op_test_util.h"
#include "xla_index/ops/shape_maps.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
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

// The verifier accepts interior padding INT64_MAX next to a single element
// (it pads nothing): interior + 1 does not fit in int64 but is not needed,
// so the maps are those of interior padding 0 (undefined behaviour before).
TEST_F(PadIndexingTest, InteriorInt64MaxOfOneElementPadsNothing) {
  constexpr absl::string_view kHlo = R"(
p0 = f32[1] parameter(0)
c = f32[] constant(0)
p = f32[3] pad(p0, c), padding=2_0_9223372036854775807)";
  constexpr absl::string_view kNoInterior = R"(
p0 = f32[1] parameter(0)
c = f32[] constant(0)
p = f32[3] pad(p0, c), padding=2_0_0)";
  ASSERT_TRUE(ParseAndVerifyHloModule(kHlo).ok());
  EXPECT_EQ(AnalyzeOutputToInput(kHlo), AnalyzeOutputToInput(kNoInterior));
  EXPECT_EQ(AnalyzeInputToOutput(kHlo), AnalyzeInputToOutput(kNoInterior));
  // Output 2 reads operand element 0, which feeds output 2.
  EXPECT_THAT(AnalyzeOutputToInput(kHlo)[0], ElementsAre(Text(R"(
(d0) -> (0)
domain:
d0 in [2, 2])")));
  EXPECT_THAT(AnalyzeInputToOutput(kHlo)[0], ElementsAre(Text(R"(
(d0) -> (2)
domain:
d0 in [0, 0])")));
}

// Unverified: the padded size fits (low + high cancel) but the last operand
// element's position, low + (size - 1) * (interior + 1), does not: the
// operand's map is UNDEFINED with that reason (undefined behaviour before);
// the padding value keeps its map.
TEST_F(PadIndexingTest, LastElementBeyondInt64IsUndefinedWithAReason) {
  const HloInstruction* root = Parse(R"(
p0 = s8[2] parameter(0)
c = s8[] constant(0)
p = s8[9223372036854775804] pad(p0, c),
  padding=10_-10_9223372036854775802)");
  ASSERT_NE(root, nullptr);
  ASSERT_TRUE(IsValidPad(root));
  const std::string reason =
      "pad 'p': low + (size - 1) * (interior + 1) of dimension 0 does not "
      "fit in int64";
  HloInstructionIndexing out_to_in =
      ComputeOutputToInputIndexing(root, 0, &context_);
  ASSERT_EQ(out_to_in.indexing_maps.size(), 2);
  EXPECT_EQ(out_to_in.indexing_maps[0][0].undefined_reason(), reason);
  EXPECT_FALSE(out_to_in.indexing_maps[1][0].IsUndefined());
  HloInstructionIndexing in_to_out =
      ComputeInputToOutputIndexing(root, 0, &context_);
  EXPECT_EQ(in_to_out.indexing_maps[0][0].undefined_reason(), reason);
}

// The shape-only map says the same, without an instruction name.
TEST_F(PadIndexingTest, ShapeMapBeyondInt64IsUndefinedWithAReason) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(
      ComputePadIndexingMap({2}, {PadDimension{10, -10, kMax - 5}}, &context_)
          .undefined_reason(),
      "pad: low + (size - 1) * (interior + 1) of dimension 0 does not "
      "fit in int64");
  EXPECT_EQ(ComputePadIndexingMap(
                {2}, {PadDimension{std::numeric_limits<int64_t>::min(), 0, 0}},
                &context_)
                .undefined_reason(),
            "pad: -low of dimension 0 does not fit in int64");
}

// The padded size itself does not fit: the attributes cannot fit the
// output (undefined behaviour in the attribute check before).
TEST_F(PadIndexingTest, PaddedSizeBeyondInt64IsUndefined) {
  const HloInstruction* root = Parse(R"(
p0 = f32[2] parameter(0)
c = f32[] constant(0)
p = f32[4] pad(p0, c), padding=0_0_9223372036854775807)");
  ASSERT_NE(root, nullptr);
  EXPECT_FALSE(IsValidPad(root));
  ExpectUndefined(root);
}

}  // namespace
}  // namespace xla_index
