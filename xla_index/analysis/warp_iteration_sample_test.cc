#include "xla_index/analysis/warp_iteration_sample.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

class WarpIterationSampleTest : public ::testing::Test {
 protected:
  IndexingMap Parse(const std::string& text) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context_);
    EXPECT_TRUE(map.ok()) << map.status() << "\n" << text;
    return map.ok() ? *map : IndexingMap::Undefined();
  }
  mlir::MLIRContext context_;
};

// A thread map's domain: thread x in [0, threads - 1], the other launch
// dimensions 0; s0 the loop variable over [0, extent - 1], s1 a single-value
// unroll element; then `constraints` (", e in [a, b]" each).
std::string ThreadMap(const std::string& expr, int64_t threads, int64_t extent,
                      const std::string& constraints = "") {
  return absl::StrCat(
      "(d0, d1, d2, d3, d4, d5)[s0, s1] -> (", expr, "), domain: d0 in [0, ",
      threads - 1,
      "], d1 in [0, 0], d2 in [0, 0], d3 in [0, 0], d4 in [0, 0], "
      "d5 in [0, 0], s0 in [0, ",
      extent - 1, "], s1 in [0, 0]", constraints);
}

// Independent truth: every thread and every iteration evaluated; the
// distinct offsets' maximal runs (length -> count) and span.
struct Truth {
  std::map<int64_t, int64_t> run_lengths;
  Interval span{0, -1};
};
Truth BruteForce(const IndexingMap& map, int64_t first, int64_t last) {
  std::vector<int64_t> offsets;
  const Interval range = map.GetSymbolBound(0);
  for (int64_t t = first; t <= last; ++t) {
    for (int64_t s = range.lower; s <= range.upper; ++s) {
      const std::vector<int64_t> dims = {t, 0, 0, 0, 0, 0};
      const std::vector<int64_t> symbols = {s, 0};
      if (!map.ConstraintsSatisfied(dims, symbols)) continue;
      std::optional<std::vector<int64_t>> r = map.Evaluate(dims, symbols);
      if (r) offsets.push_back((*r)[0]);
    }
  }
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  Truth truth;
  if (offsets.empty()) return truth;
  truth.span = {offsets.front(), offsets.back()};
  int64_t run = 1;
  for (size_t i = 1; i <= offsets.size(); ++i) {
    if (i < offsets.size() && offsets[i] == offsets[i - 1] + 1) {
      ++run;
      continue;
    }
    ++truth.run_lengths[run];
    run = 1;
  }
  return truth;
}

void ExpectMatches(const WarpIterationSample& sample, const Truth& truth,
                   const std::string& what) {
  EXPECT_EQ(sample.run_lengths, truth.run_lengths) << what;
  EXPECT_EQ(sample.span, truth.span) << what;
}

TEST_F(WarpIterationSampleTest, ShiftsFollowTheRules) {
  // f(s0 + P) - f(s0) for f = (d0 + s0 * 8) mod 1964: needs 1964 | 8P,
  // so P = 491 and the shift is 0; floordiv 1964 shifts by 8P / 1964 = 2.
  IndexingMap map = Parse(ThreadMap("(d0 + s0 * 8) mod 1964", 8, 300000));
  mlir::AffineExpr mod = map.GetAffineMap().getResult(0);
  int64_t needed = 0;
  EXPECT_FALSE(ShiftOverPeriod(mod, 0, 1, &needed).has_value());
  EXPECT_EQ(needed, 491);
  EXPECT_EQ(ShiftOverPeriod(mod, 0, 491), 0);
  IndexingMap div = Parse(ThreadMap("(d0 + s0 * 8) floordiv 1964", 8, 9000));
  EXPECT_EQ(ShiftOverPeriod(div.GetAffineMap().getResult(0), 0, 491), 2);
  // Not in the variable: shift 0 for any period.
  IndexingMap flat = Parse(ThreadMap("d0 * 3 + 7", 8, 9000));
  EXPECT_EQ(ShiftOverPeriod(flat.GetAffineMap().getResult(0), 0, 5), 0);
}

