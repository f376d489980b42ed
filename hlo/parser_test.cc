#include "hlo/parser.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/verifier.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::unique_ptr<HloModule> ParseOrDie(absl::string_view text) {
  absl::StatusOr<std::unique_ptr<HloModule>> module = ParseHloModule(text);
  EXPECT_TRUE(module.ok()) << module.status() << "\n" << text;
  if (!module.ok()) return nullptr;
  return *std::move(module);
}

HloInstruction* Root(const HloModule& module) {
  return module.entry_computation()->root();
}

// Every HLO snippet of XLA's public documentation (copied to
// hlo/testdata/seed_snippets, as written there, plus the versions in
// seed_cases) parses, verifies, and prints to text that parses back to the same
// module.
TEST(ParserTest, EverySeedSnippetParsesVerifiesAndRoundTrips) {
  int count = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator("hlo/testdata/seed_snippets")) {
    std::string path = entry.path().string();
    std::string text = ReadFile(path);
    absl::StatusOr<std::unique_ptr<HloModule>> module = ParseHloModule(text);
    ASSERT_TRUE(module.ok()) << path << ": " << module.status();
    EXPECT_TRUE(VerifyModule(**module).ok())
        << path << ": " << VerifyModule(**module);
    std::string printed = (*module)->ToString();
    absl::StatusOr<std::unique_ptr<HloModule>> again = ParseHloModule(printed);
    ASSERT_TRUE(again.ok()) << path << ": " << again.status() << "\n"
                            << printed;
    EXPECT_EQ((*again)->ToString(), printed) << path;
    EXPECT_TRUE(VerifyModule(**again).ok()) << path;
    ++count;
  }
  EXPECT_GE(count, 30);
}

// Module-level dumps in the forms XLA prints (while loops, collectives,
// custom calls, JSON backend configs, TPU layouts, elided constants):
// parse, verify and round-trip.
TEST(ParserTest, XlaDumpsParseVerifyAndRoundTrip) {
  int count = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator("hlo/testdata/dumps")) {
    std::string path = entry.path().string();
    absl::StatusOr<std::unique_ptr<HloModule>> module =
        ParseAndVerifyHloModule(ReadFile(path));
    ASSERT_TRUE(module.ok()) << path << ": " << module.status();
    std::string printed = (*module)->ToString();
    absl::StatusOr<std::unique_ptr<HloModule>> again =
        ParseAndVerifyHloModule(printed);
    ASSERT_TRUE(again.ok()) << path << ": " << again.status() << "\n"
                            << printed;
    EXPECT_EQ((*again)->ToString(), printed) << path;
    ++count;
  }
  EXPECT_EQ(count, 3);
}

TEST(ParserTest, WhileAndCollectivesAreOpaqueButLinked) {
  auto module =
      ParseOrDie(ReadFile("hlo/testdata/dumps/while_and_custom_call.hlo"));
  ASSERT_NE(module, nullptr);
  HloComputation* entry = module->entry_computation();
  HloInstruction* loop = entry->GetInstruction("while.16");
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->opcode(), HloOpcode::kUnknown);
  EXPECT_EQ(loop->opcode_name(), "while");
  ASSERT_NE(loop->called_computation("condition"), nullptr);
  EXPECT_EQ(loop->called_computation("body")->name(), "region_body.2");
  EXPECT_EQ(entry->root()->opcode(), HloOpcode::kCopy);
  EXPECT_EQ(entry->GetInstruction("Arg_1.2")->shape().ToString(),
            "s32[]{:T(256)}");
}

TEST(ParserTest, BareListRootIsLastInstruction) {
  auto module = ParseOrDie(
      "p0 = f32[10, 20] parameter(0)\n"
      "p1 = f32[10, 20] parameter(1)\n"
      "add = f32[10, 20] add(p0, p1)\n");
  ASSERT_NE(module, nullptr);
  HloInstruction* add = Root(*module);
  EXPECT_EQ(add->name(), "add");
  EXPECT_EQ(add->opcode(), HloOpcode::kAdd);
  ASSERT_EQ(add->operand_count(), 2);
  EXPECT_EQ(add->operand(1)->name(), "p1");
  EXPECT_EQ(add->operand(1)->parameter_number(), 1);
  EXPECT_EQ(add->shape().ToString(), "f32[10,20]");
}

