// tuple and get-tuple-element: both directions, alone and in a fusion.

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using TupleIndexingTest = OpIndexingTest;

constexpr absl::string_view kTuple = R"(
p0 = f32[2, 3] parameter(0)
p1 = f32[4] parameter(1)
t = (f32[2, 3], f32[4]) tuple(p0, p1)
)";

TEST_F(TupleIndexingTest, OutputToInput) {
  const HloInstruction* t = Parse(kTuple);
  ASSERT_NE(t, nullptr);
  EXPECT_THAT(Print(ComputeOutputToInputIndexing(t, 1, &context_)),
              ElementsAre(IsEmpty(), ElementsAre(Text(R"(
(d0) -> (d0)
domain:
d0 in [0, 3])"))));
}

TEST_F(TupleIndexingTest, InputToOutput) {
  EXPECT_THAT(InputToOutput(kTuple, 0), ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d0, d1)
domain:
d0 in [0, 1]
d1 in [0, 2])")),
                                                    IsEmpty()));
}

TEST_F(TupleIndexingTest, ShapeOfAnotherArityIsUndefined) {
  HloInstruction* t = Add(HloOpcode::kTuple,
                          Shape::MakeTuple({Shape(PrimitiveType::kF32, {4})}),
                          {Parameter({4}), Parameter({4})});
  EXPECT_FALSE(IsValidTuple(t));
  ExpectUndefined(t);
}

// XLA's parser keeps a tuple's written shape (HloParserImpl::
// ParseInstructionRhs, kTuple), so element k may differ from operand k:
// no map for it, with the reason; the other elements keep theirs.
TEST_F(TupleIndexingTest, ElementUnlikeItsOperandIsUndefinedWithAReason) {
  const HloInstruction* t = Parse(R"(HloModule m
ENTRY e {
  a = u8[3,4] parameter(0)
  k = s32[] parameter(1)
  ROOT t = ((u8[3,4]), u8[4,3], s32[]) tuple(a, a, k)
})");
  ASSERT_NE(t, nullptr);
  for (int64_t k : {0, 1}) {
    for (const HloInstructionIndexing& indexing :
         {ComputeOutputToInputIndexing(t, k, &context_),
          ComputeInputToOutputIndexing(t, k, &context_)}) {
      ASSERT_EQ(indexing.indexing_maps.size(), 3);
      ASSERT_EQ(indexing.indexing_maps[k].size(), 1);
      const IndexingMap& map = indexing.indexing_maps[k][0];
      EXPECT_TRUE(map.IsUndefined());
      EXPECT_THAT(map.undefined_reason(),
                  ::testing::HasSubstr(
                      absl::StrCat("element ", k, " of tuple 't' is written ",
                                   k == 0 ? "(u8[3,4])" : "u8[4,3]",
                                   " but its operand 'a' is u8[3,4]")));
    }
  }
  // Element 2 matches its operand: the identity on s32[] (no dimensions).
  HloInstructionIndexing scalar = ComputeOutputToInputIndexing(t, 2, &context_);
  ASSERT_EQ(scalar.indexing_maps[2].size(), 1);
  EXPECT_FALSE(scalar.indexing_maps[2][0].IsUndefined());
  EXPECT_EQ(scalar.indexing_maps[2][0].GetDimensionCount(), 0);
  EXPECT_THAT(scalar.indexing_maps[0], IsEmpty());
}

// Merges, per operand, the sets of the per-output rules: output-to-input
// over every output, input-to-output over every output of each operand.
std::vector<IndexingMapSet> MergedRules(const HloInstruction* t,
                                        IndexingDirection direction,
                                        mlir::MLIRContext* context) {
  std::vector<IndexingMapSet> merged(t->operand_count());
  for (int64_t i = 0; i < t->operand_count(); ++i) {
    HloInstructionIndexing one =
        direction == IndexingDirection::kOutputToInput
            ? ComputeOutputToInputIndexing(t, i, context)
            : ComputeInputToOutputIndexing(t, i, context);
    for (size_t k = 0; k < one.indexing_maps.size(); ++k) {
      merged[direction == IndexingDirection::kOutputToInput ? k : i].InsertAll(
          one.indexing_maps[k]);
    }
  }
  return merged;
}

