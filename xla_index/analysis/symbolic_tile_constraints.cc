#include "xla_index/analysis/symbolic_tile_constraints.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/checked_arithmetic.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

// Bounds on the work of one derivation: the conjunctions of a constraint
// expression (conjunctions multiply under &&) and the terms of one sum
// (each sum adds n (n + 1) / 2 conjunctions of n constraints).
constexpr size_t kMaxConjunctions = size_t{1} << 12;
constexpr size_t kMaxSumTerms = 64;

using Conjunction = std::vector<TileSizeConstraint>;

// The conjunction of two conjunctions; nullopt when one expression gets
// an empty interval.
std::optional<Conjunction> Intersect(const Conjunction& a,
                                     const Conjunction& b) {
  Conjunction result = a;
  for (const TileSizeConstraint& c : b) {
    auto it = std::find_if(
        result.begin(), result.end(),
        [&](const TileSizeConstraint& r) { return r.expr == c.expr; });
    if (it == result.end()) {
      result.push_back(c);
      continue;
    }
    it->interval = it->interval.Intersect(c.interval);
    if (!it->interval.IsFeasible()) return std::nullopt;
  }
  return result;
}

std::string ConstraintText(const TileSizeConstraint& c) {
  return absl::StrCat(AffineExprToString(c.expr), " in ",
                      c.interval.ToString());
}

}  // namespace

TileSizeConstraints TileSizeConstraints::Unsatisfiable() {
  TileSizeConstraints result;
  result.satisfiable_ = false;
  return result;
}

TileSizeConstraints TileSizeConstraints::Of(TileSizeConstraint constraint) {
  TileSizeConstraints result;
  result.conjunctions_.push_back({constraint});
  return result;
}

TileSizeConstraints operator&&(const TileSizeConstraints& a,
                               const TileSizeConstraints& b) {
  if (!a.satisfiable_ || !b.satisfiable_) {
    return TileSizeConstraints::Unsatisfiable();
  }
  if (a.IsAlwaysSatisfied()) return b;
  if (b.IsAlwaysSatisfied()) return a;
  TileSizeConstraints result;
  for (const Conjunction& x : a.conjunctions_) {
    for (const Conjunction& y : b.conjunctions_) {
      if (std::optional<Conjunction> both = Intersect(x, y)) {
        result.conjunctions_.push_back(*std::move(both));
      }
    }
  }
  result.satisfiable_ = !result.conjunctions_.empty();
  return result;
}

TileSizeConstraints operator||(const TileSizeConstraints& a,
                               const TileSizeConstraints& b) {
  if (a.IsAlwaysSatisfied() || b.IsAlwaysSatisfied()) {
    return TileSizeConstraints::AlwaysSatisfied();
  }
  if (!a.satisfiable_) return b;
  if (!b.satisfiable_) return a;
  TileSizeConstraints result = a;
  result.conjunctions_.insert(result.conjunctions_.end(),
                              b.conjunctions_.begin(), b.conjunctions_.end());
  return result;
}

void TileSizeConstraints::Simplify() {
  if (conjunctions_.empty()) return;
  std::vector<Conjunction> kept;
  std::set<std::string> seen;
  for (const Conjunction& conjunction : conjunctions_) {
    Conjunction simplified;
    bool unsatisfiable = false;
    for (const TileSizeConstraint& c : conjunction) {
      auto constant = mlir::dyn_cast<mlir::AffineConstantExpr>(c.expr);
      if (!c.interval.IsFeasible() ||
          (constant && !c.interval.Contains(constant.getValue()))) {
        unsatisfiable = true;
        break;
      }
      if (!constant) simplified.push_back(c);
    }
    if (unsatisfiable) continue;
    if (simplified.empty()) {
      conjunctions_.clear();
      return;  // one conjunction always holds
    }
    // Canonical order, then one copy of each constraint and conjunction.
    std::sort(simplified.begin(), simplified.end(),
              [](const TileSizeConstraint& x, const TileSizeConstraint& y) {
                return ConstraintText(x) < ConstraintText(y);
              });
    simplified.erase(
        std::unique(
            simplified.begin(), simplified.end(),
            [](const TileSizeConstraint& x, const TileSizeConstraint& y) {
              return x.expr == y.expr && x.interval == y.interval;
            }),
        simplified.end());
    std::string key;
    for (const TileSizeConstraint& c : simplified) {
      absl::StrAppend(&key, ConstraintText(c), ";");
    }
    if (seen.insert(key).second) kept.push_back(std::move(simplified));
  }
  conjunctions_ = std::move(kept);
  satisfiable_ = !conjunctions_.empty();
}

