#include "tools/command_line.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr absl::string_view kKnown[] = {"json", "direction", "index"};

TEST(CommandLineTest, SplitsPositionalAndFlags) {
  std::vector<std::string> args = {"f.hlo", "--json",
                                   "--direction=input-to-output", "-"};
  auto parsed = ParseCommandLine(args, kKnown);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_THAT(parsed->positional, ElementsAre("f.hlo", "-"));
  EXPECT_TRUE(parsed->Has("json"));
  EXPECT_EQ(parsed->Get("direction"), "input-to-output");
  EXPECT_FALSE(parsed->Get("index").has_value());
}

TEST(CommandLineTest, DoubleDashEndsFlags) {
  std::vector<std::string> args = {"--", "--json"};
  auto parsed = ParseCommandLine(args, kKnown);
  ASSERT_TRUE(parsed.ok());
  EXPECT_THAT(parsed->positional, ElementsAre("--json"));
  EXPECT_FALSE(parsed->Has("json"));
}

TEST(CommandLineTest, UnknownFlagIsAnError) {
  std::vector<std::string> args = {"--jsno"};
  auto parsed = ParseCommandLine(args, kKnown);
  ASSERT_FALSE(parsed.ok());
  EXPECT_THAT(parsed.status().message(), HasSubstr("unknown flag --jsno"));
}

TEST(CommandLineTest, IntegerList) {
  auto list = ParseIntegerList("index", "2,3,-1");
  ASSERT_TRUE(list.ok());
  EXPECT_THAT(*list, ElementsAre(2, 3, -1));
  auto bad = ParseIntegerList("index", "2,x");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("--index: entry 2 'x'"));
}

// A list of any length gives a message of bounded size that names the
// entry.
TEST(CommandLineTest, LongListErrorIsBounded) {
  std::string text;
  for (int i = 0; i < 100000; ++i) absl::StrAppend(&text, i, ",");
  text += "oops";
  auto bad = ParseIntegerList("tile", text);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("entry 100001 'oops'"));
  EXPECT_LT(bad.status().message().size(), 300u);
}

TEST(CommandLineTest, IntegerInRangeNamesTheFlag) {
  std::vector<std::string> args = {"--block=0", "--unroll=7"};
  constexpr absl::string_view kKnown[] = {"block", "unroll"};
  auto parsed = ParseCommandLine(args, kKnown);
  ASSERT_TRUE(parsed.ok());
  auto block = parsed->GetIntegerInRange("block", 128, 1, 1024);
  ASSERT_FALSE(block.ok());
  EXPECT_THAT(block.status().message(),
              HasSubstr("--block: expected an integer in [1, 1024], got 0"));
  EXPECT_EQ(*parsed->GetIntegerInRange("unroll", 1, 1, 8), 7);
  EXPECT_EQ(*parsed->GetIntegerInRange("absent", 5, 1, 8), 5);
}

TEST(CommandLineTest, AbbreviatedKeepsShortTextAndCutsLongText) {
  EXPECT_EQ(Abbreviated("short", 10), "short");
  EXPECT_EQ(Abbreviated("0123456789abc", 10), "0123456789... (13 bytes)");
}

TEST(CommandLineTest, BooleanFlagsTakeOnOffValues) {
  constexpr absl::string_view kBoolean[] = {"json"};
  for (const char* on : {"--json", "--json=true", "--json=yes", "--json=1"}) {
    std::vector<std::string> args = {"f.hlo", on};
    auto parsed = ParseCommandLine(args, kKnown, kBoolean);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_TRUE(parsed->Has("json")) << on;
  }
  for (const char* off : {"--json=false", "--json=no", "--json=0"}) {
    std::vector<std::string> args = {"f.hlo", "--json", off};
    auto parsed = ParseCommandLine(args, kKnown, kBoolean);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_FALSE(parsed->Has("json")) << off;
  }
  std::vector<std::string> bad = {"--json=maybe"};
  auto parsed = ParseCommandLine(bad, kKnown, kBoolean);
  ASSERT_FALSE(parsed.ok());
  EXPECT_THAT(parsed.status().message(), HasSubstr("--json"));
  EXPECT_THAT(parsed.status().message(), HasSubstr("'maybe'"));
}

TEST(CommandLineTest, GetInteger) {
  std::vector<std::string> args = {"--index=12", "--direction=x"};
  auto parsed = ParseCommandLine(args, kKnown);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed->GetInteger("index", 5), 12);
  EXPECT_EQ(*parsed->GetInteger("json", 5), 5);
  absl::StatusOr<int64_t> bad = parsed->GetInteger("direction", 5);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("--direction: 'x'"));
}

}  // namespace
}  // namespace xla_index
