// Tests of the exact questions (exact_map_questions.h) against independent
// truth: the brute-force relation of exact_affine_eval.h (its own __int128
// evaluator, not the enumeration method's), and, for maps too large to
// enumerate, answers derived by hand in the comments with every witness
// re-evaluated by exact::EvaluateAt. The maps follow the structure of the
// cases in XLA's IndexingMap tests (IndexingMap::Simplify in
// xla/hlo/analysis/indexing_map_test.cc) with our own names and constants.

#include "xla_index/core/exact_map_questions.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/exact_affine_eval.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

using ::testing::HasSubstr;

class ExactMapQuestionsTest : public ::testing::Test {
 protected:
  IndexingMap Parse(const std::string& text) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context_);
    EXPECT_TRUE(map.ok()) << map.status() << "\n" << text;
    return map.ok() ? *map : IndexingMap::Undefined();
  }

  /// Whether `map` relates (point.dims, point.results) with the point's
  /// symbols, by exact evaluation.
  static bool Relates(const IndexingMap& map, const RelationPoint& point) {
    if (map.IsKnownEmpty()) return false;
    for (size_t i = 0; i < point.dims.size(); ++i) {
      if (!map.GetDimBound(i).Contains(point.dims[i])) return false;
    }
    for (size_t i = 0; i < point.symbols.size(); ++i) {
      if (!map.GetSymbolBound(i).Contains(point.symbols[i])) return false;
    }
    exact::PointValue value = exact::EvaluateAt(map, point.dims, point.symbols);
    if (value.kind != exact::Value::kValue || !value.holds) return false;
    return value.results ==
           std::vector<exact::Int>(point.results.begin(), point.results.end());
  }

  /// The pair of the witness is in the brute-force relation of `other`.
  static bool InRelation(const exact::Relation& relation,
                         const RelationPoint& point) {
    return relation.count(
               {point.dims, std::vector<exact::Int>(point.results.begin(),
                                                    point.results.end())}) > 0;
  }

  /// Decides a == b and checks the answer's time and its witness (which
  /// must be a pair of the map it names, by evaluation).
  std::optional<MapDifference> Decide(const IndexingMap& a,
                                      const IndexingMap& b,
                                      double max_seconds = 5) {
    auto start = std::chrono::steady_clock::now();
    absl::StatusOr<EqualityAnswer> answer = DecideEquality(a, b);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    EXPECT_LT(seconds, max_seconds) << ToString(a) << "\n" << ToString(b);
    EXPECT_TRUE(answer.ok()) << answer.status();
    if (!answer.ok()) return std::nullopt;
    if (answer->difference) {
      const MapDifference& d = *answer->difference;
      EXPECT_TRUE(Relates(d.in_map == 0 ? a : b, d.point));
    }
    return answer->difference;
  }

  mlir::MLIRContext context_;
};

// XLA prints an empty map as KNOWN EMPTY (IndexingMap::Simplify turns
// `s1 floordiv 20 in [2, 2]` with s1 in [0, 19] into it): it is the same
// relation as the map with that impossible constraint, whatever its counts.
TEST_F(ExactMapQuestionsTest, KnownEmptyEqualsAnEmptyDomain) {
  IndexingMap empty_domain = Parse(
      "(d0, d1)[s0, s1] -> (d1, d0, s1), domain: d0 in [0, 29], "
      "d1 in [0, 39], s0 in [0, 9], s1 in [0, 29], s1 floordiv 30 in [1, 1]");
  IndexingMap known_empty = Parse("KNOWN EMPTY");
  EXPECT_FALSE(Decide(empty_domain, known_empty).has_value());
  EXPECT_FALSE(Decide(known_empty, empty_domain).has_value());
  // An empty interval is an empty domain too.
  EXPECT_FALSE(
      Decide(known_empty, Parse("(d0) -> (d0), domain: d0 in [5, 4]")));
  // A non-empty map differs from KNOWN EMPTY by a point of its own.
  IndexingMap some = Parse(
      "(d0, d1) -> (d0 + d1), domain: d0 in [0, 3], d1 in [0, 3], "
      "d0 + d1 in [6, 6]");
  std::optional<MapDifference> d = Decide(known_empty, some);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->in_map, 1);
  EXPECT_EQ(d->point.results, std::vector<int64_t>{6});
}

