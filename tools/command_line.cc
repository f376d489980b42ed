#include "tools/command_line.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace xla_index {

bool CommandLine::Has(absl::string_view name) const {
  return flags.find(std::string(name)) != flags.end();
}

std::optional<std::string> CommandLine::Get(absl::string_view name) const {
  auto it = flags.find(std::string(name));
  if (it == flags.end()) return std::nullopt;
  return it->second;
}

absl::StatusOr<CommandLine> ParseCommandLine(
    absl::Span<const std::string> args,
    absl::Span<const absl::string_view> known_flags) {
  CommandLine result;
  bool flags_ended = false;
  for (const std::string& arg : args) {
    absl::string_view word = arg;
    if (flags_ended || word == "-" || !absl::ConsumePrefix(&word, "--")) {
      result.positional.push_back(arg);
      continue;
    }
    if (word.empty()) {
      flags_ended = true;
      continue;
    }
    std::pair<absl::string_view, absl::string_view> name_value =
        absl::StrSplit(word, absl::MaxSplits('=', 1));
    if (std::find(known_flags.begin(), known_flags.end(), name_value.first) ==
        known_flags.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag --", name_value.first));
    }
    result.flags[std::string(name_value.first)] =
        std::string(name_value.second);
  }
  return result;
}

absl::StatusOr<std::vector<int64_t>> ParseIntegerList(absl::string_view flag,
                                                      absl::string_view text) {
  std::vector<int64_t> values;
  for (absl::string_view piece : absl::StrSplit(text, ',')) {
    int64_t value;
    if (!absl::SimpleAtoi(piece, &value)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--", flag, ": '", piece, "' is not an integer (in '", text, "')"));
    }
    values.push_back(value);
  }
  return values;
}

}  // namespace xla_index
