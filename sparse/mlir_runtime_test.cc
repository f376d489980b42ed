// Cross-check of the storage assembly against MLIR's own sparse runtime
// library (SparseTensorStorage in libmlir_c_runner_utils): for random
// tensors and every level format the runtime supports, the positions,
// coordinates and values arrays must be the same.

#include "sparse/mlir_runtime.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "sparse/encoding_parser.h"
#include "sparse/storage.h"

namespace xla_index::sparse {
namespace {

struct Case {
  std::string map;
  std::vector<int64_t> shape;
};

// Distinct coordinates with nonzero values, in random order. For an n:m last
// level every block gets exactly n nonzeros (the runtime does not pad).
CooTensor RandomTensor(const SparseEncoding& encoding,
                       const std::vector<int64_t>& shape, double density,
                       std::mt19937& rng) {
  int64_t elements = 1;
  for (int64_t size : shape) elements *= size;
  std::vector<double> dense(elements, 0.0);
  std::bernoulli_distribution keep(density);
  const LevelType& last = encoding.level_types.back();
  if (last.format == LevelFormat::kStructured) {
    std::vector<int64_t> slots(last.m);
    std::iota(slots.begin(), slots.end(), 0);
    for (int64_t block = 0; block < elements / last.m; ++block) {
      std::shuffle(slots.begin(), slots.end(), rng);
      for (int64_t k = 0; k < last.n; ++k) {
        dense[block * last.m + slots[k]] = 1 + rng() % 1000;
      }
    }
  } else {
    for (double& v : dense) {
      if (keep(rng)) v = 1 + rng() % 1000;
    }
  }
  std::vector<int64_t> order(elements);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  CooTensor coo;
  coo.dim_sizes = shape;
  for (int64_t linear : order) {
    if (dense[linear] == 0) continue;
    std::vector<int64_t> point(shape.size());
    for (int64_t d = shape.size() - 1, rest = linear; d >= 0; --d) {
      point[d] = rest % shape[d];
      rest /= shape[d];
    }
    coo.coordinates.insert(coo.coordinates.end(), point.begin(), point.end());
    coo.values.push_back(dense[linear]);
  }
  return coo;
}

TEST(MlirRuntimeTest, AssemblyMatchesMlirsSparseRuntime) {
  const std::vector<Case> cases = {
      {"(i) -> (i : compressed)", {50}},
      {"(i, j) -> (i : dense, j : compressed)", {12, 17}},
      {"(i, j) -> (j : dense, i : compressed)", {12, 17}},
      {"(i, j) -> (i : compressed, j : compressed)", {12, 17}},
      {"(i, j) -> (j : compressed, i : compressed)", {12, 17}},
      {"(i, j) -> (i : compressed(nonunique), j : singleton)", {12, 17}},
      {"(i, j) -> (i : compressed(nonunique), j : singleton(soa))", {12, 17}},
      {"(i, j) -> (i : compressed(nonunique, nonordered), j : "
       "singleton(nonordered))",
       {12, 17}},
      {"(i, j) -> (i : loose_compressed, j : compressed)", {12, 17}},
      {"(i, j) -> (i : dense, j : loose_compressed)", {12, 17}},
      {"(i, j, k) -> (i : dense, j : loose_compressed(nonunique), k : "
       "singleton)",
       {4, 5, 6}},
      {"(i, j, k) -> (i : compressed, j : dense, k : compressed)", {4, 5, 6}},
      {"(i, j, k) -> (k : compressed, i : dense, j : compressed(nonunique))",
       {4, 5, 6}},
      {"(i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed, i mod 2 "
       ": dense, j mod 3 : dense)",
       {8, 12}},
      {"(i, j) -> (i floordiv 2 : compressed, j floordiv 2 : compressed, i "
       "mod 2 : dense, j mod 2 : dense)",
       {8, 12}},
      {"(i, j) -> (i : dense, j : dense)", {6, 7}},
      {"(i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, "
       "4])",
       {6, 16}},
      {"(i, j) -> (i : dense, j floordiv 8 : dense, j mod 8 : structured[3, "
       "8])",
       {5, 16}},
  };
  mlir::MLIRContext context;
  std::mt19937 rng(7);
  int compared = 0;
  for (const Case& test : cases) {
    SCOPED_TRACE(test.map);
    absl::StatusOr<SparseEncoding> encoding = ParseSparseEncoding(
        "#sparse_tensor.encoding<{ map = " + test.map + " }>", &context);
    ASSERT_TRUE(encoding.ok()) << encoding.status();
    ASSERT_TRUE(MlirRuntimeSupports(*encoding));
    for (double density : {0.05, 0.3, 0.9}) {
      CooTensor coo = RandomTensor(*encoding, test.shape, density, rng);
      absl::StatusOr<SparseStorage> ours = AssembleFromCoo(*encoding, coo);
      ASSERT_TRUE(ours.ok()) << ours.status();
      absl::StatusOr<MlirRuntimeArrays> theirs =
          AssembleWithMlirRuntime(*encoding, coo);
      ASSERT_TRUE(theirs.ok()) << theirs.status();
      for (int64_t l = 0; l < encoding->lvl_rank(); ++l) {
        SCOPED_TRACE(l);
        std::vector<uint64_t> positions = theirs->positions[l];
        // The runtime's loose_compressed positions are a leading 0 and then
        // each parent's end twice, which reads as the (lo, hi) pairs plus one
        // unused trailing entry; the pairs are what the format defines.
        if (encoding->level_types[l].format == LevelFormat::kLooseCompressed) {
          ASSERT_FALSE(positions.empty());
          positions.pop_back();
        }
        EXPECT_EQ(ours->levels[l].positions.ToVector(), positions);
        EXPECT_EQ(ours->levels[l].coordinates.ToVector(),
                  theirs->coordinates[l]);
      }
      EXPECT_EQ(ours->values, theirs->values);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 18 * 3);
}

// Batch levels and counting symbols are not in the runtime: say so instead
// of handing it something it would assert on.
TEST(MlirRuntimeTest, UnsupportedEncodingsAreRefused) {
  mlir::MLIRContext context;
  for (const char* map :
       {"(i, j) -> (i : batch, j : compressed)",
        "[c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed)"}) {
    absl::StatusOr<SparseEncoding> encoding = ParseSparseEncoding(
        std::string("#sparse_tensor.encoding<{ map = ") + map + " }>",
        &context);
    ASSERT_TRUE(encoding.ok()) << encoding.status();
    EXPECT_FALSE(MlirRuntimeSupports(*encoding));
    EXPECT_FALSE(
        AssembleWithMlirRuntime(*encoding, CooTensor{{2, 2}, {}, {}}).ok());
  }
}

}  // namespace
}  // namespace xla_index::sparse