// Found by the exact_questions fuzzer: merging s0 + 2 * s2 into one symbol
// turns the constraint on it into its interval, which is then empty; the
// relation is empty, so equal to another empty one (a constant constraint
// that fails) and different from a non-empty one.
TEST_F(ExactMapQuestionsTest, MergingCanShowTheDomainEmpty) {
  IndexingMap merged_empty = Parse(
      "(d0, d1)[s0, s1, s2] -> (d0 ceildiv 5), domain: d0 in [1, 4], "
      "d1 in [0, 2], s0 in [-3, 0], s1 in [0, 2], s2 in [-2, -1], "
      "s0 + s2 * 2 in [4, 4]");
  IndexingMap constant_empty = Parse(
      "(d0, d1) -> (d1), domain: d0 in [0, 4], d1 in [1, 1], -7 in [3, 3]");
  EXPECT_FALSE(Decide(merged_empty, constant_empty).has_value());
  absl::StatusOr<EmptinessAnswer> empty = DecideEmptiness(merged_empty);
  ASSERT_TRUE(empty.ok());
  EXPECT_FALSE(empty->point.has_value());
  std::optional<MapDifference> d =
      Decide(merged_empty, Parse("(d0, d1) -> (d1), domain: d0 in [0, 4], "
                                 "d1 in [1, 1]"));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->in_map, 1);
}

// A different-count pair where neither domain is empty is still refused.
TEST_F(ExactMapQuestionsTest, DifferentCountsAreRefused) {
  absl::StatusOr<EqualityAnswer> answer =
      DecideEquality(Parse("(d0) -> (d0), domain: d0 in [0, 1]"),
                     Parse("(d0) -> (d0, d0), domain: d0 in [0, 1]"));
  ASSERT_FALSE(answer.ok());
  EXPECT_THAT(answer.status().message(), HasSubstr("1 and 2 results"));
}

// IndexingMap::Simplify's divs-and-mods-with-multipliers shape: with s0 in
// [0, 4], s0 floordiv 5 is 0 and s0 mod 5 is s0, so both are d0 + 9 * s0.
// This was refused on a subtraction budget although the box has 10 points.
TEST_F(ExactMapQuestionsTest, SmallBoxWithSymbolsInDivisions) {
  IndexingMap a = Parse(
      "(d0)[s0] -> (d0 - (s0 floordiv 5) * 20 + s0 * 9), "
      "domain: d0 in [0, 1], s0 in [0, 4]");
  IndexingMap b = Parse(
      "(d0)[s0] -> (d0 + (s0 mod 5) * 4 + s0 * 5), "
      "domain: d0 in [0, 1], s0 in [0, 4]");
  IndexingMap b_shifted = Parse(
      "(d0)[s0] -> (d0 + (s0 mod 5) * 4 + s0 * 5 + 1), "
      "domain: d0 in [0, 1], s0 in [0, 4]");
  EXPECT_FALSE(Decide(a, b).has_value());
  EXPECT_TRUE(Decide(a, b_shifted).has_value());
}

// A box of 14,400 points with symbols in divisions (the simplifier's
// "sum independent of symbol" shape), decided by enumeration.
TEST_F(ExactMapQuestionsTest, TwelveThousandPointsAreEnumerated) {
  IndexingMap a = Parse(
      "(d0, d1)[s0] -> (d0 * 6 + s0 floordiv 4, d1), domain: "
      "d0 in [0, 29], d1 in [0, 39], s0 in [0, 11], "
      "d0 * 6 + s0 floordiv 4 in [0, 599]");
  IndexingMap b = Parse(
      "(d0, d1)[s0] -> (d0 * 6 + s0, d1), domain: "
      "d0 in [0, 29], d1 in [0, 39], s0 in [0, 2]");
  EXPECT_FALSE(Decide(a, b).has_value());
  IndexingMap c = Parse(
      "(d0, d1)[s0] -> (d0 * 6 + s0, d1), domain: "
      "d0 in [0, 29], d1 in [0, 39], s0 in [0, 3]");
  std::optional<MapDifference> d = Decide(a, c);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->in_map, 1);
  EXPECT_EQ(d->point.results[0] % 6, 3);
}

// The simplifier's reshape shape: x mod c + (x floordiv c) * c == x.
TEST_F(ExactMapQuestionsTest, ModPlusFloorDivIsTheDividend) {
  IndexingMap a = Parse(
      "()[s0] -> ((s0 * 64) mod 923 + ((s0 * 64) floordiv 923) * 923), "
      "domain: s0 in [0, 255]");
  IndexingMap b = Parse("()[s0] -> (s0 * 64), domain: s0 in [0, 255]");
  IndexingMap b_shifted =
      Parse("()[s0] -> (s0 * 64 + 1), domain: s0 in [0, 255]");
  EXPECT_FALSE(Decide(a, b, 0.5).has_value());
  EXPECT_TRUE(Decide(a, b_shifted, 0.5).has_value());
}

