#include "xla_index/analysis/operand_utilization.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/checked_arithmetic.h"
#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/core/box_points.h"
#include "xla_index/core/interval.h"
#include "xla_index/core/presburger_relation.h"
#include "xla_index/output_to_input_indexing.h"

namespace xla_index {
namespace {

// Elements (or pairs) counted for one map: the distinct elements it reads
// and its (output element, operand element) pairs.
struct MapCounts {
  int64_t elements = 0;
  int64_t pairs = 0;
};

// The wall-clock end of one operand's count. Enumerations look at the clock
// once every kPointsPerClockLook points (a look costs more than a point), so
// fewer points than that always finish; the Presburger steps look before
// every emptiness test. Once passed, it stays passed.
constexpr int64_t kPointsPerClockLook = 4096;
class CountDeadline {
 public:
  explicit CountDeadline(absl::Time end) : end_(end) {}
  // After one more enumerated point: true once the end has passed.
  bool PassedAfterPoint() {
    if (++points_ % kPointsPerClockLook == 0) PassedNow();
    return passed_;
  }
  bool PassedNow() {
    if (!passed_) passed_ = absl::Now() > end_;
    return passed_;
  }
  // The points enumerated so far.
  int64_t points() const { return points_; }

 private:
  absl::Time end_;
  int64_t points_ = 0;
  bool passed_ = false;
};

// ForEachBoxPoint (box_points.h) that also stops, returning false, when
// `deadline` passes.
template <typename Visit>
bool ForEachBoxPointBefore(absl::Span<const Interval> box, int64_t limit,
                           CountDeadline& deadline, Visit&& visit) {
  return ForEachBoxPointWhile(box, limit,
                              [&](const std::vector<int64_t>& point) {
                                if (deadline.PassedAfterPoint()) return false;
                                visit(point);
                                return true;
                              });
}

// The dims and symbols `expr` uses, each once, ascending.
void CollectVariables(mlir::AffineExpr expr, std::vector<int64_t>& dims,
                      std::vector<int64_t>& symbols) {
  expr.walk([&](mlir::AffineExpr e) {
    if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(e)) {
      dims.push_back(d.getPosition());
    } else if (auto s = mlir::dyn_cast<mlir::AffineSymbolExpr>(e)) {
      symbols.push_back(s.getPosition());
    }
  });
  std::sort(dims.begin(), dims.end());
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  std::sort(symbols.begin(), symbols.end());
  symbols.erase(std::unique(symbols.begin(), symbols.end()), symbols.end());
}

// Results of a map that share variables (directly or through other
// results), with the dims and symbols they use, each ascending.
struct ResultGroup {
  std::vector<int64_t> results;
  std::vector<int64_t> dims;
  std::vector<int64_t> symbols;
  /// Constraints over the group's variables (indices into GetConstraints).
  std::vector<int64_t> constraints;
};

// The results of `map` split into groups that share no variable (union-find
// over the results and constraints, joined through each variable's first
// user); each constraint joins the group of its variables. nullopt when a
// constraint shares no variable with any result (it would restrict the
// domain without a group to count it in).
std::optional<std::vector<ResultGroup>> GroupResults(const IndexingMap& map) {
  const int64_t results = map.GetResultCount();
  const std::vector<IndexingConstraint>& constraints = map.GetConstraints();
  // Items 0..results-1 are the results, then the constraints.
  const int64_t count = results + constraints.size();
  std::vector<int64_t> parent(count);
  for (int64_t k = 0; k < count; ++k) parent[k] = k;
  auto find = [&](int64_t k) {
    while (parent[k] != k) k = parent[k] = parent[parent[k]];
    return k;
  };
  std::vector<int64_t> dim_user(map.GetDimensionCount(), -1);
  std::vector<int64_t> symbol_user(map.GetSymbolCount(), -1);
  std::vector<std::vector<int64_t>> dims(count), symbols(count);
  for (int64_t k = 0; k < count; ++k) {
    CollectVariables(k < results ? map.GetAffineMap().getResult(k)
                                 : constraints[k - results].expr,
                     dims[k], symbols[k]);
    auto join = [&](std::vector<int64_t>& user, int64_t v) {
      if (user[v] < 0) {
        user[v] = k;
      } else {
        parent[find(k)] = find(user[v]);
      }
    };
    for (int64_t d : dims[k]) join(dim_user, d);
    for (int64_t s : symbols[k]) join(symbol_user, s);
  }
  std::vector<ResultGroup> groups;
  std::vector<int64_t> group_of(count, -1);
  for (int64_t k = 0; k < count; ++k) {
    int64_t& g = group_of[find(k)];
    if (g < 0) {
      if (k >= results) return std::nullopt;  // a constraint without results
      g = groups.size();
      groups.emplace_back();
    }
    ResultGroup& group = groups[g];
    (k < results ? group.results : group.constraints)
        .push_back(k < results ? k : k - results);
    group.dims.insert(group.dims.end(), dims[k].begin(), dims[k].end());
    group.symbols.insert(group.symbols.end(), symbols[k].begin(),
                         symbols[k].end());
  }
  for (ResultGroup& group : groups) {
    for (std::vector<int64_t>* v : {&group.dims, &group.symbols}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
  }
  return groups;
}

// For a group of results, over the points of its own dims D and symbols S
// (symbols innermost, so consecutive points with the same dims form one
// d's group): |V| = the distinct in-bounds result tuples, and
// sum over d in D of |V(d)| = the pairs. nullopt beyond `limit` points or
// when the group's part of the operand has more than INT64_MAX elements
// (a tuple is kept as its row-major index in that part), or when `deadline`
// passes. `distinct`, when given, receives V (those indices).
std::optional<MapCounts> CountGroupValues(
    const ResultGroup& group, const IndexingMap& map,
    const std::vector<Interval>& symbol_bounds,
    absl::Span<const int64_t> operand_dims, int64_t limit,
    CountDeadline& deadline, std::vector<int64_t>* distinct = nullptr) {
  std::vector<int64_t> group_dims;
  for (int64_t k : group.results) group_dims.push_back(operand_dims[k]);
  if (!CheckedProduct(group_dims)) return std::nullopt;
  std::vector<Interval> box;
  for (int64_t d : group.dims) box.push_back(map.GetDimBound(d));
  for (int64_t s : group.symbols) box.push_back(symbol_bounds[s]);
  std::vector<int64_t> all_dims(map.GetDimensionCount(), 0);
  std::vector<int64_t> all_symbols(map.GetSymbolCount(), 0);
  absl::flat_hash_set<int64_t> values, in_group;
  const size_t num_dims = group.dims.size();
  std::vector<int64_t> group_key(num_dims, 0);
  int64_t group_sum = 0;
  auto visit = [&](const std::vector<int64_t>& p) {
    if (!std::equal(group_key.begin(), group_key.end(), p.begin())) {
      group_sum += in_group.size();
      in_group.clear();
      std::copy(p.begin(), p.begin() + num_dims, group_key.begin());
    }
    for (size_t i = 0; i < num_dims; ++i) all_dims[group.dims[i]] = p[i];
    for (size_t i = 0; i < group.symbols.size(); ++i) {
      all_symbols[group.symbols[i]] = p[num_dims + i];
    }
    for (int64_t c : group.constraints) {
      const IndexingConstraint& constraint = map.GetConstraints()[c];
      std::optional<int64_t> v =
          EvaluateAffineExpr(constraint.expr, all_dims, all_symbols);
      if (!v || !constraint.interval.Contains(*v)) return;
    }
    int64_t index = 0;
    for (size_t i = 0; i < group.results.size(); ++i) {
      std::optional<int64_t> v =
          EvaluateAffineExpr(map.GetAffineMap().getResult(group.results[i]),
                             all_dims, all_symbols);
      if (!v || *v < 0 || *v >= group_dims[i]) return;
      index = index * group_dims[i] + *v;  // below the checked product
    }
    values.insert(index);
    in_group.insert(index);
  };
  if (!ForEachBoxPointBefore(box, limit, deadline, visit)) return std::nullopt;
  group_sum += in_group.size();
  if (distinct != nullptr) distinct->assign(values.begin(), values.end());
  return MapCounts{static_cast<int64_t>(values.size()), group_sum};
}

// The box of `map`'s dims then symbols with every variable that appears in
// no result and no constraint pinned to its lower bound: the results and
// constraints do not change along such a variable, so the image is the same
// and an enumeration costs the used variables only (a broadcast after a
// reduce adds output dims that no map reads through). An empty interval
// stays empty (the map reads nothing). `unused_dims`, when given, receives
// the product of the unused dims' sizes (saturating).
std::vector<Interval> UsedVariableBox(const IndexingMap& map,
                                      int64_t* unused_dims = nullptr) {
  std::vector<int64_t> dims, symbols;
  for (mlir::AffineExpr result : map.GetAffineMap().getResults()) {
    CollectVariables(result, dims, symbols);
  }
  for (const IndexingConstraint& constraint : map.GetConstraints()) {
    CollectVariables(constraint.expr, dims, symbols);
  }
  std::vector<Interval> box = map.GetDimBounds();
  const int64_t num_dims = map.GetDimensionCount();
  for (const Interval& s : map.GetSymbolBounds()) box.push_back(s);
  std::vector<bool> used(box.size(), false);
  for (int64_t d : dims) used[d] = true;
  for (int64_t s : symbols) used[num_dims + s] = true;
  if (unused_dims != nullptr) *unused_dims = 1;
  for (size_t v = 0; v < box.size(); ++v) {
    if (used[v] || box[v].IsEmpty()) continue;
    if (unused_dims != nullptr && static_cast<int64_t>(v) < num_dims) {
      *unused_dims = SaturatingMul(*unused_dims, box[v].NumElements());
    }
    box[v].upper = box[v].lower;
  }
  return box;
}

// `expr` as c + sum of +-v over distinct variables v (dims and symbols),
// e.g. a dynamic-slice's `d1 + s0`: appends each variable's bounds (as
// +v's interval, negated for -v) to `terms` and returns c; nullopt for any
// other form.
std::optional<int64_t> UnitLinearForm(mlir::AffineExpr expr,
                                      const IndexingMap& map,
                                      const std::vector<Interval>& symbols,
                                      std::vector<Interval>& dim_terms,
                                      std::vector<Interval>& symbol_terms) {
  if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(expr)) {
    return c.getValue();
  }
  if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(expr)) {
    dim_terms.push_back(map.GetDimBound(d.getPosition()));
    return 0;
  }
  if (auto s = mlir::dyn_cast<mlir::AffineSymbolExpr>(expr)) {
    symbol_terms.push_back(symbols[s.getPosition()]);
    return 0;
  }
  auto binary = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(expr);
  if (!binary) return std::nullopt;
  if (binary.getKind() == mlir::AffineExprKind::Mul) {
    auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(binary.getRHS());
    if (!c || c.getValue() != -1) return std::nullopt;
    const size_t dims = dim_terms.size(), syms = symbol_terms.size();
    std::optional<int64_t> inner =
        UnitLinearForm(binary.getLHS(), map, symbols, dim_terms, symbol_terms);
    if (!inner || dim_terms.size() + symbol_terms.size() != dims + syms + 1 ||
        *inner != 0) {
      return std::nullopt;
    }
    Interval& term =
        dim_terms.size() > dims ? dim_terms.back() : symbol_terms.back();
    term = {SaturatingNeg(term.upper), SaturatingNeg(term.lower)};
    return 0;
  }
  if (binary.getKind() != mlir::AffineExprKind::Add) return std::nullopt;
  std::optional<int64_t> lhs =
      UnitLinearForm(binary.getLHS(), map, symbols, dim_terms, symbol_terms);
  std::optional<int64_t> rhs =
      UnitLinearForm(binary.getRHS(), map, symbols, dim_terms, symbol_terms);
  if (!lhs || !rhs) return std::nullopt;
  return CheckedAdd(*lhs, *rhs);
}

