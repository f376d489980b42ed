// slice: both directions, the attribute check, malformed attributes.

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using SliceIndexingTest = OpIndexingTest;

// XLA's indexing-analysis documentation, "Slice".
constexpr absl::string_view kSlice = R"(
p0 = f32[10, 20, 50] parameter(0)
slice = f32[5, 3, 25] slice(f32[10, 20, 50] p0),
  slice={[5:10:1], [3:20:7], [0:50:2]}
)";

TEST_F(SliceIndexingTest, OutputToInput) {
  EXPECT_THAT(AnalyzeOutputToInput(kSlice), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d0 + 5, d1 * 7 + 3, d2 * 2)
domain:
d0 in [0, 4]
d1 in [0, 2]
d2 in [0, 24])"))));
}

TEST_F(SliceIndexingTest, InputToOutput) {
  EXPECT_THAT(AnalyzeInputToOutput(kSlice), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2)
domain:
d0 in [5, 9]
d1 in [3, 17]
d2 in [0, 48]
(d1 - 3) mod 7 in [0, 0]
d2 mod 2 in [0, 0])"))));
}

TEST_F(SliceIndexingTest, AttributeCheckAcceptsVerifiedSlice) {
  ExpectVerifiedRootPasses(R"(
p0 = f32[6,4] parameter(0)
s = f32[3,2] slice(p0), slice={[0:6:2], [1:3]})",
                           IsValidSlice);
}

TEST_F(SliceIndexingTest, ZeroStrideIsUndefined) {
  HloInstruction* s =
      Add(HloOpcode::kSlice, Shape(PrimitiveType::kF32, {2}), {Parameter({6})});
  s->set_slice({SliceDimension{0, 6, 0}});
  ExpectUndefined(s);
}

// Accepted by one direction before both shared one check.
TEST_F(SliceIndexingTest, OperandOfAnotherRankIsUndefined) {
  HloInstruction* s = Add(HloOpcode::kSlice, Shape(PrimitiveType::kF32, {2}),
                          {Parameter({6, 1})});
  s->set_slice({SliceDimension{0, 2, 1}});
  EXPECT_FALSE(IsValidSlice(s));
  ExpectUndefined(s);
}

// Attributes near INT64_MAX (the verifier rejects them; AnalyzeIndexing
// must not): the last element read, start + (size - 1) * stride, does not
// fit in int64, so both directions are UNDEFINED with that reason instead of
// a wrapped bound (undefined behaviour before).
TEST_F(SliceIndexingTest, LastElementBeyondInt64IsUndefinedWithAReason) {
  for (absl::string_view hlo : {R"(
p0 = f32[10] parameter(0)
s = f32[3] slice(p0), slice={[0:10:4611686018427387904]})",
                                R"(
p0 = f32[10] parameter(0)
s = f32[2] slice(p0), slice={[9223372036854775807:10:1]})"}) {
    const HloInstruction* root = Parse(hlo);
    ASSERT_NE(root, nullptr);
    const std::string reason =
        "slice 's': start + (size - 1) * stride of dimension 0 does not fit "
        "in int64";
    EXPECT_EQ(ComputeOutputToInputIndexing(root, 0, &context_)
                  .indexing_maps[0][0]
                  .undefined_reason(),
              reason);
    EXPECT_EQ(ComputeInputToOutputIndexing(root, 0, &context_)
                  .indexing_maps[0][0]
                  .undefined_reason(),
              reason);
    ExpectUndefined(root);
  }
}

}  // namespace
}  // namespace xla_index
