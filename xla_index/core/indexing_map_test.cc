// Tests of the IndexingMap operations other than Simplify (composition,
// variable removal and rescaling, evaluation, equality), checked against
// the relations the maps denote, enumerated by brute force.

#include "xla_index/core/indexing_map.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/hash/hash.h"
#include "gtest/gtest.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

using Relation = std::map<std::vector<int64_t>, std::set<std::vector<int64_t>>>;

// dims -> set of results.
Relation RelationOf(const IndexingMap& map) {
  absl::StatusOr<std::vector<IndexingPoint>> points = EnumerateImage(map);
  EXPECT_TRUE(points.ok()) << points.status();
  Relation out;
  if (!points.ok()) return out;
  for (const IndexingPoint& p : *points) out[p.dims].insert(p.results);
  return out;
}

// The relational composition: a -> {c : b in first(a), c in second(b)}.
Relation ComposeRelations(const Relation& first, const Relation& second) {
  Relation out;
  for (const auto& [a, bs] : first) {
    for (const std::vector<int64_t>& b : bs) {
      auto it = second.find(b);
      if (it == second.end()) continue;
      out[a].insert(it->second.begin(), it->second.end());
    }
  }
  return out;
}

class IndexingMapTest : public ::testing::Test {
 protected:
  IndexingMap Parse(const std::string& text) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context_);
    EXPECT_TRUE(map.ok()) << map.status() << "\n" << text;
    return map.ok() ? *map : IndexingMap::Undefined();
  }
  mlir::AffineExpr d(int i) { return mlir::getAffineDimExpr(i, &context_); }
  mlir::AffineExpr s(int i) { return mlir::getAffineSymbolExpr(i, &context_); }
  mlir::MLIRContext context_;
};

TEST_F(IndexingMapTest, FromTensorSizes) {
  // The reduce of XLA's indexing-analysis documentation: (d0, d1) -> (r0, d0,
  // d1, r1) for 2x4x8x16 -> 4x8.
  IndexingMap map = IndexingMap::FromTensorSizes(
      mlir::AffineMap::get(2, 2, {s(0), d(0), d(1), s(1)}, &context_), {4, 8},
      {2, 16});
  EXPECT_EQ(ToString(map),
            "(d0, d1)[s0, s1] -> (s0, d0, d1, s1)\ndomain:\nd0 in [0, 3]\n"
            "d1 in [0, 7]\ns0 in [0, 1]\ns1 in [0, 15]");
  EXPECT_TRUE(map.Verify().ok());
}

TEST_F(IndexingMapTest, ComposeMatchesRelationalComposition) {
  const std::pair<const char*, const char*> pairs[] = {
      // Slice after reverse.
      {"(d0, d1) -> (-d0 + 4, d1 * 2)\ndomain:\nd0 in [0, 4]\nd1 in [0, 3]",
       "(d0, d1) -> (d0 + 1, d1 floordiv 3)\ndomain:\nd0 in [0, 3]\n"
       "d1 in [0, 6]"},
      // A reduction window (range symbol) after a broadcast-like map with
      // its own symbol and a constraint.
      {"(d0)[s0] -> (d0 + s0, s0)\ndomain:\nd0 in [0, 5]\ns0 in [0, 2]\n"
       "(d0 + s0) mod 2 in [0, 0]",
       "(d0, d1)[s0] -> (d0 * 3 + s0 - d1)\ndomain:\nd0 in [1, 6]\n"
       "d1 in [0, 2]\ns0 in [0, 2]"},
      // Pad (constraint) then reshape.
      {"(d0) -> ((d0 - 1) floordiv 2)\ndomain:\nd0 in [1, 9]\n"
       "(d0 - 1) mod 2 in [0, 0]",
       "(d0) -> (d0 floordiv 2, d0 mod 2)\ndomain:\nd0 in [0, 3]"},
  };
  for (const auto& [first_text, second_text] : pairs) {
    IndexingMap first = Parse(first_text), second = Parse(second_text);
    IndexingMap composed = ComposeIndexingMaps(first, second);
    ASSERT_TRUE(composed.Verify().ok()) << composed.Verify();
    Relation expected = ComposeRelations(RelationOf(first), RelationOf(second));
    EXPECT_EQ(RelationOf(composed), expected) << ToString(composed);
    composed.Simplify();
    EXPECT_EQ(RelationOf(composed), expected) << ToString(composed);
  }
}