// Counts of a one-result group `c + sum of +-v` without constraints, each
// variable once: a sum of integer intervals is the integer interval of the
// sums, so V = [c + sum lo, c + sum hi] inside the operand, and for each
// dims point the symbols add an interval of width W = sum of the symbols'
// widths. Exact only when no dims point's interval leaves the operand (then
// each reads W elements); nullopt otherwise, or for another form.
std::optional<MapCounts> CountUnitLinearGroup(
    const ResultGroup& group, const IndexingMap& map,
    const std::vector<Interval>& symbol_bounds, int64_t operand_size) {
  if (group.results.size() != 1 || !group.constraints.empty()) {
    return std::nullopt;
  }
  std::vector<Interval> dim_terms, symbol_terms;
  std::optional<int64_t> constant =
      UnitLinearForm(map.GetAffineMap().getResult(group.results[0]), map,
                     symbol_bounds, dim_terms, symbol_terms);
  if (!constant || dim_terms.size() + symbol_terms.size() !=
                       group.dims.size() + group.symbols.size()) {
    return std::nullopt;  // a variable used twice
  }
  Interval total = {*constant, *constant};
  int64_t dim_points = 1;
  for (const Interval& t : dim_terms) {
    total = total + t;
    dim_points = SaturatingMul(dim_points, t.NumElements());
  }
  Interval symbols = {0, 0};
  for (const Interval& t : symbol_terms) symbols = symbols + t;
  for (const Interval& t : symbol_terms) total = total + t;
  const Interval operand = {0, operand_size - 1};
  if (!operand.Contains(total)) return std::nullopt;
  const int64_t width = symbols.NumElements();
  std::optional<int64_t> pairs = CheckedMul(dim_points, width);
  if (!pairs) return std::nullopt;
  return MapCounts{total.NumElements(), *pairs};
}

