#include "hlo/opcode.h"

#include <iterator>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"

namespace xla_index {
namespace {

struct OpcodeInfo {
  HloOpcode opcode;
  absl::string_view name;
};

constexpr OpcodeInfo kOpcodes[] = {
    {HloOpcode::kParameter, "parameter"},
    {HloOpcode::kConstant, "constant"},
    {HloOpcode::kIota, "iota"},
    {HloOpcode::kAbs, "abs"},
    {HloOpcode::kCbrt, "cbrt"},
    {HloOpcode::kCeil, "ceil"},
    {HloOpcode::kClz, "count-leading-zeros"},
    {HloOpcode::kCopy, "copy"},
    {HloOpcode::kCos, "cosine"},
    {HloOpcode::kErf, "erf"},
    {HloOpcode::kExp, "exponential"},
    {HloOpcode::kExpm1, "exponential-minus-one"},
    {HloOpcode::kFloor, "floor"},
    {HloOpcode::kImag, "imag"},
    {HloOpcode::kIsFinite, "is-finite"},
    {HloOpcode::kLog, "log"},
    {HloOpcode::kLog1p, "log-plus-one"},
    {HloOpcode::kLogistic, "logistic"},
    {HloOpcode::kNegate, "negate"},
    {HloOpcode::kNot, "not"},
    {HloOpcode::kPopulationCount, "popcnt"},
    {HloOpcode::kReal, "real"},
    {HloOpcode::kRoundNearestAfz, "round-nearest-afz"},
    {HloOpcode::kRoundNearestEven, "round-nearest-even"},
    {HloOpcode::kRsqrt, "rsqrt"},
    {HloOpcode::kSign, "sign"},
    {HloOpcode::kSin, "sine"},
    {HloOpcode::kSqrt, "sqrt"},
    {HloOpcode::kTan, "tan"},
    {HloOpcode::kTanh, "tanh"},
    {HloOpcode::kConvert, "convert"},
    {HloOpcode::kBitcastConvert, "bitcast-convert"},
    {HloOpcode::kReducePrecision, "reduce-precision"},
    {HloOpcode::kAdd, "add"},
    {HloOpcode::kAnd, "and"},
    {HloOpcode::kAtan2, "atan2"},
    {HloOpcode::kComplex, "complex"},
    {HloOpcode::kDivide, "divide"},
    {HloOpcode::kMaximum, "maximum"},
    {HloOpcode::kMinimum, "minimum"},
    {HloOpcode::kMultiply, "multiply"},
    {HloOpcode::kOr, "or"},
    {HloOpcode::kPower, "power"},
    {HloOpcode::kRemainder, "remainder"},
    {HloOpcode::kShiftLeft, "shift-left"},
    {HloOpcode::kShiftRightArithmetic, "shift-right-arithmetic"},
    {HloOpcode::kShiftRightLogical, "shift-right-logical"},
    {HloOpcode::kSubtract, "subtract"},
    {HloOpcode::kXor, "xor"},
    {HloOpcode::kCompare, "compare"},
    {HloOpcode::kSelect, "select"},
    {HloOpcode::kClamp, "clamp"},
    {HloOpcode::kBitcast, "bitcast"},
    {HloOpcode::kBroadcast, "broadcast"},
    {HloOpcode::kConcatenate, "concatenate"},
    {HloOpcode::kDynamicSlice, "dynamic-slice"},
    {HloOpcode::kDynamicUpdateSlice, "dynamic-update-slice"},
    {HloOpcode::kGather, "gather"},
    {HloOpcode::kPad, "pad"},
    {HloOpcode::kReshape, "reshape"},
    {HloOpcode::kReverse, "reverse"},
    {HloOpcode::kScatter, "scatter"},
    {HloOpcode::kSlice, "slice"},
    {HloOpcode::kTranspose, "transpose"},
    {HloOpcode::kConvolution, "convolution"},
    {HloOpcode::kDot, "dot"},
    {HloOpcode::kMap, "map"},
    {HloOpcode::kReduce, "reduce"},
    {HloOpcode::kReduceWindow, "reduce-window"},
    {HloOpcode::kScaledDot, "scaled-dot"},
    {HloOpcode::kSort, "sort"},
    {HloOpcode::kAllGather, "all-gather"},
    {HloOpcode::kAllReduce, "all-reduce"},
    {HloOpcode::kAllToAll, "all-to-all"},
    {HloOpcode::kCollectivePermute, "collective-permute"},
    {HloOpcode::kReduceScatter, "reduce-scatter"},
    {HloOpcode::kAllGatherStart, "all-gather-start"},
    {HloOpcode::kAllGatherDone, "all-gather-done"},
    {HloOpcode::kAllReduceStart, "all-reduce-start"},
    {HloOpcode::kAllReduceDone, "all-reduce-done"},
    {HloOpcode::kCollectivePermuteStart, "collective-permute-start"},
    {HloOpcode::kCollectivePermuteDone, "collective-permute-done"},
    {HloOpcode::kAsyncStart, "async-start"},
    {HloOpcode::kAsyncDone, "async-done"},
    {HloOpcode::kCall, "call"},
    {HloOpcode::kFusion, "fusion"},
    {HloOpcode::kGetTupleElement, "get-tuple-element"},
    {HloOpcode::kTuple, "tuple"},
};

}  // namespace

absl::string_view HloOpcodeName(HloOpcode opcode) {
  for (const OpcodeInfo& info : kOpcodes) {
    if (info.opcode == opcode) return info.name;
  }
  return "unknown";
}

HloOpcode HloOpcodeFromName(absl::string_view name) {
  // A hash map: the parser looks up one opcode per instruction.
  static const auto* const kByName = [] {
    auto* map = new absl::flat_hash_map<absl::string_view, HloOpcode>();
    for (const OpcodeInfo& info : kOpcodes)
      map->emplace(info.name, info.opcode);
    return map;
  }();
  auto it = kByName->find(name);
  return it == kByName->end() ? HloOpcode::kUnknown : it->second;
}

bool IsElementwiseUnary(HloOpcode opcode) {
  return opcode >= HloOpcode::kAbs && opcode <= HloOpcode::kReducePrecision;
}

bool IsElementwiseBinary(HloOpcode opcode) {
  return opcode >= HloOpcode::kAdd && opcode <= HloOpcode::kCompare;
}

bool IsElementwise(HloOpcode opcode) {
  // bitcast-convert between widths changes the shape, so it is elementwise
  // only when the widths agree; callers that care check the shapes.
  return IsElementwiseUnary(opcode) || IsElementwiseBinary(opcode) ||
         opcode == HloOpcode::kSelect || opcode == HloOpcode::kClamp;
}

namespace {

// XLA's opcode names (xla/hlo/ir/hlo_opcode.h in the OpenXLA repository):
// the modelled ones and every other.
constexpr absl::string_view kXlaOpcodeNames[] = {
    "abs",
    "acos",
    "acosh",
    "add",
    "add-dependency",
    "after-all",
    "all-gather",
    "all-gather-done",
    "all-gather-start",
    "all-reduce",
    "all-reduce-done",
    "all-reduce-start",
    "all-to-all",
    "and",
    "asin",
    "asinh",
    "async-done",
    "async-start",
    "async-update",
    "atan",
    "atan2",
    "atanh",
    "batch-norm-grad",
    "batch-norm-inference",
    "batch-norm-training",
    "bitcast",
    "bitcast-convert",
    "broadcast",
    "call",
    "cbrt",
    "ceil",
    "cholesky",
    "clamp",
    "count-leading-zeros",
    "collective-broadcast",
    "collective-permute",
    "collective-permute-done",
    "collective-permute-start",
    "collective-reduce",
    "compare",
    "complex",
    "concatenate",
    "conditional",
    "constant",
    "convert",
    "convolution",
    "copy",
    "copy-done",
    "copy-start",
    "cosine",
    "cosh",
    "custom-call",
    "divide",
    "domain",
    "dot",
    "dynamic-reshape",
    "dynamic-slice",
    "dynamic-update-slice",
    "erf",
    "exponential",
    "exponential-minus-one",
    "fft",
    "floor",
    "fusion",
    "gather",
    "get-dimension-size",
    "get-tuple-element",
    "imag",
    "infeed",
    "iota",
    "is-finite",
    "log",
    "log-plus-one",
    "logistic",
    "map",
    "maximum",
    "minimum",
    "mulhi",
    "multiply",
    "negate",
    "not",
    "opt-barrier",
    "or",
    "outfeed",
    "pad",
    "parameter",
    "partition-id",
    "popcnt",
    "power",
    "ragged-all-to-all",
    "ragged-dot",
    "real",
    "recv",
    "recv-done",
    "reduce",
    "reduce-precision",
    "reduce-scatter",
    "reduce-window",
    "remainder",
    "replica-id",
    "reshape",
    "reverse",
    "rng",
    "rng-bit-generator",
    "rng-get-and-update-state",
    "round-nearest-afz",
    "round-nearest-even",
    "rsqrt",
    "scaled-dot",
    "scan",
    "scatter",
    "select",
    "select-and-scatter",
    "send",
    "send-done",
    "set-dimension-size",
    "shift-left",
    "shift-right-arithmetic",
    "shift-right-logical",
    "shuffle",
    "sign",
    "sine",
    "sinh",
    "slice",
    "sort",
    "sqrt",
    "stochastic-convert",
    "subtract",
    "tan",
    "tanh",
    "topk",
    "transpose",
    "triangular-solve",
    "tuple",
    "while",
    "xor",
    "-start",
    "-update",
};

}  // namespace

bool IsXlaOpcodeName(absl::string_view name) {
  static const auto* const kNames = new absl::flat_hash_set<absl::string_view>(
      std::begin(kXlaOpcodeNames), std::end(kXlaOpcodeNames));
  if (kNames->contains(name)) return true;
  // An op run asynchronously is written `<op>-start`, `<op>-update` and
  // `<op>-done` (custom-call-start, say), for any op but those with async
  // opcodes of their own (HloParserImpl::ParseOpcode: "These ops do not
  // support async wrapping"), whose other spellings (copy-update,
  // send-start, ...) are no opcode.
  for (absl::string_view suffix : {"-start", "-update", "-done"}) {
    if (absl::ConsumeSuffix(&name, suffix)) {
      return kNames->contains(name) && name != "all-gather" &&
             name != "all-reduce" && name != "collective-permute" &&
             name != "copy" && name != "recv" && name != "send";
    }
  }
  return false;
}

}  // namespace xla_index
