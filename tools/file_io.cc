#include "tools/file_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace xla_index {
namespace {

// Reads `fd` to its end, or fails once more than `max_bytes` bytes came:
// a bounded read, so an endless source costs at most max_bytes of memory.
// `label` names the source in errors.
absl::StatusOr<std::string> ReadBounded(int fd, absl::string_view label,
                                        int64_t max_bytes) {
  std::string text;
  char buffer[1 << 16];
  while (true) {
    ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n == 0) return text;
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EISDIR) {
        return absl::InvalidArgumentError(
            absl::StrCat(label, ": is a directory, not a file"));
      }
      if (errno == EBADF && fd == STDIN_FILENO) {
        return absl::InvalidArgumentError(absl::StrCat(label, ": is closed"));
      }
      return absl::DataLossError(
          absl::StrCat(label, ": read error: ", std::strerror(errno)));
    }
    if (static_cast<int64_t>(text.size()) + n > max_bytes) {
      return absl::ResourceExhaustedError(
          absl::StrCat(label, ": input is larger than the limit of ", max_bytes,
                       " bytes (raise it with --max-input-bytes=N)"));
    }
    text.append(buffer, static_cast<size_t>(n));
  }
}

}  // namespace

absl::StatusOr<int64_t> MaxInputBytes(const CommandLine& command_line) {
  std::optional<std::string> text = command_line.Get("max-input-bytes");
  if (!text.has_value()) return kDefaultMaxInputBytes;
  int64_t value = 0;
  if (!absl::SimpleAtoi(*text, &value) || value < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--max-input-bytes: expected a byte count >= 1, got '", *text, "'"));
  }
  return value;
}

absl::StatusOr<std::string> ArgumentOrStdin(absl::string_view argument,
                                            int64_t max_bytes) {
  if (argument == "-") return ReadInputFile(argument, max_bytes);
  return std::string(argument);
}

absl::StatusOr<std::string> ReadInputFile(absl::string_view path,
                                          int64_t max_bytes) {
  if (path == "-") {
    return ReadBounded(STDIN_FILENO, "standard input", max_bytes);
  }
  std::string name(path);
  int fd = open(name.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return absl::NotFoundError(absl::StrCat(path, ": cannot open file"));
  }
  absl::StatusOr<std::string> text = ReadBounded(fd, path, max_bytes);
  close(fd);
  return text;
}

absl::Status WriteOutputFile(absl::string_view path,
                             absl::string_view contents) {
  std::ofstream file{std::string(path), std::ios::binary | std::ios::trunc};
  file << contents;
  file.close();
  if (!file) {
    return absl::PermissionDeniedError(
        absl::StrCat(path, ": cannot write file"));
  }
  return absl::OkStatus();
}

}  // namespace xla_index
