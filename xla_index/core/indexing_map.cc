#include "xla_index/core/indexing_map.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/core/affine_simplifier.h"
#include "xla_index/core/checked_affine_expr.h"
#include "xla_index/core/exact_expr_value.h"
#include "xla_index/core/wide_substitution.h"

namespace xla_index {
namespace {

using mlir::AffineExpr;
using mlir::AffineMap;

// Marks in `used_dims` / `used_symbols` the variables that occur in `expr`.
void CollectUsedVariables(AffineExpr expr, llvm::SmallBitVector& used_dims,
                          llvm::SmallBitVector& used_symbols) {
  expr.walk([&](AffineExpr e) {
    if (auto dim = mlir::dyn_cast<mlir::AffineDimExpr>(e)) {
      if (dim.getPosition() < used_dims.size())
        used_dims.set(dim.getPosition());
    } else if (auto sym = mlir::dyn_cast<mlir::AffineSymbolExpr>(e)) {
      if (sym.getPosition() < used_symbols.size()) {
        used_symbols.set(sym.getPosition());
      }
    }
  });
}

// Replacement list mapping old variable i to the new variable of the same
// kind at its rank among the kept ones (removed variables map to 0; they
// must not occur).
llvm::SmallVector<AffineExpr> CompactingReplacements(
    const llvm::SmallBitVector& removed, bool dims, mlir::MLIRContext* ctx) {
  llvm::SmallVector<AffineExpr> out;
  int next = 0;
  for (int i = 0; i < static_cast<int>(removed.size()); ++i) {
    if (removed.test(i)) {
      out.push_back(mlir::getAffineConstantExpr(0, ctx));
    } else {
      out.push_back(dims ? mlir::getAffineDimExpr(next++, ctx)
                         : mlir::getAffineSymbolExpr(next++, ctx));
    }
  }
  return out;
}

llvm::SmallVector<AffineExpr> IdentityDims(int n, mlir::MLIRContext* ctx) {
  llvm::SmallVector<AffineExpr> out;
  for (int i = 0; i < n; ++i) out.push_back(mlir::getAffineDimExpr(i, ctx));
  return out;
}

// True if any of `exprs` uses a symbol.
bool UsesSymbols(llvm::ArrayRef<AffineExpr> exprs) {
  bool any = false;
  for (AffineExpr e : exprs) {
    e.walk(
        [&](AffineExpr sub) { any |= mlir::isa<mlir::AffineSymbolExpr>(sub); });
  }
  return any;
}

// Rewrites an access map whose inputs are the owning map's variables with
// the given replacements (renamings only: a substitution that may fold
// constants goes through Substitution::RewriteAccess); the new access has
// `num_dims` dims and `num_symbols` symbols if any result uses a symbol,
// else none.
AffineMap RewriteAccess(AffineMap access, llvm::ArrayRef<AffineExpr> dims,
                        llvm::ArrayRef<AffineExpr> symbols, int num_dims,
                        int num_symbols) {
  if (!access) return access;
  llvm::SmallVector<AffineExpr> results;
  for (AffineExpr r : access.getResults()) {
    // The access map may declare fewer symbols than the owner has.
    results.push_back(
        r.replaceDimsAndSymbols(dims.take_front(access.getNumDims()),
                                symbols.take_front(access.getNumSymbols())));
  }
  return AffineMap::get(num_dims, UsesSymbols(results) ? num_symbols : 0,
                        results, access.getContext());
}

// The substitution of a composition: MLIR's folds, checked
// (CheckedSubstitution), or, when one of them leaves int64, computed in 128
// bits and expressed again (`wide`, WideReplaceDimsAndSymbols).
class Substitution {
 public:
  Substitution(llvm::ArrayRef<AffineExpr> dims,
               llvm::ArrayRef<AffineExpr> symbols, bool wide)
      : checked_(dims, symbols), dims_(dims), symbols_(symbols), wide_(wide) {}
  absl::StatusOr<AffineExpr> Apply(AffineExpr e) const {
    return wide_ ? WideReplaceDimsAndSymbols(e, dims_, symbols_)
                 : checked_.Apply(e);
  }
  absl::StatusOr<AffineMap> Apply(AffineMap map, unsigned num_dims,
                                  unsigned num_symbols) const {
    if (!wide_) return checked_.Apply(map, num_dims, num_symbols);
    llvm::SmallVector<AffineExpr> results;
    for (AffineExpr r : map.getResults()) {
      XI_ASSIGN_OR_RETURN(AffineExpr replaced, Apply(r));
      results.push_back(replaced);
    }
    return AffineMap::get(num_dims, num_symbols, results, map.getContext());
  }
  // RewriteAccess with this substitution (the access map may declare fewer
  // dims and symbols than the owner has).
  absl::StatusOr<AffineMap> RewriteAccess(AffineMap access, int num_dims,
                                          int num_symbols) const {
    if (!access) return access;
    const Substitution front(dims_.take_front(access.getNumDims()),
                             symbols_.take_front(access.getNumSymbols()),
                             wide_);
    llvm::SmallVector<AffineExpr> results;
    for (AffineExpr r : access.getResults()) {
      XI_ASSIGN_OR_RETURN(AffineExpr replaced, front.Apply(r));
      results.push_back(replaced);
    }
    return AffineMap::get(num_dims, UsesSymbols(results) ? num_symbols : 0,
                          results, access.getContext());
  }

