#ifndef XLA_INDEX_TOOLS_EXACT_COMMANDS_H_
#define XLA_INDEX_TOOLS_EXACT_COMMANDS_H_

// The `xla-index equal` and `xla-index empty` subcommands: exact equality and
// emptiness of indexing maps (Presburger relations), with diff-like exit
// statuses.

#include <ostream>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace xla_index {

/// True for the subcommands RunExactCommand runs: "equal" and "empty".
bool IsExactCommand(absl::string_view name);

/// Runs `xla-index equal MAP1 MAP2 [FLAGS]` or `xla-index empty MAP [FLAGS]`
/// (`args` is argv after the subcommand name; a MAP of "-" reads standard
/// input) and returns the exit status, as diff and cmp do:
///   0  equal: the maps relate exactly the same (dims, result) pairs (a
///      KNOWN EMPTY map equals any map whose domain is empty, whatever its
///      counts); empty: no point of the dims and symbols meets the map's
///      bounds and constraints;
///   1  not so; `out` gets a witness: the pair and the map that has it, or a
///      point (dims, symbols) of the map and its results;
///   2  bad input or no answer (parse error, different dimension or result
///      counts, an UNDEFINED or non-affine map, every method over its
///      budget), with the message on `err` naming what ran out.
/// The answers are exact (xla_index/core/exact_map_questions.h: enumeration
/// of small boxes, direct arguments, Presburger relations). Flags:
///   --json                one line {"equal": bool, "witness": ...,
///                         "method": "..."} or {"empty": ...} (witness null
///                         when there is none)
///   --timing              repeats the check in-process and prints its
///                         median on `err`
///   --time-limit=SECONDS  the budget of one question (default 10); past it
///                         plus 2 s of grace the process exits 2 with a
///                         message even inside an uninterruptible MLIR call
///   --max-input-bytes=N   the most bytes a MAP read from standard input may
///                         have (default 64 MiB)
int RunExactCommand(absl::string_view name, absl::Span<const std::string> args,
                    std::ostream& out, std::ostream& err);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_EXACT_COMMANDS_H_
