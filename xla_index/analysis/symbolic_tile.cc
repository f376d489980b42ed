#include "xla_index/analysis/symbolic_tile.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "llvm/ADT/DenseMap.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/core/box_points.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/fusion_indexing.h"

namespace xla_index {
namespace {

// Tile-id points TileLevelConstraint checks one by one before it gives up.
constexpr int64_t kMaxCheckedTiles = int64_t{1} << 20;

// e = rest + sum coeffs[v] * s_v, where rest has no local variable.
struct LinearForm {
  mlir::AffineExpr rest;
  std::map<int64_t, int64_t> coeffs;
};

bool ContainsLocal(mlir::AffineExpr expr, const std::set<int64_t>& locals) {
  bool found = false;
  expr.walk([&](mlir::AffineExpr e) {
    if (auto s = mlir::dyn_cast<mlir::AffineSymbolExpr>(e)) {
      if (locals.count(s.getPosition())) found = true;
    }
  });
  return found;
}

std::optional<LinearForm> Decompose(mlir::AffineExpr expr,
                                    const std::set<int64_t>& locals) {
  mlir::MLIRContext* context = expr.getContext();
  if (!ContainsLocal(expr, locals)) {
    return LinearForm{expr, {}};
  }
  if (auto s = mlir::dyn_cast<mlir::AffineSymbolExpr>(expr)) {
    return LinearForm{mlir::getAffineConstantExpr(0, context),
                      {{s.getPosition(), 1}}};
  }
  if (expr.getKind() == mlir::AffineExprKind::Add) {
    auto add = mlir::cast<mlir::AffineBinaryOpExpr>(expr);
    std::optional<LinearForm> lhs = Decompose(add.getLHS(), locals);
    std::optional<LinearForm> rhs = Decompose(add.getRHS(), locals);
    if (!lhs || !rhs) return std::nullopt;
    for (auto [v, a] : rhs->coeffs) {
      std::optional<int64_t> sum = CheckedAdd(lhs->coeffs[v], a);
      if (!sum) return std::nullopt;
      lhs->coeffs[v] = *sum;
    }
    lhs->rest = lhs->rest + rhs->rest;
    return lhs;
  }
  if (expr.getKind() == mlir::AffineExprKind::Mul) {
    auto mul = mlir::cast<mlir::AffineBinaryOpExpr>(expr);
    mlir::AffineExpr factor = mul.getRHS(), other = mul.getLHS();
    if (!mlir::isa<mlir::AffineConstantExpr>(factor)) std::swap(factor, other);
    auto constant = mlir::dyn_cast<mlir::AffineConstantExpr>(factor);
    if (!constant) return std::nullopt;
    std::optional<LinearForm> form = Decompose(other, locals);
    if (!form) return std::nullopt;
    for (auto& [v, a] : form->coeffs) {
      std::optional<int64_t> product = CheckedMul(a, constant.getValue());
      if (!product) return std::nullopt;
      a = *product;
    }
    form->rest = form->rest * constant.getValue();
    return form;
  }
  // floordiv, ceildiv, mod of an expression with a local variable.
  return std::nullopt;
}

// The divisors c of every `v floordiv c` and `v mod c` in `results`.
std::set<int64_t> DivisorsOf(mlir::AffineExpr sym,
                             const std::vector<mlir::AffineExpr>& results) {
  std::set<int64_t> divisors;
  for (mlir::AffineExpr r : results) {
    r.walk([&](mlir::AffineExpr e) {
      if (e.getKind() != mlir::AffineExprKind::FloorDiv &&
          e.getKind() != mlir::AffineExprKind::Mod) {
        return;
      }
      auto bin = mlir::cast<mlir::AffineBinaryOpExpr>(e);
      auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(bin.getRHS());
      if (bin.getLHS() == sym && c) divisors.insert(c.getValue());
    });
  }
  return divisors;
}

// Splits local v in [0, n - 1] used as `v floordiv c` / `v mod c` for
// divisors c_1 < ... < c_k with c_1 >= 2, each dividing the next and c_k
// dividing n (a reshape collapsing several dimensions, e.g. 105 -> 3x5x7
// uses c = 7 and 35) into mixed-radix digits
//   v = x_0 + c_1 x_1 + ... + c_k x_k,  x_0 < c_1, x_i < c_{i+1} / c_i,
//   x_k < n / c_k,
// so that v floordiv c_i = sum_{j >= i} x_j (w_j / c_i) and v mod c_i =
// sum_{j < i} x_j w_j (w_0 = 1, w_j = c_j) exactly. New local symbols are
// appended at `next_symbol`. Returns true if anything was split.
bool SplitDivMod(std::vector<mlir::AffineExpr>& results,
                 std::set<int64_t>& locals, std::map<int64_t, Interval>& bounds,
                 int64_t& next_symbol, mlir::MLIRContext* context) {
  bool changed = false;
  for (int64_t v : std::vector<int64_t>(locals.begin(), locals.end())) {
    mlir::AffineExpr sym = mlir::getAffineSymbolExpr(v, context);
    std::set<int64_t> divisors = DivisorsOf(sym, results);
    Interval b = bounds[v];
    if (divisors.empty() || b.lower != 0) continue;
    const int64_t n = b.upper + 1;
    std::vector<int64_t> weights = {1};
    bool chain = true;
    for (int64_t c : divisors) {
      chain = chain && c >= 2 && c % weights.back() == 0 && n % c == 0;
      weights.push_back(c);
    }
    if (!chain) continue;
    std::vector<mlir::AffineExpr> digits;
    for (size_t j = 0; j < weights.size(); ++j) {
      const int64_t limit =
          j + 1 < weights.size() ? weights[j + 1] / weights[j] : n / weights[j];
      int64_t digit = next_symbol++;
      digits.push_back(mlir::getAffineSymbolExpr(digit, context));
      locals.insert(digit);
      bounds[digit] = {0, limit - 1};
    }
    llvm::DenseMap<mlir::AffineExpr, mlir::AffineExpr> replacements;
    mlir::AffineExpr whole = mlir::getAffineConstantExpr(0, context);
    for (size_t j = 0; j < weights.size(); ++j) {
      whole = whole + digits[j] * weights[j];
    }
    replacements[sym] = whole;
    for (size_t i = 1; i < weights.size(); ++i) {
      mlir::AffineExpr quotient = mlir::getAffineConstantExpr(0, context);
      mlir::AffineExpr remainder = mlir::getAffineConstantExpr(0, context);
      for (size_t j = 0; j < weights.size(); ++j) {
        if (j >= i) quotient = quotient + digits[j] * (weights[j] / weights[i]);
        if (j < i) remainder = remainder + digits[j] * weights[j];
      }
      replacements[sym.floorDiv(weights[i])] = quotient;
      replacements[sym % weights[i]] = remainder;
    }
    for (mlir::AffineExpr& r : results) r = r.replace(replacements);
    locals.erase(v);
    changed = true;
  }
  return changed;
}

std::string ConstraintText(const IndexingConstraint& c) {
  return absl::StrCat(AffineExprToString(c.expr), " in ",
                      c.interval.ToString());
}

bool SameTile(const PropagatedTile& a, const PropagatedTile& b) {
  auto same_masks = [](const std::vector<TileMask>& x,
                       const std::vector<TileMask>& y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (x[i].dimension != y[i].dimension || x[i].kept != y[i].kept) {
        return false;
      }
    }
    return true;
  };
  return a.tileable == b.tileable && a.reason == b.reason &&
         a.tile.offsets == b.tile.offsets && a.tile.sizes == b.tile.sizes &&
         a.tile.strides == b.tile.strides && a.constraints == b.constraints &&
         same_masks(a.masks, b.masks) && a.xla.derivable == b.xla.derivable &&
         a.xla.reason == b.xla.reason &&
         a.xla.constraints.ToString() == b.xla.constraints.ToString();
}

// Adds `tile` unless an equal one is there: two maps (e.g. softmax's
// identity and reduction reads of a whole row) often give the same tile.
void AddTile(std::vector<PropagatedTile>& tiles, PropagatedTile tile) {
  for (const PropagatedTile& existing : tiles) {
    if (SameTile(existing, tile)) return;
  }
  tiles.push_back(std::move(tile));
}

// The composed map (tile ids)[locals, runtime] -> operand element, and the
// bookkeeping of its local variables: the range variables at first, then
// the halves SplitDivMod adds.
struct TileComposition {
  IndexingMap composed = IndexingMap::Undefined();
  std::set<int64_t> locals;
  std::map<int64_t, Interval> bounds;
  // Replacements that turn an expression of the composed map into one of
  // the offsets map: dims stay, range variables become 0 (the tile's
  // first element, offsets are added separately), runtime symbol R + j
  // becomes runtime symbol j.
  llvm::SmallVector<mlir::AffineExpr> dim_replacements;
  llvm::SmallVector<mlir::AffineExpr> symbol_replacements;

