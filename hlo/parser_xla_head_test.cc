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

}  // namespace
}  // namespace xla_index
