#ifndef XLA_INDEX_TOOLS_FILE_IO_H_
#define XLA_INDEX_TOOLS_FILE_IO_H_

// Input and output of the command line: reading a file or standard input
// under the --max-input-bytes limit, and writing output files.

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/command_line.h"

namespace xla_index {

/// The most bytes one input (a file, standard input, or a map argument read
/// from it) may have unless --max-input-bytes raises it: 64 MiB, well above
/// any real HLO module or COO list, and it stops `/dev/zero` or an endless
/// pipe early instead of exhausting memory.
inline constexpr int64_t kDefaultMaxInputBytes = int64_t{64} << 20;

/// The input limit the command line asks for: --max-input-bytes=N (N >= 1),
/// else kDefaultMaxInputBytes. InvalidArgument naming the flag otherwise.
absl::StatusOr<int64_t> MaxInputBytes(const CommandLine& command_line);

/// The whole of standard input when `argument` is "-", else `argument`
/// itself (a map written on the command line).
absl::StatusOr<std::string> ArgumentOrStdin(
    absl::string_view argument, int64_t max_bytes = kDefaultMaxInputBytes);

/// The contents of file `path` ("-" reads standard input). Errors name the
/// path: it cannot be opened, is a directory, standard input is closed, a
/// read fails, or it holds more than `max_bytes` bytes (ResourceExhausted,
/// after reading at most max_bytes + 1 bytes).
absl::StatusOr<std::string> ReadInputFile(
    absl::string_view path, int64_t max_bytes = kDefaultMaxInputBytes);

/// Writes `contents` to file `path`, replacing it (for --svg FILE).
absl::Status WriteOutputFile(absl::string_view path,
                             absl::string_view contents);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_FILE_IO_H_
