#include "xla_index/analysis/gpu_launch_grid.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hlo/shape.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

Shape MustParseShape(const char* text) {
  absl::StatusOr<Shape> shape = ParseShape(text);
  EXPECT_TRUE(shape.ok()) << shape.status();
  return *shape;
}

TEST(DefaultLoopLaunchGridTest, RoundsTheGridUp) {
  // 200 elements, 32 threads, unroll 2: 100 threads needed, 32 per block,
  // ceil(200 / 64) = 4 blocks (the last covers elements 192..255, of which
  // 192..199 exist).
  absl::StatusOr<LaunchGrid> grid = DefaultLoopLaunchGrid(200, 32, 2);
  ASSERT_TRUE(grid.ok()) << grid.status();
  EXPECT_EQ(grid->threads[0], 32);
  EXPECT_EQ(grid->blocks[0], 4);
  EXPECT_EQ(
      grid->threads[1] * grid->threads[2] * grid->blocks[1] * grid->blocks[2],
      1);
}

TEST(DefaultLoopLaunchGridTest, SmallOutputShrinksTheBlock) {
  // 10 elements, unroll 4: ceil(10 / 4) = 3 threads in one block.
  absl::StatusOr<LaunchGrid> grid = DefaultLoopLaunchGrid(10, 128, 4);
  ASSERT_TRUE(grid.ok());
  EXPECT_EQ(grid->threads[0], 3);
  EXPECT_EQ(grid->blocks[0], 1);
}

TEST(DefaultLoopLaunchGridTest, RejectsBadSizes) {
  EXPECT_FALSE(DefaultLoopLaunchGrid(10, 0, 1).ok());
  EXPECT_FALSE(DefaultLoopLaunchGrid(10, 32, 0).ok());
}

TEST(LaunchGridDomainTest, BoundsAreThreadAndBlockIds) {
  mlir::MLIRContext context;
  LaunchGrid grid;
  grid.threads = {128, 2, 1};
  grid.blocks = {7, 1, 3};
  IndexingMap domain = LaunchGridDomain(grid, &context);
  EXPECT_EQ(ToString(domain),
            "(d0, d1, d2, d3, d4, d5) -> ()\n"
            "domain:\n"
            "d0 in [0, 127]\n"
            "d1 in [0, 1]\n"
            "d2 in [0, 0]\n"
            "d3 in [0, 6]\n"
            "d4 in [0, 0]\n"
            "d5 in [0, 2]");
}

// Every output element is written by exactly one (thread, block, unroll
// element), and it is the one the loop emitter's formula names:
// e = (bx * threads + tx) * u + s0, delinearized in minor-to-major order.
void CheckCoversOutputOnce(const char* shape_text, int64_t threads,
                           int64_t unroll) {
  mlir::MLIRContext context;
  Shape shape = MustParseShape(shape_text);
  absl::StatusOr<LaunchGrid> grid =
      DefaultLoopLaunchGrid(shape.ElementCount(), threads, unroll);
  ASSERT_TRUE(grid.ok());
  absl::StatusOr<IndexingMap> map =
      DefaultThreadIdToOutputIndexing(*grid, unroll, shape, &context);
  ASSERT_TRUE(map.ok()) << map.status();
  SCOPED_TRACE(ToString(*map));
  std::vector<int64_t> m2m;
  if (shape.has_layout()) {
    m2m = shape.layout().minor_to_major;
  } else {
    for (int64_t d = shape.rank() - 1; d >= 0; --d) m2m.push_back(d);
  }
  std::vector<int64_t> writes(shape.ElementCount(), 0);
  for (int64_t bx = 0; bx < grid->blocks[0]; ++bx) {
    for (int64_t tx = 0; tx < grid->threads[0]; ++tx) {
      for (int64_t s = 0; s < unroll; ++s) {
        std::vector<int64_t> dims = {tx, 0, 0, bx, 0, 0};
        int64_t e = (bx * grid->threads[0] + tx) * unroll + s;
        bool inside = e < shape.ElementCount();
        ASSERT_EQ(map->ConstraintsSatisfied(dims, {s}), inside) << e;
        if (!inside) continue;
        // Hand delinearization, minor dim first.
        std::vector<int64_t> expected(shape.rank());
        int64_t rest = e;
        for (int64_t dim : m2m) {
          expected[dim] = rest % shape.dimensions(dim);
          rest /= shape.dimensions(dim);
        }
        std::optional<std::vector<int64_t>> got = map->Evaluate(dims, {s});
        ASSERT_TRUE(got.has_value());
        EXPECT_EQ(*got, expected) << "element " << e;
        ++writes[e];
      }
    }
  }
  for (int64_t w : writes) EXPECT_EQ(w, 1);
}

