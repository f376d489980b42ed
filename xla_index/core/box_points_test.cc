#include "xla_index/core/box_points.h"

#include <cstdint>
#include <optional>
#include <vector>

#include "gtest/gtest.h"

namespace xla_index {
namespace {

TEST(BoxPointsTest, VisitsEveryPointInRowMajorOrder) {
  std::vector<Interval> box = {{1, 2}, {-1, 1}};
  std::vector<std::vector<int64_t>> seen;
  EXPECT_TRUE(ForEachBoxPoint(
      box, 100, [&](const std::vector<int64_t>& p) { seen.push_back(p); }));
  std::vector<std::vector<int64_t>> expected = {{1, -1}, {1, 0}, {1, 1},
                                                {2, -1}, {2, 0}, {2, 1}};
  EXPECT_EQ(seen, expected);
}

TEST(BoxPointsTest, ZeroDimensionalBoxHasOnePoint) {
  int visits = 0;
  EXPECT_TRUE(ForEachBoxPoint({}, 1, [&](const std::vector<int64_t>& p) {
    EXPECT_TRUE(p.empty());
    ++visits;
  }));
  EXPECT_EQ(visits, 1);
  EXPECT_EQ(CountBoxPoints({}), 1);
}

TEST(BoxPointsTest, EmptyBoxVisitsNothingEvenBesideAnUnboundedInterval) {
  std::vector<Interval> box = {Interval::Unbounded(), {3, 2}};
  EXPECT_EQ(CountBoxPoints(box), 0);
  EXPECT_TRUE(ForEachBoxPoint(box, 10, [](const std::vector<int64_t>&) {
    ADD_FAILURE() << "visited a point of an empty box";
  }));
}

TEST(BoxPointsTest, RefusesBoxesOverTheLimitWithoutVisiting) {
  std::vector<Interval> box = {{0, 9}, {0, 9}};
  EXPECT_EQ(CountBoxPoints(box), 100);
  EXPECT_FALSE(ForEachBoxPoint(box, 99, [](const std::vector<int64_t>&) {
    ADD_FAILURE() << "visited a box over the limit";
  }));
  // 2^32 * 2^32 points do not fit in int64.
  std::vector<Interval> huge = {{0, (int64_t{1} << 32) - 1},
                                {0, (int64_t{1} << 32) - 1}};
  EXPECT_EQ(CountBoxPoints(huge), std::nullopt);
  EXPECT_EQ(CountBoxPoints({Interval::Unbounded()}), std::nullopt);
}

TEST(BoxPointsTest, PointsAtTheInt64LimitsDoNotWrap) {
  constexpr int64_t kMax = Interval::kMax;
  std::vector<Interval> box = {{kMax - 1, kMax}};
  std::vector<int64_t> seen;
  EXPECT_TRUE(ForEachBoxPoint(
      box, 10, [&](const std::vector<int64_t>& p) { seen.push_back(p[0]); }));
  EXPECT_EQ(seen, (std::vector<int64_t>{kMax - 1, kMax}));
}

TEST(BoxPointsTest, NextBoxPointStepsInRowMajorOrderAndWraps) {
  const std::vector<Interval> box = {{-1, 0}, {4, 6}};
  std::vector<std::vector<int64_t>> expected;  // the nested loops' order
  for (int64_t i = -1; i <= 0; ++i) {
    for (int64_t j = 4; j <= 6; ++j) expected.push_back({i, j});
  }
  std::vector<std::vector<int64_t>> seen;
  std::vector<int64_t> point = {-1, 4};
  do {
    seen.push_back(point);
  } while (NextBoxPoint(box, point));
  EXPECT_EQ(seen, expected);
  EXPECT_EQ(point, (std::vector<int64_t>{-1, 4}));  // back at the corner
}

TEST(BoxPointsTest, ShapeBoxIsZeroBased) {
  const int64_t sizes[] = {2, 3};
  std::vector<Interval> box = ShapeBox(sizes);
  ASSERT_EQ(box.size(), 2);
  EXPECT_EQ(box[0], (Interval{0, 1}));
  EXPECT_EQ(box[1], (Interval{0, 2}));
}

}  // namespace
}  // namespace xla_index