  mlir::AffineExpr ToOffsets(mlir::AffineExpr expr) const {
    return expr.replaceDimsAndSymbols(dim_replacements, symbol_replacements);
  }
};

TileComposition MakeTileComposition(IndexingMap composed) {
  TileComposition c;
  mlir::MLIRContext* context = composed.GetMLIRContext();
  const int64_t num_ranges = composed.GetRangeVarsCount();
  const std::vector<Interval>& ranges = composed.GetRangeVarBounds();
  for (int64_t s = 0; s < num_ranges; ++s) {
    c.locals.insert(s);
    c.bounds[s] = ranges[s];
  }
  for (int64_t s = 0; s < composed.GetSymbolCount(); ++s) {
    c.symbol_replacements.push_back(
        s < num_ranges ? mlir::getAffineConstantExpr(0, context)
                       : mlir::getAffineSymbolExpr(s - num_ranges, context));
  }
  for (int64_t d = 0; d < composed.GetDimensionCount(); ++d) {
    c.dim_replacements.push_back(mlir::getAffineDimExpr(d, context));
  }
  c.composed = std::move(composed);
  return c;
}

// A constraint of the composed map written as rest(t) + (local part), with
// the local part (sum a_v * v over the tile's local variables) ranging over
// [min, max] on the tile's elements.
struct LocalPart {
  LinearForm form;
  int64_t min = 0;
  int64_t max = 0;
};

// Returns why `c` cannot be split into a tile part and a local part.
absl::StatusOr<LocalPart> LocalPartOf(const IndexingConstraint& c,
                                      const IndexingMap& composed,
                                      const std::set<int64_t>& locals) {
  std::optional<LinearForm> form = Decompose(c.expr, locals);
  if (!form)
    return absl::FailedPreconditionError(
        "is not affine in the tile's elements");
  bool uses_symbols = false;
  form->rest.walk([&](mlir::AffineExpr e) {
    if (mlir::isa<mlir::AffineSymbolExpr>(e)) uses_symbols = true;
  });
  if (uses_symbols) {
    return absl::FailedPreconditionError(
        "depends on runtime values inside a tile");
  }
  std::optional<int64_t> min = 0, max = 0;
  for (auto [v, a] : form->coeffs) {
    Interval b = composed.GetSymbolBound(v);
    std::optional<int64_t> at_lower = CheckedMul(a, b.lower);
    std::optional<int64_t> at_upper = CheckedMul(a, b.upper);
    if (!at_lower || !at_upper || !min || !max) {
      return absl::FailedPreconditionError("overflows int64");
    }
    min = CheckedAdd(*min, std::min(*at_lower, *at_upper));
    max = CheckedAdd(*max, std::max(*at_lower, *at_upper));
  }
  if (!min || !max) return absl::FailedPreconditionError("overflows int64");
  return LocalPart{*std::move(form), *min, *max};
}

// Whether every tile satisfies `c` for all or for none of its elements: a
// tile with r = rest(t) satisfies it for all when [r + min, r + max] lies
// inside [lo, hi], for none when it is disjoint from it. Returns why not.
std::optional<std::string> TileSplitBy(const IndexingConstraint& c,
                                       const LocalPart& part,
                                       const IndexingMap& composed) {
  const int64_t lo = c.interval.lower, hi = c.interval.upper;
  std::vector<int64_t> no_symbols(composed.GetSymbolCount(), 0);
  std::optional<std::string> problem;
  if (CountBoxPoints(composed.GetDimBounds()) == 0) return std::nullopt;
  // Every tile id point (the tile ids of real fusions are few).
  bool enumerable = ForEachBoxPoint(
      composed.GetDimBounds(), kMaxCheckedTiles,
      [&](const std::vector<int64_t>& t) {
        if (problem) return;
        std::optional<int64_t> v =
            EvaluateAffineExpr(part.form.rest, t, no_symbols);
        std::optional<int64_t> low =
            v ? CheckedAdd(*v, part.min) : std::nullopt;
        std::optional<int64_t> high =
            v ? CheckedAdd(*v, part.max) : std::nullopt;
        if (!low || !high) {
          problem = "cannot be evaluated at every tile";
          return;
        }
        bool all = *low >= lo && *high <= hi;
        bool none = *high < lo || *low > hi;
        if (!all && !none) {
          problem =
              absl::StrCat("splits the tile at ids (", absl::StrJoin(t, ", "),
                           "): part of its elements satisfy it");
        }
      });
  if (!enumerable) return "involves too many tiles to check";
  return problem;
}

// `c` as a mask on one operand coordinate: when its expression is result k
// of the composed map plus a constant d (the same local part, tile parts
// differing by d), the elements it keeps are those with coordinate k in
// [lo - d, hi - d], wherever the tile lies. This is how XLA's tiles cross a
// pad or concatenate edge (SymbolicTile::FromIndexingMap ignores a
// constraint on a result; the emitter masks the elements past the edge).
std::optional<TileMask> MaskOf(const IndexingConstraint& c,
                               const LocalPart& part,
                               const TileComposition& composition) {
  mlir::AffineMap map = composition.composed.GetAffineMap();
  auto nonzero = [](const std::map<int64_t, int64_t>& coeffs) {
    std::map<int64_t, int64_t> kept;
    for (auto [v, a] : coeffs) {
      if (a != 0) kept[v] = a;
    }
    return kept;
  };
  for (int64_t k = 0; k < map.getNumResults(); ++k) {
    std::optional<LinearForm> result =
        Decompose(map.getResult(k), composition.locals);
    if (!result || nonzero(result->coeffs) != nonzero(part.form.coeffs)) {
      continue;
    }
    mlir::AffineExpr difference = mlir::simplifyAffineExpr(
        part.form.rest - result->rest, map.getNumDims(), map.getNumSymbols());
    auto constant = mlir::dyn_cast<mlir::AffineConstantExpr>(difference);
    if (!constant) continue;
    std::optional<int64_t> lo =
        CheckedSub(c.interval.lower, constant.getValue());
    std::optional<int64_t> hi =
        CheckedSub(c.interval.upper, constant.getValue());
    if (!lo || !hi) return std::nullopt;
    return TileMask{k, {*lo, *hi}};
  }
  return std::nullopt;
}

PropagatedTile CannotTile(std::string reason) {
  PropagatedTile tile;
  tile.reason = std::move(reason);
  return tile;
}

// Constraints on the tile ids (and runtime values) select which tiles read
// through this map. One that also involves the tile's elements is accepted
// when every tile meets it with all or none of its elements (it becomes a
// constraint on the tile ids), or, unless `strict`, as a mask on an operand
// coordinate (MaskOf; the tile ids then say which tiles keep at least one
// element). Returns the tile-level constraints, or why the tile cannot be.
struct TileConditions {
  std::vector<IndexingConstraint> constraints;
  std::vector<TileMask> masks;
};

absl::StatusOr<TileConditions> TileConstraints(const TileComposition& c,
                                               bool strict) {
  TileConditions conditions;
  for (const IndexingConstraint& constraint : c.composed.GetConstraints()) {
    if (!ContainsLocal(constraint.expr, c.locals)) {
      conditions.constraints.push_back(constraint);
      continue;
    }
    absl::StatusOr<LocalPart> part =
        LocalPartOf(constraint, c.composed, c.locals);
    std::optional<std::string> problem;
    if (!part.ok()) {
      problem = std::string(part.status().message());
    } else {
      problem = TileSplitBy(constraint, *part, c.composed);
    }
    const int64_t lo = constraint.interval.lower,
                  hi = constraint.interval.upper;
    std::optional<int64_t> new_lo, new_hi;
    if (part.ok() && !problem) {
      new_lo = CheckedSub(lo, part->min);
      new_hi = CheckedSub(hi, part->max);
    } else if (part.ok() && !strict) {
      if (std::optional<TileMask> mask = MaskOf(constraint, *part, c)) {
        conditions.masks.push_back(*mask);
        new_lo = CheckedSub(lo, part->max);
        new_hi = CheckedSub(hi, part->min);
        problem.reset();
      }
    }
    if (!problem && (!new_lo || !new_hi)) problem = "overflows int64";
    if (problem) {
      return absl::FailedPreconditionError(
          absl::StrCat("the constraint ", ConstraintText(constraint), " ",
                       *problem, "; composed map:\n", ToString(c.composed)));
    }
    conditions.constraints.push_back({part->form.rest, {*new_lo, *new_hi}});
  }
  return conditions;
}

// One dimension of the operand tile: offset (over the composed map's
// variables, locals at their lower bound), size and stride.
struct TileDimension {
  mlir::AffineExpr offset;
  int64_t size = 1;
  int64_t stride = 1;
};

// The values of rest + sum a_j * v_j (terms (a_j, v_j), at least two,
// v_j in bounds[v_j]) as one strided interval. A negative term is
// a * v = a * hi + |a| * (hi - v) with hi - v in [0, hi - lo], so the set
// of values is that of the positive coefficients |a_j| shifted to start at
// the minimum. With |a_j| sorted ascending and g their gcd, the sum covers
// every multiple of g from its minimum to its maximum when each |a_j| / g
// is at most one step beyond the span (in units of g) of the smaller
// terms; then size = span + 1. The stride is -g from the maximum when
// every coefficient is negative (a reverse of a combining reshape walks the
// operand backwards, as XLA's tile does), else g from the minimum (with
// mixed signs only the set of elements is meaningful, not their order).
absl::StatusOr<TileDimension> SumOfTerms(
    mlir::AffineExpr rest, std::vector<std::pair<int64_t, int64_t>> terms,
    const TileComposition& c, const std::string& result_text) {
  bool all_negative = true;
  int64_t g = 0;
  for (auto& [a, v] : terms) {
    if (a == Interval::kMin) {
      return absl::FailedPreconditionError(
          absl::StrCat(result_text, " has a coefficient that overflows int64"));
    }
    all_negative = all_negative && a < 0;
    g = std::gcd(g, a < 0 ? -a : a);
  }
  std::sort(terms.begin(), terms.end(), [](auto x, auto y) {
    return std::abs(x.first) < std::abs(y.first);
  });
  TileDimension dim{rest, 1, g};
  std::optional<int64_t> span = 0;  // in units of g
  for (auto [a, v] : terms) {
    const int64_t magnitude = a < 0 ? -a : a;
    if (magnitude / g > *span + 1) {
      return absl::FailedPreconditionError(absl::StrCat(
          result_text, " leaves gaps: coefficient ", a, " jumps past the ",
          *span + 1, " consecutive values (step ", g,
          ") of the smaller terms; composed map:\n", ToString(c.composed)));
    }
    const Interval b = c.bounds.at(v);
    std::optional<int64_t> part =
        CheckedMul(magnitude / g, b.NumElements() - 1);
    // The term's smallest value: a * lower, or a * upper for a < 0.
    std::optional<int64_t> first = CheckedMul(a, a < 0 ? b.upper : b.lower);
    span = part ? CheckedAdd(*span, *part) : std::nullopt;
    if (!span || !first || *span == Interval::kMax) {
      return absl::FailedPreconditionError(
          absl::StrCat(result_text, " has a tile extent that overflows int64"));
    }
    dim.offset = dim.offset + *first;
  }
  dim.size = *span + 1;
  if (all_negative) {
    std::optional<int64_t> extent = CheckedMul(*span, g);
    if (!extent) {
      return absl::FailedPreconditionError(
          absl::StrCat(result_text, " has a tile extent that overflows int64"));
    }
    dim.offset = dim.offset + *extent;
    dim.stride = -g;
  }
  return dim;
}

// Result k of the composed map as one dimension of the operand tile, with
// `owner` recording which result each local variable moves (a variable in
// two results is a diagonal).
absl::StatusOr<TileDimension> TileOfResult(size_t k, mlir::AffineExpr result,
                                           const TileComposition& c,
                                           std::map<int64_t, int64_t>& owner) {
  const std::string result_text =
      absl::StrCat("result ", k, " (", AffineExprToString(result), ")");
  std::optional<LinearForm> form = Decompose(result, c.locals);
  if (!form) {
    return absl::FailedPreconditionError(absl::StrCat(
        result_text, " is not affine in the tile's elements; composed map:\n",
        ToString(c.composed)));
  }
  std::vector<std::pair<int64_t, int64_t>> terms;  // (coefficient, var)
  for (auto [v, a] : form->coeffs) {
    const Interval b = c.bounds.at(v);
    if (a == 0) continue;
    if (b.IsPoint()) {
      form->rest = form->rest + a * b.lower;
      continue;
    }
    auto [it, inserted] = owner.emplace(v, k);
    if (!inserted) {
      return absl::FailedPreconditionError(absl::StrCat(
          "results ", it->second, " and ", k,
          " move together with one element index of the tile (a "
          "diagonal), so the elements do not form a rectangle; composed "
          "map:\n",
          ToString(c.composed)));
    }
    terms.push_back({a, v});
  }
  if (terms.empty()) return TileDimension{form->rest, 1, 1};
  if (terms.size() > 1) return SumOfTerms(form->rest, terms, c, result_text);
  auto [a, v] = terms[0];
  const Interval b = c.bounds.at(v);
  std::optional<int64_t> first = CheckedMul(a, b.lower);
  if (!first) {
    return absl::FailedPreconditionError(
        absl::StrCat(result_text, " has a tile offset that overflows int64"));
  }
  return TileDimension{form->rest + *first, b.NumElements(), a};
}

// The tileable answer: the offsets map over the tile ids (and runtime
// values), with the tile-level constraints attached, and the constraint
// texts "d_i in [lo, hi]" of the tile ids first (full tiles only, narrowed
// by the simplifier to the tiles that read through this map, e.g. a
// concatenate operand's slab).
PropagatedTile TileResult(const TileComposition& c,
                          const std::vector<TileDimension>& dims,
                          const TileConditions& conditions) {
  PropagatedTile result;
  result.tileable = true;
  result.masks = conditions.masks;
  mlir::MLIRContext* context = c.composed.GetMLIRContext();
  std::vector<mlir::AffineExpr> offsets;
  for (const TileDimension& dim : dims) {
    offsets.push_back(c.ToOffsets(dim.offset));
    result.tile.sizes.push_back(dim.size);
    result.tile.strides.push_back(dim.stride);
  }
  const std::vector<Interval>& ids = c.composed.GetDimBounds();
  result.tile.offsets = IndexingMap(
      mlir::AffineMap::get(c.composed.GetDimensionCount(),
                           c.composed.GetRuntimeVarsCount(), offsets, context),
      ids, {}, c.composed.GetRuntimeVars());
  for (size_t i = 0; i < ids.size(); ++i) {
    result.constraints.push_back(
        absl::StrCat("d", i, " in ", ids[i].ToString()));
  }
  for (const IndexingConstraint& constraint : conditions.constraints) {
    mlir::AffineExpr expr = c.ToOffsets(constraint.expr);
    result.tile.offsets.AddConstraint(expr, constraint.interval);
    result.constraints.push_back(absl::StrCat(AffineExprToString(expr), " in ",
                                              constraint.interval.ToString()));
  }
  return result;
}

// Results after splitting: simplified under the bounds of every symbol
// (locals, the split digits and runtime values), e.g. (5 x_2 + x_1) mod 5
// with x_1 < 5 becomes x_1.
void SimplifyResults(std::vector<mlir::AffineExpr>& results,
                     const TileComposition& c, int64_t num_symbols) {
  std::vector<Interval> symbol_bounds;
  for (int64_t s = 0; s < num_symbols; ++s) {
    auto it = c.bounds.find(s);
    symbol_bounds.push_back(
        it != c.bounds.end() ? it->second : c.composed.GetSymbolBound(s));
  }
  IndexingMap map(
      mlir::AffineMap::get(c.composed.GetDimensionCount(), num_symbols, results,
                           c.composed.GetMLIRContext()),
      c.composed.GetDimBounds(), symbol_bounds, {});
  map.Simplify();
  if (map.IsKnownEmpty() || map.IsUndefined()) return;
  results.assign(map.GetAffineMap().getResults().begin(),
                 map.GetAffineMap().getResults().end());
}

PropagatedTile PropagateConcreteTile(const IndexingMap& tile_map,
                                     const IndexingMap& output_to_operand,
                                     const TileOptions& options) {
  if (output_to_operand.IsUndefined()) {
    return CannotTile("no indexing rule (UNDEFINED map)");
  }
  if (output_to_operand.IsKnownEmpty()) {
    return CannotTile("the output tile reads nothing (KNOWN EMPTY map)");
  }
  // A runtime value read per output element (a gather's start index) is
  // one value per tile only when the tile is one element wide along every
  // output dimension its access map reads.
  const std::vector<Interval>& tile_locals = tile_map.GetRangeVarBounds();
  for (const RuntimeVar& var : output_to_operand.GetRuntimeVars()) {
    if (!var.access) continue;
    for (unsigned i = 0; i < var.access.getNumDims(); ++i) {
      if (i < tile_locals.size() && tile_locals[i].NumElements() > 1 &&
          var.access.isFunctionOfDim(i)) {
        return CannotTile(absl::StrCat(
            "the runtime value of '", var.hlo_text,
            "' depends on output dimension ", i,
            ", so it differs between the elements of a tile of size ",
            tile_locals[i].NumElements(), " along it"));
      }
    }
  }
  IndexingMap composed = ComposeIndexingMaps(tile_map, output_to_operand);
  composed.Simplify();
  if (composed.IsKnownEmpty()) {
    return CannotTile("no full tile reads this operand (KNOWN EMPTY)");
  }
  TileComposition c = MakeTileComposition(std::move(composed));
  absl::StatusOr<TileConditions> conditions =
      TileConstraints(c, options.strict);
  if (!conditions.ok()) {
    return CannotTile(std::string(conditions.status().message()));
  }
  std::vector<mlir::AffineExpr> results(
      c.composed.GetAffineMap().getResults().begin(),
      c.composed.GetAffineMap().getResults().end());
  int64_t next_symbol = c.composed.GetSymbolCount();
  while (SplitDivMod(results, c.locals, c.bounds, next_symbol,
                     c.composed.GetMLIRContext())) {
    SimplifyResults(results, c, next_symbol);
  }
  std::map<int64_t, int64_t> owner;  // local variable -> result using it
  std::vector<TileDimension> dims;
  for (size_t k = 0; k < results.size(); ++k) {
    absl::StatusOr<TileDimension> dim = TileOfResult(k, results[k], c, owner);
    if (!dim.ok()) return CannotTile(std::string(dim.status().message()));
    dims.push_back(*std::move(dim));
  }
  return TileResult(c, dims, *conditions);
}

}  // namespace

