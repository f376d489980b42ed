#ifndef XLA_INDEX_OUTPUT_TO_INPUT_INDEXING_H_
#define XLA_INDEX_OUTPUT_TO_INPUT_INDEXING_H_

// Output-to-input indexing of single HLO instructions: for an element of one
// output, which elements of each operand does the instruction read?
//
// The rule of each op, with its worked example, is in
// xla_index/ops/<op>.cc (declared in ops/op_rules.h); this entry point picks
// it from the table in op_dispatch.cc.

#include <cstdint>

#include "hlo/instruction.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/ops/instruction_indexing.h"

namespace xla_index {

/// For output `output_id` of `instruction` (0 unless it returns a tuple),
/// `indexing_maps[k]` are the maps from an output element to the elements of
/// operand k that it reads. Fusions and calls are analyzed through their
/// called computation (see fusion_indexing.h). Parameters, constants and iota
/// have no operands (an empty list). Ops without a rule, instructions whose
/// attributes do not fit their operands, and an `output_id` outside
/// [0, OutputCount(instruction)) give UNDEFINED maps for every operand
/// (never a crash).
HloInstructionIndexing ComputeOutputToInputIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);

}  // namespace xla_index

#endif  // XLA_INDEX_OUTPUT_TO_INPUT_INDEXING_H_