TEST_F(WarpIterationSampleTest, PeriodicReadVisitsOnePeriod) {
  // Offsets that repeat every 491 iterations (8 x 491 = 2 x 1964): the walk
  // costs 8 x 491 evaluations whatever the extent, and its runs are the
  // brute force's.
  const std::string row = "((d0 + s0 * 8) mod 1964)";
  for (int64_t extent : {40000, 314731}) {
    IndexingMap map = Parse(
        ThreadMap(absl::StrCat(row, " floordiv 13 + (", row, " mod 13) * 160"),
                  8, extent));
    WarpIterationSample sample =
        SampleWarpOverIterations(map, 0, 0, 7, 0, int64_t{1} << 20);
    ASSERT_TRUE(sample.decided);
    EXPECT_EQ(sample.period, 491);
    EXPECT_EQ(sample.points_evaluated, 8 * 491);
    // The brute force walks the smaller extent only (test time).
    if (extent == 40000) ExpectMatches(sample, BruteForce(map, 0, 7), "");
  }
}

TEST_F(WarpIterationSampleTest, UnitStrideRowIsOneInterval) {
  // A row reduction: offset d0 * 100000 + s0, shift 1 per iteration: each
  // thread's 100,000 offsets are one interval from one evaluation.
  IndexingMap map = Parse(ThreadMap("d0 * 100000 + s0", 32, 100000));
  WarpIterationSample sample =
      SampleWarpOverIterations(map, 0, 0, 31, 0, int64_t{1} << 20);
  ASSERT_TRUE(sample.decided);
  EXPECT_EQ(sample.points_evaluated, 32);
  EXPECT_EQ(sample.run_lengths, (std::map<int64_t, int64_t>{{3200000, 1}}));
  EXPECT_EQ(sample.span, (Interval{0, 32 * 100000 - 1}));
}

TEST_F(WarpIterationSampleTest, ConstraintsBoundTheProgression) {
  // The constraint d0 + s0 * 4 in [10, 40001] moves with s0 (shift 4P):
  // each thread's iterations are an interval of k, cut at both ends.
  IndexingMap map =
      Parse(ThreadMap("d0 + s0 * 4", 4, 20000, ", d0 + s0 * 4 in [10, 40001]"));
  WarpIterationSample sample =
      SampleWarpOverIterations(map, 0, 0, 3, 0, int64_t{1} << 20);
  ASSERT_TRUE(sample.decided);
  ExpectMatches(sample, BruteForce(map, 0, 3), "");
  // One evaluation per thread, one stretch of residues per change.
  EXPECT_LE(sample.points_evaluated, 4 + 4 * 8);
}

TEST_F(WarpIterationSampleTest, StridedProgressionsMergeByResidue) {
  // Offsets s0 * 32 + d0 over 10^6 iterations: each thread's offsets step
  // by 32, and the 32 residues together cover [0, 32 x 10^6) -- one run,
  // counted per residue (32) after one evaluation per thread (32), not by
  // listing 32 million offsets.
  IndexingMap map = Parse(ThreadMap("s0 * 32 + d0", 32, 1000000));
  WarpIterationSample sample =
      SampleWarpOverIterations(map, 0, 0, 31, 0, 100000);
  ASSERT_TRUE(sample.decided);
  EXPECT_EQ(sample.run_lengths, (std::map<int64_t, int64_t>{{32000000, 1}}));
  EXPECT_EQ(sample.points_evaluated, 32 + 32);
  // Threads 0..11 of a step of 16: 10^6 runs of 12 offsets each.
  WarpIterationSample gaps = SampleWarpOverIterations(
      Parse(ThreadMap("s0 * 16 + d0", 12, 1000000)), 0, 0, 11, 0, 100000);
  ASSERT_TRUE(gaps.decided);
  EXPECT_EQ(gaps.run_lengths, (std::map<int64_t, int64_t>{{12, 1000000}}));
}

