// HLO text that XLA HEAD's parser (xla/hlo/parser/hlo_parser.cc) reads, and
// text it refuses, one feature per test, in texts written for this test.
// Each accepted text must parse, verify, and print so that reparsing the
// printed text prints it again unchanged; each refused text must fail with
// an error at the given line:column. The comment of each test names the
// function of XLA's parser that accepts or refuses the form.

#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "hlo/parser_test_util.h"

namespace xla_index {
namespace {

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

// HloParserImpl::ParseHloModule reads the index only before
// ParseComputations, which then reads computations to the end of the text:
// a table after them is where a computation name should be, and XLA's lexer
// makes the table names keywords, which ParseName refuses ("expects name").
TEST(StackFrameIndex, AfterTheComputationsRefused) {
  ExpectRejected(absl::StrCat("HloModule late\nENTRY run {\n"
                              "  ROOT w = s8[3] parameter(0)\n}\n",
                              kFrames),
                 "6:1", "found the stack-frame table 'FileNames'");
}

// The same for any table that does not start the index: only FileNames
// opens it (ParseStackFrameIndex), so a lone StackFrames table right after
// the header is read as a computation name, and refused.
TEST(StackFrameIndex, TableOtherThanFileNamesFirstRefused) {
  ExpectRejected(R"(HloModule framed
StackFrames
3 {file_location_id=1 parent_frame_id=0}
ENTRY run {
  ROOT w = s8[3] parameter(0)
})",
                 "2:1", "found the stack-frame table 'StackFrames'");
}

// A computation may still be called like a table when its name is written
// with '%' (HloLexer reads `%FileNames` as a name, not the keyword); it is
// printed so.
TEST(StackFrameIndex, PercentNameIsAComputation) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule named
%FileNames (v: u8[2]) -> u8[2] {
  v = u8[2] parameter(0)
  ROOT n = u8[2] not(v)
}
ENTRY run {
  a = u8[2] parameter(0)
  ROOT c = u8[2] call(a), to_apply=%FileNames
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->computations().size(), 2u);
  EXPECT_THAT(module->ToString(), ::testing::HasSubstr("\n%FileNames {"));
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

// ---- Async chains: HloParserImpl::ParseInstructionRhs (kAsyncStart,
// kAsyncUpdate, kAsyncDone) requires a written shape, ((operands...),
// result, ...) for a start or update, and checks an update or done against
// the start it reaches through hlo_instruction_utils FindAsyncProducer. ----

constexpr char kAsyncCallee[] = R"(HloModule asyncs
scaled {
  x = f16[4,2] parameter(0)
  y = f16[4,2] parameter(1)
  ROOT m = f16[4,2] multiply(x, y)
}
)";

