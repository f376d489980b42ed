// The MLIR calls that any producer of given affine maps cannot avoid, as a
// replayable list: a lower bound on the time of composing or parsing into
// mlir::AffineMap, whatever the algorithm around those calls.
//
// MLIR's affine expressions are uniqued in their context: a producer of a
// map must obtain each distinct node of it that did not exist among its
// inputs through the public getters (getAffineBinaryOpExpr and the leaf
// getters; MLIR 22's getAffineBinaryOpExpr runs the operators' folds
// before the uniquer lookup, and there is no public getter without them),
// and the map itself through AffineMap::get. Replaying exactly those calls
// on operands that already exist measures that floor.
#ifndef XLA_INDEX_BENCH_CORE_MLIR_NODE_FLOOR_H_
#define XLA_INDEX_BENCH_CORE_MLIR_NODE_FLOOR_H_

#include <vector>

#include "benchmark/benchmark.h"
#include "llvm/ADT/DenseSet.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

class MlirNodeFloor {
 public:
  // Adds the distinct nodes of `map`'s results and of `more` (say, the
  // map's constraints) that are not in `inputs`, in post-order, then one
  // AffineMap::get of `map`. Nodes are distinct within one call: separate
  // calls stand for separate productions, each of which looks its nodes up.
  void AddMap(mlir::AffineMap map, llvm::ArrayRef<mlir::AffineExpr> more,
              const llvm::DenseSet<mlir::AffineExpr>& inputs);
  // AddMap of `map`'s affine map with its constraints' expressions.
  void AddIndexingMap(const IndexingMap& map,
                      const llvm::DenseSet<mlir::AffineExpr>& inputs);
  // Makes every recorded call once; returns how many calls gave something
  // else than the node or map recorded (0: the replay rebuilds them all).
  int Replay() const;
  size_t node_count() const { return nodes_.size(); }
  size_t map_count() const { return maps_.size(); }

 private:
  struct MapCall {
    mlir::AffineMap map;
    std::vector<mlir::AffineExpr> results;
  };
  // Node i is rebuilt from its operands: for a binary node its operands
  // already exist (children come first in post-order, or are inputs).
  std::vector<mlir::AffineExpr> nodes_;
  std::vector<MapCall> maps_;
};

// Every node of `map`'s results and, with `with_constraints`, of its
// constraints: what a producer given `map` has without asking MLIR.
llvm::DenseSet<mlir::AffineExpr> NodesOf(const IndexingMap& map,
                                         bool with_constraints);

// Times floor.Replay() in `state`, once a first replay has rebuilt every
// recorded node and map (else the benchmark is skipped with an error that
// names `what`); counters: nodes, maps.
void TimeReplay(benchmark::State& state, const MlirNodeFloor& floor,
                const char* what);

}  // namespace xla_index

#endif  // XLA_INDEX_BENCH_CORE_MLIR_NODE_FLOOR_H_