// Fuzz finding C1: under a negative divisor the second map's dims must still
// be replaced by the first map's results (the fast path of
// ComposeAndSimplifyIndexingMaps once kept `d0 ceildiv -1` naming the first
// map's d0), and a composition never names a variable beyond its counts.
TEST_F(IndexingMapTest, ComposeSubstitutesUnderNegativeDivisors) {
  const std::pair<const char*, const char*> pairs[] = {
      {"(d0, d1)[s0] -> (0, s0)\ndomain:\nd0 in [1, 2]\nd1 in [-3, 4]\n"
       "s0 in [0, 5]",
       "(d0, d1) -> (d0 ceildiv -1, d0 ceildiv -1)\ndomain:\nd0 in [0, 0]\n"
       "d1 in [0, 5]"},
      {"(d0)[s0] -> (d0, s0 - 2, s0)\ndomain:\nd0 in [0, 3]\ns0 in [0, 4]",
       "(d0, d1, d2)[s0] -> ((d1 ceildiv -1) mod 3, d2 floordiv -2 + s0)\n"
       "domain:\nd0 in [0, 3]\nd1 in [-2, 2]\nd2 in [0, 4]\ns0 in [0, 1]"},
      {"(d0)[s0] -> (s0 * 3 - d0, d0)\ndomain:\nd0 in [0, 3]\ns0 in [0, 2]",
       "(d0, d1) -> (d0 floordiv -4 + d1 ceildiv -3)\ndomain:\n"
       "d0 in [-3, 6]\nd1 in [0, 3]"},
  };
  for (const auto& [first_text, second_text] : pairs) {
    IndexingMap first = Parse(first_text), second = Parse(second_text);
    Relation expected = ComposeRelations(RelationOf(first), RelationOf(second));
    IndexingMap plain = ComposeIndexingMaps(first, second);
    ASSERT_TRUE(plain.Verify().ok()) << plain.Verify();
    EXPECT_EQ(RelationOf(plain), expected) << ToString(plain);
    IndexingMap simplified = ComposeAndSimplifyIndexingMaps(first, second);
    ASSERT_TRUE(simplified.Verify().ok()) << simplified.Verify() << "\n"
                                          << ToString(simplified);
    EXPECT_EQ(RelationOf(simplified), expected) << ToString(simplified);
  }
}

TEST_F(IndexingMapTest, ComposeOrdersSymbolsAndRewritesRuntimeAccess) {
  IndexingMap first = Parse(
      "(d0)[s0] -> (d0 + s0)\ndomain:\nd0 in [0, 3]\ns0 in [0, 4]\n"
      "  hlo: of = s32[] parameter(1)\n  (d0) -> ()");
  IndexingMap second =
      Parse("(d0)[s0] -> (d0 * 2 + s0)\ndomain:\nd0 in [0, 7]\ns0 in [0, 1]");
  IndexingMap composed = ComposeIndexingMaps(first, second);
  composed.Simplify();
  // Symbols: second's range variable, then first's runtime variable.
  EXPECT_EQ(ToString(composed),
            "(d0)[s0, s1] -> (d0 * 2 + s0 + s1 * 2)\ndomain:\nd0 in [0, 3]\n"
            "s0 in [0, 1]\ns1 in [0, 4]\n  hlo: of = s32[] parameter(1)\n"
            "  (d0) -> ()");

  // When first's results can leave second's domain, a constraint keeps
  // them in it.
  second =
      Parse("(d0)[s0] -> (d0 * 2 + s0)\ndomain:\nd0 in [0, 5]\ns0 in [0, 1]");
  composed = ComposeIndexingMaps(first, second);
  composed.Simplify();
  EXPECT_EQ(ToString(composed),
            "(d0)[s0, s1] -> (d0 * 2 + s0 + s1 * 2)\ndomain:\nd0 in [0, 3]\n"
            "s0 in [0, 1]\ns1 in [0, 4]\n  hlo: of = s32[] parameter(1)\n"
            "  (d0) -> ()\nd0 + s1 in [0, 5]");

  // A runtime variable of `second` reads at first's results.
  IndexingMap gather_like = Parse(
      "(d0)[s0] -> (s0)\ndomain:\nd0 in [0, 7]\ns0 in [0, 9]\n"
      "  hlo: idx = s32[8] parameter(1)\n  (d0) -> (d0)");
  IndexingMap reverse = Parse("(d0) -> (-d0 + 7)\ndomain:\nd0 in [0, 7]");
  composed = ComposeIndexingMaps(reverse, gather_like);
  composed.Simplify();
  EXPECT_EQ(ToString(composed),
            "(d0)[s0] -> (s0)\ndomain:\nd0 in [0, 7]\ns0 in [0, 9]\n"
            "  hlo: idx = s32[8] parameter(1)\n  (d0) -> (-d0 + 7)");
}

