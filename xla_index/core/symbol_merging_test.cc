// MergeSymbolCombinations must keep the relation: checked by brute force
// (exact::Enumerate) on the map before and after, and every merged symbol
// value must split back (SplitMergedSymbols) into original values that
// give the same results.

#include "xla_index/core/symbol_merging.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/box_points.h"
#include "xla_index/core/exact_affine_eval.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

class SymbolMergingTest : public ::testing::Test {
 protected:
  IndexingMap Parse(const std::string& text) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context_);
    EXPECT_TRUE(map.ok()) << map.status();
    return *map;
  }

  /// The merged map relates the same pairs, and each of its points splits
  /// back into a point of the original with the same results.
  void ExpectSameRelation(const IndexingMap& map, const MergedSymbols& m) {
    exact::Enumeration before = exact::Enumerate(map, 1 << 16);
    exact::Enumeration after = exact::Enumerate(m.map, 1 << 16);
    ASSERT_EQ(before.kind, exact::Enumeration::kDone);
    ASSERT_EQ(after.kind, exact::Enumeration::kDone);
    EXPECT_EQ(before.relation, after.relation)
        << ToString(map) << "\n"
        << ToString(m.map) << "\n"
        << exact::FirstDifference(before.relation, after.relation);
    std::vector<Interval> box = m.map.GetDimBounds();
    for (Interval s : m.map.GetSymbolBounds()) box.push_back(s);
    const size_t num_dims = map.GetDimensionCount();
    ForEachBoxPoint(box, 1 << 16, [&](const std::vector<int64_t>& point) {
      std::vector<int64_t> dims(point.begin(), point.begin() + num_dims);
      std::vector<int64_t> symbols(point.begin() + num_dims, point.end());
      exact::PointValue merged = exact::EvaluateAt(m.map, dims, symbols);
      if (!merged.holds) return;
      std::vector<int64_t> split = SplitMergedSymbols(m.merges, symbols);
      for (size_t i = 0; i < split.size(); ++i) {
        ASSERT_TRUE(map.GetSymbolBound(i).Contains(split[i]));
      }
      exact::PointValue original = exact::EvaluateAt(map, dims, split);
      ASSERT_TRUE(original.holds);
      EXPECT_EQ(original.results, merged.results);
    });
  }

  mlir::MLIRContext context_;
};

TEST_F(SymbolMergingTest, SumOfSymbolsBecomesOne) {
  IndexingMap map = Parse(
      "(d0)[s0, s1, s2] -> (d0 + s0 + s1 + s2), domain: d0 in [0, 3], "
      "s0 in [0, 1], s1 in [2, 4], s2 in [-1, 1]");
  MergedSymbols m = MergeSymbolCombinations(map);
  EXPECT_EQ(m.merges.size(), 2u);
  ExpectSameRelation(map, m);
}

TEST_F(SymbolMergingTest, MixedRadixUnderModAndConstraint) {
  IndexingMap map = Parse(
      "()[s0, s1, s2] -> ((s0 + s1 * 3 + s2 * 12) mod 7, s0 + s1 * 3), "
      "domain: s0 in [0, 2], s1 in [0, 3], s2 in [0, 4], "
      "(s0 + s1 * 3) floordiv 5 in [0, 1]");
  MergedSymbols m = MergeSymbolCombinations(map);
  // s1 * 3 joins s0 everywhere (k = 3 = |s0|); s2 only in the mod context.
  EXPECT_EQ(m.merges.size(), 1u);
  ExpectSameRelation(map, m);
}

TEST_F(SymbolMergingTest, GapsAreNotMerged) {
  // s0 + 3 * s1 with s0 in [0, 1] skips 2, 5, ...: k = 3 > |s0| = 2.
  IndexingMap map =
      Parse("()[s0, s1] -> (s0 + s1 * 3), domain: s0 in [0, 1], s1 in [0, 3]");
  MergedSymbols m = MergeSymbolCombinations(map);
  EXPECT_TRUE(m.merges.empty());
  ExpectSameRelation(map, m);
}

TEST_F(SymbolMergingTest, SymbolsUnderModShrinkToOnePeriod) {
  // 4 * s0 mod 10 depends on s0 mod 5; s1 is unused.
  IndexingMap map = Parse(
      "(d0)[s0, s1] -> ((d0 + s0 * 4) mod 10), domain: d0 in [0, 3], "
      "s0 in [3, 40], s1 in [0, 9]");
  MergedSymbols m = MergeSymbolCombinations(map);
  EXPECT_EQ(m.map.GetSymbolBound(0), (Interval{3, 7}));
  EXPECT_EQ(m.map.GetSymbolBound(1), (Interval{0, 0}));
  ExpectSameRelation(map, m);
}

TEST_F(SymbolMergingTest, SymbolsOutsideModAreKept) {
  IndexingMap map =
      Parse("()[s0] -> (s0 mod 4, s0 floordiv 4), domain: s0 in [0, 40]");
  MergedSymbols m = MergeSymbolCombinations(map);
  EXPECT_EQ(m.map.GetSymbolBound(0), (Interval{0, 40}));
  ExpectSameRelation(map, m);
}

}  // namespace
}  // namespace xla_index
