// Golden test of hostile inputs: every tests/hostile/<parser>/<name>.txt
// goes through its parser (and the checks after it), and the outcome must
// match <name>.expected:
//   error: SUBSTRING   rejected, with SUBSTRING in the error message
//   ok: SUBSTRING      accepted, SUBSTRING in the printed result
//   exact: (d..) -> (r..); (d..) -> (r..); ...
//                      (indexing maps) either rejected with an error, or
//                      accepted and then the parsed map and the simplified
//                      map both relate exactly these (domain point, result)
//                      pairs, evaluated with exact integers
//                      (xla_index/core/exact_affine_eval.h): a value beyond
//                      int64 must be kept exactly, never wrapped. The pairs
//                      are written by hand (the map's small domain, all of
//                      it).
// The inputs are int64 extremes, division by zero or by negative constants,
// 10,000-deep nesting, huge constants, truncated text and garbage bytes
// (tests/hostile/make_hostile.py writes them). What matters most is that
// none of them crashes, hangs or aborts: a library linked into a compiler
// must answer every input with a result or an error.
//
// Parsers, by folder:
//   indexing_map  ParseIndexingMap, then Verify and Simplify
//   shape         DescribeLayout (ParseShape, the tiled layout, the sizes
//                 and the logical <-> linear maps)
//   hlo           ParseHloModule, then VerifyModule
//   sparse        ParseSparseEncoding (parse and verify)

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "hlo/verifier.h"
#include "layout/layout_description.h"
#include "mlir/IR/MLIRContext.h"
#include "sparse/encoding.h"
#include "sparse/encoding_parser.h"
#include "xla_index/core/exact_affine_eval.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

// XLA_INDEX_HOSTILE_DIR runs another folder of the same layout, e.g. the
// open findings that are not part of the suite yet:
//   XLA_INDEX_HOSTILE_DIR=tests/fuzz/open_findings/hostile \
//     bazel-bin/tests/hostile_input_test
std::string HostileDir() {
  const char* dir = std::getenv("XLA_INDEX_HOSTILE_DIR");
  return dir != nullptr && *dir != '\0' ? dir : "tests/hostile";
}

struct HostileCase {
  friend void PrintTo(const HostileCase& c, std::ostream* os) {
    *os << c.parser << "/" << c.name;
  }
  std::string parser;
  std::string name;
  std::string input_path;
  std::string expected_path;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
}

std::vector<HostileCase> FindCases() {
  std::vector<HostileCase> cases;
  const std::string root = HostileDir();
  if (!std::filesystem::is_directory(root)) return cases;
  for (const auto& parser_dir : std::filesystem::directory_iterator(root)) {
    if (!parser_dir.is_directory()) continue;
    for (const auto& entry :
         std::filesystem::directory_iterator(parser_dir.path())) {
      const std::filesystem::path& path = entry.path();
      if (path.extension() != ".txt") continue;
      std::filesystem::path expected = path;
      expected.replace_extension(".expected");
      cases.push_back({parser_dir.path().filename().string(),
                       path.stem().string(), path.string(), expected.string()});
    }
  }
  std::sort(cases.begin(), cases.end(),
            [](const HostileCase& a, const HostileCase& b) {
              return a.input_path < b.input_path;
            });
  return cases;
}

std::string ErrorOutcome(const absl::Status& status) {
  return absl::StrCat("error: ", status.message());
}

// "ok: <printed result>" or "error: <message>" for `text` read by `parser`;
// nullopt for an unknown parser folder.
std::optional<std::string> Outcome(absl::string_view parser,
                                   absl::string_view text) {
  mlir::MLIRContext context;
  if (parser == "indexing_map") {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context);
    if (!map.ok()) return ErrorOutcome(map.status());
    if (absl::Status verified = map->Verify(); !verified.ok()) {
      return ErrorOutcome(verified);
    }
    map->Simplify();
    return absl::StrCat("ok: ", ToString(*map));
  }
  if (parser == "shape") {
    absl::StatusOr<LayoutDescription> description =
        DescribeLayout(text, std::nullopt, &context);
    if (!description.ok()) return ErrorOutcome(description.status());
    return absl::StrCat("ok: ", LayoutDescriptionToText(*description));
  }
  if (parser == "hlo") {
    absl::StatusOr<std::unique_ptr<HloModule>> module = ParseHloModule(text);
    if (!module.ok()) return ErrorOutcome(module.status());
    if (absl::Status verified = VerifyModule(**module); !verified.ok()) {
      return ErrorOutcome(verified);
    }
    return absl::StrCat("ok: ", (*module)->ToString());
  }
  if (parser == "sparse") {
    absl::StatusOr<sparse::SparseEncoding> encoding =
        sparse::ParseSparseEncoding(text, &context);
    if (!encoding.ok()) return ErrorOutcome(encoding.status());
    return absl::StrCat("ok: ", sparse::PrintSparseEncoding(*encoding));
  }
  return std::nullopt;
}