// When `second` has no symbols, first's are not renamed and the renaming
// is built only for first's runtime variables (ComposeDefinedMaps): their
// access maps must still be rewritten to the composition's symbol count,
// and the composition must be second(first(x)) at every point (checked by
// evaluation, not by text).
TEST_F(IndexingMapTest, ComposeKeepsFirstsRuntimeVariablesWithoutRenaming) {
  IndexingMap first = Parse(
      "(d0)[s0, s1] -> (d0 * 3 + s0 + s1)\ndomain:\nd0 in [0, 4]\n"
      "s0 in [0, 2]\ns1 in [0, 3]\n  hlo: at = s32[] parameter(2)\n"
      "  (d0) -> ()");
  IndexingMap second = Parse(
      "(d0) -> (d0 floordiv 2, d0 mod 2)\ndomain:\n"
      "d0 in [0, 40]");
  ASSERT_EQ(first.GetRuntimeVarsCount(), 1);
  IndexingMap composed = ComposeIndexingMaps(first, second);
  ASSERT_FALSE(composed.IsUndefined()) << ToString(composed);
  ASSERT_EQ(composed.GetRuntimeVarsCount(), 1);
  ASSERT_EQ(composed.GetSymbolCount(), 2);
  EXPECT_EQ(composed.GetRuntimeVars()[0].access,
            first.GetRuntimeVars()[0].access);
  EXPECT_TRUE(composed.Verify().ok()) << composed.Verify();
  int points = 0;
  for (int64_t d0 = 0; d0 <= 4; ++d0) {
    for (int64_t s0 = 0; s0 <= 2; ++s0) {
      for (int64_t s1 = 0; s1 <= 3; ++s1) {
        const std::optional<std::vector<int64_t>> inner =
            first.Evaluate({d0}, {s0, s1});
        ASSERT_TRUE(inner.has_value());
        const std::optional<std::vector<int64_t>> want =
            second.Evaluate(*inner, {});
        const std::optional<std::vector<int64_t>> got =
            composed.Evaluate({d0}, {s0, s1});
        ASSERT_TRUE(want.has_value() && got.has_value());
        EXPECT_EQ(*got, *want) << d0 << " " << s0 << " " << s1;
        ++points;
      }
    }
  }
  EXPECT_EQ(points, 5 * 3 * 4);
}

TEST_F(IndexingMapTest, ComposeSpecialMaps) {
  IndexingMap map = Parse("(d0) -> (d0)\ndomain:\nd0 in [0, 3]");
  EXPECT_TRUE(ComposeIndexingMaps(IndexingMap::Undefined(), map).IsUndefined());
  EXPECT_TRUE(ComposeIndexingMaps(map, IndexingMap::Undefined()).IsUndefined());
  EXPECT_TRUE(ComposeIndexingMaps(map, IndexingMap::KnownEmpty(&context_, 1))
                  .IsKnownEmpty());
  // Disjoint domains compose to an empty map.
  IndexingMap shifted = Parse("(d0) -> (d0 + 10)\ndomain:\nd0 in [0, 3]");
  IndexingMap composed = ComposeIndexingMaps(shifted, map);
  composed.Simplify();
  EXPECT_TRUE(composed.IsKnownEmpty());
}

// Issue #18: substitution multiplies coefficients, and MLIR folds the
// product with wrapping arithmetic ((d0 * 2^62) * 4 became d0 * 0). A
// composition that has no exact map within int64 (here d0 = 1 goes to
// 2^64) is Undefined with the reason; one whose int64 fold leaves int64
// but whose map fits is exact (compose_int64_edge_test.cc).
TEST_F(IndexingMapTest, ComposeRefusesWrappedCoefficients) {
  IndexingMap first =
      Parse("(d0) -> (d0 * 4611686018427387904)\ndomain:\nd0 in [-1, 1]");
  IndexingMap second = Parse(
      "(d0) -> (d0 * 4)\ndomain:\n"
      "d0 in [-9223372036854775808, 9223372036854775807]");
  IndexingMap composed = ComposeIndexingMaps(first, second);
  ASSERT_TRUE(composed.IsUndefined()) << ToString(composed);
  EXPECT_EQ(composed.undefined_reason(),
            "the composition cannot be represented exactly: "
            "4611686018427387904 * 4 does not fit in int64");
}

