#ifndef XLA_INDEX_HLO_XLA_PARSER_CHECKS_H_
#define XLA_INDEX_HLO_XLA_PARSER_CHECKS_H_

// The checks XLA HEAD's parser makes of one instruction beyond the grammar
// (HloParserImpl::ParseInstructionRhs and the attribute parsers it calls),
// for the ops and attributes this library otherwise keeps as text:
// operand counts (conditional, rng-bit-generator, dynamic-reshape), a
// conditional's branch index, all-gather/reduce-scatter dimensions, recv's
// and infeed's tuple shapes, custom-call api_version and
// operand_layout_constraints, result_accuracy, sharding and replica-group
// device counts, a parameter's parameter_replication, and control-predecessors
// naming instructions of the computation.

#include <string>

#include "absl/strings/string_view.h"
#include "hlo/instruction.h"

namespace xla_index {

/// Empty when attribute `name` = `value` of `inst` (its shape known, its
/// operands not yet) passes, else what is wrong (naming the instruction):
/// result_accuracy, sharding, replica_groups, parameter_replication.
std::string CheckAttributeAsXlaParserDoes(const HloInstruction& inst,
                                          absl::string_view name,
                                          absl::string_view value);

/// Empty when `inst` passes the checks that need its operands linked and
/// their shapes known, and the instructions of its computation
/// (`control_predecessors`: whether to check control-predecessors=).
std::string CheckOperandsAsXlaParserDoes(const HloInstruction& inst,
                                         bool control_predecessors);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_XLA_PARSER_CHECKS_H_