bool TileSizeConstraints::IsSatisfiedBy(absl::Span<const int64_t> sizes) const {
  if (conjunctions_.empty()) return satisfiable_;
  return std::any_of(
      conjunctions_.begin(), conjunctions_.end(), [&](const Conjunction& c) {
        return std::all_of(
            c.begin(), c.end(), [&](const TileSizeConstraint& t) {
              std::optional<int64_t> value =
                  EvaluateAffineExpr(t.expr, sizes, {});
              return value.has_value() && t.interval.Contains(*value);
            });
      });
}

std::string TileSizeConstraints::ToString() const {
  if (IsAlwaysSatisfied()) return "always satisfied";
  if (!satisfiable_) return "unsatisfiable";
  std::vector<std::string> conjunctions;
  for (const Conjunction& conjunction : conjunctions_) {
    std::vector<std::string> texts;
    for (const TileSizeConstraint& c : conjunction) {
      texts.push_back(ConstraintText(c));
    }
    std::sort(texts.begin(), texts.end());
    conjunctions.push_back(absl::StrJoin(texts, " && "));
  }
  std::sort(conjunctions.begin(), conjunctions.end());
  return absl::StrJoin(conjunctions, " || ");
}

std::string TileSizeConstraints::ToJson() const {
  std::vector<std::string> conjunctions;
  for (const Conjunction& conjunction : conjunctions_) {
    std::vector<std::string> items;
    for (const TileSizeConstraint& c : conjunction) {
      items.push_back(absl::StrCat(
          "{\"expr\": ", JsonQuote(AffineExprToString(c.expr)),
          ", \"lo\": ", c.interval.lower, ", \"hi\": ", c.interval.upper, "}"));
    }
    conjunctions.push_back(absl::StrCat("[", absl::StrJoin(items, ", "), "]"));
  }
  return absl::StrCat("{\"text\": ", JsonQuote(ToString()),
                      ", \"conjunctions\": [",
                      absl::StrJoin(conjunctions, ", "), "]}");
}

namespace {

// XLA's SizeAndStrideExpression: the number of values one result takes
// over a tile (an expression of the sizes d_i), its stride when constant
// (nullopt otherwise), and the constraints making that exact.
struct SizeAndStride {
  mlir::AffineExpr size;
  std::optional<int64_t> stride;
  TileSizeConstraints constraints;
};

// The map being derived: dimension and symbol bounds.
struct Derivation {
  const IndexingMap& map;
  std::string reason;

  std::optional<SizeAndStride> Fail(std::string why) {
    if (reason.empty()) reason = std::move(why);
    return std::nullopt;
  }
  bool IsDim(mlir::AffineExpr e) const {
    return mlir::isa<mlir::AffineDimExpr>(e);
  }
  // How many values a size expression can take: a constant, or a dimension
  // with lower bound 0 (XLA's TryGetSizeExpressionRangeSize).
  std::optional<int64_t> RangeSize(mlir::AffineExpr size) const {
    if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(size)) {
      return c.getValue();
    }
    auto dim = mlir::dyn_cast<mlir::AffineDimExpr>(size);
    if (!dim) return std::nullopt;
    Interval b = map.GetDimBound(dim.getPosition());
    if (b.lower != 0) return std::nullopt;
    return b.upper + 1;
  }