// Late binding: the start passes no operand, an update binds both.
TEST(Async, StartWithoutOperandsUpdateBinds) {
  std::unique_ptr<HloModule> module =
      ExpectAccepted(absl::StrCat(kAsyncCallee, R"(
ENTRY run {
  a = f16[4,2] parameter(0)
  b = f16[4,2] parameter(1)
  st = ((), f16[4,2], u32[]) async-start(), calls=scaled
  up = ((f16[4,2], f16[4,2]), f16[4,2], u32[]) async-update(st, a, b)
  ROOT dn = f16[4,2] async-done(up)
})"));
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(EntryInstruction(*module, "up"),
            "up = ((f16[4,2], f16[4,2]), f16[4,2], u32[]) async-update(st, a, "
            "b)");
}

// The start's operand reaches the done through a tuple, a loop carrying
// it, a get-tuple-element and a copy (IsAllowedAsyncIntermediary).
TEST(Async, DoneThroughTransparentIntermediaries) {
  ExpectAccepted(absl::StrCat(kAsyncCallee, R"(
keep {
  c = (((f16[4,2], f16[4,2]), f16[4,2], u32[]), s32[]) parameter(0)
  ROOT same = (((f16[4,2], f16[4,2]), f16[4,2], u32[]), s32[]) copy(c)
}
stop {
  c = (((f16[4,2], f16[4,2]), f16[4,2], u32[]), s32[]) parameter(0)
  ROOT f = pred[] constant(false)
}
ENTRY run {
  a = f16[4,2] parameter(0)
  st = ((f16[4,2], f16[4,2]), f16[4,2], u32[]) async-start(a, a), calls=scaled
  i = s32[] constant(0)
  init = (((f16[4,2], f16[4,2]), f16[4,2], u32[]), s32[]) tuple(st, i)
  loop = (((f16[4,2], f16[4,2]), f16[4,2], u32[]), s32[]) while(init), condition=stop, body=keep
  back = ((f16[4,2], f16[4,2]), f16[4,2], u32[]) get-tuple-element(loop), index=0
  moved = ((f16[4,2], f16[4,2]), f16[4,2], u32[]) copy(back)
  ROOT dn = f16[4,2] async-done(moved), calls=scaled
})"));
}

// The sugar of any op: custom-call-start/update/done, and a
// dynamic-update-slice run asynchronously.
TEST(Async, SugarForms) {
  ExpectAccepted(R"(HloModule sugar
ENTRY run {
  a = u8[6] parameter(0)
  cs = ((u8[6]), u8[6], s32[]) custom-call-start(a), custom_call_target="stepper"
  cu = ((u8[6]), u8[6], s32[]) custom-call-update(cs)
  cd = u8[6] custom-call-done(cu)
  piece = u8[2] parameter(1)
  at = s32[] parameter(2)
  ds = ((u8[6], u8[2], s32[]), u8[6], s32[]) dynamic-update-slice-start(cd, piece, at)
  ROOT dd = u8[6] dynamic-update-slice-done(ds)
})");
}

// A done with no start to find (its operand is a parameter) is not
// checked against one (FindAsyncProducer returns null).
TEST(Async, DoneWithoutAStartToFind) {
  ExpectAccepted(R"(HloModule lone
ENTRY run {
  t = ((s8[3]), s8[3], u32[]) parameter(0)
  ROOT dn = s8[3] custom-call-done(t)
})");
}

// Send and recv whose done takes the value through a get-tuple-element
// (a pipelined loop); the done only needs one operand
// (ParseInstructionRhs, kRecvDone, kSendDone).
TEST(Async, SendRecvDoneThroughGetTupleElement) {
  ExpectAccepted(R"(HloModule piped
ENTRY run {
  tok = token[] after-all()
  rv = (u16[5], u32[], token[]) recv(tok), channel_id=4
  v = u16[5] parameter(0)
  sd = (u16[5], u32[], token[]) send(v, tok), channel_id=5
  both = ((u16[5], u32[], token[]), (u16[5], u32[], token[])) tuple(rv, sd)
  r = (u16[5], u32[], token[]) get-tuple-element(both), index=0
  s = (u16[5], u32[], token[]) get-tuple-element(both), index=1
  rd = (u16[5], token[]) recv-done(r), channel_id=4
  ROOT done = token[] send-done(s), channel_id=5
})");
}

// "AsyncUpdate and AsyncDone cannot have AsyncDone as operand."
TEST(Async, DoneOfADoneRefused) {
  ExpectRejected(absl::StrCat(kAsyncCallee, R"(
ENTRY run {
  a = f16[4,2] parameter(0)
  st = ((f16[4,2], f16[4,2]), f16[4,2], u32[]) async-start(a, a), calls=scaled
  d1 = f16[4,2] async-done(st)
  ROOT d2 = f16[4,2] async-done(d1)
})"),
                 "12:3", "cannot take the async done 'd1'");
}

// "Expect async_wrapped_computation to be ..."
TEST(Async, UpdateCallingAnotherComputationRefused) {
  ExpectRejected(absl::StrCat(kAsyncCallee, R"(other {
  x = f16[4,2] parameter(0)
  y = f16[4,2] parameter(1)
  ROOT s = f16[4,2] subtract(x, y)
}
ENTRY run {
  a = f16[4,2] parameter(0)
  st = ((f16[4,2], f16[4,2]), f16[4,2], u32[]) async-start(a, a), calls=scaled
  up = ((f16[4,2], f16[4,2]), f16[4,2], u32[]) async-update(st), calls=other
  ROOT dn = f16[4,2] async-done(up)
})"),
                 "15:3", "calls other but its start 'st' calls scaled");
}

// "Expect async_execution_thread to be ..."; a start without one runs on
// "main".
TEST(Async, DoneOnAnotherThreadRefused) {
  ExpectRejected(R"(HloModule threads
ENTRY run {
  a = u8[6] parameter(0)
  cs = ((u8[6]), u8[6], s32[]) custom-call-start(a), custom_call_target="stepper"
  ROOT cd = u8[6] custom-call-done(cs), async_execution_thread="side"
})",
                 "5:3",
                 "runs on thread \"side\" but its start 'cs' on \"main\"");
}

// "Expect async wrapped opcode to be ..."
TEST(Async, SugarOfAnotherOpRefused) {
  ExpectRejected(R"(HloModule mixed
ENTRY run {
  a = u8[6] parameter(0)
  cs = ((u8[6]), u8[6], s32[]) custom-call-start(a), custom_call_target="stepper"
  ROOT nd = u8[6] negate-done(cs)
})",
                 "5:3", "expected custom-call-done");
}

// "AsyncStart and AsyncUpdate expect the shape to be in the form of
// ((operand0_shape, ...), output_shape, ...)".
TEST(Async, UpdateShapeWithoutOperandTupleRefused) {
  ExpectRejected(absl::StrCat(kAsyncCallee, R"(
ENTRY run {
  a = f16[4,2] parameter(0)
  st = ((f16[4,2], f16[4,2]), f16[4,2], u32[]) async-start(a, a), calls=scaled
  up = (f16[4,2], f16[4,2], u32[]) async-update(st)
  ROOT dn = f16[4,2] async-done(up)
})"),
                 "11:3", "must have the shape ((operand shapes...), result");
}

