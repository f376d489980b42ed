// IndexingMap::Simplify: the interval-aware simplification of a whole map
// (results and constraints), built on AffineSimplifier.

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "base/checked_arithmetic.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/core/affine_simplifier.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

class IndexingMapSimplifier {
 public:
  explicit IndexingMapSimplifier(IndexingMap& map) : map_(map) {}

  bool Run();

 private:
  // Simplifies the constraints under the current bounds. Returns false if the
  // map became known-empty.
  // Sets `bounds_changed` when a variable bound was tightened, `merged`
  // when mod constraints were merged into a new one (not yet normalized),
  // and `another_round` when the constraints may simplify further under the
  // new bounds (not when every constraint is a modulo constraint of its own
  // variable that only tightened that variable).
  bool SimplifyConstraints(AffineSimplifier& simplifier, bool& bounds_changed,
                           bool& merged, bool& another_round);
  // Merges `x mod a in [r, r]` and `x mod b in [q, q]` into one constraint
  // modulo lcm(a, b) (Chinese remainder). Returns false if they conflict.
  bool MergeModConstraints(bool& merged);

  // A constraint `v mod c in [r, s]` kept as NormalizeConstraint returned
  // it, with only_tightens_itself, whose tightening of v was v's last
  // change: normalized again while v keeps that bound, it comes back
  // unchanged and tightens nothing (see only_tightens_itself), so the next
  // round reuses it instead.
  struct Settled {
    bool settled = false;
    bool is_dim = false;
    int variable = -1;
    Interval bound;
  };
  Interval& Bound(bool is_dim, int variable) {
    return is_dim ? dims_[variable] : symbols_[variable];
  }
  // NormalizeConstraint(c), or what it returns for a settled constraint
  // whose variable still has its bound.
  AffineSimplifier::NormalConstraint Normalize(AffineSimplifier& simplifier,
                                               const IndexingConstraint& c,
                                               const Settled& settled);

  // Whether a result of `map` has a floordiv, ceildiv or mod node.
  static bool HasDivision(mlir::AffineMap map);

  IndexingMap& map_;
  // Inline capacity: no heap allocation for typical maps.
  llvm::SmallVector<Interval, 8> dims_, symbols_;
  llvm::SmallVector<IndexingConstraint, 4> constraints_;
  llvm::SmallVector<Settled, 4> settled_;  // One per constraint.
};

bool IndexingMapSimplifier::HasDivision(mlir::AffineMap map) {
  // An explicit stack with an early exit (cheaper than AffineExpr::walk's
  // callback per node).
  llvm::SmallVector<mlir::AffineExpr, 8> pending(map.getResults().begin(),
                                                 map.getResults().end());
  while (!pending.empty()) {
    const mlir::AffineExpr e = pending.pop_back_val();
    switch (e.getKind()) {
      case mlir::AffineExprKind::FloorDiv:
      case mlir::AffineExprKind::CeilDiv:
      case mlir::AffineExprKind::Mod:
        return true;
      case mlir::AffineExprKind::Add:
      case mlir::AffineExprKind::Mul: {
        auto binary = mlir::cast<mlir::AffineBinaryOpExpr>(e);
        pending.push_back(binary.getLHS());
        pending.push_back(binary.getRHS());
        break;
      }
      default:
        break;
    }
  }
  return false;
}

AffineSimplifier::NormalConstraint IndexingMapSimplifier::Normalize(
    AffineSimplifier& simplifier, const IndexingConstraint& c,
    const Settled& settled) {
  if (!settled.settled ||
      Bound(settled.is_dim, settled.variable) != settled.bound) {
    return simplifier.NormalizeConstraint(c.expr, c.interval);
  }
  AffineSimplifier::NormalConstraint n{
      AffineSimplifier::NormalConstraint::Kind::kExpression, c.expr,
      c.interval};
  n.is_dim = settled.is_dim;
  n.variable = settled.variable;
  n.only_tightens_itself = true;
  n.self_bound = settled.bound;
  return n;
}

