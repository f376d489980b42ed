#ifndef XLA_INDEX_HLO_OPCODE_H_
#define XLA_INDEX_HLO_OPCODE_H_

// HLO opcodes with the names XLA prints. Ops outside this list still parse
// (as kUnknown, keeping their text name) so that a real dump with an
// unfamiliar op is readable; analyses treat them as opaque.

#include <optional>

#include "absl/strings/string_view.h"

namespace xla_index {

enum class HloOpcode {
  // Leaves.
  kParameter,
  kConstant,
  kIota,
  // Elementwise unary.
  kAbs,
  kCbrt,
  kCeil,
  kClz,
  kCopy,
  kCos,
  kErf,
  kExp,
  kExpm1,
  kFloor,
  kImag,
  kIsFinite,
  kLog,
  kLog1p,
  kLogistic,
  kNegate,
  kNot,
  kPopulationCount,
  kReal,
  kRoundNearestAfz,
  kRoundNearestEven,
  kRsqrt,
  kSign,
  kSin,
  kSqrt,
  kTan,
  kTanh,
  kConvert,
  kBitcastConvert,
  kReducePrecision,
  // Elementwise binary.
  kAdd,
  kAnd,
  kAtan2,
  kComplex,
  kDivide,
  kMaximum,
  kMinimum,
  kMultiply,
  kOr,
  kPower,
  kRemainder,
  kShiftLeft,
  kShiftRightArithmetic,
  kShiftRightLogical,
  kSubtract,
  kXor,
  kCompare,
  // Elementwise ternary.
  kSelect,
  kClamp,
  // Data movement.
  kBitcast,
  kBroadcast,
  kConcatenate,
  kDynamicSlice,
  kDynamicUpdateSlice,
  kGather,
  kPad,
  kReshape,
  kReverse,
  kScatter,
  kSlice,
  kTranspose,
  // Reductions and contractions.
  kConvolution,
  kDot,
  kMap,
  kReduce,
  kReduceWindow,
  kScaledDot,
  kSort,
  // Collectives (across replicas).
  kAllGather,
  kAllReduce,
  kAllToAll,
  kCollectivePermute,
  kReduceScatter,
  // Asynchronous collectives: `-start` begins the collective, `-done` waits
  // for its result.
  kAllGatherStart,
  kAllGatherDone,
  kAllReduceStart,
  kAllReduceDone,
  kCollectivePermuteStart,
  kCollectivePermuteDone,
  // Any op run asynchronously: async-start calls a computation, async-done
  // waits for its result.
  kAsyncStart,
  kAsyncDone,
  // Structure.
  kCall,
  kFusion,
  kGetTupleElement,
  kTuple,
  /// Any other op; HloInstruction::opcode_name() has its text.
  kUnknown,
};

/// The name XLA prints, e.g. "dynamic-slice"; "unknown" for kUnknown.
absl::string_view HloOpcodeName(HloOpcode opcode);
/// kUnknown for a name that is not in the list above.
HloOpcode HloOpcodeFromName(absl::string_view name);
/// True for the names of XLA's opcodes (the modelled ones and every other,
/// all-reduce, custom-call, while, ...), also with an async `-start`,
/// `-update` or `-done` suffix; what the parser accepts as an opcode.
bool IsXlaOpcodeName(absl::string_view name);

bool IsElementwiseUnary(HloOpcode opcode);
bool IsElementwiseBinary(HloOpcode opcode);
/// Unary, binary, select and clamp: output[i] depends on operand[k][i].
bool IsElementwise(HloOpcode opcode);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_OPCODE_H_
