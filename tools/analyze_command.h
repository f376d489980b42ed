#ifndef XLA_INDEX_TOOLS_ANALYZE_COMMAND_H_
#define XLA_INDEX_TOOLS_ANALYZE_COMMAND_H_

#include <ostream>

#include "absl/status/status.h"
#include "tools/command_line.h"

namespace xla_index {

/// `xla-index analyze FILE.hlo [--direction=output-to-input|input-to-output]
/// [--instruction=NAME|COMPUTATION.NAME] [--compose] [--json]`: the indexing
/// maps of the entry computation's root (or of NAME, the entry's first),
/// per operand. FILE may be a module, a bare computation or a bare list of
/// instructions; `-` reads stdin. In a module a non-fusion instruction gets
/// its own operand maps unless --compose asks for the composition back to
/// the computation's parameters; a snippet is always composed.
absl::Status RunAnalyzeCommand(const CommandLine& command_line,
                               std::ostream& out, std::ostream& err);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_ANALYZE_COMMAND_H_
