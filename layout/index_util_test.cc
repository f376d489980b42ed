#include "layout/index_util.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// XLA's shapes-and-layout documentation, "Minor-to-major dimension ordering":
// the [2 x 3] array
//   a b c
//   d e f
// is stored "a d b e c f" under {0, 1} and "a b c d e f" under {1, 0}.
std::string MemoryOrder(std::vector<int64_t> minor_to_major) {
  const std::vector<int64_t> dims = {2, 3};
  const char letters[2][3] = {{'a', 'b', 'c'}, {'d', 'e', 'f'}};
  std::string memory(6, '?');
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      memory[MultidimensionalIndexToLinearIndex(dims, minor_to_major, {i, j})] =
          letters[i][j];
    }
  }
  return memory;
}

TEST(IndexUtilTest, SeedColumnMajor) {
  EXPECT_EQ(MemoryOrder({0, 1}), "adbecf");
}

TEST(IndexUtilTest, SeedRowMajor) { EXPECT_EQ(MemoryOrder({1, 0}), "abcdef"); }

TEST(IndexUtilTest, ScalarIsAtZero) {
  EXPECT_EQ(MultidimensionalIndexToLinearIndex({}, {}, {}), 0);
  EXPECT_THAT(LinearIndexToMultidimensionalIndex({}, {}, 0), ElementsAre());
}

TEST(IndexUtilTest, MajorToMinorDimensions) {
  // bf16[8,1,1280,16384]{3,2,0,1}: dimension 1 is most major.
  EXPECT_THAT(MajorToMinorDimensions({8, 1, 1280, 16384}, {3, 2, 0, 1}),
              ElementsAre(1, 8, 1280, 16384));
}

TEST(IndexUtilTest, RowMajorRoundTrip) {
  const std::vector<int64_t> dims = {3, 4, 5};
  for (int64_t linear = 0; linear < 60; ++linear) {
    std::vector<int64_t> index = RowMajorMultiIndex(dims, linear);
    EXPECT_EQ(RowMajorLinearIndex(dims, index), linear);
  }
  EXPECT_THAT(RowMajorMultiIndex(dims, 23), ElementsAre(1, 0, 3));
}

// Memory order is the order in which an odometer that advances
// minor_to_major[0] fastest visits the elements; the k-th visited element
// must be at linear index k, and the inverse must give it back.
TEST(IndexUtilTest, AgreesWithOdometerForRandomLayouts) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    const int rank = std::uniform_int_distribution<int>(1, 5)(rng);
    std::vector<int64_t> dims(rank);
    int64_t count = 1;
    for (int64_t& size : dims) {
      size = std::uniform_int_distribution<int64_t>(1, 4)(rng);
      count *= size;
    }
    std::vector<int64_t> minor_to_major(rank);
    for (int i = 0; i < rank; ++i) minor_to_major[i] = i;
    std::shuffle(minor_to_major.begin(), minor_to_major.end(), rng);
    ASSERT_TRUE(ValidateMinorToMajor(rank, minor_to_major).ok());

    std::vector<int64_t> index(rank, 0);
    for (int64_t position = 0; position < count; ++position) {
      ASSERT_EQ(MultidimensionalIndexToLinearIndex(dims, minor_to_major, index),
                position);
      ASSERT_EQ(
          LinearIndexToMultidimensionalIndex(dims, minor_to_major, position),
          index);
      for (int64_t dim : minor_to_major) {  // advance the odometer
        if (++index[dim] < dims[dim]) break;
        index[dim] = 0;
      }
    }
  }
}

TEST(IndexUtilTest, RejectsMinorToMajorThatIsNotAPermutation) {
  absl::Status repeated = ValidateMinorToMajor(3, {0, 1, 1});
  EXPECT_EQ(repeated.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(repeated.message(), HasSubstr("dimension 1 repeats at entry 2"));

  absl::Status out_of_range = ValidateMinorToMajor(2, {0, 2});
  EXPECT_THAT(out_of_range.message(), HasSubstr("entry 1 is 2"));

  absl::Status negative = ValidateMinorToMajor(2, {-1, 0});
  EXPECT_THAT(negative.message(), HasSubstr("entry 0 is -1"));

  absl::Status wrong_length = ValidateMinorToMajor(3, {1, 0});
  EXPECT_THAT(wrong_length.message(), HasSubstr("has 2 entries"));

  EXPECT_TRUE(ValidateMinorToMajor(0, {}).ok());
}

TEST(IndexUtilTest, RejectsBadDimensionsAndIndices) {
  EXPECT_THAT(ValidateDimensions({3, -2}).message(),
              HasSubstr("dimension 1 has negative size -2"));
  EXPECT_THAT(
      ValidateDimensions({int64_t{1} << 40, int64_t{1} << 40}).message(),
      HasSubstr("overflows"));
  EXPECT_TRUE(ValidateDimensions({0, int64_t{1} << 62}).ok());
  // A zero size makes the element count 0, but the maps still multiply the
  // other sizes into strides (found by the shape_layout fuzzer).
  EXPECT_THAT(
      ValidateDimensions({int64_t{1} << 40, 0, int64_t{1} << 40}).message(),
      HasSubstr("the product of the nonzero sizes of [1099511627776,0,"
                "1099511627776] overflows int64"));

  EXPECT_THAT(ValidateIndex({3, 5}, {2, 5}).message(),
              HasSubstr("entry 1 is 5, outside [0, 4]"));
  EXPECT_THAT(ValidateIndex({3, 5}, {2}).message(), HasSubstr("rank 2"));
  EXPECT_THAT(ValidateIndex({3, 5}, {-1, 0}).message(),
              HasSubstr("entry 0 is -1"));
  EXPECT_TRUE(ValidateIndex({3, 5}, {2, 4}).ok());
}

}  // namespace
}  // namespace xla_index
