#include "xla_index/core/exact_map_questions.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/status_macros.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/core/box_points.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/map_point_evaluator.h"
#include "xla_index/core/presburger_relation.h"
#include "xla_index/core/symbol_merging.h"

namespace xla_index {
namespace {

using Int = MapPointEvaluator::Int;
using Outcome = MapPointEvaluator::Outcome;

/// Enumerated points between two looks at the clock.
constexpr int64_t kPointsPerClockCheck = 4096;
/// Random points tried for a witness before an exact method on a large
/// domain (each is one evaluation, so this costs microseconds).
constexpr int kSamples = 256;
/// Most symbol points enumerated to re-check that a witness is not in the
/// other map.
constexpr int64_t kMaxWitnessCheckPoints = int64_t{1} << 16;

class Deadline {
 public:
  explicit Deadline(absl::Duration limit)
      : limit_(limit), end_(absl::Now() + limit) {}
  bool Passed() const { return absl::Now() > end_; }
  absl::Status Exhausted(absl::string_view method, int64_t done) const {
    return absl::ResourceExhaustedError(absl::StrCat(
        method, " ran out of the time budget of ", absl::FormatDuration(limit_),
        " after ", done, " evaluations"));
  }
  absl::Status Exhausted(absl::string_view method) const {
    return absl::ResourceExhaustedError(
        absl::StrCat(method, " ran out of the time budget of ",
                     absl::FormatDuration(limit_)));
  }

 private:
  absl::Duration limit_;
  absl::Time end_;
};

/// A map with its evaluator and boxes.
struct MapView {
  const IndexingMap* map;
  MapPointEvaluator evaluator;
  std::vector<Interval> dims;
  std::vector<Interval> symbols;
  bool uses_symbols;
};

bool UsesSymbols(const IndexingMap& map);

absl::StatusOr<MapView> View(const IndexingMap& map) {
  XI_ASSIGN_OR_RETURN(MapPointEvaluator evaluator,
                      MapPointEvaluator::Create(map));
  return MapView{&map, std::move(evaluator), map.GetDimBounds(),
                 map.GetSymbolBounds(), UsesSymbols(map)};
}

absl::Status TooBig(const IndexingMap& map) {
  return absl::OutOfRangeError(absl::StrCat(
      "an expression of the map has a value beyond 128 bits at some point "
      "of its domain (",
      map.GetDimensionCount(), " dims)"));
}

/// True when a result or constraint names a symbol: otherwise every symbol
/// is unused and the map is a function of its dims on its domain.
bool UsesSymbols(const IndexingMap& map) {
  bool uses = false;
  auto look = [&](mlir::AffineExpr expr) {
    expr.walk([&](mlir::AffineExpr e) {
      if (mlir::isa<mlir::AffineSymbolExpr>(e)) uses = true;
    });
  };
  for (mlir::AffineExpr r : map.GetAffineMap().getResults()) look(r);
  for (const IndexingConstraint& c : map.GetConstraints()) look(c.expr);
  return uses;
}

/// KNOWN EMPTY, or some dim or symbol interval is empty.
bool HasEmptyRelation(const IndexingMap& map) {
  if (map.IsKnownEmpty()) return true;
  for (Interval b : map.GetDimBounds()) {
    if (b.IsEmpty()) return true;
  }
  for (Interval b : map.GetSymbolBounds()) {
    if (b.IsEmpty()) return true;
  }
  return false;
}

bool InBox(absl::Span<const int64_t> point, absl::Span<const Interval> box) {
  for (size_t i = 0; i < box.size(); ++i) {
    if (!box[i].Contains(point[i])) return false;
  }
  return true;
}

/// The witness (dims, symbols) of `view` with its results as int64.
absl::StatusOr<RelationPoint> MakePoint(const MapView& view,
                                        absl::Span<const int64_t> point) {
  const size_t num_dims = view.dims.size();
  std::vector<Int> results;
  if (view.evaluator.Results(point, results) != Outcome::kOk) {
    return TooBig(*view.map);
  }
  RelationPoint out;
  out.dims.assign(point.begin(), point.begin() + num_dims);
  out.symbols.assign(point.begin() + num_dims, point.end());
  for (Int r : results) {
    if (r < std::numeric_limits<int64_t>::min() ||
        r > std::numeric_limits<int64_t>::max()) {
      return absl::OutOfRangeError(
          "a result of the witness point does not fit in int64");
    }
    out.results.push_back(static_cast<int64_t>(r));
  }
  return out;
}

/// Visits every point of `box` (last coordinate fastest) until `visit`
/// returns true; counts evaluations into `done` and gives up at the
/// deadline. Returns whether `visit` stopped the walk.
template <typename Visit>
absl::StatusOr<bool> WalkBox(absl::Span<const Interval> box,
                             const Deadline& deadline, absl::string_view method,
                             int64_t& done, Visit&& visit) {
  for (Interval b : box) {
    if (b.IsEmpty()) return false;
  }
  std::vector<int64_t> point(box.size());
  for (size_t i = 0; i < box.size(); ++i) point[i] = box[i].lower;
  while (true) {
    if (++done % kPointsPerClockCheck == 0 && deadline.Passed()) {
      return deadline.Exhausted(method, done);
    }
    XI_ASSIGN_OR_RETURN(bool stop, visit(absl::Span<const int64_t>(point)));
    if (stop) return true;
    if (!NextBoxPoint(box, point)) return false;
  }
}

/// The pairs of a relation at fixed dims: tuple k has the results
/// results[k*R, (k+1)*R) and the symbols symbols[k*S, (k+1)*S) that give
/// them; `order` lists the tuples sorted by results, one per distinct
/// tuple. Flat arrays, reused from one dims point to the next.
struct Tuples {
  size_t num_results = 0, num_symbols = 0;
  std::vector<Int> results;
  std::vector<int64_t> symbols;
  std::vector<size_t> order;

