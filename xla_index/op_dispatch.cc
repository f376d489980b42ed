#include "xla_index/op_dispatch.h"

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "hlo/instruction.h"
#include "xla_index/fusion_indexing.h"

namespace xla_index {
namespace {

// parameter, constant and iota have no operands: nothing is read.
HloInstructionIndexing ReadsNothing(const HloInstruction* /*instruction*/,
                                    int64_t /*output_id*/,
                                    mlir::MLIRContext* /*context*/) {
  return HloInstructionIndexing{};
}

// Sorted by opcode name (checked by indexing_analysis_test.cc).
constexpr OpIndexingRules kOpIndexingRules[] = {
    {HloOpcode::kAllGather, ComputeOutputToInputAllGatherIndexing,
     ComputeInputToOutputAllGatherIndexing},
    {HloOpcode::kAllGatherDone, ComputeOutputToInputAsyncDoneIndexing,
     ComputeInputToOutputAsyncDoneIndexing},
    {HloOpcode::kAllGatherStart, ComputeOutputToInputAllGatherStartIndexing,
     ComputeInputToOutputAllGatherStartIndexing},
    {HloOpcode::kAllReduce, ComputeOutputToInputAllReduceIndexing,
     ComputeInputToOutputAllReduceIndexing},
    {HloOpcode::kAllReduceDone, ComputeOutputToInputAsyncDoneIndexing,
     ComputeInputToOutputAsyncDoneIndexing},
    {HloOpcode::kAllReduceStart, ComputeOutputToInputAllReduceIndexing,
     ComputeInputToOutputAllReduceIndexing},
    {HloOpcode::kAllToAll, ComputeOutputToInputAllToAllIndexing,
     ComputeInputToOutputAllToAllIndexing},
    {HloOpcode::kAsyncDone, ComputeOutputToInputAsyncDoneIndexing,
     ComputeInputToOutputAsyncDoneIndexing},
    {HloOpcode::kAsyncStart, ComputeOutputToInputAsyncStartIndexing,
     ComputeInputToOutputAsyncStartIndexing},
    {HloOpcode::kBitcast, ComputeOutputToInputBitcastIndexing,
     ComputeInputToOutputBitcastIndexing},
    {HloOpcode::kBroadcast, ComputeOutputToInputBroadcastIndexing,
     ComputeInputToOutputBroadcastIndexing},
    {HloOpcode::kCall, ComputeOutputToInputFusionIndexing,
     ComputeInputToOutputFusionIndexing},
    {HloOpcode::kCollectivePermute,
     ComputeOutputToInputCollectivePermuteIndexing,
     ComputeInputToOutputCollectivePermuteIndexing},
    {HloOpcode::kCollectivePermuteDone, ComputeOutputToInputAsyncDoneIndexing,
     ComputeInputToOutputAsyncDoneIndexing},
    {HloOpcode::kCollectivePermuteStart,
     ComputeOutputToInputCollectivePermuteStartIndexing,
     ComputeInputToOutputCollectivePermuteStartIndexing},
    {HloOpcode::kConcatenate, ComputeOutputToInputConcatenateIndexing,
     ComputeInputToOutputConcatenateIndexing},
    {HloOpcode::kConstant, ReadsNothing, nullptr},
    {HloOpcode::kConvolution, ComputeOutputToInputConvolutionIndexing,
     ComputeInputToOutputConvolutionIndexing},
    {HloOpcode::kDot, ComputeOutputToInputDotIndexing,
     ComputeInputToOutputDotIndexing},
    {HloOpcode::kDynamicSlice, ComputeOutputToInputDynamicSliceIndexing,
     ComputeInputToOutputDynamicSliceIndexing},
    {HloOpcode::kDynamicUpdateSlice,
     ComputeOutputToInputDynamicUpdateSliceIndexing, nullptr},
    {HloOpcode::kFusion, ComputeOutputToInputFusionIndexing,
     ComputeInputToOutputFusionIndexing},
    {HloOpcode::kGather, ComputeOutputToInputGatherIndexing,
     ComputeInputToOutputGatherIndexing},
    {HloOpcode::kGetTupleElement, ComputeOutputToInputGetTupleElementIndexing,
     ComputeInputToOutputGetTupleElementIndexing},
    {HloOpcode::kIota, ReadsNothing, nullptr},
    {HloOpcode::kMap, ComputeOutputToInputElementwiseIndexing,
     ComputeInputToOutputElementwiseIndexing},
    {HloOpcode::kPad, ComputeOutputToInputPadIndexing,
     ComputeInputToOutputPadIndexing},
    {HloOpcode::kParameter, ReadsNothing, nullptr},
    {HloOpcode::kReduce, ComputeOutputToInputReduceIndexing,
     ComputeInputToOutputReduceIndexing},
    {HloOpcode::kReduceScatter, ComputeOutputToInputReduceScatterIndexing,
     ComputeInputToOutputReduceScatterIndexing},
    {HloOpcode::kReduceWindow, ComputeOutputToInputReduceWindowIndexing,
     ComputeInputToOutputReduceWindowIndexing},
    {HloOpcode::kReshape, ComputeOutputToInputReshapeIndexing,
     ComputeInputToOutputReshapeIndexing},
    {HloOpcode::kReverse, ComputeOutputToInputReverseIndexing,
     ComputeInputToOutputReverseIndexing},
    {HloOpcode::kScaledDot, ComputeOutputToInputScaledDotIndexing,
     ComputeInputToOutputScaledDotIndexing},
    {HloOpcode::kSlice, ComputeOutputToInputSliceIndexing,
     ComputeInputToOutputSliceIndexing},
    {HloOpcode::kTranspose, ComputeOutputToInputTransposeIndexing,
     ComputeInputToOutputTransposeIndexing},
    {HloOpcode::kTuple, ComputeOutputToInputTupleIndexing,
     ComputeInputToOutputTupleIndexing},
};

}  // namespace

absl::Span<const OpIndexingRules> OpIndexingRuleTable() {
  return kOpIndexingRules;
}

OpIndexingRules FindOpIndexingRules(HloOpcode opcode) {
  if (IsElementwise(opcode)) {
    return {opcode, ComputeOutputToInputElementwiseIndexing,
            ComputeInputToOutputElementwiseIndexing};
  }
  for (const OpIndexingRules& rules : kOpIndexingRules) {
    if (rules.opcode == opcode) return rules;
  }
  return {opcode, nullptr, nullptr};
}

// "no indexing rule for opcode 'sort'", with " in the input-to-output
// direction" (or output-to-input) appended when the opcode has a rule in the
// other direction only.
std::string NoIndexingRuleReason(const HloInstruction* instruction,
                                 bool output_to_input) {
  OpIndexingRules rules = FindOpIndexingRules(instruction->opcode());
  std::string reason = absl::StrCat("no indexing rule for opcode '",
                                    HloOpcodeName(instruction->opcode()), "'");
  if (rules.output_to_input != nullptr || rules.input_to_output != nullptr) {
    absl::StrAppend(&reason, " in the ",
                    output_to_input ? "output-to-input" : "input-to-output",
                    " direction");
  }
  return reason;
}

std::string UnboundedShapeReason(const HloInstruction* instruction) {
  auto reason = [&](absl::string_view whose, const Shape& shape) {
    return absl::StrCat(whose, " the unbounded shape ", shape.ToString(false),
                        ": a '?' dimension has no size to index");
  };
  if (instruction->shape().HasUnboundedDimension()) {
    return reason(absl::StrCat("'", instruction->name(), "' has"),
                  instruction->shape());
  }
  for (const HloInstruction* operand : instruction->operands()) {
    if (operand->shape().HasUnboundedDimension()) {
      return reason(absl::StrCat("'", instruction->name(), "' reads '",
                                 operand->name(), "' of"),
                    operand->shape());
    }
  }
  return "";
}

std::string IndexingIdOutOfRangeReason(const HloInstruction* instruction,
                                       absl::string_view what, int64_t id,
                                       int64_t count) {
  return absl::StrCat(what, " id ", id, " of '", instruction->name(),
                      "' is outside [0, ", count, ")");
}

}  // namespace xla_index
