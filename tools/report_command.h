#ifndef XLA_INDEX_TOOLS_REPORT_COMMAND_H_
#define XLA_INDEX_TOOLS_REPORT_COMMAND_H_

// The `xla-index report` subcommand: every fusion of a module analyzed, as
// text, JSON or an HTML page.

#include <ostream>

#include "absl/status/status.h"
#include "tools/command_line.h"
#include "tools/hlo_input.h"

namespace xla_index {

/// `xla-index report FILE.hlo [--json] [--html=FILE] [--block=N]
/// [--unroll=N] [--sample-points=N] [--worst=N] [--timing]`: every fusion of
/// the module (every instruction with a non-identity map when there are none)
/// analyzed on its own: maps, coalescing on the default launch grid,
/// utilization, exact emptiness of unused operands and the time each took,
/// under a summary with the worst uncoalesced reads first
/// (xla_index/analysis/module_report.h).
/// --html also writes the self-contained page (tools/report_html.h).
/// --timing prints the analysis time on `err`.
absl::Status RunReportCommand(const CommandLine& command_line,
                              const LoadedHlo& input, std::ostream& out,
                              std::ostream& err);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_REPORT_COMMAND_H_