TEST_F(WarpIterationSampleTest, PastTheBudgetIsNotDecided) {
  // The period of (s0 * 7) mod 1000003 is 1000003, past the extent: the
  // whole extent would be walked, 32 x 900,000 points, so it is refused
  // before any evaluation.
  IndexingMap wide = Parse(ThreadMap("(s0 * 7) mod 1000003", 32, 900000));
  WarpIterationSample refused =
      SampleWarpOverIterations(wide, 0, 0, 31, 0, 100000);
  EXPECT_FALSE(refused.decided);
  EXPECT_EQ(refused.points_evaluated, 0);
}

TEST_F(WarpIterationSampleTest, HugeValuesAreWalkedNotShifted) {
  // s0 * 2^61 would leave the safe range: the period argument is not
  // used, every iteration is evaluated as IndexingMap::Evaluate does.
  IndexingMap map =
      Parse(ThreadMap("(s0 * 2305843009213693952) mod 7 + d0", 4, 50));
  WarpIterationSample sample =
      SampleWarpOverIterations(map, 0, 0, 3, 0, int64_t{1} << 20);
  ASSERT_TRUE(sample.decided);
  EXPECT_EQ(sample.period, 50);
  ExpectMatches(sample, BruteForce(map, 0, 3), "");
}

// A random quasi-affine expression in d0 (thread) and s0 (loop variable).
std::string RandomExpr(std::mt19937_64& rng, int depth) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  if (depth == 0 || pick(0, 3) == 0) {
    return absl::StrCat("(d0 * ", pick(-3, 40), " + s0 * ", pick(-9, 64), " + ",
                        pick(-50, 50), ")");
  }
  const std::string inner = RandomExpr(rng, depth - 1);
  switch (pick(0, 4)) {
    case 0:
      return absl::StrCat("(", inner, " mod ", pick(1, 300), ")");
    case 1:
      return absl::StrCat("(", inner, " floordiv ", pick(1, 300), ")");
    case 2:
      return absl::StrCat("(", inner, " ceildiv ", pick(1, 40), ")");
    case 3:
      return absl::StrCat("(", inner, " * ", pick(-4, 9), ")");
    default:
      return absl::StrCat("(", inner, " + ", RandomExpr(rng, depth - 1), ")");
  }
}

TEST_F(WarpIterationSampleTest, RandomMapsMatchTheWalk) {
  // Independent truth: BruteForceRuns evaluates every (thread, iteration).
  std::mt19937_64 rng(20261129);
  int periodic = 0;
  for (int trial = 0; trial < 200; ++trial) {
    auto pick = [&](int64_t lo, int64_t hi) {
      return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    };
    const int64_t threads = pick(1, 32), extent = pick(1, 1500);
    std::string constraints;
    if (pick(0, 1) == 1) {
      const int64_t lo = pick(-100, 400);
      constraints = absl::StrCat(", ", RandomExpr(rng, 1), " in [", lo, ", ",
                                 lo + pick(0, 5000), "]");
    }
    const std::string text =
        ThreadMap(RandomExpr(rng, 3), threads, extent, constraints);
    IndexingMap map = Parse(text);
    if (map.IsUndefined() || map.IsKnownEmpty()) continue;
    const int64_t first = pick(0, threads - 1);
    WarpIterationSample sample = SampleWarpOverIterations(
        map, 0, first, threads - 1, 0, int64_t{1} << 22);
    ASSERT_TRUE(sample.decided) << text;
    ExpectMatches(sample, BruteForce(map, first, threads - 1), text);
    if (sample.period < extent) ++periodic;
  }
  // The shortcut itself was exercised, not only the plain walk.
  EXPECT_GT(periodic, 30);
}

}  // namespace
}  // namespace xla_index
