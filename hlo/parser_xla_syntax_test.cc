// HLO text in the syntax XLA's own parser reads, and text it refuses, one
// case per feature. Accepted texts must verify and round-trip (print,
// parse, print gives the same text); refused ones must give an error at
// the expected line:column. Every text here is written for this test.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "hlo/parser_test_util.h"

namespace xla_index {
namespace {

using ::testing::HasSubstr;

// ---- Accepted. ----

TEST(XlaSyntaxAccepted, LayoutAfterSpace) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule spaced
ENTRY main {
  a = f32[3,6,128] {2,1,0} parameter(0)
  ROOT b = f32[3,6,128] {2,1,0} negate(a)
})");
  ASSERT_NE(module, nullptr);
  const HloInstruction* root = module->entry_computation()->root();
  ASSERT_TRUE(root->shape().has_layout());
  EXPECT_EQ(root->shape().ToString(), "f32[3,6,128]{2,1,0}");
}

// XLA's lexer skips spaces between any tokens, so its tests also write
// `f32[3, 6] {1, 0}`: a spaced layout before the opcode.
TEST(XlaSyntaxAccepted, LayoutWithSpacesInside) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule spaced
ENTRY main {
  a = f32[3, 12, 6] parameter(0)
  ROOT b = f32[3, 6, 12] { 1, 2, 0 } bitcast(a)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry_computation()->root()->shape().ToString(),
            "f32[3,6,12]{1,2,0}");
}

TEST(XlaSyntaxAccepted, SignatureBraceIsNotALayout) {
  ExpectAccepted(R"(HloModule sig
ENTRY main (x: f32[4]) -> f32[4] {
  x = f32[4] parameter(0)
  ROOT y = f32[4] abs(x)
})");
}

TEST(XlaSyntaxAccepted, ModuleAttributesAfterName) {
  std::unique_ptr<HloModule> module = ExpectAccepted(
      R"(HloModule attrs, entry_computation_layout={(f32[2]{0})->f32[2]{0}}, is_scheduled=true, frontend_attributes={k="v"}
ENTRY main {
  p = f32[2]{0} parameter(0)
  ROOT q = f32[2]{0} sqrt(p)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->attributes().size(), 3);
}

// A snippet's leniency (a module requires names: parser_xla_head_test.cc).
TEST(XlaSyntaxAccepted, UnnamedInstructionsInASnippet) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(ENTRY main {
  x = f32[2,4] parameter(0)
  y = f32[2,4] parameter(1)
  f32[2,4] multiply(x, y)
  ROOT f32[2,4] add(x, y)
})");
  ASSERT_NE(module, nullptr);
  const HloComputation* entry = module->entry_computation();
  EXPECT_EQ(entry->instructions().size(), 4);
  EXPECT_EQ(entry->root()->opcode(), HloOpcode::kAdd);
}

TEST(XlaSyntaxAccepted, NestedInstructionsAsOperands) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule nested
ENTRY main {
  ROOT sum = f32[10] add(f32[10] parameter(0), f32[10] negate(f32[10] parameter(1)))
})");
  ASSERT_NE(module, nullptr);
  const HloComputation* entry = module->entry_computation();
  EXPECT_EQ(entry->instructions().size(), 4);
  EXPECT_EQ(entry->parameters().size(), 2);
  EXPECT_EQ(entry->root()->operand(1)->opcode(), HloOpcode::kNegate);
}

TEST(XlaSyntaxAccepted, InlineComputationsAsAttributeValues) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule inline
ENTRY main {
  v = f32[16] parameter(0)
  zero = f32[] constant(0)
  total = f32[] reduce(v, zero), dimensions={0}, to_apply={
    l = f32[] parameter(0)
    r = f32[] parameter(1)
    ROOT s = f32[] add(l, r)
  }
  ROOT out = f32[16] fusion(v), kind=kLoop, calls={
    w = f32[16] parameter(0)
    ROOT m = f32[16] map(w), dimensions={0}, to_apply={
      x = f32[] parameter(0)
      ROOT y = f32[] negate(x)
    }
  }
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->computations().size(), 4);
  const HloInstruction* root = module->entry_computation()->root();
  ASSERT_EQ(root->called_computations().size(), 1);
  ASSERT_NE(root->called_computations()[0].computation, nullptr);
}

