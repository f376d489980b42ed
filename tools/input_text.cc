#include "tools/input_text.h"

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

}  // namespace xla_index
