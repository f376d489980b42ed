#ifndef XLA_INDEX_CORE_SYMBOL_MERGING_H_
#define XLA_INDEX_CORE_SYMBOL_MERGING_H_

// Merging of range variables that a map only ever uses in one combination,
// a direct argument of the exact questions (exact_map_questions.h) that
// shrinks a symbol box without changing the relation.
//
// Read every result, every constraint and every dividend of a division as
// a linear "context" over the symbols (divisions inside it are atoms with
// contexts of their own). If in every context the coefficient of s_j is k
// times that of s_i, for one integer k with 1 <= k <= |interval of s_i|,
// then s_i and s_j only ever appear as s_i + k * s_j, and
//   { s_i + k * s_j : s_i in [a, b], s_j in [c, d] } = [a + k*c, b + k*d]
// because the steps of k * s_j are no longer than the run of s_i (a sum of
// symbols is k = 1, a mixed-radix index s1 + 4 * s2 with s1 in [0, 3] is
// k = 4). So s_j becomes 0 and s_i ranges over [a + k*c, b + k*d]: the map
// relates the same pairs. Repeated, 200 summed symbols become one.
//
// Then a range variable that enters the map only through dividends of
// `mod c` (coefficient a in each) matters only modulo
// P = lcm(c / gcd(a, c)): its interval shrinks to its first P values when
// it is wider (every residue is still met), and an unused one to one
// value. Witness values of a shrunk symbol are values of the original
// interval, so only merges need SplitMergedSymbols.

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/interval.h"

namespace xla_index {

/// One merge: symbol `kept` (then over `kept_before`) absorbed
/// k * symbol `removed` (over `removed_interval`).
struct SymbolMerge {
  int64_t kept;
  int64_t removed;
  int64_t k;
  Interval kept_before;
  Interval removed_interval;
};

struct MergedSymbols {
  /// The map with every removed symbol replaced by 0 (its interval becomes
  /// [0, 0]; the symbol count is unchanged) and every kept one widened.
  IndexingMap map;
  /// In the order they were made.
  std::vector<SymbolMerge> merges;
};

/// Merges range variables of `map` (not runtime variables) while some pair
/// qualifies, then shrinks periodic and unused ones (see the file comment). A
/// map that is UNDEFINED, KNOWN EMPTY, or not affine with constant divisors is
/// returned unchanged.
MergedSymbols MergeSymbolCombinations(const IndexingMap& map);

/// Symbol values of the original map that give the same combination as
/// `symbols` (values of the merged map's symbols), undoing `merges` in
/// reverse order: s_j = clamp(ceil((t - b) / k), c, d), s_i = t - k * s_j.
std::vector<int64_t> SplitMergedSymbols(absl::Span<const SymbolMerge> merges,
                                        std::vector<int64_t> symbols);

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_SYMBOL_MERGING_H_