// HloParserImpl::ParseOpcode: copy, send, recv and the collectives with
// async opcodes of their own have no async sugar (copy-update is no
// opcode).
TEST(Async, SugarOfANativeAsyncOpRefused) {
  ExpectRejected(R"(HloModule copies
ENTRY run {
  a = s4[8] parameter(0)
  cs = (s4[8], s4[8], u32[]) copy-start(a)
  cu = (s4[8], s4[8], u32[]) copy-update(cs)
  ROOT cd = s4[8] copy-done(cu)
})",
                 "5:30", "unknown opcode 'copy-update'");
}

// ParseInstructionRhs (kRecvDone): the done of a recv has its channel_id.
TEST(Async, RecvDoneOnAnotherChannelRefused) {
  ExpectRejected(R"(HloModule chan
ENTRY run {
  tok = token[] after-all()
  rv = (u16[5], u32[], token[]) recv(tok), channel_id=4
  ROOT rd = (u16[5], token[]) recv-done(rv), channel_id=6
})",
                 "5:3", "must have the channel_id of its recv 'rv'");
}

// ---- Constants: HloParserImpl::CheckParsedValueIsInRange checks the
// value converted to the type (so it rounds first), an unsigned value as
// the uint64 of the int64 read; SetValueInLiteralHelper checks NaN
// payloads. ----

TEST(Constants, RoundToTheLargestFiniteValue) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule round
ENTRY run {
  b = bf16[2] constant({-3.392e+38, 3.3955e+38})
  ROOT h = f16[2] constant({65519, -65510})
})");
  ASSERT_NE(module, nullptr);
  // Stored rounded, as XLA stores the converted value.
  const HloInstruction* b = module->entry_computation()->GetInstruction("b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->literal().GetDouble(1), std::ldexp(255.0, 120));
  EXPECT_EQ(b->literal().GetDouble(0), -std::ldexp(255.0, 120));
}

TEST(Constants, HalfAStepAboveTheLargestIsOutOfRange) {
  // 65520 is halfway between 65504 and 65536 and rounds to inf.
  ExpectRejected(R"(HloModule round
ENTRY run {
  ROOT h = f16[1] constant({65520})
})",
                 "3:29", "out of range for f16");
  ExpectRejected(R"(HloModule round
ENTRY run {
  ROOT d = f64[] constant(-2.5e308)
})",
                 "3:27", "out of range for f64");
}

TEST(Constants, U64TakesNegativeValuesTwosComplement) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule wrap
ENTRY run {
  ROOT u = u64[2] constant({-1, -7})
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry_computation()->root()->literal().GetDouble(0),
            18446744073709551615.0);
  ExpectRejected(R"(HloModule wrap
ENTRY run {
  ROOT u = u32[] constant(-1)
})",
                 "3:27", "u32");
}

TEST(Constants, NanPayloadMustFitTheType) {
  ExpectAccepted(R"(HloModule nans
ENTRY run {
  a = bf16[2] constant({nan(0x7f), -nan(0x1)})
  ROOT b = f8e5m2[1] constant({nan(0x3)})
})");
  ExpectRejected(R"(HloModule nans
ENTRY run {
  ROOT a = bf16[1] constant({nan(0xff)})
})",
                 "3:33", "tries to set NaN payload 0xff");
  // The f8 "fn" types have one NaN, without payload.
  ExpectRejected(R"(HloModule nans
ENTRY run {
  ROOT a = f8e4m3fn[1] constant({nan(0x2)})
})",
                 "3:37", "tries to set NaN payload 0x2");
}

// ---- Other forms XLA reads. ----

// HloParserImpl::ParseInstructionRhs (kDynamicUpdateSlice): three operands
// whose third is one vector of start indices.
TEST(OtherForms, DynamicUpdateSliceWithAnIndexVector) {
  ExpectAccepted(R"(HloModule legacy
ENTRY run {
  big = s8[5,7] parameter(0)
  small = s8[2,3] parameter(1)
  at = u32[2] parameter(2)
  ROOT d = s8[5,7] dynamic-update-slice(big, small, at)
})");
  ExpectRejected(R"(HloModule legacy
ENTRY run {
  big = s8[5,7] parameter(0)
  small = s8[2,3] parameter(1)
  at = u32[3] parameter(2)
  ROOT d = s8[5,7] dynamic-update-slice(big, small, at)
})",
                 "6:3", "vector of 2 entries");
}