  // into = into && other, unless the result could hold more than
  // kMaxConjunctions conjunctions.
  bool AndInto(TileSizeConstraints& into, const TileSizeConstraints& other) {
    size_t a = std::max<size_t>(1, into.conjunctions().size());
    size_t b = std::max<size_t>(1, other.conjunctions().size());
    if (a * b > kMaxConjunctions) {
      if (reason.empty()) {
        reason = absl::StrCat("the constraints would have more than ",
                              kMaxConjunctions, " conjunctions");
      }
      return false;
    }
    into = into && other;
    return true;
  }

  std::optional<SizeAndStride> Extract(mlir::AffineExpr e);
  std::optional<SizeAndStride> FromMod(mlir::AffineExpr lhs,
                                       mlir::AffineExpr modulus);
  std::optional<SizeAndStride> FromSum(mlir::AffineExpr sum);
  TileSizeConstraints SummationConstraints(
      const std::vector<SizeAndStride>& sorted);
};

// d mod c takes min(d, c) values when c divides d or d divides c:
// size d - ((d - 1) floordiv c) * c (XLA's ExtractSizeAndStrideFromMod).
std::optional<SizeAndStride> Derivation::FromMod(mlir::AffineExpr lhs,
                                                 mlir::AffineExpr modulus) {
  if (!mlir::isa<mlir::AffineConstantExpr>(modulus)) {
    return Fail("a mod by a non-constant");
  }
  mlir::AffineExpr dividend;
  if (IsDim(lhs)) {
    dividend = lhs;
  } else if (lhs.getKind() == mlir::AffineExprKind::FloorDiv) {
    auto div = mlir::cast<mlir::AffineBinaryOpExpr>(lhs);
    if (!IsDim(div.getLHS()) ||
        !mlir::isa<mlir::AffineConstantExpr>(div.getRHS())) {
      return Fail("a mod of something other than d or d floordiv c");
    }
    // ceil(d / k) as (d + k - 1) floordiv k.
    dividend = (div.getLHS() + (div.getRHS() - 1)).floorDiv(div.getRHS());
  } else {
    return Fail("a mod of something other than d or d floordiv c");
  }
  mlir::AffineExpr size = dividend - (dividend - 1).floorDiv(modulus) * modulus;
  TileSizeConstraints constraints =
      TileSizeConstraints::Of({modulus % dividend, {0, 0}}) ||
      TileSizeConstraints::Of({dividend % modulus, {0, 0}});
  return SizeAndStride{size, 1, constraints};
}

// One conjunction per (1*, partial?, full*, 1*) pattern of the sizes
// sorted by decreasing stride (XLA's
// ConstructConstraintExpressionForDestructuredSummation).
TileSizeConstraints Derivation::SummationConstraints(
    const std::vector<SizeAndStride>& sorted) {
  TileSizeConstraints result = TileSizeConstraints::Unsatisfiable();
  const int64_t n = sorted.size();
  const Interval one{1, 1};
  for (int64_t partial = 0; partial < n; ++partial) {
    for (int64_t full = 0; full < n - partial; ++full) {
      TileSizeConstraints conjunction = TileSizeConstraints::AlwaysSatisfied();
      bool ok = true;
      for (int64_t i = 0; i < n && ok; ++i) {
        if (i == partial) continue;
        if (i > partial && i <= partial + full) {
          std::optional<int64_t> max = RangeSize(sorted[i].size);
          if (!max) {
            ok = false;
            break;
          }
          conjunction = conjunction &&
                        TileSizeConstraints::Of({sorted[i].size, {*max, *max}});
        } else {
          conjunction =
              conjunction && TileSizeConstraints::Of({sorted[i].size, one});
        }
      }
      if (ok) result = result || conjunction;
    }
  }
  return result;
}

