// Indexing beyond single ops: AnalyzeIndexing (what `xla-index analyze`
// prints), composition through fusions and computations, the dispatch
// table and its id checks, and the IndexingMapSet. The cases of each op are
// in ops/<op>_test.cc; the examples marked so come from XLA's
// indexing-analysis documentation, with the printed maps compared to its
// text exactly.

#include "xla_index/indexing_analysis.h"

#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/opcode.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/fusion_indexing.h"
#include "xla_index/op_dispatch.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

// ---- AnalyzeIndexing on fusions and computations (XLA's
// indexing-analysis documentation, "Indexing Maps for Fusion" and
// "Indexing Map simplification"). ----

// tests/testdata/softmax.hlo: the softmax fusion f32[2,65,125] of XLA's
// indexing-analysis documentation (fusion `softmax`, computation
// `fused_softmax`), also the CLI's example input.
std::string SoftmaxHlo() {
  std::ifstream file("tests/testdata/softmax.hlo");
  EXPECT_TRUE(file.good()) << "tests/testdata/softmax.hlo";
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

using AnalyzeIndexingTest = OpIndexingTest;

TEST_F(AnalyzeIndexingTest, ConstantAndIotaHaveNoOperands) {
  EXPECT_THAT(AnalyzeOutputToInput("c = f32[4] constant({1, 2, 3, 4})"),
              IsEmpty());
  EXPECT_THAT(AnalyzeOutputToInput("i = s32[4, 5] iota(), iota_dimension=1"),
              IsEmpty());
}

TEST_F(AnalyzeIndexingTest, FusionOneInputTwoMaps) {
  constexpr absl::string_view kHlo = R"(
f {
  p0 = f32[1000, 1000] parameter(0)
  transpose_p0 = f32[1000, 1000]{0, 1} transpose(p0), dimensions={1, 0}
  ROOT a0 = f32[1000, 1000] add(p0, transpose_p0)
}
)";
  EXPECT_THAT(AnalyzeOutputToInput(kHlo),
              ElementsAre(UnorderedElementsAre(Text(R"(
(d0, d1) -> (d0, d1)
domain:
d0 in [0, 999]
d1 in [0, 999])"),
                                               Text(R"(
(d0, d1) -> (d1, d0)
domain:
d0 in [0, 999]
d1 in [0, 999])"))));
}

TEST_F(AnalyzeIndexingTest, FusionDeduplicatedMaps) {
  constexpr absl::string_view kHlo = R"(
f {
  p0 = f32[20, 10, 50] parameter(0)
  lhs_transpose_1 = f32[10, 20, 50] transpose(p0), dimensions={1, 0, 2}
  lhs_e = f32[10, 20, 50] exponential(lhs_transpose_1)
  lhs_transpose_2 = f32[10, 50, 20] transpose(lhs_e), dimensions={0, 2, 1}
  rhs_transpose_1 = f32[50, 10, 20] transpose(p0), dimensions={2, 1, 0}
  rhs_log = f32[50, 10, 20] exponential(rhs_transpose_1)
  rhs_transpose_2 = f32[10, 50, 20] transpose(rhs_log), dimensions={1, 0, 2}
  ROOT add = f32[10, 50, 20] add(lhs_transpose_2, rhs_transpose_2)
}
)";
  EXPECT_THAT(AnalyzeOutputToInput(kHlo), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d2, d0, d1)
domain:
d0 in [0, 9]
d1 in [0, 49]
d2 in [0, 19])"))));
}

// The softmax fusion of the documentation, "Softmax" (its HLO is an image;
// tests/testdata/softmax.hlo is the usual reduce-max, subtract, exp,
// reduce-sum, divide over the minor dimension).
TEST_F(AnalyzeIndexingTest, SoftmaxFusion) {
  const std::string kHlo = SoftmaxHlo();
  EXPECT_THAT(AnalyzeOutputToInput(kHlo),
              ElementsAre(UnorderedElementsAre(Text(R"(
(d0, d1, d2)[s0] -> (d0, d1, s0)
domain:
d0 in [0, 1]
d1 in [0, 64]
d2 in [0, 124]
s0 in [0, 124])"),
                                               Text(R"(
(d0, d1, d2) -> (d0, d1, d2)
domain:
d0 in [0, 1]
d1 in [0, 64]
d2 in [0, 124])"))));
}

// The same softmax as a plain computation instead of a fusion (the fused
// computation's root): the root reads more than parameters, so `analyze`
// composes it back to the computation's parameter 0.
TEST_F(AnalyzeIndexingTest, SoftmaxComputationRoot) {
  ASSERT_NE(Parse(SoftmaxHlo()), nullptr);
  const HloComputation* softmax = module_->GetComputation("fused_softmax");
  ASSERT_NE(softmax, nullptr);
  AnalyzedIndexing analyzed = AnalyzeIndexing(
      *softmax->root(), IndexingDirection::kOutputToInput, &context_);
  EXPECT_EQ(analyzed.operand_kind,
            AnalyzedIndexing::OperandKind::kComputationParameter);
  EXPECT_THAT(Print(analyzed.indexing),
              ElementsAre(UnorderedElementsAre(Text(R"(
(d0, d1, d2)[s0] -> (d0, d1, s0)
domain:
d0 in [0, 1]
d1 in [0, 64]
d2 in [0, 124]
s0 in [0, 124])"),
                                               Text(R"(
(d0, d1, d2) -> (d0, d1, d2)
domain:
d0 in [0, 1]
d1 in [0, 64]
d2 in [0, 124])"))));
}

TEST_F(AnalyzeIndexingTest, ChainedReshapesCancel) {
  constexpr absl::string_view kHlo = R"(
p0 = f32[10, 10, 10] parameter(0)
reshape1 = f32[50, 20] reshape(p0)
reshape2 = f32[10, 10, 10] reshape(reshape1)
)";
  EXPECT_THAT(AnalyzeOutputToInput(kHlo), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d0, d1, d2)
domain:
d0 in [0, 9]
d1 in [0, 9]
d2 in [0, 9])"))));
}

TEST_F(AnalyzeIndexingTest, InputToOutputThroughAComputation) {
  const HloInstruction* root = Parse(R"(
f {
  p0 = f32[4, 8] parameter(0)
  r = f32[32] reshape(p0)
  ROOT n = f32[32] negate(r)
}
)");
  ASSERT_NE(root, nullptr);
  AnalyzedIndexing analyzed =
      AnalyzeIndexing(*root, IndexingDirection::kInputToOutput, &context_);
  EXPECT_EQ(analyzed.operand_kind,
            AnalyzedIndexing::OperandKind::kComputationParameter);
  EXPECT_THAT(Print(analyzed.indexing), ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d0 * 8 + d1)
domain:
d0 in [0, 3]
d1 in [0, 7])"))));
}

// Without composition (a full module in `xla-index analyze`), a
// non-fusion instruction gets its own per-op rule per operand, not the maps
// to the computation's parameters.
TEST_F(AnalyzeIndexingTest, WithoutComposeTheOwnOperandMaps) {
  const HloInstruction* root = Parse(R"(
p0 = f32[4, 8] parameter(0)
t = f32[8, 4] transpose(p0), dimensions={1, 0}
ROOT n = f32[8, 4] negate(t)
)");
  ASSERT_NE(root, nullptr);
  AnalyzeOptions options;
  options.compose = false;
  absl::StatusOr<AnalyzedIndexing> own = AnalyzeIndexing(
      *root, IndexingDirection::kOutputToInput, options, &context_);
  ASSERT_TRUE(own.ok()) << own.status();
  EXPECT_EQ(own->operand_kind,
            AnalyzedIndexing::OperandKind::kInstructionOperand);
  EXPECT_THAT(Print(own->indexing), ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d0, d1)
domain:
d0 in [0, 7]
d1 in [0, 3])"))));
  absl::StatusOr<AnalyzedIndexing> composed = AnalyzeIndexing(
      *root, IndexingDirection::kOutputToInput, AnalyzeOptions{}, &context_);
  ASSERT_TRUE(composed.ok()) << composed.status();
  EXPECT_EQ(composed->operand_kind,
            AnalyzedIndexing::OperandKind::kComputationParameter);
  EXPECT_THAT(Print(composed->indexing), ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d1, d0)
domain:
d0 in [0, 7]
d1 in [0, 3])"))));
}

// Adding a value to itself shifted doubles the access patterns per level
// (as in ExponentiallyManyAccessPatternsBecomeUndefined below): after 4
// levels output d reads p0 at d + k for k in [0, 16). The bounded
// composition fails naming the instruction instead of collapsing (or, on
// deeper towers, running for minutes).
TEST_F(AnalyzeIndexingTest, ComposeFailsPastTheMapBound) {
  std::string hlo = "v0 = f32[64] parameter(0)\n";
  int64_t size = 64;
  for (int level = 1; level <= 4; ++level) {
    int64_t shift = int64_t{1} << (level - 1);
    int64_t next = size - shift;
    absl::StrAppend(&hlo, "a", level, " = f32[", next, "] slice(v", level - 1,
                    "), slice={[0:", next, "]}\n", "b", level, " = f32[", next,
                    "] slice(v", level - 1, "), slice={[", shift, ":", size,
                    "]}\n", "v", level, " = f32[", next, "] add(a", level,
                    ", b", level, ")\n");
    size = next;
  }
  const HloInstruction* root = Parse(hlo);
  ASSERT_NE(root, nullptr);
  AnalyzeOptions options;
  options.max_maps = 4;
  for (IndexingDirection direction :
       {IndexingDirection::kOutputToInput, IndexingDirection::kInputToOutput}) {
    absl::StatusOr<AnalyzedIndexing> analyzed =
        AnalyzeIndexing(*root, direction, options, &context_);
    ASSERT_FALSE(analyzed.ok()) << IndexingDirectionName(direction);
    EXPECT_EQ(analyzed.status().code(), absl::StatusCode::kResourceExhausted);
    EXPECT_THAT(analyzed.status().message(),
                ::testing::HasSubstr("exceed 4 distinct maps"));
    options.max_maps = 16;
    absl::StatusOr<AnalyzedIndexing> exact =
        AnalyzeIndexing(*root, direction, options, &context_);
    ASSERT_TRUE(exact.ok()) << exact.status();
    EXPECT_EQ(exact->indexing.indexing_maps[0].size(), 16);
    options.max_maps = 4;
  }
}

// One forward walk for all parameters gives, per parameter, what the
// single-source walk gives.
TEST_F(AnalyzeIndexingTest, AllParametersInOneWalkMatchOneByOne) {
  const HloInstruction* root = Parse(R"(
f {
  p0 = f32[4, 8] parameter(0)
  p1 = f32[8, 4] parameter(1)
  p2 = f32[7] parameter(2)
  t = f32[4, 8] transpose(p1), dimensions={1, 0}
  a = f32[4, 8] add(p0, t)
  b = f32[4, 8] broadcast(p0), dimensions={0, 1}
  ROOT m = f32[4, 8] multiply(a, b)
}
)");
  ASSERT_NE(root, nullptr);
  const HloComputation& computation = *root->parent();
  absl::StatusOr<std::vector<IndexingMapSet>> all =
      ComputeParametersToOutputIndexing(computation, root, CompositionBound{},
                                        &context_);
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 3);
  for (int64_t k = 0; k < 3; ++k) {
    HloInstructionIndexing one = ComputeInputToOutputIndexingThroughComputation(
        computation, computation.parameter(k), root, &context_);
    ASSERT_EQ(one.indexing_maps.size(), 1);
    EXPECT_EQ(Print(HloInstructionIndexing{{(*all)[k]}}), Print(one))
        << "parameter " << k;
  }
  EXPECT_TRUE((*all)[2].empty());
  EXPECT_THAT(Print(HloInstructionIndexing{{(*all)[1]}}),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d1, d0)
domain:
d0 in [0, 7]
d1 in [0, 3])"))));
}

