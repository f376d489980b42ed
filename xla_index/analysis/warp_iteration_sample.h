#ifndef XLA_INDEX_ANALYSIS_WARP_ITERATION_SAMPLE_H_
#define XLA_INDEX_ANALYSIS_WARP_ITERATION_SAMPLE_H_

// The element offsets a warp reads over all iterations of one loop (range)
// variable v, as maximal runs of consecutive offsets, without visiting
// every iteration when the map's structure decides them.
//
// The period argument: every expression of an indexing map is built from
// constants, variables, +, * by a constant, and floordiv / ceildiv / mod by
// a constant. For a period P define the shift of each subexpression e,
// D(e) = e(v + P) - e(v) with every other variable fixed:
//   D(v) = P, D(constant or other variable) = 0, D(a + b) = D(a) + D(b),
//   D(a * c) = c D(a), and when c divides D(a):
//   D(a floordiv c) = D(a ceildiv c) = D(a) / c, D(a mod c) = 0.
// Choosing P as a multiple of c / gcd(D(a), c) at each division makes every
// division exact, so the offset f and each constraint g_i satisfy
//   f(v + P) = f(v) + D_f,   g_i(v + P) = g_i(v) + D_i
// for every value of the other variables (the shifts do not depend on
// them). Hence for each thread t and residue r in [lo, lo + P), the
// iterations v = r + kP read f(t, r) + k D_f, and the constraints hold
// exactly for an interval of k (each g_i(t, r) + k D_i in its bounds): an
// arithmetic progression of offsets, from one evaluation per (t, r).
// With D_f = 0 it is one offset, with |D_f| = 1 an interval. With
// |D_f| = D >= 2 every offset is m D + r: per residue r the blocks m read
// form intervals, and between two ends of such intervals the residues
// present are fixed, so the blocks repeat and the runs of consecutive
// offsets of a whole stretch of blocks are counted in closed form (a run
// may join the last residue of one block to residue 0 of the next).
//
// The argument holds for exact integer arithmetic: it is used only when a
// magnitude bound of every subexpression over the sampled box stays below
// 2^62 (so IndexingMap::Evaluate's saturating arithmetic never saturates);
// otherwise, and when P is not below v's extent, every iteration is
// evaluated as IndexingMap::Evaluate does. More than `max_points`
// evaluations (or residues visited) gives `decided = false`, never a guess.

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "xla_index/core/indexing_map.h"
#include "xla_index/core/interval.h"

namespace xla_index {

struct WarpIterationSample {
  /// False when deciding the offsets needed more than the budget.
  bool decided = true;
  /// The distinct offsets read, as maximal runs of consecutive integers:
  /// run length -> how many runs have it (empty when !decided).
  std::map<int64_t, int64_t> run_lengths;
  /// The smallest and largest offset read ({0, -1} when none or !decided).
  Interval span{0, -1};
  /// Map evaluations spent, plus the residues visited per stretch when
  /// progressions of step >= 2 are merged.
  int64_t points_evaluated = 0;
  /// The period P used (v's extent when no shorter period applies).
  int64_t period = 0;
};

/// The shift D with expr(v + period) = expr(v) + D for every value of the
/// other variables, v being symbol `symbol`; nullopt when a division is not
/// exact for this period, a multiplication or division is not by a
/// constant, or arithmetic overflows. `needed`, when not null, receives a
/// factor P must gain to make the first inexact division exact (1 when
/// none).
std::optional<int64_t> ShiftOverPeriod(mlir::AffineExpr expr, int64_t symbol,
                                       int64_t period,
                                       int64_t* needed = nullptr);

/// The offsets `thread_to_offset` (one result) gives for threads x in
/// [first, last] of block x `block` (other dimensions 0), range variable
/// `varied` over its range, the other symbols at their lower bound; points
/// failing the bounds or constraints read nothing (see the file comment).
WarpIterationSample SampleWarpOverIterations(
    const IndexingMap& thread_to_offset, int64_t varied, int64_t first,
    int64_t last, int64_t block, int64_t max_points);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_WARP_ITERATION_SAMPLE_H_
