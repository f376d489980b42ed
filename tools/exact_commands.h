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

/// Runs `xla-index equal MAP1 MAP2 [--json] [--timing]` or
/// `xla-index empty MAP [--json] [--timing]` (`args` is argv after the
/// subcommand name; a MAP of "-" reads standard input) and returns the exit
/// status, as diff and cmp do:
///   0  equal: the maps relate exactly the same (dims, result) pairs;
///      empty: no point of the dims and symbols meets the map's bounds and
///      constraints;
///   1  not so; `out` gets a witness: the pair and the map that has it, or a
///      point (dims, symbols) of the map and its results;
///   2  bad input or no answer (parse error, different dimension or result
///      counts, an UNDEFINED or non-affine map, a check too costly), with
///      the message on `err`.
/// The answers are exact (xla_index/core/presburger_relation.h): no point
/// is enumerated. --json prints one line {"equal": bool, "witness": ...} or
/// {"empty": bool, "witness": ...} (witness null when there is none).
/// --timing repeats the check in-process and prints its median on `err`.
int RunExactCommand(absl::string_view name, absl::Span<const std::string> args,
                    std::ostream& out, std::ostream& err);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_EXACT_COMMANDS_H_