 private:
  CheckedSubstitution checked_;
  llvm::ArrayRef<AffineExpr> dims_, symbols_;
  bool wide_;
};

}  // namespace

bool operator==(const RuntimeVar& a, const RuntimeVar& b) {
  return a.feasible_values == b.feasible_values && a.hlo_text == b.hlo_text &&
         a.access == b.access;
}

IndexingMap::IndexingMap(AffineMap affine_map, std::vector<Interval> dim_bounds,
                         std::vector<Interval> range_bounds,
                         std::vector<RuntimeVar> runtime_vars,
                         std::vector<IndexingConstraint> constraints)
    : affine_map_(affine_map),
      dim_bounds_(std::move(dim_bounds)),
      range_bounds_(std::move(range_bounds)),
      runtime_vars_(std::move(runtime_vars)) {
  AddConstraints(constraints);
}

IndexingMap IndexingMap::FromTensorSizes(
    AffineMap affine_map, absl::Span<const int64_t> dim_sizes,
    absl::Span<const int64_t> symbol_sizes) {
  std::vector<Interval> dims, symbols;
  for (int64_t size : dim_sizes) dims.push_back({0, size - 1});
  for (int64_t size : symbol_sizes) symbols.push_back({0, size - 1});
  return IndexingMap(affine_map, std::move(dims), std::move(symbols), {});
}

IndexingMap IndexingMap::Undefined(std::string reason) {
  IndexingMap map(AffineMap(), {}, {}, {});
  map.undefined_reason_ = std::move(reason);
  return map;
}

IndexingMap IndexingMap::KnownEmpty(mlir::MLIRContext* context, int num_dims,
                                    int num_symbols, int num_results) {
  assert(num_dims >= 0 && num_symbols >= 0 && num_results >= 0 &&
         "negative variable or result count");
  llvm::SmallVector<AffineExpr> zeros(num_results,
                                      mlir::getAffineConstantExpr(0, context));
  IndexingMap map(AffineMap::get(num_dims, num_symbols, zeros, context),
                  std::vector<Interval>(num_dims, Interval{0, -1}),
                  std::vector<Interval>(num_symbols, Interval{0, -1}), {});
  map.is_known_empty_ = true;
  return map;
}

void IndexingMap::ResetToKnownEmpty() {
  if (IsUndefined()) return;
  mlir::MLIRContext* ctx = affine_map_.getContext();
  llvm::SmallVector<AffineExpr> zeros(affine_map_.getNumResults(),
                                      mlir::getAffineConstantExpr(0, ctx));
  affine_map_ = AffineMap::get(affine_map_.getNumDims(),
                               affine_map_.getNumSymbols(), zeros, ctx);
  for (Interval& b : dim_bounds_) b = {0, -1};
  for (Interval& b : range_bounds_) b = {0, -1};
  for (RuntimeVar& rt : runtime_vars_) rt.feasible_values = {0, -1};
  constraints_.clear();
  is_known_empty_ = true;
}

mlir::MLIRContext* IndexingMap::GetMLIRContext() const {
  return affine_map_ ? affine_map_.getContext() : nullptr;
}

Interval IndexingMap::GetSymbolBound(int64_t symbol) const {
  assert(symbol >= 0 && symbol < GetSymbolCount() && "symbol out of range");
  if (symbol < GetRangeVarsCount()) return range_bounds_[symbol];
  return runtime_vars_[symbol - GetRangeVarsCount()].feasible_values;
}

std::vector<Interval> IndexingMap::GetSymbolBounds() const {
  std::vector<Interval> bounds = range_bounds_;
  for (const RuntimeVar& rt : runtime_vars_) {
    bounds.push_back(rt.feasible_values);
  }
  return bounds;
}

Interval& IndexingMap::GetMutableSymbolBound(int64_t symbol) {
  assert(symbol >= 0 && symbol < GetSymbolCount() && "symbol out of range");
  if (symbol < GetRangeVarsCount()) return range_bounds_[symbol];
  return runtime_vars_[symbol - GetRangeVarsCount()].feasible_values;
}

void IndexingMap::AddConstraint(AffineExpr expr, Interval interval) {
  // `v in interval` on a lone variable narrows its bound: kept as a
  // constraint it would print exactly like the bound ("s0 in [0, 20]") and
  // the text would no longer parse back.
  if (auto dim = mlir::dyn_cast<mlir::AffineDimExpr>(expr);
      dim && dim.getPosition() < dim_bounds_.size()) {
    Interval& bound = dim_bounds_[dim.getPosition()];
    bound = bound.Intersect(interval);
    return;
  }
  if (auto symbol = mlir::dyn_cast<mlir::AffineSymbolExpr>(expr);
      symbol && symbol.getPosition() < GetSymbolCount()) {
    Interval& bound = GetMutableSymbolBound(symbol.getPosition());
    bound = bound.Intersect(interval);
    return;
  }
  for (IndexingConstraint& c : constraints_) {
    if (c.expr == expr) {
      c.interval = c.interval.Intersect(interval);
      return;
    }
  }
  constraints_.push_back({expr, interval});
}

void IndexingMap::AddConstraints(
    absl::Span<const IndexingConstraint> constraints) {
  // Few: AddConstraint's linear search is cheaper than an index.
  constexpr size_t kIndexFrom = 16;
  if (constraints.size() + constraints_.size() < kIndexFrom) {
    for (const IndexingConstraint& c : constraints) {
      AddConstraint(c.expr, c.interval);
    }
    return;
  }
  // The position of the first constraint on each expression, which is the
  // one AddConstraint's search finds.
  llvm::DenseMap<const void*, size_t> position;
  for (size_t i = 0; i < constraints_.size(); ++i) {
    position.try_emplace(constraints_[i].expr.getAsOpaquePointer(), i);
  }
  for (const IndexingConstraint& c : constraints) {
    if (mlir::isa<mlir::AffineDimExpr, mlir::AffineSymbolExpr>(c.expr)) {
      AddConstraint(c.expr, c.interval);  // A bound, or kept as written.
      continue;
    }
    auto [it, added] =
        position.try_emplace(c.expr.getAsOpaquePointer(), constraints_.size());
    if (added) {
      constraints_.push_back(c);
    } else {
      Interval& interval = constraints_[it->second].interval;
      interval = interval.Intersect(c.interval);
    }
  }
}

llvm::SmallBitVector IndexingMap::RemoveUnusedSymbols() {
  int num_symbols = GetSymbolCount();
  llvm::SmallBitVector removed(num_symbols);
  if (IsUndefined() || IsKnownEmpty() || num_symbols == 0) return removed;
  mlir::MLIRContext* ctx = GetMLIRContext();
  llvm::SmallBitVector used_dims(GetDimensionCount());
  llvm::SmallBitVector used(num_symbols);
  for (AffineExpr r : affine_map_.getResults()) {
    CollectUsedVariables(r, used_dims, used);
  }
  // A constraint with a dim or a used symbol ties its symbols to the
  // domain: it stays and its symbols are used. One over unused symbols only
  // is dropped if it holds for every value of them (by interval evaluation
  // over the box, without the other constraints, which could be this one),
  // and otherwise stays too. Each kept constraint may make more symbols
  // used, so iterate to a fixed point.
  enum class Fate : uint8_t { kOpen, kKept, kDropped };
  std::vector<Fate> fate(constraints_.size(), Fate::kOpen);
  std::vector<llvm::SmallBitVector> constraint_symbols;
  std::vector<bool> has_dims;
  for (const IndexingConstraint& c : constraints_) {
    llvm::SmallBitVector c_dims(GetDimensionCount()), c_syms(num_symbols);
    CollectUsedVariables(c.expr, c_dims, c_syms);
    constraint_symbols.push_back(std::move(c_syms));
    has_dims.push_back(c_dims.any());
  }
  const std::vector<Interval> symbol_bounds = GetSymbolBounds();
  std::optional<AffineSimplifier> simplifier;
  auto keep = [&](size_t i) {
    fate[i] = Fate::kKept;
    used |= constraint_symbols[i];
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < constraints_.size(); ++i) {
      if (fate[i] == Fate::kOpen &&
          (has_dims[i] || constraint_symbols[i].anyCommon(used))) {
        keep(i);
        changed = true;
      }
    }
    if (changed) continue;
    for (size_t i = 0; i < constraints_.size() && !changed; ++i) {
      if (fate[i] != Fate::kOpen) continue;
      if (!simplifier) {
        simplifier.emplace(GetMLIRContext(), dim_bounds_, symbol_bounds);
      }
      const IndexingConstraint& c = constraints_[i];
      if (c.interval.Contains(simplifier->Range(c.expr))) {
        fate[i] = Fate::kDropped;
      } else {
        keep(i);
        changed = true;  // Its symbols are used now.
      }
    }
  }
  std::vector<IndexingConstraint> kept;
  for (size_t i = 0; i < constraints_.size(); ++i) {
    if (fate[i] == Fate::kKept) kept.push_back(constraints_[i]);
  }
  removed = used;
  removed.flip();
  // An empty interval of an unused symbol still makes the map empty.
  for (int i = 0; i < num_symbols; ++i) {
    if (removed.test(i) && symbol_bounds[i].IsEmpty()) removed.reset(i);
  }
  if (removed.none()) {
    constraints_ = std::move(kept);
    return removed;
  }
  llvm::SmallVector<AffineExpr> sym_replacements =
      CompactingReplacements(removed, /*dims=*/false, ctx);
  llvm::SmallVector<AffineExpr> dim_ids =
      IdentityDims(GetDimensionCount(), ctx);
  int new_num_symbols = num_symbols - removed.count();
  affine_map_ = affine_map_.replaceDimsAndSymbols(
      dim_ids, sym_replacements, GetDimensionCount(), new_num_symbols);
  std::vector<Interval> new_range;
  std::vector<RuntimeVar> new_rt;
  for (int i = 0; i < num_symbols; ++i) {
    if (removed.test(i)) continue;
    if (i < GetRangeVarsCount()) {
      new_range.push_back(range_bounds_[i]);
    } else {
      new_rt.push_back(std::move(runtime_vars_[i - GetRangeVarsCount()]));
    }
  }
  for (RuntimeVar& rt : new_rt) {
    rt.access = RewriteAccess(rt.access, dim_ids, sym_replacements,
                              GetDimensionCount(), new_num_symbols);
  }
  range_bounds_ = std::move(new_range);
  runtime_vars_ = std::move(new_rt);
  constraints_.clear();
  for (const IndexingConstraint& c : kept) {
    AddConstraint(c.expr.replaceDimsAndSymbols(dim_ids, sym_replacements),
                  c.interval);
  }
  return removed;
}