// The pairs of an `exact:` expectation: "(1, 2) -> (3); (4, 5) -> (-6)".
std::optional<exact::Relation> ParsePairs(absl::string_view text) {
  exact::Relation pairs;
  for (absl::string_view pair : absl::StrSplit(text, ';', absl::SkipEmpty())) {
    std::vector<absl::string_view> sides = absl::StrSplit(pair, "->");
    if (sides.size() != 2) return std::nullopt;
    std::vector<int64_t> dims;
    std::vector<exact::Int> results;
    for (int side = 0; side < 2; ++side) {
      absl::string_view list = absl::StripAsciiWhitespace(sides[side]);
      if (!absl::ConsumePrefix(&list, "(") ||
          !absl::ConsumeSuffix(&list, ")")) {
        return std::nullopt;
      }
      for (absl::string_view number :
           absl::StrSplit(list, ',', absl::SkipWhitespace())) {
        number = absl::StripAsciiWhitespace(number);
        // Results may lie beyond int64: read them as __int128.
        const bool negative = absl::ConsumePrefix(&number, "-");
        if (number.empty() || number.size() > 38) return std::nullopt;
        exact::Int value = 0;
        for (char c : number) {
          if (!absl::ascii_isdigit(c)) return std::nullopt;
          value = value * 10 + (c - '0');
        }
        if (negative) value = -value;
        if (side == 1) {
          results.push_back(value);
        } else if (value < std::numeric_limits<int64_t>::min() ||
                   value > std::numeric_limits<int64_t>::max()) {
          return std::nullopt;
        } else {
          dims.push_back(static_cast<int64_t>(value));
        }
      }
    }
    pairs.insert({dims, results});
  }
  return pairs;
}

// For `exact:` expectations: "" when `text` is rejected, or when its parsed
// and simplified maps both relate exactly `want`; else what differs.
std::string ExactMismatch(absl::string_view text, const exact::Relation& want) {
  mlir::MLIRContext context;
  absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context);
  if (!map.ok() || !map->Verify().ok()) return "";
  IndexingMap simplified = *map;
  simplified.Simplify();
  for (const auto& [what, m] :
       {std::pair<const char*, const IndexingMap*>{"parsed", &*map},
        {"simplified", &simplified}}) {
    exact::Enumeration got = exact::Enumerate(*m, 1 << 16);
    if (got.kind != exact::Enumeration::kDone) {
      return absl::StrCat("the ", what,
                          " map cannot be enumerated: ", ToString(*m));
    }
    std::string diff = exact::FirstDifference(got.relation, want);
    if (!diff.empty()) {
      return absl::StrCat("the ", what, " map (first) and the expected pairs ",
                          "(second) differ, ", diff, ":\n", ToString(*m));
    }
  }
  return "";
}

class HostileInputTest : public testing::TestWithParam<HostileCase> {};

TEST_P(HostileInputTest, GivesTheExpectedOutcome) {
  const HostileCase& c = GetParam();
  const std::string input = ReadFile(c.input_path);
  std::optional<std::string> outcome = Outcome(c.parser, input);
  ASSERT_TRUE(outcome.has_value()) << "no parser for folder " << c.parser;
  // Long outputs (10,000-line modules) are cut in messages.
  const std::string shown = outcome->substr(0, 2000);
  // The outcome is printed even when the test passes: it is what a new
  // case's .expected is written from.
  std::printf("outcome: %s\n", outcome->substr(0, 300).c_str());
  ASSERT_TRUE(std::filesystem::exists(c.expected_path))
      << c.input_path << " has no .expected file";
  std::string expected = ReadFile(c.expected_path);
  absl::string_view want = absl::StripTrailingAsciiWhitespace(expected);
  if (absl::ConsumePrefix(&want, "exact: ")) {
    ASSERT_EQ(c.parser, "indexing_map") << "exact: is for indexing maps";
    std::optional<exact::Relation> pairs = ParsePairs(want);
    ASSERT_TRUE(pairs.has_value()) << c.expected_path << ": bad pairs";
    EXPECT_EQ(ExactMismatch(input, *pairs), "") << c.input_path;
    return;
  }
  const bool want_ok = absl::ConsumePrefix(&want, "ok: ");
  const bool want_error = !want_ok && absl::ConsumePrefix(&want, "error: ");
  ASSERT_TRUE(want_ok || want_error)
      << c.expected_path << " must start with 'ok: ', 'error: ' or 'exact: '";

  EXPECT_EQ(absl::StartsWith(*outcome, "ok: "), want_ok)
      << c.input_path << ": got " << shown;
  EXPECT_TRUE(absl::StrContains(*outcome, want))
      << c.input_path << ": expected '" << want << "' in " << shown;
}

std::string CaseName(const testing::TestParamInfo<HostileCase>& info) {
  return info.param.parser + "_" + info.param.name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, HostileInputTest,
                         testing::ValuesIn(FindCases()), CaseName);

// The corpus is found (tests run from the repository root) and is as large
// as the reliability issue asks: at least 100 inputs over the four parsers.
TEST(HostileCorpus, HasAtLeast100InputsOverFourParsers) {
  const std::vector<HostileCase> cases = FindCases();
  EXPECT_GE(cases.size(), 100u);
  for (const char* parser : {"indexing_map", "shape", "hlo", "sparse"}) {
    EXPECT_TRUE(std::any_of(
        cases.begin(), cases.end(),
        [parser](const HostileCase& c) { return c.parser == parser; }))
        << "no hostile inputs for " << parser;
  }
}

}  // namespace
}  // namespace xla_index
