#ifndef XLA_INDEX_OP_DISPATCH_H_
#define XLA_INDEX_OP_DISPATCH_H_

// The dispatch table behind ComputeOutputToInputIndexing
// (output_to_input_indexing.h) and ComputeInputToOutputIndexing
// (input_to_output_indexing.h): for each opcode, its rule in each
// direction, sorted by opcode name as XLA's indexing_analysis.cc sorts its
// dispatch. The entry points (output_to_input_indexing.cc,
// input_to_output_indexing.cc) look their rule up here.
//
// Elementwise opcodes (IsElementwise) share one pair of rules and are not
// listed one by one. An opcode missing from the table, or listed with a
// null rule, has no rule in that direction: its maps are UNDEFINED.

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlo/instruction.h"
#include "hlo/opcode.h"
#include "xla_index/ops/op_rules.h"

namespace xla_index {

/// One row of the table.
struct OpIndexingRules {
  HloOpcode opcode;
  OutputToInputRule output_to_input;  // null: no output-to-input rule
  InputToOutputRule input_to_output;  // null: no input-to-output rule
};

/// The table, sorted by HloOpcodeName (without the elementwise opcodes).
absl::Span<const OpIndexingRules> OpIndexingRuleTable();

/// The rules of `opcode`: its table row, the elementwise rules for an
/// elementwise opcode, or a row of null rules.
OpIndexingRules FindOpIndexingRules(HloOpcode opcode);

/// Why `instruction` has no rule in one direction: "no indexing rule for
/// opcode 'sort'", with " in the input-to-output direction" (or
/// output-to-input) when the opcode has a rule in the other direction only.
std::string NoIndexingRuleReason(const HloInstruction* instruction,
                                 bool output_to_input);

/// Empty when neither `instruction`'s shape nor an operand's has an
/// unbounded dynamic dimension `?` (XLA's parser reads them); else why no
/// map can be given: "'r' reads 'a' of the unbounded shape f32[?]: a '?'
/// dimension has no size to index". No rule runs on such an instruction.
std::string UnboundedShapeReason(const HloInstruction* instruction);

/// Why an output or input id cannot be used: "output id 2 of 'add.1' is
/// outside [0, 1)" (`what` is "output" or "input").
std::string IndexingIdOutOfRangeReason(const HloInstruction* instruction,
                                       absl::string_view what, int64_t id,
                                       int64_t count);

}  // namespace xla_index

#endif  // XLA_INDEX_OP_DISPATCH_H_
