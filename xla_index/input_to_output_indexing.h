#ifndef XLA_INDEX_INPUT_TO_OUTPUT_INDEXING_H_
#define XLA_INDEX_INPUT_TO_OUTPUT_INDEXING_H_

// Input-to-output indexing of single HLO instructions: for an element of one
// operand, which output elements does it feed? Only ops whose answer is an
// exact indexing map have a rule; the others give UNDEFINED.
//
// The rule of each op, with its worked example, is in
// xla_index/ops/<op>.cc (declared in ops/op_rules.h); this entry point picks
// it from the table in op_dispatch.cc.

#include <cstdint>

#include "hlo/instruction.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/ops/instruction_indexing.h"

namespace xla_index {

/// For operand `input_id` of `instruction`, indexing_maps[j] are the maps
/// from an element of that operand to the elements of output j it feeds
/// (one entry for array-shaped instructions). Fusions and calls go through
/// their called computation. Ops without a rule, instructions whose
/// attributes do not fit their operands, and an `input_id` outside
/// [0, operand_count()) give UNDEFINED maps for every output (never a
/// crash).
HloInstructionIndexing ComputeInputToOutputIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

}  // namespace xla_index

#endif  // XLA_INDEX_INPUT_TO_OUTPUT_INDEXING_H_
