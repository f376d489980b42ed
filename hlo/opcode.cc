#include "hlo/opcode.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"

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
    {HloOpcode::kSort, "sort"},
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

}  // namespace xla_index
