#ifndef XLA_INDEX_TOOLS_FILE_IO_H_
#define XLA_INDEX_TOOLS_FILE_IO_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace xla_index {

/// The whole of standard input when `argument` is "-", else `argument`
/// itself (a map written on the command line).
absl::StatusOr<std::string> ArgumentOrStdin(absl::string_view argument);

/// The contents of file `path` ("-" reads standard input).
absl::StatusOr<std::string> ReadInputFile(absl::string_view path);

/// Writes `contents` to file `path`, replacing it (for --svg FILE).
absl::Status WriteOutputFile(absl::string_view path,
                             absl::string_view contents);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_FILE_IO_H_
