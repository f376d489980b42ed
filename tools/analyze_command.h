#ifndef XLA_INDEX_TOOLS_ANALYZE_COMMAND_H_
#define XLA_INDEX_TOOLS_ANALYZE_COMMAND_H_

#include <ostream>

#include "absl/status/status.h"
#include "tools/command_line.h"

namespace xla_index {

/// `xla-index analyze FILE.hlo [--direction=output-to-input|input-to-output]
/// [--instruction=NAME] [--json]`: the indexing maps of the entry
/// computation's root (or of NAME), per operand. FILE may be a module, a
/// bare computation or a bare list of instructions; `-` reads stdin.
absl::Status RunAnalyzeCommand(const CommandLine& command_line,
                               std::ostream& out, std::ostream& err);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_ANALYZE_COMMAND_H_
