#ifndef XLA_INDEX_TOOLS_LAYOUT_COMMAND_H_
#define XLA_INDEX_TOOLS_LAYOUT_COMMAND_H_

// The `xla-index layout` subcommand: sizes and indexing maps of a (tiled)
// layout, an element's linear position, and its SVG picture.

#include <ostream>

#include "absl/status/status.h"
#include "tools/command_line.h"

namespace xla_index {

/// `xla-index layout SHAPE [--index=i,j,...] [--svg=FILE] [--json]`: sizes,
/// memory space and indexing maps of a shape's (tiled) layout, and with
/// --index the element's linear position in memory.
absl::Status RunLayoutCommand(const CommandLine& command_line,
                              std::ostream& out, std::ostream& err);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_LAYOUT_COMMAND_H_