// XLA's indexing-analysis documentation writes `ds = dynamic-slice(...)` with
// no result shape.
TEST(ParserTest, DynamicSliceShapeIsInferred) {
  auto module = ParseOrDie(
      "src = s32[2,2,258] parameter(0)\n"
      "of1 = s32[] parameter(1)\n"
      "of2 = s32[] parameter(2)\n"
      "of3 = s32[] parameter(3)\n"
      "ds = dynamic-slice(s32[2,2,258] src, s32[] of1, s32[] of2, s32[] "
      "of3), dynamic_slice_sizes={1, 2, 32}\n");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(Root(*module)->shape().ToString(), "s32[1,2,32]");
  EXPECT_THAT(Root(*module)->dynamic_slice_sizes(), ElementsAre(1, 2, 32));
}

TEST(ParserTest, TypedAttributes) {
  auto slice = ParseOrDie(
      "p0 = f32[10, 20, 50] parameter(0)\n"
      "slice = f32[5, 3, 25] slice(f32[10, 20, 50] p0), slice={[5:10:1], "
      "[3:20:7], [0:50:2]}");
  ASSERT_NE(slice, nullptr);
  EXPECT_THAT(Root(*slice)->slice_starts(), ElementsAre(5, 3, 0));
  EXPECT_THAT(Root(*slice)->slice_limits(), ElementsAre(10, 20, 50));
  EXPECT_THAT(Root(*slice)->slice_strides(), ElementsAre(1, 7, 2));

  auto pad = ParseOrDie(
      "p0 = f32[4, 4] parameter(0)\np1 = f32[] parameter(1)\n"
      "pad = f32[12, 16] pad(p0, p1), padding=1_4_1x4_8_0");
  ASSERT_NE(pad, nullptr);
  const PaddingConfig& config = Root(*pad)->padding_config();
  ASSERT_EQ(config.size(), 2u);
  EXPECT_EQ(config[0], (PaddingDimension{1, 4, 1}));
  EXPECT_EQ(config[1], (PaddingDimension{4, 8, 0}));

  auto dot = ParseOrDie(
      "p0 = f32[4, 128, 256] parameter(0)\np1 = f32[4, 256, 64] "
      "parameter(1)\ndot = f32[4, 128, 64] dot(p0, p1), lhs_batch_dims={0}, "
      "rhs_batch_dims={0}, lhs_contracting_dims={2}, "
      "rhs_contracting_dims={1}");
  ASSERT_NE(dot, nullptr);
  const DotDimensionNumbers& d = Root(*dot)->dot_dimension_numbers();
  EXPECT_THAT(d.lhs_batch_dimensions, ElementsAre(0));
  EXPECT_THAT(d.rhs_contracting_dimensions, ElementsAre(1));

  auto gather = ParseOrDie(
      ReadFile("hlo/testdata/seed_snippets/seed000_gather_multiline.hlo"));
  ASSERT_NE(gather, nullptr);
  const GatherDimensionNumbers& g = Root(*gather)->gather_dimension_numbers();
  EXPECT_THAT(g.offset_dims, ElementsAre(1, 2, 3));
  EXPECT_TRUE(g.collapsed_slice_dims.empty());
  EXPECT_THAT(g.start_index_map, ElementsAre(0, 1));
  EXPECT_EQ(g.index_vector_dim, 1);
  EXPECT_THAT(Root(*gather)->gather_slice_sizes(), ElementsAre(7, 8, 4));
}

TEST(ParserTest, ModuleWithReducerWindowAndComputations) {
  auto module =
      ParseOrDie(ReadFile("hlo/testdata/seed_snippets/case_reduce_window.hlo"));
  ASSERT_NE(module, nullptr);
  HloInstruction* rw = Root(*module);
  ASSERT_TRUE(rw->has_window());
  ASSERT_EQ(rw->window().dimensions.size(), 2u);
  EXPECT_EQ(rw->window().dimensions[1].size, 512);
  EXPECT_EQ(rw->window().dimensions[1].stride, 1);
  ASSERT_NE(rw->to_apply(), nullptr);
  EXPECT_EQ(rw->to_apply()->name(), "max");
  EXPECT_EQ(rw->to_apply()->root()->opcode(), HloOpcode::kMaximum);
  EXPECT_TRUE(std::isinf(rw->operand(1)->literal().GetDouble(0)));
  EXPECT_LT(rw->operand(1)->literal().GetDouble(0), 0);
  EXPECT_EQ(module->entry_computation()->name(), "e");
}

