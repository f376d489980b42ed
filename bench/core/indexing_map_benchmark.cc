// Speed of IndexingMap::Simplify and ComposeIndexingMaps on a corpus of
// realistic maps (the examples of XLA's indexing-analysis documentation,
// reshape maps in the naive linearize-delinearize form and their compositions,
// tiled-layout maps, maps with symbols and constraints), with
// mlir::simplifyAffineMap on the same affine maps as the baseline in the same
// run.
//
// Run: bazel run -c opt //bench/core:indexing_map_benchmark

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bench/core/mlir_node_floor.h"
#include "benchmark/benchmark.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/core/naive_maps.h"
#include "xla_index/core/xla_simplifier_cases.h"

namespace xla_index {
namespace {

mlir::MLIRContext* Context() {
  static mlir::MLIRContext* context = new mlir::MLIRContext();
  return context;
}

IndexingMap MustParse(const std::string& text) {
  absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, Context());
  if (!map.ok()) {
    fprintf(stderr, "%s\n%s\n", std::string(map.status().message()).c_str(),
            text.c_str());
    abort();
  }
  return *map;
}

IndexingMap ReshapeMap(const std::vector<int64_t>& out,
                       const std::vector<int64_t>& in) {
  return NaiveReshapeMap(out, in, Context());
}

const std::vector<std::vector<int64_t>>& ChainShapes() {
  // Factorizations of 4096, in a cycle.
  static const auto* shapes = new std::vector<std::vector<int64_t>>{
      {8, 8, 8, 8}, {64, 64},  {16, 256},  {4096},       {8, 512},
      {2, 2048},    {32, 128}, {4, 1024},  {16, 16, 16}, {2, 32, 64},
      {64, 8, 8},   {128, 32}, {4, 4, 256}};
  return *shapes;
}

std::vector<IndexingMap> SeedMaps() {
  return {
      MustParse("(d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16)\ndomain:\n"
                "d0 in [0, 6]\nd1 in [0, 14]"),
      MustParse("(d0, d1, d2) -> ((d0 * 100 + d1 * 10 + d2) floordiv 100, "
                "((d0 * 100 + d1 * 10 + d2) mod 100) floordiv 10, d2 mod 10)\n"
                "domain:\nd0 in [0, 9]\nd1 in [0, 9]\nd2 in [0, 9]"),
      MustParse("(d0, d1, d2) -> ((d0 * 16 + d1 * 4 + d2) floordiv 8, "
                "(d0 * 16 + d1 * 4 + d2) mod 8)\ndomain:\nd0 in [0, 9]\n"
                "d1 in [0, 9]\nd2 in [0, 9]"),
      MustParse("(d0, d1) -> (-((-d0 * 11 - d1 + 109) floordiv 11) + 9)\n"
                "domain:\nd0 in [0, 9]\nd1 in [0, 10]"),
      MustParse("(d0)[s0] -> (d0 + s0)\ndomain:\nd0 in [0, 5]\ns0 in [1, 3]\n"
                "d0 + s0 in [0, 20]"),
      MustParse("(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2)\n"
                "domain:\nd0 in [5, 9]\nd1 in [3, 17]\nd2 in [0, 48]\n"
                "(d1 - 3) mod 7 in [0, 0]\nd2 mod 2 in [0, 0]"),
      MustParse(
          "(d0, d1, d2) -> (d0 * 2 + d1 floordiv 2, d2 + (d1 mod 2) * 4)\n"
          "domain:\nd0 in [0, 1]\nd1 in [0, 3]\nd2 in [0, 3]"),
      MustParse("(d0, d1) -> ((d0 - 1) floordiv 2, d1 - 4)\ndomain:\n"
                "d0 in [1, 7]\nd1 in [4, 7]\n(d0 - 1) mod 2 in [0, 0]"),
  };
}

std::vector<IndexingMap> ReshapeMaps() {
  std::vector<IndexingMap> maps = {
      ReshapeMap({32}, {4, 8}),
      ReshapeMap({4, 8}, {32}),
      ReshapeMap({2, 4, 4}, {4, 8}),
      ReshapeMap({32, 3, 4}, {4, 8, 12}),
      ReshapeMap({50, 20}, {10, 10, 10}),
      ReshapeMap({10, 10, 10}, {50, 20}),
      ReshapeMap({8192}, {128, 64}),
      ReshapeMap({6, 20}, {2, 3, 4, 5}),
      ReshapeMap({256, 16}, {16, 16, 16}),
  };
  // Compositions of two reshapes, as fusion produces them.
  const auto& shapes = ChainShapes();
  for (size_t i = 0; i + 2 < shapes.size(); i += 2) {
    maps.push_back(ComposeIndexingMaps(ReshapeMap(shapes[i + 2], shapes[i + 1]),
                                       ReshapeMap(shapes[i + 1], shapes[i])));
  }
  return maps;
}

std::vector<IndexingMap> TiledLayoutMaps() {
  return {
      // Logical to physical of f32[1024,512]{1,0:T(8,128)}.
      MustParse("(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, "
                "d1 mod 128)\ndomain:\nd0 in [0, 1023]\nd1 in [0, 511]"),
      // Its linear position.
      MustParse("(d0, d1) -> (((d0 floordiv 8) * 4 + d1 floordiv 128) * 1024 "
                "+ (d0 mod 8) * 128 + d1 mod 128)\ndomain:\nd0 in [0, 1023]\n"
                "d1 in [0, 511]"),
      // bf16 (2,1) sub-tiles of an (8,128) tile.
      MustParse("(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, "
                "(d0 mod 8) floordiv 2, d1 mod 128, d0 mod 2)\ndomain:\n"
                "d0 in [0, 15]\nd1 in [0, 255]"),
      // A tile of 4x128 elements per thread block, thread = 128 lanes.
      MustParse("(d0, d1)[s0] -> (d1 * 4 + s0, d0 mod 128 + (d0 floordiv 128) "
                "* 128)\ndomain:\nd0 in [0, 127]\nd1 in [0, 255]\n"
                "s0 in [0, 3]"),
      // Reduce-window over a padded input (composition with a constraint).
      MustParse("(d0, d1)[s0] -> (d0, (d1 + s0 - 1) floordiv 2)\ndomain:\n"
                "d0 in [0, 1023]\nd1 in [0, 2]\ns0 in [0, 511]\n"
                "(d1 + s0 - 1) mod 2 in [0, 0]\nd1 + s0 in [1, 511]"),
  };
}

// Maps of the kinds XLA's simplifier handles that xla_index added later
// (nested divisions, digits of one index, negative divisors, merged mod
// constraints), kept out of Corpus() so that its numbers stay comparable
// with older builds.
std::vector<IndexingMap> ParityMaps() {
  mlir::MLIRContext* ctx = Context();
  mlir::AffineExpr s0 = mlir::getAffineSymbolExpr(0, ctx);
  return {
      MustParse("(d0)[s0, s1] -> ((s0 * 2 + s1 floordiv 64) floordiv 3)\n"
                "domain:\nd0 in [0, 3]\ns0 in [0, 20]\ns1 in [0, 127]"),
      MustParse("(d0, d1) -> (((d1 * 2 + d0 floordiv 64) mod 3) * 256 + "
                "(d0 mod 64) * 4 + ((d1 * 128 + d0) floordiv 192) * 768)\n"
                "domain:\nd0 in [0, 127]\nd1 in [0, 3071]"),
      // Negative divisors (built through MLIR: the text format refuses
      // them).
      IndexingMap(
          mlir::AffineMap::get(
              1, 1, {s0.floorDiv(-3), s0.floorDiv(2).floorDiv(-7)}, ctx),
          {{0, 9}}, {{-40, 40}}, {}),
      MustParse("(d0)[s0, s1] -> (d0, s0, s1)\ndomain:\nd0 in [0, 10]\n"
                "s0 in [-21, -2]\ns1 in [0, 10]\ns0 mod 2 in [0, 0]\n"
                "s0 mod 3 in [0, 0]\ns1 mod 5 in [1, 1]"),
  };
}

// The kinds of map of XLA's simplifier tests, with other sizes
// (xla_simplifier_cases.h).
std::vector<IndexingMap> XlaCaseMaps() {
  std::vector<IndexingMap> maps;
  for (const xla_simplifier_cases::Case& c : xla_simplifier_cases::kCases) {
    maps.push_back(MustParse(c.input));
  }
  return maps;
}
constexpr int kXlaCases =
    sizeof(xla_simplifier_cases::kCases) / sizeof(xla_simplifier_cases::Case);

std::vector<IndexingMap> Corpus() {
  std::vector<IndexingMap> all = SeedMaps();
  for (auto& m : ReshapeMaps()) all.push_back(m);
  for (auto& m : TiledLayoutMaps()) all.push_back(m);
  return all;
}

int64_t CountNodes(mlir::AffineMap map) {
  int64_t n = 0;
  for (mlir::AffineExpr e : map.getResults()) {
    e.walk([&](mlir::AffineExpr) { ++n; });
  }
  return n;
}

template <std::vector<IndexingMap> (*MakeCorpus)()>
void BM_Simplify(benchmark::State& state) {
  const std::vector<IndexingMap> corpus = MakeCorpus();
  int64_t nodes = 0;
  for (const IndexingMap& m : corpus) {
    IndexingMap copy = m;
    copy.Simplify();
    nodes += CountNodes(copy.GetAffineMap());
  }
  for (auto _ : state) {
    for (const IndexingMap& m : corpus) {
      IndexingMap copy = m;
      benchmark::DoNotOptimize(copy.Simplify());
    }
  }
  state.SetItemsProcessed(state.iterations() * corpus.size());
  state.counters["result_nodes"] = nodes;
}

template <std::vector<IndexingMap> (*MakeCorpus)()>
void BM_MlirSimplifyAffineMap(benchmark::State& state) {
  const std::vector<IndexingMap> corpus = MakeCorpus();
  int64_t nodes = 0;
  for (const IndexingMap& m : corpus) {
    nodes += CountNodes(mlir::simplifyAffineMap(m.GetAffineMap()));
  }
  for (auto _ : state) {
    for (const IndexingMap& m : corpus) {
      benchmark::DoNotOptimize(mlir::simplifyAffineMap(m.GetAffineMap()));
    }
  }
  state.SetItemsProcessed(state.iterations() * corpus.size());
  state.counters["result_nodes"] = nodes;
}

// The corpus size, for the per-map benchmarks' arguments.
constexpr int kCorpusSize = 28;

const std::vector<IndexingMap>& CorpusOnce() {
  static const std::vector<IndexingMap>* corpus =
      new std::vector<IndexingMap>(Corpus());
  if (corpus->size() != kCorpusSize) {
    fprintf(stderr, "kCorpusSize is %d, the corpus has %zu maps\n", kCorpusSize,
            corpus->size());
    abort();
  }
  return *corpus;
}

// One map of the corpus (`state.range(0)` is its index), for the
// distribution of per-map times: its median is the "typical map".
void BM_SimplifyOne(benchmark::State& state) {
  const IndexingMap& map = CorpusOnce()[state.range(0)];
  for (auto _ : state) {
    IndexingMap copy = map;
    benchmark::DoNotOptimize(copy.Simplify());
  }
  IndexingMap copy = map;
  copy.Simplify();
  state.counters["result_nodes"] = CountNodes(copy.GetAffineMap());
  state.counters["constraints"] = map.GetConstraintsCount();
}

// One map of ParityMaps() (index `state.range(0)`); 3 is the merge of mod
// constraints, the map of XLA's tests where XLA was faster.
void BM_SimplifyParityOne(benchmark::State& state) {
  static const std::vector<IndexingMap>* maps =
      new std::vector<IndexingMap>(ParityMaps());
  const IndexingMap& map = (*maps)[state.range(0)];
  for (auto _ : state) {
    IndexingMap copy = map;
    benchmark::DoNotOptimize(copy.Simplify());
  }
  IndexingMap copy = map;
  copy.Simplify();
  state.counters["result_nodes"] = CountNodes(copy.GetAffineMap());
}

void BM_MlirSimplifyOne(benchmark::State& state) {
  const mlir::AffineMap map = CorpusOnce()[state.range(0)].GetAffineMap();
  for (auto _ : state) {
    benchmark::DoNotOptimize(mlir::simplifyAffineMap(map));
  }
  state.counters["result_nodes"] = CountNodes(mlir::simplifyAffineMap(map));
}

// One map of XlaCaseMaps() (`state.range(0)`), and MLIR's bound-less
// simplifyAffineMap of its affine map as the baseline in the same run.
const std::vector<IndexingMap>& XlaCasesOnce() {
  static const std::vector<IndexingMap>* maps =
      new std::vector<IndexingMap>(XlaCaseMaps());
  return *maps;
}
void BM_SimplifyXlaCase(benchmark::State& state) {
  const IndexingMap& map = XlaCasesOnce()[state.range(0)];
  for (auto _ : state) {
    IndexingMap copy = map;
    benchmark::DoNotOptimize(copy.Simplify());
  }
  state.counters["constraints"] = map.GetConstraintsCount();
}
void BM_MlirSimplifyXlaCase(benchmark::State& state) {
  const IndexingMap& map = XlaCasesOnce()[state.range(0)];
  for (auto _ : state) {
    // The same copy as BM_SimplifyXlaCase pays.
    IndexingMap copy = map;
    benchmark::DoNotOptimize(mlir::simplifyAffineMap(copy.GetAffineMap()));
  }
}

// One pass over all of XlaCaseMaps() (copy + Simplify of each), and
// MLIR's bound-less simplifyAffineMap of the same 38 maps (after the same
// copy) as the baseline in the same run: the total of the per-map
// benchmarks above, in one number.
void BM_SimplifyXlaCasesAll(benchmark::State& state) {
  const std::vector<IndexingMap>& maps = XlaCasesOnce();
  for (auto _ : state) {
    for (const IndexingMap& map : maps) {
      IndexingMap copy = map;
      benchmark::DoNotOptimize(copy.Simplify());
    }
  }
  state.SetItemsProcessed(state.iterations() * maps.size());
}
void BM_MlirSimplifyXlaCasesAll(benchmark::State& state) {
  const std::vector<IndexingMap>& maps = XlaCasesOnce();
  for (auto _ : state) {
    for (const IndexingMap& map : maps) {
      IndexingMap copy = map;
      benchmark::DoNotOptimize(mlir::simplifyAffineMap(copy.GetAffineMap()));
    }
  }
  state.SetItemsProcessed(state.iterations() * maps.size());
}

// FLOOR, not a simplification: the MLIR calls any Simplify of the 38 maps
// must make (see mlir_node_floor.h): the nodes of each simplified map,
// results and constraints, that are not nodes of its input, and an
// AffineMap::get for each map whose results changed. (A map whose results
// did not change is left out, even when a constraint did: the floor stays
// a lower bound.)
void BM_MlirNodeFloorOfSimplifyXlaCases(benchmark::State& state) {
  MlirNodeFloor floor;
  for (const IndexingMap& map : XlaCasesOnce()) {
    IndexingMap simplified = map;
    simplified.Simplify();
    if (simplified.IsKnownEmpty() ||
        simplified.GetAffineMap() == map.GetAffineMap()) {
      continue;
    }
    floor.AddIndexingMap(simplified, NodesOf(map, /*with_constraints=*/true));
  }
  TimeReplay(state, floor, "simplified maps");
}

// Fusion passes re-simplify maps that are already simple.
template <std::vector<IndexingMap> (*MakeCorpus)()>
void BM_SimplifyAlreadySimple(benchmark::State& state) {
  std::vector<IndexingMap> corpus = MakeCorpus();
  for (IndexingMap& m : corpus) m.Simplify();
  for (auto _ : state) {
    for (const IndexingMap& m : corpus) {
      IndexingMap copy = m;
      benchmark::DoNotOptimize(copy.Simplify());
    }
  }
  state.SetItemsProcessed(state.iterations() * corpus.size());
}

// The cost of the copy that the Simplify benchmarks include.
void BM_CopyOnly(benchmark::State& state) {
  const std::vector<IndexingMap> corpus = Corpus();
  for (auto _ : state) {
    for (const IndexingMap& m : corpus) {
      IndexingMap copy = m;
      benchmark::DoNotOptimize(copy);
    }
  }
  state.SetItemsProcessed(state.iterations() * corpus.size());
}

std::vector<std::pair<IndexingMap, IndexingMap>> ComposePairs() {
  const auto& shapes = ChainShapes();
  std::vector<std::pair<IndexingMap, IndexingMap>> pairs;
  for (size_t i = 0; i + 2 < shapes.size(); ++i) {
    pairs.push_back({ReshapeMap(shapes[i + 2], shapes[i + 1]),
                     ReshapeMap(shapes[i + 1], shapes[i])});
  }
  return pairs;
}

void BM_Compose(benchmark::State& state) {
  const std::vector<std::pair<IndexingMap, IndexingMap>> pairs = ComposePairs();
  for (auto _ : state) {
    for (const auto& [first, second] : pairs) {
      benchmark::DoNotOptimize(ComposeIndexingMaps(first, second));
    }
  }
  state.SetItemsProcessed(state.iterations() * pairs.size());
}

// BASELINE: ComposeIndexingMaps's steps (rename first's symbols, substitute
// its results into second, constraints for first's results in second's
// domain) through MLIR's own unchecked AffineExpr::replaceDimsAndSymbols,
// whose constant folds wrap silently. For maps without runtime variables
// (the reshape pairs have none).
IndexingMap UncheckedMlirCompose(const IndexingMap& first,
                                 const IndexingMap& second) {
  mlir::MLIRContext* ctx = first.GetMLIRContext();
  const int n1 = first.GetDimensionCount();
  const int r1 = first.GetRangeVarsCount(), r2 = second.GetRangeVarsCount();
  llvm::SmallVector<mlir::AffineExpr> dims, first_syms, second_syms;
  for (int i = 0; i < n1; ++i) dims.push_back(mlir::getAffineDimExpr(i, ctx));
  for (int i = 0; i < r1; ++i) {
    first_syms.push_back(mlir::getAffineSymbolExpr(r2 + i, ctx));
  }
  for (int i = 0; i < r2; ++i) {
    second_syms.push_back(mlir::getAffineSymbolExpr(i, ctx));
  }
  llvm::SmallVector<mlir::AffineExpr> first_results;
  for (mlir::AffineExpr r : first.GetAffineMap().getResults()) {
    first_results.push_back(r.replaceDimsAndSymbols(dims, first_syms));
  }
  mlir::AffineMap composed = second.GetAffineMap().replaceDimsAndSymbols(
      first_results, second_syms, n1, r1 + r2);
  std::vector<Interval> range;
  for (int i = 0; i < r2; ++i) range.push_back(second.GetSymbolBound(i));
  for (int i = 0; i < r1; ++i) range.push_back(first.GetSymbolBound(i));
  IndexingMap result(composed, first.GetDimBounds(), std::move(range), {});
  for (const IndexingConstraint& c : first.GetConstraints()) {
    result.AddConstraint(c.expr.replaceDimsAndSymbols(dims, first_syms),
                         c.interval);
  }
  for (const IndexingConstraint& c : second.GetConstraints()) {
    result.AddConstraint(
        c.expr.replaceDimsAndSymbols(first_results, second_syms), c.interval);
  }
  for (size_t j = 0; j < first_results.size(); ++j) {
    result.AddConstraint(first_results[j], second.GetDimBound(j));
  }
  return result;
}

void BM_MlirUncheckedCompose(benchmark::State& state) {
  const std::vector<std::pair<IndexingMap, IndexingMap>> pairs = ComposePairs();
  for (const auto& [first, second] : pairs) {
    if (first.GetRuntimeVarsCount() + second.GetRuntimeVarsCount() > 0 ||
        !(UncheckedMlirCompose(first, second) ==
          ComposeIndexingMaps(first, second))) {
      state.SkipWithError("the baseline composes differently");
      return;
    }
  }
  for (auto _ : state) {
    for (const auto& [first, second] : pairs) {
      benchmark::DoNotOptimize(UncheckedMlirCompose(first, second));
    }
  }
  state.SetItemsProcessed(state.iterations() * pairs.size());
}

// FLOOR, not a composition: the MLIR calls any composition of the 11 pairs
// into mlir::AffineMap must make (see mlir_node_floor.h): the nodes of each
// composed map, results and constraints, that are not already nodes of
// the first map's results (which a composition receives), and the
// composed AffineMap::get.
void BM_MlirNodeFloorOfCompose(benchmark::State& state) {
  MlirNodeFloor floor;
  for (const auto& [first, second] : ComposePairs()) {
    floor.AddIndexingMap(ComposeIndexingMaps(first, second),
                         NodesOf(first, /*with_constraints=*/false));
  }
  TimeReplay(state, floor, "composed maps");
}

// A fusion of `state.range(0)` reshapes: compose the output-to-input maps
// from the root down, simplifying after each step
// (ComposeAndSimplifyIndexingMaps). The result must be the map of one
// reshape from the last shape to the first.
void BM_ComposeAndSimplifyReshapeChain(benchmark::State& state) {
  const auto& shapes = ChainShapes();
  std::vector<IndexingMap> chain;  // chain[k]: shape k+1 -> shape k.
  const int length = state.range(0);
  // range(1) == 1: the per-op maps come already simplified (as the reshape
  // rule hands them over); 0: in the naive linearize-delinearize form.
  const bool presimplified = state.range(1) == 1;
  for (int k = 0; k < length; ++k) {
    chain.push_back(
        ReshapeMap(shapes[(k + 1) % shapes.size()], shapes[k % shapes.size()]));
    if (presimplified) chain.back().Simplify();
  }
  int64_t nodes = 0;
  for (auto _ : state) {
    IndexingMap map = chain.back();
    map.Simplify();
    for (int k = length - 2; k >= 0; --k) {
      map = ComposeAndSimplifyIndexingMaps(map, chain[k]);
    }
    nodes = CountNodes(map.GetAffineMap());
    benchmark::DoNotOptimize(map);
  }
  state.counters["result_nodes"] = nodes;
}

// The same chain with mlir::simplifyAffineMap (no bounds) after each step;
// its expressions grow with the chain length (it cannot cancel the reshapes
// without bounds), so only `state.range(0)` steps.
// The same chain handed over at once (ComposeAndSimplifyIndexingMaps of a
// span): linear forms go from step to step, MLIR expressions are built once.
void BM_ComposeAndSimplifyReshapeChainAtOnce(benchmark::State& state) {
  const auto& shapes = ChainShapes();
  const int length = state.range(0);
  const bool presimplified = state.range(1) == 1;
  std::vector<IndexingMap> chain;  // From the root: chain[0] is applied first.
  for (int k = length - 1; k >= 0; --k) {
    chain.push_back(
        ReshapeMap(shapes[(k + 1) % shapes.size()], shapes[k % shapes.size()]));
    if (presimplified) chain.back().Simplify();
  }
  int64_t nodes = 0;
  for (auto _ : state) {
    IndexingMap map = ComposeAndSimplifyIndexingMaps(chain);
    nodes = CountNodes(map.GetAffineMap());
    benchmark::DoNotOptimize(map);
  }
  state.counters["result_nodes"] = nodes;
}
void BM_MlirComposeAndSimplifyReshapeChain(benchmark::State& state) {
  const auto& shapes = ChainShapes();
  std::vector<mlir::AffineMap> chain;
  const int length = state.range(0);
  for (int k = 0; k < length; ++k) {
    chain.push_back(
        ReshapeMap(shapes[(k + 1) % shapes.size()], shapes[k % shapes.size()])
            .GetAffineMap());
  }
  int64_t nodes = 0;
  for (auto _ : state) {
    mlir::AffineMap map = mlir::simplifyAffineMap(chain.back());
    for (int k = length - 2; k >= 0; --k) {
      map = mlir::simplifyAffineMap(chain[k].compose(map));
    }
    nodes = CountNodes(map);
    benchmark::DoNotOptimize(map);
  }
  state.counters["result_nodes"] = nodes;
}

void BM_PrintAndParse(benchmark::State& state) {
  std::vector<IndexingMap> corpus = Corpus();
  for (IndexingMap& m : corpus) m.Simplify();
  for (auto _ : state) {
    for (const IndexingMap& m : corpus) {
      benchmark::DoNotOptimize(ParseIndexingMap(ToString(m), Context()));
    }
  }
  state.SetItemsProcessed(state.iterations() * corpus.size());
}

// state.range(0) distinct constraints `d0 * (i + 2) + d1 in [0, i]` added
// to a map at once (IndexingMap::AddConstraints, an index by expression);
// BM_AddConstraintOneByOne, the baseline, adds them with AddConstraint, whose
// search for an equal expression is linear.
std::vector<IndexingConstraint> ManyConstraints(int64_t n) {
  mlir::AffineExpr d0 = mlir::getAffineDimExpr(0, Context());
  mlir::AffineExpr d1 = mlir::getAffineDimExpr(1, Context());
  std::vector<IndexingConstraint> constraints;
  for (int64_t i = 0; i < n; ++i) {
    constraints.push_back({d0 * (i + 2) + d1, Interval{0, i}});
  }
  return constraints;
}

IndexingMap TwoDims() {
  mlir::AffineExpr d0 = mlir::getAffineDimExpr(0, Context());
  return IndexingMap::FromTensorSizes(
      mlir::AffineMap::get(2, 0, {d0}, Context()), {1024, 1024}, {});
}

void BM_AddConstraints(benchmark::State& state) {
  const std::vector<IndexingConstraint> constraints =
      ManyConstraints(state.range(0));
  for (auto _ : state) {
    IndexingMap map = TwoDims();
    map.AddConstraints(constraints);
    benchmark::DoNotOptimize(map);
  }
}

void BM_AddConstraintOneByOne(benchmark::State& state) {
  const std::vector<IndexingConstraint> constraints =
      ManyConstraints(state.range(0));
  for (auto _ : state) {
    IndexingMap map = TwoDims();
    for (const IndexingConstraint& c : constraints) {
      map.AddConstraint(c.expr, c.interval);
    }
    benchmark::DoNotOptimize(map);
  }
}

BENCHMARK_TEMPLATE(BM_Simplify, Corpus);
BENCHMARK_TEMPLATE(BM_MlirSimplifyAffineMap, Corpus);
BENCHMARK_TEMPLATE(BM_Simplify, SeedMaps);
BENCHMARK_TEMPLATE(BM_MlirSimplifyAffineMap, SeedMaps);
BENCHMARK_TEMPLATE(BM_Simplify, ReshapeMaps);
BENCHMARK_TEMPLATE(BM_MlirSimplifyAffineMap, ReshapeMaps);
BENCHMARK_TEMPLATE(BM_Simplify, TiledLayoutMaps);
BENCHMARK_TEMPLATE(BM_MlirSimplifyAffineMap, TiledLayoutMaps);
BENCHMARK_TEMPLATE(BM_SimplifyAlreadySimple, Corpus);
BENCHMARK_TEMPLATE(BM_Simplify, ParityMaps);
BENCHMARK(BM_SimplifyOne)->DenseRange(0, kCorpusSize - 1);
BENCHMARK(BM_MlirSimplifyOne)->DenseRange(0, kCorpusSize - 1);
BENCHMARK(BM_SimplifyParityOne)->DenseRange(0, 3);
BENCHMARK_TEMPLATE(BM_Simplify, XlaCaseMaps);
BENCHMARK_TEMPLATE(BM_MlirSimplifyAffineMap, XlaCaseMaps);
BENCHMARK(BM_SimplifyXlaCase)->DenseRange(0, kXlaCases - 1);
BENCHMARK(BM_MlirSimplifyXlaCase)->DenseRange(0, kXlaCases - 1);
// Fixed iteration counts, for instruction counts per map under callgrind.
BENCHMARK(BM_SimplifyXlaCase)
    ->Name("BM_SimplifyXlaCase/fixed")
    ->DenseRange(0, kXlaCases - 1)
    ->Iterations(200);
BENCHMARK(BM_MlirSimplifyXlaCase)
    ->Name("BM_MlirSimplifyXlaCase/fixed")
    ->DenseRange(0, kXlaCases - 1)
    ->Iterations(200);
BENCHMARK(BM_SimplifyXlaCasesAll);
BENCHMARK(BM_MlirSimplifyXlaCasesAll);
// Fixed iteration counts, for the instructions of one pass under callgrind.
BENCHMARK(BM_SimplifyXlaCasesAll)
    ->Name("BM_SimplifyXlaCasesAll/fixed")
    ->Iterations(200);
BENCHMARK(BM_MlirSimplifyXlaCasesAll)
    ->Name("BM_MlirSimplifyXlaCasesAll/fixed")
    ->Iterations(200);
BENCHMARK(BM_MlirNodeFloorOfSimplifyXlaCases);
BENCHMARK(BM_MlirNodeFloorOfSimplifyXlaCases)
    ->Name("BM_MlirNodeFloorOfSimplifyXlaCases/fixed")
    ->Iterations(200);
BENCHMARK(BM_CopyOnly);
BENCHMARK(BM_Compose);
BENCHMARK(BM_MlirUncheckedCompose);
// Fixed iteration counts, for instruction counts under callgrind (the same
// work in both: their inclusive counts divide).
BENCHMARK(BM_Compose)->Name("BM_Compose/fixed")->Iterations(500);
BENCHMARK(BM_MlirUncheckedCompose)
    ->Name("BM_MlirUncheckedCompose/fixed")
    ->Iterations(500);
BENCHMARK(BM_MlirNodeFloorOfCompose);
BENCHMARK(BM_MlirNodeFloorOfCompose)
    ->Name("BM_MlirNodeFloorOfCompose/fixed")
    ->Iterations(500);
BENCHMARK(BM_ComposeAndSimplifyReshapeChain)
    ->Args({4, 0})
    ->Args({64, 0})
    ->Args({64, 1});
BENCHMARK(BM_ComposeAndSimplifyReshapeChainAtOnce)
    ->Args({4, 0})
    ->Args({64, 0})
    ->Args({64, 1});
BENCHMARK(BM_MlirComposeAndSimplifyReshapeChain)->Arg(4);
BENCHMARK(BM_PrintAndParse);
BENCHMARK(BM_AddConstraints)->Arg(1000)->Arg(10000)->Arg(100000);
BENCHMARK(BM_AddConstraintOneByOne)->Arg(1000)->Arg(10000)->Arg(100000);

}  // namespace
}  // namespace xla_index
