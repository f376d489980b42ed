#include "xla_index/core/affine_simplifier.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "mlir/IR/AffineExpr.h"

namespace xla_index {

using mlir::AffineExpr;
using mlir::AffineExprKind;

AffineSimplifier::AffineSimplifier(mlir::MLIRContext* context,
                                   llvm::ArrayRef<Interval> dim_bounds,
                                   llvm::ArrayRef<Interval> symbol_bounds)
    : context_(context), forms_(dim_bounds, symbol_bounds) {}

void AffineSimplifier::ResetBounds() {
  forms_.Reset();
  caches_.Clear();
}

// ---------------------------------------------------------------------------
// Memoized division in a composition chain.

AffineSimplifier::Lin AffineSimplifier::DivideInChain(AtomKind kind,
                                                      const Lin& x, int64_t c) {
  // The result depends on x's bounds too (they are an over-approximation
  // that depends on how x was built).
  const uint64_t key = forms_.Fingerprint(kind, c, x) ^
                       (static_cast<uint64_t>(x.bounds.lower) << 21) ^
                       (static_cast<uint64_t>(x.bounds.upper) << 42);
  auto it = caches_.divisions.find(key);
  if (it != caches_.divisions.end()) {
    const SimplifierCaches::Division& d = it->second;
    if (d.kind == kind && d.divisor == c && d.numerator.bounds == x.bounds &&
        forms_.Equal(d.numerator, x)) {
      return d.result;
    }
  }
  const LinearForms::Flags flags_before = forms_.flags();
  forms_.set_overflow(false);
  // No source: x is no input expression, so the result is not one either.
  Lin result = kind == AtomKind::kFloorDiv ? FloorDivBy(x, c, 0, AffineExpr())
                                           : ModBy(x, c, 0, AffineExpr());
  if (!forms_.overflow()) caches_.divisions[key] = {kind, c, x, result};
  forms_.MergeFlags(flags_before);
  return result;
}

AffineSimplifier::Lin AffineSimplifier::VisitCached(AffineExpr expr,
                                                    AffineExprKind kind) {
  if (const Lin* known = caches_.FindVisited(expr.getAsOpaquePointer())) {
    return *known;
  }
  const LinearForms::Flags flags_before = forms_.flags();
  forms_.set_overflow(false);
  Lin lin = VisitNode(expr, kind);
  if (!forms_.overflow()) caches_.AddVisited(expr.getAsOpaquePointer(), lin);
  forms_.MergeFlags(flags_before);
  return lin;
}

// ---------------------------------------------------------------------------
// From MLIR.

AffineSimplifier::Lin AffineSimplifier::VisitNode(AffineExpr expr,
                                                  AffineExprKind kind) {
  switch (kind) {
    case AffineExprKind::Constant:
      return VisitConstant(expr);
    case AffineExprKind::DimId:
      return VisitVariable(expr, true,
                           mlir::cast<mlir::AffineDimExpr>(expr).getPosition());
    case AffineExprKind::SymbolId:
      return VisitVariable(
          expr, false, mlir::cast<mlir::AffineSymbolExpr>(expr).getPosition());
    case AffineExprKind::Add:
      // Nested sums recurse (cheapest for the few levels of real maps) up
      // to a bound; a deeper sum is flattened without recursion.
      if (sum_depth_ >= kMaxSumRecursion) return VisitSum(expr);
      break;
    default:
      break;
  }
  return VisitBinary(expr, kind);
}

// The summands are visited left to right from an explicit stack (a sum
// built in code may have 10^5 terms, deeper than the call stack allows),
// then added at once and the sum rules applied to the whole sum. `expr` is
// reused when it already is the canonical sum: left-deep, each summand
// unchanged and one term (the last may be the constant), atoms in order.
AffineSimplifier::Lin AffineSimplifier::VisitSum(AffineExpr expr) {
  llvm::SmallVector<AffineExpr, 8> pending = {expr};
  llvm::SmallVector<Lin, 8> summands;
  bool canonical = true;
  while (!pending.empty()) {
    const AffineExpr e = pending.pop_back_val();
    const AffineExprKind kind = e.getKind();
    if (kind == AffineExprKind::Add) {
      auto add = mlir::cast<mlir::AffineBinaryOpExpr>(e);
      pending.push_back(add.getRHS());
      pending.push_back(add.getLHS());
      continue;
    }
    Lin lin = VisitNode(e, kind);
    // A summand that simplified to another expression is not unchanged.
    if (lin.source != e) lin.source = AffineExpr();
    canonical = canonical && lin.source &&
                (summands.empty() ? lin.size > 0 && lin.constant == 0
                 : lin.size == 0  ? lin.constant != 0 && pending.empty()
                                  : lin.size == 1 && lin.constant == 0);
    summands.push_back(lin);
  }
  // Left-deep: every `+` has a summand as its right operand.
  for (AffineExpr e = expr; canonical && e.getKind() == AffineExprKind::Add;) {
    auto add = mlir::cast<mlir::AffineBinaryOpExpr>(e);
    canonical = add.getRHS().getKind() != AffineExprKind::Add;
    e = add.getLHS();
  }
  // The summands' atoms strictly in order (so none merges).
  for (size_t i = 1; canonical && i < summands.size(); ++i) {
    const Lin& before = summands[i - 1];
    canonical = summands[i].size == 0 ||
                forms_.AtomLess(forms_.TermAt(before, before.size - 1).atom,
                                forms_.TermAt(summands[i], 0).atom);
  }
  uint8_t kinds = 0;
  bool merged = false;
  return FinishSum(forms_.AddAll(summands, kinds, merged), kinds, canonical,
                   expr);
}

AffineSimplifier::Lin AffineSimplifier::VisitVariable(AffineExpr expr,
                                                      bool is_dim,
                                                      unsigned pos) {
  // In a composition, outer dims stand for inner results (the outer map
  // may have more dims than the box).
  if (is_dim && dim_values_ != nullptr && pos < dim_values_->size()) {
    Lin value = (*dim_values_)[pos];
    value.source = AffineExpr();
    return value;
  }
  if (!is_dim && in_chain_ && pos < symbol_positions_.size() &&
      static_cast<int>(pos) != symbol_positions_[pos]) {
    int32_t atom =
        forms_.VariableAtom(AtomKind::kSymbol, symbol_positions_[pos]);
    if (forms_.atom(atom).bounds.IsPoint()) {
      return forms_.Constant(forms_.atom(atom).bounds.lower);
    }
    return forms_.FromAtom(atom);  // No source: the position changed.
  }
  const size_t known =
      is_dim ? forms_.dim_bounds().size() : forms_.symbol_bounds().size();
  if (pos >= known) {
    Atom atom;  // A variable the box does not know: nothing is known.
    atom.kind = AtomKind::kOpaque;
    atom.bounds = Interval::Unbounded();
    atom.expr = expr;
    atom.symbolic = expr.isSymbolicOrConstant();
    Lin lin = forms_.FromAtom(forms_.InternAtom(std::move(atom)));
    lin.source = expr;
    return lin;
  }
  // v -> k if v in [k, k].
  int32_t atom =
      forms_.VariableAtom(is_dim ? AtomKind::kDim : AtomKind::kSymbol, pos);
  if (forms_.atom(atom).bounds.IsPoint()) {
    return forms_.Constant(forms_.atom(atom).bounds.lower);
  }
  Atom& a = forms_.mutable_atom(atom);
  if (!a.expr) a.expr = expr;  // Saves building it.
  Lin lin = forms_.FromAtom(atom);
  lin.source = expr;
  return lin;
}

AffineSimplifier::Lin AffineSimplifier::VisitBinary(AffineExpr expr,
                                                    AffineExprKind kind) {
  auto binary = mlir::cast<mlir::AffineBinaryOpExpr>(expr);
  // Read once: each is an out-of-line call into MLIR.
  const AffineExpr lhs_expr = binary.getLHS(), rhs_expr = binary.getRHS();
  const bool is_sum = kind == AffineExprKind::Add;
  sum_depth_ += is_sum;
  // Division numerators are cached (see SimplifierCaches::visited).
  // A dim on the left (`d0 * c`, `d0 floordiv c`) is read in place too.
  const AffineExprKind lhs_kind = lhs_expr.getKind();
  Lin lhs = lhs_kind == AffineExprKind::DimId
                ? VisitVariable(
                      lhs_expr, true,
                      mlir::cast<mlir::AffineDimExpr>(lhs_expr).getPosition())
            : !is_sum && kind != AffineExprKind::Mul &&
                    lhs_kind <= AffineExprKind::LAST_AFFINE_BINARY_OP
                ? VisitCached(lhs_expr, lhs_kind)
                : VisitNode(lhs_expr, lhs_kind);
  // Most right operands are constants (`x * c`, `x floordiv c`): read here,
  // without a call.
  const AffineExprKind rhs_kind = rhs_expr.getKind();
  Lin rhs = rhs_kind == AffineExprKind::Constant
                ? VisitConstant(rhs_expr)
                : VisitNode(rhs_expr, rhs_kind);
  sum_depth_ -= is_sum;
  // `expr` is reused when its operands came back unchanged; an operand that
  // simplified to another expression (whose source is that expression) must
  // not count as unchanged.
  if (lhs.source != lhs_expr) lhs.source = AffineExpr();
  if (rhs.source != rhs_expr) rhs.source = AffineExpr();
  int64_t divisor = rhs.size == 0 ? rhs.constant : 0;
  bool rhs_negative = false, numerator_unchanged = false;
  switch (kind) {
    case AffineExprKind::Add: {
      // The source is kept when it already has the canonical left-deep shape
      // t1 + t2 + ... + c with terms in order.
      const bool canonical =
          lhs.source && rhs.source && lhs.size > 0 && lhs.constant == 0 &&
          (rhs.size == 0
               ? rhs.constant != 0
               : rhs.size == 1 && rhs.constant == 0 &&
                     forms_.AtomLess(forms_.TermAt(lhs, lhs.size - 1).atom,
                                     forms_.TermAt(rhs, 0).atom));
      uint8_t kinds = 0;
      Lin sum = forms_.Add(lhs, rhs, &kinds);
      return FinishSum(sum, kinds, canonical && sum.size == lhs.size + rhs.size,
                       expr);
    }
    case AffineExprKind::Mul:
      if (rhs.size == 0) {
        bool canonical = lhs.source && forms_.IsAtom(lhs) &&
                         rhs.constant != 0 && rhs.constant != 1;
        Lin product = forms_.Scale(lhs, rhs.constant);
        if (canonical) product.source = expr;
        return product;
      }
      if (lhs.size == 0) return forms_.Scale(rhs, lhs.constant);
      break;  // Not affine: opaque below.
    case AffineExprKind::FloorDiv:
    case AffineExprKind::CeilDiv:
      // x floordiv -c == (-x) floordiv c and x ceildiv -c == (-x) ceildiv c
      // (the same rational quotient x / -c == -x / c, rounded the same way).
      rhs_negative = divisor < 0 && divisor != Interval::kMin;
      numerator_unchanged = lhs.source == lhs_expr;
      if (rhs_negative) {
        // New forms, not `expr`'s operands (an opaque atom's bounds below
        // come from them: (-x) ceildiv c, not (-x) ceildiv -c).
        lhs = forms_.Scale(lhs, -1);
        divisor = -divisor;
        rhs = forms_.Constant(divisor);
      }
      if (divisor <= 0) break;
      if (kind == AffineExprKind::FloorDiv && rhs_negative) {
        return NegativeFloorDiv(expr, lhs, divisor, numerator_unchanged);
      }
      if (kind == AffineExprKind::FloorDiv) {
        if (!in_chain_ || lhs.source) return FloorDivBy(lhs, divisor, 0, expr);
        return DivideInChain(AtomKind::kFloorDiv, lhs, divisor);
      }
      // ceil(x / c) == floor((x + c - 1) / c) for c > 0, unless x + c - 1
      // may leave int64 (the ceildiv itself cannot overflow).
      if (lhs.bounds.upper < Interval::kMax - (divisor - 1)) {
        return FloorDivBy(Sum(lhs, forms_.Constant(divisor - 1)), divisor, 0,
                          AffineExpr());
      }
      break;
    case AffineExprKind::Mod:
      // `mod` by a negative constant is left alone: MLIR's affine `mod`
      // needs a positive divisor (its lowering rejects it), so it stays an
      // opaque atom.
      if (divisor <= 0) break;
      if (!in_chain_ || lhs.source) return ModBy(lhs, divisor, 0, expr);
      return DivideInChain(AtomKind::kMod, lhs, divisor);
    default:
      break;
  }
  // In a composition `expr` names the variables of the map being visited,
  // not the box's: unless both operands came back unchanged (a source in a
  // chain is valid in the box), the opaque node is rebuilt from the
  // operands' forms ((-s1) ceildiv 8 must name s1's new position, and
  // d0 ceildiv -1 the value of d0).
  if (in_chain_ && !(lhs.source && rhs.source)) {
    const AffineExpr lhs_expr = Build(lhs), rhs_expr = Build(rhs);
    expr = mlir::getAffineBinaryOpExpr(kind, lhs_expr, rhs_expr);
    auto rebuilt = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(expr);
    if (!rebuilt || rebuilt.getLHS() != lhs_expr ||
        rebuilt.getRHS() != rhs_expr) {
      // MLIR folded it (unchecked): leave the chain to ComposeIndexingMaps.
      forms_.set_overflow(true);
    }
  }
  return VisitOpaque(expr, kind, lhs, rhs);
}

// `expr` = x floordiv -c, simplified as (-x) floordiv c. When that is one
// floordiv atom and x came back unchanged, the atom is built as `expr`
// itself if `expr` has fewer nodes: the rules may merge a nested division
// into a bigger numerator ((s0 floordiv 2) floordiv -7 is (-s0 + 1)
// floordiv 14), which is no simpler. The atom keeps its structure for the
// rules (a constraint on it still unwraps); only how it is written changes,
// and `expr` has its value at every point of the box. (Not in a chain,
// where `expr` names another map's variables.)
AffineSimplifier::Lin AffineSimplifier::NegativeFloorDiv(
    AffineExpr expr, const Lin& negated, int64_t c, bool numerator_unchanged) {
  // (y floordiv a) floordiv -c: the rules would only merge the two
  // divisions into one with a bigger numerator, which is written as `expr`
  // below anyway; the atom (-(y floordiv a)) floordiv c is made directly.
  if (!in_chain_ && numerator_unchanged && negated.size == 1 &&
      negated.constant == 0 && forms_.TermAt(negated, 0).coeff == -1 &&
      forms_.KindAt(negated, 0) == AtomKind::kFloorDiv) {
    return DivModTerm(AtomKind::kFloorDiv, negated, c, expr);
  }
  Lin result = in_chain_ && !negated.source
                   ? DivideInChain(AtomKind::kFloorDiv, negated, c)
                   : FloorDivBy(negated, c, 0, AffineExpr());
  if (in_chain_ || !numerator_unchanged || !forms_.IsAtom(result) ||
      forms_.KindAt(result, 0) != AtomKind::kFloorDiv || forms_.overflow()) {
    return result;
  }
  const int32_t atom = forms_.TermAt(result, 0).atom;
  // No rule changed the numerator: -x has at least x's nodes (a term with
  // coefficient 1 gains a factor -1), so `expr` is never longer.
  if (forms_.TermAt(result, 0).coeff == 1 && result.constant == 0 &&
      forms_.Equal(forms_.ArgOf(forms_.atom(atom)), negated)) {
    forms_.mutable_atom(atom).expr = expr;
    return result;
  }
  auto nodes = [](AffineExpr e) {
    int n = 0;
    e.walk([&](AffineExpr) { ++n; });
    return n;
  };
  if (nodes(expr) < nodes(BuildAtom(atom))) {
    forms_.mutable_atom(atom).expr = expr;
  }
  return result;
}

AffineSimplifier::Lin AffineSimplifier::VisitOpaque(AffineExpr expr,
                                                    AffineExprKind kind,
                                                    const Lin& lhs,
                                                    const Lin& rhs) {
  for (size_t i = 0; i < forms_.num_atoms(); ++i) {
    if (forms_.atom(i).kind == AtomKind::kOpaque &&
        forms_.atom(i).expr == expr) {
      Lin lin = forms_.FromAtom(i);
      lin.source = expr;
      return lin;
    }
  }
  Atom atom;
  atom.kind = AtomKind::kOpaque;
  atom.expr = expr;
  atom.symbolic = expr.isSymbolicOrConstant();
  // A product or quotient (INT64_MIN / -1) that leaves int64 saturates: its
  // bounds would not contain its values, so the expression is kept whole.
  const bool quotient_may_overflow =
      lhs.bounds.lower == Interval::kMin && rhs.bounds.Contains(-1);
  switch (kind) {
    case AffineExprKind::Mul: {
      atom.bounds = lhs.bounds * rhs.bounds;
      const Interval& a = lhs.bounds;
      const Interval& b = rhs.bounds;
      if (a.IsFeasible() && b.IsFeasible() &&
          !(CheckedMul(a.lower, b.lower) && CheckedMul(a.lower, b.upper) &&
            CheckedMul(a.upper, b.lower) && CheckedMul(a.upper, b.upper))) {
        forms_.set_overflow(true);
      }
      break;
    }
    case AffineExprKind::FloorDiv:
      atom.bounds = FloorDiv(lhs.bounds, rhs.bounds);
      if (quotient_may_overflow) forms_.set_overflow(true);
      break;
    case AffineExprKind::CeilDiv:
      atom.bounds = CeilDiv(lhs.bounds, rhs.bounds);
      if (quotient_may_overflow) forms_.set_overflow(true);
      break;
    case AffineExprKind::Mod:
      atom.bounds = Mod(lhs.bounds, rhs.bounds);
      break;
    default:
      atom.bounds = Interval::Unbounded();
  }
  Lin lin = forms_.FromAtom(forms_.InternAtom(std::move(atom)));
  lin.source = expr;
  return lin;
}

// ---------------------------------------------------------------------------
// To MLIR, and the entry points.

AffineExpr AffineSimplifier::BuildAtom(int32_t id) {
  if (forms_.atom(id).expr) return forms_.atom(id).expr;
  AffineExpr e;
  const Atom atom = forms_.atom(id);
  switch (atom.kind) {
    case AtomKind::kDim:
      e = mlir::getAffineDimExpr(atom.var, context_);
      break;
    case AtomKind::kSymbol:
      e = mlir::getAffineSymbolExpr(atom.var, context_);
      break;
    case AtomKind::kFloorDiv:
      e = BuildArg(forms_.ArgOf(atom)).floorDiv(BuildConstant(atom.divisor));
      break;
    case AtomKind::kMod:
      e = BuildArg(forms_.ArgOf(atom)) % BuildConstant(atom.divisor);
      break;
    case AtomKind::kOpaque:
      break;  // Always has expr.
  }
  forms_.mutable_atom(id).expr = e;
  return e;
}

AffineExpr AffineSimplifier::BuildArg(const Lin& arg) {
  if (arg.source) return arg.source;
  for (const auto& [built, expr] : caches_.built_args) {
    if (forms_.Equal(built, arg)) return expr;
  }
  AffineExpr expr = Build(arg);
  caches_.built_args.push_back({arg, expr});
  return expr;
}

AffineExpr AffineSimplifier::Build(const Lin& lin) {
  if (lin.source) return lin.source;
  AffineExpr sum;
  for (size_t i = 0; i < lin.size; ++i) {
    const Term t = forms_.TermAt(lin, i);
    AffineExpr term = BuildScaledMod(t);
    if (!term) {
      term = BuildAtom(t.atom);
      if (t.coeff != 1) term = term * BuildConstant(t.coeff);
    }
    sum = sum ? sum + term : term;
  }
  if (!sum) return BuildConstant(lin.constant);
  if (lin.constant != 0) sum = sum + BuildConstant(lin.constant);
  return sum;
}

// (y mod c) * m == (y * m) mod (c * m) for m > 0 (both are m times the
// remainder of y by c). mod-common-factor writes a mod as the first form so
// that the sum rules see its digits; when no sum rule paired it, the second
// is written when it has fewer nodes: when no term of y has the coefficient
// 1 (m then folds into every coefficient and the divisor, saving the
// product's two nodes), and every scaled constant fits in int64.
AffineExpr AffineSimplifier::BuildScaledMod(const Term& t) {
  if (t.coeff <= 1) return AffineExpr();
  const Atom& atom = forms_.atom(t.atom);
  if (atom.kind != AtomKind::kMod) return AffineExpr();
  const Lin y = forms_.ArgOf(atom);
  if (!CheckedMul(atom.divisor, t.coeff) || !CheckedMul(y.constant, t.coeff)) {
    return AffineExpr();
  }
  for (size_t i = 0; i < y.size; ++i) {
    const int64_t coeff = forms_.TermAt(y, i).coeff;
    if (coeff == 1 || !CheckedMul(coeff, t.coeff)) return AffineExpr();
  }
  const LinearForms::Flags flags_before = forms_.flags();
  const Lin scaled = forms_.Scale(y, t.coeff);
  // Scale's bounds may saturate (they are not needed here): the flag it
  // sets is not the caller's.
  forms_.RestoreFlags(flags_before);
  return Build(scaled) % BuildConstant(atom.divisor * t.coeff);
}

AffineExpr AffineSimplifier::BuildConstant(int64_t value) {
  for (const auto& [known, expr] : caches_.constants) {
    if (known == value) return expr;
  }
  AffineExpr expr = mlir::getAffineConstantExpr(value, context_);
  caches_.constants.push_back({value, expr});
  return expr;
}

AffineExpr AffineSimplifier::Simplify(AffineExpr expr) {
  forms_.set_overflow(false);
  caches_.ForgetStaleVisits();
  // A result that is also a constraint's expression (`d0 * 4 + s0` in
  // [0, 99]) was visited when the constraint was normalized, under the
  // same bounds (the entries of a stale visit are gone): its form is
  // looked up, not recomputed. (Only looked up: a result is rarely visited
  // again, and an entry per result would cost more than it saves.)
  if (const Lin* known = caches_.FindVisited(expr.getAsOpaquePointer())) {
    return Build(*known);
  }
  Lin lin = Visit(expr, /*cache=*/false);
  if (forms_.overflow()) return expr;
  return Build(lin);
}

Interval AffineSimplifier::Range(AffineExpr expr) {
  forms_.set_overflow(false);
  caches_.ForgetStaleVisits();
  Lin lin = Visit(expr, /*cache=*/false);
  return forms_.overflow() ? Interval::Unbounded() : lin.bounds;
}

bool AffineSimplifier::SimplifyChain(
    llvm::ArrayRef<ChainLink> chain,
    llvm::SmallVectorImpl<AffineExpr>& results) {
  forms_.set_overflow(false);
  in_chain_ = true;
  std::vector<Lin> values, next;
  for (size_t k = 0; k < chain.size() && !forms_.overflow(); ++k) {
    const ChainLink& link = chain[k];
    if (k > 0) {
      for (size_t i = 0; i < values.size(); ++i) {
        if (i >= link.dim_bounds.size() ||
            !link.dim_bounds[i].Contains(values[i].bounds)) {
          forms_.set_overflow(true);  // Needs a domain constraint.
        }
      }
      dim_values_ = &values;
    }
    // The cache holds the previous map's meaning of dims and symbols.
    caches_.ClearVisited();
    symbol_positions_ = link.symbols;
    next.clear();
    for (size_t i = 0; i < link.results.size() && !forms_.overflow(); ++i) {
      next.push_back(Visit(link.results[i], /*cache=*/false));
    }
    std::swap(values, next);
  }
  if (!forms_.overflow()) {
    for (const Lin& lin : values) results.push_back(Build(lin));
  }
  caches_.ClearVisited();
  dim_values_ = nullptr;
  in_chain_ = false;
  symbol_positions_ = {};
  return !forms_.overflow();
}

void AffineSimplifier::SetAtomRange(AffineExpr expr, Interval interval) {
  forms_.set_overflow(false);
  // The constraint was normalized just before: its form is cached (the
  // cache may be stale, but an atom equal to `expr` stays equal to it).
  Lin lin = Visit(expr, /*cache=*/true);
  if (forms_.overflow() || !forms_.IsAtom(lin)) return;
  Atom& atom = forms_.mutable_atom(forms_.TermAt(lin, 0).atom);
  atom.bounds = atom.bounds.Intersect(interval);
  // Derived results may simplify further now, and cached ranges may
  // involve the atom.
  caches_.AtomRangeChanged();
}

// ---------------------------------------------------------------------------
// Bounds a constraint implies.

// For each dim or symbol term k*v of a kExpression constraint `lin in
// interval` (rest: the other terms and the constant):
// k*v in [lo - max(rest), hi - min(rest)], so v's bounds shrink to
// that interval divided by k (rounded inward). The bounds are computed in
// 128 bits, exactly, and v's values lie in int64 (ConstraintBoundsInInt64);
// a rest whose range leaves int64 gives no bound.
void AffineSimplifier::TightenVariableBounds(const Lin& lin, Interval interval,
                                             NormalConstraint& out) const {
  using Int128 = __int128;
  for (size_t i = 0; i < lin.size; ++i) {
    const Atom& atom = forms_.atom(forms_.TermAt(lin, i).atom);
    if (atom.kind != AtomKind::kDim && atom.kind != AtomKind::kSymbol) {
      continue;
    }
    const std::optional<Interval> rest = forms_.CheckedTermsRange(lin, i);
    if (!rest) continue;
    const Int128 kv_lo = Int128{interval.lower} - lin.constant - rest->upper;
    const Int128 kv_hi = Int128{interval.upper} - lin.constant - rest->lower;
    const int64_t k = forms_.TermAt(lin, i).coeff;
    Interval v = k > 0 ? ConstraintBoundsInInt64(CeilDiv128(kv_lo, k),
                                                 FloorDiv128(kv_hi, k))
                       : ConstraintBoundsInInt64(CeilDiv128(kv_hi, k),
                                                 FloorDiv128(kv_lo, k));
    v = v.Intersect(atom.bounds);
    if (v != atom.bounds) {
      out.tightened.push_back({atom.kind == AtomKind::kDim, atom.var, v});
    }
  }
}

// v mod c in [r, s] with 0 <= r <= s < c: v's bounds move inward to the
// nearest values whose residue lies in [r, s] (saturating: past the int64
// limits no value has it, and the bound becomes empty).
void AffineSimplifier::TightenModuloBound(const Lin& lin, Interval residues,
                                          NormalConstraint& out) const {
  if (!forms_.IsAtom(lin) || forms_.KindAt(lin, 0) != AtomKind::kMod) {
    return;
  }
  const Atom& mod = forms_.atom(forms_.TermAt(lin, 0).atom);
  const Lin& arg = forms_.ArgOf(mod);
  if (!forms_.IsAtom(arg)) return;
  const Atom& var = forms_.atom(forms_.TermAt(arg, 0).atom);
  const int64_t c = mod.divisor;
  if ((var.kind != AtomKind::kDim && var.kind != AtomKind::kSymbol) ||
      var.bounds.IsEmpty() || residues.lower < 0 || residues.upper >= c) {
    return;
  }
  int64_t lo = var.bounds.lower, hi = var.bounds.upper;
  const int64_t r_lo = FloorMod(lo, c), r_hi = FloorMod(hi, c);
  if (r_lo < residues.lower) {
    lo = SaturatingAdd(lo, residues.lower - r_lo);
  } else if (r_lo > residues.upper) {
    lo = SaturatingAdd(lo, c - r_lo + residues.lower);
  }
  if (r_hi > residues.upper) {
    hi = SaturatingSub(hi, r_hi - residues.upper);
  } else if (r_hi < residues.lower) {
    hi = SaturatingSub(hi, r_hi + (c - residues.upper));
  }
  if (lo != var.bounds.lower || hi != var.bounds.upper) {
    out.tightened.push_back({var.kind == AtomKind::kDim, var.var, {lo, hi}});
  }
  out.only_tightens_itself = lo <= hi && FloorDiv(lo, c) != FloorDiv(hi, c);
  out.self_bound = {lo, hi};
  out.is_dim = var.kind == AtomKind::kDim;
  out.variable = var.var;
}

}  // namespace xla_index
