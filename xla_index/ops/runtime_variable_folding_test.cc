// Runtime variables with values known at compile time fold into the maps
// of dynamic-slice, dynamic-update-slice and gather; the others stay.

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/fusion_indexing.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using RuntimeVariableFoldingTest = OpIndexingTest;

// The dynamic-slice of f32[4096] p to f32[10] at offset `offset`, after the
// lines `lines` that compute it.
std::string SliceAt(absl::string_view lines, absl::string_view offset) {
  return absl::StrCat("p = f32[4096] parameter(0)\n", lines,
                      "\nds = f32[10] dynamic-slice(p, ", offset,
                      "), dynamic_slice_sizes={10}\n");
}

// The map of `ds`'s operand 0 (output to input).
std::string SliceMap(const std::vector<std::vector<std::string>>& maps) {
  if (maps.empty() || maps[0].size() != 1) return "no single map";
  return maps[0][0];
}

TEST_F(RuntimeVariableFoldingTest, ConstantOffsetFolds) {
  EXPECT_EQ(SliceMap(OutputToInput(SliceAt("c = s64[] constant(42)", "c"))),
            Text(R"(
(d0) -> (d0 + 42)
domain:
d0 in [0, 9])"));
}

// XLA clamps the start index into [0, 4096 - 10].
TEST_F(RuntimeVariableFoldingTest, ConstantBeyondTheRangeClampsToTheEnd) {
  EXPECT_EQ(SliceMap(OutputToInput(SliceAt("c = s32[] constant(5000)", "c"))),
            Text(R"(
(d0) -> (d0 + 4086)
domain:
d0 in [0, 9])"));
}

TEST_F(RuntimeVariableFoldingTest, NegativeConstantClampsToZero) {
  EXPECT_EQ(SliceMap(OutputToInput(SliceAt("c = s32[] constant(-3)", "c"))),
            Text(R"(
(d0) -> (d0)
domain:
d0 in [0, 9])"));
}

// Element 5 of an iota, through slice and reshape.
TEST_F(RuntimeVariableFoldingTest, IotaElementFolds) {
  EXPECT_EQ(SliceMap(OutputToInput(SliceAt(R"(
iota = s32[8] iota(), iota_dimension=0
five = s32[1] slice(iota), slice={[5:6]}
r = s32[] reshape(five))",
                                           "r"))),
            Text(R"(
(d0) -> (d0 + 5)
domain:
d0 in [0, 9])"));
}

// clamp(0, convert(broadcast(3)) * 2 + 1, 100) = 7.
TEST_F(RuntimeVariableFoldingTest, ChainOfScalarOpsFolds) {
  EXPECT_EQ(SliceMap(OutputToInput(SliceAt(R"(
three = s32[] constant(3)
b = s32[] broadcast(three), dimensions={}
cv = s64[] convert(b)
two = s64[] constant(2)
m = s64[] multiply(cv, two)
one = s64[] constant(1)
a = s64[] add(m, one)
lo = s64[] constant(0)
hi = s64[] constant(100)
cl = s64[] clamp(lo, a, hi))",
                                           "cl"))),
            Text(R"(
(d0) -> (d0 + 7)
domain:
d0 in [0, 9])"));
}

// subtract, negate and divide: -(10 - 40) / 4 = 7.
TEST_F(RuntimeVariableFoldingTest, SubtractNegateDivideFold) {
  EXPECT_EQ(SliceMap(OutputToInput(SliceAt(R"(
ten = s32[] constant(10)
forty = s32[] constant(40)
d = s32[] subtract(ten, forty)
n = s32[] negate(d)
four = s32[] constant(4)
q = s32[] divide(n, four))",
                                           "q"))),
            Text(R"(
(d0) -> (d0 + 7)
domain:
d0 in [0, 9])"));
}

// A parameter's value is not known: the runtime variable stays.
TEST_F(RuntimeVariableFoldingTest, ParameterOffsetDoesNotFold) {
  EXPECT_EQ(SliceMap(OutputToInput(SliceAt("o = s32[] parameter(1)", "o"))),
            Text(R"(
(d0)[s0] -> (d0 + s0)
domain:
d0 in [0, 9]
s0 in [0, 4086]
  hlo: o = s32[] parameter(1)
  (d0) -> ())"));
}

// A value computed from a parameter is not known either.
TEST_F(RuntimeVariableFoldingTest, ArithmeticOnAParameterDoesNotFold) {
  EXPECT_EQ(SliceMap(OutputToInput(SliceAt(R"(
o = s32[] parameter(1)
one = s32[] constant(1)
a = s32[] add(o, one))",
                                           "a"))),
            Text(R"(
(d0)[s0] -> (d0 + s0)
domain:
d0 in [0, 9]
s0 in [0, 4086]
  hlo: a = s32[] add(o, one)
  (d0) -> ())"));
}

// s8 100 + 100 wraps to -56 in HLO: the exact sum 200 is not the value.
TEST_F(RuntimeVariableFoldingTest, NarrowIntegerOverflowKeepsTheVariable) {
  std::string map = SliceMap(OutputToInput(SliceAt(R"(
c = s8[] constant(100)
a = s8[] add(c, c))",
                                                   "a")));
  EXPECT_THAT(map, ::testing::HasSubstr("s0 in [0, 4086]")) << map;
}

// int64 overflow in the folded arithmetic keeps the variable.
TEST_F(RuntimeVariableFoldingTest, Int64OverflowKeepsTheVariable) {
  std::string map = SliceMap(OutputToInput(SliceAt(R"(
c = s64[] constant(9223372036854775807)
one = s64[] constant(1)
a = s64[] add(c, one))",
                                                   "a")));
  EXPECT_THAT(map, ::testing::HasSubstr("s0 in [0, 4086]")) << map;
}

// Floats are not folded (conversions round).
TEST_F(RuntimeVariableFoldingTest, ConvertFromFloatKeepsTheVariable) {
  std::string map = SliceMap(OutputToInput(SliceAt(R"(
c = f32[] constant(3.5)
i = s32[] convert(c))",
                                                   "i")));
  EXPECT_THAT(map, ::testing::HasSubstr("s0 in [0, 4086]")) << map;
}

// One offset folds, the other stays.
TEST_F(RuntimeVariableFoldingTest, OnlyKnownOffsetsFold) {
  EXPECT_THAT(OutputToInput(R"(
p = f32[8,16] parameter(0)
c = s32[] constant(2)
o = s32[] parameter(1)
ds = f32[4,4] dynamic-slice(p, c, o), dynamic_slice_sizes={4,4}
)"),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1)[s0] -> (d0 + 2, d1 + s0)
domain:
d0 in [0, 3]
d1 in [0, 3]
s0 in [0, 12]
  hlo: o = s32[] parameter(1)
  (d0, d1) -> ())")),
                          ::testing::SizeIs(1), ::testing::SizeIs(1)));
}