// Counts of a map one group of results (sharing variables, directly or
// through constraints) at a time; nullopt when a constraint has no result in
// its group, a group's variables span more than `limit` points, or a count
// does not fit in int64.
//
// With group g depending only on its dims D_g and symbols S_g, the image
// is the product of the per-group tuple sets V_g, and for a domain point d
// the elements it reads are the product of the sets V_g(d restricted to
// D_g). So |image| = prod |V_g| and the pairs are
// prod_g (sum over d_g of |V_g(d_g)|) * prod over unused dims of their size.
// Elementwise, broadcast, transpose, slice, reduce, dot have one result a
// group; a reshape's floordiv/mod pair of one dimension is one group.
//
// Runtime variables count as symbols over their feasible values for the
// elements read (every offset they may take) and at the representative
// offset, their lower bound, for the pairs (one read per output element):
// `runtime_at_representative` picks the second.
std::optional<MapCounts> CountSeparable(const IndexingMap& map,
                                        absl::Span<const int64_t> operand_dims,
                                        int64_t limit,
                                        bool runtime_at_representative,
                                        CountDeadline& deadline) {
  std::optional<std::vector<ResultGroup>> groups = GroupResults(map);
  if (!groups) return std::nullopt;
  std::vector<Interval> symbol_bounds = map.GetSymbolBounds();
  if (runtime_at_representative) {
    for (int64_t s = map.GetRangeVarsCount(); s < map.GetSymbolCount(); ++s) {
      symbol_bounds[s] = {symbol_bounds[s].lower, symbol_bounds[s].lower};
    }
  }
  std::vector<bool> dim_used(map.GetDimensionCount(), false);
  std::optional<int64_t> elements = 1, pairs = 1;
  for (const ResultGroup& group : *groups) {
    for (int64_t d : group.dims) dim_used[d] = true;
    mlir::AffineExpr expr = map.GetAffineMap().getResult(group.results[0]);
    MapCounts counted;
    if (group.results.size() == 1 && group.constraints.empty() &&
        (mlir::isa<mlir::AffineDimExpr>(expr) ||
         mlir::isa<mlir::AffineSymbolExpr>(expr))) {
      // A bare variable (elementwise, transpose, broadcast, reduce) takes
      // each value of its interval inside the operand once: counted without
      // enumerating it.
      Interval bound = group.dims.empty() ? symbol_bounds[group.symbols[0]]
                                          : map.GetDimBound(group.dims[0]);
      Interval inside =
          bound.Intersect({0, operand_dims[group.results[0]] - 1});
      counted.elements = counted.pairs =
          inside.IsEmpty() ? 0 : inside.NumElements();
    } else if (std::optional<MapCounts> linear = CountUnitLinearGroup(
                   group, map, symbol_bounds, operand_dims[group.results[0]])) {
      counted = *linear;
    } else {
      std::optional<MapCounts> values = CountGroupValues(
          group, map, symbol_bounds, operand_dims, limit, deadline);
      if (!values) return std::nullopt;
      counted = *values;
    }
    if (elements) elements = CheckedMul(*elements, counted.elements);
    if (pairs) pairs = CheckedMul(*pairs, counted.pairs);
  }
  for (int64_t d = 0; d < map.GetDimensionCount(); ++d) {
    if (!dim_used[d] && pairs) {
      pairs = CheckedMul(*pairs, map.GetDimBound(d).NumElements());
    }
  }
  if (!elements || !pairs) return std::nullopt;
  return MapCounts{*elements, *pairs};
}