// ParseInstructionRhs (kCollectivePermute): the in-place form with four
// operands and slice_sizes as a list of lists.
TEST(OtherForms, CollectivePermuteInPlace) {
  std::unique_ptr<HloModule> module =
      ExpectAccepted(R"(HloModule inplace, replica_count=3
ENTRY run {
  src = bf16[16,4] parameter(0)
  dst = bf16[16,16] parameter(1)
  zero = s32[] constant(0)
  eight = s32[] constant(8)
  from = (s32[], s32[]) tuple(zero, zero)
  to = (s32[], s32[]) tuple(eight, zero)
  ROOT cp = bf16[16,16] collective-permute(src, dst, from, to), source_target_pairs={{0,1},{1,2}}, slice_sizes={{8,4},{8,4}}
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(*module->entry_computation()->root()->attribute("slice_sizes"),
            "{{8,4},{8,4}}");
}

// HloParserImpl::ParseLiteral (custom-call's literal=): a typed literal, or
// an untyped tuple of literals nested to any depth.
TEST(OtherForms, CustomCallLiteralTuples) {
  ExpectAccepted(R"(HloModule lits
ENTRY run {
  ROOT cc = u8[3] custom-call(), custom_call_target="table", literal=( u16[3]{0} {9, 8, 7}, ((f16[] 0.25)), (pred[2]{0} {1, 0}, s8[] -3) )
})");
  ExpectAccepted(R"(HloModule lits
ENTRY run {
  ROOT cc = u8[3] custom-call(), custom_call_target="table", literal=(u16[], f16[]) (4, 1.5)
})");
  // An element must still be a literal of its shape.
  ExpectRejected(R"(HloModule lits
ENTRY run {
  ROOT cc = u8[3] custom-call(), custom_call_target="t", literal=((u16[2]{0} {1, 2, 3}))
})",
                 "3:83", "expected '}' after the 2 elements");
}

// ---- Single-op texts: HloParserImpl::ParseOperands reads an operand
// written as a bare shape as a new parameter (create_missing_instruction_),
// only outside inline computations. ----

TEST(SingleOp, BareShapeOperandsAreParameters) {
  std::unique_ptr<HloModule> module =
      ExpectAccepted("s16[3,2]{1,0} subtract(s16[3,2]{1,0}, s16[3,2])");
  ASSERT_NE(module, nullptr);
  const HloInstruction* root = module->entry_computation()->root();
  ASSERT_EQ(root->operand_count(), 2);
  for (int64_t k = 0; k < 2; ++k) {
    EXPECT_EQ(root->operand(k)->opcode(), HloOpcode::kParameter);
    EXPECT_EQ(root->operand(k)->parameter_number(), k);
  }
}

// A list of computations written in place (ParseComputationList), and a
// single-op text around inline computations.
TEST(SingleOp, InlineBranchComputations) {
  std::unique_ptr<HloModule> module = ExpectAccepted(
      R"(f16[7] conditional(s32[], f16[7], f16[7]), branch_computations={
{
  q = f16[7] parameter(0)
  ROOT r = f16[7] abs(q)
},
{
  q = f16[7] parameter(0)
  ROOT r = f16[7] negate(q)
}
})");
  ASSERT_NE(module, nullptr);
  const HloInstruction* root = module->entry_computation()->root();
  EXPECT_EQ(root->called_computations().size(), 2);
  EXPECT_EQ(root->operand_count(), 3);
}

TEST(SingleOp, BareShapeOperandInsideAnInlineComputationRefused) {
  ExpectRejected(R"(m = f32[] reduce(f32[6], f32[]), dimensions={0}, to_apply=
{
  ROOT s = f32[] add(f32[], f32[])
})",
                 "3:27", "expected an operand name");
}

// ---- Per-op checks of XLA's parser (hlo/xla_parser_checks.h). Each text
// is refused with exit status 1 by `xla-index analyze`, at the line:column
// of the instruction (of the attribute, for a check of one attribute). ----

struct RefusedCase {
  const char* xla_function;  // What refuses it in XLA HEAD's parser.
  const char* body;          // The entry computation's instructions.
  const char* location;
  const char* message;
};

