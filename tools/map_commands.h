#ifndef XLA_INDEX_TOOLS_MAP_COMMANDS_H_
#define XLA_INDEX_TOOLS_MAP_COMMANDS_H_

// The `xla-index simplify` and `xla-index compose` subcommands on indexing
// maps given as text.

#include <ostream>

#include "absl/status/status.h"
#include "tools/command_line.h"

namespace xla_index {

/// `xla-index simplify MAP|- [--json] [--timing]`: prints the simplified map.
/// With --timing, repeats parse, simplify and print in-process and reports
/// the median of each on `err`, so maps can be timed without start-up cost.
absl::Status RunSimplifyCommand(const CommandLine& command_line,
                                std::ostream& out, std::ostream& err);

/// `xla-index compose MAP1 MAP2 [--json] [--timing]`: prints MAP2 after MAP1
/// (MAP1's results feed MAP2's dimensions), simplified, unused symbols
/// removed.
absl::Status RunComposeCommand(const CommandLine& command_line,
                               std::ostream& out, std::ostream& err);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_MAP_COMMANDS_H_
