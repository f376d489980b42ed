#include "xla_index/core/interval.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "absl/hash/hash.h"
#include "gtest/gtest.h"

namespace xla_index {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(IntervalTest, Predicates) {
  Interval a{2, 5};
  EXPECT_TRUE(a.IsFeasible());
  EXPECT_FALSE(a.IsEmpty());
  EXPECT_FALSE(a.IsPoint());
  EXPECT_TRUE(Interval::Point(3).IsPoint());
  EXPECT_TRUE((Interval{3, 2}).IsEmpty());
  EXPECT_TRUE(a.Contains(2));
  EXPECT_TRUE(a.Contains(5));
  EXPECT_FALSE(a.Contains(6));
  EXPECT_TRUE(a.Contains(Interval{3, 4}));
  EXPECT_FALSE(a.Contains(Interval{3, 6}));
  EXPECT_TRUE(a.Contains(Interval{9, 1}));  // The empty set.
  EXPECT_EQ(a.NumElements(), 4);
  EXPECT_EQ((Interval{1, 0}).NumElements(), 0);
  EXPECT_EQ(Interval::Unbounded().NumElements(), kMax);
  EXPECT_EQ(a.Intersect({4, 9}), (Interval{4, 5}));
  EXPECT_TRUE(a.Intersect({6, 9}).IsEmpty());
  EXPECT_EQ(a.Union({7, 9}), (Interval{2, 9}));
  EXPECT_EQ(a.Union({1, 0}), a);
  EXPECT_EQ(a.ToString(), "[2, 5]");
  EXPECT_EQ(absl::Hash<Interval>{}(a), absl::Hash<Interval>{}(Interval{2, 5}));
}

TEST(IntervalTest, ScalarHelpersRoundLikeMlir) {
  EXPECT_EQ(FloorDiv(-7, 2), -4);
  EXPECT_EQ(FloorDiv(7, -2), -4);
  EXPECT_EQ(FloorDiv(-8, 2), -4);
  EXPECT_EQ(CeilDiv(-7, 2), -3);
  EXPECT_EQ(CeilDiv(7, 2), 4);
  EXPECT_EQ(FloorMod(-7, 3), 2);
  EXPECT_EQ(FloorMod(7, 3), 1);
  EXPECT_EQ(FloorDiv(kMin, -1), kMax);  // Saturates instead of trapping.
}

TEST(IntervalTest, ArithmeticSaturates) {
  Interval big{kMax - 1, kMax};
  EXPECT_EQ(big + Interval::Point(5), Interval::Point(kMax));
  EXPECT_EQ((Interval{kMin, 0}) - Interval::Point(1), (Interval{kMin, -1}));
  EXPECT_EQ(-(Interval{kMin, 0}), (Interval{0, kMax}));
  EXPECT_EQ(big * (Interval{-2, 2}), (Interval{kMin, kMax}));
  EXPECT_EQ(SaturatingMul(kMax, -1), -kMax);
  EXPECT_EQ(SaturatingMul(kMin, -1), kMax);
  EXPECT_EQ(SaturatingAdd(kMin, -1), kMin);
  EXPECT_EQ(SaturatingSub(kMax, -1), kMax);
  EXPECT_EQ(FloorDiv(Interval{0, 9}, (Interval{-1, 1})), Interval::Unbounded());
  EXPECT_EQ(Mod(Interval{0, 9}, (Interval{0, 3})), Interval::Unbounded());
}

// Interval arithmetic contains every exact result, and is tight where the
// result is a single period or monotone.
TEST(IntervalTest, OperationsContainEveryExactResultBruteForce) {
  for (int64_t alo = -6; alo <= 6; ++alo) {
    for (int64_t ahi = alo; ahi <= alo + 7; ++ahi) {
      for (int64_t blo = -4; blo <= 4; ++blo) {
        for (int64_t bhi = blo; bhi <= blo + 4; ++bhi) {
          Interval a{alo, ahi}, b{blo, bhi};
          int64_t sum_lo = kMax, sum_hi = kMin, mul_lo = kMax, mul_hi = kMin;
          int64_t div_lo = kMax, div_hi = kMin, cdiv_lo = kMax, cdiv_hi = kMin;
          int64_t mod_lo = kMax, mod_hi = kMin;
          for (int64_t x = alo; x <= ahi; ++x) {
            for (int64_t y = blo; y <= bhi; ++y) {
              EXPECT_TRUE((a + b).Contains(x + y));
              EXPECT_TRUE((a - b).Contains(x - y));
              EXPECT_TRUE((a * b).Contains(x * y));
              sum_lo = std::min(sum_lo, x + y);
              sum_hi = std::max(sum_hi, x + y);
              mul_lo = std::min(mul_lo, x * y);
              mul_hi = std::max(mul_hi, x * y);
              if (y != 0) {
                EXPECT_TRUE(FloorDiv(a, b).Contains(FloorDiv(x, y)));
                EXPECT_TRUE(CeilDiv(a, b).Contains(CeilDiv(x, y)));
                div_lo = std::min(div_lo, FloorDiv(x, y));
                div_hi = std::max(div_hi, FloorDiv(x, y));
                cdiv_lo = std::min(cdiv_lo, CeilDiv(x, y));
                cdiv_hi = std::max(cdiv_hi, CeilDiv(x, y));
              }
              if (y >= 1) {
                EXPECT_TRUE(Mod(a, b).Contains(FloorMod(x, y)));
                mod_lo = std::min(mod_lo, FloorMod(x, y));
                mod_hi = std::max(mod_hi, FloorMod(x, y));
              }
            }
          }
          EXPECT_EQ(a + b, (Interval{sum_lo, sum_hi}));
          EXPECT_EQ(a * b, (Interval{mul_lo, mul_hi}));
          if (!b.Contains(0)) {
            EXPECT_EQ(FloorDiv(a, b), (Interval{div_lo, div_hi}));
            EXPECT_EQ(CeilDiv(a, b), (Interval{cdiv_lo, cdiv_hi}));
          }
          if (b.IsPoint() && blo >= 1 &&
              FloorDiv(alo, blo) == FloorDiv(ahi, blo)) {
            EXPECT_EQ(Mod(a, b), (Interval{mod_lo, mod_hi}));
          }
        }
      }
    }
  }
}

TEST(IntervalTest, ThreeValuedComparisons) {
  Interval low{0, 3}, high{5, 9}, mid{3, 6};
  EXPECT_EQ(IsLess(low, high), true);
  EXPECT_EQ(IsLess(high, low), false);
  EXPECT_EQ(IsLess(low, mid), std::nullopt);
  EXPECT_EQ(IsLessEqual(low, mid), true);  // 3 <= 3.
  EXPECT_EQ(IsLessEqual(mid, low), std::nullopt);
  EXPECT_EQ(IsLessEqual(Interval{0, 3}, Interval{3, 4}), true);
  EXPECT_EQ(IsGreater(high, low), true);
  EXPECT_EQ(IsGreaterEqual(mid, low), true);
  EXPECT_EQ(IsGreaterEqual(high, mid), std::nullopt);
  EXPECT_EQ(IsGreaterEqual(Interval{6, 9}, mid), true);
  EXPECT_EQ(IsEqual(Interval::Point(4), Interval::Point(4)), true);
  EXPECT_EQ(IsEqual(low, high), false);
  EXPECT_EQ(IsEqual(low, mid), std::nullopt);
  EXPECT_EQ(IsNotEqual(low, high), true);
  EXPECT_EQ(IsNotEqual(Interval::Point(4), Interval::Point(4)), false);
}

// Issue #18: FloorDiv(Interval, 0) divided by zero, and a negative constant
// divisor gave an inverted (empty) interval.
TEST(IntervalTest, ConstantDivisorsBelowOne) {
  EXPECT_EQ(FloorDiv(Interval{-5, 7}, int64_t{0}), Interval::Unbounded());
  EXPECT_EQ(Mod(Interval{-5, 7}, int64_t{0}), Interval::Unbounded());
  for (int64_t k : {-1, -2, -3}) {
    Interval q = FloorDiv(Interval{-5, 7}, k);
    for (int64_t x = -5; x <= 7; ++x) {
      EXPECT_TRUE(q.Contains(FloorDiv(x, k))) << x << " floordiv " << k;
    }
    EXPECT_EQ(Mod(Interval{-5, 7}, k), Interval::Unbounded());
  }
}

}  // namespace
}  // namespace xla_index
