#ifndef XLA_INDEX_BASE_UTF8_H_
#define XLA_INDEX_BASE_UTF8_H_

// Decoding UTF-8 one code point at a time, for the writers of JSON and
// XHTML: a name or attribute of an HLO text may hold any bytes, and what is
// not well-formed UTF-8 must not reach output that promises UTF-8.

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace xla_index {

/// U+FFFD REPLACEMENT CHARACTER, written for each byte that does not start
/// a well-formed sequence.
inline constexpr char32_t kReplacementCharacter = 0xFFFD;

/// The length (1 to 4) of the well-formed UTF-8 sequence that starts
/// `text`, its code point in `*code_point`; 0 when `text` is empty or does
/// not start with one. Well-formed is the Unicode Standard's Table 3-7: no
/// overlong form, no surrogate (U+D800..U+DFFF), nothing above U+10FFFF.
size_t DecodeUtf8(absl::string_view text, char32_t* code_point);

/// Removes the first code point of the non-empty `text` and returns it; a
/// byte that does not start a well-formed sequence is removed alone and
/// read as U+FFFD. The loop of every writer that must emit UTF-8.
char32_t ConsumeUtf8OrReplacement(absl::string_view& text);

/// Appends `code_point` (at most U+10FFFF, not a surrogate) to `out` in
/// UTF-8.
void AppendUtf8(char32_t code_point, std::string& out);

}  // namespace xla_index

#endif  // XLA_INDEX_BASE_UTF8_H_
