// Per-op rules beyond the seed's examples: bitcast, convolution, tuples,
// fusions through get-tuple-element, epilogues, operand utilization, and
// UNDEFINED for unsupported ops and malformed attributes.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/indexing_analysis.h"
#include "xla_index/operand_utilization.h"
#include "xla_index/reshape_indexing.h"
#include "xla_index/rule_helpers.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

std::string Text(absl::string_view s) {
  if (!s.empty() && s.front() == '\n') s.remove_prefix(1);
  return std::string(s);
}

std::vector<std::vector<std::string>> Print(
    const HloInstructionIndexing& indexing) {
  std::vector<std::vector<std::string>> printed;
  for (const IndexingMapSet& set : indexing.indexing_maps) {
    printed.emplace_back();
    for (const IndexingMap& map : set) printed.back().push_back(ToString(map));
  }
  return printed;
}

class IndexingRulesTest : public ::testing::Test {
 protected:
  const HloInstruction* Parse(absl::string_view hlo) {
    auto module = ParseHloModule(hlo);
    EXPECT_TRUE(module.ok()) << module.status();
    if (!module.ok()) return nullptr;
    module_ = std::move(*module);
    return module_->entry_computation()->root();
  }
  std::vector<std::vector<std::string>> OutputToInput(absl::string_view hlo) {
    const HloInstruction* root = Parse(hlo);
    if (root == nullptr) return {};
    return Print(ComputeOutputToInputIndexing(root, 0, &context_));
  }
  std::vector<std::vector<std::string>> InputToOutput(absl::string_view hlo,
                                                      int64_t input_id) {
    const HloInstruction* root = Parse(hlo);
    if (root == nullptr) return {};
    return Print(ComputeInputToOutputIndexing(root, input_id, &context_));
  }

  mlir::MLIRContext context_;
  std::unique_ptr<HloModule> module_;
};

TEST_F(IndexingRulesTest, BitcastWithLayoutsIsATranspose) {
  // Same physical order: f32[3, 6]{0, 1} stores column-major, which is the
  // row-major order of f32[6, 3].
  EXPECT_THAT(OutputToInput(R"(
p0 = f32[3, 6]{0, 1} parameter(0)
b = f32[6, 3]{1, 0} bitcast(p0)
)"),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d1, d0)
domain:
d0 in [0, 5]
d1 in [0, 2])"))));
}

