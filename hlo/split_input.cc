#include "hlo/split_input.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "hlo/text_cursor.h"

namespace xla_index {
namespace {

constexpr absl::string_view kSeparator = "// -----";

bool IsSeparatorLine(absl::string_view line) {
  return absl::StartsWith(absl::StripLeadingAsciiWhitespace(line), kSeparator);
}

// True when `text` holds something besides blanks and comments.
bool HasContent(absl::string_view text) { return !TextCursor(text).AtEnd(); }

// `part` without its leading blank lines, so that it starts on the line of
// its first word or comment.
InputPart WithoutLeadingBlankLines(InputPart part) {
  while (true) {
    const size_t newline = part.text.find('\n');
    if (newline == absl::string_view::npos ||
        !absl::StripAsciiWhitespace(part.text.substr(0, newline)).empty()) {
      return part;
    }
    part.text.remove_prefix(newline + 1);
    ++part.first_line;
  }
}

}  // namespace

std::vector<InputPart> SplitInputFile(absl::string_view text) {
  std::vector<InputPart> parts;
  // The separator is rare: look for it with memmem and count the lines in
  // between only when one is found.
  size_t part_start = 0;
  int64_t part_first_line = 1;
  size_t search_from = 0;
  while (true) {
    const void* hit =
        memmem(text.data() + search_from, text.size() - search_from,
               kSeparator.data(), kSeparator.size());
    if (hit == nullptr) break;
    const size_t at = static_cast<const char*>(hit) - text.data();
    const size_t newline_before = text.rfind('\n', at);
    const size_t line_start =
        newline_before == absl::string_view::npos ? 0 : newline_before + 1;
    size_t line_end = text.find('\n', at);
    if (line_end == absl::string_view::npos) line_end = text.size();
    search_from = line_end;
    if (!IsSeparatorLine(text.substr(line_start, line_end - line_start))) {
      continue;  // inside a line: a string or an ordinary comment
    }
    const absl::string_view part =
        text.substr(part_start, line_start - part_start);
    if (HasContent(part)) {
      parts.push_back(WithoutLeadingBlankLines({part, part_first_line}));
    }
    part_first_line +=
        std::count(text.begin() + part_start, text.begin() + line_end, '\n') +
        (line_end < text.size() ? 1 : 0);
    part_start = line_end < text.size() ? line_end + 1 : text.size();
  }
  const absl::string_view last = text.substr(part_start);
  if (parts.empty() || HasContent(last)) {
    parts.push_back(WithoutLeadingBlankLines({last, part_first_line}));
  }
  return parts;
}

absl::Status InWholeFile(const absl::Status& status, const InputPart& part) {
  if (status.ok() || part.first_line == 1) return status;
  const absl::string_view message = status.message();
  const size_t colon = message.find(':');
  int64_t line = 0;
  if (colon == absl::string_view::npos ||
      !absl::SimpleAtoi(message.substr(0, colon), &line) || line < 1) {
    return status;
  }
  return absl::Status(status.code(), absl::StrCat(line + part.first_line - 1,
                                                  message.substr(colon)));
}

}  // namespace xla_index
