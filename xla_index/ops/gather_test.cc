// gather: output to input in the simplified form (no input-to-output
// rule), the attribute check.

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using GatherIndexingTest = OpIndexingTest;

// XLA's indexing-analysis documentation, "Gather".
constexpr absl::string_view kGather = R"(
operand = f32[33,76,70] parameter(0)
indices = s32[1806,2] parameter(1)
gather = f32[1806,7,8,4] gather(operand, indices),
  offset_dims={1,2,3},
  collapsed_slice_dims={},
  start_index_map={0,1},
  index_vector_dim=1,
  slice_sizes={7,8,4}
)";

TEST_F(GatherIndexingTest, OutputToInput) {
  EXPECT_THAT(AnalyzeOutputToInput(kGather), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2, d3)[s0, s1] -> (d1 + s0, d2 + s1, d3)
domain:
d0 in [0, 1805]
d1 in [0, 6]
d2 in [0, 7]
d3 in [0, 3]
s0 in [0, 26]
  hlo: indices = s32[1806,2]{1,0} parameter(1)
  (d0, d1, d2, d3) -> (d0, 0)
s1 in [0, 68]
  hlo: indices = s32[1806,2]{1,0} parameter(1)
  (d0, d1, d2, d3) -> (d0, 1))")),
                                                         ElementsAre(Text(R"(
(d0, d1, d2, d3)[s0] -> (d0, s0)
domain:
d0 in [0, 1805]
d1 in [0, 6]
d2 in [0, 7]
d3 in [0, 3]
s0 in [0, 1])"))));
}

// Which output elements an operand element feeds depends on the indices'
// values: no exact map.
TEST_F(GatherIndexingTest, InputToOutputIsUndefined) {
  EXPECT_THAT(AnalyzeInputToOutput(kGather),
              ElementsAre(ElementsAre("UNDEFINED"), ElementsAre("UNDEFINED")));
}

TEST_F(GatherIndexingTest, OutsideTheSimplifiedFormIsUndefined) {
  // index_vector_dim=0 is not the simplified form.
  EXPECT_THAT(OutputToInput(R"(
operand = f32[33,76] parameter(0)
indices = s32[2,5] parameter(1)
gather = f32[5,7,8] gather(operand, indices), offset_dims={1,2},
  collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=0,
  slice_sizes={7,8}
)"),
              ElementsAre(ElementsAre("UNDEFINED"), ElementsAre("UNDEFINED")));
}

}  // namespace
}  // namespace xla_index