llvm::SmallBitVector IndexingMap::RemoveUnusedDimensions() {
  int num_dims = GetDimensionCount();
  llvm::SmallBitVector removed(num_dims);
  if (IsUndefined() || IsKnownEmpty() || num_dims == 0) return removed;
  mlir::MLIRContext* ctx = GetMLIRContext();
  llvm::SmallBitVector used(num_dims), used_syms(GetSymbolCount());
  for (AffineExpr r : affine_map_.getResults()) {
    CollectUsedVariables(r, used, used_syms);
  }
  for (const IndexingConstraint& c : constraints_) {
    CollectUsedVariables(c.expr, used, used_syms);
  }
  for (const RuntimeVar& rt : runtime_vars_) {
    if (!rt.access) continue;
    for (AffineExpr r : rt.access.getResults()) {
      CollectUsedVariables(r, used, used_syms);
    }
  }
  removed = used;
  removed.flip();
  // An empty interval of an unused dim still makes the map empty: keep it.
  for (int i = 0; i < num_dims; ++i) {
    if (removed.test(i) && dim_bounds_[i].IsEmpty()) removed.reset(i);
  }
  if (removed.none()) return removed;
  llvm::SmallVector<AffineExpr> dim_replacements =
      CompactingReplacements(removed, /*dims=*/true, ctx);
  llvm::SmallVector<AffineExpr> sym_ids;
  for (int i = 0; i < GetSymbolCount(); ++i) {
    sym_ids.push_back(mlir::getAffineSymbolExpr(i, ctx));
  }
  int new_num_dims = num_dims - removed.count();
  affine_map_ = affine_map_.replaceDimsAndSymbols(
      dim_replacements, sym_ids, new_num_dims, GetSymbolCount());
  std::vector<Interval> new_dims;
  for (int i = 0; i < num_dims; ++i) {
    if (!removed.test(i)) new_dims.push_back(dim_bounds_[i]);
  }
  dim_bounds_ = std::move(new_dims);
  for (RuntimeVar& rt : runtime_vars_) {
    rt.access = RewriteAccess(rt.access, dim_replacements, sym_ids,
                              new_num_dims, GetSymbolCount());
  }
  for (IndexingConstraint& c : constraints_) {
    c.expr = c.expr.replaceDimsAndSymbols(dim_replacements, sym_ids);
  }
  return removed;
}