bool IndexingMapSimplifier::SimplifyConstraints(AffineSimplifier& simplifier,
                                                bool& bounds_changed,
                                                bool& merged,
                                                bool& another_round) {
  using Kind = AffineSimplifier::NormalConstraint::Kind;
  llvm::SmallVector<IndexingConstraint, 4> kept;
  llvm::SmallVector<Settled, 4> kept_settled;
  // Whether every kept constraint is an only_tightens_itself one, each on
  // its own variable (their variables, dims as -1 - position).
  bool all_self_contained = true;
  llvm::SmallVector<int, 4> own_variables;
  settled_.resize(constraints_.size());
  for (size_t i = 0; i < constraints_.size(); ++i) {
    const IndexingConstraint& c = constraints_[i];
    AffineSimplifier::NormalConstraint n =
        Normalize(simplifier, c, settled_[i]);
    switch (n.kind) {
      case Kind::kAlwaysTrue:
        break;
      case Kind::kInfeasible:
        return false;
      case Kind::kVariable: {
        all_self_contained = false;
        Interval& bound = n.is_dim ? dims_[n.variable] : symbols_[n.variable];
        Interval tight = bound.Intersect(n.interval);
        if (tight.IsEmpty()) return false;
        if (tight != bound) {
          bound = tight;
          bounds_changed = true;
        }
        break;
      }
      case Kind::kExpression: {
        all_self_contained &= n.only_tightens_itself;
        if (n.only_tightens_itself) {
          const int key = n.is_dim ? -1 - n.variable : n.variable;
          all_self_contained &= !llvm::is_contained(own_variables, key);
          own_variables.push_back(key);
        }
        for (const auto& t : n.tightened) {
          Interval& bound = t.is_dim ? dims_[t.variable] : symbols_[t.variable];
          Interval tight = bound.Intersect(t.interval);
          if (tight.IsEmpty()) return false;
          if (tight != bound) {
            bound = tight;
            bounds_changed = true;
          }
        }
        bool merged = false;
        for (size_t k = 0; k < kept.size(); ++k) {
          if (kept[k].expr == n.expr) {
            kept[k].interval = kept[k].interval.Intersect(n.interval);
            if (kept[k].interval.IsEmpty()) return false;
            kept_settled[k].settled = false;
            merged = true;
            break;
          }
        }
        if (!merged) {
          kept.push_back({n.expr, n.interval});
          Settled settled;
          settled.settled = n.only_tightens_itself &&
                            Bound(n.is_dim, n.variable) == n.self_bound;
          settled.is_dim = n.is_dim;
          settled.variable = n.variable;
          settled.bound = n.self_bound;
          kept_settled.push_back(settled);
        }
        break;
      }
    }
  }
  constraints_ = std::move(kept);
  settled_ = std::move(kept_settled);
  another_round = bounds_changed && !all_self_contained;
  return MergeModConstraints(merged);
}

bool IndexingMapSimplifier::MergeModConstraints(bool& merged) {
  for (size_t i = 0; i < constraints_.size(); ++i) {
    auto mod_i = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(constraints_[i].expr);
    if (!mod_i || mod_i.getKind() != mlir::AffineExprKind::Mod ||
        !constraints_[i].interval.IsPoint()) {
      continue;
    }
    for (size_t j = i + 1; j < constraints_.size(); ++j) {
      auto mod_j =
          mlir::dyn_cast<mlir::AffineBinaryOpExpr>(constraints_[j].expr);
      if (!mod_j || mod_j.getKind() != mlir::AffineExprKind::Mod ||
          !constraints_[j].interval.IsPoint() ||
          mod_j.getLHS() != mod_i.getLHS()) {
        continue;
      }
      auto a_expr = mlir::dyn_cast<mlir::AffineConstantExpr>(mod_i.getRHS());
      auto b_expr = mlir::dyn_cast<mlir::AffineConstantExpr>(mod_j.getRHS());
      if (!a_expr || !b_expr) continue;
      int64_t a = a_expr.getValue(), b = b_expr.getValue();
      int64_t r = constraints_[i].interval.lower;
      int64_t q = constraints_[j].interval.lower;
      int64_t g = std::gcd(a, b);
      const std::optional<int64_t> checked_lcm = CheckedMul(a / g, b);
      if (!checked_lcm || b / g > (1 << 20)) continue;
      const int64_t lcm = *checked_lcm;
      // x = r + k*a for k in [0, b/g): the first one with x mod b == q.
      int64_t found = -1;
      for (int64_t k = 0; k < b / g; ++k) {
        int64_t x = r + k * a;
        if (FloorMod(x, b) == q) {
          found = x;
          break;
        }
      }
      if (found < 0) return false;  // No x satisfies both.
      constraints_[i] = {mod_i.getLHS() % lcm, Interval::Point(found)};
      constraints_.erase(constraints_.begin() + j);
      settled_[i].settled = false;
      settled_.erase(settled_.begin() + j);
      merged = true;
      return MergeModConstraints(merged);
    }
  }
  return true;
}

