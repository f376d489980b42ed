// reduce-window: both directions, the attribute check (the window getter),
// malformed attributes.

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ReduceWindowIndexingTest = OpIndexingTest;

// XLA's indexing-analysis documentation, "ReduceWindow".
TEST_F(ReduceWindowIndexingTest, OutputToInput) {
  constexpr absl::string_view kHlo = R"(
c_inf = f32[] constant(-inf)
p0 = f32[1024, 514] parameter(0)
reduce-window = f32[1024, 3] reduce-window(p0, c_inf),
  window={size=1x512 pad=0_0x0_0}, to_apply=max
)";
  EXPECT_THAT(AnalyzeOutputToInput(kHlo), ElementsAre(ElementsAre(Text(R"(
(d0, d1)[s0] -> (d0, d1 + s0)
domain:
d0 in [0, 1023]
d1 in [0, 2]
s0 in [0, 511])")),
                                                      ElementsAre(Text(R"(
(d0, d1) -> ()
domain:
d0 in [0, 1023]
d1 in [0, 2])"))));
}

TEST_F(ReduceWindowIndexingTest, InputToOutput) {
  // Window 3, stride 2 over 8 elements: outputs 0..2 cover [0, 2], [2, 4],
  // [4, 6]; element d feeds output (d - s) / 2 for window positions s with
  // d - s even and within [0, 4]. Element 7 is in no window, so the
  // domain ends at 6.
  EXPECT_THAT(InputToOutput(R"(
c = f32[] constant(0)
p0 = f32[8] parameter(0)
rw = f32[3] reduce-window(p0, c), window={size=3 stride=2}, to_apply=add
)",
                            0),
              ElementsAre(ElementsAre(Text(R"(
(d0)[s0] -> ((d0 - s0) floordiv 2)
domain:
d0 in [0, 6]
s0 in [0, 2]
(d0 - s0) mod 2 in [0, 0]
d0 - s0 in [0, 4])"))));
}

TEST_F(ReduceWindowIndexingTest, AttributeCheckAcceptsVerifiedReduceWindow) {
  ExpectVerifiedRootPasses(R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p0 = f32[8] parameter(0)
  c = f32[] constant(0)
  ROOT rw = f32[3] reduce-window(p0, c), window={size=3 stride=2},
    to_apply=add
})",
                           [](const HloInstruction* i) {
                             return GetReduceWindowWindow(i).has_value();
                           });
}

TEST_F(ReduceWindowIndexingTest, ZeroStrideIsUndefined) {
  HloInstruction* r =
      Add(HloOpcode::kReduceWindow, Shape(PrimitiveType::kF32, {8}),
          {Parameter({8}), Parameter({})});
  r->set_window(OneDimWindow(1, 0));
  EXPECT_FALSE(GetReduceWindowWindow(r).has_value());
  ExpectUndefined(r);
}

TEST_F(ReduceWindowIndexingTest, WithoutAWindowAttributeTheWindowsHaveSize1) {
  std::optional<std::vector<WindowDimension>> window = GetReduceWindowWindow(
      Add(HloOpcode::kReduceWindow, Shape(PrimitiveType::kF32, {4, 5}),
          {Parameter({4, 5}), Parameter({})}));
  ASSERT_TRUE(window.has_value());
  ASSERT_EQ(window->size(), 2);
  EXPECT_EQ((*window)[0].size, 1);
  EXPECT_EQ((*window)[1].size, 1);
}

// Unverified windows near INT64_MAX: a stride whose last output position,
// a padding_low whose negation, does not fit in int64. Both directions of
// the input are UNDEFINED naming the attribute (undefined behaviour before).
TEST_F(ReduceWindowIndexingTest, WindowBeyondInt64IsUndefinedWithAReason) {
  struct Case {
    absl::string_view window;
    absl::string_view reason;
  };
  for (const Case& c : {
           Case{"size=1 stride=4611686018427387904",
                "(output size - 1) * stride"},
           Case{"size=2 pad=-9223372036854775808_0", "-padding_low"},
           Case{"size=1 lhs_dilate=4611686018427387904",
                "(operand size - 1) * base_dilation"},
       }) {
    const HloInstruction* root =
        Parse(absl::StrCat(R"(
p0 = f32[8] parameter(0)
c = f32[] constant(0)
r = f32[3] reduce-window(p0, c), window={)",
                           c.window, "}, to_apply=max"));
    ASSERT_NE(root, nullptr) << c.window;
    const std::string reason =
        absl::StrCat("reduce-window 'r': ", c.reason,
                     " of window dimension 0 does not fit in int64");
    HloInstructionIndexing out_to_in =
        ComputeOutputToInputIndexing(root, 0, &context_);
    EXPECT_THAT(out_to_in.indexing_maps[0][0].undefined_reason(),
                HasSubstr(reason))
        << c.window;
    EXPECT_FALSE(out_to_in.indexing_maps[1][0].IsUndefined());
    EXPECT_THAT(ComputeInputToOutputIndexing(root, 0, &context_)
                    .indexing_maps[0][0]
                    .undefined_reason(),
                HasSubstr("does not fit in int64"))
        << c.window;
  }
}

}  // namespace
}  // namespace xla_index
