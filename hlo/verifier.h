#ifndef XLA_INDEX_HLO_VERIFIER_H_
#define XLA_INDEX_HLO_VERIFIER_H_

// Checks a parsed module against XLA's operation semantics: every
// instruction's written shape must be the one its operands and attributes
// give (InferShape), called computations must fit their callers, the
// replica groups of collectives must pass XLA's checks
// (hlo/replica_group_verifier.h), and the call graph must have no cycles.

#include "absl/status/status.h"
#include "hlo/module.h"

namespace xla_index {

/// OK, or InvalidArgument naming where the instruction was read, the
/// instruction and its computation, e.g. "2:1: instruction 'slice' in
/// 'main': written shape f32[5,3,24] differs from f32[5,3,25], the shape
/// its operands and attributes give".
absl::Status VerifyModule(const HloModule& module);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_VERIFIER_H_