TEST_F(IndexingRulesTest, BitcastWithDefaultLayoutsIsAReshape) {
  EXPECT_THAT(OutputToInput(R"(
p0 = f32[4, 8] parameter(0)
b = f32[32] bitcast(p0)
)"),
              ElementsAre(ElementsAre(Text(R"(
(d0) -> (d0 floordiv 8, d0 mod 8)
domain:
d0 in [0, 31])"))));
  EXPECT_THAT(InputToOutput(R"(
p0 = f32[4, 8] parameter(0)
b = f32[32] bitcast(p0)
)",
                            0),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d0 * 8 + d1)
domain:
d0 in [0, 3]
d1 in [0, 7])"))));
}

TEST_F(IndexingRulesTest, ReshapeWithUnitDimensions) {
  // [1, 4] -> [4, 1]: the element (0, j) becomes (j, 0).
  mlir::AffineMap map = ComputeReshapeAffineMap({1, 4}, {4, 1}, &context_);
  IndexingMap indexing = ComputeReshapeIndexingMap({1, 4}, {4, 1}, &context_);
  for (int64_t j = 0; j < 4; ++j) {
    auto result = indexing.Evaluate({j, 0}, {});
    ASSERT_TRUE(result.has_value()) << AffineMapToString(map);
    EXPECT_THAT(*result, ElementsAre(0, j));
  }
}

TEST_F(IndexingRulesTest, ReshapeWithDifferentElementCountsIsUndefined) {
  EXPECT_TRUE(ComputeReshapeIndexingMap({4, 8}, {31}, &context_).IsUndefined());
}

TEST_F(IndexingRulesTest, ConvolutionWindowAndFeatures) {
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

TEST_F(IndexingRulesTest, ConvolutionInputToOutput) {
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

TEST_F(IndexingRulesTest, DynamicSliceInputToOutput) {
  // Operand element d lands at d - offset when that is inside the slice.
  EXPECT_THAT(InputToOutput(R"(
p0 = f32[8] parameter(0)
o = s32[] parameter(1)
ds = f32[2] dynamic-slice(p0, o), dynamic_slice_sizes={2}
)",
                            0),
              ElementsAre(ElementsAre(Text(R"(
(d0)[s0] -> (d0 - s0)
domain:
d0 in [0, 7]
s0 in [0, 6]
  hlo: o = s32[] parameter(1)
  (d0) -> ()
d0 - s0 in [0, 1])"))));
}

TEST_F(IndexingRulesTest, TupleAndGetTupleElementInAFusion) {
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

TEST_F(IndexingRulesTest, InputToOutputThroughAComputation) {
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

TEST_F(IndexingRulesTest, EpilogueFromReductionHeroToRoot) {
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

TEST_F(IndexingRulesTest, PerProducerGroupingOfSoftmax) {
  const HloInstruction* root = Parse(R"(
HloModule m
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY softmax {
  p0 = f32[2,65,125] parameter(0)
  c_inf = f32[] constant(-inf)
  mx = f32[2,65] reduce(p0, c_inf), dimensions={2}, to_apply=max
  mxb = f32[2,65,125] broadcast(mx), dimensions={0,1}
  sub = f32[2,65,125] subtract(p0, mxb)
  ex = f32[2,65,125] exponential(sub)
  c0 = f32[] constant(0)
  sm = f32[2,65] reduce(ex, c0), dimensions={2}, to_apply=add
  smb = f32[2,65,125] broadcast(sm), dimensions={0,1}
  ROOT div = f32[2,65,125] divide(ex, smb)
}
)");
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
  // Every element of a row of ex feeds the sum; ex itself is read at the
  // output element.
  EXPECT_THAT(printed("div"), ElementsAre(identity));
  EXPECT_THAT(printed("ex"), UnorderedElementsAre(identity, row));
  EXPECT_THAT(printed("sm"),
              ElementsAre("(d0, d1, d2) -> (d0, d1)" + std::string(kDomain)));
  EXPECT_THAT(printed("c0"),
              ElementsAre("(d0, d1, d2) -> ()" + std::string(kDomain)));
  // The row max is read for every element of the row: mx at (d0, d1) from
  // both paths (through ex directly and through the sum).
  EXPECT_THAT(printed("mx"),
              ElementsAre("(d0, d1, d2) -> (d0, d1)" + std::string(kDomain)));
  EXPECT_THAT(printed("p0"), UnorderedElementsAre(identity, row));
}

TEST_F(IndexingRulesTest, UnsupportedOpsAreUndefined) {
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
  // Input-to-output has no exact map for the operand of a
  // dynamic-update-slice (which elements survive depends on the offsets).
  EXPECT_THAT(InputToOutput(R"(
p0 = f32[8] parameter(0)
u = f32[3] parameter(1)
o = s32[] parameter(2)
dus = f32[8] dynamic-update-slice(p0, u, o)
)",
                            0),
              ElementsAre(ElementsAre("UNDEFINED")));
}

TEST_F(IndexingRulesTest, ReduceWindowInputToOutput) {
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

TEST_F(IndexingRulesTest, GatherOutsideTheSimplifiedFormIsUndefined) {
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

// The attribute checks both directions share (rule_helpers.h) accept what
// the verifier accepts.
TEST_F(IndexingRulesTest, AttributeChecksAcceptVerifiedInstructions) {
  constexpr absl::string_view kAdd = R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
)";
  struct Case {
    std::string hlo;
    bool (*check)(const HloInstruction*);
  };
  const Case cases[] = {
      {R"(
p0 = f32[3] parameter(0)
b = f32[2,3] broadcast(p0), dimensions={1})",
       IsValidBroadcast},
      {R"(
p0 = f32[2,3] parameter(0)
t = f32[3,2] transpose(p0), dimensions={1,0})",
       IsValidTranspose},
      {R"(
p0 = f32[2,3] parameter(0)
r = f32[2,3] reverse(p0), dimensions={1})",
       IsValidReverse},
      {R"(
p0 = f32[6,4] parameter(0)
s = f32[3,2] slice(p0), slice={[0:6:2], [1:3]})",
       IsValidSlice},
      {R"(
p0 = f32[4] parameter(0)
c = f32[] constant(0)
p = f32[10] pad(p0, c), padding=1_2_1)",
       IsValidPad},
      {R"(
p0 = f32[2,3] parameter(0)
p1 = f32[2,5] parameter(1)
c = f32[2,8] concatenate(p0, p1), dimensions={1})",
       IsValidConcatenate},
      {R"(
p0 = f32[8] parameter(0)
o = s32[] parameter(1)
ds = f32[3] dynamic-slice(p0, o), dynamic_slice_sizes={3})",
       IsValidDynamicSlice},
      {absl::StrCat(kAdd, R"(
ENTRY e {
  p0 = f32[4,5] parameter(0)
  c = f32[] constant(0)
  ROOT r = f32[4] reduce(p0, c), dimensions={1}, to_apply=add
})"),
       IsValidReduce},
      {absl::StrCat(kAdd, R"(
ENTRY e {
  p0 = f32[8] parameter(0)
  c = f32[] constant(0)
  ROOT rw = f32[3] reduce-window(p0, c), window={size=3 stride=2},
    to_apply=add
})"),
       [](const HloInstruction* i) {
         return GetReduceWindowWindow(i).has_value();
       }},
      {R"(
lhs = f32[2,5,8] parameter(0)
rhs = f32[3,8,4] parameter(1)
conv = f32[2,3,4] convolution(lhs, rhs), window={size=3},
  dim_labels=b0f_0io->b0f)",
       [](const HloInstruction* i) {
         return GetConvolutionWindow(i).has_value();
       }},
  };
  for (const Case& c : cases) {
    auto module = ParseAndVerifyHloModule(c.hlo);
    ASSERT_TRUE(module.ok()) << module.status();
    EXPECT_TRUE(c.check((*module)->entry_computation()->root())) << c.hlo;
  }
}