  absl::Span<const Int> Results(size_t k) const {
    return absl::MakeConstSpan(results).subspan(k * num_results, num_results);
  }
  absl::Span<const int64_t> Symbols(size_t k) const {
    return absl::MakeConstSpan(symbols).subspan(k * num_symbols, num_symbols);
  }
  bool Less(size_t x, size_t y) const {
    absl::Span<const Int> a = Results(x), b = Results(y);
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }
};

/// Every result tuple of `view` at dims `dims` into `out`.
absl::Status TuplesAt(const MapView& view, absl::Span<const int64_t> dims,
                      const Deadline& deadline, int64_t& done, Tuples& out) {
  out.num_results = view.map->GetResultCount();
  out.num_symbols = view.symbols.size();
  out.results.clear();
  out.symbols.clear();
  out.order.clear();
  if (!InBox(dims, view.dims)) return absl::OkStatus();
  std::vector<int64_t> point(dims.begin(), dims.end());
  point.resize(dims.size() + view.symbols.size());
  std::vector<Int> results;
  XI_RETURN_IF_ERROR(
      WalkBox(view.symbols, deadline, "enumeration", done,
              [&](absl::Span<const int64_t> symbols) -> absl::StatusOr<bool> {
                std::copy(symbols.begin(), symbols.end(),
                          point.begin() + dims.size());
                bool holds = false;
                if (view.evaluator.ConstraintsHold(point, holds) !=
                        Outcome::kOk ||
                    (holds &&
                     view.evaluator.Results(point, results) != Outcome::kOk)) {
                  return TooBig(*view.map);
                }
                if (holds) {
                  out.order.push_back(out.order.size());
                  out.results.insert(out.results.end(), results.begin(),
                                     results.end());
                  out.symbols.insert(out.symbols.end(), symbols.begin(),
                                     symbols.end());
                }
                return false;
              })
          .status());
  std::sort(out.order.begin(), out.order.end(),
            [&](size_t x, size_t y) { return out.Less(x, y); });
  out.order.erase(std::unique(out.order.begin(), out.order.end(),
                              [&](size_t x, size_t y) {
                                return !out.Less(x, y) && !out.Less(y, x);
                              }),
                  out.order.end());
  return absl::OkStatus();
}

/// |hull of the dim boxes| * (|symbols of a| + |symbols of b|), or nullopt
/// beyond int64.
std::optional<int64_t> EnumerationCost(const MapView& a, const MapView& b) {
  std::vector<Interval> hull;
  for (size_t i = 0; i < a.dims.size(); ++i) {
    hull.push_back({std::min(a.dims[i].lower, b.dims[i].lower),
                    std::max(a.dims[i].upper, b.dims[i].upper)});
  }
  // A map that uses no symbol is evaluated once per dims point.
  auto symbol_points = [](const MapView& v) {
    return v.uses_symbols ? CountBoxPoints(v.symbols)
                          : std::optional<int64_t>(1);
  };
  std::optional<int64_t> dims = CountBoxPoints(hull);
  std::optional<int64_t> sa = symbol_points(a);
  std::optional<int64_t> sb = symbol_points(b);
  int64_t symbols, cost;
  if (!dims || !sa || !sb || __builtin_add_overflow(*sa, *sb, &symbols) ||
      __builtin_mul_overflow(*dims, symbols, &cost)) {
    return std::nullopt;
  }
  return cost;
}

/// The first tuple in exactly one of two sorted lists: (side, tuple).
std::optional<std::pair<int, size_t>> FirstMismatch(const Tuples& x,
                                                    const Tuples& y) {
  size_t i = 0, j = 0;
  auto less = [](absl::Span<const Int> a, absl::Span<const Int> b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  };
  while (i < x.order.size() || j < y.order.size()) {
    if (j == y.order.size() ||
        (i < x.order.size() &&
         less(x.Results(x.order[i]), y.Results(y.order[j])))) {
      return std::make_pair(0, x.order[i]);
    }
    if (i == x.order.size() ||
        less(y.Results(y.order[j]), x.Results(x.order[i]))) {
      return std::make_pair(1, y.order[j]);
    }
    ++i;
    ++j;
  }
  return std::nullopt;
}

/// The hull of both maps' dim boxes.
std::vector<Interval> DimHull(const MapView& a, const MapView& b) {
  std::vector<Interval> hull;
  for (size_t i = 0; i < a.dims.size(); ++i) {
    hull.push_back({std::min(a.dims[i].lower, b.dims[i].lower),
                    std::max(a.dims[i].upper, b.dims[i].upper)});
  }
  return hull;
}

/// Whether `view` relates dims `point` (its symbols at their lower bounds,
/// the map using none) and, if so, its results.
absl::StatusOr<bool> FunctionAt(const MapView& view,
                                std::vector<int64_t>& point,
                                std::vector<Int>& results) {
  const size_t num_dims = view.dims.size();
  if (!InBox(absl::MakeConstSpan(point).first(num_dims), view.dims) ||
      !InBox(absl::MakeConstSpan(point).subspan(num_dims), view.symbols)) {
    return false;  // also when a symbol's interval is empty
  }
  bool holds = false;
  if (view.evaluator.ConstraintsHold(point, holds) != Outcome::kOk ||
      (holds && view.evaluator.Results(point, results) != Outcome::kOk)) {
    return TooBig(*view.map);
  }
  return holds;
}

/// EnumerateDifference for two maps that use no symbols: one evaluation of
/// each per dims point, nothing stored.
absl::StatusOr<std::optional<MapDifference>> EnumerateFunctionDifference(
    const MapView& a, const MapView& b, const Deadline& deadline) {
  std::optional<MapDifference> difference;
  std::vector<int64_t> pa, pb;
  std::vector<Int> ra, rb;
  int64_t done = 0;
  XI_RETURN_IF_ERROR(
      WalkBox(DimHull(a, b), deadline, "enumeration", done,
              [&](absl::Span<const int64_t> dims) -> absl::StatusOr<bool> {
                pa.assign(dims.begin(), dims.end());
                for (Interval s : a.symbols) pa.push_back(s.lower);
                pb.assign(dims.begin(), dims.end());
                for (Interval s : b.symbols) pb.push_back(s.lower);
                XI_ASSIGN_OR_RETURN(bool in_a, FunctionAt(a, pa, ra));
                XI_ASSIGN_OR_RETURN(bool in_b, FunctionAt(b, pb, rb));
                if (in_a == in_b && (!in_a || ra == rb)) return false;
                const int side = in_a ? 0 : 1;
                XI_ASSIGN_OR_RETURN(
                    RelationPoint witness,
                    MakePoint(side == 0 ? a : b, side == 0 ? pa : pb));
                difference = MapDifference{side, std::move(witness)};
                return true;
              })
          .status());
  return difference;
}

/// The difference by enumeration: at every dims point of the hull of both
/// dim boxes, the sets of result tuples of both maps are compared.
absl::StatusOr<std::optional<MapDifference>> EnumerateDifference(
    const MapView& a, const MapView& b, const Deadline& deadline) {
  if (!a.uses_symbols && !b.uses_symbols) {
    return EnumerateFunctionDifference(a, b, deadline);
  }
  std::optional<MapDifference> difference;
  Tuples ta, tb;
  int64_t done = 0;
  XI_RETURN_IF_ERROR(
      WalkBox(DimHull(a, b), deadline, "enumeration", done,
              [&](absl::Span<const int64_t> dims) -> absl::StatusOr<bool> {
                XI_RETURN_IF_ERROR(TuplesAt(a, dims, deadline, done, ta));
                XI_RETURN_IF_ERROR(TuplesAt(b, dims, deadline, done, tb));
                std::optional<std::pair<int, size_t>> mismatch =
                    FirstMismatch(ta, tb);
                if (!mismatch) return false;
                const MapView& in = mismatch->first == 0 ? a : b;
                const Tuples& tuples = mismatch->first == 0 ? ta : tb;
                std::vector<int64_t> point(dims.begin(), dims.end());
                absl::Span<const int64_t> symbols =
                    tuples.Symbols(mismatch->second);
                point.insert(point.end(), symbols.begin(), symbols.end());
                XI_ASSIGN_OR_RETURN(RelationPoint witness,
                                    MakePoint(in, point));
                difference = MapDifference{mismatch->first, witness};
                return true;
              })
          .status());
  return difference;
}

/// Whether (dims, results) of `point` is a pair of `view`'s relation: with
/// the point's own symbols when `symbols_given`, else for some symbols
/// (any, when the map uses none; enumerated otherwise, nullopt when there
/// are too many to enumerate).
absl::StatusOr<std::optional<bool>> RelatesPair(const MapView& view,
                                                const RelationPoint& point,
                                                bool symbols_given) {
  if (!InBox(point.dims, view.dims)) return false;
  std::vector<Int> expected(point.results.begin(), point.results.end());
  auto relates = [&](absl::Span<const int64_t> full) -> absl::StatusOr<bool> {
    bool holds = false;
    std::vector<Int> results;
    if (view.evaluator.ConstraintsHold(full, holds) != Outcome::kOk ||
        (holds && view.evaluator.Results(full, results) != Outcome::kOk)) {
      return TooBig(*view.map);
    }
    return holds && results == expected;
  };
  std::vector<int64_t> full = point.dims;
  if (symbols_given) {
    if (!InBox(point.symbols, view.symbols)) return false;
    full.insert(full.end(), point.symbols.begin(), point.symbols.end());
    return relates(full);
  }
  if (!view.uses_symbols) {
    for (Interval s : view.symbols) {
      if (s.IsEmpty()) return false;
      full.push_back(s.lower);
    }
    return relates(full);
  }
  std::optional<int64_t> count = CountBoxPoints(view.symbols);
  if (!count || *count > kMaxWitnessCheckPoints) return std::nullopt;
  full.resize(point.dims.size() + view.symbols.size());
  Deadline no_limit(absl::InfiniteDuration());
  int64_t done = 0;
  return WalkBox(view.symbols, no_limit, "witness check", done,
                 [&](absl::Span<const int64_t> symbols) {
                   std::copy(symbols.begin(), symbols.end(),
                             full.begin() + point.dims.size());
                   return relates(full);
                 });
}

/// Re-checks a difference by evaluation, independently of the method that
/// found it: the pair is in map `in_map` with the given symbols and in the
/// other map for no symbols.
absl::Status CheckDifference(const MapView& a, const MapView& b,
                             const MapDifference& difference,
                             absl::string_view method) {
  const MapView& in = difference.in_map == 0 ? a : b;
  const MapView& other = difference.in_map == 0 ? b : a;
  XI_ASSIGN_OR_RETURN(std::optional<bool> in_relates,
                      RelatesPair(in, difference.point, true));
  // Too many symbols to enumerate: the method's own check stands.
  XI_ASSIGN_OR_RETURN(std::optional<bool> other_relates,
                      RelatesPair(other, difference.point, false));
  if (!in_relates.value_or(false) || other_relates.value_or(false)) {
    return absl::InternalError(absl::StrCat(
        "the ", method, " method gave a pair that is not a witness"));
  }
  return absl::OkStatus();
}

/// A uniformly random point of `box` (every interval non-empty).
std::vector<int64_t> RandomPoint(absl::Span<const Interval> box,
                                 std::mt19937_64& random) {
  std::vector<int64_t> point;
  for (Interval b : box) {
    const unsigned __int128 width =
        static_cast<unsigned __int128>(static_cast<Int>(b.upper) - b.lower) + 1;
    const unsigned __int128 r = random() % width;
    point.push_back(static_cast<int64_t>(static_cast<Int>(b.lower) + r));
  }
  return point;
}

/// For maps that are functions of their dims: a pair in exactly one of the
/// maps at a few points of each domain box (its corners and random points),
/// or nullopt when none was found (which proves nothing).
absl::StatusOr<std::optional<MapDifference>> SampleFunctionDifference(
    const MapView& a, const MapView& b) {
  std::mt19937_64 random(0x5eed);
  for (int side = 0; side < 2; ++side) {
    const MapView& in = side == 0 ? a : b;
    const MapView& other = side == 0 ? b : a;
    for (int k = 0; k < kSamples; ++k) {
      std::vector<int64_t> dims;
      if (k == 0 || k == 1) {
        for (Interval d : in.dims) dims.push_back(k == 0 ? d.lower : d.upper);
      } else {
        dims = RandomPoint(in.dims, random);
      }
      std::vector<int64_t> point = dims;
      for (Interval s : in.symbols) point.push_back(s.lower);
      bool holds = false;
      if (in.evaluator.ConstraintsHold(point, holds) != Outcome::kOk) {
        return TooBig(*in.map);
      }
      if (!holds) continue;
      XI_ASSIGN_OR_RETURN(RelationPoint witness, MakePoint(in, point));
      XI_ASSIGN_OR_RETURN(std::optional<bool> also,
                          RelatesPair(other, witness, false));
      if (also.has_value() && !*also) {
        return MapDifference{side, std::move(witness)};
      }
    }
  }
  return std::nullopt;
}

/// The inequality sign * (x - y) - 1 >= 0 (x, y expressions).
AffineInequality Exceeds(mlir::AffineExpr x, mlir::AffineExpr y, int sign) {
  return {{{x, sign}, {y, -sign}}, -1};
}

/// Points of `in`'s domain outside the bounds or a constraint of `other`'s
/// (both functions of their dims): each a single emptiness question.
absl::StatusOr<std::optional<RelationPoint>> PointOutsideDomain(
    const IndexingMap& in, const IndexingMap& other, const Deadline& deadline) {
  mlir::MLIRContext* context = in.GetMLIRContext();
  std::vector<AffineInequality> questions;
  for (int64_t k = 0; k < in.GetDimensionCount(); ++k) {
    Interval mine = in.GetDimBound(k), theirs = other.GetDimBound(k);
    mlir::AffineExpr d = mlir::getAffineDimExpr(k, context);
    // d <= lo' - 1, d >= hi' + 1.
    if (mine.lower < theirs.lower) {
      questions.push_back({{{d, -1}}, Int{theirs.lower} - 1});
    }
    if (mine.upper > theirs.upper) {
      questions.push_back({{{d, 1}}, -(Int{theirs.upper} + 1)});
    }
  }
  for (const IndexingConstraint& c : other.GetConstraints()) {
    bool implied = false;
    for (const IndexingConstraint& mine : in.GetConstraints()) {
      implied |= mine.expr == c.expr && c.interval.Contains(mine.interval);
    }
    if (implied) continue;
    questions.push_back({{{c.expr, -1}}, Int{c.interval.lower} - 1});
    questions.push_back({{{c.expr, 1}}, -(Int{c.interval.upper} + 1)});
  }
  for (const AffineInequality& question : questions) {
    if (deadline.Passed()) {
      return deadline.Exhausted("the direct method");
    }
    XI_ASSIGN_OR_RETURN(std::optional<RelationPoint> point,
                        FindDomainPointWith(in, {question}));
    if (point) return point;
  }
  return std::nullopt;
}

/// The difference of two maps that are functions of their dims: the
/// domains must be equal, then every result on them.
absl::StatusOr<std::optional<MapDifference>> DirectDifference(
    const MapView& a, const MapView& b, const Deadline& deadline) {
  for (int side = 0; side < 2; ++side) {
    const MapView& in = side == 0 ? a : b;
    const MapView& other = side == 0 ? b : a;
    XI_ASSIGN_OR_RETURN(std::optional<RelationPoint> point,
                        PointOutsideDomain(*in.map, *other.map, deadline));
    if (!point) continue;
    std::vector<int64_t> full = point->dims;
    full.insert(full.end(), point->symbols.begin(), point->symbols.end());
    XI_ASSIGN_OR_RETURN(RelationPoint witness, MakePoint(in, full));
    return MapDifference{side, std::move(witness)};
  }
  mlir::AffineMap fa = a.map->GetAffineMap(), fb = b.map->GetAffineMap();
  for (unsigned i = 0; i < fa.getNumResults(); ++i) {
    if (fa.getResult(i) == fb.getResult(i)) continue;
    for (int sign : {1, -1}) {
      if (deadline.Passed()) {
        return deadline.Exhausted("the direct method");
      }
      XI_ASSIGN_OR_RETURN(
          std::optional<RelationPoint> point,
          FindDomainPointWith(
              *a.map, {Exceeds(fa.getResult(i), fb.getResult(i), sign)}));
      if (!point) continue;
      std::vector<int64_t> full = point->dims;
      full.insert(full.end(), point->symbols.begin(), point->symbols.end());
      XI_ASSIGN_OR_RETURN(RelationPoint witness, MakePoint(a, full));
      return MapDifference{0, std::move(witness)};
    }
  }
  return std::nullopt;
}

}  // namespace

const char* ExactMethodName(ExactMethod method) {
  switch (method) {
    case ExactMethod::kKnown:
      return "known";
    case ExactMethod::kEnumeration:
      return "enumeration";
    case ExactMethod::kSampling:
      return "sampling";
    case ExactMethod::kDirect:
      return "direct";
    case ExactMethod::kPresburger:
      return "presburger";
    case ExactMethod::kFallbackEnumeration:
      return "fallback enumeration";
  }
  return "known";
}

namespace {

absl::Status CheckDefined(const IndexingMap& map) {
  if (map.IsUndefined()) {
    return absl::InvalidArgumentError(
        "an UNDEFINED map has no relation (no indexing rule is known)");
  }
  return map.Verify();
}

/// A point of the domain, or nullopt, by the methods after "known".
absl::StatusOr<EmptinessAnswer> DecideNonTrivialEmptiness(
    const MapView& view, const ExactBudget& budget, const Deadline& deadline) {
  std::vector<Interval> box = view.dims;
  box.insert(box.end(), view.symbols.begin(), view.symbols.end());
  EmptinessAnswer answer;
  std::optional<int64_t> count = CountBoxPoints(box);
  if (view.map->GetConstraintsCount() == 0 ||
      (count && *count <= budget.max_enumerated_points)) {
    // Without constraints the first point of the box is in the domain.
    answer.method = view.map->GetConstraintsCount() == 0
                        ? ExactMethod::kKnown
                        : ExactMethod::kEnumeration;
    int64_t done = 0;
    XI_RETURN_IF_ERROR(
        WalkBox(box, deadline, "enumeration", done,
                [&](absl::Span<const int64_t> point) -> absl::StatusOr<bool> {
                  bool holds = false;
                  if (view.evaluator.ConstraintsHold(point, holds) !=
                      Outcome::kOk) {
                    return TooBig(*view.map);
                  }
                  if (!holds) return false;
                  XI_ASSIGN_OR_RETURN(answer.point, MakePoint(view, point));
                  return true;
                })
            .status());
    return answer;
  }
  std::mt19937_64 random(0x5eed);
  for (int k = 0; k < kSamples; ++k) {
    std::vector<int64_t> point = RandomPoint(box, random);
    bool holds = false;
    if (view.evaluator.ConstraintsHold(point, holds) != Outcome::kOk) {
      return TooBig(*view.map);
    }
    if (!holds) continue;
    XI_ASSIGN_OR_RETURN(answer.point, MakePoint(view, point));
    answer.method = ExactMethod::kSampling;
    return answer;
  }
  if (deadline.Passed()) return deadline.Exhausted("sampling");
  answer.method = ExactMethod::kPresburger;
  XI_ASSIGN_OR_RETURN(std::optional<RelationPoint> point,
                      FindDomainPointWith(*view.map, {}));
  if (!point) return answer;
  std::vector<int64_t> full = point->dims;
  full.insert(full.end(), point->symbols.begin(), point->symbols.end());
  bool holds = false;
  if (!InBox(full, box) ||
      view.evaluator.ConstraintsHold(full, holds) != Outcome::kOk || !holds) {
    return absl::InternalError(
        "the Presburger method gave a point outside the domain");
  }
  XI_ASSIGN_OR_RETURN(answer.point, MakePoint(view, full));
  return answer;
}

/// Equality of two maps with non-empty boxes and the same counts, by the
/// methods after "known".
absl::StatusOr<EqualityAnswer> DecideNonTrivialEquality(
    const MapView& a, const MapView& b, const ExactBudget& budget,
    const Deadline& deadline) {
  EqualityAnswer answer;
  std::optional<int64_t> cost = EnumerationCost(a, b);
  if (cost && *cost <= budget.max_enumerated_points) {
    answer.method = ExactMethod::kEnumeration;
    XI_ASSIGN_OR_RETURN(answer.difference, EnumerateDifference(a, b, deadline));
    return answer;
  }
  if (!a.uses_symbols && !b.uses_symbols) {
    answer.method = ExactMethod::kSampling;
    XI_ASSIGN_OR_RETURN(answer.difference, SampleFunctionDifference(a, b));
    if (answer.difference) return answer;
    answer.method = ExactMethod::kDirect;
    XI_ASSIGN_OR_RETURN(answer.difference, DirectDifference(a, b, deadline));
    return answer;
  }
  // Enumeration of a larger box ends within its budget, where a
  // Presburger subtraction may not (eliminating symbols that enter
  // divisions can take minutes on maps of a few points), so it comes first.
  if (cost && *cost <= budget.max_fallback_points) {
    answer.method = ExactMethod::kFallbackEnumeration;
    XI_ASSIGN_OR_RETURN(answer.difference, EnumerateDifference(a, b, deadline));
    return answer;
  }
  if (deadline.Passed()) return deadline.Exhausted("enumeration");
  answer.method = ExactMethod::kPresburger;
  absl::StatusOr<std::optional<MapDifference>> presburger =
      FindDifference(*a.map, *b.map);
  if (presburger.ok() || !absl::IsResourceExhausted(presburger.status())) {
    XI_ASSIGN_OR_RETURN(answer.difference, std::move(presburger));
    return answer;
  }
  return absl::ResourceExhaustedError(absl::StrCat(
      "no exact method fits its budget; ", presburger.status().message(),
      "; enumeration: ",
      cost ? absl::StrCat(*cost, " evaluations") : "more than 2^63 evaluations",
      " (the budget is ", budget.max_fallback_points, ")"));
}

}  // namespace

absl::StatusOr<EmptinessAnswer> DecideEmptiness(const IndexingMap& map,
                                                const ExactBudget& budget) {
  XI_RETURN_IF_ERROR(CheckDefined(map));
  if (HasEmptyRelation(map)) return EmptinessAnswer{};
  Deadline deadline(budget.time_limit);
  XI_ASSIGN_OR_RETURN(MapView original, View(map));
  MergedSymbols merged = MergeSymbolCombinations(map);
  if (HasEmptyRelation(merged.map)) return EmptinessAnswer{};
  XI_ASSIGN_OR_RETURN(MapView view, View(merged.map));
  XI_ASSIGN_OR_RETURN(EmptinessAnswer answer,
                      DecideNonTrivialEmptiness(view, budget, deadline));
  if (answer.point && !merged.merges.empty()) {
    answer.point->symbols =
        SplitMergedSymbols(merged.merges, answer.point->symbols);
    std::vector<int64_t> full = answer.point->dims;
    full.insert(full.end(), answer.point->symbols.begin(),
                answer.point->symbols.end());
    bool holds = false;
    if (original.evaluator.ConstraintsHold(full, holds) != Outcome::kOk ||
        !holds) {
      return absl::InternalError("a merged symbol was split wrongly");
    }
  }
  return answer;
}

absl::StatusOr<EqualityAnswer> DecideEquality(const IndexingMap& a,
                                              const IndexingMap& b,
                                              const ExactBudget& budget) {
  XI_RETURN_IF_ERROR(CheckDefined(a));
  XI_RETURN_IF_ERROR(CheckDefined(b));
  // Merging keeps the relation and may show it empty (a constraint on the
  // merged symbol alone becomes its interval, e.g. s0 + 2 * s2 in [5, 5]).
  MergedSymbols ma = MergeSymbolCombinations(a);
  MergedSymbols mb = MergeSymbolCombinations(b);
  const bool a_empty = HasEmptyRelation(a) || HasEmptyRelation(ma.map);
  const bool b_empty = HasEmptyRelation(b) || HasEmptyRelation(mb.map);
  if (a_empty || b_empty) {
    // The empty relation equals exactly the maps whose domain is empty,
    // whatever their counts (XLA prints any empty map as KNOWN EMPTY).
    if (a_empty && b_empty) return EqualityAnswer{};
    XI_ASSIGN_OR_RETURN(EmptinessAnswer other,
                        DecideEmptiness(a_empty ? b : a, budget));
    EqualityAnswer answer{std::nullopt, other.method};
    if (other.point) {
      answer.difference = MapDifference{a_empty ? 1 : 0, *other.point};
    }
    return answer;
  }
  if (a.GetDimensionCount() != b.GetDimensionCount() ||
      a.GetResultCount() != b.GetResultCount()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the maps have ", a.GetDimensionCount(), " and ", b.GetDimensionCount(),
        " dimensions, ", a.GetResultCount(), " and ", b.GetResultCount(),
        " results, and neither domain is empty; only maps with the same "
        "counts relate the same kind of pairs"));
  }
  if (a == b) return EqualityAnswer{};
  Deadline deadline(budget.time_limit);
  XI_ASSIGN_OR_RETURN(MapView va, View(a));
  XI_ASSIGN_OR_RETURN(MapView vb, View(b));
  XI_ASSIGN_OR_RETURN(MapView merged_a, View(ma.map));
  XI_ASSIGN_OR_RETURN(MapView merged_b, View(mb.map));
  XI_ASSIGN_OR_RETURN(
      EqualityAnswer answer,
      DecideNonTrivialEquality(merged_a, merged_b, budget, deadline));
  if (answer.difference) {
    const MergedSymbols& in = answer.difference->in_map == 0 ? ma : mb;
    answer.difference->point.symbols =
        SplitMergedSymbols(in.merges, answer.difference->point.symbols);
    XI_RETURN_IF_ERROR(CheckDifference(va, vb, *answer.difference,
                                       ExactMethodName(answer.method)));
  }
  return answer;
}

}  // namespace xla_index
