#ifndef XLA_INDEX_TOOLS_ANALYZE_COMMAND_H_
#define XLA_INDEX_TOOLS_ANALYZE_COMMAND_H_

// The `xla-index analyze` subcommand: indexing maps of an HLO instruction,
// in either direction, composed or not, on logical or physical shapes.

#include <ostream>

#include "absl/status/status.h"
#include "tools/command_line.h"
#include "tools/hlo_input.h"

namespace xla_index {

/// `xla-index analyze FILE.hlo [--direction=output-to-input|input-to-output]
/// [--instruction=NAME|COMPUTATION.NAME] [--compose] [--physical-layout]
/// [--json]`: the indexing
/// maps of the entry computation's root (or of NAME, the entry's first),
/// per operand. FILE may be a module, a bare computation or a bare list of
/// instructions; `-` reads stdin. In a module a non-fusion instruction gets
/// its own operand maps unless --compose asks for the composition back to
/// the computation's parameters; a snippet is always composed.
/// --physical-layout maps between physical shapes instead of logical ones
/// (xla_index/physical_layout_indexing.h). Maps of collectives print their
/// replica-id map after "replica id:" (JSON: "replica_id" inside the MAP).
absl::Status RunAnalyzeCommand(const CommandLine& command_line,
                               const LoadedHlo& loaded, std::ostream& out,
                               std::ostream& err);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_ANALYZE_COMMAND_H_