// True when every result of `point` lies inside the operand.
bool InsideOperand(absl::Span<const int64_t> point,
                   absl::Span<const int64_t> operand_dims) {
  for (size_t k = 0; k < point.size(); ++k) {
    if (point[k] < 0 || point[k] >= operand_dims[k]) return false;
  }
  return true;
}

// Pairs of any map by enumeration: for each domain point, the distinct
// in-bounds elements over its range variables. Runtime variables sit at the
// lower bound of their feasible values. Variables in no result and no
// constraint are pinned (UsedVariableBox): each value of an unused dim
// reads the same elements, so the unused dims multiply the count. nullopt
// when the box of the used dims and range variables exceeds `limit`, the
// count does not fit, or `deadline` passes.
std::optional<int64_t> CountPairsByEnumeration(
    const IndexingMap& map, absl::Span<const int64_t> operand_dims,
    int64_t limit, CountDeadline& deadline) {
  int64_t unused_dims = 1;
  const std::vector<Interval> used = UsedVariableBox(map, &unused_dims);
  const int64_t num_dims = map.GetDimensionCount();
  const int64_t num_ranges = map.GetRangeVarsCount();
  // Dims, then range variables (the symbols before the runtime ones).
  const std::vector<Interval> box(used.begin(),
                                  used.begin() + num_dims + num_ranges);
  std::vector<int64_t> symbols(map.GetSymbolCount());
  for (int64_t s = num_ranges; s < map.GetSymbolCount(); ++s) {
    symbols[s] = map.GetSymbolBound(s).lower;
  }
  int64_t pairs = 0;
  std::vector<int64_t> current_dims;
  absl::flat_hash_set<std::vector<int64_t>> group;
  auto visit = [&](const std::vector<int64_t>& p) {
    std::vector<int64_t> dims(p.begin(), p.begin() + num_dims);
    if (dims != current_dims) {
      pairs += group.size();
      group.clear();
      current_dims = dims;
    }
    for (int64_t s = 0; s < num_ranges; ++s) symbols[s] = p[num_dims + s];
    if (!map.ConstraintsSatisfied(dims, symbols)) return;
    std::optional<std::vector<int64_t>> r = map.Evaluate(dims, symbols);
    if (!r || r->size() != operand_dims.size()) return;
    if (InsideOperand(*r, operand_dims)) group.insert(*r);
  };
  if (!ForEachBoxPointBefore(box, limit, deadline, visit)) return std::nullopt;
  return CheckedMul(pairs + static_cast<int64_t>(group.size()), unused_dims);
}

