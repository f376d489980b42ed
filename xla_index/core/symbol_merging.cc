#include "xla_index/core/symbol_merging.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"

namespace xla_index {
namespace {

using Int = __int128;

/// The symbol coefficients of one linear context.
using Context = std::vector<Int>;

/// Per context: the modulus c when it is the dividend of `mod c`, else 0.
using Moduli = std::vector<Int>;

/// Adds `scale` * expr's linear part to `context` and a new context for
/// every division's dividend; false when the map is not affine with
/// constant divisors or a coefficient leaves 128 bits.
bool Collect(mlir::AffineExpr expr, Int scale, size_t context,
             std::vector<Context>& contexts, Moduli& moduli) {
  switch (expr.getKind()) {
    case mlir::AffineExprKind::Constant:
    case mlir::AffineExprKind::DimId:
      return true;
    case mlir::AffineExprKind::SymbolId: {
      unsigned s = mlir::cast<mlir::AffineSymbolExpr>(expr).getPosition();
      Int& c = contexts[context][s];
      return !__builtin_add_overflow(c, scale, &c);
    }
    default:
      break;
  }
  auto binary = mlir::cast<mlir::AffineBinaryOpExpr>(expr);
  auto constant = mlir::dyn_cast<mlir::AffineConstantExpr>(binary.getRHS());
  switch (expr.getKind()) {
    case mlir::AffineExprKind::Add:
      return Collect(binary.getLHS(), scale, context, contexts, moduli) &&
             Collect(binary.getRHS(), scale, context, contexts, moduli);
    case mlir::AffineExprKind::Mul: {
      mlir::AffineExpr other = binary.getLHS();
      if (!constant) {
        constant = mlir::dyn_cast<mlir::AffineConstantExpr>(binary.getLHS());
        other = binary.getRHS();
      }
      Int scaled;
      return constant &&
             !__builtin_mul_overflow(scale, Int{constant.getValue()},
                                     &scaled) &&
             Collect(other, scaled, context, contexts, moduli);
    }
    case mlir::AffineExprKind::FloorDiv:
    case mlir::AffineExprKind::CeilDiv:
    case mlir::AffineExprKind::Mod: {
      if (!constant || constant.getValue() == 0) return false;
      contexts.emplace_back(contexts[context].size(), 0);
      moduli.push_back(expr.getKind() == mlir::AffineExprKind::Mod
                           ? Int{constant.getValue()}
                           : Int{0});
      return Collect(binary.getLHS(), 1, contexts.size() - 1, contexts, moduli);
    }
    default:
      return false;
  }
}

/// The k with coefficient(j) == k * coefficient(i) in every context, when
/// there is one and i is used somewhere.
std::optional<Int> CommonRatio(const std::vector<Context>& contexts, size_t i,
                               size_t j) {
  std::optional<Int> k;
  for (const Context& c : contexts) {
    if (c[i] == 0) {
      if (c[j] != 0) return std::nullopt;
      continue;
    }
    if (c[j] % c[i] != 0) return std::nullopt;
    Int ratio = c[j] / c[i];
    if (k && *k != ratio) return std::nullopt;
    k = ratio;
  }
  return k;
}

Int Gcd(Int a, Int b) {
  while (b != 0) {
    Int t = a % b;
    a = b;
    b = t;
  }
  return a < 0 ? -a : a;
}

/// Shrinks the interval of every range variable s that enters the map only
/// through dividends of `mod c` (coefficient a in each) to its first P
/// values, P = lcm over those of c / gcd(a, c), when it is wider: the map
/// depends on s only through s mod P, and P consecutive values meet every
/// residue. An unused symbol keeps one value. Returns whether any shrank.
bool ShrinkPeriodicSymbols(const std::vector<Context>& contexts,
                           const Moduli& moduli,
                           std::vector<Interval>& bounds) {
  bool shrunk = false;
  for (size_t s = 0; s < bounds.size(); ++s) {
    if (bounds[s].IsEmpty()) continue;
    const Int width = Int{bounds[s].upper} - bounds[s].lower + 1;
    Int period = 1;
    bool periodic = true;
    for (size_t c = 0; c < contexts.size() && periodic; ++c) {
      const Int a = contexts[c][s];
      if (a == 0) continue;
      if (moduli[c] == 0) {
        periodic = false;
        break;
      }
      const Int step = moduli[c] / Gcd(a, moduli[c]);
      period = period / Gcd(period, step) * step;
      periodic = period < width;
    }
    if (!periodic || period >= width) continue;
    bounds[s] = {bounds[s].lower,
                 bounds[s].lower + static_cast<int64_t>(period) - 1};
    shrunk = true;
  }
  return shrunk;
}

}  // namespace

MergedSymbols MergeSymbolCombinations(const IndexingMap& map) {
  MergedSymbols merged{map, {}};
  if (map.IsUndefined() || map.IsKnownEmpty()) return merged;
  const size_t num_symbols = map.GetSymbolCount();
  std::vector<Context> contexts;
  Moduli moduli;
  auto collect = [&](mlir::AffineExpr expr) {
    contexts.emplace_back(num_symbols, 0);
    moduli.push_back(0);
    return Collect(expr, 1, contexts.size() - 1, contexts, moduli);
  };
  for (mlir::AffineExpr r : map.GetAffineMap().getResults()) {
    if (!collect(r)) return merged;
  }
  for (const IndexingConstraint& c : map.GetConstraints()) {
    if (!collect(c.expr)) return merged;
  }
  std::vector<Interval> bounds = map.GetRangeVarBounds();
  const size_t num_range = bounds.size();
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = 0; i < num_range && !progress; ++i) {
      for (size_t j = 0; j < num_range && !progress; ++j) {
        if (i == j || bounds[i].IsEmpty() || bounds[j].IsEmpty()) continue;
        std::optional<Int> k = CommonRatio(contexts, i, j);
        const Int width = Int{bounds[i].upper} - bounds[i].lower + 1;
        if (!k || *k < 1 || *k > width) continue;
        const Int lo = Int{bounds[i].lower} + *k * bounds[j].lower;
        const Int hi = Int{bounds[i].upper} + *k * bounds[j].upper;
        if (lo < Interval::kMin || hi > Interval::kMax) continue;
        merged.merges.push_back(
            {static_cast<int64_t>(i), static_cast<int64_t>(j),
             static_cast<int64_t>(*k), bounds[i], bounds[j]});
        bounds[i] = {static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
        bounds[j] = {0, 0};
        for (Context& c : contexts) c[j] = 0;
        progress = true;
      }
    }
  }
  const bool shrunk = ShrinkPeriodicSymbols(contexts, moduli, bounds);
  if (merged.merges.empty() && !shrunk) return merged;
  mlir::MLIRContext* context = map.GetMLIRContext();
  llvm::SmallVector<mlir::AffineExpr, 8> dims, symbols;
  for (int64_t d = 0; d < map.GetDimensionCount(); ++d) {
    dims.push_back(mlir::getAffineDimExpr(d, context));
  }
  for (size_t s = 0; s < num_symbols; ++s) {
    symbols.push_back(mlir::getAffineSymbolExpr(s, context));
  }
  for (const SymbolMerge& m : merged.merges) {
    symbols[m.removed] = mlir::getAffineConstantExpr(0, context);
  }
  auto replace = [&](mlir::AffineExpr e) {
    return e.replaceDimsAndSymbols(dims, symbols);
  };
  std::vector<IndexingConstraint> constraints;
  for (const IndexingConstraint& c : map.GetConstraints()) {
    constraints.push_back({replace(c.expr), c.interval});
  }
  mlir::AffineMap affine = map.GetAffineMap().replaceDimsAndSymbols(
      dims, symbols, map.GetDimensionCount(), num_symbols);
  merged.map = IndexingMap(affine, map.GetDimBounds(), bounds,
                           map.GetRuntimeVars(), std::move(constraints));
  return merged;
}

std::vector<int64_t> SplitMergedSymbols(absl::Span<const SymbolMerge> merges,
                                        std::vector<int64_t> symbols) {
  for (auto it = merges.rbegin(); it != merges.rend(); ++it) {
    const Int t = symbols[it->kept];
    // The smallest s_j with t - k * s_j <= b, clamped into [c, d].
    const Int excess = t - it->kept_before.upper;
    Int sj = excess / it->k;
    if (excess % it->k != 0 && excess > 0) ++sj;
    sj = std::clamp<Int>(sj, it->removed_interval.lower,
                         it->removed_interval.upper);
    symbols[it->removed] = static_cast<int64_t>(sj);
    symbols[it->kept] = static_cast<int64_t>(t - it->k * sj);
  }
  return symbols;
}

}  // namespace xla_index
