#ifndef XLA_INDEX_TOOLS_COMMAND_LINE_H_
#define XLA_INDEX_TOOLS_COMMAND_LINE_H_

// The parsed command line of one `xla-index` call: positional arguments and
// `--name[=value]` flags, with typed getters that name the flag in errors.

#include <cstdint>
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
  /// The value of integer flag `name`, or `default_value` when absent;
  /// InvalidArgument "--NAME: 'TEXT' is not an integer" otherwise.
  absl::StatusOr<int64_t> GetInteger(absl::string_view name,
                                     int64_t default_value) const;
};

/// Splits `args` (argv without the program and subcommand names) and checks
/// every flag against `known_flags`, so that a misspelt flag is an error
/// rather than silently ignored. A flag in `boolean_flags` (also listed in
/// `known_flags`) is on when written bare or as =true/=yes/=1, and off (as if
/// absent) as =false/=no/=0; any other value is an error naming the flag.
absl::StatusOr<CommandLine> ParseCommandLine(
    absl::Span<const std::string> args,
    absl::Span<const absl::string_view> known_flags,
    absl::Span<const absl::string_view> boolean_flags = {});

/// Parses a comma-separated list of integers such as "8,128" (for --index,
/// --tile); `flag` names the flag in error messages.
absl::StatusOr<std::vector<int64_t>> ParseIntegerList(absl::string_view flag,
                                                      absl::string_view text);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_COMMAND_LINE_H_