absl::StatusOr<IndexingMap> OutputTileMap(absl::Span<const int64_t> output_dims,
                                          absl::Span<const int64_t> tile_sizes,
                                          mlir::MLIRContext* context) {
  if (output_dims.size() != tile_sizes.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(tile_sizes.size(), " tile sizes for an output of rank ",
                     output_dims.size()));
  }
  const int64_t rank = output_dims.size();
  std::vector<mlir::AffineExpr> results;
  std::vector<Interval> tile_ids, locals;
  for (int64_t i = 0; i < rank; ++i) {
    if (tile_sizes[i] < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("tile size ", tile_sizes[i], " of dimension ", i,
                       " must be at least 1"));
    }
    int64_t n = output_dims[i];
    int64_t size = std::max<int64_t>(1, std::min(tile_sizes[i], n));
    results.push_back(mlir::getAffineDimExpr(i, context) * size +
                      mlir::getAffineSymbolExpr(i, context));
    // Full tiles only: a partial last tile is the clipped version.
    tile_ids.push_back({0, std::max<int64_t>(0, n / size - 1)});
    locals.push_back({0, size - 1});
  }
  return IndexingMap(mlir::AffineMap::get(rank, rank, results, context),
                     tile_ids, locals, {});
}

PropagatedTile PropagateTile(const IndexingMap& tile_map,
                             const IndexingMap& output_to_operand,
                             const TileOptions& options) {
  PropagatedTile tile =
      PropagateConcreteTile(tile_map, output_to_operand, options);
  tile.xla = DeriveXlaTileSizeConstraints(output_to_operand);
  if (tile.xla.derivable) {
    // The tile sizes are the local variables' extents (OutputTileMap).
    std::vector<int64_t> sizes;
    for (const Interval& local : tile_map.GetRangeVarBounds()) {
      sizes.push_back(local.NumElements());
    }
    tile.xla_satisfied = tile.xla.constraints.IsSatisfiedBy(sizes);
  }
  return tile;
}

