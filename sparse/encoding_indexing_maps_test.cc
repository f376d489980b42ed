#include "sparse/encoding_indexing_maps.h"

#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "sparse/affine_level_maps.h"
#include "sparse/encoding_parser.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index::sparse {
namespace {

class LevelIndexingMapsTest : public ::testing::Test {
 protected:
  SparseEncoding Parse(const std::string& map) {
    absl::StatusOr<SparseEncoding> encoding = ParseSparseEncoding(
        "#sparse_tensor.encoding<{ map = " + map + " }>", &context_);
    EXPECT_TRUE(encoding.ok()) << encoding.status();
    return *encoding;
  }
  mlir::MLIRContext context_;
};

const char kBsr23[] =
    "(i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed, i mod 2 : "
    "dense, j mod 3 : dense)";

// The BSR 2x3 of MLIR's SparseTensor dialect documentation, on
// tensor<20x30xf32>: levels 10x10x2x3.
TEST_F(LevelIndexingMapsTest, SeedBsrMapsAsIndexingMaps) {
  SparseEncoding bsr = Parse(kBsr23);
  absl::StatusOr<IndexingMap> dim_to_lvl =
      DimToLevelIndexingMap(bsr, std::vector<int64_t>{20, 30});
  ASSERT_TRUE(dim_to_lvl.ok()) << dim_to_lvl.status();
  EXPECT_EQ(ToString(*dim_to_lvl),
            "(d0, d1) -> (d0 floordiv 2, d1 floordiv 3, d0 mod 2, d1 mod 3)\n"
            "domain:\n"
            "d0 in [0, 19]\n"
            "d1 in [0, 29]");
  absl::StatusOr<IndexingMap> lvl_to_dim =
      LevelToDimIndexingMap(bsr, std::vector<int64_t>{20, 30});
  ASSERT_TRUE(lvl_to_dim.ok()) << lvl_to_dim.status();
  // The documentation's BSR_explicit writes this inverse by hand:
  // i = ib * 2 + ii, j = jb * 3 + jj.
  EXPECT_EQ(ToString(*lvl_to_dim),
            "(d0, d1, d2, d3) -> (d0 * 2 + d2, d1 * 3 + d3)\n"
            "domain:\n"
            "d0 in [0, 9]\n"
            "d1 in [0, 9]\n"
            "d2 in [0, 1]\n"
            "d3 in [0, 2]");
  SparseEncoding bsr_explicit = Parse(
      "{ ib, jb, ii, jj } ( i = ib * 2 + ii, j = jb * 3 + jj) -> ( ib = i "
      "floordiv 2 : dense, jb = j floordiv 3 : compressed, ii = i mod 2 : "
      "dense, jj = j mod 3 : dense)");
  EXPECT_EQ(*LevelToDimIndexingMap(bsr_explicit, std::vector<int64_t>{20, 30}),
            *lvl_to_dim);
}

// Brute force on shapes with partial blocks: every dimension point maps into
// the level box and back; every level point satisfies the level-to-dim
// constraints exactly when it is the image of a dimension point.
TEST_F(LevelIndexingMapsTest, MapsAreInversesOnTheirDomains) {
  for (const std::string& map :
       {std::string(kBsr23),
        std::string("(i, j) -> (j : compressed, i : dense)"),
        std::string("(i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : "
                    "structured[2, 4])"),
        std::string("(i, j, k) -> (k floordiv 2 : dense, i : compressed, j "
                    ": dense, k mod 2 : dense)")}) {
    SparseEncoding encoding = Parse(map);
    const int rank = encoding.dim_rank();
    std::vector<int64_t> shape =
        rank == 2 ? std::vector<int64_t>{7, 13} : std::vector<int64_t>{3, 4, 5};
    SCOPED_TRACE(map);
    IndexingMap forward = *DimToLevelIndexingMap(encoding, shape);
    IndexingMap backward = *LevelToDimIndexingMap(encoding, shape);
    std::vector<int64_t> level_sizes = *LevelSizes(encoding.dim_to_lvl, shape);
    int64_t dim_points = 1, level_points = 1;
    for (int64_t s : shape) dim_points *= s;
    for (int64_t s : level_sizes) level_points *= s;
    std::set<std::vector<int64_t>> images;
    for (int64_t linear = 0; linear < dim_points; ++linear) {
      std::vector<int64_t> point(rank);
      for (int d = rank - 1, rest = linear; d >= 0; --d) {
        point[d] = rest % shape[d];
        rest /= shape[d];
      }
      ASSERT_TRUE(forward.ConstraintsSatisfied(point, {}));
      std::vector<int64_t> levels = *forward.Evaluate(point, {});
      ASSERT_TRUE(backward.ConstraintsSatisfied(levels, {}));
      ASSERT_EQ(*backward.Evaluate(levels, {}), point);
      images.insert(levels);
    }
    int64_t satisfied = 0;
    for (int64_t linear = 0; linear < level_points; ++linear) {
      std::vector<int64_t> levels(level_sizes.size());
      for (int l = level_sizes.size() - 1, rest = linear; l >= 0; --l) {
        levels[l] = rest % level_sizes[l];
        rest /= level_sizes[l];
      }
      bool inside = backward.ConstraintsSatisfied(levels, {});
      EXPECT_EQ(inside, images.count(levels) == 1);
      satisfied += inside;
    }
    EXPECT_EQ(satisfied, dim_points);
  }
}

TEST_F(LevelIndexingMapsTest, WithoutShapeOrInverse) {
  SparseEncoding ell =
      Parse("[c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed)");
  absl::StatusOr<IndexingMap> dim_to_lvl =
      DimToLevelIndexingMap(ell, std::nullopt);
  ASSERT_TRUE(dim_to_lvl.ok());
  EXPECT_EQ(dim_to_lvl->GetRangeVarsCount(), 1);
  EXPECT_EQ(dim_to_lvl->GetDimBound(0), (Interval{0, Interval::kMax}));
  EXPECT_TRUE(LevelToDimIndexingMap(ell, std::nullopt)->IsUndefined());
  EXPECT_FALSE(
      DimToLevelIndexingMap(Parse(kBsr23), std::vector<int64_t>{4}).ok());
}

}  // namespace
}  // namespace xla_index::sparse
