#include "xla_index/analysis/warp_iteration_sample.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
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

// Adds `count` runs of `length` consecutive offsets.
void AddRuns(int128 length, int128 count, WarpIterationSample& sample) {
  if (length <= 0 || count <= 0) return;
  int64_t& runs = sample.run_lengths[static_cast<int64_t>(length)];
  runs = SaturatingAdd(runs, static_cast<int64_t>(count));
}

// Progressions of step 0 or +-1 (points and intervals): merged into
// maximal runs.
void PointAndIntervalRuns(const std::vector<Progression>& progressions,
                          WarpIterationSample& sample) {
  std::vector<Interval> pieces;
  for (const Progression& p : progressions) {
    const int64_t end = p.start + (p.count - 1) * p.step;
    pieces.push_back({std::min(p.start, end), std::max(p.start, end)});
  }
  std::sort(pieces.begin(), pieces.end(), [](Interval a, Interval b) {
    return a.lower < b.lower || (a.lower == b.lower && a.upper < b.upper);
  });
  std::optional<Interval> run;
  for (Interval piece : pieces) {
    if (run && SaturatingAdd(run->upper, 1) >= piece.lower) {
      run->upper = std::max(run->upper, piece.upper);
      continue;
    }
    if (run) AddRuns(int128{run->upper} - run->lower + 1, 1, sample);
    run = piece;
  }
  if (run) AddRuns(int128{run->upper} - run->lower + 1, 1, sample);
}

// The run that may continue into the next block: it ends at `end`.
struct OpenRun {
  bool open = false;
  int128 end = 0;
  int128 length = 0;
};

// One stretch of `n` consecutive blocks m1 .. m1 + n - 1 of `step`
// integers each, where block m holds m * step + r for r in `segments`
// (maximal runs of residues, ascending). Runs ending inside the stretch
// are added; the one touching its end stays in `open`.
void AddStretch(int128 m1, int128 n, int64_t step,
                const std::vector<std::pair<int64_t, int64_t>>& segments,
                OpenRun& open, WarpIterationSample& sample) {
  const bool adjacent = open.open && open.end + 1 == m1 * step;
  const int128 stretch_end = (m1 + n) * step - 1;
  auto close = [&] {
    if (open.open) AddRuns(open.length, 1, sample);
    open.open = false;
  };
  auto length = [&](size_t i) {
    return int128{segments[i].second} - segments[i].first + 1;
  };
  const size_t q = segments.size();
  const bool starts = segments[0].first == 0;
  const bool ends = segments[q - 1].second == step - 1;
  if (q == 1 && starts && ends) {  // every residue: one run throughout
    if (!adjacent) {
      close();
      open = {true, 0, 0};
    }
    open.length += n * step;
    open.end = stretch_end;
    return;
  }
  // Block m1's first segment continues a run from the block before.
  const bool joined = starts && adjacent;
  if (joined) {
    AddRuns(open.length + length(0), 1, sample);
    open.open = false;
  } else {
    close();
  }
  for (size_t i = 0; i < q; ++i) {
    int128 count = n;
    if (i == 0 && joined) --count;
    // With both ends present, the last segment of block m and the first of
    // block m + 1 form one run: n - 1 such runs, block m1's first segment
    // alone (unless joined) and block m1 + n - 1's last left open.
    if (starts && ends && i == 0) count = joined ? 0 : 1;
    if (ends && i == q - 1) {
      count = 0;
      if (starts)
        AddRuns(length(q - 1) + length(0), n - 1, sample);
      else
        AddRuns(length(i), n - 1, sample);
      open = {true, stretch_end, length(q - 1)};
    }
    AddRuns(length(i), count, sample);
  }
}

// Progressions of one step |step| >= 2: offsets x = m * step + r. Per
// residue r the block indices m form intervals; between two consecutive
// interval ends the residues present are fixed, so blocks repeat and each
// stretch is added in closed form. False past `max_points` of work.
bool ResidueRuns(const std::vector<Progression>& progressions, int64_t step,
                 int64_t max_points, WarpIterationSample& sample) {
  std::map<int64_t, std::vector<std::pair<int64_t, int64_t>>> by_residue;
  for (const Progression& p : progressions) {
    const int64_t low = p.step < 0 ? p.start + (p.count - 1) * p.step : p.start;
    by_residue[FloorMod(low, step)].push_back(
        {FloorDiv(low, step), FloorDiv(low, step) + p.count - 1});
  }
  // (block, +1 / -1, residue), after merging each residue's intervals.
  std::vector<std::tuple<int64_t, int, int64_t>> events;
  for (auto& [residue, blocks] : by_residue) {
    std::sort(blocks.begin(), blocks.end());
    std::optional<std::pair<int64_t, int64_t>> run;
    for (const auto& b : blocks) {
      if (run && b.first <= run->second + 1) {
        run->second = std::max(run->second, b.second);
        continue;
      }
      if (run) {
        events.push_back({run->first, 1, residue});
        events.push_back({run->second + 1, -1, residue});
      }
      run = b;
    }
    events.push_back({run->first, 1, residue});
    events.push_back({run->second + 1, -1, residue});
  }
  std::sort(events.begin(), events.end());
  std::set<int64_t> active;
  OpenRun open;
  for (size_t e = 0; e < events.size();) {
    const int64_t block = std::get<0>(events[e]);
    for (; e < events.size() && std::get<0>(events[e]) == block; ++e) {
      if (std::get<1>(events[e]) > 0) {
        active.insert(std::get<2>(events[e]));
      } else {
        active.erase(std::get<2>(events[e]));
      }
    }
    if (active.empty() || e == events.size()) continue;
    sample.points_evaluated = SaturatingAdd(
        sample.points_evaluated, static_cast<int64_t>(active.size()));
    if (sample.points_evaluated > max_points) return false;
    std::vector<std::pair<int64_t, int64_t>> segments;
    for (int64_t r : active) {
      if (!segments.empty() && segments.back().second + 1 == r) {
        segments.back().second = r;
      } else {
        segments.push_back({r, r});
      }
    }
    AddStretch(block, int128{std::get<0>(events[e])} - block, step, segments,
               open, sample);
  }
  if (open.open) AddRuns(open.length, 1, sample);
  return true;
}

// The distinct offsets of the progressions (all of one step, the offset's
// shift) as run lengths and span; false past `max_points` of work.
bool ProgressionsToRuns(const std::vector<Progression>& progressions,
                        int64_t max_points, WarpIterationSample& sample) {
  if (progressions.empty()) return true;
  int64_t step = 0;
  int64_t lowest = Interval::kMax, highest = Interval::kMin;
  for (const Progression& p : progressions) {
    const int64_t end = p.start + (p.count - 1) * p.step;
    lowest = std::min({lowest, p.start, end});
    highest = std::max({highest, p.start, end});
    if (p.count > 1) step = p.step < 0 ? -p.step : p.step;
  }
  sample.span = {lowest, highest};
  if (step <= 1) {
    PointAndIntervalRuns(progressions, sample);
    return true;
  }
  return ResidueRuns(progressions, step, max_points, sample);
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
  if (!sample.decided) {
    sample.run_lengths.clear();
    sample.span = {0, -1};
  }
  return sample;
}

}  // namespace xla_index
