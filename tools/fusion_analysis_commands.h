#ifndef XLA_INDEX_TOOLS_FUSION_ANALYSIS_COMMANDS_H_
#define XLA_INDEX_TOOLS_FUSION_ANALYSIS_COMMANDS_H_

// The `xla-index coalescing` and `utilization` subcommands: the
// analyses of xla_index/analysis/ on one fusion (or root) of an HLO file.

#include <ostream>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "tools/command_line.h"
#include "tools/hlo_input.h"
#include "xla_index/analysis/coalescing.h"

namespace xla_index {

// The uses of the maps (xla_index/analysis/): each analyzes the entry
// computation's root of a module of FILE.hlo (tools/hlo_input.h), or the
// instruction that --instruction=NAME (or COMPUTATION.NAME) names, as a
// fusion.

/// The coalescing options of --device=NAME (RTX A6000 when absent),
/// --block=N and --unroll=N (overrides of the loop emitter's launch) and
/// --sample-points=N (max_sample_points, in [1, 2^24]).
absl::StatusOr<CoalescingOptions> CoalescingOptionsFromFlags(
    const CommandLine& command_line);

/// `xla-index coalescing FILE.hlo [--instruction=NAME] [--device=NAME]
/// [--block=N] [--unroll=N] [--sample-points=N] [--json]`: the kernel's
/// emitter and, for each
/// operand read, whether one warp's reads are coalesced, with bytes
/// touched, transactions, efficiency and XLA's 128-byte rule. With
/// --producer=NAME [--consumer=NAME]: XLA's IsReadCoalescedHeuristic.
absl::Status RunCoalescingCommand(const CommandLine& command_line,
                                  const LoadedHlo& input, std::ostream& out,
                                  std::ostream& err);

/// The wall time of all exact utilization counts of a command:
/// --time-limit=SECONDS, an integer in [0, 86400], else `default_limit`.
absl::StatusOr<absl::Duration> UtilizationTimeLimitFromFlags(
    const CommandLine& command_line, absl::Duration default_limit);

/// `xla-index utilization FILE.hlo [--instruction=NAME] [--json]
/// [--time-limit=SECONDS]`: per operand, the fraction of its elements read
/// and the average reads per element read; all operands' exact counts
/// together within the time limit (kDefaultUtilizationTotalBudget), later
/// ones bounds with exact=false.
absl::Status RunUtilizationCommand(const CommandLine& command_line,
                                   const LoadedHlo& input, std::ostream& out,
                                   std::ostream& err);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_FUSION_ANALYSIS_COMMANDS_H_