bool IndexingMapSimplifier::Run() {
  if (map_.IsUndefined() || map_.IsKnownEmpty()) return false;
  dims_.assign(map_.dim_bounds_.begin(), map_.dim_bounds_.end());
  // Inline storage: not GetSymbolBounds(), which allocates; the members
  // directly, not GetSymbolBound (an out-of-line call per symbol).
  symbols_.clear();
  for (Interval b : map_.range_bounds_) symbols_.push_back(b);
  for (const RuntimeVar& rt : map_.runtime_vars_) {
    symbols_.push_back(rt.feasible_values);
  }
  for (Interval b : dims_) {
    if (b.IsEmpty()) {
      map_.ResetToKnownEmpty();
      return true;
    }
  }
  for (Interval b : symbols_) {
    if (b.IsEmpty()) {
      map_.ResetToKnownEmpty();
      return true;
    }
  }
  mlir::MLIRContext* ctx = map_.GetMLIRContext();
  constraints_.assign(map_.constraints_.begin(), map_.constraints_.end());

  // Constraints tighten bounds, which may simplify other constraints, and
  // merged mod constraints must be normalized in turn: iterate until they
  // stop changing (each round shrinks a bound or the number of constraints;
  // 32 rounds bound the cost of slowly converging cases).
  AffineSimplifier simplifier(ctx, dims_, symbols_);
  if (!constraints_.empty()) {
    for (int iteration = 0; iteration < 32; ++iteration) {
      bool bounds_changed = false, merged = false, another_round = false;
      if (!SimplifyConstraints(simplifier, bounds_changed, merged,
                               another_round)) {
        map_.ResetToKnownEmpty();
        return true;
      }
      // Atom ranges in the simplifier were derived from the old bounds.
      if (bounds_changed) simplifier.ResetBounds();
      if (!another_round && !merged) break;
    }
    // Results may use the constraints' ranges of their subexpressions. (Not
    // the constraints themselves: a constraint must not justify itself.)
    std::optional<bool> results_divide;
    for (size_t i = 0; i < constraints_.size(); ++i) {
      // A settled `v mod c` (v still over more than one period of c)
      // simplifies to the atom `v mod c`, which only a division in a result
      // can meet: without one, its range changes no result.
      const Settled& settled = settled_[i];
      if (settled.settled &&
          Bound(settled.is_dim, settled.variable) == settled.bound) {
        if (!results_divide) results_divide = HasDivision(map_.affine_map_);
        if (!*results_divide) continue;
      }
      simplifier.SetAtomRange(constraints_[i].expr, constraints_[i].interval);
    }
  }

  mlir::AffineMap old_map = map_.affine_map_;
  llvm::SmallVector<mlir::AffineExpr, 8> results;
  bool results_changed = false;
  for (mlir::AffineExpr r : old_map.getResults()) {
    results.push_back(simplifier.Simplify(r));
    results_changed |= results.back() != r;
  }
  bool changed = results_changed;
  if (results_changed) {
    map_.affine_map_ = mlir::AffineMap::get(
        old_map.getNumDims(), old_map.getNumSymbols(), results, ctx);
  }
  if (!std::equal(dims_.begin(), dims_.end(), map_.dim_bounds_.begin(),
                  map_.dim_bounds_.end())) {
    map_.dim_bounds_.assign(dims_.begin(), dims_.end());
    changed = true;
  }
  const size_t num_range = map_.range_bounds_.size();
  for (size_t i = 0; i < symbols_.size(); ++i) {
    Interval& bound = i < num_range
                          ? map_.range_bounds_[i]
                          : map_.runtime_vars_[i - num_range].feasible_values;
    if (bound != symbols_[i]) {
      bound = symbols_[i];
      changed = true;
    }
  }
  if (!std::equal(constraints_.begin(), constraints_.end(),
                  map_.constraints_.begin(), map_.constraints_.end(),
                  [](const IndexingConstraint& a, const IndexingConstraint& b) {
                    return a.expr == b.expr && a.interval == b.interval;
                  })) {
    map_.constraints_.assign(constraints_.begin(), constraints_.end());
    changed = true;
  }
  return changed;
}