TEST(XlaSyntaxAccepted, CustomCallLiteral) {
  ExpectAccepted(R"(HloModule cc
ENTRY main {
  p = s32[2] parameter(0)
  ROOT c = s32[2] custom-call(p), custom_call_target="fill", literal=s32[2] {7, 8}
})");
}

TEST(XlaSyntaxAccepted, MeshReplicaGroups) {
  ExpectAccepted(R"(HloModule mesh
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  p = f32[8] parameter(0)
  ROOT r = f32[8] all-reduce(p), replica_groups=mesh['x'=2,'y'=4]{'x'}, to_apply=add
})");
}

TEST(XlaSyntaxAccepted, AbsOfComplexIsReal) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule cabs
ENTRY main {
  z = c64[3] parameter(0)
  ROOT m = f32[3] abs(z)
})");
  ASSERT_NE(module, nullptr);
  absl::StatusOr<std::unique_ptr<HloModule>> inferred =
      ParseAndVerifyHloModule("z = c128[2] parameter(0)\nROOT m = abs(z)");
  ASSERT_TRUE(inferred.ok()) << inferred.status();
  EXPECT_EQ((*inferred)->entry_computation()->root()->shape().ToString(),
            "f64[2]");
}

TEST(XlaSyntaxAccepted, ScalarReduceWindowWithoutWindow) {
  ExpectAccepted(R"(HloModule rw
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce-window(x, z), to_apply=add
})");
}

TEST(XlaSyntaxAccepted, DynamicSliceWithOneIndexVector) {
  ExpectAccepted(R"(HloModule ds
ENTRY main {
  x = f32[8,6] parameter(0)
  i = s32[2] parameter(1)
  ROOT d = f32[2,3] dynamic-slice(x, i), dynamic_slice_sizes={2,3}
})");
}

TEST(XlaSyntaxAccepted, ConditionalShapeIsInferred) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule cond
yes {
  a = f32[4] parameter(0)
  ROOT n = f32[4] negate(a)
}
no {
  b = f32[4] parameter(0)
  ROOT c = f32[4] copy(b)
}
ENTRY main {
  p = pred[] parameter(0)
  x = f32[4] parameter(1)
  ROOT r = conditional(p, x, x), true_computation=yes, false_computation=no
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry_computation()->root()->shape().ToString(false),
            "f32[4]");
}

TEST(XlaSyntaxAccepted, InputOutputAliasAndBufferDonor) {
  ExpectAccepted(
      R"(HloModule alias, input_output_alias={ {0}: (0, {}, may-alias), {1}: (1, {0}, must-alias) }, buffer_donor={ (2, {}) }
ENTRY main {
  a = f32[2] parameter(0)
  b = (f32[2]) parameter(1)
  c = f32[2] parameter(2)
  ROOT t = (f32[2], f32[2]) tuple(a, c)
})");
}

TEST(XlaSyntaxAccepted, BufferShapes) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule buffers
ENTRY main {
  p = f32[8] parameter(0)
  b = b(f32[8]) custom-call(p), custom_call_target="Pin"
  ROOT u = (b(f32[]), f32[8]) custom-call(b), custom_call_target="Unpin"
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry_computation()->root()->shape().ToString(),
            "(b(f32[]), f32[8])");
}

TEST(XlaSyntaxAccepted, DynamicDimensions) {
  // `<=n` bounds are sizes; an unbounded `?` is read.
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule dyn
unused {
  u = f32[?,4] parameter(0)
  ROOT v = f32[?,4] negate(u)
}
ENTRY main {
  p = f32[<=10] parameter(0)
  q = f32[?] parameter(1)
  ROOT n = f32[<=10] negate(p)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry_computation()->parameters()[1]->shape().ToString(),
            "f32[?]");
}

TEST(XlaSyntaxAccepted, NanWithPayloadAndSign) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule nans
ENTRY main {
  ROOT c = f32[3] constant({-nan(0x7f), nan(0x1), -nan})
})");
  ASSERT_NE(module, nullptr);
}