absl::StatusOr<std::vector<int64_t>> ParseTileSizes(absl::string_view text) {
  std::vector<int64_t> sizes;
  if (text.empty()) return sizes;  // the tile of a rank-0 output
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    absl::string_view entry = text.substr(
        start, comma == absl::string_view::npos ? absl::string_view::npos
                                                : comma - start);
    int64_t size = 0;
    if (!absl::SimpleAtoi(entry, &size) || size < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "column ", start + 1, ": expected a tile size >= 1, got '", entry,
          "' (sizes are comma-separated, e.g. 8,128)"));
    }
    sizes.push_back(size);
    if (comma == absl::string_view::npos) break;
    start = comma + 1;
  }
  return sizes;
}

namespace {

// The tile maps of every output: the same sizes cut each output (all
// outputs of a tuple root have the rank of the sizes).
absl::StatusOr<std::vector<IndexingMap>> OutputTileMaps(
    const AnalyzedFusion& fusion, absl::Span<const int64_t> tile_sizes,
    mlir::MLIRContext* context) {
  std::vector<IndexingMap> maps;
  for (size_t j = 0; j < fusion.output_shapes.size(); ++j) {
    absl::StatusOr<IndexingMap> map = OutputTileMap(
        fusion.output_shapes[j].dimensions(), tile_sizes, context);
    if (!map.ok()) {
      if (fusion.output_shapes.size() == 1) return map.status();
      return absl::InvalidArgumentError(
          absl::StrCat("output ", j, " (", fusion.output_shapes[j].ToString(),
                       "): ", map.status().message()));
    }
    maps.push_back(*std::move(map));
  }
  return maps;
}

// Every instruction of the analyzed computation an output reads, users
// before producers (parameters included), with the tiles of the
// per-producer grouping of the same composition, over all outputs.
std::vector<TensorTiles> InstructionTiles(
    const AnalyzedFusion& fusion, const std::vector<IndexingMap>& tile_maps,
    const TileOptions& options, mlir::MLIRContext* context) {
  std::vector<TensorTiles> result;
  const HloInstruction* target = fusion.computation->root();
  if (fusion.root->fused_computation() == nullptr) target = fusion.root;
  if (target == nullptr) return result;
  std::vector<GroupedIndexingMaps> grouped;
  for (size_t j = 0; j < tile_maps.size(); ++j) {
    grouped.push_back(ComputeGroupedOutputToInputIndexing(*fusion.computation,
                                                          target, j, context));
  }
  std::vector<HloInstruction*> order = fusion.computation->PostOrder();
  std::reverse(order.begin(), order.end());
  for (const HloInstruction* instruction : order) {
    if (!instruction->shape().IsArray()) continue;
    TensorTiles tiles;
    tiles.name = instruction->name();
    tiles.shape = instruction->shape();
    bool read = false;
    for (size_t j = 0; j < tile_maps.size(); ++j) {
      auto it = grouped[j].find(instruction);
      if (it == grouped[j].end()) continue;
      read = true;
      for (const IndexingMap& map : it->second) {
        AddTile(tiles.tiles, PropagateTile(tile_maps[j], map, options));
      }
    }
    if (read) result.push_back(std::move(tiles));
  }
  return result;
}

}  // namespace

