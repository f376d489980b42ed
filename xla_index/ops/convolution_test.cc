// convolution: both directions, the attribute check (the window getter),
// malformed attributes.

#include <cstdint>
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
using ConvolutionIndexingTest = OpIndexingTest;

TEST_F(ConvolutionIndexingTest, OutputToInputWindowAndFeatures) {
  // lhs b01f = [2, 5, 7, 8], kernel 01io = [3, 1, 8, 4]: output
  // (b, y, x, o) reads lhs (b, y + ky, x, iz) and kernel (ky, 0, iz, o) for
  // ky in [0, 2] and iz in [0, 7].
  EXPECT_THAT(OutputToInput(R"(
lhs = f32[2,5,7,8] parameter(0)
rhs = f32[3,1,8,4] parameter(1)
conv = f32[2,3,7,4] convolution(lhs, rhs), window={size=3x1},
  dim_labels=b01f_01io->b01f
)"),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2, d3)[s0, s1] -> (d0, d1 + s0, d2, s1)
domain:
d0 in [0, 1]
d1 in [0, 2]
d2 in [0, 6]
d3 in [0, 3]
s0 in [0, 2]
s1 in [0, 7])")),
                          ElementsAre(Text(R"(
(d0, d1, d2, d3)[s0, s1] -> (s0, 0, s1, d3)
domain:
d0 in [0, 1]
d1 in [0, 2]
d2 in [0, 6]
d3 in [0, 3]
s0 in [0, 2]
s1 in [0, 7])"))));
}

TEST_F(ConvolutionIndexingTest, InputToOutput) {
  // Input (b, e, f) feeds outputs (b, e - p, o) for window positions p with
  // e - p a valid output position, and every output feature o.
  EXPECT_THAT(InputToOutput(R"(
lhs = f32[2,5,8] parameter(0)
rhs = f32[3,8,4] parameter(1)
conv = f32[2,3,4] convolution(lhs, rhs), window={size=3},
  dim_labels=b0f_0io->b0f
)",
                            0),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2)[s0, s1] -> (d0, d1 - s0, s1)
domain:
d0 in [0, 1]
d1 in [0, 4]
d2 in [0, 7]
s0 in [0, 2]
s1 in [0, 3]
d1 - s0 in [0, 2])"))));
}

// With padding, an output position near the edge reads fewer input
// elements (constrained), but the whole kernel window: the kernel
// multiplies the padding's zeros, as XLA's indexing analysis has it.
TEST_F(ConvolutionIndexingTest, PaddingConstrainsTheInputNotTheKernel) {
  constexpr char kConv[] = R"(
lhs = f32[2,4,2] parameter(0)
rhs = f32[3,2,5] parameter(1)
conv = f32[2,4,5] convolution(lhs, rhs), window={size=3 pad=1_1},
  dim_labels=b0f_0io->b0f
)";
  EXPECT_THAT(OutputToInput(kConv), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2)[s0, s1] -> (d0, d1 + s0 - 1, s1)
domain:
d0 in [0, 1]
d1 in [0, 3]
d2 in [0, 4]
s0 in [0, 2]
s1 in [0, 1]
d1 + s0 in [1, 4])")),
                                                ElementsAre(Text(R"(
(d0, d1, d2)[s0, s1] -> (s0, s1, d2)
domain:
d0 in [0, 1]
d1 in [0, 3]
d2 in [0, 4]
s0 in [0, 2]
s1 in [0, 1])"))));
  // Kernel element (k, i, o) feeds every output position and batch at
  // output feature o.
  EXPECT_THAT(InputToOutput(kConv, 1), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2)[s0, s1] -> (s0, s1, d2)
domain:
d0 in [0, 2]
d1 in [0, 1]
d2 in [0, 4]
s0 in [0, 1]
s1 in [0, 3])"))));
}

TEST_F(ConvolutionIndexingTest, AttributeCheckAcceptsVerifiedConvolution) {
  ExpectVerifiedRootPasses(R"(
lhs = f32[2,5,8] parameter(0)
rhs = f32[3,8,4] parameter(1)
conv = f32[2,3,4] convolution(lhs, rhs), window={size=3},
  dim_labels=b0f_0io->b0f)",
                           [](const HloInstruction* i) {
                             return GetConvolutionWindow(i).has_value();
                           });
}

TEST_F(ConvolutionIndexingTest, BadFeatureGroupsAreUndefined) {
  HloInstruction* c =
      Add(HloOpcode::kConvolution, Shape(PrimitiveType::kF32, {1, 4, 3}),
          {Parameter({1, 5, 3}), Parameter({4, 3, 1})});
  c->set_convolution_dimension_numbers(Bf0Labels());
  c->set_feature_group_count(2);  // 5 input features are not divisible.
  ExpectUndefined(c);
}

