// HLO text that XLA HEAD's parser (xla/hlo/parser/hlo_parser.cc) reads, and
// text it refuses, one feature per test, in texts written for this test.
// Each accepted text must parse, verify, and print so that reparsing the
// printed text prints it again unchanged; each refused text must fail with
// an error at the given line:column. The comment of each test names the
// function of XLA's parser that accepts or refuses the form.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"

namespace xla_index {
namespace {

using ::testing::HasSubstr;

// Parses and verifies `text`; printing and reparsing must give the same
// text. Returns the module (null on failure) for further checks.
std::unique_ptr<HloModule> ExpectAccepted(const std::string& text) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  EXPECT_TRUE(module.ok()) << module.status() << "\n" << text;
  if (!module.ok()) return nullptr;
  std::string printed = (*module)->ToString();
  absl::StatusOr<std::unique_ptr<HloModule>> again =
      ParseAndVerifyHloModule(printed);
  EXPECT_TRUE(again.ok()) << again.status() << "\n" << printed;
  if (again.ok()) {
    EXPECT_EQ((*again)->ToString(), printed);
  }
  return *std::move(module);
}

// The error starts with `location` ("line:column") and contains `message`.
void ExpectRejected(const std::string& text, const std::string& location,
                    const std::string& message) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  ASSERT_FALSE(module.ok()) << text;
  std::string error(module.status().message());
  EXPECT_TRUE(absl::StartsWith(error, location + ":"))
      << "expected " << location << ", got: " << error;
  EXPECT_THAT(error, HasSubstr(message)) << error;
}

// The printed instruction named `name` in the entry computation.
std::string EntryInstruction(const HloModule& module, const std::string& name) {
  const HloInstruction* inst = module.entry_computation()->GetInstruction(name);
  return inst == nullptr ? "<none>" : inst->ToString();
}

// ---- Stack-frame tables. HloParserImpl::ParseHloModule calls
// ParseStackFrameIndex before ParseComputations. ----

constexpr char kFrames[] = R"(
FileNames
1 "train.py"
2 "blocks/mlp.py"

FunctionNames
1 "step"
2 "mlp_apply"

FileLocations
1 {file_name_id=1 function_name_id=1 line=40 end_line=41 column=3 end_column=17}
2 {file_name_id=2 function_name_id=2 line=7 end_line=7 column=9 end_column=30}

StackFrames
1 {file_location_id=1 parent_frame_id=0}
2 {file_location_id=2 parent_frame_id=1}
)";

TEST(StackFrameIndex, BeforeTheComputations) {
  std::unique_ptr<HloModule> module = ExpectAccepted(
      absl::StrCat("HloModule framed, entry_computation_layout={(f16[6])->"
                   "f16[6]}\n",
                   kFrames, R"(
ENTRY run {
  w = f16[6] parameter(0), metadata={op_name="neg" stack_frame_id=2}
  ROOT o = f16[6] negate(w)
})"));
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry_computation()->instruction_count(), 2);
}

// Older XLA wrote the tables after the computations; still read.
TEST(StackFrameIndex, AfterTheComputationsStillRead) {
  ExpectAccepted(
      absl::StrCat("HloModule late\nENTRY run {\n"
                   "  ROOT w = s8[3] parameter(0)\n}\n",
                   kFrames));
}

// ParseStackFrameIndex: once FileNames starts the index, FunctionNames,
// FileLocations and StackFrames must follow in this order.
TEST(StackFrameIndex, MissingTableRefused) {
  ExpectRejected(R"(HloModule framed
FileNames
1 "a.py"
FileLocations
1 {file_name_id=1 function_name_id=1 line=1 end_line=1 column=1 end_column=2}
StackFrames
ENTRY run {
  ROOT w = s8[3] parameter(0)
})",
                 "4:1", "expected 'FunctionNames'");
}