// The form XLA dumps: '%' names, a signature, operand shapes, comments,
// metadata and other attributes no analysis needs, an unknown op.
TEST(ParserTest, XlaDumpStyleModule) {
  auto module = ParseOrDie(R"(
HloModule jit_f, entry_computation_layout={(f32[8,16]{1,0})->f32[8]{0}}, is_scheduled=true

%region_0.4 (Arg_0.5: f32[], Arg_1.6: f32[]) -> f32[] {
  %Arg_0.5 = f32[] parameter(0), metadata={op_name="jit(f)/reduce_sum"}
  %Arg_1.6 = f32[] parameter(1)
  ROOT %add.7 = f32[] add(f32[] %Arg_0.5, f32[] %Arg_1.6), metadata={op_name="a, b}" source_line=3}
}

%fused_computation (param_0: f32[8,16]) -> f32[8] {
  %param_0 = f32[8,16]{1,0} parameter(0)
  %constant.1 = f32[] constant(0)
  ROOT %reduce.1 = f32[8]{0} reduce(f32[8,16]{1,0} %param_0, f32[] %constant.1), dimensions={1}, to_apply=%region_0.4
}

ENTRY %main.9 (Arg_0.1: f32[8,16]) -> f32[8] {
  %Arg_0.1 = f32[8,16]{1,0} parameter(0), sharding={replicated}
  %custom = f32[8,16]{1,0} cholesky(f32[8,16]{1,0} %Arg_0.1), custom_attr={a=[1,2]}, backend_config="{\"x\": 1}"
  ROOT %fusion = f32[8]{0} fusion(%custom), kind=kLoop, calls=%fused_computation, /*comment*/ frontend_attributes={_xla="1"}
}
)");
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(VerifyModule(*module).ok()) << VerifyModule(*module);
  HloInstruction* fusion = Root(*module);
  EXPECT_EQ(fusion->opcode(), HloOpcode::kFusion);
  EXPECT_EQ(fusion->fusion_kind(), "kLoop");
  ASSERT_NE(fusion->fused_computation(), nullptr);
  EXPECT_EQ(fusion->fused_computation()->name(), "fused_computation");
  EXPECT_EQ(fusion->fused_computation()->root()->to_apply()->name(),
            "region_0.4");
  HloInstruction* custom = fusion->operand(0);
  EXPECT_EQ(custom->opcode(), HloOpcode::kUnknown);
  EXPECT_EQ(custom->opcode_name(), "cholesky");
  EXPECT_EQ(custom->attribute("backend_config").value(), "\"{\\\"x\\\": 1}\"");
  EXPECT_EQ(module->entry_computation()->name(), "main.9");
  // Round trip.
  auto again = ParseOrDie(module->ToString());
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->ToString(), module->ToString());
}

TEST(ParserTest, ConstantsAndCompare) {
  auto module = ParseOrDie(R"(
a = f32[3] constant({1.5, -inf, nan})
b = f32[2,2] constant({ { 1, 2 }, { 3, 4 } })
c = pred[] constant(true)
d = s8[2] constant({-128, 127})
e = f32[3] constant({...})
f = pred[3] compare(a, a), direction=LT
)");
  ASSERT_NE(module, nullptr);
  HloComputation* c = module->entry_computation();
  const Literal& a = c->GetInstruction("a")->literal();
  EXPECT_EQ(a.GetDouble(0), 1.5);
  EXPECT_TRUE(std::isinf(a.GetDouble(1)));
  EXPECT_TRUE(std::isnan(a.GetDouble(2)));
  EXPECT_EQ(c->GetInstruction("b")->literal().GetDouble(2), 3);
  EXPECT_EQ(c->GetInstruction("c")->literal().GetInt(0), 1);
  EXPECT_EQ(c->GetInstruction("d")->literal().GetInt(0), -128);
  EXPECT_FALSE(c->GetInstruction("e")->literal().has_values());
  EXPECT_EQ(c->GetInstruction("f")->comparison_direction(),
            ComparisonDirection::kLt);
  EXPECT_EQ(c->GetInstruction("b")->literal().ToString(), "{{1, 2}, {3, 4}}");
}