TEST(PerOpChecks, Refused) {
  const RefusedCase cases[] = {
      {"ParseInstructionRhs kAllGather: dimensions->size() != 1",
       "  v = u8[6] parameter(0)\n"
       "  ROOT g = u8[12] all-gather(v), replica_groups={}, dimensions={}",
       "4:3", "needs dimensions={d} with exactly one dimension"},
      {"ParseInstructionRhs kReduceScatter: dimensions->size() != 1",
       "  v = u8[6] parameter(0)\n"
       "  ROOT g = u8[3] reduce-scatter(v), replica_groups={}, "
       "dimensions={0,0}, to_apply=plus",
       "4:3", "needs dimensions={d} with exactly one dimension"},
      {"ParseInstructionRhs kRecv: \"recv must have a non-empty tuple shape\"",
       "  t = token[] after-all()\n  ROOT r = u8[6] recv(t), channel_id=2",
       "4:3", "must have a non-empty tuple shape"},
      {"ParseInstructionRhs kInfeed: \"infeed must have a non-empty tuple "
       "shape\"",
       "  t = token[] after-all()\n  ROOT r = s16[2,2] infeed(t)", "4:3",
       "must have a non-empty tuple shape"},
      {"ParseInstructionRhs kConditional: \"requires at least one operand\"",
       "  ROOT c = u8[] conditional(), branch_computations={plus}", "3:3",
       "requires at least one operand"},
      {"ParseInstructionRhs kConditional: \"must be a scalar\"",
       "  i = s32[3] parameter(0)\n  v = u8[] parameter(1)\n"
       "  ROOT c = u8[] conditional(i, v), branch_computations={one}",
       "5:3", "needs a scalar first operand, not s32[3]"},
      {"ParseInstructionRhs kConditional: \"scalar of PRED or S32\"",
       "  i = u16[] parameter(0)\n  v = u8[] parameter(1)\n"
       "  ROOT c = u8[] conditional(i, v), branch_computations={one}",
       "5:3", "needs a pred[] or s32[] first operand, not u16[]"},
      {"ParseInstructionRhs kConditional: pred index requires "
       "true_computation and false_computation",
       "  i = pred[] parameter(0)\n  v = u8[] parameter(1)\n"
       "  ROOT c = u8[] conditional(i, v, v), branch_computations={one, one}",
       "5:3", "needs true_computation= and false_computation="},
      {"ParseInstructionRhs kRngBitGenerator: ParseOperands(expected_size=1)",
       "  ROOT r = (u64[2], u8[6]) rng-bit-generator(), "
       "algorithm=rng_philox",
       "3:3", "takes one operand, its state"},
      {"ParseInstructionRhs kDynamicReshape: \"requires at least one "
       "operand\"",
       "  ROOT r = u8[2,3] dynamic-reshape()", "3:3",
       "requires at least one operand"},
      {"ParseInstructionRhs kDynamicReshape: one dim size operand per "
       "result dimension",
       "  v = u8[<=6] parameter(0)\n  n = s32[] parameter(1)\n"
       "  ROOT r = u8[2,<=3] dynamic-reshape(v, n)",
       "5:3", "one dim size operand per result dimension"},
      {"ParseInstructionRhs kDynamicReshape: the same number of elements",
       "  v = u8[<=6] parameter(0)\n  n = s32[] parameter(1)\n"
       "  ROOT r = u8[2,<=4] dynamic-reshape(v, n, n)",
       "5:3", "expects the same number of elements"},
      {"ParseInstructionRhs kCustomCall: operand_layout_constraints count",
       "  a = u8[6]{0} parameter(0)\n  b = u8[2,3]{1,0} parameter(1)\n"
       "  ROOT c = u8[6]{0} custom-call(a, b), custom_call_target=\"k\", "
       "operand_layout_constraints={u8[6]{0}}",
       "5:3", "has 2 operands but 1 operand_layout_constraints"},
      {"ParseInstructionRhs kCustomCall: incompatible layout constraint",
       "  a = u8[6]{0} parameter(0)\n  b = u8[2,3]{1,0} parameter(1)\n"
       "  ROOT c = u8[6]{0} custom-call(a, b), custom_call_target=\"k\", "
       "operand_layout_constraints={u8[6]{0}, u8[3,2]{1,0}}",
       "5:3", "u8[3,2] is incompatible with operand 1 u8[2,3]"},
      {"ParseCustomCallApiVersion: StringToCustomCallApiVersion",
       "  ROOT c = u8[6] custom-call(), custom_call_target=\"k\", "
       "api_version=API_VERSION_NEWEST",
       "3:3", "unknown api_version API_VERSION_NEWEST"},
      {"ParseCustomCallApiVersion: API_VERSION_UNSPECIFIED is refused",
       "  ROOT c = u8[6] custom-call(), custom_call_target=\"k\", "
       "api_version=API_VERSION_UNSPECIFIED",
       "3:3", "unknown api_version API_VERSION_UNSPECIFIED"},
      {"ParseResultAccuracyType: an unknown mode",
       "  x = f32[4] parameter(0)\n"
       "  ROOT e = f32[4] sine(x), result_accuracy={mode=fast}",
       "4:28", "invalid result_accuracy {mode=fast}"},
      {"ParseResultAccuracy: \"expects string for result_accuracy spec\"",
       "  x = f32[4] parameter(0)\n"
       "  ROOT e = f32[4] log(x), result_accuracy={2}",
       "4:27", "invalid result_accuracy {2}"},
      {"ParseResultAccuracy: \"invalid attribute name\"",
       "  x = f32[4] parameter(0)\n"
       "  ROOT e = f32[4] tanh(x), result_accuracy={ulps=2}",
       "4:28", "invalid result_accuracy {ulps=2}"},
      {"ParseInstructionRhs: result_accuracy only on the transcendental "
       "unary ops",
       "  x = f32[4] parameter(0)\n"
       "  ROOT e = f32[4] negate(x), result_accuracy={mode=highest}",
       "4:30", "does not take result_accuracy"},
      {"ParseTileAssignment: devices listed vs the tile assignment",
       "  x = f32[4] parameter(0)\n"
       "  ROOT c = f32[4] copy(x), sharding={devices=[3]0,1}",
       "4:28",
       "sharding of 2 devices that does not match the tile "
       "assignment size 3"},
      {"ParseTileAssignment: iota size vs the tile assignment",
       "  x = f32[4] parameter(0)\n"
       "  ROOT c = f32[4] copy(x), sharding={devices=[2,1]<=[4]}",
       "4:28",
       "sharding of 4 devices that does not match the tile "
       "assignment size 2"},
      {"ParseCollectiveDeviceListBase: \"collective device list iota size\"",
       "  v = u8[6] parameter(0)\n"
       "  ROOT g = u8[12] all-gather(v), dimensions={0}, "
       "replica_groups=[3,2]<=[8]",
       "4:50", "hold different numbers of ids"},
      {"ParseInstruction (kParameter): \"parameter has N leaf buffers, but "
       "parameter_replication has M elements\"",
       "  ROOT q = (u8[6], (u8[], u8[2])) parameter(0), "
       "parameter_replication={true,false}",
       "3:49", "has 3 leaf buffers, but parameter_replication has 2"},
      {"ParseInstruction: control-predecessors names an instruction "
       "(\"instruction does not exist\")",
       "  v = u8[6] parameter(0)\n"
       "  ROOT n = u8[6] not(v), control-predecessors={%gone}",
       "4:3", "control predecessor 'gone' of 'n'"},
  };
  for (const RefusedCase& c : cases) {
    SCOPED_TRACE(c.xla_function);
    ExpectRejected(
        absl::StrCat("HloModule checks\nplus {\n  a = u8[] "
                     "parameter(0)\n  b = u8[] parameter(1)\n  "
                     "ROOT s = u8[] add(a, b)\n}\none {\n  a = "
                     "u8[] parameter(0)\n  ROOT n = u8[] not(a)\n"
                     "}\nENTRY run {\n",
                     c.body, "\n}"),
        // The entry starts on line 12; bodies count from line 3.
        absl::StrCat(std::stoi(c.location) + 9,
                     absl::string_view(c.location)
                         .substr(absl::string_view(c.location).find(':'))),
        c.message);
  }
}

