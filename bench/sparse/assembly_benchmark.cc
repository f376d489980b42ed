// Storage assembly throughput: xla_index::sparse::AssembleFromCoo versus
// MLIR's own sparse runtime (SparseTensorStorage::newFromCOO from
// libmlir_c_runner_utils) on the same COO input of 2^20 nonzeros in random
// order. Ours is timed end to end (dimension-to-level mapping, sort,
// arrays); MLIR's gets the level coordinates precomputed outside the timed
// region and is timed from filling its SparseTensorCOO to the finished
// storage, so the ratio is conservative for us. Results in
// docs/PERFORMANCE.md, "Sparse storage assembly".

#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "benchmark/benchmark.h"
#include "mlir/IR/MLIRContext.h"
#include "sparse/affine_level_maps.h"
#include "sparse/encoding_parser.h"
#include "sparse/mlir_runtime.h"
#include "sparse/storage.h"

namespace xla_index::sparse {
namespace {

// 2^20 nonzeros; 2^12 in CI's smoke run (bench/smoke_test.sh), which only
// checks that the benchmarks run.
int64_t Nonzeros() {
  static const int64_t nonzeros =
      std::getenv("XLA_INDEX_BENCHMARK_SMOKE") != nullptr ? int64_t{1} << 12
                                                          : int64_t{1} << 20;
  return nonzeros;
}

struct Format {
  const char* name;
  const char* map;
  std::vector<int64_t> shape;
};

const Format kFormats[] = {
    {"CSR", "(i, j) -> (i : dense, j : compressed)", {8192, 8192}},
    {"DCSC", "(i, j) -> (j : compressed, i : compressed)", {8192, 8192}},
    {"COO",
     "(i, j) -> (i : compressed(nonunique), j : singleton)",
     {8192, 8192}},
    {"BSR2x2",
     "(i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : "
     "dense, j mod 2 : dense)",
     {8192, 8192}},
};

/// One shared input per format: Nonzeros() distinct random coordinates.
struct Input {
  SparseEncoding encoding;
  CooTensor coo;
  std::vector<int64_t> level_sizes;
  std::vector<uint64_t> level_coordinates;
};

mlir::MLIRContext& Context() {
  static mlir::MLIRContext* context = new mlir::MLIRContext();
  return *context;
}

const Input& GetInput(int format_index) {
  static std::vector<Input>* inputs = [] {
    auto* all = new std::vector<Input>();
    for (const Format& format : kFormats) {
      Input input;
      input.encoding = *ParseSparseEncoding(
          std::string("#sparse_tensor.encoding<{ map = ") + format.map + " }>",
          &Context());
      std::mt19937_64 rng(1);
      absl::flat_hash_set<int64_t> seen;
      const int64_t rows = format.shape[0], cols = format.shape[1];
      input.coo.dim_sizes = format.shape;
      while (static_cast<int64_t>(seen.size()) < Nonzeros()) {
        int64_t linear = rng() % (rows * cols);
        if (!seen.insert(linear).second) continue;
        input.coo.coordinates.push_back(linear / cols);
        input.coo.coordinates.push_back(linear % cols);
        input.coo.values.push_back(1.0 + rng() % 100);
      }
      input.level_sizes =
          *LevelSizes(input.encoding.dim_to_lvl, input.coo.dim_sizes);
      input.level_coordinates = LevelCoordinates(input.encoding, input.coo);
      all->push_back(std::move(input));
    }
    return all;
  }();
  return (*inputs)[format_index];
}

void BM_XlaIndexAssemble(benchmark::State& state) {
  const Input& input = GetInput(state.range(0));
  state.SetLabel(kFormats[state.range(0)].name);
  for (auto _ : state) {
    absl::StatusOr<SparseStorage> storage =
        AssembleFromCoo(input.encoding, input.coo);
    if (!storage.ok()) state.SkipWithError("assembly failed");
    benchmark::DoNotOptimize(storage->values.data());
  }
  state.SetItemsProcessed(state.iterations() * Nonzeros());
}

void BM_MlirRuntimeAssemble(benchmark::State& state) {
  const Input& input = GetInput(state.range(0));
  state.SetLabel(kFormats[state.range(0)].name);
  for (auto _ : state) {
    MlirRuntimeArrays arrays = AssembleLevelCooWithMlirRuntime(
        input.encoding, input.coo.dim_sizes, input.level_sizes,
        input.level_coordinates, input.coo.values);
    benchmark::DoNotOptimize(arrays.values.data());
  }
  state.SetItemsProcessed(state.iterations() * Nonzeros());
}

BENCHMARK(BM_XlaIndexAssemble)
    ->DenseRange(0, 3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_MlirRuntimeAssemble)
    ->DenseRange(0, 3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace xla_index::sparse
