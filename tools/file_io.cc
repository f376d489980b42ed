#include "tools/file_io.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace xla_index {
namespace {

std::string ReadAll(std::istream& in) {
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

absl::StatusOr<std::string> ArgumentOrStdin(absl::string_view argument) {
  if (argument == "-") return ReadAll(std::cin);
  return std::string(argument);
}

absl::StatusOr<std::string> ReadInputFile(absl::string_view path) {
  if (path == "-") return ReadAll(std::cin);
  std::ifstream file{std::string(path)};
  if (!file) {
    return absl::NotFoundError(absl::StrCat(path, ": cannot open file"));
  }
  std::string text = ReadAll(file);
  if (file.bad()) {
    return absl::DataLossError(absl::StrCat(path, ": read error"));
  }
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