// Upper bound on the pairs: every point of the dims x range variables box
// (saturating).
int64_t BoxPairs(const IndexingMap& map) {
  int64_t n = 1;
  for (Interval b : map.GetDimBounds()) {
    n = SaturatingMul(n, std::max<int64_t>(0, b.NumElements()));
  }
  for (Interval b : map.GetRangeVarBounds()) {
    n = SaturatingMul(n, std::max<int64_t>(0, b.NumElements()));
  }
  return n;
}

// Adds the in-bounds results of `map` to `read` (as row-major linear
// indices), point by point over its used dims and symbols (UsedVariableBox,
// at most `limit` points). False when the box is larger or `deadline`
// passes.
bool EnumerateReads(const IndexingMap& map,
                    absl::Span<const int64_t> operand_dims, int64_t limit,
                    CountDeadline& deadline,
                    absl::flat_hash_set<int64_t>& read) {
  const int64_t num_dims = map.GetDimensionCount();
  const std::vector<Interval> box = UsedVariableBox(map);
  return ForEachBoxPointBefore(
      box, limit, deadline, [&](const std::vector<int64_t>& point) {
        absl::Span<const int64_t> all(point);
        absl::Span<const int64_t> dims = all.subspan(0, num_dims);
        absl::Span<const int64_t> syms = all.subspan(num_dims);
        if (!map.ConstraintsSatisfied(dims, syms)) return;
        std::optional<std::vector<int64_t>> results = map.Evaluate(dims, syms);
        if (!results || results->size() != operand_dims.size() ||
            !InsideOperand(*results, operand_dims)) {
          return;
        }
        // In bounds, so the linear index is below the element count, which
        // fits (the caller checked).
        int64_t linear = 0;
        for (size_t k = 0; k < operand_dims.size(); ++k) {
          linear = linear * operand_dims[k] + (*results)[k];
        }
        read.insert(linear);
      });
}

// Elements of the operand inside the box of the map's result ranges (the
// simplifier's range analysis), saturating.
int64_t BoundingBoxCount(const IndexingMap& map,
                         absl::Span<const int64_t> operand_dims) {
  if (map.IsKnownEmpty()) return 0;
  int64_t count = 1;
  for (size_t k = 0; k < operand_dims.size(); ++k) {
    Interval range =
        ComputeExpressionRange(map, map.GetAffineMap().getResult(k))
            .Intersect({0, operand_dims[k] - 1});
    count = SaturatingMul(count, range.IsEmpty() ? 0 : range.NumElements());
  }
  return count;
}

// True when `map` names elements of a rank-`rank` operand (not UNDEFINED,
// the right number of results) or reads nothing.
bool HasRule(const IndexingMap& map, int64_t rank) {
  if (map.IsUndefined()) return false;
  return map.IsKnownEmpty() || map.GetResultCount() == rank;
}

// The row-major linear index of each element of one group's value set V_g
// (CountGroupValues' indices over the group's results): the group's part of
// the operand's linear index, sum over its results k of coordinate_k *
// stride_k. Whole indices are sums of one part per group.
std::vector<int64_t> GroupLinearParts(const ResultGroup& group,
                                      absl::Span<const int64_t> operand_dims,
                                      absl::Span<const int64_t> strides,
                                      absl::Span<const int64_t> values) {
  std::vector<int64_t> parts;
  parts.reserve(values.size());
  for (int64_t value : values) {
    int64_t part = 0;
    for (size_t i = group.results.size(); i-- > 0;) {
      const int64_t k = group.results[i];
      part += (value % operand_dims[k]) * strides[k];
      value /= operand_dims[k];
    }
    parts.push_back(part);
  }
  return parts;
}

// Adds to `read` the image of a map whose results split into groups with
// the linear parts `parts` (one list per group): every sum of one part per
// group, row-major over the groups (the image is the product of the V_g).
// False when `deadline` passes first (each element listed is a point).
bool AddProductOfParts(const std::vector<std::vector<int64_t>>& parts,
                       CountDeadline& deadline,
                       absl::flat_hash_set<int64_t>& read) {
  std::vector<size_t> choice(parts.size(), 0);
  while (true) {
    if (deadline.PassedAfterPoint()) return false;
    int64_t linear = 0;
    for (size_t g = 0; g < parts.size(); ++g) linear += parts[g][choice[g]];
    read.insert(linear);
    size_t g = parts.size();
    while (g > 0 && ++choice[g - 1] == parts[g - 1].size()) choice[--g] = 0;
    if (g == 0) return true;
  }
}