// The same ops in the forms XLA reads.
TEST(PerOpChecks, Accepted) {
  ExpectAccepted(R"(HloModule fine
one {
  a = u8[] parameter(0)
  ROOT n = u8[] not(a)
}
ENTRY run {
  i = pred[] parameter(0)
  v = u8[] parameter(1)
  c = u8[] conditional(i, v, v), true_computation=one, false_computation=one
  x = f32[4]{0} parameter(2)
  e = f32[4]{0} sine(x), result_accuracy={tolerance={rtol=0.5, atol=1e-05, ulps=2}}
  h = f32[4]{0} log(e), result_accuracy={mode=highest}
  k = f32[4]{0} copy(h), sharding={devices=[2,2]<=[4] last_tile_dim_replicate}
  cc = f32[4]{0} custom-call(k), custom_call_target="k", operand_layout_constraints={f32[4]{0}}, api_version=API_VERSION_TYPED_FFI
  q = (u8[6], (u8[], u8[2])) parameter(3), parameter_replication={true,false,true}
  ROOT t = (u8[], f32[4]) tuple(c, cc), control-predecessors={%e}
})");
}

// RejectDensePhysicalShape: LayoutUtil::ValidateLayoutForShape, run by
// HloParserImpl::ParseShape, allows P(physical shape) only for a sparse
// layout.
TEST(PerOpChecks, PhysicalShapeOfADenseLayoutRefused) {
  ExpectRejected(R"(HloModule dense
ENTRY run {
  ROOT p = s8[6,4]{1,0:T(2,4)P(s8[24])} parameter(0)
})",
                 "3:12", "physical shape P(...) but is not for a sparse");
}

// ParseDebugAttributes: "Invalid debug_log_mode value".
TEST(PerOpChecks, DebugLogModeRefused) {
  ExpectRejected(R"(HloModule logged, debug_attributes={
  {"c"}:({log_mode=loud})
}
ENTRY run {
  ROOT c = s8[2] constant({1, 2})
})",
                 "2:20", "invalid debug_log_mode value 'loud'");
}

// ---- Mesh-axes replica groups: HloParserImpl::ParseCollectiveDeviceList-
// Base reads `mesh[axes] {refs}` (ParseMesh, ParseAxisRefList) into a
// MeshAxesReplicaGroupList, whose constructor validates the axes. Only the
// group size is kept: XLA's parser computes no group count and does not
// compare the mesh with the module's replica_count. ----

constexpr char kMeshHeader[] = R"(HloModule meshes, replica_count=12
plus {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
)";

