#ifndef XLA_INDEX_TOOLS_FUSION_ANALYSIS_COMMANDS_H_
#define XLA_INDEX_TOOLS_FUSION_ANALYSIS_COMMANDS_H_

#include <ostream>

#include "absl/status/status.h"
#include "tools/command_line.h"

namespace xla_index {

// The uses of the maps (xla_index/analysis/): each reads FILE.hlo and
// analyzes the entry computation's root, or the instruction that
// --instruction=NAME (or COMPUTATION.NAME) names, as a fusion. Every
// command takes --max-input-bytes=N (tools/file_io.h).

/// `xla-index coalescing FILE.hlo [--instruction=NAME] [--block=N]
/// [--unroll=N] [--json]`: for each operand read, whether one warp's reads
/// are coalesced, with bytes touched, transactions and efficiency.
absl::Status RunCoalescingCommand(const CommandLine& command_line,
                                  std::ostream& out, std::ostream& err);

/// `xla-index utilization FILE.hlo [--instruction=NAME] [--json]`: per operand,
/// the fraction of its elements read and the average reads per element read.
absl::Status RunUtilizationCommand(const CommandLine& command_line,
                                   std::ostream& out, std::ostream& err);

/// `xla-index tile FILE.hlo --tile=8,128 [--instruction=NAME] [--json]`: an
/// output tile propagated to a tile of each operand, or why it cannot be.
absl::Status RunTileCommand(const CommandLine& command_line, std::ostream& out,
                            std::ostream& err);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_FUSION_ANALYSIS_COMMANDS_H_
