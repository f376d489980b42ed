#include "base/checked_arithmetic.h"

#include <cstdint>
#include <limits>
#include <optional>

#include "gtest/gtest.h"

namespace xla_index {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(CheckedArithmeticTest, ExactResultsWhenTheyFit) {
  EXPECT_EQ(CheckedAdd(kMax - 1, 1), kMax);
  EXPECT_EQ(CheckedSub(kMin + 1, 1), kMin);
  EXPECT_EQ(CheckedMul(int64_t{1} << 31, int64_t{1} << 31), int64_t{1} << 62);
  EXPECT_EQ(CheckedNeg(kMax), kMin + 1);
  const int64_t sizes[] = {4, 8, 16};
  EXPECT_EQ(CheckedProduct(sizes), 512);
  EXPECT_EQ(CheckedProduct({}), 1);
}

TEST(CheckedArithmeticTest, NulloptWhenTheResultDoesNotFit) {
  EXPECT_EQ(CheckedAdd(kMax, 1), std::nullopt);
  EXPECT_EQ(CheckedSub(kMin, 1), std::nullopt);
  EXPECT_EQ(CheckedMul(int64_t{1} << 62, 2), std::nullopt);
  EXPECT_EQ(CheckedMul(kMin, -1), std::nullopt);
  EXPECT_EQ(CheckedNeg(kMin), std::nullopt);
  // 2^62 * 2 overflows before the zero factor is reached.
  const int64_t sizes[] = {int64_t{1} << 62, 2, 0};
  EXPECT_EQ(CheckedProduct(sizes), std::nullopt);
}

TEST(CheckedArithmeticTest, SaturatesAtTheLimits) {
  EXPECT_EQ(SaturatingAdd(kMax, 1), kMax);
  EXPECT_EQ(SaturatingAdd(kMin, -1), kMin);
  EXPECT_EQ(SaturatingSub(kMin, 1), kMin);
  EXPECT_EQ(SaturatingSub(kMax, -1), kMax);
  EXPECT_EQ(SaturatingMul(kMax, -2), kMin);
  EXPECT_EQ(SaturatingMul(kMin, -1), kMax);
  EXPECT_EQ(SaturatingNeg(kMin), kMax);
  EXPECT_EQ(SaturatingAdd(3, 4), 7);
}

TEST(CheckedArithmeticTest, FloorRoundingAsMlirAffine) {
  EXPECT_EQ(FloorDiv(7, 2), 3);
  EXPECT_EQ(FloorDiv(-7, 2), -4);
  EXPECT_EQ(FloorDiv(7, -2), -4);
  EXPECT_EQ(FloorDiv(-7, -2), 3);
  EXPECT_EQ(CeilDiv(7, 2), 4);
  EXPECT_EQ(CeilDiv(-7, 2), -3);
  EXPECT_EQ(FloorMod(-7, 3), 2);
  EXPECT_EQ(FloorMod(7, -3), -2);
  EXPECT_EQ(FloorDiv(kMin, -1), kMax);
  EXPECT_EQ(FloorMod(kMin, -1), 0);
}

TEST(CheckedArithmeticTest, RoundUpWithoutWrapping) {
  EXPECT_EQ(CeilOfRatio(kMax, 2), int64_t{1} << 62);
  EXPECT_EQ(CheckedRoundUpTo(5, 4), 8);
  EXPECT_EQ(CheckedRoundUpTo(kMax, 2), std::nullopt);
}

}  // namespace
}  // namespace xla_index
