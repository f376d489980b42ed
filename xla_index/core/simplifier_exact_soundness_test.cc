// Soundness of the simplifier on maps whose symbol spaces are far too large to
// enumerate (10^9 values and more per variable): the simplified map must
// relate exactly the same (domain point, result) pairs as the original,
// decided by the exact Presburger relations of both
// (xla_index/core/presburger_relation.h). The brute-force tests of
// indexing_map_simplify_test.cc cannot reach these maps.
//
// The maps have the shapes of XLA's simplifier tests (reshape and bitcast
// index arithmetic, tiling by floordiv/mod, modulo constraints, nested
// divisions), with ranges widened to 10^9..2^40 and coefficients up to 2^62.
// Each test also checks that the oracle sees a one-off change of the
// simplified map at that scale, so a pass is not a vacuous one.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/box_points.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/core/interval.h"
#include "xla_index/core/presburger_relation.h"

namespace xla_index {
namespace {

struct LargeMapCase {
  const char* name;
  const char* text;
};

// Every map has at least 2^32 points in the box of its dims and symbols.
const LargeMapCase kCases[] = {
    {"reshape_linear_index_split",
     "(d0)[s0] -> ((s0 * 64 + d0) floordiv 64, (s0 * 64 + d0) mod 64)\n"
     "domain:\nd0 in [0, 63]\ns0 in [0, 999999999]"},
    {"tile_and_reassemble",
     "(d0, d1) -> ((d0 floordiv 128) * 128 + d0 mod 128 + d1 * 1000000000)\n"
     "domain:\nd0 in [0, 999999999]\nd1 in [0, 1023]"},
    {"mod_of_multiple_is_zero",
     "(d0)[s0, s1] -> ((s0 * 12 + s1 * 36) mod 6, (d0 * 4 + s0 * 8) mod 4)\n"
     "domain:\nd0 in [0, 999999999]\ns0 in [-1099511627776, "
     "1099511627776]\ns1 in [0, 999999999]"},
    {"floordiv_of_sum_with_small_remainder",
     "(d0)[s0] -> ((s0 * 256 + d0) floordiv 256, (s0 * 256 + d0 + 3) floordiv "
     "4)\ndomain:\nd0 in [0, 252]\ns0 in [0, 999999999]"},
    {"nested_divisions_merge",
     "(d0)[s0, s1] -> ((s0 * 2 + s1 floordiv 64) floordiv 3, d0)\n"
     "domain:\nd0 in [0, 9]\ns0 in [0, 999999999]\ns1 in [0, 127]"},
    {"bitcast_chain_pieces",
     "(d0, d1) -> (((d1 * 2 + d0 floordiv 64) mod 3) * 256 + (d0 mod 64) * 4 "
     "+ ((d1 * 128 + d0) floordiv 192) * 768)\n"
     "domain:\nd0 in [0, 127]\nd1 in [0, 999999999]"},
    {"mod_constraints_merge",
     "(d0)[s0, s1] -> (d0 + s0, s1)\n"
     "domain:\nd0 in [0, 999999999]\ns0 in [-1099511627776, 1099511627776]\n"
     "s1 in [0, 999999999]\ns0 mod 2 in [0, 0]\ns0 mod 3 in [0, 0]\n"
     "s1 mod 5 in [1, 1]"},
    {"constraint_narrows_symbol",
     "(d0)[s0] -> (d0 * 3 + s0)\n"
     "domain:\nd0 in [0, 999999999]\ns0 in [0, 999999999]\n"
     "s0 * 4 + d0 in [0, 400]"},
    {"coefficient_2_62",
     "(d0)[s0] -> ((s0 * 4611686018427387904) floordiv 2305843009213693952, "
     "s0 * 4611686018427387904 + d0)\n"
     "domain:\nd0 in [0, 1099511627776]\ns0 in [-1, 1]"},
    {"full_int64_floordiv",
     "(d0) -> (d0 floordiv 2, d0 mod 2)\n"
     "domain:\nd0 in [-9223372036854775808, 9223372036854775807]"},
    {"large_offsets",
     "(d0)[s0] -> ((d0 + 4611686018427387904) floordiv 4611686018427387904, "
     "s0 - 4611686018427387904)\n"
     "domain:\nd0 in [0, 4611686018427387903]\ns0 in [0, 999999999]"},
    {"runtime_offset",
     "(d0)[s0] -> (d0 + s0 * 4)\n"
     "domain:\nd0 in [0, 999999999]\n"
     "s0 in [0, 1000]\n  hlo: of = s32[] parameter(1)\n  (d0) -> ()"},
};

// The number of points of the box of dims and symbols, INT64_MAX when it
// does not fit.
int64_t BoxPoints(const IndexingMap& map) {
  std::vector<Interval> box = map.GetDimBounds();
  for (Interval b : map.GetSymbolBounds()) box.push_back(b);
  return CountBoxPoints(box).value_or(Interval::kMax);
}

// `map` with `delta` added to its first result.
IndexingMap WithFirstResultShifted(const IndexingMap& map, int64_t delta) {
  mlir::AffineMap affine = map.GetAffineMap();
  std::vector<mlir::AffineExpr> results(affine.getResults().begin(),
                                        affine.getResults().end());
  results[0] = results[0] + delta;
  return IndexingMap(
      mlir::AffineMap::get(affine.getNumDims(), affine.getNumSymbols(), results,
                           affine.getContext()),
      map.GetDimBounds(), map.GetRangeVarBounds(), map.GetRuntimeVars(),
      map.GetConstraints());
}

class SimplifierExactSoundnessTest
    : public testing::TestWithParam<LargeMapCase> {
 protected:
  mlir::MLIRContext context_;
};

TEST_P(SimplifierExactSoundnessTest, SimplifiedMapRelatesTheSamePairs) {
  absl::StatusOr<IndexingMap> original =
      ParseIndexingMap(GetParam().text, &context_);
  ASSERT_TRUE(original.ok()) << original.status();
  ASSERT_TRUE(original->Verify().ok());
  // Out of reach of brute force.
  EXPECT_GE(BoxPoints(*original), int64_t{1} << 32);

  IndexingMap simplified = *original;
  simplified.Simplify();
  absl::StatusOr<std::optional<MapDifference>> diff =
      FindDifference(*original, simplified);
  ASSERT_TRUE(diff.ok()) << diff.status();
  EXPECT_FALSE(diff->has_value())
      << "only the " << ((*diff)->in_map == 0 ? "original" : "simplified")
      << " map relates the pair at dims ("
      << ((*diff)->point.dims.empty() ? 0 : (*diff)->point.dims[0])
      << ", ...)\n--- original:\n"
      << ToString(*original) << "\n--- simplified:\n"
      << ToString(simplified);

  IndexingMap rescaled = simplified;
  rescaled.RescaleSymbols();
  rescaled.Simplify();
  rescaled.RemoveUnusedSymbols();
  absl::StatusOr<bool> equal = AreExactlyEqual(*original, rescaled);
  ASSERT_TRUE(equal.ok()) << equal.status();
  EXPECT_TRUE(*equal) << ToString(rescaled);

  // The check can fail: moving one result by one is seen, with a witness
  // that the two maps evaluate differently at.
  if (simplified.IsKnownEmpty()) return;
  IndexingMap mutant = WithFirstResultShifted(simplified, 1);
  absl::StatusOr<std::optional<MapDifference>> seen =
      FindDifference(*original, mutant);
  ASSERT_TRUE(seen.ok()) << seen.status();
  EXPECT_TRUE(seen->has_value()) << ToString(mutant);
}

INSTANTIATE_TEST_SUITE_P(LargeMaps, SimplifierExactSoundnessTest,
                         testing::ValuesIn(kCases),
                         [](const testing::TestParamInfo<LargeMapCase>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace xla_index
