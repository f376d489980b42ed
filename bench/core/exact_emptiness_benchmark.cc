// Cost of exact emptiness: IndexingMap::Simplify() against
// SimplifyWithExactEmptiness (Simplify, then MLIR Presburger
// isIntegerEmpty for a map that still has constraints) on the same corpora
// in the same run. `known_empty` counts the maps each one turns KnownEmpty.
// Also the cost of FindDifference, the exact equality of two maps.
//
// Run: bazel run -c opt //bench/core:exact_emptiness_benchmark

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "benchmark/benchmark.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/core/presburger_relation.h"

namespace xla_index {
namespace {

mlir::MLIRContext* Context() {
  static mlir::MLIRContext* context = new mlir::MLIRContext();
  return context;
}

std::vector<IndexingMap> ParseAll(const std::vector<std::string>& texts) {
  std::vector<IndexingMap> maps;
  for (const std::string& text : texts) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, Context());
    if (!map.ok()) {
      fprintf(stderr, "%s\n%s\n", std::string(map.status().message()).c_str(),
              text.c_str());
      abort();
    }
    maps.push_back(*std::move(map));
  }
  return maps;
}

// Non-empty maps with constraints, as slices, pads, strided windows and
// tiling produce them: the exact check runs on each and finds a point.
std::vector<IndexingMap> ConstrainedMaps() {
  return ParseAll({
      "(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2)\n"
      "domain:\nd0 in [5, 9]\nd1 in [3, 17]\nd2 in [0, 48]\n"
      "(d1 - 3) mod 7 in [0, 0]\nd2 mod 2 in [0, 0]",
      "(d0, d1) -> ((d0 - 1) floordiv 2, d1 - 4)\ndomain:\n"
      "d0 in [1, 7]\nd1 in [4, 7]\n(d0 - 1) mod 2 in [0, 0]",
      "(d0, d1)[s0] -> (d0, (d1 + s0 - 1) floordiv 2)\ndomain:\n"
      "d0 in [0, 1023]\nd1 in [0, 2]\ns0 in [0, 511]\n"
      "(d1 + s0 - 1) mod 2 in [0, 0]\nd1 + s0 in [1, 511]",
      "(d0, d1)[s0] -> (d0 * 4 + s0, d1 floordiv 8, d1 mod 8)\ndomain:\n"
      "d0 in [0, 127]\nd1 in [0, 255]\ns0 in [0, 3]\nd0 * 4 + s0 in [0, 509]",
      "(d0)[s0, s1] -> (d0, s0, s1)\ndomain:\nd0 in [0, 10]\n"
      "s0 in [-21, -2]\ns1 in [0, 10]\ns0 mod 2 in [0, 0]\n"
      "s0 mod 3 in [0, 0]\ns1 mod 5 in [1, 1]",
      "(d0, d1) -> (d0 * 32 + d1)\ndomain:\nd0 in [0, 63]\nd1 in [0, 31]\n"
      "d0 * 32 + d1 in [0, 2000]",
  });
}

// Empty domains that interval reasoning does not see (mod and parity
// conflicts): only the exact check turns them KnownEmpty.
std::vector<IndexingMap> IntervalBlindEmptyMaps() {
  return ParseAll({
      "(d0) -> (d0)\ndomain:\nd0 in [0, 99]\n(d0 + 1) mod 2 in [0, 0]\n"
      "(d0 floordiv 2) * 2 - d0 in [0, 0]",
      "(d0, d1) -> (d0, d1)\ndomain:\nd0 in [3, 3]\nd1 in [0, 99]\n"
      "(d0 + d1) mod 4 in [1, 1]\nd1 mod 2 in [1, 1]",
      "(d0, d1) -> (d0 + d1)\ndomain:\nd0 in [0, 99]\nd1 in [0, 99]\n"
      "d0 + d1 in [10, 10]\nd0 - d1 in [3, 3]",
      "(d0)[s0] -> (d0)\ndomain:\nd0 in [0, 99]\ns0 in [0, 99]\n"
      "d0 mod 3 in [1, 1]\nd0 - s0 * 3 in [0, 0]",
  });
}