absl::Status IndexingMap::SubstituteScaledSymbol(int64_t symbol, int64_t k,
                                                 int64_t r, size_t skip) {
  mlir::MLIRContext* ctx = GetMLIRContext();
  llvm::SmallVector<AffineExpr> dim_ids =
      IdentityDims(GetDimensionCount(), ctx);
  llvm::SmallVector<AffineExpr> sym_replacements;
  for (int j = 0; j < GetSymbolCount(); ++j) {
    AffineExpr e = mlir::getAffineSymbolExpr(j, ctx);
    if (j == symbol) {
      XI_ASSIGN_OR_RETURN(
          e, CheckedAffineMul(e, mlir::getAffineConstantExpr(k, ctx)));
      XI_ASSIGN_OR_RETURN(
          e, CheckedAffineAdd(e, mlir::getAffineConstantExpr(r, ctx)));
    }
    sym_replacements.push_back(e);
  }
  XI_ASSIGN_OR_RETURN(
      AffineMap map,
      CheckedReplaceDimsAndSymbols(affine_map_, dim_ids, sym_replacements,
                                   GetDimensionCount(), GetSymbolCount()));
  std::vector<IndexingConstraint> constraints;
  for (size_t i = 0; i < constraints_.size(); ++i) {
    if (i == skip) continue;
    XI_ASSIGN_OR_RETURN(
        AffineExpr e, CheckedReplaceDimsAndSymbols(constraints_[i].expr,
                                                   dim_ids, sym_replacements));
    constraints.push_back({e, constraints_[i].interval});
  }
  std::vector<AffineMap> accesses;
  for (const RuntimeVar& rt : runtime_vars_) {
    XI_ASSIGN_OR_RETURN(
        AffineMap access,
        Substitution(dim_ids, sym_replacements, /*wide=*/false)
            .RewriteAccess(rt.access, GetDimensionCount(), GetSymbolCount()));
    accesses.push_back(access);
  }
  affine_map_ = map;
  for (size_t i = 0; i < runtime_vars_.size(); ++i) {
    runtime_vars_[i].access = accesses[i];
  }
  constraints_.clear();
  for (const IndexingConstraint& c : constraints) {
    AddConstraint(c.expr, c.interval);
  }
  return absl::OkStatus();
}