// A tuple root is composed for all its outputs in one walk; per
// parameter, the maps are (as a set) the union of what the walk for each
// output alone gives. Outputs 0 and 1 share the producer `e` (reached by
// both with the identity), output 2 reads p0 transposed through a
// tuple-shaped value and p1 only there.
TEST_F(AnalyzeIndexingTest, TupleRootOutputsInOneWalkMatchOneByOne) {
  const HloInstruction* root = Parse(R"(
f {
  p0 = f32[4, 8] parameter(0)
  p1 = f32[8] parameter(1)
  p2 = f32[2] parameter(2)
  e = f32[4, 8] exponential(p0)
  n = f32[4, 8] negate(e)
  b = f32[4, 8] broadcast(p1), dimensions={1}
  s = f32[4, 8] add(e, b)
  t = f32[8, 4] transpose(p0), dimensions={1, 0}
  pair = (f32[8, 4], f32[8]) tuple(t, p1)
  g = f32[8, 4] get-tuple-element(pair), index=0
  ROOT r = (f32[4, 8], f32[4, 8], f32[8, 4]) tuple(n, s, g)
}
)");
  ASSERT_NE(root, nullptr);
  const HloComputation& computation = *root->parent();
  absl::StatusOr<AnalyzedIndexing> analyzed = AnalyzeIndexing(
      *root, IndexingDirection::kOutputToInput, AnalyzeOptions{}, &context_);
  ASSERT_TRUE(analyzed.ok()) << analyzed.status();
  std::vector<std::vector<std::string>> all = Print(analyzed->indexing);
  ASSERT_EQ(all.size(), 3);
  std::vector<std::set<std::string>> one_by_one(3);
  for (int64_t out = 0; out < 3; ++out) {
    std::vector<std::vector<std::string>> one =
        Print(ComputeComputationOutputToInputIndexing(computation, root, out,
                                                      &context_));
    ASSERT_EQ(one.size(), 3);
    for (int64_t k = 0; k < 3; ++k) {
      one_by_one[k].insert(one[k].begin(), one[k].end());
    }
  }
  for (int64_t k = 0; k < 3; ++k) {
    EXPECT_EQ(std::set<std::string>(all[k].begin(), all[k].end()),
              one_by_one[k])
        << "parameter " << k;
    EXPECT_EQ(all[k].size(), one_by_one[k].size()) << "parameter " << k;
  }
  EXPECT_EQ(one_by_one[0].size(), 2);  // identity and transposed
  EXPECT_EQ(one_by_one[1].size(), 1);
  EXPECT_TRUE(one_by_one[2].empty());
}

