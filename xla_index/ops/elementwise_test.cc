// Elementwise ops: both directions.

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ElementwiseIndexingTest = OpIndexingTest;

// XLA's indexing-analysis documentation, "Elementwise".
constexpr absl::string_view kElementwise = R"(
  p0 = f32[10, 20] parameter(0)
  p1 = f32[10, 20] parameter(1)
  add = f32[10, 20] add(p0, p1)
)";

TEST_F(ElementwiseIndexingTest, OutputToInput) {
  std::string identity = Text(R"(
(d0, d1) -> (d0, d1)
domain:
d0 in [0, 9]
d1 in [0, 19])");
  EXPECT_THAT(AnalyzeOutputToInput(kElementwise),
              ElementsAre(ElementsAre(identity), ElementsAre(identity)));
}

TEST_F(ElementwiseIndexingTest, InputToOutput) {
  std::string identity = Text(R"(
(d0, d1) -> (d0, d1)
domain:
d0 in [0, 9]
d1 in [0, 19])");
  EXPECT_THAT(AnalyzeInputToOutput(kElementwise),
              ElementsAre(ElementsAre(identity), ElementsAre(identity)));
}

// A scalar operand (select's predicate here) is read at `()` and feeds
// every output element.
constexpr absl::string_view kScalarOperand = R"(
  c = pred[] parameter(0)
  a = f32[2, 3] parameter(1)
  b = f32[2, 3] parameter(2)
  s = f32[2, 3] select(c, a, b)
)";

TEST_F(ElementwiseIndexingTest, ScalarOperandOutputToInput) {
  std::string identity = Text(R"(
(d0, d1) -> (d0, d1)
domain:
d0 in [0, 1]
d1 in [0, 2])");
  EXPECT_THAT(OutputToInput(kScalarOperand), ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> ()
domain:
d0 in [0, 1]
d1 in [0, 2])")),
                                                         ElementsAre(identity),
                                                         ElementsAre(identity)));
}

TEST_F(ElementwiseIndexingTest, ScalarOperandInputToOutput) {
  EXPECT_THAT(InputToOutput(kScalarOperand, 0), ElementsAre(ElementsAre(Text(R"(
()[s0, s1] -> (s0, s1)
domain:
s0 in [0, 1]
s1 in [0, 2])"))));
}

}  // namespace
}  // namespace xla_index