TEST(MeshReplicaGroups, Accepted) {
  // Each mesh with the replica_count its devices make: XLA's verifier
  // (CheckReplicaGroups) wants the groups to hold replica_count ids, and
  // maximal_mesh[device_id=N]'s one group {N} to hold id 0.
  const std::pair<const char*, const char*> cases[] = {
      {"mesh['rows'=3,'cols'=4] {'cols'}", "12"},
      {"mesh['rows'=3,'cols'=4]{'0', 'cols'}", "12"},
      {"mesh['rows'=3,'cols'=4, device_ids=([4,3]T(1,0))] {'rows'}", "12"},
      {"mesh['rows'=3,'cols'=4] {'cols':(1)2}", "12"},
      {"maximal_mesh[device_id=0] {}", "1"},
      // Sub-axes of one axis that neither overlap nor join
      // (ValidateSpanOfAxes), and listed ids that permute 0..11.
      {"mesh['rows'=3,'cols'=8] {'cols':(1)2, 'rows', 'cols':(4)2}", "24"},
      {"mesh['rows'=3,'cols'=4, device_ids=(11,10,9,8,7,6,5,4,3,2,1,0)] "
       "{'cols'}",
       "12"},
  };
  for (const auto& [groups, replicas] : cases) {
    SCOPED_TRACE(groups);
    ExpectAccepted(absl::StrCat(
        absl::StrReplaceAll(
            kMeshHeader,
            {{"replica_count=12", absl::StrCat("replica_count=", replicas)}}),
        "ENTRY run {\n  v = s32[6] parameter(0)\n  ROOT r = s32[6] "
        "all-reduce(v), replica_groups=",
        groups, ", to_apply=plus\n}"));
  }
}

TEST(MeshReplicaGroups, Refused) {
  const std::pair<const char*, const char*> cases[] = {
      // ParseAxisRef: "is not a valid axis name or index".
      {"mesh['rows'=3,'cols'=4] {'depth'}", "is not a valid axis name"},
      // ParseAxisRef: "is out of bounds for mesh".
      {"mesh['rows'=3,'cols'=4] {'2'}", "is out of bounds for mesh"},
      // ParseMesh: "Expected N device_ids based on mesh axes".
      {"mesh['rows'=3,'cols'=4, device_ids=(0,1,2)] {'rows'}",
       "expected 12 device_ids based on mesh axes, but got 3"},
      // XLA CHECKs these when it builds the groups (Mesh::Validate, the
      // AxisRef constructor, AxisRef::Validate, ValidateSpanOfAxes), so it
      // cannot read them; they are refused here with the reason.
      {"mesh['rows'=3,'cols'=4, device_ids=(0,1,2,3,4,5,6,7,8,9,10,11)] "
       "{'rows'}",
       "0,1,2,... in order"},
      {"mesh['rows'=3,'cols'=4, device_ids=(0,1,2,3,4,5,6,7,8,9,10,10)] "
       "{'rows'}",
       "must be a permutation of 0..11"},
      {"mesh['rows'=3,'cols'=4] {'cols':(0)2}", "pre-size >= 1 and size > 1"},
      {"mesh['rows'=3,'cols'=4] {'cols':(1)3}",
       "does not fit in an axis of size 4"},
      {"mesh['rows'=3,'cols'=4] {'cols':(1)4}",
       "does not fit in an axis of size 4"},
      {"mesh['rows'=3,'cols'=4] {'cols', 'cols'}", "overlap"},
      {"mesh['rows'=3,'cols'=8] {'cols':(1)4, 'cols':(2)2}", "overlap"},
      {"mesh['rows'=3,'cols'=8] {'cols':(1)2, 'cols':(2)2}",
       "can be merged into one sub-axis"},
  };
  for (const auto& [groups, message] : cases) {
    SCOPED_TRACE(groups);
    ExpectRejected(
        absl::StrCat(kMeshHeader,
                     "ENTRY run {\n  v = s32[6] parameter(0)\n  ROOT r = "
                     "s32[6] all-reduce(v), replica_groups=",
                     groups, ", to_apply=plus\n}"),
        "9:34", message);
  }
}

// ---- Unbounded dynamic dimensions `?`: HloParserImpl::ParseShape reads
// them, and ParseInstructionRhs (kReshape) skips its element-count check for
// an unbounded operand (as HloInstruction::CreateReshape does). The analyses
// give no map for them (xla_index/indexing_analysis_test.cc). ----

TEST(Unbounded, ReshapeOfAnUnboundedOperand) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule unb
ENTRY run {
  v = s16[?] parameter(0)
  ROOT r = s16[2,6] reshape(v)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry_computation()->root()->operand(0)->shape().ToString(),
            "s16[?]");
}

TEST(Unbounded, ResultDependsOnUnboundedShapes) {
  ExpectAccepted(R"(HloModule unb
ENTRY run {
  v = u32[?,5] parameter(0)
  n = u32[?,5] not(v)
  ROOT t = u32[5,?]{0,1} transpose(n), dimensions={1,0}
})");
}

// A bounded operand keeps the check (kReshape: "expects the same number of
// elements").
TEST(Unbounded, BoundedReshapeStillCountsElements) {
  ExpectRejected(R"(HloModule unb
ENTRY run {
  v = s16[13] parameter(0)
  ROOT r = s16[2,6] reshape(v)
})",
                 "4:3", "reshape must keep the element count");
}

// ---- Tuples: ParseInstructionRhs (kTuple) reads as many operands as the
// written shape has elements (ParseOperands with expected_size) and keeps
// the written shape (CreateVariadic, not CreateTuple, which would infer
// it). An element that differs from its operand is read; the analyses give
// it no map (xla_index/indexing_analysis_test.cc). ----