TEST(XlaSyntaxAccepted, ArrayConstantWrittenAsOneScalar) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule fill
ENTRY main {
  ROOT c = s8[10] constant(1)
})");
  ASSERT_NE(module, nullptr);
  const Literal& literal = module->entry_computation()->root()->literal();
  for (int64_t i = 0; i < 10; ++i) EXPECT_EQ(literal.GetInt(i), 1);
}

TEST(XlaSyntaxAccepted, PredLiteralsTrueFalseZeroOne) {
  ExpectAccepted(R"(HloModule preds
ENTRY main {
  ROOT c = pred[4] constant({true, false, 0, 1})
})");
}

TEST(XlaSyntaxAccepted, FloatConstantsAtTheirLimits) {
  ExpectAccepted(R"(HloModule limits
ENTRY main {
  h = f16[2] constant({65504, -65504})
  ROOT b = bf16[1] constant({-inf})
})");
}

// Stack-frame tables are read before the computations only, as XLA HEAD
// reads them: tested in parser_xla_head_test.cc.

TEST(XlaSyntaxAccepted, AsyncAndUnmodelledOpsAreOpaque) {
  ExpectAccepted(R"(HloModule opaque
ENTRY main {
  p = f32[8] parameter(0)
  s = ((f32[8]), f32[8], u32[]) custom-call-start(p), custom_call_target="x"
  d = f32[8] custom-call-done(s)
  ROOT c = f32[8] cholesky(d)
})");
}

TEST(XlaSyntaxAccepted, SnippetMayQuoteOneParameter) {
  ExpectAccepted("q = s32[4] parameter(3)\nROOT n = s32[4] negate(q)");
}

// ---- Refused, with where. ----

TEST(XlaSyntaxRefused, UnknownOpcode) {
  ExpectRejected(R"(HloModule m
ENTRY main {
  p = f32[2] parameter(0)
  ROOT q = f32[2] frobnicate(p)
})",
                 "4:19", "unknown opcode 'frobnicate'");
}

TEST(XlaSyntaxRefused, UnknownNestedOpcode) {
  ExpectRejected(R"(HloModule m
ENTRY main {
  ROOT q = f32[2] negate(f32[2] twiddle(f32[2] parameter(0)))
})",
                 "3:33", "unknown opcode 'twiddle'");
}

TEST(XlaSyntaxRefused, ParameterNumbersWithAGap) {
  ExpectRejected(R"(HloModule m
ENTRY main {
  a = f32[2] parameter(0)
  b = f32[2] parameter(7)
  ROOT c = f32[2] add(a, b)
})",
                 "4:3", "parameter number 7 of 'main' is out of range");
}

TEST(XlaSyntaxRefused, ParameterNumberInt64Max) {
  ExpectRejected(R"(HloModule m
ENTRY main {
  ROOT a = f32[2] parameter(9223372036854775807)
})",
                 "3:3", "parameter number 9223372036854775807");
}

TEST(XlaSyntaxRefused, ReduceWindowWithoutToApply) {
  ExpectRejected(R"(HloModule m
ENTRY main {
  p = f32[8] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[4] reduce-window(p, z), window={size=2 stride=2}
})",
                 "5:19", "needs to_apply=");
}

TEST(XlaSyntaxRefused, CompareWithoutDirection) {
  ExpectRejected(R"(HloModule m
ENTRY main {
  a = s32[3] parameter(0)
  ROOT c = pred[3] compare(a, a)
})",
                 "4:20", "needs direction=");
}

TEST(XlaSyntaxRefused, FusionWithoutCalls) {
  ExpectRejected(R"(HloModule m
ENTRY main {
  a = f32[3] parameter(0)
  ROOT f = f32[3] fusion(a), kind=kLoop
})",
                 "4:19", "needs calls=");
}

TEST(XlaSyntaxRefused, F16ConstantOutOfRange) {
  ExpectRejected(R"(HloModule m
ENTRY main {
  ROOT c = f16[] constant(-65520)
})",
                 "3:27", "out of range for f16");
}

TEST(XlaSyntaxRefused, PredLiteralTwo) {
  ExpectRejected(R"(HloModule m
ENTRY main {
  ROOT c = pred[2] constant({1, 2})
})",
                 "3:33", "invalid pred value '2'");
}

