// The malformed-input corpus: every file of hlo/testdata/malformed is broken
// HLO whose first line, `// expect: L:C: message`, states the error that
// ParseAndVerifyHloModule must return (a comment, so it does not disturb
// the text; the snippet starts on line 2). Beyond the corpus, every prefix
// and many byte mutations of the documentation snippets must give a status,
// never a crash.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/evaluator.h"
#include "hlo/parser.h"

namespace xla_index {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::string> FilesIn(const std::string& directory) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(MalformedCorpusTest, EveryFileFailsWithItsExpectedError) {
  std::vector<std::string> files = FilesIn("hlo/testdata/malformed");
  EXPECT_GE(files.size(), 40u);
  for (const std::string& path : files) {
    std::string text = ReadFile(path);
    constexpr absl::string_view kPrefix = "// expect: ";
    ASSERT_TRUE(absl::StartsWith(text, kPrefix)) << path;
    std::string expected =
        text.substr(kPrefix.size(), text.find('\n') - kPrefix.size());
    absl::StatusOr<std::unique_ptr<HloModule>> module =
        ParseAndVerifyHloModule(text);
    ASSERT_FALSE(module.ok()) << path << " parsed and verified";
    EXPECT_EQ(module.status().code(), absl::StatusCode::kInvalidArgument)
        << path;
    EXPECT_THAT(std::string(module.status().message()),
                ::testing::HasSubstr(expected))
        << path;
    // Every error names a line and column: "L:C: ...".
    EXPECT_THAT(std::string(module.status().message()),
                ::testing::MatchesRegex("^[0-9]+:[0-9]+: .*"))
        << path;
  }
}

// Parses, verifies and (when valid) evaluates `text`; only checks that
// nothing crashes and that a failure is a status with a message.
void ParseEverything(const std::string& text) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  if (!module.ok()) {
    EXPECT_FALSE(module.status().message().empty());
    return;
  }
  (void)(*module)->ToString();
}

TEST(MalformedCorpusTest, EveryPrefixOfEverySeedSnippetIsHandled) {
  for (const std::string& path : FilesIn("hlo/testdata/seed_snippets")) {
    std::string text = ReadFile(path);
    for (size_t n = 0; n <= text.size(); ++n)
      ParseEverything(text.substr(0, n));
  }
}

TEST(MalformedCorpusTest, RandomByteMutationsAreHandled) {
  std::mt19937 rng(1234);
  const std::string alphabet = "{}[]()<>=,:_x*%-.0123456789 \nfsupT";
  for (const std::string& path : FilesIn("hlo/testdata/seed_snippets")) {
    std::string text = ReadFile(path);
    for (int trial = 0; trial < 150; ++trial) {
      std::string mutated = text;
      int edits = 1 + rng() % 3;
      for (int e = 0; e < edits && !mutated.empty(); ++e) {
        size_t at = rng() % mutated.size();
        switch (rng() % 3) {
          case 0:
            mutated[at] = alphabet[rng() % alphabet.size()];
            break;
          case 1:
            mutated.erase(at, 1);
            break;
          default:
            mutated.insert(at, 1, alphabet[rng() % alphabet.size()]);
        }
      }
      ParseEverything(mutated);
    }
  }
}

}  // namespace
}  // namespace xla_index