// Input to output: element d feeds d - 42 where that is in the slice.
TEST_F(RuntimeVariableFoldingTest, DynamicSliceInputToOutputFolds) {
  EXPECT_THAT(InputToOutput(SliceAt("c = s64[] constant(42)", "c"), 0),
              ElementsAre(ElementsAre(Text(R"(
(d0) -> (d0 - 42)
domain:
d0 in [42, 51])"))));
}

TEST_F(RuntimeVariableFoldingTest, DynamicUpdateSliceFolds) {
  EXPECT_THAT(OutputToInput(R"(
src = s32[20,30] parameter(0)
upd = s32[5,10] parameter(1)
of1 = s32[] constant(3)
of2 = s32[] constant(25)
dus = s32[20,30] dynamic-update-slice(src, upd, of1, of2)
)"),
              ElementsAre(::testing::SizeIs(1), ElementsAre(Text(R"(
(d0, d1) -> (d0 - 3, d1 - 20)
domain:
d0 in [0, 19]
d1 in [0, 29])")),
                          ::testing::SizeIs(1), ::testing::SizeIs(1)));
}

// Inside a computation the folded map composes like any other: the
// dynamic-slice of a constant offset, then a transpose.
TEST_F(RuntimeVariableFoldingTest, FoldedOffsetComposesThroughAComputation) {
  const HloInstruction* root = Parse(R"(
f {
  p0 = f32[16,8] parameter(0)
  c = s32[] constant(5)
  z = s32[] constant(0)
  ds = f32[4,8] dynamic-slice(p0, c, z), dynamic_slice_sizes={4,8}
  ROOT t = f32[8,4] transpose(ds), dimensions={1,0}
}
)");
  ASSERT_NE(root, nullptr);
  HloInstructionIndexing indexing = ComputeComputationOutputToInputIndexing(
      *root->parent(), root, 0, &context_);
  EXPECT_THAT(Print(indexing), ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d1 + 5, d0)
domain:
d0 in [0, 7]
d1 in [0, 3])"))));
}

// A chain deeper than the folding visits keeps the variable (and returns).
TEST_F(RuntimeVariableFoldingTest, VeryDeepChainKeepsTheVariable) {
  std::string lines = "n0 = s32[] constant(1)";
  for (int i = 1; i <= 200; ++i) {
    absl::StrAppend(&lines, "\nn", i, " = s32[] negate(n", i - 1, ")");
  }
  std::string map = SliceMap(OutputToInput(SliceAt(lines, "n200")));
  EXPECT_THAT(map, ::testing::HasSubstr("s0 in [0, 4086]")) << map;
}

}  // namespace
}  // namespace xla_index
