#ifndef XLA_INDEX_TOOLS_TILE_COMMAND_H_
#define XLA_INDEX_TOOLS_TILE_COMMAND_H_

// `xla-index tile INPUT --tile=SIZES [--strict] [--instruction=NAME]
// [--json]`: an output tile propagated to a tile of every operand
// (xla_index/analysis/symbolic_tile.h), or why it cannot be, with XLA's
// constraints on the tile sizes.
//
// INPUT is an HLO file (tools/hlo_input.h), or an indexing map in the text
// format of xla_index/core/indexing_map_text.h: written on the command
// line, in a file, or on standard input ("-"). A text whose first
// non-blank character is '(' (or that reads UNDEFINED / KNOWN EMPTY) is a
// map; anything else is HLO. --tile= (empty) is the tile of a rank-0
// output. --strict refuses tiles that run past a pad or concatenate edge
// instead of giving them with a mask.

#include <ostream>

#include "absl/status/status.h"
#include "tools/command_line.h"
#include "tools/hlo_input.h"

namespace xla_index {

absl::Status RunTileCommand(const CommandLine& command_line, std::ostream& out,
                            std::ostream& err);

/// The command on HLO already loaded (an HloCommand, tools/hlo_input.h):
/// what RunTileCommand does for an HLO file's module; the Python module's
/// `tile` and the commands' agreement test call it.
absl::Status RunTileOnHlo(const CommandLine& command_line,
                          const LoadedHlo& input, std::ostream& out,
                          std::ostream& err);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_TILE_COMMAND_H_
