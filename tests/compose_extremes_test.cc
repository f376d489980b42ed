// Composition at the int64 limits and under negative divisors (the fuzz
// findings F12-F15 of docs/RELIABILITY.md), checked against the exact
// (__int128) relational composition of the two maps: a composed map is
// either UNDEFINED (it cannot be represented) or relates exactly the same
// (dims, results) pairs; never a wrapped constant or a variable of the
// wrong map.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/box_points.h"
#include "xla_index/core/exact_affine_eval.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

// { (a, c) : (a, b) in first, (b, c) in second }, exactly: first's results
// that leave int64 or second's dim bounds relate to nothing.
exact::Relation ExactComposition(const IndexingMap& first,
                                 const IndexingMap& second) {
  exact::Enumeration a = exact::Enumerate(first, 1 << 16);
  EXPECT_EQ(a.kind, exact::Enumeration::kDone);
  exact::Relation out;
  for (const auto& [dims, results] : a.relation) {
    std::vector<int64_t> b;
    for (size_t j = 0; j < results.size(); ++j) {
      const exact::Int v = results[j];
      if (v < second.GetDimBound(j).lower || v > second.GetDimBound(j).upper) {
        break;
      }
      b.push_back(static_cast<int64_t>(v));
    }
    if (b.size() != results.size()) continue;
    ForEachBoxPoint(second.GetSymbolBounds(), 1 << 16,
                    [&](const std::vector<int64_t>& symbols) {
                      exact::PointValue c =
                          exact::EvaluateAt(second, b, symbols);
                      EXPECT_EQ(c.kind, exact::Value::kValue);
                      if (c.holds) out.insert({dims, c.results});
                    });
  }
  return out;
}

class ComposeExtremesTest : public ::testing::Test {
 protected:
  IndexingMap Parse(const std::string& text) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context_);
    EXPECT_TRUE(map.ok()) << map.status() << "\n" << text;
    return map.ok() ? *map : IndexingMap::Undefined();
  }
  // Both compositions are UNDEFINED or exactly the relational composition;
  // returns how many were defined.
  int ExpectExactOrUndefined(const std::string& first_text,
                             const std::string& second_text) {
    IndexingMap first = Parse(first_text), second = Parse(second_text);
    const exact::Relation expected = ExactComposition(first, second);
    EXPECT_FALSE(expected.empty());
    int defined = 0;
    for (bool simplify : {false, true}) {
      IndexingMap composed = simplify
                                 ? ComposeAndSimplifyIndexingMaps(first, second)
                                 : ComposeIndexingMaps(first, second);
      SCOPED_TRACE(ToString(composed));
      if (composed.IsUndefined()) continue;
      ++defined;
      EXPECT_TRUE(composed.Verify().ok()) << composed.Verify();
      exact::Enumeration actual = exact::Enumerate(composed, 1 << 16);
      EXPECT_EQ(actual.kind, exact::Enumeration::kDone);
      EXPECT_EQ(exact::FirstDifference(actual.relation, expected), "")
          << (simplify ? "ComposeAndSimplifyIndexingMaps"
                       : "ComposeIndexingMaps");
    }
    return defined;
  }
  mlir::MLIRContext context_;
};

// F12 (C1_*): the second map's dims are replaced under negative divisors too.
TEST_F(ComposeExtremesTest, NegativeDivisors) {
  EXPECT_EQ(ExpectExactOrUndefined(
                "(d0, d1)[s0] -> (0, s0)\ndomain:\nd0 in [1, 2]\n"
                "d1 in [-3, 4]\ns0 in [0, 5]",
                "(d0, d1) -> (d0 ceildiv -1, d0 ceildiv -1)\ndomain:\n"
                "d0 in [0, 0]\nd1 in [0, 5]"),
            2);
  EXPECT_EQ(ExpectExactOrUndefined(
                "(d0)[s0] -> (d0, s0 - 2, s0)\ndomain:\nd0 in [0, 3]\n"
                "s0 in [0, 4]",
                "(d0, d1, d2)[s0] -> ((d1 ceildiv -1) mod 3, d2 floordiv -2 "
                "+ s0)\ndomain:\nd0 in [0, 3]\nd1 in [-2, 2]\nd2 in [0, 4]\n"
                "s0 in [0, 1]"),
            2);
}

// F13 (C2_*): at d0 = INT64_MIN the composed value (d0 * 5 - 6) ceildiv 3 is
// -15372286728091293015, beyond int64: kept exactly or refused.
TEST_F(ComposeExtremesTest, ValueBeyondInt64AtADomainPoint) {
  ExpectExactOrUndefined(
      "(d0)[s0, s1] -> (d0, s1, -6)\ndomain:\n"
      "d0 in [-9223372036854775808, -9223372036854775803]\ns0 in [-1, 0]\n"
      "s1 in [4, 8]",
      "(d0, d1, d2) -> ((d0 * 5 + d2) ceildiv 3, 12)\ndomain:\n"
      "d0 in [-9223372036854775808, 0]\nd1 in [0, 10]\nd2 in [-6, -6]");
}