// A sum of strided terms (XLA's CombineSizesAndStrides): each term's size
// must be a constant or a dimension, its stride a constant, and the
// strides, sorted decreasing, must each be the next one times that one's
// range size.
std::optional<SizeAndStride> Derivation::FromSum(mlir::AffineExpr sum) {
  std::vector<mlir::AffineExpr> summands;
  std::vector<mlir::AffineExpr> stack = {sum};
  while (!stack.empty()) {
    mlir::AffineExpr e = stack.back();
    stack.pop_back();
    if (e.getKind() == mlir::AffineExprKind::Add) {
      auto add = mlir::cast<mlir::AffineBinaryOpExpr>(e);
      stack.push_back(add.getRHS());
      stack.push_back(add.getLHS());
    } else {
      summands.push_back(e);
    }
  }
  if (summands.size() > kMaxSumTerms) {
    return Fail(absl::StrCat("a sum of more than ", kMaxSumTerms, " terms"));
  }
  std::vector<SizeAndStride> terms;
  TileSizeConstraints constraints = TileSizeConstraints::AlwaysSatisfied();
  for (mlir::AffineExpr summand : summands) {
    std::optional<SizeAndStride> term = Extract(summand);
    if (!term) return std::nullopt;
    if (!term->stride) return Fail("a sum of terms with a non-constant stride");
    if (!mlir::isa<mlir::AffineConstantExpr>(term->size) &&
        !IsDim(term->size)) {
      return Fail(absl::StrCat("a sum whose term ", AffineExprToString(summand),
                               " has a size that is not a dimension"));
    }
    if (!AndInto(constraints, term->constraints)) return std::nullopt;
    terms.push_back(*std::move(term));
  }
  for (const SizeAndStride& term : terms) {
    if (*term.stride == Interval::kMin) return Fail("a stride overflows int64");
  }
  std::stable_sort(terms.begin(), terms.end(),
                   [](const SizeAndStride& a, const SizeAndStride& b) {
                     return std::abs(*a.stride) > std::abs(*b.stride);
                   });
  for (size_t i = 1; i < terms.size(); ++i) {
    std::optional<int64_t> range = RangeSize(terms[i].size);
    if (!range) return Fail("a sum with a dimension not starting at 0");
    std::optional<int64_t> span =
        CheckedMul(*range, std::abs(*terms[i].stride));
    if (span != std::abs(*terms[i - 1].stride)) {
      return Fail(absl::StrCat("a sum whose strides do not nest: ", *range,
                               " * ", std::abs(*terms[i].stride),
                               " != ", std::abs(*terms[i - 1].stride)));
    }
  }
  if (!RangeSize(terms[0].size)) {
    return Fail("a sum with a dimension not starting at 0");
  }
  if (!AndInto(constraints, SummationConstraints(terms))) return std::nullopt;
  // The size (the product) and the nested stride are not needed here.
  return SizeAndStride{mlir::AffineExpr(), std::nullopt, constraints};
}

// XLA's ExtractSizeAndStride.
std::optional<SizeAndStride> Derivation::Extract(mlir::AffineExpr e) {
  mlir::MLIRContext* context = e.getContext();
  switch (e.getKind()) {
    case mlir::AffineExprKind::DimId:
      return SizeAndStride{e, 1, TileSizeConstraints::AlwaysSatisfied()};
    case mlir::AffineExprKind::SymbolId: {
      Interval b = map.GetSymbolBound(
          mlir::cast<mlir::AffineSymbolExpr>(e).getPosition());
      if (b.lower != 0) return Fail("a symbol whose range does not start at 0");
      if (b.upper == Interval::kMax) return Fail("a symbol without a bound");
      return SizeAndStride{mlir::getAffineConstantExpr(b.upper + 1, context), 1,
                           TileSizeConstraints::AlwaysSatisfied()};
    }
    case mlir::AffineExprKind::Constant:
      return SizeAndStride{mlir::getAffineConstantExpr(1, context), 0,
                           TileSizeConstraints::AlwaysSatisfied()};
    case mlir::AffineExprKind::Mul: {
      auto mul = mlir::cast<mlir::AffineBinaryOpExpr>(e);
      std::optional<SizeAndStride> lhs = Extract(mul.getLHS());
      if (!lhs) return std::nullopt;
      auto factor = mlir::dyn_cast<mlir::AffineConstantExpr>(mul.getRHS());
      // A stride that is not a constant (or overflows) only matters in a
      // sum, which then fails.
      lhs->stride = factor && lhs->stride
                        ? CheckedMul(*lhs->stride, factor.getValue())
                        : std::nullopt;
      return lhs;
    }
    case mlir::AffineExprKind::Mod: {
      auto mod = mlir::cast<mlir::AffineBinaryOpExpr>(e);
      return FromMod(mod.getLHS(), mod.getRHS());
    }
    case mlir::AffineExprKind::FloorDiv: {
      auto div = mlir::cast<mlir::AffineBinaryOpExpr>(e);
      if (!IsDim(div.getLHS()) ||
          !mlir::isa<mlir::AffineConstantExpr>(div.getRHS())) {
        return Fail("a floordiv of something other than d by a constant");
      }
      return SizeAndStride{
          (div.getLHS() + (div.getRHS() - 1)).floorDiv(div.getRHS()), 1,
          TileSizeConstraints::AlwaysSatisfied()};
    }
    case mlir::AffineExprKind::Add:
      return FromSum(e);
    default:
      return Fail(absl::StrCat("an expression XLA does not tile: ",
                               AffineExprToString(e)));
  }
}