// Instructions built by hand with attributes that do not fit their
// operands (the parser would reject them) give UNDEFINED, never a crash.
class MalformedAttributesTest : public ::testing::Test {
 protected:
  HloInstruction* Add(HloOpcode opcode, Shape shape,
                      std::vector<HloInstruction*> operands) {
    auto instruction = std::make_unique<HloInstruction>(
        "i" + std::to_string(instructions_.size()), opcode,
        std::string(HloOpcodeName(opcode)));
    instruction->set_shape(std::move(shape));
    for (HloInstruction* operand : operands) {
      instruction->AppendOperand(operand);
    }
    instructions_.push_back(std::move(instruction));
    return instructions_.back().get();
  }
  HloInstruction* Parameter(std::vector<int64_t> dims) {
    return Add(HloOpcode::kParameter, Shape(PrimitiveType::kF32, dims), {});
  }
  // Every operand's maps are exactly {UNDEFINED}, in both directions (they
  // share the attribute checks of rule_helpers.h).
  void ExpectUndefined(const HloInstruction* instruction) {
    HloInstructionIndexing out_to_in =
        ComputeOutputToInputIndexing(instruction, 0, &context_);
    ASSERT_EQ(out_to_in.indexing_maps.size(), instruction->operand_count());
    for (const IndexingMapSet& set : out_to_in.indexing_maps) {
      ASSERT_EQ(set.size(), 1);
      EXPECT_TRUE(set[0].IsUndefined()) << ToString(set[0]);
    }
    for (int64_t k = -1; k <= instruction->operand_count(); ++k) {
      HloInstructionIndexing in_to_out =
          ComputeInputToOutputIndexing(instruction, k, &context_);
      for (const IndexingMapSet& set : in_to_out.indexing_maps) {
        for (const IndexingMap& map : set) {
          EXPECT_TRUE(map.IsUndefined())
              << "input " << k << ": " << ToString(map);
        }
      }
    }
  }

