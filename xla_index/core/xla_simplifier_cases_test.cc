// No map of xla_simplifier_cases.h (XLA's simplifier test kinds with other
// sizes) may get less simple than its recorded bound, and each input, its
// simplified map and XLA's form relate the same (dims, results) pairs by
// exact enumeration (exact_affine_eval.h), so a bound can never be met by
// a wrong map and no transcription of XLA's form is trusted unchecked.

#include "xla_index/core/xla_simplifier_cases.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/exact_affine_eval.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

using xla_simplifier_cases::Case;
using xla_simplifier_cases::kCases;

int CountNodes(const IndexingMap& map) {
  if (map.IsKnownEmpty() || map.IsUndefined()) return 0;
  int n = 0;
  auto count = [&](mlir::AffineExpr e) {
    e.walk([&](mlir::AffineExpr) { ++n; });
  };
  for (mlir::AffineExpr e : map.GetAffineMap().getResults()) count(e);
  for (const IndexingConstraint& c : map.GetConstraints()) count(c.expr);
  return n;
}

class XlaSimplifierCasesTest : public ::testing::TestWithParam<Case> {
 protected:
  IndexingMap Parse(const char* text) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context_);
    EXPECT_TRUE(map.ok()) << map.status() << "\n" << text;
    return map.ok() ? *map : IndexingMap::Undefined("unparsed");
  }
  static exact::Relation RelationOf(const IndexingMap& map) {
    exact::Enumeration e = exact::Enumerate(map, 1 << 20);
    EXPECT_EQ(e.kind, exact::Enumeration::kDone) << ToString(map);
    return e.relation;
  }
  mlir::MLIRContext context_;
};

TEST_P(XlaSimplifierCasesTest, NoLessSimpleThanRecordedAndSameRelation) {
  const Case& c = GetParam();
  const IndexingMap input = Parse(c.input);
  const IndexingMap simplest = Parse(c.simplest);
  IndexingMap simplified = input;
  simplified.Simplify();

  // The recorded bound is never looser than XLA's form.
  EXPECT_LE(c.max_nodes, CountNodes(simplest)) << c.simplest;
  EXPECT_LE(CountNodes(simplified), c.max_nodes) << ToString(simplified);

  // Independent truth: the three maps relate the same pairs.
  const exact::Relation expected = RelationOf(input);
  EXPECT_EQ(exact::FirstDifference(expected, RelationOf(simplified)), "")
      << ToString(simplified);
  EXPECT_EQ(exact::FirstDifference(expected, RelationOf(simplest)), "")
      << "the transcription of XLA's form is wrong: " << c.simplest;

  // A second Simplify leaves the map as it is (XLA's SumOrderRegression
  // tests).
  IndexingMap again = simplified;
  again.Simplify();
  EXPECT_EQ(ToString(again), ToString(simplified));
}

// The two maps of XLA's tests this simplifier once left less simple than
// XLA, pinned by text. Four digits of one index recombine even though
// mod-of-floordiv-sum first writes the middle digits over a merged
// numerator ((d0 * 96 + d1) floordiv 32), whose quotient by the widest
// digit's divisor takes three recursive rewrites to become d0 floordiv 1280
// (XLA: AffineMapSimplification_SimplifyBitcastAndBack).
TEST_F(XlaSimplifierCasesTest, FourDigitsOfOneIndexRecombine) {
  IndexingMap map = Parse(
      "(d0, d1) -> ((d0 floordiv 1280) * 491520 + (((d0 * 3 + d1 floordiv 32) "
      "floordiv 5) mod 768) * 640 + ((d0 * 3 + d1 floordiv 32) mod 5) * 128 + "
      "(d1 mod 32) * 4)\ndomain:\nd0 in [0, 2559]\nd1 in [0, 95]");
  EXPECT_TRUE(map.Simplify());
  EXPECT_EQ(ToString(map),
            "(d0, d1) -> (d0 * 384 + d1 * 4)\ndomain:\nd0 in [0, 2559]\n"
            "d1 in [0, 95]");
}

// A floordiv by a negative constant of a floordiv stays as written: the
// rules' (-s0 + 2) floordiv 12 has the same values and more nodes (XLA:
// AffineMapSimplification_NegativeDiv).
TEST_F(XlaSimplifierCasesTest, NegativeDivisorOfFloorDivKeepsItsForm) {
  IndexingMap map = Parse(
      "(d0)[s0] -> ((s0 floordiv 3) floordiv -4)\ndomain:\n"
      "d0 in [0, 1]\ns0 in [-50, 700]");
  EXPECT_FALSE(map.Simplify());
  EXPECT_EQ(ToString(map),
            "(d0)[s0] -> ((s0 floordiv 3) floordiv -4)\ndomain:\n"
            "d0 in [0, 1]\ns0 in [-50, 700]");
}

// A mod of the difference of a ceildiv and a floordiv by one divisor: the
// merged digit's numerator goes through the sum rules (d0 mod 7 + 6, in
// [6, 12]), so the digit is in [0, 1] and the mod leaves in one Simplify;
// with the plain sum's looser bounds it stayed until a second Simplify
// (found by the simplifier fuzzer as a non-idempotent Simplify).
TEST_F(XlaSimplifierCasesTest, ModOfMergedDigitLeavesInOnePass) {
  const IndexingMap input = Parse(
      "(d0) -> ((d0 ceildiv 7 - d0 floordiv 7) mod 4)\ndomain:\n"
      "d0 in [3, 20]");
  IndexingMap map = input;
  map.Simplify();
  EXPECT_EQ(ToString(map),
            "(d0) -> ((d0 mod 7 + 6) floordiv 7)\ndomain:\nd0 in [3, 20]");
  EXPECT_EQ(exact::FirstDifference(RelationOf(input), RelationOf(map)), "");
  IndexingMap again = map;
  EXPECT_FALSE(again.Simplify());
}

INSTANTIATE_TEST_SUITE_P(Cases, XlaSimplifierCasesTest,
                         ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace xla_index