TEST_F(IndexingMapTest, ComposeWithMismatchedCountsIsUndefined) {
  IndexingMap two = Parse("(d0) -> (d0, d0)\ndomain:\nd0 in [0, 3]");
  IndexingMap one = Parse("(d0) -> (d0)\ndomain:\nd0 in [0, 3]");
  IndexingMap composed = ComposeIndexingMaps(two, one);
  ASSERT_TRUE(composed.IsUndefined());
  EXPECT_EQ(composed.undefined_reason(),
            "cannot compose a map with 2 results with a map of 1 dimensions");
}

TEST_F(IndexingMapTest, RescaleSymbolsSkipsWhatWouldWrap) {
  // s0 := s0' * 2^62 would make the coefficient 2^63.
  IndexingMap map = Parse(
      "(d0)[s0] -> (d0 + s0 * 2)\ndomain:\nd0 in [0, 3]\n"
      "s0 in [0, 9223372036854775807]\ns0 mod 4611686018427387904 in [0, 0]");
  IndexingMap before = map;
  map.RescaleSymbols();
  // Not rescaled: the constraint is still there and the results unchanged.
  EXPECT_EQ(map.GetConstraintsCount(), 1) << ToString(map);
  EXPECT_EQ(map.GetAffineMap(), before.GetAffineMap());
}

// Out-of-range indices are programmer errors: asserts (active in the
// fastbuild and debug builds the tests run in; compiled out with NDEBUG).
#ifndef NDEBUG
TEST_F(IndexingMapTest, OutOfRangeIndicesAssert) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  IndexingMap map = Parse(
      "(d0)[s0] -> (d0 + s0)\ndomain:\nd0 in [0, 3]\n"
      "s0 in [0, 1]");
  EXPECT_DEATH(map.GetDimBound(1), "dim out of range");
  EXPECT_DEATH(map.GetSymbolBound(-1), "symbol out of range");
  EXPECT_DEATH(map.GetSubMap(1), "result index out of range");
  EXPECT_DEATH(IndexingMap::KnownEmpty(&context_, -1),
               "negative variable or result count");
}
#endif

TEST_F(IndexingMapTest, RemoveUnusedSymbols) {
  IndexingMap map = Parse(
      "(d0)[s0, s1, s2, s3] -> (d0 + s1)\ndomain:\nd0 in [0, 9]\n"
      "s0 in [0, 3]\ns1 in [0, 3]\ns2 in [0, 5]\ns3 in [0, 7]\n"
      "d0 + s2 in [0, 9]\ns3 mod 2 in [0, 0]");
  Relation before = RelationOf(map);
  llvm::SmallBitVector removed = map.RemoveUnusedSymbols();
  // s0 is unused; s2 is tied to d0 by a constraint; s3 only appears in a
  // constraint of its own that is satisfiable, but not provably for every
  // value, so it stays.
  EXPECT_EQ(removed.size(), 4);
  EXPECT_TRUE(removed.test(0));
  EXPECT_EQ(removed.count(), 1);
  EXPECT_EQ(ToString(map),
            "(d0)[s0, s1, s2] -> (d0 + s0)\ndomain:\nd0 in [0, 9]\n"
            "s0 in [0, 3]\ns1 in [0, 5]\ns2 in [0, 7]\nd0 + s1 in [0, 9]\n"
            "s2 mod 2 in [0, 0]");
  EXPECT_EQ(RelationOf(map), before);
}

