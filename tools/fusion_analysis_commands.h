#ifndef XLA_INDEX_TOOLS_FUSION_ANALYSIS_COMMANDS_H_
#define XLA_INDEX_TOOLS_FUSION_ANALYSIS_COMMANDS_H_

// The `xla-index coalescing`, `utilization` and `tile` subcommands: the
// analyses of xla_index/analysis/ on one fusion (or root) of an HLO file.

#include <ostream>

#include "absl/status/status.h"
#include "tools/command_line.h"
#include "tools/hlo_input.h"

namespace xla_index {

// The uses of the maps (xla_index/analysis/): each analyzes the entry
// computation's root of a module of FILE.hlo (tools/hlo_input.h), or the
// instruction that --instruction=NAME (or COMPUTATION.NAME) names, as a
// fusion.

/// `xla-index coalescing FILE.hlo [--instruction=NAME] [--block=N]
/// [--unroll=N] [--json]`: for each operand read, whether one warp's reads
/// are coalesced, with bytes touched, transactions and efficiency.
absl::Status RunCoalescingCommand(const CommandLine& command_line,
                                  const LoadedHlo& input, std::ostream& out,
                                  std::ostream& err);

/// `xla-index utilization FILE.hlo [--instruction=NAME] [--json]`: per operand,
/// the fraction of its elements read and the average reads per element read.
absl::Status RunUtilizationCommand(const CommandLine& command_line,
                                   const LoadedHlo& input, std::ostream& out,
                                   std::ostream& err);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_FUSION_ANALYSIS_COMMANDS_H_
