// dynamic-slice (both directions) and dynamic-update-slice (output to
// input; no input-to-output rule), attribute checks, malformed attributes.

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using DynamicSliceIndexingTest = OpIndexingTest;

// XLA's indexing-analysis documentation, "DynamicSlice". The documentation
// prints "(d0, d1, d2)  -> ()" with two spaces in places; the map format
// has one.
TEST_F(DynamicSliceIndexingTest, OutputToInput) {
  constexpr absl::string_view kHlo = R"(
src = s32[2,2,258] parameter(0)
of1 = s32[] parameter(1)
of2 = s32[] parameter(2)
of3 = s32[] parameter(3)
ds = dynamic-slice(s32[2,2,258] src, s32[] of1, s32[] of2, s32[] of3), dynamic_slice_sizes={1, 2, 32}
)";
  std::string offset = Text(R"(
(d0, d1, d2) -> ()
domain:
d0 in [0, 0]
d1 in [0, 1]
d2 in [0, 31])");
  EXPECT_THAT(AnalyzeOutputToInput(kHlo),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2)[s0, s1, s2] -> (d0 + s0, d1 + s1, d2 + s2)
domain:
d0 in [0, 0]
d1 in [0, 1]
d2 in [0, 31]
s0 in [0, 1]
  hlo: of1 = s32[] parameter(1)
  (d0, d1, d2) -> ()
s1 in [0, 0]
  hlo: of2 = s32[] parameter(2)
  (d0, d1, d2) -> ()
s2 in [0, 226]
  hlo: of3 = s32[] parameter(3)
  (d0, d1, d2) -> ())")),
                          ElementsAre(offset), ElementsAre(offset),
                          ElementsAre(offset)));
}

TEST_F(DynamicSliceIndexingTest, InputToOutput) {
  // Operand element d lands at d - offset when that is inside the slice.
  EXPECT_THAT(InputToOutput(R"(
p0 = f32[8] parameter(0)
o = s32[] parameter(1)
ds = f32[2] dynamic-slice(p0, o), dynamic_slice_sizes={2}
)",
                            0),
              ElementsAre(ElementsAre(Text(R"(
(d0)[s0] -> (d0 - s0)
domain:
d0 in [0, 7]
s0 in [0, 6]
  hlo: o = s32[] parameter(1)
  (d0) -> ()
d0 - s0 in [0, 1])"))));
}

TEST_F(DynamicSliceIndexingTest, AttributeCheckAcceptsVerifiedDynamicSlice) {
  ExpectVerifiedRootPasses(R"(
p0 = f32[8] parameter(0)
o = s32[] parameter(1)
ds = f32[3] dynamic-slice(p0, o), dynamic_slice_sizes={3})",
                           IsValidDynamicSlice);
}

TEST_F(DynamicSliceIndexingTest, MissingOffsetsAreUndefined) {
  ExpectUndefined(Add(HloOpcode::kDynamicSlice,
                      Shape(PrimitiveType::kF32, {2, 2}),
                      {Parameter({4, 4}), Parameter({})}));
}

// Accepted by one direction before both shared one check.
TEST_F(DynamicSliceIndexingTest, NoOperandsAreUndefined) {
  HloInstruction* ds =
      Add(HloOpcode::kDynamicSlice, Shape(PrimitiveType::kF32, {2}), {});
  EXPECT_FALSE(IsValidDynamicSlice(ds));
  ExpectUndefined(ds);
}

using DynamicUpdateSliceIndexingTest = OpIndexingTest;

// XLA's indexing-analysis documentation, "DynamicUpdateSlice".
TEST_F(DynamicUpdateSliceIndexingTest, OutputToInput) {
  constexpr absl::string_view kHlo = R"(
src = s32[20,30] parameter(0)
upd = s32[5,10] parameter(1)
of1 = s32[] parameter(2)
of2 = s32[] parameter(3)
dus = s32[20,30] dynamic-update-slice(
    s32[20,30] src, s32[5,10] upd, s32[] of1, s32[] of2)
)";
  std::string offset = Text(R"(
(d0, d1) -> ()
domain:
d0 in [0, 19]
d1 in [0, 29])");
  EXPECT_THAT(AnalyzeOutputToInput(kHlo),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d0, d1)
domain:
d0 in [0, 19]
d1 in [0, 29])")),
                          ElementsAre(Text(R"(
(d0, d1)[s0, s1] -> (d0 - s0, d1 - s1)
domain:
d0 in [0, 19]
d1 in [0, 29]
s0 in [0, 15]
  hlo: of1 = s32[] parameter(2)
  (d0, d1) -> ()
s1 in [0, 20]
  hlo: of2 = s32[] parameter(3)
  (d0, d1) -> ())")),
                          ElementsAre(offset), ElementsAre(offset)));
}

// Input-to-output has no exact map for the operand of a
// dynamic-update-slice (which elements survive depends on the offsets).
TEST_F(DynamicUpdateSliceIndexingTest, InputToOutputIsUndefined) {
  EXPECT_THAT(InputToOutput(R"(
p0 = f32[8] parameter(0)
u = f32[3] parameter(1)
o = s32[] parameter(2)
dus = f32[8] dynamic-update-slice(p0, u, o)
)",
                            0),
              ElementsAre(ElementsAre("UNDEFINED")));
}

TEST_F(DynamicUpdateSliceIndexingTest, UpdateLargerThanTheOperandIsUndefined) {
  HloInstruction* dus =
      Add(HloOpcode::kDynamicUpdateSlice, Shape(PrimitiveType::kF32, {4}),
          {Parameter({4}), Parameter({5}), Parameter({})});
  EXPECT_FALSE(IsValidDynamicUpdateSlice(dus));
  ExpectUndefined(dus);
}

}  // namespace
}  // namespace xla_index
