#include "tools/command_line.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "base/status_macros.h"

namespace xla_index {

bool CommandLine::Has(absl::string_view name) const {
  return flags.find(std::string(name)) != flags.end();
}

std::optional<std::string> CommandLine::Get(absl::string_view name) const {
  auto it = flags.find(std::string(name));
  if (it == flags.end()) return std::nullopt;
  return it->second;
}

absl::StatusOr<int64_t> CommandLine::GetInteger(absl::string_view name,
                                                int64_t default_value) const {
  std::optional<std::string> text = Get(name);
  if (!text.has_value()) return default_value;
  int64_t value;
  if (!absl::SimpleAtoi(*text, &value)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", name, ": '", *text, "' is not an integer"));
  }
  return value;
}

absl::StatusOr<int64_t> CommandLine::GetIntegerInRange(absl::string_view name,
                                                       int64_t default_value,
                                                       int64_t minimum,
                                                       int64_t maximum) const {
  XI_ASSIGN_OR_RETURN(int64_t value, GetInteger(name, default_value));
  if (value < minimum || value > maximum) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", name, ": expected an integer in [", minimum, ", ",
                     maximum, "], got ", value));
  }
  return value;
}

namespace {

// The on/off value of boolean flag `name` written with `value` ("" when
// bare).
absl::StatusOr<bool> BooleanValue(absl::string_view name,
                                  absl::string_view value) {
  if (value.empty() || value == "true" || value == "yes" || value == "1") {
    return true;
  }
  if (value == "false" || value == "no" || value == "0") return false;
  return absl::InvalidArgumentError(absl::StrCat(
      "--", name, ": expected no value, true or false, got '", value, "'"));
}

}  // namespace

absl::StatusOr<CommandLine> ParseCommandLine(
    absl::Span<const std::string> args,
    absl::Span<const absl::string_view> known_flags,
    absl::Span<const absl::string_view> boolean_flags) {
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
    std::string name(name_value.first);
    if (std::find(boolean_flags.begin(), boolean_flags.end(),
                  name_value.first) != boolean_flags.end()) {
      XI_ASSIGN_OR_RETURN(bool on, BooleanValue(name, name_value.second));
      // The last occurrence wins, as for other flags.
      if (on) {
        result.flags[name] = "";
      } else {
        result.flags.erase(name);
      }
      continue;
    }
    result.flags[name] = std::string(name_value.second);
  }
  return result;
}

std::string Abbreviated(absl::string_view text, size_t max_chars) {
  if (text.size() <= max_chars) return std::string(text);
  return absl::StrCat(text.substr(0, max_chars), "... (", text.size(),
                      " bytes)");
}

absl::StatusOr<std::vector<int64_t>> ParseIntegerList(absl::string_view flag,
                                                      absl::string_view text) {
  std::vector<int64_t> values;
  for (absl::string_view piece : absl::StrSplit(text, ',')) {
    int64_t value;
    if (!absl::SimpleAtoi(piece, &value)) {
      // The list may have any length: the message quotes a bounded part.
      return absl::InvalidArgumentError(
          absl::StrCat("--", flag, ": entry ", values.size() + 1, " '",
                       Abbreviated(piece, 40), "' is not an integer (in '",
                       Abbreviated(text, 80), "')"));
    }
    values.push_back(value);
  }
  return values;
}

}  // namespace xla_index