// Found by the simplifier fuzzer: s1 is kept by a constraint of its own,
// and only then does the constraint s0 + s1 (listed after it) tie s0. s0
// was removed, leaving s0 + s1 to name a symbol that no longer existed.
// Also: an unused symbol with an empty interval keeps the map empty.
TEST_F(IndexingMapTest, RemoveUnusedSymbolsKeepsSymbolsOfLiveConstraints) {
  mlir::AffineExpr s0 = mlir::getAffineSymbolExpr(0, &context_);
  mlir::AffineExpr s1 = mlir::getAffineSymbolExpr(1, &context_);
  IndexingMap map(
      mlir::AffineMap::get(1, 2, {mlir::getAffineConstantExpr(0, &context_)},
                           &context_),
      {{-3, 4}}, {{2, 4}, {-1, 0}}, {}, {{s1 % 3, {0, 1}}, {s0 + s1, {1, 3}}});
  Relation before = RelationOf(map);
  EXPECT_TRUE(map.RemoveUnusedSymbols().none()) << ToString(map);
  EXPECT_EQ(RelationOf(map), before) << ToString(map);

  IndexingMap empty =
      Parse("(d0)[s0] -> (d0)\ndomain:\nd0 in [0, 3]\ns0 in [1, 0]");
  EXPECT_TRUE(empty.RemoveUnusedSymbols().none());
  EXPECT_EQ(empty.GetSymbolCount(), 1);
}

TEST_F(IndexingMapTest, RemoveUnusedSymbolsDropsConstraintsThatAlwaysHold) {
  IndexingMap map = Parse(
      "(d0)[s0, s1] -> (d0 + s1)\ndomain:\nd0 in [0, 9]\ns0 in [0, 3]\n"
      "s1 in [0, 3]\ns0 * 2 + 1 in [1, 9]");
  Relation before = RelationOf(map);
  llvm::SmallBitVector removed = map.RemoveUnusedSymbols();
  EXPECT_TRUE(removed.test(0));
  EXPECT_FALSE(removed.test(1));
  EXPECT_EQ(ToString(map),
            "(d0)[s0] -> (d0 + s0)\ndomain:\nd0 in [0, 9]\ns0 in [0, 3]");
  EXPECT_EQ(RelationOf(map), before);
}

TEST_F(IndexingMapTest, RemoveUnusedDimensions) {
  IndexingMap map = Parse(
      "(d0, d1, d2) -> (d2)\ndomain:\nd0 in [0, 9]\nd1 in [0, 3]\n"
      "d2 in [0, 5]");
  llvm::SmallBitVector removed = map.RemoveUnusedDimensions();
  EXPECT_TRUE(removed.test(0));
  EXPECT_TRUE(removed.test(1));
  EXPECT_FALSE(removed.test(2));
  EXPECT_EQ(ToString(map), "(d0) -> (d0)\ndomain:\nd0 in [0, 5]");
}

TEST_F(IndexingMapTest, RescaleSymbols) {
  IndexingMap map = Parse(
      "(d0)[s0] -> (d0 + s0)\ndomain:\nd0 in [0, 3]\ns0 in [0, 20]\n"
      "s0 mod 4 in [1, 1]");
  Relation before = RelationOf(map);
  EXPECT_TRUE(map.RescaleSymbols());
  EXPECT_EQ(ToString(map),
            "(d0)[s0] -> (d0 + s0 * 4 + 1)\ndomain:\nd0 in [0, 3]\n"
            "s0 in [0, 4]");
  EXPECT_EQ(RelationOf(map), before);
  EXPECT_FALSE(map.RescaleSymbols());
}

TEST_F(IndexingMapTest, ConvertSymbolsToDimensions) {
  IndexingMap map = Parse(
      "(d0)[s0] -> (d0 + s0)\ndomain:\nd0 in [0, 3]\ns0 in [0, 4]\n"
      "d0 + s0 in [1, 5]");
  EXPECT_EQ(ToString(map.ConvertSymbolsToDimensions()),
            "(d0, d1) -> (d0 + d1)\ndomain:\nd0 in [0, 3]\nd1 in [0, 4]\n"
            "d0 + d1 in [1, 5]");
}

TEST_F(IndexingMapTest, SubMap) {
  IndexingMap map = Parse(
      "(d0, d1, d2) -> (d0 floordiv 8, d0 mod 8, d1 * 4 + d2)\ndomain:\n"
      "d0 in [0, 31]\nd1 in [0, 2]\nd2 in [0, 3]");
  EXPECT_EQ(ToString(map.GetSubMap(1)),
            "(d0, d1, d2) -> (d0 mod 8)\ndomain:\nd0 in [0, 31]\n"
            "d1 in [0, 2]\nd2 in [0, 3]");
}

