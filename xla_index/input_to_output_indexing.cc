#include "xla_index/input_to_output_indexing.h"

#include <cstdint>
#include <string>

#include "hlo/instruction.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/op_dispatch.h"
#include "xla_index/ops/instruction_indexing.h"

namespace xla_index {

HloInstructionIndexing ComputeInputToOutputIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  InputToOutputRule rule =
      FindOpIndexingRules(instruction->opcode()).input_to_output;
  if (rule == nullptr) {
    return UndefinedForEachOutput(instruction,
                                  NoIndexingRuleReason(instruction, false));
  }
  const int64_t count = instruction->operand_count();
  if (input_id < 0 || input_id >= count) {
    return UndefinedForEachOutput(
        instruction,
        IndexingIdOutOfRangeReason(instruction, "input", input_id, count));
  }
  // An unbounded `?` dimension has no size: no rule's map would be right.
  if (std::string unbounded = UnboundedShapeReason(instruction);
      !unbounded.empty()) {
    return UndefinedForEachOutput(instruction, unbounded);
  }
  return rule(instruction, input_id, context);
}

}  // namespace xla_index