namespace {

// The chain composed pairwise (ComposeIndexingMaps), simplifying after each
// step.
IndexingMap FoldComposeAndSimplify(llvm::ArrayRef<const IndexingMap*> chain) {
  IndexingMap composed = *chain[0];
  for (size_t k = 1; k < chain.size(); ++k) {
    composed = ComposeIndexingMaps(composed, *chain[k]);
    composed.Simplify();
  }
  if (chain.size() == 1) composed.Simplify();
  return composed;
}

// Whether AffineSimplifier::SimplifyChain can compose the chain: no
// constraints or runtime variables anywhere, no empty interval, and each
// map's results are the next map's dims.
bool ChainHasFastPath(llvm::ArrayRef<const IndexingMap*> chain) {
  for (size_t k = 0; k < chain.size(); ++k) {
    const IndexingMap& map = *chain[k];
    if (map.IsUndefined() || map.IsKnownEmpty() ||
        map.GetConstraintsCount() > 0 || map.GetRuntimeVarsCount() > 0) {
      return false;
    }
    if (k + 1 < chain.size() &&
        map.GetResultCount() != chain[k + 1]->GetDimensionCount()) {
      return false;
    }
    for (Interval b : map.GetRangeVarBounds()) {
      if (b.IsEmpty()) return false;
    }
  }
  for (Interval b : chain[0]->GetDimBounds()) {
    if (b.IsEmpty()) return false;
  }
  return true;
}

IndexingMap ComposeAndSimplifyChain(llvm::ArrayRef<const IndexingMap*> chain) {
  if (chain.empty()) return IndexingMap::Undefined();
  if (!ChainHasFastPath(chain)) return FoldComposeAndSimplify(chain);
  // Symbols as pairwise ComposeIndexingMaps orders them: the last map's range
  // variables first, the first map's last.
  std::vector<Interval> symbols;
  std::vector<llvm::SmallVector<int, 4>> positions(chain.size());
  for (size_t k = chain.size(); k-- > 0;) {
    for (Interval b : chain[k]->GetRangeVarBounds()) {
      positions[k].push_back(symbols.size());
      symbols.push_back(b);
    }
  }
  llvm::SmallVector<AffineSimplifier::ChainLink, 8> links;
  for (size_t k = 0; k < chain.size(); ++k) {
    links.push_back({chain[k]->GetAffineMap().getResults(), positions[k],
                     chain[k]->GetDimBounds()});
  }
  const IndexingMap& first = *chain.front();
  mlir::MLIRContext* ctx = first.GetMLIRContext();
  AffineSimplifier simplifier(ctx, first.GetDimBounds(), symbols);
  llvm::SmallVector<mlir::AffineExpr, 8> results;
  if (!simplifier.SimplifyChain(links, results)) {
    return FoldComposeAndSimplify(chain);
  }
  const int num_symbols = symbols.size();
  return IndexingMap(mlir::AffineMap::get(first.GetDimensionCount(),
                                          num_symbols, results, ctx),
                     first.GetDimBounds(), std::move(symbols), {});
}

}  // namespace

IndexingMap ComposeAndSimplifyIndexingMaps(const IndexingMap& first,
                                           const IndexingMap& second) {
  return ComposeAndSimplifyChain({&first, &second});
}

IndexingMap ComposeAndSimplifyIndexingMaps(
    absl::Span<const IndexingMap> chain) {
  llvm::SmallVector<const IndexingMap*, 16> pointers;
  for (const IndexingMap& map : chain) pointers.push_back(&map);
  return ComposeAndSimplifyChain(pointers);
}

namespace {

// `use` applied to a simplifier over the map's box that knows the ranges
// the map's constraints give their subexpressions.
template <typename Use>
auto WithConstrainedSimplifier(const IndexingMap& map, Use use) {
  const std::vector<Interval> symbols = map.GetSymbolBounds();
  AffineSimplifier simplifier(map.GetMLIRContext(), map.GetDimBounds(),
                              symbols);
  for (const IndexingConstraint& c : map.GetConstraints()) {
    simplifier.SetAtomRange(c.expr, c.interval);
  }
  return use(simplifier);
}

}  // namespace

Interval ComputeExpressionRange(const IndexingMap& map, mlir::AffineExpr expr) {
  if (map.IsUndefined() || map.IsKnownEmpty()) return Interval::Unbounded();
  return WithConstrainedSimplifier(map, [&](AffineSimplifier& simplifier) {
    return simplifier.Range(expr);
  });
}

mlir::AffineExpr SimplifyAffineExpr(const IndexingMap& map,
                                    mlir::AffineExpr expr) {
  if (map.IsUndefined() || map.IsKnownEmpty()) return expr;
  return WithConstrainedSimplifier(map, [&](AffineSimplifier& simplifier) {
    return simplifier.Simplify(expr);
  });
}

bool IndexingMap::Simplify() {
  IndexingMapSimplifier simplifier(*this);
  return simplifier.Run();
}

}  // namespace xla_index