  // dim_labels=bf0_oi0->bf0.
  static ConvolutionDimensionNumbers Bf0Labels() {
    ConvolutionDimensionNumbers dn;
    dn.input_batch_dimension = 0;
    dn.input_feature_dimension = 1;
    dn.input_spatial_dimensions = {2};
    dn.kernel_output_feature_dimension = 0;
    dn.kernel_input_feature_dimension = 1;
    dn.kernel_spatial_dimensions = {2};
    dn.output_batch_dimension = 0;
    dn.output_feature_dimension = 1;
    dn.output_spatial_dimensions = {2};
    return dn;
  }
  static Window OneDimWindow(int64_t size, int64_t stride) {
    Window window;
    window.dimensions.push_back(WindowDimension{});
    window.dimensions[0].size = size;
    window.dimensions[0].stride = stride;
    return window;
  }

  mlir::MLIRContext context_;
  std::vector<std::unique_ptr<HloInstruction>> instructions_;
};

TEST_F(MalformedAttributesTest, TransposeWithRepeatedDimension) {
  HloInstruction* t =
      Add(HloOpcode::kTranspose, Shape(PrimitiveType::kF32, {2, 3}),
          {Parameter({3, 2})});
  t->set_dimensions({0, 0});
  ExpectUndefined(t);
}

TEST_F(MalformedAttributesTest, BroadcastDimensionOutOfRange) {
  HloInstruction* b = Add(HloOpcode::kBroadcast,
                          Shape(PrimitiveType::kF32, {2, 3}), {Parameter({3})});
  b->set_dimensions({7});
  ExpectUndefined(b);
}

TEST_F(MalformedAttributesTest, ReshapeChangingElementCount) {
  ExpectUndefined(Add(HloOpcode::kReshape, Shape(PrimitiveType::kF32, {5}),
                      {Parameter({2, 3})}));
}

TEST_F(MalformedAttributesTest, SliceWithZeroStride) {
  HloInstruction* s =
      Add(HloOpcode::kSlice, Shape(PrimitiveType::kF32, {2}), {Parameter({6})});
  s->set_slice({SliceDimension{0, 6, 0}});
  ExpectUndefined(s);
}

TEST_F(MalformedAttributesTest, PadWithNegativeInterior) {
  HloInstruction* p = Add(HloOpcode::kPad, Shape(PrimitiveType::kF32, {4}),
                          {Parameter({4}), Parameter({})});
  p->set_padding_config({PaddingDimension{0, 0, -1}});
  ExpectUndefined(p);
}

TEST_F(MalformedAttributesTest, ReduceWithoutInits) {
  HloInstruction* r = Add(HloOpcode::kReduce, Shape(PrimitiveType::kF32, {4}),
                          {Parameter({4, 5})});
  r->set_dimensions({1});
  ExpectUndefined(r);
}

TEST_F(MalformedAttributesTest, ConvolutionWithBadFeatureGroups) {
  HloInstruction* c =
      Add(HloOpcode::kConvolution, Shape(PrimitiveType::kF32, {1, 4, 3}),
          {Parameter({1, 5, 3}), Parameter({4, 3, 1})});
  c->set_convolution_dimension_numbers(Bf0Labels());
  c->set_feature_group_count(2);  // 5 input features are not divisible.
  ExpectUndefined(c);
}

// Consistent in every other way; XLA never combines the two groupings, and
// output-to-input used to index it anyway.
TEST_F(MalformedAttributesTest, ConvolutionWithBothGroupCounts) {
  HloInstruction* c =
      Add(HloOpcode::kConvolution, Shape(PrimitiveType::kF32, {1, 4, 3}),
          {Parameter({2, 4, 3}), Parameter({4, 2, 1})});
  c->set_convolution_dimension_numbers(Bf0Labels());
  c->set_feature_group_count(2);
  c->set_batch_group_count(2);
  ExpectUndefined(c);
}

TEST_F(MalformedAttributesTest, DynamicSliceWithMissingOffsets) {
  ExpectUndefined(Add(HloOpcode::kDynamicSlice,
                      Shape(PrimitiveType::kF32, {2, 2}),
                      {Parameter({4, 4}), Parameter({})}));
}

// The cases below were accepted by one direction before both shared one
// check per op.

TEST_F(MalformedAttributesTest, BroadcastWithRepeatedDimension) {
  HloInstruction* b =
      Add(HloOpcode::kBroadcast, Shape(PrimitiveType::kF32, {2, 3}),
          {Parameter({3, 3})});
  b->set_dimensions({1, 1});
  EXPECT_FALSE(IsValidBroadcast(b));
  ExpectUndefined(b);
}

