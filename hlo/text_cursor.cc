#include "hlo/text_cursor.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace xla_index {

void TextCursor::SkipSpaceAndComments() {
  while (pos_ < end_) {
    char c = *pos_;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < end_ && pos_[1] == '/') {
      // To the end of the line, which a '\r' also ends (HloLexer::LexToken
      // stops a '//' comment at either, for old Mac line ends).
      while (pos_ < end_ && *pos_ != '\n' && *pos_ != '\r') ++pos_;
    } else if (c == '/' && pos_ + 1 < end_ && pos_[1] == '*') {
      const char* p = pos_ + 2;
      while (p + 1 < end_ && !(p[0] == '*' && p[1] == '/')) ++p;
      // An unterminated comment is left in place; the caller then reports
      // an unexpected '/' at its start.
      if (p + 1 >= end_) return;
      pos_ = p + 2;
    } else {
      return;
    }
  }
}

bool TextCursor::TryConsume(char c) {
  SkipSpace();
  if (pos_ < end_ && *pos_ == c) {
    ++pos_;
    return true;
  }
  return false;
}

bool TextCursor::TryConsume(absl::string_view s) {
  SkipSpace();
  if (static_cast<size_t>(end_ - pos_) >= s.size() &&
      absl::string_view(pos_, s.size()) == s) {
    pos_ += s.size();
    return true;
  }
  return false;
}

bool TextCursor::TryConsumeWord(absl::string_view word) {
  SkipSpace();
  if (static_cast<size_t>(end_ - pos_) < word.size() ||
      absl::string_view(pos_, word.size()) != word) {
    return false;
  }
  const char* after = pos_ + word.size();
  if (after < end_ && IsNameChar(*after)) return false;
  pos_ = after;
  return true;
}

absl::Status TextCursor::Expect(char c, absl::string_view context) {
  if (TryConsume(c)) return absl::OkStatus();
  return Error(absl::StrCat("expected '", std::string(1, c), "' ", context,
                            ", found ", DescribeNext(*this)));
}

absl::string_view TextCursor::ParseWord() {
  SkipSpace();
  const char* start = pos_;
  while (pos_ < end_ && IsNameChar(*pos_)) ++pos_;
  return absl::string_view(start, pos_ - start);
}

absl::StatusOr<int64_t> TextCursor::ParseInt(absl::string_view what) {
  SkipSpace();
  const char* start = pos_;
  bool negative = false;
  if (pos_ < end_ && (*pos_ == '-' || *pos_ == '+')) {
    negative = *pos_ == '-';
    ++pos_;
  }
  if (pos_ >= end_ || *pos_ < '0' || *pos_ > '9') {
    pos_ = start;
    return Error(absl::StrCat("expected an integer (", what, "), found ",
                              DescribeNext(*this)));
  }
  // Accumulate as a negative number so that INT64_MIN is representable.
  int64_t value = 0;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  while (pos_ < end_ && *pos_ >= '0' && *pos_ <= '9') {
    int digit = *pos_ - '0';
    if (value < (kMin + digit) / 10) {
      return ErrorAt(
          start, absl::StrCat("integer (", what, ") does not fit in 64 bits"));
    }
    value = value * 10 - digit;
    ++pos_;
  }
  if (!negative) {
    if (value == kMin) {
      return ErrorAt(
          start, absl::StrCat("integer (", what, ") does not fit in 64 bits"));
    }
    value = -value;
  }
  return value;
}

std::pair<int64_t, int64_t> TextCursor::LineColumn(const char* p) const {
  p = std::max(text_.data(), std::min(p, end_));
  if (p >= counted_to_) {
    for (const char* q = counted_to_; q < p;) {
      const void* newline = std::memchr(q, '\n', p - q);
      if (newline == nullptr) break;
      q = static_cast<const char*>(newline) + 1;
      counted_line_start_ = q;
      ++counted_lines_;
    }
    counted_to_ = p;
    return {counted_lines_, (p - counted_line_start_) + 1};
  }
  if (line_starts_ == nullptr) {
    line_starts_ = std::make_shared<std::vector<size_t>>();
    line_starts_->push_back(0);
    for (size_t i = 0; i < text_.size(); ++i) {
      if (text_[i] == '\n') line_starts_->push_back(i + 1);
    }
  }
  size_t offset = static_cast<size_t>(std::max<std::ptrdiff_t>(
      0, std::min<std::ptrdiff_t>(p - text_.data(), text_.size())));
  // The last line start <= offset.
  auto it =
      std::upper_bound(line_starts_->begin(), line_starts_->end(), offset);
  int64_t line = it - line_starts_->begin();
  int64_t column = static_cast<int64_t>(offset - *(it - 1)) + 1;
  return {line, column};
}

absl::Status TextCursor::ErrorAt(const char* p,
                                 absl::string_view message) const {
  auto [line, column] = LineColumn(p);
  return absl::InvalidArgumentError(
      absl::StrCat(line, ":", column, ": ", message));
}

absl::Status TextCursor::Error(absl::string_view message) {
  SkipSpace();
  if (pos_ >= end_) {
    // At the end of the text, point just after the last token: that is
    // where something is missing, not at an empty last line.
    const char* p = end_;
    while (p > text_.data() &&
           absl::ascii_isspace(static_cast<unsigned char>(p[-1]))) {
      --p;
    }
    return ErrorAt(p, message);
  }
  return ErrorAt(pos_, message);
}

std::string DescribeNext(TextCursor& cursor) {
  cursor.SkipSpace();
  if (cursor.pos() >= cursor.end()) return "end of input";
  const char* p = cursor.pos();
  if (cursor.end() - p >= 2 && p[0] == '/' && p[1] == '*') {
    return "an unterminated '/*' comment";
  }
  const char* q = p;
  if (TextCursor::IsNameChar(*q)) {
    while (q < cursor.end() && TextCursor::IsNameChar(*q) && q - p < 24) ++q;
  } else {
    ++q;
  }
  // Control bytes (a NUL in a name, say) are shown escaped.
  return absl::StrCat("'", absl::CHexEscape(absl::string_view(p, q - p)), "'");
}

}  // namespace xla_index
