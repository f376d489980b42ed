#include "base/utf8.h"

#include <cstdint>

namespace xla_index {

size_t DecodeUtf8(absl::string_view text, char32_t* code_point) {
  if (text.empty()) return 0;
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
  const uint8_t lead = byte(0);
  if (lead < 0x80) {
    *code_point = lead;
    return 1;
  }
  // Table 3-7: the lead byte fixes the length and the range of the second
  // byte (narrower than 80..BF after E0, ED, F0 and F4, which is what
  // excludes overlong forms, surrogates and values above U+10FFFF).
  size_t length;
  uint8_t second_lo = 0x80, second_hi = 0xBF;
  char32_t value;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    value = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    value = lead & 0x0F;
    if (lead == 0xE0) second_lo = 0xA0;
    if (lead == 0xED) second_hi = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    value = lead & 0x07;
    if (lead == 0xF0) second_lo = 0x90;
    if (lead == 0xF4) second_hi = 0x8F;
  } else {
    return 0;  // 80..C1 (a continuation byte or overlong lead) or F5..FF
  }
  if (text.size() < length) return 0;
  for (size_t i = 1; i < length; ++i) {
    const uint8_t lo = i == 1 ? second_lo : 0x80;
    const uint8_t hi = i == 1 ? second_hi : 0xBF;
    if (byte(i) < lo || byte(i) > hi) return 0;
    value = (value << 6) | (byte(i) & 0x3F);
  }
  *code_point = value;
  return length;
}

char32_t ConsumeUtf8OrReplacement(absl::string_view& text) {
  char32_t c;
  size_t length = DecodeUtf8(text, &c);
  if (length == 0) {
    length = 1;
    c = kReplacementCharacter;
  }
  text.remove_prefix(length);
  return c;
}

void AppendUtf8(char32_t code_point, std::string& out) {
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code_point >> 18));
    out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
}

}  // namespace xla_index