TEST_F(MalformedAttributesTest, TransposeToAnotherRank) {
  HloInstruction* t =
      Add(HloOpcode::kTranspose, Shape(PrimitiveType::kF32, {3, 2, 1}),
          {Parameter({2, 3})});
  t->set_dimensions({1, 0});
  EXPECT_FALSE(IsValidTranspose(t));
  ExpectUndefined(t);
}

TEST_F(MalformedAttributesTest, ReverseToAnotherRank) {
  HloInstruction* r =
      Add(HloOpcode::kReverse, Shape(PrimitiveType::kF32, {2, 3, 1}),
          {Parameter({2, 3})});
  r->set_dimensions({0});
  EXPECT_FALSE(IsValidReverse(r));
  ExpectUndefined(r);
}

TEST_F(MalformedAttributesTest, SliceOfAnOperandOfAnotherRank) {
  HloInstruction* s = Add(HloOpcode::kSlice, Shape(PrimitiveType::kF32, {2}),
                          {Parameter({6, 1})});
  s->set_slice({SliceDimension{0, 2, 1}});
  EXPECT_FALSE(IsValidSlice(s));
  ExpectUndefined(s);
}

TEST_F(MalformedAttributesTest, PadToTheWrongSize) {
  // The padding makes 6 elements; the output has 5.
  HloInstruction* p = Add(HloOpcode::kPad, Shape(PrimitiveType::kF32, {5}),
                          {Parameter({4}), Parameter({})});
  p->set_padding_config({PaddingDimension{1, 1, 0}});
  EXPECT_FALSE(IsValidPad(p));
  ExpectUndefined(p);
}

TEST_F(MalformedAttributesTest, PadWithAnArrayValue) {
  HloInstruction* p = Add(HloOpcode::kPad, Shape(PrimitiveType::kF32, {4}),
                          {Parameter({4}), Parameter({1})});
  p->set_padding_config({PaddingDimension{0, 0, 0}});
  EXPECT_FALSE(IsValidPad(p));
  ExpectUndefined(p);
}

TEST_F(MalformedAttributesTest, ConcatenateOfOperandsThatDoNotFit) {
  // Along dimension 1 into f32[2, 8]: sizes adding up to 7, then an operand
  // that differs in dimension 0.
  for (const std::vector<int64_t>& second :
       {std::vector<int64_t>{2, 4}, std::vector<int64_t>{1, 5}}) {
    HloInstruction* c =
        Add(HloOpcode::kConcatenate, Shape(PrimitiveType::kF32, {2, 8}),
            {Parameter({2, 3}), Parameter(second)});
    c->set_dimensions({1});
    EXPECT_FALSE(IsValidConcatenate(c));
    ExpectUndefined(c);
  }
}

TEST_F(MalformedAttributesTest, DynamicSliceWithoutOperands) {
  HloInstruction* ds =
      Add(HloOpcode::kDynamicSlice, Shape(PrimitiveType::kF32, {2}), {});
  EXPECT_FALSE(IsValidDynamicSlice(ds));
  ExpectUndefined(ds);
}

TEST_F(MalformedAttributesTest, ReduceWithAnArrayInit) {
  HloInstruction* r = Add(HloOpcode::kReduce, Shape(PrimitiveType::kF32, {4}),
                          {Parameter({4, 5}), Parameter({1})});
  r->set_dimensions({1});
  EXPECT_FALSE(IsValidReduce(r));
  ExpectUndefined(r);
}

TEST_F(MalformedAttributesTest, ReduceWindowWithZeroStride) {
  HloInstruction* r =
      Add(HloOpcode::kReduceWindow, Shape(PrimitiveType::kF32, {8}),
          {Parameter({8}), Parameter({})});
  r->set_window(OneDimWindow(1, 0));
  EXPECT_FALSE(GetReduceWindowWindow(r).has_value());
  ExpectUndefined(r);
}

