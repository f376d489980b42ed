// convolution: both directions, the attribute check (the window getter),
// malformed attributes.

#include <cstdint>
#include <optional>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
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

}  // namespace
}  // namespace xla_index
