#include "hlo/literal.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace xla_index {
namespace {

absl::StatusOr<Literal> Parse(absl::string_view shape, absl::string_view text) {
  TextCursor cursor(text);
  absl::StatusOr<Literal> literal =
      ParseLiteralAtCursor(cursor, *ParseShape(shape));
  if (literal.ok() && !cursor.AtEnd()) {
    return absl::InvalidArgumentError("trailing text");
  }
  return literal;
}

TEST(LiteralTest, RoundTripsThroughText) {
  struct Case {
    const char* shape;
    const char* text;
  };
  for (const Case& c : {
           Case{"pred[3]", "{true, false, true}"},
           Case{"s8[2]", "{-128, 127}"},
           Case{"u8[2]", "{0, 255}"},
           Case{"s64[2]", "{-9223372036854775808, 9223372036854775807}"},
           Case{"u64[1]", "{18446744073709551615}"},
           Case{"f32[4]", "{1.5, -inf, inf, nan}"},
           Case{"f32[]", "0.1"},
           Case{"f64[]", "0.1"},
           Case{"f64[2]", "{1e+300, -2.5e-300}"},
           Case{"bf16[2]", "{1, 0.5}"},
           Case{"c64[2]", "{(1, 2), (-0.5, 0)}"},
           Case{"f32[2,0]", "{{}, {}}"},
           Case{"s32[2,2,1]", "{{{1}, {2}}, {{3}, {4}}}"},
           Case{"(f32[2], s32[])", "({1, 2}, 3)"},
           Case{"f32[3]", "{...}"},
       }) {
    absl::StatusOr<Literal> literal = Parse(c.shape, c.text);
    ASSERT_TRUE(literal.ok())
        << c.shape << " " << c.text << ": " << literal.status();
    EXPECT_EQ(literal->ToString(), c.text) << c.shape;
    absl::StatusOr<Literal> again = Parse(c.shape, literal->ToString());
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, *literal) << c.shape;
  }
}

// XLA's DenseArrayPrintHelper prints a zero-element array as nested empty
// braces, one `{}` per sub-array; its parser (ParseDenseLiteral) also reads
// `{...}` for any array shape. A zero-element array whose braces would
// not fit in memory prints as `{...}`, and reads back as the same (empty)
// literal; a small one keeps XLA's nested form.
TEST(LiteralTest, ZeroElementArraysPrintInBoundedText) {
  Literal small = *Parse("f32[3,2,0]", "0");
  std::string nested = small.ToString();
  // 1 + 3 + 3*2 sub-arrays, each opened once.
  EXPECT_EQ(std::count(nested.begin(), nested.end(), '{'), 10) << nested;
  EXPECT_EQ(*Parse("f32[3,2,0]", nested), small);
  for (const char* shape :
       {"f32[100000000000,0]", "s8[211,50602,0]", "f32[9223372036854775807,0]",
        "pred[65536,2,0,7]"}) {
    Literal huge = *Parse(shape, "0");
    EXPECT_EQ(huge.ToString(), "{...}") << shape;
    absl::StatusOr<Literal> again = Parse(shape, huge.ToString());
    ASSERT_TRUE(again.ok()) << shape << ": " << again.status();
    EXPECT_TRUE(again->has_values()) << shape;
    EXPECT_EQ(*again, huge) << shape;
  }
  // Just under the limit: 1 + 2^16 - 1 sub-arrays keep the nested form.
  std::string under = Parse("f32[65535,0]", "0")->ToString();
  EXPECT_EQ(std::count(under.begin(), under.end(), '{'), 65536);
}

TEST(LiteralTest, ValuesAndAccessors) {
  Literal s = *Parse("s32[2,3]", "{{1, 2, 3}, {4, 5, 6}}");
  EXPECT_EQ(s.GetInt(LinearIndex({2, 3}, {1, 2})), 6);
  EXPECT_EQ(MultiIndex({2, 3}, 4), (std::vector<int64_t>{1, 1}));
  Literal u = *Parse("u64[1]", "{18446744073709551615}");
  EXPECT_EQ(u.GetDouble(0), 18446744073709551615.0);
  // Integers wrap to their width when stored.
  Literal b(*ParseShape("s8[1]"));
  b.SetInt(0, 200);
  EXPECT_EQ(b.GetInt(0), -56);
  Literal p(*ParseShape("pred[1]"));
  p.SetInt(0, 7);
  EXPECT_EQ(p.GetInt(0), 1);
}

TEST(LiteralTest, LowPrecisionFloatsRound) {
  // bf16 keeps 8 significant bits: 1 + 2^-8 rounds to 1 (tie to even),
  // 1 + 3 * 2^-8 rounds up to 1 + 2^-6.
  Literal bf16(*ParseShape("bf16[2]"));
  bf16.SetDouble(0, 1 + std::ldexp(1.0, -8));
  bf16.SetDouble(1, 1 + 3 * std::ldexp(1.0, -8));
  EXPECT_EQ(bf16.GetDouble(0), 1.0);
  EXPECT_EQ(bf16.GetDouble(1), 1 + std::ldexp(1.0, -6));
  // f16: the largest finite value is 65504; 70000 overflows; subnormals
  // are spaced 2^-24.
  EXPECT_EQ(RoundToFloatFormat(65504, 5, 10), 65504);
  EXPECT_TRUE(std::isinf(RoundToFloatFormat(70000, 5, 10)));
  EXPECT_EQ(RoundToFloatFormat(std::ldexp(1.0, -24), 5, 10),
            std::ldexp(1.0, -24));
  EXPECT_EQ(RoundToFloatFormat(std::ldexp(1.0, -26), 5, 10), 0);
  EXPECT_EQ(RoundToFloatFormat(0.1, 11, 52), 0.1);
}

TEST(LiteralTest, ParseErrors) {
  EXPECT_FALSE(Parse("s32[2]", "{1}").ok());
  EXPECT_FALSE(Parse("s32[2]", "{1, 2, 3}").ok());
  EXPECT_FALSE(Parse("s32[2]", "{1, x}").ok());
  EXPECT_FALSE(Parse("u8[1]", "{-1}").ok());
  EXPECT_FALSE(Parse("u8[1]", "{256}").ok());
  EXPECT_FALSE(Parse("f32[]", "{1}").ok());
  EXPECT_FALSE(Parse("c64[]", "(1 2)").ok());
  EXPECT_FALSE(Parse("(f32[], s32[])", "(1)").ok());
  EXPECT_FALSE(Parse("f32[100000]", "{1}").ok());
}

}  // namespace
}  // namespace xla_index