// E of the union of `maps` from their images, not their domains: a map's
// results split into groups that share no variable (GroupResults), its
// image is the product of the groups' value sets V_g (CountGroupValues,
// over each group's own variables), and that product is listed element by
// element into one set. The cost is the groups' boxes plus the sizes of the
// images, whatever the number of output elements or reduced elements that
// read them. nullopt when a map has no rule or no grouping, a group's box
// or the images together exceed `limit`, the operand's element count does
// not fit, or `deadline` passes. Runtime variables range over their
// feasible values, as for the elements read by CountSeparable.
std::optional<int64_t> CountImageUnion(const IndexingMapSet& maps,
                                       absl::Span<const int64_t> operand_dims,
                                       int64_t limit, CountDeadline& deadline) {
  if (!CheckedProduct(operand_dims)) return std::nullopt;
  const int64_t rank = static_cast<int64_t>(operand_dims.size());
  std::vector<int64_t> strides(rank, 1);
  for (int64_t k = rank - 1; k > 0; --k) {
    strides[k - 1] = strides[k] * operand_dims[k];  // below the product
  }
  absl::flat_hash_set<int64_t> read;
  int64_t listed = 0;
  for (const IndexingMap& map : maps) {
    if (map.IsKnownEmpty()) continue;
    if (!HasRule(map, rank)) return std::nullopt;
    // An empty interval, also of a variable no group holds: nothing read.
    if (CountBoxPoints(UsedVariableBox(map)) == 0) continue;
    std::optional<std::vector<ResultGroup>> groups = GroupResults(map);
    if (!groups) return std::nullopt;
    const std::vector<Interval> symbol_bounds = map.GetSymbolBounds();
    std::vector<std::vector<int64_t>> parts;
    int64_t image = 1;
    for (const ResultGroup& group : *groups) {
      std::vector<int64_t> values;
      if (!CountGroupValues(group, map, symbol_bounds, operand_dims, limit,
                            deadline, &values)) {
        return std::nullopt;
      }
      image *= static_cast<int64_t>(values.size());  // at most the product
      parts.push_back(GroupLinearParts(group, operand_dims, strides, values));
    }
    listed += image;
    if (listed > limit) return std::nullopt;
    if (image > 0 && !AddProductOfParts(parts, deadline, read)) {
      return std::nullopt;
    }
  }
  return static_cast<int64_t>(read.size());
}

// E of the union of `maps` by membership: the hull of the maps' result
// ranges (inside the operand) is enumerated, and an element counts when the
// relation of some map with its results fixed to that element has an integer
// point. nullopt when the hull holds more than kMaxPresburgerImagePoints
// elements, a map has no exact relation (UNDEFINED, non-affine) or
// `deadline` passes (looked at before each element). Each emptiness test
// adds one to `checks`.
std::optional<int64_t> CountImageByMembership(
    const IndexingMapSet& maps, absl::Span<const int64_t> operand_dims,
    CountDeadline& deadline, int64_t& checks) {
  const size_t rank = operand_dims.size();
  std::vector<Interval> hull(rank, Interval{0, -1});
  std::vector<mlir::presburger::IntegerRelation> relations;
  for (const IndexingMap& map : maps) {
    if (map.IsKnownEmpty()) continue;
    if (!HasRule(map, rank)) return std::nullopt;
    for (size_t k = 0; k < rank; ++k) {
      Interval range =
          ComputeExpressionRange(map, map.GetAffineMap().getResult(k))
              .Intersect({0, operand_dims[k] - 1});
      if (!range.IsEmpty())
        hull[k] = hull[k].IsEmpty() ? range : hull[k].Union(range);
    }
    absl::StatusOr<mlir::presburger::IntegerRelation> relation =
        IndexingMapToRelation(map);
    if (!relation.ok()) return std::nullopt;
    relations.push_back(*std::move(relation));
  }
  std::optional<int64_t> points = CountBoxPoints(hull);
  if (!points || *points > kMaxPresburgerImagePoints) return std::nullopt;
  int64_t count = 0;
  bool out_of_time = false;
  ForEachBoxPoint(hull, kMaxPresburgerImagePoints,
                  [&](const std::vector<int64_t>& element) {
                    // One look at the clock per element: each costs an
                    // emptiness test per map, far more than the look.
                    if (out_of_time || deadline.PassedNow()) {
                      out_of_time = true;
                      return;
                    }
                    for (const auto& relation : relations) {
                      mlir::presburger::IntegerRelation fixed = relation;
                      const unsigned range = fixed.getVarKindOffset(
                          mlir::presburger::VarKind::Range);
                      for (size_t k = 0; k < rank; ++k) {
                        std::vector<int64_t> row(fixed.getNumCols(), 0);
                        row[range + k] = 1;
                        row.back() = -element[k];
                        fixed.addEquality(row);
                      }
                      ++checks;
                      if (!IsIntegerEmptyByUnitElimination(fixed)) {
                        ++count;
                        return;
                      }
                    }
                  });
  if (out_of_time) return std::nullopt;
  return count;
}

