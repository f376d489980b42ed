// DecodeUtf8 against the definition of well-formed UTF-8 (the Unicode
// Standard, section 3.9, D92): a byte sequence is well-formed exactly when it
// is the shortest encoding of a scalar value (U+0000..U+10FFFF minus the
// surrogates). The encoding is computed here from the bit layout of
// Table 3-6, independently of the decoder, and every sequence of up to two
// bytes is checked, every three-byte one with a lead E0..EF, and the
// four-byte ones with a lead F0..F7 over chosen trailing bytes.

#include "base/utf8.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace xla_index {
namespace {

// Table 3-6: the bits of `c` laid out in 1 to 4 bytes.
std::string Encode(uint32_t c) {
  std::string s;
  if (c < 0x80) {
    s += static_cast<char>(c);
  } else if (c < 0x800) {
    s += static_cast<char>(0xC0 + c / 64);
    s += static_cast<char>(0x80 + c % 64);
  } else if (c < 0x10000) {
    s += static_cast<char>(0xE0 + c / 4096);
    s += static_cast<char>(0x80 + c / 64 % 64);
    s += static_cast<char>(0x80 + c % 64);
  } else {
    s += static_cast<char>(0xF0 + c / 262144);
    s += static_cast<char>(0x80 + c / 4096 % 64);
    s += static_cast<char>(0x80 + c / 64 % 64);
    s += static_cast<char>(0x80 + c % 64);
  }
  return s;
}

bool IsScalarValue(uint32_t c) {
  return c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF);
}

// What the decoder must say about `bytes` (its full length, or 0): decode
// the bits of any sequence of the right shape, and accept it when it is a
// scalar value whose shortest encoding is exactly `bytes`.
size_t ExpectedLength(const std::string& bytes, uint32_t* value) {
  const uint8_t lead = bytes[0];
  size_t length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
  if (lead >= 0x80 && lead < 0xC0) return 0;
  if (lead >= 0xF8) return 0;
  if (bytes.size() < length) return 0;
  uint32_t c = length == 1 ? lead : lead & (0x7F >> length);
  for (size_t i = 1; i < length; ++i) {
    const uint8_t b = bytes[i];
    if ((b & 0xC0) != 0x80) return 0;
    c = c * 64 + (b & 0x3F);
  }
  if (!IsScalarValue(c) || Encode(c) != bytes.substr(0, length)) return 0;
  *value = c;
  return length;
}

void Check(const std::string& bytes) {
  uint32_t expected_value = 0;
  const size_t expected = ExpectedLength(bytes, &expected_value);
  char32_t value = 0;
  const size_t length = DecodeUtf8(bytes, &value);
  ASSERT_EQ(length, expected)
      << std::hex << static_cast<int>(static_cast<uint8_t>(bytes[0]));
  if (length > 0) ASSERT_EQ(static_cast<uint32_t>(value), expected_value);
}

TEST(Utf8Test, EverySequenceOfUpToThreeBytes) {
  std::string bytes;
  for (int a = 0; a < 256; ++a) {
    Check(std::string(1, static_cast<char>(a)));
    for (int b = 0; b < 256; ++b) {
      Check(std::string{static_cast<char>(a), static_cast<char>(b)});
      // Three bytes matter only after a three-byte lead (a shorter form is
      // decided by its first two bytes, checked above).
      for (int c = 0; c < 256 && a >= 0xE0 && a <= 0xEF; ++c) {
        bytes = {static_cast<char>(a), static_cast<char>(b),
                 static_cast<char>(c)};
        Check(bytes);
        if (testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TEST(Utf8Test, FourByteSequences) {
  // Lead F0..F7 against every second byte; the last two bytes range over
  // the continuation bytes and a few others.
  const int tails[] = {0x00, 0x7F, 0x80, 0x9F, 0xA5, 0xBF, 0xC0, 0xFF};
  for (int a = 0xF0; a <= 0xF7; ++a) {
    for (int b = 0; b < 256; ++b) {
      for (int c : tails) {
        for (int d : tails) {
          Check(std::string{static_cast<char>(a), static_cast<char>(b),
                            static_cast<char>(c), static_cast<char>(d)});
          if (testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
}

TEST(Utf8Test, EncodesEveryScalarValueAsTheDefinitionDoes) {
  for (uint32_t c = 0; c <= 0x10FFFF; ++c) {
    if (!IsScalarValue(c)) continue;
    std::string out;
    AppendUtf8(c, out);
    ASSERT_EQ(out, Encode(c)) << c;
  }
}

TEST(Utf8Test, EmptyAndTruncated) {
  char32_t value;
  EXPECT_EQ(DecodeUtf8("", &value), 0u);
  EXPECT_EQ(DecodeUtf8("\xE2\x82", &value), 0u);  // U+20AC cut short
  EXPECT_EQ(DecodeUtf8("\xE2\x82\xAC", &value), 3u);
  EXPECT_EQ(value, 0x20ACu);
}

// A writer's loop: well-formed sequences are read whole, and each byte that
// starts none (a lone continuation byte, a truncated sequence's lead byte) is
// read alone as U+FFFD.
TEST(Utf8Test, ConsumeReadsCodePointsAndReplacesBadBytes) {
  absl::string_view text("a\xE2\x82\xAC\x80\xE2\x82z");
  std::vector<char32_t> read;
  while (!text.empty()) read.push_back(ConsumeUtf8OrReplacement(text));
  EXPECT_EQ(read, (std::vector<char32_t>{'a', 0x20AC, kReplacementCharacter,
                                         kReplacementCharacter,
                                         kReplacementCharacter, 'z'}));
}

}  // namespace
}  // namespace xla_index