// The simplifier's extract-from-mod shape over 131 million symbol points:
// A's s1 + 2*s2 + 256*s3 + 131072*s0 covers [0, 131072000) without gaps
// (each coefficient is the width of what precedes it), so its image mod
// 10000 is [0, 9999]; B's (s2 + 128*s3 + 65536*s0) mod 5000 is [0, 4999],
// times 2 plus s1 in [0, 1] is [0, 9999] again. Equal; B + 1 reaches 10000.
TEST_F(ExactMapQuestionsTest, MixedRadixSymbolsUnderMod) {
  const std::string domain =
      "domain: s0 in [0, 999], s1 in [0, 1], s2 in [0, 127], s3 in [0, 511]";
  IndexingMap a = Parse(
      "()[s0, s1, s2, s3] -> ((s0 * 131072 + s1 + s2 * 2 + s3 * 256) mod "
      "10000), " +
      domain);
  IndexingMap b = Parse(
      "()[s0, s1, s2, s3] -> (((s0 * 65536 + s3 * 128 + s2) mod 5000) * 2 + "
      "s1), " +
      domain);
  IndexingMap b_shifted = Parse(
      "()[s0, s1, s2, s3] -> (((s0 * 65536 + s3 * 128 + s2) mod 5000) * 2 + "
      "s1 + 1), " +
      domain);
  EXPECT_FALSE(Decide(a, b, 1).has_value());
  std::optional<MapDifference> d = Decide(a, b_shifted, 1);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->point.results[0], d->in_map == 0 ? 0 : 10000);
}

// A divisor far larger than the range: the cost must not grow with it.
// (d0 - 3) floordiv 250000 is -1 on d0 in [0, 1], and -1 mod 16 is 15.
TEST_F(ExactMapQuestionsTest, LargeDivisorWithASymbol) {
  IndexingMap a = Parse(
      "(d0)[s0] -> (((d0 - 3) floordiv 250000) mod 16), "
      "domain: d0 in [0, 1], s0 in [0, 1]");
  EXPECT_FALSE(Decide(a, Parse("(d0) -> (15), domain: d0 in [0, 1]"), 0.5));
  EXPECT_TRUE(Decide(a, Parse("(d0) -> (14), domain: d0 in [0, 1]"), 0.5));
  // The second shape: a constraint whose residues s1 all reach.
  IndexingMap wide = Parse(
      "()[s0, s1] -> ((-s0) floordiv 300000, s0), domain: s0 in [-1, 2], "
      "s1 in [0, 5], (s0 + s1) mod 5 in [0, 1]");
  IndexingMap narrow = Parse(
      "()[s0, s1] -> ((-s0) floordiv 300000, s0), domain: s0 in [-1, 2], "
      "s1 in [0, 5], (s0 + s1) mod 5 in [0, 0]");
  exact::Enumeration truth_wide = exact::Enumerate(wide, 1 << 10);
  exact::Enumeration truth_narrow = exact::Enumerate(narrow, 1 << 10);
  EXPECT_EQ(Decide(wide, narrow, 0.5).has_value(),
            truth_wide.relation != truth_narrow.relation);
}

std::string Dims(int n, absl::string_view prefix = "d") {
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) names.push_back(absl::StrCat(prefix, i));
  return absl::StrJoin(names, ", ");
}

std::string Box(int n, int64_t lo, int64_t hi, absl::string_view prefix = "d") {
  std::vector<std::string> parts;
  for (int i = 0; i < n; ++i) {
    parts.push_back(absl::StrCat(prefix, i, " in [", lo, ", ", hi, "]"));
  }
  return absl::StrJoin(parts, ", ");
}

// 250 dims chained by d_i - d_{i+1} == 1 need a spread of 249: non-empty
// in [0, 1200] (d_i = 249 - i + t), empty in [0, 200].
TEST_F(ExactMapQuestionsTest, ChainOfEqualities) {
  std::vector<std::string> chain;
  for (int i = 0; i + 1 < 250; ++i) {
    chain.push_back(absl::StrCat("d", i, " - d", i + 1, " in [1, 1]"));
  }
  for (int64_t hi : {1200, 200}) {
    IndexingMap map = Parse(absl::StrCat("(", Dims(250),
                                         ") -> (d0), domain: ", Box(250, 0, hi),
                                         ", ", absl::StrJoin(chain, ", ")));
    auto start = std::chrono::steady_clock::now();
    absl::StatusOr<EmptinessAnswer> answer = DecideEmptiness(map);
    EXPECT_LT(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count(),
        5);
    ASSERT_TRUE(answer.ok()) << answer.status();
    EXPECT_EQ(answer->point.has_value(), hi == 1200);
    if (answer->point) {
      EXPECT_TRUE(Relates(map, *answer->point));
    }
  }
}