bool IndexingMap::RescaleSymbols() {
  if (IsUndefined() || IsKnownEmpty()) return false;
  bool rescaled_any = false;
  for (size_t i = 0; i < constraints_.size();) {
    const IndexingConstraint c = constraints_[i];
    auto mod = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(c.expr);
    if (!mod || mod.getKind() != mlir::AffineExprKind::Mod ||
        !c.interval.IsPoint()) {
      ++i;
      continue;
    }
    auto sym = mlir::dyn_cast<mlir::AffineSymbolExpr>(mod.getLHS());
    auto divisor = mlir::dyn_cast<mlir::AffineConstantExpr>(mod.getRHS());
    if (!sym || !divisor || divisor.getValue() < 1 ||
        IsRuntimeSymbol(sym.getPosition())) {
      ++i;
      continue;
    }
    int64_t k = divisor.getValue(), r = c.interval.lower;
    int64_t s = sym.getPosition();
    if (r < 0 || r >= k) {  // s mod k never equals r: empty.
      ResetToKnownEmpty();
      return true;
    }
    // The new bound first: substituted constraints may narrow it. A
    // rescaling whose coefficients would not fit in int64 is not done.
    Interval& bound = range_bounds_[s];
    const Interval old_bound = bound;
    bound = {CeilDiv(SaturatingSub(bound.lower, r), k),
             FloorDiv(SaturatingSub(bound.upper, r), k)};
    if (!SubstituteScaledSymbol(s, k, r, i).ok()) {
      bound = old_bound;
      ++i;
      continue;
    }
    rescaled_any = true;
    if (bound.IsEmpty()) {
      ResetToKnownEmpty();
      return true;
    }
    i = 0;  // The constraint list was rebuilt.
  }
  // The substitution leaves sums like d0 + (s0 * 4 + 1): put them back into
  // canonical form.
  if (rescaled_any) Simplify();
  return rescaled_any;
}

IndexingMap IndexingMap::ConvertSymbolsToDimensions() const {
  if (IsUndefined() || IsKnownEmpty()) return *this;
  mlir::MLIRContext* ctx = GetMLIRContext();
  int num_dims = GetDimensionCount(), num_symbols = GetSymbolCount();
  llvm::SmallVector<AffineExpr> dim_ids = IdentityDims(num_dims, ctx);
  llvm::SmallVector<AffineExpr> sym_to_dim;
  for (int i = 0; i < num_symbols; ++i) {
    sym_to_dim.push_back(mlir::getAffineDimExpr(num_dims + i, ctx));
  }
  AffineMap map = affine_map_.replaceDimsAndSymbols(dim_ids, sym_to_dim,
                                                    num_dims + num_symbols, 0);
  std::vector<Interval> dims = dim_bounds_;
  for (Interval b : GetSymbolBounds()) dims.push_back(b);
  std::vector<IndexingConstraint> constraints;
  for (const IndexingConstraint& c : constraints_) {
    constraints.push_back(
        {c.expr.replaceDimsAndSymbols(dim_ids, sym_to_dim), c.interval});
  }
  return IndexingMap(map, std::move(dims), {}, {}, std::move(constraints));
}

IndexingMap IndexingMap::GetSubMap(int64_t result_index) const {
  if (IsUndefined()) return *this;
  assert(result_index >= 0 && result_index < GetResultCount() &&
         "result index out of range");
  IndexingMap sub = *this;
  sub.affine_map_ =
      affine_map_.getSubMap({static_cast<unsigned>(result_index)});
  return sub;
}

