// dot: both directions.

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using DotIndexingTest = OpIndexingTest;

// XLA's indexing-analysis documentation, "Dot".
constexpr absl::string_view kDot = R"(
p0 = f32[4, 128, 256] parameter(0)
p1 = f32[4, 256, 64] parameter(1)
dot = f32[4, 128, 64] dot(p0, p1),
  lhs_batch_dims={0}, rhs_batch_dims={0},
  lhs_contracting_dims={2}, rhs_contracting_dims={1}
)";

TEST_F(DotIndexingTest, OutputToInput) {
  EXPECT_THAT(AnalyzeOutputToInput(kDot), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2)[s0] -> (d0, d1, s0)
domain:
d0 in [0, 3]
d1 in [0, 127]
d2 in [0, 63]
s0 in [0, 255])")),
                                                      ElementsAre(Text(R"(
(d0, d1, d2)[s0] -> (d0, s0, d2)
domain:
d0 in [0, 3]
d1 in [0, 127]
d2 in [0, 63]
s0 in [0, 255])"))));
}

// The documentation prints p1 -> output as `(d0, s0, d1)`, with d1 the
// contracting dimension (256 values) landing in the output's 64-wide rhs
// free dimension: a typo. The rhs element (b, k, n) feeds output (b, m, n)
// for every m, i.e. `(d0, s0, d2)`; the oracle test
// (indexing_oracle_test.cc) checks this against the evaluator.
TEST_F(DotIndexingTest, InputToOutput) {
  EXPECT_THAT(AnalyzeInputToOutput(kDot), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2)[s0] -> (d0, d1, s0)
domain:
d0 in [0, 3]
d1 in [0, 127]
d2 in [0, 255]
s0 in [0, 63])")),
                                                      ElementsAre(Text(R"(
(d0, d1, d2)[s0] -> (d0, s0, d2)
domain:
d0 in [0, 3]
d1 in [0, 255]
d2 in [0, 63]
s0 in [0, 127])"))));
}

}  // namespace
}  // namespace xla_index