TEST_F(MalformedAttributesTest, WithoutAWindowAttribute) {
  // A reduce-window has size-1 windows; a convolution's window is the
  // whole kernel.
  auto sizes = [](std::optional<std::vector<WindowDimension>> window) {
    std::vector<int64_t> sizes;
    if (window.has_value()) {
      for (const WindowDimension& w : *window) sizes.push_back(w.size);
    }
    return sizes;
  };
  EXPECT_THAT(sizes(GetReduceWindowWindow(Add(
                  HloOpcode::kReduceWindow, Shape(PrimitiveType::kF32, {4, 5}),
                  {Parameter({4, 5}), Parameter({})}))),
              ElementsAre(1, 1));
  HloInstruction* c =
      Add(HloOpcode::kConvolution, Shape(PrimitiveType::kF32, {1, 4, 3}),
          {Parameter({1, 3, 5}), Parameter({4, 3, 3})});
  c->set_convolution_dimension_numbers(Bf0Labels());
  EXPECT_THAT(sizes(GetConvolutionWindow(c)), ElementsAre(3));
}

TEST_F(MalformedAttributesTest, ConvolutionWindowSmallerThanTheKernel) {
  HloInstruction* c =
      Add(HloOpcode::kConvolution, Shape(PrimitiveType::kF32, {1, 4, 4}),
          {Parameter({1, 3, 5}), Parameter({4, 3, 3})});
  c->set_convolution_dimension_numbers(Bf0Labels());
  c->set_window(OneDimWindow(2, 1));
  EXPECT_FALSE(GetConvolutionWindow(c).has_value());
  ExpectUndefined(c);
}

TEST_F(MalformedAttributesTest, FusionWithoutComputation) {
  ExpectUndefined(Add(HloOpcode::kFusion, Shape(PrimitiveType::kF32, {4}),
                      {Parameter({4})}));
}

TEST_F(MalformedAttributesTest, FusionCallingItselfIsUndefined) {
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

TEST_F(IndexingRulesTest, ExponentiallyManyAccessPatternsBecomeUndefined) {
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

TEST(IndexingMapSetTest, DeduplicatesEqualMaps) {
  mlir::MLIRContext context;
  IndexingMapSet set;
  EXPECT_TRUE(set.Insert(CreateIdentityMap({2, 3}, &context)));
  EXPECT_FALSE(set.Insert(CreateIdentityMap({2, 3}, &context)));
  EXPECT_TRUE(set.Insert(CreateIdentityMap({3, 2}, &context)));
  EXPECT_EQ(set.size(), 2);
}

TEST_F(IndexingRulesTest, OperandUtilization) {
  const HloInstruction* root = Parse(R"(
p0 = f32[10, 20, 50] parameter(0)
slice = f32[5, 3, 25] slice(f32[10, 20, 50] p0),
  slice={[5:10:1], [3:20:7], [0:50:2]}
)");
  ASSERT_NE(root, nullptr);
  std::vector<OperandUtilization> u =
      ComputeOperandUtilization(*root, &context_);
  ASSERT_EQ(u.size(), 1);
  // The slice reads 5 * 3 * 25 elements of 10 * 20 * 50.
  EXPECT_TRUE(u[0].exact);
  EXPECT_EQ(u[0].elements_read, 5 * 3 * 25);
  EXPECT_EQ(u[0].element_count, 10 * 20 * 50);

  // Too many points to enumerate: the box bound is still exact here.
  std::vector<OperandUtilization> bounded =
      ComputeOperandUtilization(*root, &context_, /*max_points=*/10);
  EXPECT_FALSE(bounded[0].exact);
  EXPECT_GE(bounded[0].elements_read, 5 * 3 * 25);
  EXPECT_LE(bounded[0].elements_read, 10 * 20 * 50);
}

TEST_F(IndexingRulesTest, OperandUtilizationOfAReduceReadsEverything) {
  const HloInstruction* root = Parse(R"(
p0 = f32[6, 4] parameter(0)
c = f32[] constant(0)
r = f32[4] reduce(p0, c), dimensions={0}, to_apply=add
)");
  ASSERT_NE(root, nullptr);
  std::vector<OperandUtilization> u =
      ComputeOperandUtilization(*root, &context_);
  ASSERT_EQ(u.size(), 2);
  EXPECT_EQ(u[0].elements_read, 24);
  EXPECT_DOUBLE_EQ(u[0].Fraction(), 1.0);
  EXPECT_EQ(u[1].elements_read, 1);
}

}  // namespace
}  // namespace xla_index
