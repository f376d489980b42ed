#ifndef XLA_INDEX_CORE_EXACT_MAP_QUESTIONS_H_
#define XLA_INDEX_CORE_EXACT_MAP_QUESTIONS_H_

// The two exact questions a pass asks about indexing maps, "do these maps
// relate the same (dims, results) pairs?" and "does this map's domain have
// a point?", answered by the cheapest exact method that applies, each
// within a budget, with a witness point for every "no"/"not empty":
//
//  1. known: UNDEFINED is refused; KNOWN EMPTY, or an empty interval, is the
//     empty relation (equal to any map whose domain is empty, whatever its
//     counts); maps equal as objects are equal.
//  2. enumeration: when the box of the dims and symbols is small (at most
//     ExactBudget::max_enumerated_points evaluations, 2^20 by default),
//     every point is evaluated exactly (map_point_evaluator.h).
//  3. direct, for maps whose results are functions of the dims (no symbol
//     used in a result or constraint): the relations are equal iff the
//     domains are and the results agree on them, which is a handful of
//     emptiness questions of one convex set each (a point of A's domain
//     outside one bound or constraint of B's, or where result i of A minus
//     that of B is >= 1 or <= -1), answered by
//     presburger_relation.h's FindDomainPointWith (divisions with a divisor
//     larger than their range are constants, unit equalities such as a
//     chain d_i - d_{i+1} == 1 are substituted away, a box plus one
//     inequality is decided by its best corner). A few sampled points look
//     for a witness first.
//  4. for maps with symbols, enumeration again up to the larger
//     ExactBudget::max_fallback_points (2^26): it ends within its time
//     budget, where eliminating symbols that enter divisions can take
//     minutes even on maps of a few points;
//  5. Presburger subtraction (FindDifference), with its budget of 4096
//     steps.
// Before 2-5, symbols used only as s_i + k * s_j are merged and symbols
// used only under `mod` shrink to one period (symbol_merging.h); a witness
// is mapped back to the original symbols and re-checked by evaluation.
// Emptiness uses 1, 2, sampling, then FindDomainPointWith. When every
// method that applies runs out of its budget the answer is
// ResourceExhausted naming each method and its budget; the time limit is
// checked between methods and during enumeration (a single Presburger call
// cannot be interrupted: the command-line tool adds a watchdog).

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/presburger_relation.h"

namespace xla_index {

/// Limits of the exact questions (see the file comment).
struct ExactBudget {
  /// Most point evaluations of the first enumeration: for `equal`,
  /// |hull of the dim boxes| * (|symbol box of A| + |symbol box of B|); for
  /// `empty`, |dims x symbols box|.
  int64_t max_enumerated_points = int64_t{1} << 20;
  /// Most point evaluations of the enumeration that follows a Presburger
  /// subtraction over its budget.
  int64_t max_fallback_points = int64_t{1} << 26;
  /// Wall time for one question, checked between methods and every few
  /// thousand enumerated points.
  absl::Duration time_limit = absl::Seconds(10);
};

/// The method that gave an answer.
enum class ExactMethod {
  kKnown,
  kEnumeration,
  kSampling,
  kDirect,
  kPresburger,
  kFallbackEnumeration,
};

/// "known", "enumeration", "sampling", "direct", "presburger",
/// "fallback enumeration".
const char* ExactMethodName(ExactMethod method);

struct EqualityAnswer {
  /// nullopt when the maps relate the same pairs; else a pair that exactly
  /// one relates, re-checked by evaluation in both maps.
  std::optional<MapDifference> difference;
  ExactMethod method = ExactMethod::kKnown;
};

struct EmptinessAnswer {
  /// nullopt when the domain is empty; else a point (dims, symbols) that
  /// meets every bound and constraint, and the map's results there.
  std::optional<RelationPoint> point;
  ExactMethod method = ExactMethod::kKnown;
};

/// Whether `a` and `b` relate the same (dims, results) pairs (symbols are
/// existential). InvalidArgument: an UNDEFINED or non-affine map (as
/// IndexingMapToRelation), different dim or result counts when neither
/// relation is empty. ResourceExhausted when no method finished within its
/// budget; OutOfRange when a witness coordinate does not fit in int64.
absl::StatusOr<EqualityAnswer> DecideEquality(const IndexingMap& a,
                                              const IndexingMap& b,
                                              const ExactBudget& budget = {});

/// Whether `map`'s domain (dims and symbols meeting every bound and
/// constraint) is empty. Errors as DecideEquality.
absl::StatusOr<EmptinessAnswer> DecideEmptiness(const IndexingMap& map,
                                                const ExactBudget& budget = {});

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_EXACT_MAP_QUESTIONS_H_
