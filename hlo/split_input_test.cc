#include "hlo/split_input.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;

// The parts as (first line, text) pairs, to compare in one expectation.
std::vector<std::pair<int64_t, std::string>> Parts(absl::string_view text) {
  std::vector<std::pair<int64_t, std::string>> parts;
  for (const InputPart& part : SplitInputFile(text)) {
    parts.emplace_back(part.first_line, std::string(part.text));
  }
  return parts;
}

TEST(SplitInputTest, TextWithoutSeparatorIsOnePart) {
  EXPECT_THAT(Parts("HloModule m\nENTRY e {}\n"),
              ElementsAre(std::make_pair(1, "HloModule m\nENTRY e {}\n")));
  EXPECT_THAT(Parts(""), ElementsAre(std::make_pair(1, "")));
}

TEST(SplitInputTest, PartsStartAfterTheSeparatorLine) {
  EXPECT_THAT(Parts("HloModule a\n// -----\nHloModule b\n\n// -----\n"
                    "HloModule c"),
              ElementsAre(std::make_pair(1, "HloModule a\n"),
                          std::make_pair(3, "HloModule b\n\n"),
                          std::make_pair(6, "HloModule c")));
  // Blank lines after a separator are not the module's start.
  EXPECT_THAT(Parts("HloModule a\n// -----\n\n  \nHloModule b\n"),
              ElementsAre(std::make_pair(1, "HloModule a\n"),
                          std::make_pair(5, "HloModule b\n")));
}

TEST(SplitInputTest, PartsOfOnlyCommentsAreDropped) {
  // A leading block of RUN/CHECK lines goes with the first module; an
  // empty part between separators and a trailing separator add nothing.
  EXPECT_THAT(
      Parts("// RUN: tool %s\n// -----\n// CHECK: x\nHloModule a\n"
            "  // -----  \n/* note */\n// -----\nHloModule b\n// -----\n"),
      ElementsAre(std::make_pair(3, "// CHECK: x\nHloModule a\n"),
                  std::make_pair(8, "HloModule b\n")));
}

TEST(SplitInputTest, MarkerInsideALineDoesNotSplit) {
  const std::string text = "a = f32[] constant(1) // -----\nHloModule b\n";
  EXPECT_THAT(Parts(text), ElementsAre(std::make_pair(1, text)));
}

TEST(SplitInputTest, ErrorsMoveToTheLineInTheWholeFile) {
  const InputPart part = {"x", 40};
  EXPECT_EQ(InWholeFile(absl::InvalidArgumentError("3:7: expected '='"), part),
            absl::InvalidArgumentError("42:7: expected '='"));
  // Not of the form line:column: unchanged.
  EXPECT_EQ(InWholeFile(absl::InvalidArgumentError("no position"), part),
            absl::InvalidArgumentError("no position"));
  EXPECT_EQ(InWholeFile(absl::OkStatus(), part), absl::OkStatus());
}

}  // namespace
}  // namespace xla_index
