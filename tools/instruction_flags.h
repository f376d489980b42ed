#ifndef XLA_INDEX_TOOLS_INSTRUCTION_FLAGS_H_
#define XLA_INDEX_TOOLS_INSTRUCTION_FLAGS_H_

// The instruction a fusion-analysis subcommand (`coalescing`,
// `utilization`, `tile`) works on, from --instruction=NAME and the other
// flags that name an instruction, with the flag named in every error.

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlo/instruction.h"
#include "hlo/module.h"
#include "tools/command_line.h"

namespace xla_index {

/// `status` with its message prefixed by "--FLAG: " (same code).
absl::Status ForFlag(absl::string_view flag, const absl::Status& status);

/// The analyzed instruction: the one --instruction=NAME (or
/// COMPUTATION.NAME) names, else the entry computation's root (an error
/// then names the input file, positional argument 0).
absl::StatusOr<const HloInstruction*> AnalyzedInstruction(
    const HloModule& module, const CommandLine& command_line);

/// The instruction --FLAG=NAME names; an absent or empty name, or one the
/// module does not hold, is an error naming the flag.
absl::StatusOr<const HloInstruction*> NamedInstruction(
    const HloModule& module, const CommandLine& command_line,
    absl::string_view flag);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_INSTRUCTION_FLAGS_H_