// The snippets of XLA's shapes-and-layout documentation name operands they
// never define; their shapes are known (written, or the result's for add), so
// they become parameters.
TEST(ParserTest, SnippetOperandsBecomeImplicitParameters) {
  auto module = ParseOrDie(
      ReadFile("hlo/testdata/seed_snippets/seed002_fusion_memory_space.hlo"));
  ASSERT_NE(module, nullptr);
  HloInstruction* fusion = Root(*module);
  EXPECT_EQ(fusion->operand(0)->opcode(), HloOpcode::kParameter);
  EXPECT_EQ(fusion->operand(0)->shape().layout().memory_space, 1);
  EXPECT_EQ(fusion->fusion_kind(), "kCustom");
  EXPECT_EQ(fusion->fused_computation(), nullptr);  // Not in the snippet.
  EXPECT_EQ(fusion->called_computations()[0].name, "all-reduce-scatter.3");
}

TEST(ParserTest, ForwardReferencesAndExplicitRoot) {
  auto module = ParseOrDie(R"(
c {
  ROOT r = f32[4] negate(x)
  x = f32[4] exponential(p)
  p = f32[4] parameter(0)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(Root(*module)->name(), "r");
  std::vector<HloInstruction*> order = module->entry_computation()->PostOrder();
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order[0]->name(), "p");
  EXPECT_EQ(order[2]->name(), "r");
}

TEST(ParserTest, VerifierNamesInstructionAndExpectation) {
  auto module = ParseOrDie(
      "p0 = f32[10, 20, 50] parameter(0)\n"
      "slice = f32[5, 3, 24] slice(p0), slice={[5:10:1], [3:20:7], "
      "[0:50:2]}");
  ASSERT_NE(module, nullptr);
  absl::Status status = VerifyModule(*module);
  EXPECT_THAT(std::string(status.message()),
              HasSubstr("2:1: instruction 'slice' in 'main': written shape "
                        "f32[5,3,24] differs from f32[5,3,25]"));
}

// The parser reads each distinct shape spelling once and shares the Shape;
// a spelling is reused only where the parse would read the same thing (a
// comment before a layout, or a spaced layout, is read in full).
TEST(ParserTest, EqualShapeSpellingsShareOneShape) {
  std::unique_ptr<HloModule> module = ParseOrDie(R"(
HloModule m
ENTRY e {
  a = f32[2,3]{1,0} parameter(0)
  b = f32[2,3]{1,0} negate(f32[2,3]{1,0} a)
  c = f32[2,3] negate(b)
  d = f32[2,3] /* layout after a comment */ {0,1} negate(c)
  e = f32[2,3] {0,1} negate(d)
  t = (f32[2,3]{1,0}, f32[2,3]) tuple(a, c)
  ROOT u = (f32[2,3]{1,0}, f32[2,3]) tuple(b, c)
})");
  ASSERT_NE(module, nullptr);
  const HloComputation& entry = *module->entry_computation();
  auto shape_of = [&](absl::string_view name) -> const Shape& {
    return entry.GetInstruction(name)->shape();
  };
  EXPECT_EQ(&shape_of("a"), &shape_of("b"));
  EXPECT_EQ(&shape_of("t"), &shape_of("u"));
  EXPECT_NE(&shape_of("a"), &shape_of("c"));
  EXPECT_FALSE(shape_of("c").has_layout());
  ASSERT_TRUE(shape_of("d").has_layout());
  EXPECT_THAT(shape_of("d").layout().minor_to_major, ElementsAre(0, 1));
  ASSERT_TRUE(shape_of("e").has_layout());
  EXPECT_THAT(shape_of("e").layout().minor_to_major, ElementsAre(0, 1));
  EXPECT_EQ(shape_of("u").ToString(), "(f32[2,3]{1,0}, f32[2,3])");
}

// Operands written after their users are found and ordered (the written
// order is not an operands-first order here).
TEST(ParserTest, OperandDefinedAfterItsUser) {
  std::unique_ptr<HloModule> module = ParseOrDie(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  ROOT r = add(n, p)
  n = f32[4] negate(p)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(Root(*module)->shape().ToString(), "f32[4]");
  EXPECT_EQ(Root(*module)->operand(0)->name(), "n");
}

}  // namespace
}  // namespace xla_index