namespace {

// The value of `expr` at the point in int64 arithmetic: saturating when
// `overflow` is null, else stopping at the first intermediate value beyond
// int64 with *overflow set. Nullopt also on a division by zero, a modulo
// by a value < 1 or a variable the point does not have.
std::optional<int64_t> EvaluateInInt64(AffineExpr expr,
                                       absl::Span<const int64_t> dims,
                                       absl::Span<const int64_t> symbols,
                                       bool* overflow) {
  switch (expr.getKind()) {
    case mlir::AffineExprKind::Constant:
      return mlir::cast<mlir::AffineConstantExpr>(expr).getValue();
    case mlir::AffineExprKind::DimId: {
      unsigned pos = mlir::cast<mlir::AffineDimExpr>(expr).getPosition();
      if (pos >= dims.size()) return std::nullopt;
      return dims[pos];
    }
    case mlir::AffineExprKind::SymbolId: {
      unsigned pos = mlir::cast<mlir::AffineSymbolExpr>(expr).getPosition();
      if (pos >= symbols.size()) return std::nullopt;
      return symbols[pos];
    }
    default:
      break;
  }
  auto bin = mlir::cast<mlir::AffineBinaryOpExpr>(expr);
  std::optional<int64_t> lhs =
      EvaluateInInt64(bin.getLHS(), dims, symbols, overflow);
  if (!lhs) return std::nullopt;
  std::optional<int64_t> rhs =
      EvaluateInInt64(bin.getRHS(), dims, symbols, overflow);
  if (!rhs) return std::nullopt;
  int64_t out;
  switch (expr.getKind()) {
    case mlir::AffineExprKind::Add:
      if (overflow == nullptr) return SaturatingAdd(*lhs, *rhs);
      if (!__builtin_add_overflow(*lhs, *rhs, &out)) return out;
      break;
    case mlir::AffineExprKind::Mul:
      if (overflow == nullptr) return SaturatingMul(*lhs, *rhs);
      if (!__builtin_mul_overflow(*lhs, *rhs, &out)) return out;
      break;
    case mlir::AffineExprKind::FloorDiv:
    case mlir::AffineExprKind::CeilDiv:
      if (*rhs == 0) return std::nullopt;
      // Only INT64_MIN / -1 leaves int64 (FloorDiv saturates it).
      if (overflow == nullptr || *rhs != -1 ||
          *lhs != std::numeric_limits<int64_t>::min()) {
        return expr.getKind() == mlir::AffineExprKind::FloorDiv
                   ? FloorDiv(*lhs, *rhs)
                   : CeilDiv(*lhs, *rhs);
      }
      break;
    case mlir::AffineExprKind::Mod:
      if (*rhs < 1) return std::nullopt;
      return FloorMod(*lhs, *rhs);
    default:
      return std::nullopt;
  }
  *overflow = true;
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> EvaluateAffineExpr(AffineExpr expr,
                                          absl::Span<const int64_t> dims,
                                          absl::Span<const int64_t> symbols) {
  return EvaluateInInt64(expr, dims, symbols, /*overflow=*/nullptr);
}

bool IndexingMap::ConstraintsSatisfied(
    absl::Span<const int64_t> dims, absl::Span<const int64_t> symbols) const {
  if (IsUndefined() || IsKnownEmpty()) return false;
  if (static_cast<int64_t>(dims.size()) != GetDimensionCount() ||
      static_cast<int64_t>(symbols.size()) != GetSymbolCount()) {
    return false;
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!dim_bounds_[i].Contains(dims[i])) return false;
  }
  for (size_t i = 0; i < symbols.size(); ++i) {
    if (!GetSymbolBound(i).Contains(symbols[i])) return false;
  }
  for (const IndexingConstraint& c : constraints_) {
    bool overflow = false;
    std::optional<int64_t> v =
        EvaluateInInt64(c.expr, dims, symbols, &overflow);
    if (overflow) {
      // A saturated value could fall inside the interval (d0 * 2^62 at
      // d0 = 2 is not in [INT64_MIN, INT64_MAX]); the exact value decides.
      const exact::Value e = exact::Evaluate(c.expr, dims, symbols);
      if (e.kind != exact::Value::kValue || e.value < c.interval.lower ||
          e.value > c.interval.upper) {
        return false;
      }
      continue;
    }
    if (!v || !c.interval.Contains(*v)) return false;
  }
  return true;
}

std::optional<std::vector<int64_t>> IndexingMap::Evaluate(
    absl::Span<const int64_t> dims, absl::Span<const int64_t> symbols) const {
  if (IsUndefined()) return std::nullopt;
  std::vector<int64_t> out;
  out.reserve(affine_map_.getNumResults());
  for (AffineExpr r : affine_map_.getResults()) {
    std::optional<int64_t> v = EvaluateAffineExpr(r, dims, symbols);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

absl::Status IndexingMap::Verify() const {
  if (IsUndefined()) return absl::OkStatus();
  if (static_cast<int64_t>(affine_map_.getNumDims()) != GetDimensionCount()) {
    return absl::InvalidArgumentError(
        absl::StrCat("affine map has ", affine_map_.getNumDims(),
                     " dims but the domain has ", GetDimensionCount()));
  }
  if (static_cast<int64_t>(affine_map_.getNumSymbols()) != GetSymbolCount()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "affine map has ", affine_map_.getNumSymbols(),
        " symbols but the domain has ", GetRangeVarsCount(), " range and ",
        GetRuntimeVarsCount(), " runtime variables"));
  }
  // MLIR's AffineMap::get checks positions only in assertion builds: a
  // result or constraint naming d1 of a 1-dim map must be refused here.
  auto uses_unknown_variable = [&](AffineExpr expr) {
    int max_dim = -1, max_sym = -1;
    expr.walk([&](AffineExpr e) {
      if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(e)) {
        max_dim = std::max<int>(max_dim, d.getPosition());
      } else if (auto s = mlir::dyn_cast<mlir::AffineSymbolExpr>(e)) {
        max_sym = std::max<int>(max_sym, s.getPosition());
      }
    });
    return max_dim >= GetDimensionCount() || max_sym >= GetSymbolCount();
  };
  for (unsigned i = 0; i < affine_map_.getNumResults(); ++i) {
    if (uses_unknown_variable(affine_map_.getResult(i))) {
      return absl::InvalidArgumentError(
          absl::StrCat("result ", i, " uses a variable the map does not have"));
    }
  }
  for (const IndexingConstraint& c : constraints_) {
    if (!c.expr) return absl::InvalidArgumentError("null constraint");
    if (uses_unknown_variable(c.expr)) {
      return absl::InvalidArgumentError(
          "a constraint uses a variable the map does not have");
    }
  }
  for (int i = 0; i < GetRuntimeVarsCount(); ++i) {
    const RuntimeVar& rt = runtime_vars_[i];
    if (rt.access &&
        static_cast<int64_t>(rt.access.getNumDims()) != GetDimensionCount()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "access map of runtime variable ", i, " has ", rt.access.getNumDims(),
          " dims, the map has ", GetDimensionCount()));
    }
  }
  return absl::OkStatus();
}

