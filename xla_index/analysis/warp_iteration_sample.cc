#include "xla_index/analysis/warp_iteration_sample.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "base/checked_arithmetic.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/analysis/gpu_launch_grid.h"

namespace xla_index {
namespace {

using int128 = __int128;

// Magnitudes at or above this may saturate somewhere in Evaluate.
constexpr int128 kSafeMagnitude = int128{1} << 62;
constexpr int128 kMagnitudeCap = int128{1} << 100;

int128 Abs128(int128 x) { return x < 0 ? -x : x; }

// A bound on |expr| when each dimension and symbol is at most the given
// magnitude; `largest` receives the largest bound of any subexpression.
int128 MagnitudeBound(mlir::AffineExpr expr, absl::Span<const int128> dims,
                      absl::Span<const int128> symbols, int128& largest) {
  int128 bound = kMagnitudeCap;
  switch (expr.getKind()) {
    case mlir::AffineExprKind::Constant:
      bound = Abs128(mlir::cast<mlir::AffineConstantExpr>(expr).getValue());
      break;
    case mlir::AffineExprKind::DimId:
      bound = dims[mlir::cast<mlir::AffineDimExpr>(expr).getPosition()];
      break;
    case mlir::AffineExprKind::SymbolId:
      bound = symbols[mlir::cast<mlir::AffineSymbolExpr>(expr).getPosition()];
      break;
    default: {
      auto bin = mlir::cast<mlir::AffineBinaryOpExpr>(expr);
      const int128 l = MagnitudeBound(bin.getLHS(), dims, symbols, largest);
      const int128 r = MagnitudeBound(bin.getRHS(), dims, symbols, largest);
      switch (expr.getKind()) {
        case mlir::AffineExprKind::Add:
          bound = l + r;
          break;
        case mlir::AffineExprKind::Mul:
          bound = (l == 0 || r == 0)       ? 0
                  : l >= kMagnitudeCap / r ? kMagnitudeCap
                                           : l * r;
          break;
        case mlir::AffineExprKind::Mod:
          bound = std::min(l, r);
          break;
        default:  // floordiv, ceildiv: |a / c| <= |a| + 1 rounded.
          bound = l + 1;
          break;
      }
    }
  }
  bound = std::min(bound, kMagnitudeCap);
  largest = std::max(largest, bound);
  return bound;
}

std::optional<int64_t> ConstantValue(mlir::AffineExpr expr) {
  if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(expr)) {
    return c.getValue();
  }
  return std::nullopt;
}

// The k with lower <= g + k * shift <= upper, as [k_lo, k_hi] (empty when
// k_lo > k_hi).
std::pair<int128, int128> StepsWithin(int128 g, int128 shift, Interval bound) {
  const int128 lo = bound.lower, hi = bound.upper;
  auto floor_div = [](int128 a, int128 b) {
    int128 q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  };
  auto ceil_div = [&](int128 a, int128 b) { return -floor_div(-a, b); };
  const int128 kNone = kMagnitudeCap;
  if (shift == 0) {
    return (g >= lo && g <= hi) ? std::pair{-kNone, kNone}
                                : std::pair<int128, int128>{1, 0};
  }
  if (shift > 0) return {ceil_div(lo - g, shift), floor_div(hi - g, shift)};
  return {ceil_div(hi - g, shift), floor_div(lo - g, shift)};
}

// The smallest P (a product of the factors the divisions need) for which
// every expression of the map has a shift; `extent` when none below it.
int64_t FindPeriod(const IndexingMap& map, int64_t symbol, int64_t extent) {
  std::vector<mlir::AffineExpr> exprs(map.GetAffineMap().getResults().begin(),
                                      map.GetAffineMap().getResults().end());
  for (const IndexingConstraint& c : map.GetConstraints()) {
    exprs.push_back(c.expr);
  }
  int64_t period = 1;
  while (period < extent) {
    bool all = true;
    for (mlir::AffineExpr e : exprs) {
      int64_t needed = 1;
      if (ShiftOverPeriod(e, symbol, period, &needed)) continue;
      std::optional<int64_t> grown = CheckedMul(period, needed);
      if (needed <= 1 || !grown) return extent;
      period = *grown;
      all = false;
      break;
    }
    if (all) return period;
  }
  return extent;
}

// True when the exact-arithmetic argument applies: no subexpression of the
// map can reach kSafeMagnitude over the sampled box.
bool MagnitudesAreSafe(const IndexingMap& map, int64_t varied, int64_t first,
                       int64_t last, int64_t block) {
  if (map.GetDimensionCount() != kLaunchGridDims) return false;
  std::vector<int128> dims(kLaunchGridDims, 0);
  auto mag = [](int64_t a, int64_t b) {
    return std::max(Abs128(a), Abs128(b));
  };
  dims[kThreadIdX] = mag(first, last);
  dims[kBlockIdX] = mag(block, block);
  std::vector<int128> symbols;
  const std::vector<Interval> bounds = map.GetSymbolBounds();
  for (size_t s = 0; s < bounds.size(); ++s) {
    symbols.push_back(static_cast<int64_t>(s) == varied
                          ? mag(bounds[s].lower, bounds[s].upper)
                          : mag(bounds[s].lower, bounds[s].lower));
  }
  int128 largest = 0;
  for (mlir::AffineExpr e : map.GetAffineMap().getResults()) {
    MagnitudeBound(e, dims, symbols, largest);
  }
  for (const IndexingConstraint& c : map.GetConstraints()) {
    MagnitudeBound(c.expr, dims, symbols, largest);
  }
  return largest < kSafeMagnitude;
}

// An arithmetic progression of offsets: start + i * step, 0 <= i < count.
struct Progression {
  int64_t start = 0;
  int64_t step = 0;
  int64_t count = 1;
};

// The progressions as sorted maximal runs; false past `max_points` listed
// points.
bool ProgressionsToRuns(const std::vector<Progression>& progressions,
                        int64_t max_points, WarpIterationSample& sample) {
  std::vector<Interval> pieces;
  for (const Progression& p : progressions) {
    const int64_t end = p.start + (p.count - 1) * p.step;
    if (p.count == 1 || p.step == 0) {
      pieces.push_back(Interval::Point(p.start));
    } else if (p.step == 1 || p.step == -1) {
      pieces.push_back({std::min(p.start, end), std::max(p.start, end)});
    } else {
      sample.points_evaluated = SaturatingAdd(sample.points_evaluated, p.count);
      if (sample.points_evaluated > max_points) return false;
      for (int64_t i = 0; i < p.count; ++i) {
        pieces.push_back(Interval::Point(p.start + i * p.step));
      }
    }
  }
  std::sort(pieces.begin(), pieces.end(), [](Interval a, Interval b) {
    return a.lower < b.lower || (a.lower == b.lower && a.upper < b.upper);
  });
  for (Interval piece : pieces) {
    if (!sample.runs.empty() &&
        SaturatingAdd(sample.runs.back().upper, 1) >= piece.lower) {
      sample.runs.back().upper =
          std::max(sample.runs.back().upper, piece.upper);
    } else {
      sample.runs.push_back(piece);
    }
  }
  return true;
}

// True when every dimension and symbol value lies in its bounds.
bool InBox(const IndexingMap& map, absl::Span<const int64_t> dims,
           absl::Span<const int64_t> symbols) {
  if (static_cast<int64_t>(dims.size()) != map.GetDimensionCount() ||
      static_cast<int64_t>(symbols.size()) != map.GetSymbolCount()) {
    return false;
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!map.GetDimBound(i).Contains(dims[i])) return false;
  }
  for (size_t i = 0; i < symbols.size(); ++i) {
    if (!map.GetSymbolBound(i).Contains(symbols[i])) return false;
  }
  return true;
}