// E of the union of `maps`: counted point by point (over the used variables)
// when every map has a rule and their boxes hold at most `max_points`
// points in total and the operand's element count fits; else by membership
// (above); otherwise (also when `deadline` passes) the sum of the per-map
// bounding boxes (every element for a map without a rule), capped at the
// count. Returns E and how it was counted.
std::pair<int64_t, UtilizationMethod> CountUnion(
    const IndexingMapSet& maps, absl::Span<const int64_t> operand_dims,
    int64_t element_count, int64_t max_points, CountDeadline& deadline,
    int64_t& checks) {
  const int64_t rank = static_cast<int64_t>(operand_dims.size());
  std::optional<int64_t> total = CheckedProduct(operand_dims).has_value()
                                     ? std::optional<int64_t>(0)
                                     : std::nullopt;
  for (const IndexingMap& map : maps) {
    if (!total) break;
    if (!HasRule(map, rank)) {
      total = std::nullopt;
      break;
    }
    if (map.IsKnownEmpty()) continue;
    std::optional<int64_t> size = CountBoxPoints(UsedVariableBox(map));
    total = size ? CheckedAdd(*total, *size) : std::nullopt;
    if (total && *total > max_points) total = std::nullopt;
  }
  if (total) {
    absl::flat_hash_set<int64_t> read;
    bool done = true;
    for (const IndexingMap& map : maps) {
      if (done && !map.IsKnownEmpty()) {
        done = EnumerateReads(map, operand_dims, max_points, deadline, read);
      }
    }
    if (done) {
      return {static_cast<int64_t>(read.size()),
              UtilizationMethod::kEnumeration};
    }
  }
  if (std::optional<int64_t> count =
          CountImageByMembership(maps, operand_dims, deadline, checks)) {
    return {*count, UtilizationMethod::kPresburger};
  }
  int64_t bound = 0;
  for (const IndexingMap& map : maps) {
    int64_t box = HasRule(map, rank) ? BoundingBoxCount(map, operand_dims)
                                     : element_count;
    bound = std::min(element_count, SaturatingAdd(bound, box));
  }
  return {bound, UtilizationMethod::kBound};
}

// True when no element is read by two of `maps`, decided exactly: the
// range sets of their relations intersect pairwise in no integer point.
// False also when a map has no exact relation, there are more than
// kMaxDisjointMaps maps (quadratic), or `deadline` passes (looked at before
// each intersection). Each emptiness test adds one to `checks`.
constexpr size_t kMaxDisjointMaps = 8;
bool ImagesAreDisjoint(const IndexingMapSet& maps, CountDeadline& deadline,
                       int64_t& checks) {
  if (maps.size() > static_cast<int64_t>(kMaxDisjointMaps)) return false;
  std::vector<mlir::presburger::IntegerPolyhedron> images;
  for (const IndexingMap& map : maps) {
    if (map.IsKnownEmpty()) continue;
    absl::StatusOr<mlir::presburger::IntegerRelation> relation =
        IndexingMapToRelation(map);
    if (!relation.ok()) return false;
    images.push_back(relation->getRangeSet());
  }
  for (size_t i = 0; i < images.size(); ++i) {
    for (size_t j = i + 1; j < images.size(); ++j) {
      if (deadline.PassedNow()) return false;
      ++checks;
      if (!images[i].intersect(images[j]).isIntegerEmpty()) return false;
    }
  }
  return true;
}

// What the maps of one operand give when each is counted on its own: the
// reads R (summed over the maps), E when one separable map settles it, the
// sum of the maps' E while every map is separable, and whether R is exact.
struct PerMapCounts {
  int64_t reads = 0;
  bool exact = true;
  std::optional<int64_t> known_elements;
  std::optional<int64_t> sum_of_maps = 0;
};

PerMapCounts CountEachMap(const IndexingMapSet& maps,
                          absl::Span<const int64_t> operand_dims,
                          int64_t element_count, int64_t max_points,
                          CountDeadline& deadline) {
  const int64_t rank = static_cast<int64_t>(operand_dims.size());
  PerMapCounts counts;
  for (const IndexingMap& map : maps) {
    if (map.IsKnownEmpty()) continue;
    if (!HasRule(map, rank)) {
      // No rule: every element may be read; count each once, as a bound.
      counts.sum_of_maps = std::nullopt;
      counts.exact = false;
      counts.reads = std::max(counts.reads, element_count);
      continue;
    }
    if (map.GetRuntimeVarsCount() != 0) counts.exact = false;
    std::optional<MapCounts> separable =
        CountSeparable(map, operand_dims, max_points, false, deadline);
    if (separable && map.GetRuntimeVarsCount() != 0) {
      std::optional<MapCounts> representative =
          CountSeparable(map, operand_dims, max_points, true, deadline);
      separable = representative
                      ? std::optional<MapCounts>(MapCounts{
                            separable->elements, representative->pairs})
                      : std::nullopt;
    }
    if (!separable) counts.sum_of_maps = std::nullopt;
    if (separable && counts.sum_of_maps) {
      counts.sum_of_maps = CheckedAdd(*counts.sum_of_maps, separable->elements);
    }
    if (separable) {
      counts.reads = SaturatingAdd(counts.reads, separable->pairs);
      if (maps.size() == 1 || separable->elements == element_count) {
        counts.known_elements = separable->elements;
      }
      continue;
    }
    if (std::optional<int64_t> pairs =
            CountPairsByEnumeration(map, operand_dims, max_points, deadline)) {
      counts.reads = SaturatingAdd(counts.reads, *pairs);
      continue;
    }
    counts.exact = false;
    counts.reads = SaturatingAdd(counts.reads, BoxPairs(map));
  }
  return counts;
}

}  // namespace