// ParseFileLocationList -> ParseSubAttributes: every field is required.
TEST(StackFrameIndex, MissingFieldRefused) {
  ExpectRejected(R"(HloModule framed
FileNames
FunctionNames
FileLocations
7 {file_name_id=1 function_name_id=1 line=1 end_line=1 column=1}
StackFrames
ENTRY run {
  ROOT w = s8[3] parameter(0)
})",
                 "5:3", "'end_column' is expected but not seen");
}

// ParseStackFramesList -> ParseAttributeHelper: an unknown field.
TEST(StackFrameIndex, UnknownFieldRefused) {
  ExpectRejected(R"(HloModule framed
FileNames
FunctionNames
FileLocations
StackFrames
1 {file_location_id=1 parent=0}
ENTRY run {
  ROOT w = s8[3] parameter(0)
})",
                 "6:23", "unexpected stack-frame field 'parent'");
}

// ---- `HloModule name:`: HloLexer::LexIdentifier makes a name followed
// right by ':' one name token, which HloParserImpl::ParseName reads. ----

TEST(ModuleName, ColonAfterTheName) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule colon_named:
ENTRY run {
  ROOT k = u16[] constant(9)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->name(), "colon_named");
}

// A ':' after a space is a token of its own, not part of the name, and
// HloParserImpl::ParseHloModule then finds no computation name.
TEST(ModuleName, SpacedColonRefused) {
  ExpectRejected(R"(HloModule spaced :
ENTRY run {
  ROOT k = u16[] constant(9)
})",
                 "1:18", "");
}

// ---- Broadcast of a scalar: HloParserImpl::ParseInstructionRhs (case
// kBroadcast) requires dimensions= only for a non-scalar operand. ----

TEST(Broadcast, ScalarWithoutDimensions) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule bcast
ENTRY run {
  s = s16[] parameter(0)
  b = s16[3,5] broadcast(s)
  ROOT r = s16[3,5] abs(s16[3,5] broadcast(s16[] constant(2)))
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(EntryInstruction(*module, "b"),
            "b = s16[3,5] broadcast(s), dimensions={}");
}

TEST(Broadcast, VectorWithoutDimensionsRefused) {
  ExpectRejected(R"(HloModule bcast
ENTRY run {
  v = s16[5] parameter(0)
  b = s16[3,5] broadcast(v)
})",
                 "4:3", "needs dimensions=");
}

// ---- `s32 [4,2]`: HloLexer skips spaces between tokens and reads element
// type names as reserved words, so HloParserImpl::ParseShape reads a space
// before the dimensions. ----

TEST(Shape, SpaceBetweenTypeAndDimensions) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule spaced
ENTRY run {
  a = s32 [7,3,2] parameter(0)
  ROOT n = s32  [7,3,2]{2,1,0} negate(s32 [7,3,2] a)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry_computation()->root()->shape().ToString(),
            "s32[7,3,2]{2,1,0}");
}

// ---- Compact tuple-element operands: HloParserImpl::ParseOperands reads
// `(shape)? name ('#' integer)*`, making one get-tuple-element per distinct
// prefix, named with '#' replaced by '_'. ----

TEST(CompactTupleElement, OneLevel) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule gte
ENTRY run {
  q = (s8[4], u8[4]) parameter(0)
  ROOT m = s8[4] multiply(s8[4] %q#0, s8[4] %q#0)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry_computation()->ToString(),
            "ENTRY run {\n"
            "  q = (s8[4], u8[4]) parameter(0)\n"
            "  q_0 = s8[4] get-tuple-element(q), index=0\n"
            "  ROOT m = s8[4] multiply(q_0, q_0)\n"
            "}\n");
}