TEST_F(IndexingMapTest, EvaluateAndConstraints) {
  // The slice of XLA's indexing-analysis documentation, input to output.
  IndexingMap map = Parse(
      "(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2)\n"
      "domain:\nd0 in [5, 9]\nd1 in [3, 17]\nd2 in [0, 48]\n"
      "(d1 - 3) mod 7 in [0, 0]\nd2 mod 2 in [0, 0]");
  EXPECT_EQ(map.Evaluate({5, 10, 4}, {}), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_TRUE(map.ConstraintsSatisfied({5, 10, 4}, {}));
  EXPECT_FALSE(map.ConstraintsSatisfied({5, 11, 4}, {}));  // (11-3) mod 7.
  EXPECT_FALSE(map.ConstraintsSatisfied({4, 10, 4}, {}));  // d0 < 5.
  EXPECT_EQ(EvaluateAffineExpr(d(0).floorDiv(4) - s(0), {-5}, {2}), -4);
  EXPECT_EQ(EvaluateAffineExpr(d(0) % 4, {-5}, {}), 3);
  EXPECT_EQ(EvaluateAffineExpr(d(0).ceilDiv(4), {-5}, {}), -1);
}

// A constraint is decided by its exact value even where int64 arithmetic
// saturates. d0 * 2^62 at d0 = 2 is 2^63, beyond int64, so it is not in
// [INT64_MIN, INT64_MAX] (saturated, it was INT64_MAX, inside). And
// (d0 * 2^62) mod 7 at d0 = 2 is 2^63 mod 7 = 8^21 mod 7 = 1, while the
// saturated INT64_MAX = 2^63 - 1 gives 0.
TEST_F(IndexingMapTest, ConstraintsAreDecidedByTheirExactValue) {
  IndexingMap whole_range = Parse(
      "(d0) -> (d0)\ndomain:\nd0 in [0, 9]\n"
      "d0 * 4611686018427387904 in "
      "[-9223372036854775808, 9223372036854775807]");
  ASSERT_EQ(whole_range.GetConstraintsCount(), 1);
  EXPECT_TRUE(whole_range.ConstraintsSatisfied({1}, {}));
  EXPECT_FALSE(whole_range.ConstraintsSatisfied({2}, {}));
  EXPECT_FALSE(whole_range.ConstraintsSatisfied({9}, {}));

  IndexingMap residue = Parse(
      "(d0) -> (d0)\ndomain:\nd0 in [0, 9]\n"
      "(d0 * 4611686018427387904) mod 7 in [1, 1]");
  ASSERT_EQ(residue.GetConstraintsCount(), 1);
  EXPECT_TRUE(residue.ConstraintsSatisfied({2}, {}));
  // 2^62 = 4^31, and 4^3 = 64 = 1 (mod 7): 2^62 mod 7 = 4, not 1.
  EXPECT_FALSE(residue.ConstraintsSatisfied({1}, {}));
  // The saturating evaluation of the same expression stays as documented.
  EXPECT_EQ(EvaluateAffineExpr(residue.GetConstraints()[0].expr, {2}, {}), 0);
}

TEST_F(IndexingMapTest, AddConstraintsIsAddConstraintOfEach) {
  // Enough constraints for the indexed path, with repeated expressions
  // (intersected), lone variables (bounds) and existing constraints.
  std::vector<IndexingConstraint> added;
  for (int i = 0; i < 40; ++i) {
    added.push_back({d(0) * (i % 7 + 2) + s(0), Interval{-i, 100 - i % 5}});
    added.push_back({d(i % 2), Interval{i % 3, 50 - i}});
    added.push_back({(d(1) + i % 3).floorDiv(4), Interval{i % 4, 30}});
  }
  auto base = [&] {
    IndexingMap map = IndexingMap::FromTensorSizes(
        mlir::AffineMap::get(2, 1, {d(0) + d(1) * s(0)}, &context_), {64, 64},
        {8});
    map.AddConstraint(d(0) * 3 + s(0), Interval{0, 90});
    map.AddConstraint(d(0) * 5 + d(1), Interval{1, 200});
    return map;
  };
  for (size_t count : {size_t{3}, added.size()}) {
    IndexingMap one_by_one = base(), at_once = base();
    for (size_t i = 0; i < count; ++i) {
      one_by_one.AddConstraint(added[i].expr, added[i].interval);
    }
    at_once.AddConstraints(absl::MakeConstSpan(added).first(count));
    EXPECT_EQ(at_once, one_by_one) << count;
    // In the same order, too.
    ASSERT_EQ(at_once.GetConstraintsCount(), one_by_one.GetConstraintsCount());
    for (int64_t i = 0; i < at_once.GetConstraintsCount(); ++i) {
      EXPECT_EQ(at_once.GetConstraints()[i].expr,
                one_by_one.GetConstraints()[i].expr);
      EXPECT_EQ(at_once.GetConstraints()[i].interval,
                one_by_one.GetConstraints()[i].interval);
    }
  }
}

TEST_F(IndexingMapTest, EnumerateImage) {
  // The broadcast of XLA's indexing-analysis documentation, input to output:
  // each d0 reaches a 10x1x30 slice (here 2x1x3).
  IndexingMap map = Parse(
      "(d0)[s0, s1] -> (s0, d0, s1)\ndomain:\nd0 in [0, 3]\ns0 in [0, 1]\n"
      "s1 in [0, 2]");
  absl::StatusOr<std::vector<IndexingPoint>> points = EnumerateImage(map);
  ASSERT_TRUE(points.ok());
  EXPECT_EQ(points->size(), 4 * 2 * 3);
  EXPECT_EQ(points->front().results, (std::vector<int64_t>{0, 0, 0}));
  EXPECT_EQ(points->back().results, (std::vector<int64_t>{1, 3, 2}));
  EXPECT_FALSE(EnumerateImage(map, 10).ok());
}

TEST_F(IndexingMapTest, EqualityAndHash) {
  IndexingMap a = Parse(
      "(d0, d1) -> (d0)\ndomain:\nd0 in [0, 9]\nd1 in [0, 9]\n"
      "d1 mod 2 in [0, 0]\nd0 + d1 in [1, 5]");
  IndexingMap b = Parse(
      "(d0, d1) -> (d0)\ndomain:\nd0 in [0, 9]\nd1 in [0, 9]\n"
      "d0 + d1 in [1, 5]\nd1 mod 2 in [0, 0]");
  IndexingMap c = Parse(
      "(d0, d1) -> (d0)\ndomain:\nd0 in [0, 9]\nd1 in [0, 8]\n"
      "d0 + d1 in [1, 5]\nd1 mod 2 in [0, 0]");
  EXPECT_EQ(a, b);
  EXPECT_EQ(absl::Hash<IndexingMap>{}(a), absl::Hash<IndexingMap>{}(b));
  EXPECT_NE(a, c);
  EXPECT_NE(a, IndexingMap::Undefined());
  EXPECT_EQ(IndexingMap::KnownEmpty(&context_, 1),
            IndexingMap::KnownEmpty(&context_, 2));
}

TEST_F(IndexingMapTest, ExpressionRangeAndSimplification) {
  IndexingMap map = Parse(
      "(d0, d1) -> (d0)\ndomain:\nd0 in [0, 31]\nd1 in [2, 5]\n"
      "d0 mod 8 in [0, 3]");
  EXPECT_EQ(ComputeExpressionRange(map, d(0) * 2 - d(1)), (Interval{-5, 60}));
  EXPECT_EQ(ComputeExpressionRange(map, d(0).floorDiv(8)), (Interval{0, 3}));
  // The constraint's range of `d0 mod 8` applies to the subexpression.
  EXPECT_EQ(ComputeExpressionRange(map, d(0) % 8 + d(1)), (Interval{2, 8}));
  EXPECT_EQ(AffineExprToString(SimplifyAffineExpr(map, (d(0) % 8).floorDiv(4))),
            "0");
  EXPECT_EQ(AffineExprToString(SimplifyAffineExpr(map, d(1).floorDiv(8))), "0");
}

TEST_F(IndexingMapTest, VerifyReportsMismatches) {
  IndexingMap bad(mlir::AffineMap::get(2, 1, {d(0) + s(0)}, &context_),
                  {{0, 1}}, {{0, 1}}, {});
  EXPECT_FALSE(bad.Verify().ok());
  IndexingMap bad_constraint(mlir::AffineMap::get(1, 0, {d(0)}, &context_),
                             {{0, 1}}, {}, {}, {{d(3), {0, 1}}});
  EXPECT_FALSE(bad_constraint.Verify().ok());
}

}  // namespace
}  // namespace xla_index
