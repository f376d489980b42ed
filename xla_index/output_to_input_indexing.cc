#include "xla_index/output_to_input_indexing.h"

#include <cstdint>
#include <string>

#include "hlo/instruction.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/op_dispatch.h"
#include "xla_index/ops/instruction_indexing.h"

namespace xla_index {

HloInstructionIndexing ComputeOutputToInputIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context) {
  OutputToInputRule rule =
      FindOpIndexingRules(instruction->opcode()).output_to_input;
  if (rule == nullptr) {
    return UndefinedForEachOperand(instruction,
                                   NoIndexingRuleReason(instruction, true));
  }
  const int64_t count = OutputCount(instruction);
  if (output_id < 0 || output_id >= count) {
    return UndefinedForEachOperand(
        instruction,
        IndexingIdOutOfRangeReason(instruction, "output", output_id, count));
  }
  // An unbounded `?` dimension has no size: no rule's map would be right.
  if (std::string unbounded = UnboundedShapeReason(instruction);
      !unbounded.empty()) {
    return UndefinedForEachOperand(instruction, unbounded);
  }
  return rule(instruction, output_id, context);
}

}  // namespace xla_index
