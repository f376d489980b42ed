#include "bench/core/mlir_node_floor.h"

#include <string>

namespace xla_index {

void MlirNodeFloor::AddMap(mlir::AffineMap map,
                           llvm::ArrayRef<mlir::AffineExpr> more,
                           const llvm::DenseSet<mlir::AffineExpr>& inputs) {
  llvm::DenseSet<mlir::AffineExpr> seen;
  auto add = [&](mlir::AffineExpr expr) {
    // AffineExpr::walk visits operands before their node (post-order).
    expr.walk([&](mlir::AffineExpr node) {
      if (!inputs.contains(node) && seen.insert(node).second) {
        nodes_.push_back(node);
      }
    });
  };
  for (mlir::AffineExpr expr : map.getResults()) add(expr);
  for (mlir::AffineExpr expr : more) add(expr);
  maps_.push_back({map, std::vector<mlir::AffineExpr>(map.getResults().begin(),
                                                      map.getResults().end())});
}

void MlirNodeFloor::AddIndexingMap(
    const IndexingMap& map, const llvm::DenseSet<mlir::AffineExpr>& inputs) {
  std::vector<mlir::AffineExpr> constraints;
  for (const IndexingConstraint& c : map.GetConstraints()) {
    constraints.push_back(c.expr);
  }
  AddMap(map.GetAffineMap(), constraints, inputs);
}

int MlirNodeFloor::Replay() const {
  int differing = 0;
  for (mlir::AffineExpr node : nodes_) {
    mlir::MLIRContext* ctx = node.getContext();
    mlir::AffineExpr rebuilt;
    if (auto binary = llvm::dyn_cast<mlir::AffineBinaryOpExpr>(node)) {
      rebuilt = mlir::getAffineBinaryOpExpr(node.getKind(), binary.getLHS(),
                                            binary.getRHS());
    } else if (auto dim = llvm::dyn_cast<mlir::AffineDimExpr>(node)) {
      rebuilt = mlir::getAffineDimExpr(dim.getPosition(), ctx);
    } else if (auto symbol = llvm::dyn_cast<mlir::AffineSymbolExpr>(node)) {
      rebuilt = mlir::getAffineSymbolExpr(symbol.getPosition(), ctx);
    } else {
      rebuilt = mlir::getAffineConstantExpr(
          llvm::cast<mlir::AffineConstantExpr>(node).getValue(), ctx);
    }
    differing += rebuilt != node;
  }
  for (const MapCall& call : maps_) {
    mlir::AffineMap rebuilt =
        mlir::AffineMap::get(call.map.getNumDims(), call.map.getNumSymbols(),
                             call.results, call.map.getContext());
    differing += rebuilt != call.map;
  }
  return differing;
}

llvm::DenseSet<mlir::AffineExpr> NodesOf(const IndexingMap& map,
                                         bool with_constraints) {
  llvm::DenseSet<mlir::AffineExpr> nodes;
  auto add = [&](mlir::AffineExpr e) {
    e.walk([&](mlir::AffineExpr node) { nodes.insert(node); });
  };
  for (mlir::AffineExpr r : map.GetAffineMap().getResults()) add(r);
  if (with_constraints) {
    for (const IndexingConstraint& c : map.GetConstraints()) add(c.expr);
  }
  return nodes;
}

void TimeReplay(benchmark::State& state, const MlirNodeFloor& floor,
                const char* what) {
  if (floor.Replay() != 0) {
    state.SkipWithError(
        (std::string("the replay does not rebuild the ") + what).c_str());
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(floor.Replay());
  state.counters["nodes"] = floor.node_count();
  state.counters["maps"] = floor.map_count();
}

}  // namespace xla_index
