#ifndef XLA_INDEX_TOOLS_COMMAND_LINE_H_
#define XLA_INDEX_TOOLS_COMMAND_LINE_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace xla_index {

/// The words of one `xla-index SUBCOMMAND ...` call: positional arguments in
/// order, and `--name=value` / `--name` flags. A lone `-` is positional (it
/// means standard input); `--` ends the flags.
struct CommandLine {
  std::vector<std::string> positional;
  std::map<std::string, std::string>
      flags;  // "--json" is stored as "json" -> ""

  bool Has(absl::string_view name) const;
  std::optional<std::string> Get(absl::string_view name) const;
};

/// Splits `args` (argv without the program and subcommand names) and checks
/// every flag against `known_flags`, so that a misspelt flag is an error
/// rather than silently ignored.
absl::StatusOr<CommandLine> ParseCommandLine(
    absl::Span<const std::string> args,
    absl::Span<const absl::string_view> known_flags);

/// Parses a comma-separated list of integers such as "8,128" (for --index,
/// --tile); `flag` names the flag in error messages.
absl::StatusOr<std::vector<int64_t>> ParseIntegerList(absl::string_view flag,
                                                      absl::string_view text);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_COMMAND_LINE_H_