// Maps without constraints: the exact check is skipped, the difference is
// the cost of asking.
std::vector<IndexingMap> UnconstrainedMaps() {
  return ParseAll({
      "(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)\n"
      "domain:\nd0 in [0, 1023]\nd1 in [0, 511]",
      "(d0, d1, d2) -> (d0 * 2 + d1 floordiv 2, d2 + (d1 mod 2) * 4)\n"
      "domain:\nd0 in [0, 1]\nd1 in [0, 3]\nd2 in [0, 3]",
      "(d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16)\ndomain:\n"
      "d0 in [0, 6]\nd1 in [0, 14]",
  });
}

template <std::vector<IndexingMap> (*MakeCorpus)()>
void BM_Simplify(benchmark::State& state) {
  const std::vector<IndexingMap> corpus = MakeCorpus();
  int known_empty = 0;
  for (auto _ : state) {
    known_empty = 0;
    for (const IndexingMap& m : corpus) {
      IndexingMap copy = m;
      benchmark::DoNotOptimize(copy.Simplify());
      known_empty += copy.IsKnownEmpty();
    }
  }
  state.SetItemsProcessed(state.iterations() * corpus.size());
  state.counters["known_empty"] = known_empty;
}

template <std::vector<IndexingMap> (*MakeCorpus)()>
void BM_SimplifyExact(benchmark::State& state) {
  const std::vector<IndexingMap> corpus = MakeCorpus();
  int known_empty = 0;
  for (auto _ : state) {
    known_empty = 0;
    for (const IndexingMap& m : corpus) {
      IndexingMap copy = m;
      absl::StatusOr<bool> changed = SimplifyWithExactEmptiness(copy);
      if (!changed.ok()) {
        state.SkipWithError(changed.status().ToString().c_str());
        return;
      }
      known_empty += copy.IsKnownEmpty();
    }
  }
  state.SetItemsProcessed(state.iterations() * corpus.size());
  state.counters["known_empty"] = known_empty;
}

// Map i of ConstrainedMaps alone, with the exact check.
void BM_SimplifyExactOne(benchmark::State& state) {
  const IndexingMap map = ConstrainedMaps()[state.range(0)];
  for (auto _ : state) {
    IndexingMap copy = map;
    benchmark::DoNotOptimize(SimplifyWithExactEmptiness(copy).ok());
  }
}

// FindDifference (the exact equality of two maps) of `(d0, d1) -> (0)` and
// a map that is 1 at one point of its 10^12-point box, and of a typical
// tiling map against its simplification (equal: the whole relation is
// subtracted both ways).
void BM_FindDifferenceOnePointOfTenToTheTwelve(benchmark::State& state) {
  const std::vector<IndexingMap> maps = ParseAll({
      "(d0, d1) -> (0)\ndomain:\nd0 in [0, 999999]\nd1 in [0, 999999]",
      "(d0, d1) -> ((d0 * 1000000 + d1 + 876543345679) floordiv "
      "1000000000000 - (d0 * 1000000 + d1 + 876543345678) floordiv "
      "1000000000000)\ndomain:\nd0 in [0, 999999]\nd1 in [0, 999999]",
  });
  for (auto _ : state) {
    benchmark::DoNotOptimize(FindDifference(maps[0], maps[1]).ok());
  }
}

void BM_FindDifferenceTypicalMapAndItsSimplification(benchmark::State& state) {
  const IndexingMap typical = ParseAll({
      "(d0, d1)[s0] -> (d0 * 4 + s0, d1 floordiv 8, d1 mod 8)\ndomain:\n"
      "d0 in [0, 127]\nd1 in [0, 255]\ns0 in [0, 3]\n"
      "d0 * 4 + s0 in [0, 509]",
  })[0];
  IndexingMap simplified = typical;
  simplified.Simplify();
  for (auto _ : state) {
    benchmark::DoNotOptimize(FindDifference(typical, simplified).ok());
  }
}

BENCHMARK(BM_Simplify<ConstrainedMaps>);
BENCHMARK(BM_SimplifyExact<ConstrainedMaps>);
BENCHMARK(BM_Simplify<IntervalBlindEmptyMaps>);
BENCHMARK(BM_SimplifyExact<IntervalBlindEmptyMaps>);
BENCHMARK(BM_Simplify<UnconstrainedMaps>);
BENCHMARK(BM_SimplifyExact<UnconstrainedMaps>);
BENCHMARK(BM_SimplifyExactOne)->DenseRange(0, 5);
BENCHMARK(BM_FindDifferenceOnePointOfTenToTheTwelve);
BENCHMARK(BM_FindDifferenceTypicalMapAndItsSimplification);

}  // namespace
}  // namespace xla_index