absl::StatusOr<TileReport> AnalyzeTiling(const HloInstruction& instruction,
                                         absl::Span<const int64_t> tile_sizes,
                                         mlir::MLIRContext* context,
                                         const TileOptions& options) {
  XI_ASSIGN_OR_RETURN(AnalyzedFusion fusion,
                      AnalyzeFusionOperands(instruction, context));
  XI_ASSIGN_OR_RETURN(std::vector<IndexingMap> tile_maps,
                      OutputTileMaps(fusion, tile_sizes, context));
  TileReport report;
  report.root_name = fusion.root->name();
  report.output_shape = fusion.output_shape;
  report.output_shapes = fusion.output_shapes;
  report.tile_sizes.assign(tile_sizes.begin(), tile_sizes.end());
  for (size_t j = 0; j < tile_maps.size(); ++j) {
    report.output_tiles.push_back(PropagateTile(
        tile_maps[j],
        CreateIdentityMap(fusion.output_shapes[j].dimensions(), context)));
  }
  report.output_tile = report.output_tiles[0];
  for (const FusionOperand& operand : fusion.operands) {
    TensorTiles tiles;
    tiles.operand = operand.number;
    tiles.name = operand.name;
    tiles.shape = operand.shape;
    for (size_t j = 0; j < operand.maps_by_output.size(); ++j) {
      for (const IndexingMap& map : operand.maps_by_output[j]) {
        PropagatedTile tile = PropagateTile(tile_maps[j], map, options);
        if (!tile.tileable) report.tileable = false;
        AddTile(tiles.tiles, std::move(tile));
      }
    }
    report.operands.push_back(std::move(tiles));
  }
  report.instructions = InstructionTiles(fusion, tile_maps, options, context);
  return report;
}