TEST(CompactTupleElement, NestedAndMixedShareTheirPrefix) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule gte
ENTRY run {
  q = (u8[2], (s16[3], f16[5])) parameter(0)
  a = s16[3] negate(%q#1#0)
  ROOT t = ((s16[3], f16[5]), s16[3], f16[5]) tuple((s16[3], f16[5]) %q#1, q#1#0, f16[5] q #1 # 1)
})");
  ASSERT_NE(module, nullptr);
  // q_1 is made once, for its first use, and serves q#1#0 and q#1#1.
  EXPECT_EQ(module->entry_computation()->ToString(),
            "ENTRY run {\n"
            "  q = (u8[2], (s16[3], f16[5])) parameter(0)\n"
            "  q_1 = (s16[3], f16[5]) get-tuple-element(q), index=1\n"
            "  q_1_0 = s16[3] get-tuple-element(q_1), index=0\n"
            "  a = s16[3] negate(q_1_0)\n"
            "  q_1_1 = f16[5] get-tuple-element(q_1), index=1\n"
            "  ROOT t = ((s16[3], f16[5]), s16[3], f16[5]) tuple(q_1, q_1_0, "
            "q_1_1)\n"
            "}\n");
}

TEST(CompactTupleElement, OfATupleInstruction) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule gte
ENTRY run {
  x = u32[6] parameter(0)
  y = s32[6] parameter(1)
  pair = (u32[6], s32[6]) tuple(x, y)
  ROOT n = s32[6] negate(s32[6] %pair#1)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(EntryInstruction(*module, "pair_1"),
            "pair_1 = s32[6] get-tuple-element(pair), index=1");
}

// The generated name is taken: before the use (the element gets `.1`) or
// after it (the written instruction keeps its name).
TEST(CompactTupleElement, NameCollisions) {
  std::unique_ptr<HloModule> before = ExpectAccepted(R"(HloModule gte
ENTRY run {
  q = (s8[4], u8[4]) parameter(0)
  q_0 = s8[4] parameter(1)
  ROOT m = s8[4] multiply(s8[4] %q#0, q_0)
})");
  ASSERT_NE(before, nullptr);
  EXPECT_EQ(EntryInstruction(*before, "m"), "m = s8[4] multiply(q_0.1, q_0)");
  std::unique_ptr<HloModule> after = ExpectAccepted(R"(HloModule gte
ENTRY run {
  q = (s8[4], u8[4]) parameter(0)
  m = s8[4] negate(%q#0)
  q_0 = s8[4] parameter(1)
  ROOT r = s8[4] add(m, q_0)
})");
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(EntryInstruction(*after, "m"), "m = s8[4] negate(q_0.1)");
  EXPECT_EQ(EntryInstruction(*after, "q_0"), "q_0 = s8[4] parameter(1)");
}

// ParseOperands: "GTE operand must be tuple".
TEST(CompactTupleElement, OfANonTupleRefused) {
  ExpectRejected(R"(HloModule gte
ENTRY run {
  v = s8[4] parameter(0)
  ROOT m = s8[4] negate(s8[4] %v#0)
})",
                 "4:31", "get-tuple-element");
}

// ParseOperands: "GTE index ... out of bounds".
TEST(CompactTupleElement, IndexOutOfRangeRefused) {
  ExpectRejected(R"(HloModule gte
ENTRY run {
  q = (s8[4], u8[4]) parameter(0)
  ROOT m = s8[4] negate(q#2)
})",
                 "4:25", "index=2 is out of range for (s8[4], u8[4])");
}

// ParseOperands: "operand shape ... does not match instruction shape".
TEST(CompactTupleElement, WrittenShapeMismatchRefused) {
  ExpectRejected(R"(HloModule gte
ENTRY run {
  q = (s8[4], u8[4]) parameter(0)
  ROOT m = u8[4] negate(u8[4] q#0)
})",
                 "4:31", "is written as u8[4] but has shape s8[4]");
}

// ParseOperands -> ParseInt64: an index is an integer.
TEST(CompactTupleElement, MissingIndexRefused) {
  ExpectRejected(R"(HloModule gte
ENTRY run {
  q = (s8[4], u8[4]) parameter(0)
  ROOT m = s8[4] negate(q#)
})",
                 "4:27", "tuple element index");
}

}  // namespace
}  // namespace xla_index
