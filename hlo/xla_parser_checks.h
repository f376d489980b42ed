#ifndef XLA_INDEX_HLO_XLA_PARSER_CHECKS_H_
#define XLA_INDEX_HLO_XLA_PARSER_CHECKS_H_

// The checks XLA HEAD's parser makes of one instruction beyond the grammar
// (HloParserImpl::ParseInstructionRhs and the attribute parsers it calls),
// for the ops and attributes this library otherwise keeps as text:
// operand counts (conditional, rng-bit-generator, dynamic-reshape), a
// conditional's branch index, all-gather/reduce-scatter dimensions, recv's
// tuple shape, custom-call api_version and operand_layout_constraints,
// result_accuracy, sharding and replica-group device counts, a
// parameter's parameter_replication, and control-predecessors naming
// instructions of the computation.

#include <string>

#include "hlo/instruction.h"

namespace xla_index {

/// Empty when `inst` passes, else what is wrong (naming the instruction).
/// Needs the operands linked and their shapes known.
std::string CheckAsXlaParserDoes(const HloInstruction& inst);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_XLA_PARSER_CHECKS_H_