TEST(TupleShape, WrittenElementsAreTakenAsWritten) {
  std::unique_ptr<HloModule> module = ExpectAccepted(R"(HloModule tup
ENTRY run {
  a = u8[3,4] parameter(0)
  k = s32[] parameter(1)
  ROOT t = ((u8[3,4]), u8[4,3], s32[]) tuple(a, a, k)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry_computation()->root()->shape().ToString(),
            "((u8[3,4]), u8[4,3], s32[])");
}

TEST(TupleShape, ElementCountMustMatchTheOperands) {
  ExpectRejected(R"(HloModule tup
ENTRY run {
  a = u8[3,4] parameter(0)
  ROOT t = (u8[3,4], u8[3,4]) tuple(a)
})",
                 "4:3", "differs from");
}

// The forms of XLA's AsyncDoneNoAsyncStart: a done (and an update) whose
// operand is such a tuple, not a start; FindAsyncProducer finds no start,
// so nothing is checked against one.
TEST(TupleShape, DoneAndUpdateOfAHandBuiltTuple) {
  ExpectAccepted(R"(HloModule lone
ENTRY run {
  x = s8[5,2] parameter(0)
  c = s32[] parameter(1)
  h = ((s8[5,2]), s8[5,2], s32[]) tuple(x, x, c)
  u = ((s8[5,2]), s8[5,2], s32[]) custom-call-update(h)
  ROOT d = s8[5,2] custom-call-done(h)
})");
}

// The form of XLA's DesugarParsingTest_CallStart_LateBinding_WithLayout: the
// inline callee's root tuple is written with an element its operand does
// not have, and an update binds the buffer.
TEST(TupleShape, LateBoundCallWithAWrittenRootTuple) {
  ExpectAccepted(R"(HloModule late
ENTRY run {
  cs = ((), (), (u16[], u16[64])) call-start(), to_apply={
    e = u16[] parameter(0)
    ROOT w = (u16[64]) tuple(e)
  }
  buf = u16[64] custom-call(), custom_call_target="AllocateBuffer"
  cu = ((u16[64]), (u16[64]), ()) call-update(cs, buf)
  ROOT cd = (u16[64]) call-done(cu)
})");
}

// ---- The computation's signature: HloParserImpl::ParseComputation checks
// its result shape is ShapeUtil::Compatible with the root's (layouts and
// bounds `<=n` aside). ----

TEST(Signature, ResultMustBeCompatibleWithTheRoot) {
  ExpectRejected(R"(HloModule sig
ENTRY run (v: f16[3]) -> f16[3,1] {
  v = f16[3] parameter(0)
  ROOT n = f16[3] negate(v)
})",
                 "2:26", "not compatible with the shape f16[3]");
}

TEST(Signature, LayoutsAndBoundsAside) {
  ExpectAccepted(R"(HloModule sig
ENTRY run (v: f16[2,3]) -> (f16[<=2,3]{0,1}, f16[2,3]) {
  v = f16[2,3]{1,0} parameter(0)
  n = f16[2,3]{1,0} negate(v)
  ROOT t = (f16[2,3], f16[2,3]) tuple(n, v)
})");
}

// ---- Instruction names: HloParserImpl::ParseInstruction reads `name =`
// before the shape ("expects name"); only a single-instruction text
// (ParseSingleInstruction) may leave the name out. ----

TEST(InstructionNames, UnnamedInAModuleRefused) {
  ExpectRejected(R"(HloModule unnamed
ENTRY run {
  w = u16[3] parameter(0)
  ROOT  u16[3] negate(w)
})",
                 "4:9", "expected an instruction name");
  ExpectRejected(R"(HloModule unnamed
sum {
  a = u16[] parameter(0)
  b = u16[] parameter(1)
  u16[] add(a, b)
}
ENTRY run {
  w = u16[3] parameter(0)
  ROOT r = u16[] reduce(w, u16[] constant(0)), dimensions={0}, to_apply=sum
})",
                 "5:3", "expected an instruction name");
}

// Unnamed instructions nested as operands are read (ParseOperands reads an
// instruction in place of a name).
TEST(InstructionNames, NestedOperandNeedsNoName) {
  ExpectAccepted(R"(HloModule nested
ENTRY run {
  w = u16[3] parameter(0)
  ROOT r = u16[3] add(w, u16[3] negate(w))
})");
}

// ---- Comments: HloLexer::LexToken ends a '//' comment at '\n' or '\r' (old
// Mac line ends). ----

TEST(Comments, SlashSlashEndsAtCarriageReturn) {
  std::unique_ptr<HloModule> module = ExpectAccepted(
      "HloModule cr\r// a note\rENTRY run {\r  // another\r"
      "  ROOT k = u8[2] constant({7, 9}) // trailing\r}");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry_computation()->instruction_count(), 1);
}

}  // namespace
}  // namespace xla_index