// The identity against a rotation of 300 binary dims: different (at any
// point with d0 != d1), found without walking 2^300 points.
TEST_F(ExactMapQuestionsTest, RotationOfManyDims) {
  std::vector<std::string> rotated;
  for (int i = 0; i < 300; ++i)
    rotated.push_back(absl::StrCat("d", (i + 1) % 300));
  const std::string domain = absl::StrCat("domain: ", Box(300, 0, 1));
  IndexingMap identity =
      Parse(absl::StrCat("(", Dims(300), ") -> (", Dims(300), "), ", domain));
  IndexingMap rotation = Parse(absl::StrCat(
      "(", Dims(300), ") -> (", absl::StrJoin(rotated, ", "), "), ", domain));
  std::optional<MapDifference> d = Decide(identity, rotation);
  ASSERT_TRUE(d.has_value());
  EXPECT_FALSE(Relates(d->in_map == 0 ? rotation : identity, d->point));
}

// sum of 200 `d_i floordiv 9` with d_i in [0, 8] is 0 everywhere; plus 1
// it is 1 everywhere.
TEST_F(ExactMapQuestionsTest, SumOfFloorDivsBelowTheDivisor) {
  std::vector<std::string> terms;
  for (int i = 0; i < 200; ++i)
    terms.push_back(absl::StrCat("d", i, " floordiv 9"));
  const std::string domain = absl::StrCat("domain: ", Box(200, 0, 8));
  IndexingMap sum = Parse(absl::StrCat(
      "(", Dims(200), ") -> (", absl::StrJoin(terms, " + "), "), ", domain));
  EXPECT_FALSE(
      Decide(sum, Parse(absl::StrCat("(", Dims(200), ") -> (0), ", domain))));
  EXPECT_TRUE(
      Decide(sum, Parse(absl::StrCat("(", Dims(200), ") -> (1), ", domain))));
}

// 190 nested `floordiv 3` over [0, INT64_MAX]: 3^40 > 2^63, so after 40 of
// them the value is 0.
TEST_F(ExactMapQuestionsTest, NestedFloorDivs) {
  std::string e = "d0";
  for (int i = 0; i < 190; ++i) e = absl::StrCat("(", e, ") floordiv 3");
  const std::string domain = "domain: d0 in [0, 9223372036854775807]";
  IndexingMap nested = Parse(absl::StrCat("(d0) -> (", e, "), ", domain));
  EXPECT_FALSE(Decide(nested, Parse("(d0) -> (0), " + domain)));
  std::optional<MapDifference> d =
      Decide(nested, Parse("(d0) -> (-1), " + domain));
  ASSERT_TRUE(d.has_value());
}

// A sum of 200 binary symbols takes every value in [0, 200] and no other.
TEST_F(ExactMapQuestionsTest, SumOfManySymbols) {
  std::vector<std::string> terms;
  for (int i = 0; i < 200; ++i) terms.push_back(absl::StrCat("s", i));
  IndexingMap sum = Parse(absl::StrCat("()[", Dims(200, "s"), "] -> (",
                                       absl::StrJoin(terms, " + "),
                                       "), domain: ", Box(200, 0, 1, "s")));
  EXPECT_FALSE(Decide(sum, Parse("()[s0] -> (s0), domain: s0 in [0, 200]")));
  std::optional<MapDifference> d =
      Decide(sum, Parse("()[s0] -> (s0), domain: s0 in [0, 199]"));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->in_map, 0);
  EXPECT_EQ(d->point.results, std::vector<int64_t>{200});
}

TEST_F(ExactMapQuestionsTest, UndefinedAndNonAffineAreRefused) {
  EXPECT_FALSE(DecideEquality(Parse("UNDEFINED"),
                              Parse("(d0) -> (d0), domain: d0 in [0, 1]"))
                   .ok());
}

// A budget that is too small is reported, naming the methods.
TEST_F(ExactMapQuestionsTest, ExhaustedBudgetsNameTheMethod) {
  ExactBudget budget;
  budget.max_enumerated_points = 0;
  budget.max_fallback_points = 0;
  budget.time_limit = absl::ZeroDuration();
  absl::StatusOr<EqualityAnswer> answer = DecideEquality(
      Parse("(d0)[s0] -> (d0 + s0 floordiv 3), domain: d0 in [0, 9], "
            "s0 in [0, 9], (d0 + s0) mod 4 in [0, 1]"),
      Parse("(d0)[s0] -> (d0 + s0 floordiv 3), domain: d0 in [0, 9], "
            "s0 in [0, 9], (d0 + s0) mod 4 in [0, 2]"),
      budget);
  ASSERT_FALSE(answer.ok());
  EXPECT_TRUE(absl::IsResourceExhausted(answer.status())) << answer.status();
  EXPECT_THAT(answer.status().message(), HasSubstr("time budget"));
}

}  // namespace
}  // namespace xla_index