TEST_F(TupleIndexingTest, AllOutputsAtOnceIsEachOutputsRuleMerged) {
  const HloInstruction* valid = Parse(R"(
p0 = f32[2, 3] parameter(0)
p1 = (f32[4], f32[5]) parameter(1)
p2 = s8[] parameter(2)
t = (f32[2, 3], (f32[4], f32[5]), s8[], f32[2, 3]) tuple(p0, p1, p2, p0)
)");
  ASSERT_NE(valid, nullptr);
  HloInstruction* invalid = Add(
      HloOpcode::kTuple, Shape::MakeTuple({Shape(PrimitiveType::kF32, {4})}),
      {Parameter({4}), Parameter({4})});
  for (const HloInstruction* t :
       {valid, static_cast<const HloInstruction*>(invalid)}) {
    const auto all = Print(ComputeTupleIndexingOfAllOutputs(t, &context_));
    ASSERT_EQ(all.size(), t->operand_count());
    for (IndexingDirection direction : {IndexingDirection::kOutputToInput,
                                        IndexingDirection::kInputToOutput}) {
      HloInstructionIndexing merged;
      merged.indexing_maps = MergedRules(t, direction, &context_);
      EXPECT_EQ(all, Print(merged)) << IndexingDirectionName(direction);
      EXPECT_EQ(all, Print(AnalyzeIndexing(*t, direction, &context_).indexing))
          << IndexingDirectionName(direction);
    }
  }
  EXPECT_THAT(Print(ComputeTupleIndexingOfAllOutputs(valid, &context_))[2],
              ElementsAre(Text("() -> ()\ndomain:")));
}

using GetTupleElementIndexingTest = OpIndexingTest;

constexpr absl::string_view kGetTupleElement = R"(
p0 = f32[2, 3] parameter(0)
p1 = f32[4] parameter(1)
t = (f32[2, 3], f32[4]) tuple(p0, p1)
g = f32[4] get-tuple-element(t), index=1
)";
constexpr absl::string_view kElementIdentity = R"(
(d0) -> (d0)
domain:
d0 in [0, 3])";

TEST_F(GetTupleElementIndexingTest, OutputToInput) {
  EXPECT_THAT(OutputToInput(kGetTupleElement),
              ElementsAre(ElementsAre(Text(kElementIdentity))));
}

TEST_F(GetTupleElementIndexingTest, InputToOutput) {
  EXPECT_THAT(InputToOutput(kGetTupleElement, 0),
              ElementsAre(ElementsAre(Text(kElementIdentity))));
}

TEST_F(GetTupleElementIndexingTest, TupleAndGetTupleElementInAFusion) {
  // The fusion's root reads p0 through a tuple and a get-tuple-element:
  // element 1 of the tuple is transpose(p0).
  const HloInstruction* root = Parse(R"(
f {
  p0 = f32[2, 3] parameter(0)
  p1 = f32[3, 2] parameter(1)
  t = f32[3, 2] transpose(p0), dimensions={1, 0}
  tup = (f32[3, 2], f32[3, 2]) tuple(p1, t)
  ROOT g = f32[3, 2] get-tuple-element(tup), index=1
}
)");
  ASSERT_NE(root, nullptr);
  HloInstructionIndexing indexing = ComputeComputationOutputToInputIndexing(
      *root->parent(), root, 0, &context_);
  EXPECT_THAT(Print(indexing), ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d1, d0)
domain:
d0 in [0, 2]
d1 in [0, 1])")),
                                           IsEmpty()));
}

}  // namespace
}  // namespace xla_index