TEST(XlaSyntaxRefused, NanPayloadMalformed) {
  ExpectRejected(R"(HloModule m
ENTRY main {
  ROOT c = f32[] constant(nan(7f))
})",
                 "3:30", "NaN payload");
}

TEST(XlaSyntaxRefused, ShapeBytesOverflowInt64) {
  ExpectRejected(R"(HloModule m
ENTRY main {
  ROOT p = f32[4611686018427387904] parameter(0)
})",
                 "3:12", "overflow int64 as a size in bytes");
  ExpectRejected("ROOT p = f32[9223372036854775807] parameter(0)", "1:10",
                 "overflow int64");
}

TEST(XlaSyntaxRefused, TwoModulesInOneFile) {
  ExpectRejected(R"(HloModule first
ENTRY main {
  ROOT p = f32[2] parameter(0)
}

HloModule second
ENTRY main {
  ROOT p = f32[2] parameter(0)
})",
                 "6:1", "a second HloModule");
}

TEST(XlaSyntaxRefused, MalformedInputOutputAlias) {
  ExpectRejected(R"(HloModule m, input_output_alias={ {0}: (0, {}, maybe) }
ENTRY main {
  ROOT a = f32[2] parameter(0)
})",
                 "1:48", "expected may-alias or must-alias");
  ExpectRejected(R"(HloModule m, input_output_alias={ {0} (0, {}) }
ENTRY main {
  ROOT a = f32[2] parameter(0)
})",
                 "1:39", "expected ':' after the output shape index");
}

TEST(XlaSyntaxRefused, MalformedBufferDonor) {
  ExpectRejected(R"(HloModule m, buffer_donor={ (-1, {}) }
ENTRY main {
  ROOT a = f32[2] parameter(0)
})",
                 "1:30", "parameter numbers must not be negative");
}

TEST(XlaSyntaxRefused, BooleanForAnIntegerConstant) {
  ExpectRejected(R"(HloModule m
ENTRY main {
  ROOT c = s32[2] constant({1, true})
})",
                 "3:32", "expected a value of type s32, found 'true'");
}

TEST(XlaSyntaxRefused, ComplexPartOutOfRange) {
  ExpectRejected(R"(HloModule m
ENTRY main {
  ROOT c = c64[] constant((1, 1e39))
})",
                 "3:31", "out of range for f32");
}

TEST(XlaSyntaxRefused, AsyncDoneWithoutItsStart) {
  ExpectRejected(R"(HloModule m
ENTRY main {
  p = f32[8] parameter(0)
  ROOT d = f32[8] all-gather-done(p)
})",
                 "4:3", "must take a all-gather-start or all-gather-update");
  ExpectRejected(R"(HloModule m
ENTRY main {
  p = f32[8] parameter(0)
  s = ((f32[8]), f32[8]) custom-call-start(p), custom_call_target="x"
  ROOT d = f32[8] custom-call-done(s, p)
})",
                 "5:3", "takes one operand");
}

// Unbounded `?` dimensions in instructions are read (XLA HEAD's parser reads
// them; tested in parser_xla_head_test.cc), but a constant has no literal of
// an unbounded shape.
TEST(XlaSyntaxRefused, UnboundedConstant) {
  ExpectRejected(R"(HloModule m
ENTRY main {
  ROOT c = f32[?] constant({1})
})",
                 "3:28", "no literal of shape f32[?]");
}

// Compact tuple-element operands (`%p#0`), which XLA HEAD reads, are
// tested in parser_xla_head_test.cc.

TEST(XlaSyntaxRefused, NestedInstructionsTooDeep) {
  std::string text = "ROOT r = ";
  for (int i = 0; i < 100; ++i) text += "f32[2] negate(";
  text += "f32[2] parameter(0)";
  for (int i = 0; i < 100; ++i) text += ")";
  absl::StatusOr<std::unique_ptr<HloModule>> module = ParseHloModule(text);
  ASSERT_FALSE(module.ok());
  EXPECT_THAT(module.status().message(), HasSubstr("too deep"));
}

}  // namespace
}  // namespace xla_index
