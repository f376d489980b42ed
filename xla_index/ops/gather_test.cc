// gather in the general form: both directions, the attribute check, start
// indices with known values.

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/ops/op_rules.h"
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

// The indices feed the output elements of their row, at every offset; the
// operand has no map (it depends on the indices' values).
TEST_F(GatherIndexingTest, InputToOutput) {
  EXPECT_THAT(AnalyzeInputToOutput(kGather),
              ElementsAre(ElementsAre("UNDEFINED"), ElementsAre(Text(R"(
(d0, d1)[s0, s1, s2] -> (d0, s0, s1, s2)
domain:
d0 in [0, 1805]
d1 in [0, 1]
s0 in [0, 6]
s1 in [0, 7]
s2 in [0, 3])"))));
}

TEST_F(GatherIndexingTest, OperandInputToOutputSaysWhyItIsUndefined) {
  const HloInstruction* root = Parse(kGather);
  ASSERT_NE(root, nullptr);
  HloInstructionIndexing indexing =
      ComputeInputToOutputIndexing(root, 0, &context_);
  ASSERT_EQ(indexing.indexing_maps.size(), 1);
  EXPECT_THAT(indexing.indexing_maps[0][0].undefined_reason(),
              ::testing::HasSubstr("values of the start indices"));
}

// A batching dim, a shuffled start_index_map and the index vector in the
// middle of the indices (the example of ops/gather.cc).
constexpr absl::string_view kBatchingGather = R"(
operand = f32[4,10,8] parameter(0)
indices = s32[4,2,5] parameter(1)
gather = f32[4,5,3] gather(operand, indices), offset_dims={2},
  collapsed_slice_dims={1}, operand_batching_dims={0},
  start_indices_batching_dims={0}, start_index_map={2,1},
  index_vector_dim=1, slice_sizes={1,1,3}
)";

TEST_F(GatherIndexingTest, BatchingDimsShuffledStartsOutputToInput) {
  EXPECT_THAT(OutputToInput(kBatchingGather), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2)[s0, s1] -> (d0, s1, d2 + s0)
domain:
d0 in [0, 3]
d1 in [0, 4]
d2 in [0, 2]
s0 in [0, 5]
  hlo: indices = s32[4,2,5]{2,1,0} parameter(1)
  (d0, d1, d2) -> (d0, 0, d1)
s1 in [0, 9]
  hlo: indices = s32[4,2,5]{2,1,0} parameter(1)
  (d0, d1, d2) -> (d0, 1, d1))")),
                                                          ElementsAre(Text(R"(
(d0, d1, d2)[s0] -> (d0, s0, d1)
domain:
d0 in [0, 3]
d1 in [0, 4]
d2 in [0, 2]
s0 in [0, 1])"))));
}

TEST_F(GatherIndexingTest, BatchingDimsShuffledStartsInputToOutput) {
  EXPECT_THAT(InputToOutput(kBatchingGather, 1),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2)[s0] -> (d0, d2, s0)
domain:
d0 in [0, 3]
d1 in [0, 1]
d2 in [0, 4]
s0 in [0, 2])"))));
}

// tf.gather_nd-like rows: start_index_map={1,0} swaps the index vector's
// components, index_vector_dim=0 puts the vector first, dims 0 is
// collapsed and the output's offset dim comes first.
TEST_F(GatherIndexingTest, ShuffledStartIndexMapIndexVectorFirst) {
  EXPECT_THAT(OutputToInput(R"(
operand = f32[16,11] parameter(0)
indices = s32[2,5] parameter(1)
gather = f32[6,5] gather(operand, indices), offset_dims={0},
  collapsed_slice_dims={0}, start_index_map={1,0}, index_vector_dim=0,
  slice_sizes={1,6}
)"),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1)[s0, s1] -> (s1, d0 + s0)
domain:
d0 in [0, 5]
d1 in [0, 4]
s0 in [0, 5]
  hlo: indices = s32[2,5]{1,0} parameter(1)
  (d0, d1) -> (0, d1)
s1 in [0, 15]
  hlo: indices = s32[2,5]{1,0} parameter(1)
  (d0, d1) -> (1, d1))")),
                          ElementsAre(Text(R"(
(d0, d1)[s0] -> (s0, d1)
domain:
d0 in [0, 5]
d1 in [0, 4]
s0 in [0, 1])"))));
}

// index_vector_dim equal to the indices' rank: an implicit vector of one
// component; batch dims [3, 2] come from the whole indices array.
TEST_F(GatherIndexingTest, ImplicitIndexVector) {
  EXPECT_THAT(OutputToInput(R"(
operand = f32[7,9] parameter(0)
indices = s32[3,2] parameter(1)
gather = f32[3,9,2] gather(operand, indices), offset_dims={1},
  collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=2,
  slice_sizes={1,9}
)"),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2)[s0] -> (s0, d1)
domain:
d0 in [0, 2]
d1 in [0, 8]
d2 in [0, 1]
s0 in [0, 6]
  hlo: indices = s32[3,2]{1,0} parameter(1)
  (d0, d1, d2) -> (d0, d2))")),
                          ElementsAre(Text(R"(
(d0, d1, d2) -> (d0, d2)
domain:
d0 in [0, 2]
d1 in [0, 8]
d2 in [0, 1])"))));
}

TEST_F(GatherIndexingTest, AttributeCheckAcceptsVerifiedGathers) {
  ExpectVerifiedRootPasses(kGather, IsValidGather);
  ExpectVerifiedRootPasses(kBatchingGather, IsValidGather);
}

TEST_F(GatherIndexingTest, StartIndexMapOfTheWrongLengthIsUndefined) {
  EXPECT_THAT(OutputToInput(R"(
operand = f32[33,76] parameter(0)
indices = s32[2,5] parameter(1)
gather = f32[5,7,8] gather(operand, indices), offset_dims={1,2},
  collapsed_slice_dims={}, start_index_map={0}, index_vector_dim=0,
  slice_sizes={7,8}
)"),
              ElementsAre(ElementsAre("UNDEFINED"), ElementsAre("UNDEFINED")));
}

// A batching dim that is also start-mapped (XLA's verifier rejects it).
TEST_F(GatherIndexingTest, BatchingDimInStartIndexMapIsUndefined) {
  HloInstruction* gather =
      Add(HloOpcode::kGather, Shape(PrimitiveType::kF32, {4}),
          {Parameter({4, 1}),
           Add(HloOpcode::kParameter, Shape(PrimitiveType::kS32, {4, 1}), {})});
  GatherDimensionNumbers* g = gather->mutable_gather_dimension_numbers();
  g->collapsed_slice_dims = {1};
  g->operand_batching_dims = {0};
  g->start_indices_batching_dims = {0};
  g->start_index_map = {0};
  g->index_vector_dim = 1;
  gather->set_gather_slice_sizes({1, 1});
  EXPECT_FALSE(IsValidGather(gather));
  ExpectUndefined(gather);
}

// Gather rows 0..4 given by an iota: the start is the output row.
TEST_F(GatherIndexingTest, GatherIotaIndicesFold) {
  EXPECT_THAT(OutputToInput(R"(
operand = f32[10,4] parameter(0)
indices = s32[5,1] iota(), iota_dimension=0
gather = f32[5,4] gather(operand, indices), offset_dims={1},
  collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1,
  slice_sizes={1,4}
)"),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d0, d1)
domain:
d0 in [0, 4]
d1 in [0, 3])")),
                          ::testing::SizeIs(1)));
}

// Rows 0..5 of an operand with 4 rows: rows 4 and 5 clamp to 3, which is
// not affine in the output row; the variable stays.
TEST_F(GatherIndexingTest, IotaBeyondTheClampRangeDoesNotFold) {
  auto maps = OutputToInput(R"(
operand = f32[4,4] parameter(0)
indices = s32[6,1] iota(), iota_dimension=0
gather = f32[6,4] gather(operand, indices), offset_dims={1},
  collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1,
  slice_sizes={1,4}
)");
  ASSERT_EQ(maps.size(), 2);
  EXPECT_THAT(maps[0], ElementsAre(::testing::HasSubstr("s0 in [0, 3]")));
}

}  // namespace
}  // namespace xla_index
