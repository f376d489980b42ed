// Golden tests of the xla-index command line: each tests/testdata/cli/*.test
// file runs the tool once and states what it must print and return.
//
// File format (sections start at column 0; text runs to the next section):
//   # comment lines
//   args: simplify - --json          (passed to /bin/sh after the binary)
//   stdin:                           (optional)
//   ...
//   stdout:                          (optional; exact, trailing newline added)
//   ...
//   stdout-contains: some text       (optional, may repeat)
//   stderr-contains: some text       (optional, may repeat)
//   exit: 1                          (optional, default 0)

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

#ifndef XLA_INDEX_BINARY
#define XLA_INDEX_BINARY "tools/xla-index"  // Bazel runfiles layout
#endif

namespace xla_index {
namespace {

constexpr char kCaseDir[] = "tests/testdata/cli";

struct CliCase {
  friend void PrintTo(const CliCase& c, std::ostream* os) { *os << c.name; }
  std::string name;
  std::string args;
  std::string stdin_text;
  bool check_stdout = false;
  std::string stdout_text;
  std::vector<std::string> stdout_contains;
  std::vector<std::string> stderr_contains;
  int exit_code = 0;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

CliCase ParseCase(const std::filesystem::path& path) {
  CliCase c;
  c.name = path.stem().string();
  std::string* block = nullptr;  // section collecting lines
  for (absl::string_view line : absl::StrSplit(ReadFile(path.string()), '\n')) {
    absl::string_view rest = line;
    if (absl::ConsumePrefix(&rest, "args:")) {
      c.args = std::string(absl::StripAsciiWhitespace(rest));
      block = nullptr;
    } else if (line == "stdin:") {
      block = &c.stdin_text;
    } else if (line == "stdout:") {
      c.check_stdout = true;
      block = &c.stdout_text;
    } else if (absl::ConsumePrefix(&rest, "stdout-contains:")) {
      c.stdout_contains.emplace_back(absl::StripAsciiWhitespace(rest));
      block = nullptr;
    } else if (absl::ConsumePrefix(&rest, "stderr-contains:")) {
      c.stderr_contains.emplace_back(absl::StripAsciiWhitespace(rest));
      block = nullptr;
    } else if (absl::ConsumePrefix(&rest, "exit:")) {
      EXPECT_TRUE(
          absl::SimpleAtoi(absl::StripAsciiWhitespace(rest), &c.exit_code))
          << path;
      block = nullptr;
    } else if (block != nullptr) {
      absl::StrAppend(block, line, "\n");
    } else if (!line.empty() && line[0] != '#') {
      ADD_FAILURE() << path << ": stray line '" << line << "'";
    }
  }
  // A section ends with the newline before the next header or the file end.
  for (std::string* s : {&c.stdin_text, &c.stdout_text}) {
    while (absl::EndsWith(*s, "\n\n")) s->pop_back();
  }
  return c;
}

std::vector<CliCase> AllCases() {
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(kCaseDir)) {
    if (entry.path().extension() == ".test") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<CliCase> cases;
  for (const auto& path : paths) cases.push_back(ParseCase(path));
  return cases;
}

class CliGoldenTest : public testing::TestWithParam<CliCase> {};

TEST_P(CliGoldenTest, Matches) {
  const CliCase& c = GetParam();
  std::string dir = testing::TempDir();
  std::string in = absl::StrCat(dir, "/", c.name, ".in");
  std::string out = absl::StrCat(dir, "/", c.name, ".out");
  std::string err = absl::StrCat(dir, "/", c.name, ".err");
  std::ofstream(in) << c.stdin_text;
  std::string command = absl::StrCat(XLA_INDEX_BINARY, " ", c.args, " <", in,
                                     " >", out, " 2>", err);
  int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << "killed by a signal: " << command;
  std::string stderr_text = ReadFile(err);
  EXPECT_EQ(WEXITSTATUS(status), c.exit_code) << "stderr: " << stderr_text;
  std::string stdout_text = ReadFile(out);
  if (c.check_stdout) {
    EXPECT_EQ(stdout_text, c.stdout_text);
  }
  for (const std::string& needle : c.stdout_contains) {
    EXPECT_THAT(stdout_text, testing::HasSubstr(needle));
  }
  for (const std::string& needle : c.stderr_contains) {
    EXPECT_THAT(stderr_text, testing::HasSubstr(needle));
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, CliGoldenTest, testing::ValuesIn(AllCases()),
                         [](const testing::TestParamInfo<CliCase>& info) {
                           std::string name = info.param.name;
                           for (char& ch : name) {
                             if (!isalnum(static_cast<unsigned char>(ch))) {
                               ch = '_';
                             }
                           }
                           return name;
                         });

TEST(CliGoldenSuiteTest, HasCases) { EXPECT_GE(AllCases().size(), 5u); }

}  // namespace
}  // namespace xla_index
