#include "xla_index/op_dispatch.h"

#include <cstdint>

#include "hlo/instruction.h"
#include "xla_index/fusion_indexing.h"
#include "xla_index/input_to_output_indexing.h"
#include "xla_index/output_to_input_indexing.h"

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
    {HloOpcode::kBitcast, ComputeOutputToInputBitcastIndexing,
     ComputeInputToOutputBitcastIndexing},
    {HloOpcode::kBroadcast, ComputeOutputToInputBroadcastIndexing,
     ComputeInputToOutputBroadcastIndexing},
    {HloOpcode::kCall, ComputeOutputToInputFusionIndexing,
     ComputeInputToOutputFusionIndexing},
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
    {HloOpcode::kGather, ComputeOutputToInputGatherIndexing, nullptr},
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
    {HloOpcode::kReduceWindow, ComputeOutputToInputReduceWindowIndexing,
     ComputeInputToOutputReduceWindowIndexing},
    {HloOpcode::kReshape, ComputeOutputToInputReshapeIndexing,
     ComputeInputToOutputReshapeIndexing},
    {HloOpcode::kReverse, ComputeOutputToInputReverseIndexing,
     ComputeInputToOutputReverseIndexing},
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

HloInstructionIndexing ComputeOutputToInputIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context) {
  OutputToInputRule rule =
      FindOpIndexingRules(instruction->opcode()).output_to_input;
  if (rule == nullptr || output_id < 0 ||
      output_id >= OutputCount(instruction)) {
    return UndefinedForEachOperand(instruction);
  }
  return rule(instruction, output_id, context);
}

HloInstructionIndexing ComputeInputToOutputIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  InputToOutputRule rule =
      FindOpIndexingRules(instruction->opcode()).input_to_output;
  if (rule == nullptr || input_id < 0 ||
      input_id >= instruction->operand_count()) {
    return UndefinedForEachOutput(instruction);
  }
  return rule(instruction, input_id, context);
}

}  // namespace xla_index