// The progression iterations r, r + P, ... of one thread read (nullopt:
// none), from one evaluation at r and the shifts (file comment).
std::optional<Progression> ProgressionAt(
    const IndexingMap& map, absl::Span<const int64_t> dims,
    absl::Span<const int64_t> symbols, int64_t varied, int64_t period,
    int64_t offset_shift, absl::Span<const int64_t> constraint_shifts) {
  if (!InBox(map, dims, symbols)) return std::nullopt;
  const Interval range = map.GetSymbolBound(varied);
  int128 k_lo = 0;
  int128 k_hi = (int128{range.upper} - symbols[varied]) / period;
  const auto& constraints = map.GetConstraints();
  for (size_t i = 0; i < constraints.size(); ++i) {
    std::optional<int64_t> g =
        EvaluateAffineExpr(constraints[i].expr, dims, symbols);
    if (!g) return std::nullopt;
    auto [lo, hi] =
        StepsWithin(*g, constraint_shifts[i], constraints[i].interval);
    k_lo = std::max(k_lo, lo);
    k_hi = std::min(k_hi, hi);
  }
  if (k_lo > k_hi) return std::nullopt;
  std::optional<std::vector<int64_t>> f = map.Evaluate(dims, symbols);
  if (!f || f->size() != 1) return std::nullopt;
  Progression p;
  p.start = static_cast<int64_t>((*f)[0] + k_lo * offset_shift);
  p.step = offset_shift;
  p.count = static_cast<int64_t>(k_hi - k_lo + 1);
  return p;
}

}  // namespace