// A while (like a call or conditional) reads its tuple operand as a whole:
// every element may be read, by no map we know. The parameter that enters
// the tuple is UNDEFINED in both directions, never "not read"; the one that
// does not enter it stays unread.
TEST_F(AnalyzeIndexingTest, WholeTupleReadsReachEveryElement) {
  const HloInstruction* root = Parse(R"(
HloModule m

body {
  p = (s32[], f32[8, 16]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  x = f32[8, 16] get-tuple-element(p), index=1
  y = f32[8, 16] negate(x)
  ROOT t = (s32[], f32[8, 16]) tuple(i1, y)
}

cond {
  p = (s32[], f32[8, 16]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(10)
  ROOT c = pred[] compare(i, n), direction=LT
}

ENTRY e {
  x = f32[8, 16] parameter(0)
  unused = f32[8, 16] parameter(1)
  z = s32[] constant(0)
  t = (s32[], f32[8, 16]) tuple(z, x)
  w = (s32[], f32[8, 16]) while(t), condition=cond, body=body
  ROOT r = f32[8, 16] get-tuple-element(w), index=1
}
)");
  ASSERT_NE(root, nullptr);
  for (IndexingDirection direction :
       {IndexingDirection::kOutputToInput, IndexingDirection::kInputToOutput}) {
    SCOPED_TRACE(IndexingDirectionName(direction));
    absl::StatusOr<AnalyzedIndexing> analyzed =
        AnalyzeIndexing(*root, direction, AnalyzeOptions{}, &context_);
    ASSERT_TRUE(analyzed.ok()) << analyzed.status();
    ASSERT_EQ(analyzed->indexing.indexing_maps.size(), 2);
    const IndexingMapSet& x = analyzed->indexing.indexing_maps[0];
    ASSERT_EQ(x.size(), 1);
    EXPECT_TRUE(x[0].IsUndefined());
    EXPECT_NE(x[0].undefined_reason().find("'w' reads tuple 't' as a whole"),
              std::string::npos)
        << x[0].undefined_reason();
    EXPECT_TRUE(analyzed->indexing.indexing_maps[1].empty());
  }
}

// ---- Composition through computations (fusion_indexing.h). ----

using FusionIndexingTest = OpIndexingTest;

TEST_F(FusionIndexingTest, EpilogueFromReductionHeroToRoot) {
  const HloInstruction* root = Parse(R"(
f {
  p0 = f32[8, 16] parameter(0)
  c0 = f32[] constant(0)
  hero = f32[8] reduce(p0, c0), dimensions={1}, to_apply=add
  e = f32[8] exponential(hero)
  ROOT b = f32[8, 5] broadcast(e), dimensions={0}
}
)");
  ASSERT_NE(root, nullptr);
  const HloInstruction* hero = root->parent()->GetInstruction("hero");
  IndexingMapSet maps =
      ComputeEpilogueInputToOutputIndexing(hero, root, &context_);
  std::vector<std::string> printed;
  for (const IndexingMap& map : maps) printed.push_back(ToString(map));
  EXPECT_THAT(printed, ElementsAre(Text(R"(
(d0)[s0] -> (d0, s0)
domain:
d0 in [0, 7]
s0 in [0, 4])")));
}

TEST_F(FusionIndexingTest, PerProducerGroupingOfSoftmax) {
  ASSERT_NE(Parse(SoftmaxHlo()), nullptr);
  const HloComputation* fused = module_->GetComputation("fused_softmax");
  ASSERT_NE(fused, nullptr);
  const HloInstruction* root = fused->root();
  ASSERT_NE(root, nullptr);
  const HloComputation& softmax = *root->parent();
  GroupedIndexingMaps grouped =
      ComputeGroupedOutputToInputIndexing(softmax, root, 0, &context_);
  auto printed = [&](absl::string_view name) {
    std::vector<std::string> out;
    for (const IndexingMap& map : grouped[softmax.GetInstruction(name)]) {
      out.push_back(ToString(map));
    }
    return out;
  };
  constexpr absl::string_view kDomain = R"(
domain:
d0 in [0, 1]
d1 in [0, 64]
d2 in [0, 124])";
  std::string identity = "(d0, d1, d2) -> (d0, d1, d2)" + std::string(kDomain);
  std::string row = "(d0, d1, d2)[s0] -> (d0, d1, s0)" + std::string(kDomain) +
                    "\ns0 in [0, 124]";
  // Every element of a row of e feeds the sum; e itself is read at the
  // output element.
  EXPECT_THAT(printed("out"), ElementsAre(identity));
  EXPECT_THAT(printed("e"), UnorderedElementsAre(identity, row));
  EXPECT_THAT(printed("row_sum"),
              ElementsAre("(d0, d1, d2) -> (d0, d1)" + std::string(kDomain)));
  EXPECT_THAT(printed("c0"),
              ElementsAre("(d0, d1, d2) -> ()" + std::string(kDomain)));
  // The row max is read for every element of the row: row_max at (d0, d1) from
  // both paths (through e directly and through the sum).
  EXPECT_THAT(printed("row_max"),
              ElementsAre("(d0, d1, d2) -> (d0, d1)" + std::string(kDomain)));
  EXPECT_THAT(printed("p0"), UnorderedElementsAre(identity, row));
}
TEST_F(FusionIndexingTest, ExponentiallyManyAccessPatternsBecomeUndefined) {
  // Level l adds the previous value to itself shifted by 2^(l-1), so after
  // L levels output d reads p0 at d + k for every k in [0, 2^L): 1024
  // distinct maps for L = 10, past the bound.
  std::string hlo = "f {\n  v0 = f32[2048] parameter(0)\n";
  int64_t size = 2048;
  for (int level = 1; level <= 10; ++level) {
    int64_t shift = int64_t{1} << (level - 1);
    int64_t next = size - shift;
    absl::StrAppend(&hlo, "  a", level, " = f32[", next, "] slice(v", level - 1,
                    "), slice={[0:", next, "]}\n");
    absl::StrAppend(&hlo, "  b", level, " = f32[", next, "] slice(v", level - 1,
                    "), slice={[", shift, ":", size, "]}\n");
    absl::StrAppend(&hlo, "  ", level == 10 ? "ROOT " : "", "v", level,
                    " = f32[", next, "] add(a", level, ", b", level, ")\n");
    size = next;
  }
  hlo += "}\n";
  const HloInstruction* root = Parse(hlo);
  ASSERT_NE(root, nullptr);
  HloInstructionIndexing indexing = ComputeComputationOutputToInputIndexing(
      *root->parent(), root, 0, &context_);
  ASSERT_EQ(indexing.indexing_maps.size(), 1);
  ASSERT_EQ(indexing.indexing_maps[0].size(), 1);
  EXPECT_TRUE(indexing.indexing_maps[0][0].IsUndefined());

  // Two levels less stay exact: 256 maps, d + k for k in [0, 255].
  const HloInstruction* v8 = root->parent()->GetInstruction("v8");
  HloInstructionIndexing exact = ComputeComputationOutputToInputIndexing(
      *root->parent(), v8, 0, &context_);
  EXPECT_EQ(exact.indexing_maps[0].size(), 256);
}

// Every computation-wide entry refuses parameters not numbered 0..n-1
// (slot k of their result is parameter number k), naming the parameter;
// the no-failure overloads give each parameter an UNDEFINED map saying so.
// A module cannot have the gap: XLA's HloParserImpl::ParseComputation
// requires the numbers 0..n-1, as hlo/parser.cc does; a snippet may.
TEST_F(FusionIndexingTest, ParameterNumbersWithAGapAreRefused) {
  // Two steps, so that AnalyzeIndexing composes (a root reading only
  // parameters gets its own rule, operand by operand, which is right).
  const HloInstruction* root = Parse(R"(
    w = f32[6] parameter(1)
    n = f32[6] negate(w)
    ROOT r = f32[6] reverse(n), dimensions={0}
  )");
  ASSERT_NE(root, nullptr);
  const HloComputation& computation = *root->parent();
  auto expect_named = [](const absl::Status& status) {
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
    EXPECT_TRUE(absl::StrContains(status.message(), "parameter 'w' of"))
        << status;
    EXPECT_TRUE(absl::StrContains(status.message(), "0 is missing")) << status;
  };
  expect_named(CheckParametersNumbered(computation));
  expect_named(ComputeComputationOutputToInputIndexing(
                   computation, root, 0, CompositionBound{}, &context_)
                   .status());
  expect_named(ComputeComputationAllOutputsToInputIndexing(
                   computation, root, CompositionBound{}, &context_)
                   .status());
  expect_named(ComputeParametersToOutputIndexing(computation, root,
                                                 CompositionBound{}, &context_)
                   .status());
  AnalyzeOptions options;
  expect_named(AnalyzeIndexing(*root, IndexingDirection::kOutputToInput,
                               options, &context_)
                   .status());
  expect_named(AnalyzeIndexing(*root, IndexingDirection::kInputToOutput,
                               options, &context_)
                   .status());
  // Before, the one parameter (number 1, past a vector of one slot) was
  // dropped: no map at all, read as "not read".
  HloInstructionIndexing lenient =
      ComputeComputationOutputToInputIndexing(computation, root, 0, &context_);
  ASSERT_EQ(lenient.indexing_maps.size(), 1);
  ASSERT_EQ(lenient.indexing_maps[0].size(), 1);
  EXPECT_TRUE(lenient.indexing_maps[0][0].IsUndefined());
  EXPECT_TRUE(absl::StrContains(lenient.indexing_maps[0][0].undefined_reason(),
                                "parameter 'w'"));
  AnalyzedIndexing analyzed =
      AnalyzeIndexing(*root, IndexingDirection::kOutputToInput, &context_);
  ASSERT_EQ(analyzed.indexing.indexing_maps.size(), 1);
  ASSERT_EQ(analyzed.indexing.indexing_maps[0].size(), 1);
  EXPECT_TRUE(analyzed.indexing.indexing_maps[0][0].IsUndefined());
}

TEST_F(FusionIndexingTest, ParametersWrittenOutOfOrderAreIndexedByNumber) {
  // Numbers 0..n-1 in any textual order: slot k is parameter number k. The
  // root reads only parameter 1 (reversed: element i of the output is
  // element 5 - i of it), parameter 0 not at all.
  const HloInstruction* root = Parse(R"(
    w = f32[6] parameter(1)
    v = f32[6] parameter(0)
    ROOT r = f32[6] reverse(w), dimensions={0}
  )");
  ASSERT_NE(root, nullptr);
  EXPECT_TRUE(CheckParametersNumbered(*root->parent()).ok());
  HloInstructionIndexing indexing = ComputeComputationOutputToInputIndexing(
      *root->parent(), root, 0, &context_);
  ASSERT_EQ(indexing.indexing_maps.size(), 2);
  EXPECT_TRUE(indexing.indexing_maps[0].empty());
  ASSERT_EQ(indexing.indexing_maps[1].size(), 1);
  const IndexingMap& map = indexing.indexing_maps[1][0];
  for (int64_t i = 0; i < 6; ++i) {
    std::optional<std::vector<int64_t>> element = map.Evaluate({i}, {});
    ASSERT_TRUE(element.has_value());
    EXPECT_EQ(*element, std::vector<int64_t>{5 - i});
  }
}

TEST_F(FusionIndexingTest, FusionWithoutComputation) {
  ExpectUndefined(Add(HloOpcode::kFusion, Shape(PrimitiveType::kF32, {4}),
                      {Parameter({4})}));
}

TEST_F(FusionIndexingTest, FusionCallingItselfIsUndefined) {
  // A computation whose root is a fusion of the computation itself: the
  // analysis must stop (the parser rejects such cycles, a builder may not).
  HloComputation computation("loop");
  auto parameter =
      std::make_unique<HloInstruction>("p", HloOpcode::kParameter, "parameter");
  parameter->set_shape(Shape(PrimitiveType::kF32, {4}));
  HloInstruction* p = computation.AddInstruction(std::move(parameter));
  auto fusion =
      std::make_unique<HloInstruction>("f", HloOpcode::kFusion, "fusion");
  fusion->set_shape(Shape(PrimitiveType::kF32, {4}));
  fusion->AppendOperand(p);
  fusion->mutable_called_computations()->push_back(
      {"calls", "loop", &computation});
  HloInstruction* f = computation.AddInstruction(std::move(fusion));
  computation.set_root(f);
  for (const HloInstructionIndexing& indexing :
       {ComputeOutputToInputIndexing(f, 0, &context_),
        ComputeInputToOutputIndexing(f, 0, &context_)}) {
    ASSERT_EQ(indexing.indexing_maps.size(), 1);
    for (const IndexingMap& map : indexing.indexing_maps[0]) {
      EXPECT_TRUE(map.IsUndefined()) << ToString(map);
    }
  }
}

// ---- The dispatch table (op_dispatch.h). ----

using DispatchTest = OpIndexingTest;

TEST_F(DispatchTest, UnsupportedOpsAreUndefined) {
  EXPECT_THAT(OutputToInput(R"(
p0 = f32[8] parameter(0)
s = f32[8] sort(p0), dimensions={0}, to_apply=lt
)"),
              ElementsAre(ElementsAre("UNDEFINED")));
  EXPECT_THAT(OutputToInput(R"(
p0 = f32[8] parameter(0)
s = f32[8] cholesky(p0)
)"),
              ElementsAre(ElementsAre("UNDEFINED")));
}

TEST_F(DispatchTest, TableIsSortedByOpcodeNameWithoutElementwiseOps) {
  std::string previous;
  for (const OpIndexingRules& rules : OpIndexingRuleTable()) {
    std::string name(HloOpcodeName(rules.opcode));
    EXPECT_LT(previous, name) << "table not sorted (or repeated) at " << name;
    EXPECT_FALSE(IsElementwise(rules.opcode)) << name;
    EXPECT_NE(rules.output_to_input, nullptr) << name;
    previous = name;
  }
}

TEST_F(DispatchTest, FindsElementwiseAndTableRules) {
  EXPECT_EQ(FindOpIndexingRules(HloOpcode::kAdd).output_to_input,
            FindOpIndexingRules(HloOpcode::kMap).output_to_input);
  EXPECT_EQ(FindOpIndexingRules(HloOpcode::kPad).input_to_output,
            &ComputeInputToOutputPadIndexing);
  EXPECT_EQ(FindOpIndexingRules(HloOpcode::kDynamicUpdateSlice).input_to_output,
            nullptr);
  EXPECT_EQ(FindOpIndexingRules(HloOpcode::kSort).output_to_input, nullptr);
}

// Ids outside the instruction's outputs or operands are UNDEFINED, checked
// once for every op.
TEST_F(DispatchTest, IdsOutOfRangeAreUndefined) {
  const HloInstruction* pad = Parse(R"(
p0 = f32[4] parameter(0)
p1 = f32[] parameter(1)
pad = f32[6] pad(p0, p1), padding=1_1
)");
  ASSERT_NE(pad, nullptr);
  for (int64_t output_id : {-1, 1}) {
    EXPECT_THAT(
        Print(ComputeOutputToInputIndexing(pad, output_id, &context_)),
        ElementsAre(ElementsAre("UNDEFINED"), ElementsAre("UNDEFINED")));
  }
  for (int64_t input_id : {-1, 2}) {
    EXPECT_THAT(Print(ComputeInputToOutputIndexing(pad, input_id, &context_)),
                ElementsAre(ElementsAre("UNDEFINED")));
  }
  const HloInstruction* tuple = Parse(R"(
p0 = f32[4] parameter(0)
t = (f32[4], f32[4]) tuple(p0, p0)
)");
  ASSERT_NE(tuple, nullptr);
  EXPECT_THAT(Print(ComputeOutputToInputIndexing(tuple, 2, &context_)),
              ElementsAre(ElementsAre("UNDEFINED"), ElementsAre("UNDEFINED")));
  EXPECT_THAT(Print(ComputeInputToOutputIndexing(tuple, 2, &context_)),
              ElementsAre(ElementsAre("UNDEFINED"), ElementsAre("UNDEFINED")));
}

// XLA's parser reads unbounded `?` dimensions (HloParserImpl::ParseShape;
// kReshape skips its element count for such an operand): they have no
// size, so no rule runs; every map is UNDEFINED and says why.
TEST_F(DispatchTest, UnboundedShapesAreUndefinedWithTheirReason) {
  const HloInstruction* reshape = Parse(R"(HloModule m
ENTRY e {
  v = s16[?] parameter(0)
  ROOT r = s16[2,6] reshape(v)
})");
  ASSERT_NE(reshape, nullptr);
  for (const HloInstructionIndexing& indexing :
       {ComputeOutputToInputIndexing(reshape, 0, &context_),
        ComputeInputToOutputIndexing(reshape, 0, &context_)}) {
    ASSERT_EQ(indexing.indexing_maps.size(), 1);
    ASSERT_EQ(indexing.indexing_maps[0].size(), 1);
    EXPECT_TRUE(indexing.indexing_maps[0][0].IsUndefined());
    EXPECT_EQ(indexing.indexing_maps[0][0].undefined_reason(),
              "'r' reads 'v' of the unbounded shape s16[?]: a '?' dimension "
              "has no size to index");
  }
  const HloInstruction* negate = Parse(R"(HloModule m
ENTRY e {
  v = u32[?,5] parameter(0)
  ROOT n = u32[?,5] negate(v)
})");
  ASSERT_NE(negate, nullptr);
  HloInstructionIndexing own =
      ComputeOutputToInputIndexing(negate, 0, &context_);
  ASSERT_EQ(own.indexing_maps.size(), 1);
  ASSERT_EQ(own.indexing_maps[0].size(), 1);
  EXPECT_EQ(own.indexing_maps[0][0].undefined_reason(),
            "'n' has the unbounded shape u32[?,5]: a '?' dimension has no "
            "size to index");
  // Composed to the parameters, the reason is kept.
  AnalyzedIndexing composed =
      AnalyzeIndexing(*negate, IndexingDirection::kOutputToInput, &context_);
  ASSERT_EQ(composed.indexing.indexing_maps.size(), 1);
  for (const IndexingMap& map : composed.indexing.indexing_maps[0]) {
    EXPECT_TRUE(map.IsUndefined());
    EXPECT_THAT(map.undefined_reason(),
                ::testing::HasSubstr("unbounded shape u32[?,5]"));
  }
}

TEST(IndexingMapSetTest, DeduplicatesEqualMaps) {
  mlir::MLIRContext context;
  IndexingMapSet set;
  EXPECT_TRUE(set.Insert(CreateIdentityMap({2, 3}, &context)));
  EXPECT_FALSE(set.Insert(CreateIdentityMap({2, 3}, &context)));
  EXPECT_TRUE(set.Insert(CreateIdentityMap({3, 2}, &context)));
  EXPECT_EQ(set.size(), 2);
}

}  // namespace
}  // namespace xla_index