// F14 (C3_*): the constants -17 and -9223372036854775801 meet in the
// composition; their sum does not fit in int64.
TEST_F(ComposeExtremesTest, FoldedConstantBeyondInt64) {
  ExpectExactOrUndefined(
      "(d0, d1) -> (-(d0 ceildiv 2) + d1 * 2 - 17)\ndomain:\nd0 in [3, 4]\n"
      "d1 in [-3, -2]",
      "(d0) -> ((d0 - 9223372036854775801) * -9223372036854775807)\n"
      "domain:\nd0 in [-30, 0]");
}

// F15 (C4_*): -s1 reaches 2^63 at s1 = INT64_MIN; the term keeps its symbol.
TEST_F(ComposeExtremesTest, NegatedInt64MinSymbol) {
  EXPECT_GE(
      ExpectExactOrUndefined(
          "(d0, d1)[s0, s1] -> (d1, -3, d0 - s0 - (-s1) ceildiv 8 - 7)\n"
          "domain:\nd0 in [-2, 0]\nd1 in [-1, 1]\ns0 in [-3, -1]\n"
          "s1 in [-9223372036854775808, -9223372036854775806]",
          "(d0, d1, d2)[s0] -> (4294967296, d2)\ndomain:\nd0 in [-1, 1]\n"
          "d1 in [-3, -3]\nd2 in [-2305843009213693952, 2305843009213693952]\n"
          "s0 in [0, 1]"),
      1);
}

// The composition's domain constraint d0 + s0 * 3 + 6 in [MIN + 3, MIN + 3]
// cannot move its constant into the interval (MIN - 3 is beyond int64); it
// once saturated to d0 + s0 * 3 in [MIN, MIN], a different set.
TEST_F(ComposeExtremesTest, ConstraintConstantBeyondInt64) {
  ExpectExactOrUndefined(
      "(d0)[s0, s1] -> ((d0 mod 2) mod 3, -8, d0 + s0 * 3 + 6)\ndomain:\n"
      "d0 in [-9223372036854775808, -9223372036854775803]\ns0 in [-1, 0]\n"
      "s1 in [2, 2]",
      "(d0, d1, d2)[s0] -> (d0)\ndomain:\nd0 in [0, 1]\nd1 in [-8, -8]\n"
      "d2 in [-9223372036854775805, -9223372036854775805]\ns0 in [0, 0]");
}

// d0 + 2^61 with d0 near INT64_MAX: every value of the sum is beyond int64,
// and its saturated range once read as a point (KNOWN EMPTY).
TEST_F(ComposeExtremesTest, SumBeyondInt64) {
  ExpectExactOrUndefined(
      "(d0, d1)[s0] -> ((d0 mod 6 + (d0 + 2305843009213693952)) ceildiv 7, "
      "d0, d0)\ndomain:\nd0 in [9223372036854775805, 9223372036854775807]\n"
      "d1 in [-2, 2]\ns0 in [4, 4]",
      "(d0, d1, d2)[s0] -> (d0)\ndomain:\n"
      "d0 in [1647030720866924252, 1647030720866924252]\n"
      "d1 in [9223372036854775805, 9223372036854775807]\n"
      "d2 in [9223372036854775805, 9223372036854775807]\ns0 in [0, 0]");
}

// F20 (T1_*): -(d0 + (s0 + 1)) + s0 is -d0 - 1, which maps d0 = INT64_MIN to
// INT64_MAX, inside the second map's domain; that point stays in the
// composed domain although -d0 alone leaves int64 there.
TEST_F(ComposeExtremesTest, NegatedInt64MinReachesInt64Max) {
  EXPECT_GE(ExpectExactOrUndefined(
                "(d0)[s0] -> (-(d0 + (s0 + 1)) + s0)\ndomain:\n"
                "d0 in [-9223372036854775808, -9223372036854775801]\n"
                "s0 in [1, 1]",
                "(d0) -> ((d0 + 11) * 4611686018427387904)\ndomain:\n"
                "d0 in [9223372036854775800, 9223372036854775807]"),
            1);
}

// A map whose expressions name a dim or symbol beyond its counts is invalid
// (a composition bug once produced one and Verify accepted it).
TEST_F(ComposeExtremesTest, VerifyRejectsVariablesBeyondTheCounts) {
  mlir::AffineExpr d1 = mlir::getAffineDimExpr(1, &context_);
  mlir::AffineExpr s2 = mlir::getAffineSymbolExpr(2, &context_);
  IndexingMap dim_map(mlir::AffineMap::get(1, 0, {d1}, &context_),
                      {Interval{0, 3}}, {}, {});
  EXPECT_FALSE(dim_map.Verify().ok());
  IndexingMap symbol_map(mlir::AffineMap::get(1, 1, {s2 * 2}, &context_),
                         {Interval{0, 3}}, {Interval{0, 1}}, {});
  EXPECT_FALSE(symbol_map.Verify().ok());
}

}  // namespace
}  // namespace xla_index