// Consistent in every other way; XLA never combines the two groupings, and
// output-to-input used to index it anyway.
TEST_F(ConvolutionIndexingTest, BothGroupCountsAreUndefined) {
  HloInstruction* c =
      Add(HloOpcode::kConvolution, Shape(PrimitiveType::kF32, {1, 4, 3}),
          {Parameter({2, 4, 3}), Parameter({4, 2, 1})});
  c->set_convolution_dimension_numbers(Bf0Labels());
  c->set_feature_group_count(2);
  c->set_batch_group_count(2);
  ExpectUndefined(c);
}

TEST_F(ConvolutionIndexingTest, WithoutAWindowAttributeTheWindowIsTheKernel) {
  HloInstruction* c =
      Add(HloOpcode::kConvolution, Shape(PrimitiveType::kF32, {1, 4, 3}),
          {Parameter({1, 3, 5}), Parameter({4, 3, 3})});
  c->set_convolution_dimension_numbers(Bf0Labels());
  std::optional<std::vector<WindowDimension>> window = GetConvolutionWindow(c);
  ASSERT_TRUE(window.has_value());
  ASSERT_EQ(window->size(), 1);
  EXPECT_EQ((*window)[0].size, 3);
}

TEST_F(ConvolutionIndexingTest, WindowSmallerThanTheKernelIsUndefined) {
  HloInstruction* c =
      Add(HloOpcode::kConvolution, Shape(PrimitiveType::kF32, {1, 4, 4}),
          {Parameter({1, 3, 5}), Parameter({4, 3, 3})});
  c->set_convolution_dimension_numbers(Bf0Labels());
  c->set_window(OneDimWindow(2, 1));
  EXPECT_FALSE(GetConvolutionWindow(c).has_value());
  ExpectUndefined(c);
}

// Unverified windows near INT64_MAX: the dilated operand's last position,
// the window's last position, or a padding_low whose negation, does not fit
// in int64. Output to input, both operands are UNDEFINED naming the
// attribute (undefined behaviour before). Input to output needs only the
// first (its values e * lhs_dilate + low - s * rhs_dilate fit otherwise).
TEST_F(ConvolutionIndexingTest, WindowBeyondInt64IsUndefinedWithAReason) {
  struct Case {
    absl::string_view window;
    int64_t kernel_size;
    absl::string_view reason;
    bool input_to_output_fits;
  };
  for (const Case& c : {
           Case{"size=1 lhs_dilate=4611686018427387904", 1,
                "(operand size - 1) * base_dilation", false},
           Case{"size=1 pad=-9223372036854775808_0", 1, "-padding_low", true},
           Case{"size=2 rhs_dilate=9223372036854775807", 2,
                "(output size - 1) * stride + (window size - 1) * "
                "window_dilation",
                true},
       }) {
    const HloInstruction* root = Parse(absl::StrCat(
        "lhs = f32[1, 1, 3] parameter(0)\nrhs = f32[1, 1, ", c.kernel_size,
        "] parameter(1)\nconv = f32[1, 1, 3] convolution(lhs, rhs), window={",
        c.window, "}, dim_labels=bf0_oi0->bf0"));
    ASSERT_NE(root, nullptr) << c.window;
    const std::string reason =
        absl::StrCat("convolution 'conv': ", c.reason,
                     " of window dimension 0 does not fit in int64");
    HloInstructionIndexing out_to_in =
        ComputeOutputToInputIndexing(root, 0, &context_);
    ASSERT_EQ(out_to_in.indexing_maps.size(), 2);
    EXPECT_EQ(out_to_in.indexing_maps[0][0].undefined_reason(), reason)
        << c.window;
    // The kernel's index does not involve the window's arithmetic.
    EXPECT_FALSE(out_to_in.indexing_maps[1][0].IsUndefined()) << c.window;
    for (int64_t input = 0; input < 2; ++input) {
      HloInstructionIndexing in_to_out =
          ComputeInputToOutputIndexing(root, input, &context_);
      const IndexingMap& map = in_to_out.indexing_maps[0][0];
      if (c.input_to_output_fits || input == 1) {
        EXPECT_FALSE(map.IsUndefined()) << c.window << " input " << input;
      } else {
        EXPECT_THAT(map.undefined_reason(),
                    HasSubstr("(operand size - 1) * base_dilation"))
            << c.window << " input " << input;
      }
    }
  }
}

// kernel input features * feature_group_count does not fit in int64 (zero
// input features pass the divisibility checks): the attributes do not fit
// (undefined behaviour in the attribute check before).
TEST_F(ConvolutionIndexingTest, GroupProductBeyondInt64IsUndefined) {
  const HloInstruction* root = Parse(R"(
lhs = f32[1, 0, 3] parameter(0)
rhs = f32[0, 4, 1] parameter(1)
conv = f32[1, 0, 3] convolution(lhs, rhs), window={size=1},
  dim_labels=bf0_oi0->bf0, feature_group_count=4611686018427387904)");
  ASSERT_NE(root, nullptr);
  EXPECT_FALSE(GetConvolutionWindow(root).has_value());
  ExpectUndefined(root);
}

}  // namespace
}  // namespace xla_index