std::optional<int64_t> ShiftOverPeriod(mlir::AffineExpr expr, int64_t symbol,
                                       int64_t period, int64_t* needed) {
  if (needed != nullptr) *needed = 1;
  switch (expr.getKind()) {
    case mlir::AffineExprKind::Constant:
    case mlir::AffineExprKind::DimId:
      return 0;
    case mlir::AffineExprKind::SymbolId:
      return mlir::cast<mlir::AffineSymbolExpr>(expr).getPosition() == symbol
                 ? period
                 : 0;
    default:
      break;
  }
  auto bin = mlir::cast<mlir::AffineBinaryOpExpr>(expr);
  std::optional<int64_t> l =
      ShiftOverPeriod(bin.getLHS(), symbol, period, needed);
  if (!l) return std::nullopt;
  std::optional<int64_t> r =
      ShiftOverPeriod(bin.getRHS(), symbol, period, needed);
  if (!r) return std::nullopt;
  if (expr.getKind() == mlir::AffineExprKind::Add) return CheckedAdd(*l, *r);
  // Neither side moves with the symbol: neither does the result.
  if (*l == 0 && *r == 0) return 0;
  std::optional<int64_t> lc = ConstantValue(bin.getLHS());
  std::optional<int64_t> rc = ConstantValue(bin.getRHS());
  if (expr.getKind() == mlir::AffineExprKind::Mul) {
    if (rc) return CheckedMul(*l, *rc);
    if (lc) return CheckedMul(*r, *lc);
    return std::nullopt;
  }
  // floordiv, ceildiv, mod: by a positive constant only (Evaluate gives no
  // value for a modulus below 1; a negative divisor is left to the walk).
  if (!rc || *rc < 1 || *r != 0) return std::nullopt;
  if (*l % *rc != 0) {
    if (needed != nullptr) *needed = *rc / std::gcd(*l, *rc);
    return std::nullopt;
  }
  return expr.getKind() == mlir::AffineExprKind::Mod ? 0 : *l / *rc;
}

WarpIterationSample SampleWarpOverIterations(
    const IndexingMap& thread_to_offset, int64_t varied, int64_t first,
    int64_t last, int64_t block, int64_t max_points) {
  const IndexingMap& map = thread_to_offset;
  WarpIterationSample sample;
  std::vector<int64_t> symbols;
  for (Interval b : map.GetSymbolBounds()) symbols.push_back(b.lower);
  const Interval range = map.GetSymbolBound(varied);
  const int64_t extent = CheckedAdd(SaturatingSub(range.upper, range.lower), 1)
                             .value_or(Interval::kMax);
  int64_t period = FindPeriod(map, varied, extent);
  if (period < extent && !MagnitudesAreSafe(map, varied, first, last, block)) {
    period = extent;
  }
  sample.period = period;
  const bool periodic = period < extent;
  std::optional<int64_t> work = CheckedMul(last - first + 1, period);
  if (!work || *work > max_points) {
    sample.decided = false;
    return sample;
  }
  int64_t offset_shift = 0;
  std::vector<int64_t> constraint_shifts;
  if (periodic) {
    offset_shift =
        *ShiftOverPeriod(map.GetAffineMap().getResult(0), varied, period);
    for (const IndexingConstraint& c : map.GetConstraints()) {
      constraint_shifts.push_back(*ShiftOverPeriod(c.expr, varied, period));
    }
  }
  std::vector<Progression> progressions;
  // As the warp's walk: the launch grid's dimensions, all 0 but thread x
  // and block x.
  std::vector<int64_t> dims(kLaunchGridDims, 0);
  for (int64_t thread = first; thread <= last; ++thread) {
    dims[kThreadIdX] = thread;
    dims[kBlockIdX] = block;
    for (int64_t i = 0; i < period; ++i) {
      symbols[varied] = range.lower + i;
      ++sample.points_evaluated;
      if (periodic) {
        std::optional<Progression> p =
            ProgressionAt(map, dims, symbols, varied, period, offset_shift,
                          constraint_shifts);
        if (p) progressions.push_back(*p);
        continue;
      }
      if (!map.ConstraintsSatisfied(dims, symbols)) continue;
      std::optional<std::vector<int64_t>> offset = map.Evaluate(dims, symbols);
      if (offset && offset->size() == 1) {
        progressions.push_back({(*offset)[0], 0, 1});
      }
    }
  }
  sample.decided = ProgressionsToRuns(progressions, max_points, sample);
  if (!sample.decided) sample.runs.clear();
  return sample;
}

}  // namespace xla_index
