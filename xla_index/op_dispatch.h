#ifndef XLA_INDEX_OP_DISPATCH_H_
#define XLA_INDEX_OP_DISPATCH_H_

// The dispatch table behind ComputeOutputToInputIndexing
// (output_to_input_indexing.h) and ComputeInputToOutputIndexing
// (input_to_output_indexing.h): for each opcode, its rule in each
// direction, sorted by opcode name as XLA's indexing_analysis.cc sorts its
// dispatch. Both entry points are defined in op_dispatch.cc, next to the
// table.
//
// Elementwise opcodes (IsElementwise) share one pair of rules and are not
// listed one by one. An opcode missing from the table, or listed with a
// null rule, has no rule in that direction: its maps are UNDEFINED.

#include "absl/types/span.h"
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

}  // namespace xla_index

#endif  // XLA_INDEX_OP_DISPATCH_H_