TEST(DefaultThreadIdToOutputIndexingTest, RowMajorUnrolled) {
  CheckCoversOutputOnce("f32[10,20]{1,0}", 32, 2);
}

TEST(DefaultThreadIdToOutputIndexingTest, ColumnMajorFollowsLayout) {
  CheckCoversOutputOnce("f32[6,5,7]{0,2,1}", 16, 3);
}

TEST(DefaultThreadIdToOutputIndexingTest, ExactCoverHasNoConstraint) {
  // 64 x 128 = 8192 = 64 blocks of 128 threads: no thread is idle, so the
  // map needs no constraint.
  mlir::MLIRContext context;
  Shape shape = MustParseShape("f32[64,128]{1,0}");
  absl::StatusOr<LaunchGrid> grid = DefaultLoopLaunchGrid(8192, 128, 1);
  ASSERT_TRUE(grid.ok());
  absl::StatusOr<IndexingMap> map =
      DefaultThreadIdToOutputIndexing(*grid, 1, shape, &context);
  ASSERT_TRUE(map.ok());
  EXPECT_EQ(map->GetConstraintsCount(), 0);
  CheckCoversOutputOnce("f32[64,128]{1,0}", 128, 1);
}

TEST(DefaultThreadIdToOutputIndexingTest, Scalar) {
  CheckCoversOutputOnce("f32[]", 128, 1);
}

TEST(DefaultThreadIdToOutputIndexingTest, RejectsTuple) {
  mlir::MLIRContext context;
  Shape tuple = MustParseShape("(f32[2], f32[3])");
  LaunchGrid grid;
  EXPECT_FALSE(DefaultThreadIdToOutputIndexing(grid, 1, tuple, &context).ok());
}

TEST(DefaultLoopLaunchGridTest, GridsPastInt64AreErrorsNotWrapped) {
  // INT64_MAX elements with 128 threads: ceil(N / 128) = 2^56 blocks cover
  // 2^63 elements, one more than int64 holds.
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  absl::StatusOr<LaunchGrid> grid = DefaultLoopLaunchGrid(kMax, 128, 1);
  ASSERT_FALSE(grid.ok());
  EXPECT_NE(grid.status().message().find("more than INT64_MAX"),
            std::string::npos)
      << grid.status();
  // threads.x * unroll itself overflows.
  EXPECT_FALSE(DefaultLoopLaunchGrid(kMax, 4, kMax / 2).ok());
  EXPECT_FALSE(DefaultLoopLaunchGrid(-1, 128, 1).ok());
  // 2^62 elements still fit.
  absl::StatusOr<LaunchGrid> big =
      DefaultLoopLaunchGrid(int64_t{1} << 62, 128, 1);
  ASSERT_TRUE(big.ok()) << big.status();
  EXPECT_EQ(big->blocks[0], int64_t{1} << 55);
}

TEST(DefaultThreadIdToOutputIndexingTest, GridPastInt64IsAnError) {
  mlir::MLIRContext context;
  LaunchGrid grid;
  grid.threads[0] = 128;
  grid.blocks[0] = int64_t{1} << 56;
  absl::StatusOr<IndexingMap> map = DefaultThreadIdToOutputIndexing(
      grid, 1, MustParseShape("f32[9223372036854775807]"), &context);
  EXPECT_FALSE(map.ok());
}

TEST(LaunchGridTest, CountsSaturate) {
  LaunchGrid grid;
  grid.threads = {int64_t{1} << 40, int64_t{1} << 40, 1};
  grid.blocks = {int64_t{1} << 40, 2, int64_t{1} << 40};
  EXPECT_EQ(grid.ThreadsPerBlock(), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(grid.BlockCount(), std::numeric_limits<int64_t>::max());
}

}  // namespace
}  // namespace xla_index