bool operator==(const IndexingMap& a, const IndexingMap& b) {
  if (a.IsKnownEmpty() || b.IsKnownEmpty()) {
    return a.IsKnownEmpty() == b.IsKnownEmpty();
  }
  if (a.IsUndefined() || b.IsUndefined()) {
    return a.IsUndefined() == b.IsUndefined();
  }
  if (a.affine_map_ != b.affine_map_ || a.dim_bounds_ != b.dim_bounds_ ||
      a.range_bounds_ != b.range_bounds_ ||
      a.runtime_vars_ != b.runtime_vars_ ||
      a.constraints_.size() != b.constraints_.size()) {
    return false;
  }
  for (const IndexingConstraint& c : a.constraints_) {
    bool found = false;
    for (const IndexingConstraint& d : b.constraints_) {
      if (c.expr == d.expr) {
        found = c.interval == d.interval;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

size_t HashAffineMap(AffineMap map) {
  return absl::Hash<const void*>{}(map.getAsOpaquePointer());
}

size_t HashConstraints(const std::vector<IndexingConstraint>& constraints) {
  size_t h = 0;
  for (const IndexingConstraint& c : constraints) {
    // Sum: independent of order.
    h +=
        absl::Hash<std::tuple<const void*, int64_t, int64_t>>{}(std::make_tuple(
            c.expr.getAsOpaquePointer(), c.interval.lower, c.interval.upper));
  }
  return h;
}

namespace {

// ComposeIndexingMaps for two maps that are neither Undefined nor
// KnownEmpty; an error when a substituted expression folds a constant that
// does not fit in int64 (`wide`: when its normal form has one, see
// wide_substitution.h).
absl::StatusOr<IndexingMap> ComposeDefinedMaps(const IndexingMap& first,
                                               const IndexingMap& second,
                                               bool wide) {
  mlir::MLIRContext* ctx = first.GetMLIRContext();
  const int n1 = first.GetDimensionCount();
  const int r1 = first.GetRangeVarsCount(), t1 = first.GetRuntimeVarsCount();
  const int r2 = second.GetRangeVarsCount(), t2 = second.GetRuntimeVarsCount();
  const int total = r1 + r2 + t1 + t2;
  // New symbol order: [range(second), range(first), rt(second), rt(first)].
  llvm::SmallVector<AffineExpr> first_syms, second_syms;
  for (int i = 0; i < r1; ++i) {
    first_syms.push_back(mlir::getAffineSymbolExpr(r2 + i, ctx));
  }
  for (int i = 0; i < t1; ++i) {
    first_syms.push_back(mlir::getAffineSymbolExpr(r2 + r1 + t2 + i, ctx));
  }
  for (int i = 0; i < r2; ++i) {
    second_syms.push_back(mlir::getAffineSymbolExpr(i, ctx));
  }
  for (int i = 0; i < t2; ++i) {
    second_syms.push_back(mlir::getAffineSymbolExpr(r2 + r1 + i, ctx));
  }
  // first's symbols keep their positions when second has none: then
  // first's expressions are used as they are, and the renaming (its dims
  // are a uniquer lookup each) is built only for first's runtime accesses,
  // whose maps it gives the new symbol count.
  const bool first_renamed = r2 + t2 > 0;
  const bool rename_used = first_renamed || t1 > 0;
  llvm::SmallVector<AffineExpr> dim_ids;
  if (rename_used) dim_ids = IdentityDims(n1, ctx);
  // A renaming: no constant changes, no wide arithmetic needed. Empty when
  // unused (it is then never applied). Not a std::optional: that one was
  // zero-filled on every composition (a `rep stos` of its 240 bytes, a
  // third of this function's own time under perf).
  const Substitution rename_first(dim_ids,
                                  rename_used
                                      ? llvm::ArrayRef<AffineExpr>(first_syms)
                                      : llvm::ArrayRef<AffineExpr>(),
                                  /*wide=*/false);
  llvm::SmallVector<AffineExpr> first_results;
  for (AffineExpr r : first.GetAffineMap().getResults()) {
    if (!first_renamed) {
      first_results.push_back(r);
      continue;
    }
    XI_ASSIGN_OR_RETURN(AffineExpr renamed, rename_first.Apply(r));
    first_results.push_back(renamed);
  }
  // Substituting first's results into second multiplies their coefficients
  // by second's: (d0 * 2^62) into d0 * 2 is checked here.
  const Substitution into_second(first_results, second_syms, wide);
  XI_ASSIGN_OR_RETURN(AffineMap composed,
                      into_second.Apply(second.GetAffineMap(), n1, total));
  std::vector<Interval> range;
  for (int i = 0; i < r2; ++i) range.push_back(second.GetSymbolBound(i));
  for (int i = 0; i < r1; ++i) range.push_back(first.GetSymbolBound(i));
  std::vector<RuntimeVar> runtime;
  for (const RuntimeVar& rt : second.GetRuntimeVars()) {
    RuntimeVar copy = rt;
    XI_ASSIGN_OR_RETURN(copy.access,
                        into_second.RewriteAccess(rt.access, n1, total));
    runtime.push_back(std::move(copy));
  }
  for (const RuntimeVar& rt : first.GetRuntimeVars()) {
    RuntimeVar copy = rt;
    XI_ASSIGN_OR_RETURN(copy.access,
                        rename_first.RewriteAccess(rt.access, n1, total));
    runtime.push_back(std::move(copy));
  }
  IndexingMap result(composed, first.GetDimBounds(), std::move(range),
                     std::move(runtime));
  for (const IndexingConstraint& c : first.GetConstraints()) {
    if (!first_renamed) {
      result.AddConstraint(c.expr, c.interval);
      continue;
    }
    XI_ASSIGN_OR_RETURN(AffineExpr e, rename_first.Apply(c.expr));
    result.AddConstraint(e, c.interval);
  }
  for (const IndexingConstraint& c : second.GetConstraints()) {
    XI_ASSIGN_OR_RETURN(AffineExpr e, into_second.Apply(c.expr));
    result.AddConstraint(e, c.interval);
  }
  // first's results must lie in second's domain.
  for (size_t j = 0; j < first_results.size(); ++j) {
    result.AddConstraint(first_results[j], second.GetDimBound(j));
  }
  return result;
}

}  // namespace

IndexingMap ComposeIndexingMaps(const IndexingMap& first,
                                const IndexingMap& second) {
  // The reason travels with the composition, so a fused map says which
  // instruction had no rule.
  if (first.IsUndefined()) return first;
  if (second.IsUndefined()) return second;
  if (first.IsKnownEmpty() || second.IsKnownEmpty()) {
    return IndexingMap::KnownEmpty(first.GetMLIRContext(),
                                   first.GetDimensionCount(), 0,
                                   second.GetResultCount());
  }
  if (first.GetResultCount() != second.GetDimensionCount()) {
    return IndexingMap::Undefined(absl::StrCat(
        "cannot compose a map with ", first.GetResultCount(),
        " results with a map of ", second.GetDimensionCount(), " dimensions"));
  }
  absl::StatusOr<IndexingMap> composed =
      ComposeDefinedMaps(first, second, /*wide=*/false);
  // A fold that left int64 may still have an exact map within int64
  // ((d0 * 2^62) * 2 floordiv 2^62 is d0 * 2): compute it in 128 bits.
  if (!composed.ok()) {
    absl::StatusOr<IndexingMap> wide =
        ComposeDefinedMaps(first, second, /*wide=*/true);
    if (wide.ok()) return *std::move(wide);
  }
  if (!composed.ok()) {
    return IndexingMap::Undefined(
        absl::StrCat("the composition cannot be represented exactly: ",
                     composed.status().message()));
  }
  return *std::move(composed);
}

absl::StatusOr<std::vector<IndexingPoint>> EnumerateImage(
    const IndexingMap& map, int64_t max_points) {
  std::vector<IndexingPoint> out;
  if (map.IsUndefined()) {
    return absl::InvalidArgumentError("cannot enumerate an undefined map");
  }
  if (map.IsKnownEmpty()) return out;
  std::vector<Interval> box = map.GetDimBounds();
  for (Interval b : map.GetSymbolBounds()) box.push_back(b);
  int64_t count = 1;
  for (Interval b : box) {
    if (b.IsEmpty()) return out;
    count = SaturatingMul(count, b.NumElements());
    if (b.lower == Interval::kMin || b.upper == Interval::kMax ||
        count > max_points) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "the domain has more than ", max_points, " points to enumerate"));
    }
  }
  const int nd = map.GetDimensionCount();
  std::vector<int64_t> point(box.size());
  for (size_t i = 0; i < box.size(); ++i) point[i] = box[i].lower;
  while (true) {
    absl::Span<const int64_t> dims(point.data(), nd);
    absl::Span<const int64_t> syms(point.data() + nd, point.size() - nd);
    if (map.ConstraintsSatisfied(dims, syms)) {
      std::optional<std::vector<int64_t>> results = map.Evaluate(dims, syms);
      if (results) {
        out.push_back({std::vector<int64_t>(dims.begin(), dims.end()),
                       std::move(*results)});
      }
    }
    // Odometer increment, last variable fastest.
    int i = static_cast<int>(box.size()) - 1;
    for (; i >= 0; --i) {
      if (point[i] < box[i].upper) {
        ++point[i];
        break;
      }
      point[i] = box[i].lower;
    }
    if (i < 0) break;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace xla_index
