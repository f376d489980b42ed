#ifndef XLA_INDEX_HLO_TEXT_CURSOR_H_
#define XLA_INDEX_HLO_TEXT_CURSOR_H_

// A read position in HLO text with the small lexical helpers that the shape
// and module parsers share. Positions are pointers into the text; they turn
// into line:column only when an error is reported, so parsing stays cheap.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace xla_index {
namespace text_cursor_internal {

// [A-Za-z0-9_.-], by byte.
struct NameCharTable {
  bool is_name_char[256] = {};
  constexpr NameCharTable() {
    for (int c = 0; c < 256; ++c) {
      is_name_char[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '_' || c == '.' ||
                        c == '-';
    }
  }
};
inline constexpr NameCharTable kNameChars{};

}  // namespace text_cursor_internal

class TextCursor {
 public:
  explicit TextCursor(absl::string_view text)
      : text_(text),
        pos_(text.data()),
        end_(text.data() + text.size()),
        counted_to_(text.data()),
        counted_line_start_(text.data()) {}

  absl::string_view text() const { return text_; }
  const char* pos() const { return pos_; }
  void set_pos(const char* pos) { pos_ = pos; }
  const char* end() const { return end_; }

  /// Skips spaces, newlines, `// ...` and `/* ... */` comments (XLA prints
  /// `/*index=5*/` inside long operand lists).
  void SkipSpace() {
    // Most calls have nothing to skip; only a control character, a space
    // or a '/' can start something to skip.
    if (pos_<end_&& * pos_> ' ' && *pos_ != '/') return;
    SkipSpaceAndComments();
  }
  /// True when only spaces and comments remain.
  bool AtEnd() {
    SkipSpace();
    return pos_ >= end_;
  }
  /// The next character after spaces, or '\0' at the end.
  char Peek() {
    SkipSpace();
    return pos_ < end_ ? *pos_ : '\0';
  }
  /// The character right at the cursor, spaces not skipped.
  char PeekRaw() const { return pos_ < end_ ? *pos_ : '\0'; }

  /// Consumes `c` (after spaces) if it is next.
  bool TryConsume(char c);
  /// Consumes `s` (after spaces) if the text continues with it.
  bool TryConsume(absl::string_view s);
  /// Consumes `word` only when it is a whole word (not followed by a name
  /// character), e.g. "ROOT" but not the prefix of "ROOTx".
  bool TryConsumeWord(absl::string_view word);
  /// Consumes `c` or returns "L:C: expected 'c' <context>".
  absl::Status Expect(char c, absl::string_view context);

  /// A run of name characters [A-Za-z0-9_.-] (after spaces); empty if none.
  absl::string_view ParseWord();
  /// A decimal integer with an optional sign; an error names the column
  /// when there is no number or it does not fit in int64.
  absl::StatusOr<int64_t> ParseInt(absl::string_view what);

  /// 1-based line and column of `p` in the text. Positions asked for in
  /// increasing order (as a parser reads) cost the newlines in between;
  /// others a binary search over the line starts.
  std::pair<int64_t, int64_t> LineColumn(const char* p) const;
  /// InvalidArgument "line:column: message" at `p`.
  absl::Status ErrorAt(const char* p, absl::string_view message) const;
  /// ErrorAt the current position (after spaces).
  absl::Status Error(absl::string_view message);

  static bool IsNameChar(char c) {
    return text_cursor_internal::kNameChars
        .is_name_char[static_cast<unsigned char>(c)];
  }

 private:
  void SkipSpaceAndComments();

  absl::string_view text_;
  const char* pos_;
  const char* end_;
  // LineColumn's forward memo: the newlines before `counted_to_` are
  // counted, and the last line before it starts at `counted_line_start_`.
  mutable const char* counted_to_;
  mutable const char* counted_line_start_;
  mutable int64_t counted_lines_ = 1;
  // Offsets of line starts, built on the first backward LineColumn call and
  // shared by copies of the cursor.
  mutable std::shared_ptr<std::vector<size_t>> line_starts_;
};

/// Describes the next few characters for error messages: "'abc'" or
/// "end of input".
std::string DescribeNext(TextCursor& cursor);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_TEXT_CURSOR_H_