absl::StatusOr<TileReport> AnalyzeTiling(const HloModule& module,
                                         absl::Span<const int64_t> tile_sizes,
                                         mlir::MLIRContext* context,
                                         const TileOptions& options) {
  XI_ASSIGN_OR_RETURN(const HloInstruction* root, EntryRoot(module));
  return AnalyzeTiling(*root, tile_sizes, context, options);
}

absl::StatusOr<TileReport> AnalyzeMapTiling(
    const IndexingMap& map, absl::Span<const int64_t> tile_sizes,
    const TileOptions& options) {
  if (map.IsUndefined()) {
    return absl::InvalidArgumentError("the map is UNDEFINED: nothing to tile");
  }
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < map.GetDimensionCount(); ++d) {
    const Interval b = map.GetDimBound(d);
    if (b.lower != 0 || b.upper < 0 || b.upper == Interval::kMax) {
      return absl::InvalidArgumentError(absl::StrCat(
          "dimension d", d, " ranges over ", b.ToString(),
          "; an output index must range over [0, n - 1] with n >= 1"));
    }
    dims.push_back(b.upper + 1);
  }
  mlir::MLIRContext* context = map.GetMLIRContext();
  XI_ASSIGN_OR_RETURN(IndexingMap tile_map,
                      OutputTileMap(dims, tile_sizes, context));
  TileReport report;
  report.from_map = true;
  report.root_name = "map";
  report.output_shape = Shape(PrimitiveType::kInvalid, dims);
  report.output_shapes = {report.output_shape};
  report.tile_sizes.assign(tile_sizes.begin(), tile_sizes.end());
  report.output_tile =
      PropagateTile(tile_map, CreateIdentityMap(dims, context), options);
  report.output_tiles = {report.output_tile};
  TensorTiles operand;
  operand.operand = 0;
  operand.name = "map";
  operand.shape = Shape(PrimitiveType::kInvalid,
                        std::vector<int64_t>(map.GetResultCount(), 0));
  operand.tiles.push_back(PropagateTile(tile_map, map, options));
  report.tileable = operand.tiles[0].tileable;
  report.operands.push_back(std::move(operand));
  return report;
}

}  // namespace xla_index