// XLA's IndexingMapConstraintsCanBeIgnored: every constraint must bound a
// result from above only (high padding); returns the first that does not.
std::optional<std::string> ConstraintXlaCannotIgnore(const IndexingMap& map) {
  mlir::AffineMap affine = map.GetAffineMap();
  for (const IndexingConstraint& c : map.GetConstraints()) {
    bool on_result =
        std::find(affine.getResults().begin(), affine.getResults().end(),
                  c.expr) != affine.getResults().end();
    if (c.interval.lower != 0 || !on_result) {
      return absl::StrCat(AffineExprToString(c.expr), " in ",
                          c.interval.ToString());
    }
  }
  return std::nullopt;
}

}  // namespace

XlaTileSizeConstraints DeriveXlaTileSizeConstraints(
    const IndexingMap& output_to_operand) {
  XlaTileSizeConstraints result;
  if (output_to_operand.IsUndefined()) {
    result.reason = "the map is undefined";
    return result;
  }
  if (output_to_operand.IsKnownEmpty()) {
    result.reason = "the map is known empty";
    return result;
  }
  IndexingMap map = output_to_operand;
  map.Simplify();
  if (map.IsKnownEmpty()) {
    result.reason = "the map is known empty";
    return result;
  }
  if (std::optional<std::string> c = ConstraintXlaCannotIgnore(map)) {
    result.reason =
        absl::StrCat("the constraint ", *c,
                     " is not an upper bound on a result (XLA bails out)");
    return result;
  }
  // offsets = f(0, ..., 0)[0, ..., 0] (runtime symbols kept); each result
  // minus its offset is a strided expression of the indices.
  mlir::MLIRContext* context = map.GetMLIRContext();
  llvm::SmallVector<mlir::AffineExpr> zero_dims(
      map.GetDimensionCount(), mlir::getAffineConstantExpr(0, context));
  llvm::SmallVector<mlir::AffineExpr> symbols;
  for (int64_t s = 0; s < map.GetSymbolCount(); ++s) {
    symbols.push_back(s < map.GetRangeVarsCount()
                          ? mlir::getAffineConstantExpr(0, context)
                          : mlir::getAffineSymbolExpr(s, context));
  }
  Derivation derivation{map, ""};
  TileSizeConstraints constraints = TileSizeConstraints::AlwaysSatisfied();
  for (mlir::AffineExpr r : map.GetAffineMap().getResults()) {
    mlir::AffineExpr offset =
        SimplifyAffineExpr(map, r.replaceDimsAndSymbols(zero_dims, symbols));
    mlir::AffineExpr strided = SimplifyAffineExpr(map, r - offset);
    std::optional<SizeAndStride> part = derivation.Extract(strided);
    if (part && !derivation.AndInto(constraints, part->constraints)) {
      part.reset();
    }
    if (!part) {
      result.reason = absl::StrCat("result ", AffineExprToString(r), ": ",
                                   derivation.reason);
      return result;
    }
  }
  constraints.Simplify();
  result.derivable = true;
  result.constraints = std::move(constraints);
  return result;
}

}  // namespace xla_index