const char* UtilizationMethodName(UtilizationMethod method) {
  switch (method) {
    case UtilizationMethod::kPerResult:
      return "per result";
    case UtilizationMethod::kDisjointSum:
      return "disjoint sum";
    case UtilizationMethod::kEnumeration:
      return "enumeration";
    case UtilizationMethod::kPresburger:
      return "presburger";
    case UtilizationMethod::kBound:
      return "bound";
  }
  return "bound";
}

double OperandUtilization::Fraction() const {
  return element_count == 0
             ? 0.0
             : static_cast<double>(elements_read) / element_count;
}

double OperandUtilization::AverageReads() const {
  return elements_read == 0 ? 0.0 : static_cast<double>(reads) / elements_read;
}

absl::Duration NextOperandTimeBudget(absl::Time end, int64_t operands_left) {
  const absl::Duration left = std::max(absl::ZeroDuration(), end - absl::Now());
  absl::Duration share = kDefaultUtilizationTimeBudget;
  if (operands_left > 0) share = std::max(share, left / operands_left);
  return std::min(share, left);
}

OperandUtilization ComputeOperandUtilization(
    const IndexingMapSet& maps, absl::Span<const int64_t> operand_dims,
    int64_t max_points, absl::Duration time_budget) {
  CountDeadline deadline(absl::Now() + time_budget);
  OperandUtilization counts;
  counts.element_count = 1;
  for (int64_t n : operand_dims) {
    counts.element_count = SaturatingMul(counts.element_count, n);
  }
  const PerMapCounts each = CountEachMap(
      maps, operand_dims, counts.element_count, max_points, deadline);
  counts.reads = each.reads;
  counts.exact = each.exact;
  const bool reads_nothing =
      std::all_of(maps.begin(), maps.end(),
                  [](const IndexingMap& map) { return map.IsKnownEmpty(); });
  if (reads_nothing) {
    counts.elements_read = 0;
  } else if (each.known_elements) {
    counts.elements_read = *each.known_elements;
    counts.method = UtilizationMethod::kPerResult;
  } else if (std::optional<int64_t> listed =
                 CountImageUnion(maps, operand_dims, max_points, deadline)) {
    // Before the disjointness proof: its cost is bounded by the images,
    // while one Presburger intersection can take seconds.
    counts.elements_read = *listed;
    counts.method = UtilizationMethod::kEnumeration;
  } else if (each.sum_of_maps &&
             ImagesAreDisjoint(maps, deadline, counts.presburger_checks)) {
    counts.elements_read = *each.sum_of_maps;
    counts.method = UtilizationMethod::kDisjointSum;
  } else {
    auto [elements, method] =
        CountUnion(maps, operand_dims, counts.element_count, max_points,
                   deadline, counts.presburger_checks);
    counts.elements_read = elements;
    counts.method = method;
    if (method == UtilizationMethod::kBound) counts.exact = false;
  }
  counts.points_enumerated = deadline.points();
  return counts;
}

std::vector<OperandUtilization> ComputeOperandUtilization(
    const HloInstruction& instruction, mlir::MLIRContext* context,
    int64_t max_points, absl::Duration total_time_budget) {
  const absl::Time end = absl::Now() + total_time_budget;
  const Shape& shape = instruction.shape();
  int64_t outputs =
      shape.IsTuple() ? static_cast<int64_t>(shape.tuple_shapes().size()) : 1;
  std::vector<IndexingMapSet> maps(instruction.operand_count());
  for (int64_t out = 0; out < outputs; ++out) {
    HloInstructionIndexing indexing =
        ComputeOutputToInputIndexing(&instruction, out, context);
    for (size_t k = 0; k < indexing.indexing_maps.size() && k < maps.size();
         ++k) {
      maps[k].InsertAll(indexing.indexing_maps[k]);
    }
  }
  std::vector<OperandUtilization> result;
  for (int64_t k = 0; k < instruction.operand_count(); ++k) {
    const Shape& operand = instruction.operand(k)->shape();
    if (!operand.IsArray()) {
      OperandUtilization none;
      none.exact = false;
      none.method = UtilizationMethod::kBound;
      result.push_back(none);
      continue;
    }
    result.push_back(ComputeOperandUtilization(
        maps[k], operand.dimensions(), max_points,
        NextOperandTimeBudget(end, instruction.operand_count() - k)));
  }
  return result;
}

}  // namespace xla_index
