#ifndef XLA_INDEX_CORE_PRESBURGER_RELATION_H_
#define XLA_INDEX_CORE_PRESBURGER_RELATION_H_

// Exact answers about indexing maps through MLIR's Presburger library
// (mlir/Analysis/Presburger/IntegerRelation.h and PresburgerRelation.h in
// MLIR's Presburger documentation): a map becomes an IntegerRelation from its
// dimensions to its results, and emptiness and equality are decided by that
// library's integer-exact algorithms (generalized basis reduction in
// IntegerRelation::findIntegerSample, set difference in
// PresburgerRelation::subtract) on DynamicAPInt coefficients. Nothing is
// enumerated, so maps over 10^12 points and more are answered exactly.

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

/// The relation of `map` as an mlir::presburger::IntegerRelation:
///
///   { (d, r) : exists s, q .  d_i in dim_bounds[i], s_j in symbol_bounds[j],
///              lo_k <= c_k(d, s, q) <= hi_k for every constraint,
///              r_i = f_i(d, s, q) for every result }
///
/// Columns, in the order of PresburgerSpace::getRelationSpace: the map's
/// dimensions (VarKind::Domain), its results (VarKind::Range), then locals
/// (VarKind::Local, existentially quantified): first the map's symbols (range
/// variables, then runtime variables, over their intervals), then one local
/// per distinct `e floordiv c`, `e ceildiv c` and `e mod c`, each defined by
/// IntegerRelation::addLocalFloorDiv (none when the range of e, from the
/// intervals, lies within one [k*c, k*c + c - 1]: the division is then the
/// constant k, so a divisor larger than the range costs nothing), and a slack
/// local t = e - lo for a constraint whose inequalities MLIR would mistake for
/// a division definition. Results and point constraints (lo == hi) are equality
/// rows, other constraints pairs of inequalities. There are no VarKind::Symbol
/// columns.
/// A bound Interval::kMin / kMax is kept as that int64 bound: variables
/// range over int64, the project's machine integers.
///
/// A KNOWN EMPTY map is the empty relation with its dims and results.
/// Refused with InvalidArgument: an UNDEFINED map, a product of two
/// variables, a division or modulo by a non-constant, a division by zero or a
/// modulo by a non-positive constant (undefined in MLIR's affine expressions);
/// the message names the subexpression.
absl::StatusOr<mlir::presburger::IntegerRelation> IndexingMapToRelation(
    const IndexingMap& map);

/// One element of a map's relation with the symbol values that produce it:
/// results == map.Evaluate(dims, symbols) and
/// map.ConstraintsSatisfied(dims, symbols).
struct RelationPoint {
  std::vector<int64_t> dims;
  std::vector<int64_t> symbols;
  std::vector<int64_t> results;
};

/// A pair (dims, results) that exactly one of two maps relates.
struct MapDifference {
  /// 0 when the first map relates the pair and the second does not, 1 for
  /// the other way round.
  int in_map;
  /// The pair, with the values of the symbols of map `in_map` that give it.
  RelationPoint point;
};

/// True when no (dims, symbols) point satisfies every bound and constraint
/// of `map`, decided exactly: every variable with a coefficient +-1 in an
/// equality row (a result column, a point constraint such as
/// `d0 - d1 in [1, 1]`) is eliminated by substitution, which is exact over
/// the integers, then a box with at most one more inequality is decided
/// directly and anything else by IntegerRelation::findIntegerSample. Errors
/// as IndexingMapToRelation.
absl::StatusOr<bool> IsExactlyEmpty(const IndexingMap& map);

/// sum_k terms[k].second * terms[k].first + constant >= 0, an inequality over
/// a map's dims and symbols (the expressions may have divisions by
/// constants, as the map's own).
struct AffineInequality {
  std::vector<std::pair<mlir::AffineExpr, int64_t>> terms;
  __int128 constant = 0;
};

/// A point (dims, symbols) of `map`'s domain that also satisfies every
/// inequality of `extra`, or nullopt when there is none (also for a KNOWN
/// EMPTY map); `results` of the point is left empty (the caller evaluates
/// the map there). Decided as IsExactlyEmpty, on the domain's relation
/// without result columns. Errors as IndexingMapToRelation (for the map or
/// an inequality's expression), and OutOfRange when a coordinate of the
/// point does not fit in int64.
absl::StatusOr<std::optional<RelationPoint>> FindDomainPointWith(
    const IndexingMap& map, absl::Span<const AffineInequality> extra);

/// IntegerRelation::isIntegerEmpty after the same elimination of unit
/// equalities as IsExactlyEmpty.
bool IsIntegerEmptyByUnitElimination(
    const mlir::presburger::IntegerRelation& relation);

/// IndexingMap::Simplify() with exact emptiness: after the ordinary
/// simplification, a map that still has constraints is checked with
/// IsExactlyEmpty and becomes KnownEmpty (IndexingMap::ResetToKnownEmpty)
/// exactly when no integer point satisfies its bounds and constraints, also
/// when interval reasoning cannot see it (`(d0 + 1) mod 2 in [0, 0]` with
/// `d0 mod 2 in [0, 0]`; `d0 + d1 in [10, 10]` with `d0 - d1 in [3, 3]`).
/// A map without constraints is not checked: its domain is the box of its
/// intervals, and Simplify() already marks it KnownEmpty when one interval
/// is empty. A non-empty map is left as Simplify() leaves it. Returns true
/// if anything changed. Only the domain is converted (the relation of the
/// map without its results: results do not change emptiness and would add
/// columns to the search), so only a constraint can be refused; then the
/// error of IndexingMapToRelation is returned and the map stays as
/// Simplify() left it.
///
/// A free function rather than an option of IndexingMap::Simplify: this
/// target depends on //xla_index/core:indexing_map, not the other way round,
/// and the exact check costs a relation build and an integer-emptiness test
/// per constrained map (docs/PERFORMANCE.md, "Exact emptiness").
absl::StatusOr<bool> SimplifyWithExactEmptiness(IndexingMap& map);

/// A point of `map`'s relation (IntegerRelation::findIntegerSample), or
/// nullopt when the relation is empty. Errors as IndexingMapToRelation, and
/// OutOfRange when a result of the point does not fit in int64.
absl::StatusOr<std::optional<RelationPoint>> FindRelationPoint(
    const IndexingMap& map);

/// A pair (dims, results) in exactly one of the two relations, or nullopt
/// when `a` and `b` relate exactly the same pairs (as sets of pairs: symbols
/// are existential, so maps with different symbols may be equal). Decided by
/// PresburgerRelation::subtract in both directions and findIntegerSample on
/// the difference; a witness is re-checked against both relations before it
/// is returned. InvalidArgument when the dimension or result counts differ;
/// ResourceExhausted (never a wrong answer) when eliminating one map's
/// symbols (PresburgerRelation::computeReprWithOnlyDivLocals) makes it a
/// union of pieces too costly to subtract (more than 4096 steps; about 4%
/// of small random maps with a symbol inside floordiv/mod); the message
/// names the Presburger subtraction and its budget. Other errors
/// as IndexingMapToRelation and FindRelationPoint.
absl::StatusOr<std::optional<MapDifference>> FindDifference(
    const IndexingMap& a, const IndexingMap& b);

/// FindDifference(a, b) has no value: the two relations are the same set.
absl::StatusOr<bool> AreExactlyEqual(const IndexingMap& a,
                                     const IndexingMap& b);

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_PRESBURGER_RELATION_H_
