#ifndef XLA_INDEX_TOOLS_SPARSE_COMMAND_H_
#define XLA_INDEX_TOOLS_SPARSE_COMMAND_H_

// The `xla-index sparse` subcommand: an encoding's maps, level sizes and
// storage, with --coo the arrays of a tensor, with --svg their picture.

#include <ostream>

#include "absl/status/status.h"
#include "tools/command_line.h"

namespace xla_index {

/// `xla-index sparse ENCODING [--shape=AxB...] [--coo=FILE] [--svg=FILE]
/// [--json]`: the canonical encoding, level types, dim-to-level and
/// level-to-dim maps, storage sizes, and with --coo the arrays of every
/// level.
absl::Status RunSparseCommand(const CommandLine& command_line,
                              std::ostream& out, std::ostream& err);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_SPARSE_COMMAND_H_
