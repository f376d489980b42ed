#include "xla_index/core/affine_simplifier.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include "mlir/IR/AffineExpr.h"

namespace xla_index {
namespace {

using mlir::AffineExpr;
using mlir::AffineExprKind;

// Rewrites that recurse (gcd, split, nested division) strictly shrink the
// problem, but a bound keeps pathological inputs cheap.
constexpr int kMaxDepth = 8;

int64_t Gcd(int64_t a, int64_t b) {
  // Magnitudes; INT64_MIN never reaches here as a coefficient divisor test
  // (callers only pass coefficients and positive divisors).
  uint64_t x = a < 0 ? 0 - static_cast<uint64_t>(a) : a;
  uint64_t y = b < 0 ? 0 - static_cast<uint64_t>(b) : b;
  while (y != 0) {
    uint64_t t = x % y;
    x = y;
    y = t;
  }
  return x > static_cast<uint64_t>(Interval::kMax) ? Interval::kMax
                                                   : static_cast<int64_t>(x);
}

// True if a * b overflows; otherwise stores the product.
bool MulOverflows(int64_t a, int64_t b, int64_t* out) {
  return __builtin_mul_overflow(a, b, out);
}
bool AddOverflows(int64_t a, int64_t b, int64_t* out) {
  return __builtin_add_overflow(a, b, out);
}

}  // namespace

AffineSimplifier::AffineSimplifier(mlir::MLIRContext* context,
                                   llvm::ArrayRef<Interval> dim_bounds,
                                   llvm::ArrayRef<Interval> symbol_bounds)
    : context_(context),
      dim_bounds_(dim_bounds),
      symbol_bounds_(symbol_bounds),
      dim_atoms_(dim_bounds.size(), -1),
      symbol_atoms_(symbol_bounds.size(), -1) {}

void AffineSimplifier::ResetBounds() {
  divisions_.clear();
  built_args_.clear();
  atoms_.clear();
  terms_.clear();
  args_.clear();
  std::fill(dim_atoms_.begin(), dim_atoms_.end(), -1);
  std::fill(symbol_atoms_.begin(), symbol_atoms_.end(), -1);
  ClearVisited();
}

// ---------------------------------------------------------------------------
// Atoms and linear forms.

int AffineSimplifier::CompareLins(const Lin& a, const Lin& b) const {
  size_t n = std::min(a.size, b.size);
  for (size_t i = 0; i < n; ++i) {
    const Term& s = TermAt(a, i);
    const Term& t = TermAt(b, i);
    if (s.atom != t.atom) return CompareAtoms(s.atom, t.atom);
    if (s.coeff != t.coeff) return s.coeff < t.coeff ? -1 : 1;
  }
  if (a.size != b.size) return a.size < b.size ? -1 : 1;
  if (a.constant != b.constant) return a.constant < b.constant ? -1 : 1;
  return 0;
}

int AffineSimplifier::CompareAtoms(int32_t a, int32_t b) const {
  if (a == b) return 0;
  const Atom& x = atoms_[a];
  const Atom& y = atoms_[b];
  // Terms of dims first, then those of symbols only: MLIR's `+` moves a
  // symbolic left operand to the right, so built in this order a sum stays
  // left-deep and reads back (print, parse) as the same expression.
  if (x.symbolic != y.symbolic) return x.symbolic ? 1 : -1;
  if (x.kind != y.kind) return x.kind < y.kind ? -1 : 1;
  switch (x.kind) {
    case AtomKind::kDim:
    case AtomKind::kSymbol:
      return x.var < y.var ? -1 : (x.var > y.var ? 1 : 0);
    case AtomKind::kFloorDiv:
    case AtomKind::kMod: {
      int c = CompareLins(args_[x.arg], args_[y.arg]);
      if (c != 0) return c;
      return x.divisor < y.divisor ? -1 : (x.divisor > y.divisor ? 1 : 0);
    }
    case AtomKind::kOpaque:
      return x.expr.getAsOpaquePointer() < y.expr.getAsOpaquePointer() ? -1 : 1;
  }
  return 0;
}

bool AffineSimplifier::AtomLess(int32_t a, int32_t b) const {
  return CompareAtoms(a, b) < 0;
}

bool AffineSimplifier::LinEqual(const Lin& a, const Lin& b) const {
  if (a.constant != b.constant || a.size != b.size) return false;
  if (a.begin == b.begin) return true;
  for (size_t i = 0; i < a.size; ++i) {
    const Term& s = TermAt(a, i);
    const Term& t = TermAt(b, i);
    if (s.atom != t.atom || s.coeff != t.coeff) return false;
  }
  return true;
}

int32_t AffineSimplifier::InternAtom(Atom atom) {
  atoms_.push_back(std::move(atom));
  return atoms_.size() - 1;
}

int32_t AffineSimplifier::VariableAtom(AtomKind kind, int32_t position) {
  auto& cache = kind == AtomKind::kDim ? dim_atoms_ : symbol_atoms_;
  if (cache[position] >= 0) return cache[position];
  Atom atom;
  atom.kind = kind;
  atom.var = position;
  atom.bounds =
      kind == AtomKind::kDim ? dim_bounds_[position] : symbol_bounds_[position];
  atom.symbolic = kind == AtomKind::kSymbol;
  int32_t id = InternAtom(std::move(atom));
  cache[position] = id;
  return id;
}

int32_t AffineSimplifier::DivModAtom(AtomKind kind, const Lin& arg,
                                     int64_t divisor, AffineExpr source) {
  // A cheap fingerprint of (kind, divisor, arg) skips most LinEqual calls.
  const uint64_t fingerprint = Fingerprint(kind, divisor, arg);
  for (size_t i = 0; i < atoms_.size(); ++i) {
    const Atom& a = atoms_[i];
    if (a.fingerprint == fingerprint && a.kind == kind &&
        a.divisor == divisor && LinEqual(args_[a.arg], arg)) {
      return i;
    }
  }
  Atom atom;
  atom.kind = kind;
  atom.fingerprint = fingerprint;
  atom.divisor = divisor;
  atom.arg = args_.size();
  atom.symbolic = true;
  for (size_t i = 0; i < arg.size; ++i) {
    atom.symbolic &= atoms_[TermAt(arg, i).atom].symbolic;
  }
  args_.push_back(arg);
  atom.bounds = kind == AtomKind::kFloorDiv ? FloorDiv(arg.bounds, divisor)
                                            : Mod(arg.bounds, divisor);
  atom.expr = source;
  return InternAtom(std::move(atom));
}

uint64_t AffineSimplifier::Fingerprint(AtomKind kind, int64_t divisor,
                                       const Lin& lin) const {
  uint64_t hash = static_cast<uint64_t>(kind) * 0x9E3779B97F4A7C15ull ^
                  static_cast<uint64_t>(divisor) * 0xC2B2AE3D27D4EB4Full ^
                  static_cast<uint64_t>(lin.constant);
  for (size_t i = 0; i < lin.size; ++i) {
    const Term& t = TermAt(lin, i);
    hash = (hash ^ (static_cast<uint64_t>(t.coeff) * 31 +
                    static_cast<uint64_t>(t.atom))) *
           0x100000001B3ull;
  }
  return hash;
}

void AffineSimplifier::ComputeBounds(Lin& lin) const {
  Interval b = Interval::Point(lin.constant);
  for (size_t i = 0; i < lin.size; ++i) {
    const Term& t = TermAt(lin, i);
    b = b + atoms_[t.atom].bounds * t.coeff;
  }
  lin.bounds = b;
}

AffineSimplifier::Lin AffineSimplifier::Constant(int64_t value) const {
  Lin lin = StartLin(value);
  lin.bounds = Interval::Point(value);
  return lin;
}

AffineSimplifier::Lin AffineSimplifier::FromAtom(int32_t atom, int64_t coeff) {
  Lin lin = StartLin();
  if (coeff == 0) {
    lin.bounds = Interval::Point(0);
  } else {
    Append(lin, {coeff, atom});
    lin.bounds = atoms_[atom].bounds * coeff;
  }
  return lin;
}

AffineSimplifier::Lin AffineSimplifier::Add(const Lin& a, const Lin& b) {
  // x + 0 (a division with nothing moved out of it): the same terms.
  if (a.size == 0 && a.constant == 0) return WithoutSource(b);
  if (b.size == 0 && b.constant == 0) return WithoutSource(a);
  Lin out = StartLin();
  if (AddOverflows(a.constant, b.constant, &out.constant)) overflow_ = true;
  size_t i = 0, j = 0;
  bool has_div_mod = false, merged = false;
  while (i < a.size || j < b.size) {
    Term t;
    if (j == b.size ||
        (i < a.size && AtomLess(TermAt(a, i).atom, TermAt(b, j).atom))) {
      t = TermAt(a, i++);
    } else if (i == a.size || TermAt(a, i).atom != TermAt(b, j).atom) {
      t = TermAt(b, j++);
    } else {
      t = TermAt(a, i++);
      if (AddOverflows(t.coeff, TermAt(b, j++).coeff, &t.coeff)) {
        overflow_ = true;
      }
      merged = true;
      if (t.coeff == 0) continue;
    }
    AtomKind kind = atoms_[t.atom].kind;
    has_div_mod |= kind == AtomKind::kFloorDiv || kind == AtomKind::kMod;
    Append(out, t);
  }
  // Without a shared atom, the range of the sum is the sum of the ranges
  // (interval addition is exact for independent terms).
  if (merged) {
    ComputeBounds(out);
  } else {
    out.bounds = a.bounds + b.bounds;
  }
  if (has_div_mod && out.size >= 2) Recombine(out);
  return out;
}

AffineSimplifier::Lin AffineSimplifier::Scale(const Lin& a, int64_t k) {
  if (k == 1) {
    Lin out = a;  // The same terms.
    out.source = AffineExpr();
    return out;
  }
  Lin out = StartLin();
  if (k == 0) {
    out.bounds = Interval::Point(0);
    return out;
  }
  if (MulOverflows(a.constant, k, &out.constant)) overflow_ = true;
  for (size_t i = 0; i < a.size; ++i) {
    Term t = TermAt(a, i);
    if (MulOverflows(t.coeff, k, &t.coeff)) overflow_ = true;
    Append(out, t);
  }
  out.bounds = a.bounds * k;  // k * sum(ranges) == sum(k * ranges).
  return out;
}

int32_t AffineSimplifier::QuotientAtom(int32_t mod_atom) {
  if (atoms_[mod_atom].quotient != -2) return atoms_[mod_atom].quotient;
  const bool overflow_before = overflow_;
  overflow_ = false;
  const Lin x = args_[atoms_[mod_atom].arg];
  Lin q = FloorDivBy(x, atoms_[mod_atom].divisor, kMaxDepth - 2, AffineExpr());
  const int32_t quotient = IsAtom(q) ? TermAt(q, 0).atom : -1;
  if (!overflow_) atoms_[mod_atom].quotient = quotient;  // Else not cached.
  overflow_ |= overflow_before;
  return quotient;
}

// (x mod c) * k + (x floordiv c) * (c*k)  ->  x * k,
// (x mod c) * k + ((x floordiv c) mod m) * (c*k)  ->  (x mod (c*m)) * k, and
// x * k + (x floordiv c) * (-c*k)         ->  (x mod c) * k.
// (x floordiv c is the simplified quotient, e.g. for x = y floordiv 4 and
// c = 4 it is y floordiv 16.)
void AffineSimplifier::Recombine(Lin& lin) {
  if (lin.size < 2) return;
  for (size_t i = 0; i < lin.size; ++i) {
    const Atom& md = atoms_[TermAt(lin, i).atom];
    if (md.kind != AtomKind::kMod) continue;
    const int64_t c = md.divisor, k = TermAt(lin, i).coeff;
    int64_t kc;
    if (MulOverflows(k, c, &kc)) continue;
    // Only a floordiv or mod term with coefficient k*c can pair with it;
    // look for one before computing the quotient.
    bool has_partner = false;
    for (size_t j = 0; j < lin.size && !has_partner; ++j) {
      AtomKind kind_j = atoms_[TermAt(lin, j).atom].kind;
      has_partner = j != i && TermAt(lin, j).coeff == kc &&
                    (kind_j == AtomKind::kFloorDiv || kind_j == AtomKind::kMod);
    }
    if (!has_partner) continue;
    const int32_t quotient = QuotientAtom(TermAt(lin, i).atom);
    if (quotient < 0) continue;
    const Lin x = args_[atoms_[TermAt(lin, i).atom].arg];
    for (size_t j = 0; j < lin.size; ++j) {
      if (j == i || TermAt(lin, j).coeff != kc) continue;
      const int32_t aj = TermAt(lin, j).atom;
      Lin replacement;
      if (aj == quotient) {
        replacement = Scale(x, k);
      } else if (atoms_[aj].kind == AtomKind::kMod &&
                 IsAtom(args_[atoms_[aj].arg], quotient)) {
        int64_t cm;
        if (MulOverflows(c, atoms_[aj].divisor, &cm)) continue;
        replacement = Scale(ModBy(x, cm, kMaxDepth - 2, AffineExpr()), k);
      } else {
        continue;
      }
      lin = Add(Without(lin, i, j), replacement);
      return;
    }
  }
  for (size_t i = 0; i < lin.size; ++i) {
    const Atom& fd = atoms_[TermAt(lin, i).atom];
    if (fd.kind != AtomKind::kFloorDiv) continue;
    const int64_t c = fd.divisor;
    const int64_t m = TermAt(lin, i).coeff;
    if (m % c != 0) continue;
    const Lin x = args_[fd.arg];
    // Pattern 1: a mod term with the same argument and coefficient m / c.
    const int64_t k = m / c;
    for (size_t j = 0; j < lin.size; ++j) {
      const Atom& md = atoms_[TermAt(lin, j).atom];
      if (md.kind != AtomKind::kMod || md.divisor != c ||
          TermAt(lin, j).coeff != k || !LinEqual(args_[md.arg], x)) {
        continue;
      }
      lin = Add(Without(lin, i, j), Scale(x, k));
      return;
    }
    // Pattern 2: the terms of x * (-k) are all present.
    if (x.size == 0) continue;
    const int64_t neg_k = -k;
    bool all_present = true;
    for (size_t p = 0; p < x.size && all_present; ++p) {
      const Term& xt = TermAt(x, p);
      int64_t want;
      if (MulOverflows(xt.coeff, neg_k, &want)) {
        all_present = false;
        break;
      }
      bool found = false;
      for (size_t q = 0; q < lin.size; ++q) {
        if (TermAt(lin, q).atom == xt.atom) {
          found = TermAt(lin, q).coeff == want;
          break;
        }
      }
      all_present = found;
    }
    if (!all_present) continue;
    // lin - (x*(-k) + (x floordiv c)*m) + (x mod c)*(-k) + x.constant*(-k).
    llvm::SmallVector<Term, 8> removed_terms;
    for (size_t p = 0; p < x.size; ++p) {
      removed_terms.push_back({TermAt(x, p).coeff * neg_k, TermAt(x, p).atom});
    }
    removed_terms.push_back({m, TermAt(lin, i).atom});
    std::sort(
        removed_terms.begin(), removed_terms.end(),
        [&](const Term& a, const Term& b) { return AtomLess(a.atom, b.atom); });
    Lin removed = StartLin();
    if (MulOverflows(x.constant, neg_k, &removed.constant)) overflow_ = true;
    for (const Term& t : removed_terms) Append(removed, t);
    ComputeBounds(removed);
    Lin rest = Add(lin, Scale(removed, -1));
    Lin mod = Scale(ModBy(x, c, 0, AffineExpr()), neg_k);
    lin = Add(rest, mod);
    return;
  }
}

AffineSimplifier::Lin AffineSimplifier::Without(const Lin& lin, size_t i,
                                                size_t j) {
  Lin rest = StartLin(lin.constant);
  for (size_t t = 0; t < lin.size; ++t) {
    if (t != i && t != j) Append(rest, TermAt(lin, t));
  }
  ComputeBounds(rest);
  return rest;
}

// ---------------------------------------------------------------------------
// Division and modulo.

int64_t AffineSimplifier::CommonFactor(const Lin& lin, int64_t c) const {
  int64_t g = c;
  for (size_t i = 0; i < lin.size; ++i) g = Gcd(g, TermAt(lin, i).coeff);
  return g;
}

AffineSimplifier::Lin AffineSimplifier::DivideTerms(const Lin& lin, int64_t g) {
  Lin reduced = StartLin(FloorDiv(lin.constant, g));
  for (size_t i = 0; i < lin.size; ++i) {
    const Term t = TermAt(lin, i);
    Append(reduced, {t.coeff / g, t.atom});
  }
  ComputeBounds(reduced);
  return reduced;
}

bool AffineSimplifier::SplitSmallPart(const Lin& x, int64_t c, Lin& multiple,
                                      Lin& small) {
  const size_t n = x.size;
  if (n < 2) return false;
  // Terms by decreasing |coefficient|, ties in term order: an insertion sort,
  // since n is small (std::stable_sort allocates a buffer).
  llvm::SmallVector<size_t, 8> order;
  for (size_t i = 0; i < n; ++i) {
    const int64_t magnitude = Gcd(TermAt(x, i).coeff, 0);
    size_t j = order.size();
    order.push_back(i);
    for (; j > 0 && Gcd(TermAt(x, order[j - 1]).coeff, 0) < magnitude; --j) {
      order[j] = order[j - 1];
    }
    order[j] = i;
  }
  int64_t prefix_gcd = c;
  for (size_t p = 1; p < n; ++p) {
    prefix_gcd = Gcd(prefix_gcd, TermAt(x, order[p - 1]).coeff);
    if (prefix_gcd <= 1) return false;
    Interval rest = Interval::Point(x.constant);
    for (size_t q = p; q < n; ++q) {
      const Term& t = TermAt(x, order[q]);
      rest = rest + atoms_[t.atom].bounds * t.coeff;
    }
    if (rest.IsEmpty() || rest.lower == Interval::kMin ||
        rest.upper == Interval::kMax) {
      continue;
    }
    int64_t base = FloorDiv(rest.lower, prefix_gcd);
    if (FloorDiv(rest.upper, prefix_gcd) != base) continue;
    int64_t shift;
    if (MulOverflows(base, prefix_gcd, &shift)) continue;
    llvm::SmallVector<bool, 8> in_prefix(n, false);
    for (size_t q = 0; q < p; ++q) in_prefix[order[q]] = true;
    multiple = StartLin(shift);
    for (size_t q = 0; q < n; ++q) {
      if (in_prefix[q]) Append(multiple, TermAt(x, q));
    }
    small = StartLin(x.constant - shift);  // In [0, g) by construction.
    for (size_t q = 0; q < n; ++q) {
      if (!in_prefix[q]) Append(small, TermAt(x, q));
    }
    ComputeBounds(multiple);
    ComputeBounds(small);
    return true;
  }
  return false;
}

AffineSimplifier::Lin AffineSimplifier::FloorDivBy(Lin x, int64_t c, int depth,
                                                   AffineExpr source) {
  if (c == 1) return x;
  if (x.bounds.IsFeasible() && x.bounds.lower != Interval::kMin &&
      x.bounds.upper != Interval::kMax) {
    int64_t q = FloorDiv(x.bounds.lower, c);
    if (q == FloorDiv(x.bounds.upper, c)) return Constant(q);
  }
  if (IsVariable(x)) {
    return DivModTerm(AtomKind::kFloorDiv, x, c,
                      x.source ? source : AffineExpr());
  }
  // (k*c*y + z) floordiv c -> k*y + z floordiv c.
  // The constant's quotient rounded toward zero: `(d1 - 3) floordiv 7`
  // stays as the seeds write it; `(x + 109) floordiv 11` gives 9 + ....
  Lin outside = StartLin(x.constant / c);
  for (size_t i = 0; i < x.size; ++i) {
    const Term t = TermAt(x, i);
    if (t.coeff % c == 0) Append(outside, {t.coeff / c, t.atom});
  }
  Lin inside = x;
  inside.constant = x.constant % c;
  inside.source = AffineExpr();
  if (outside.size > 0) {
    inside = StartLin(x.constant % c);
    for (size_t i = 0; i < x.size; ++i) {
      const Term t = TermAt(x, i);
      if (t.coeff % c != 0) Append(inside, t);
    }
  }
  if (inside.size == 0) {
    outside.constant = FloorDiv(x.constant, c);
    ComputeBounds(outside);
    return outside;
  }
  ComputeBounds(outside);
  ComputeBounds(inside);
  const bool moved = outside.size > 0 || outside.constant != 0;
  if (moved && depth < kMaxDepth) {
    return Add(outside, FloorDivBy(inside, c, depth + 1, AffineExpr()));
  }
  // Unless the depth limit was hit, inside == x here.
  const bool unchanged = !moved && x.source;
  if (unchanged) inside.source = x.source;
  if (depth < kMaxDepth) {
    // (g*y + r) floordiv (g*c') -> (y + r floordiv g) floordiv c'.
    const int64_t g = CommonFactor(inside, c);
    if (g > 1) {
      Lin reduced = DivideTerms(inside, g);
      return Add(outside, FloorDivBy(reduced, c / g, depth + 1, AffineExpr()));
    }
    // (y + z) floordiv c -> y floordiv c when y is a multiple of g | c and
    // z in [0, g).
    Lin multiple, small;
    if (SplitSmallPart(inside, c, multiple, small)) {
      return Add(outside, FloorDivBy(multiple, c, depth + 1, AffineExpr()));
    }
    // (y mod (c*b)) floordiv c -> (y floordiv c) mod b: digits of y are
    // written as "floordiv, then mod", so that they recombine (below).
    if (IsAtom(inside) &&
        atoms_[TermAt(inside, 0).atom].kind == AtomKind::kMod &&
        atoms_[TermAt(inside, 0).atom].divisor % c == 0) {
      const Atom& inner = atoms_[TermAt(inside, 0).atom];
      const int64_t b = inner.divisor / c;
      const Lin y = args_[inner.arg];
      Lin quotient = FloorDivBy(y, c, depth + 1, AffineExpr());
      return Add(outside, ModBy(quotient, b, depth + 1, AffineExpr()));
    }
    // (y floordiv a + k) floordiv c -> (y + k*a) floordiv (a*c), 0 <= k < c.
    if (inside.size == 1 && TermAt(inside, 0).coeff == 1 &&
        atoms_[TermAt(inside, 0).atom].kind == AtomKind::kFloorDiv) {
      const Atom& inner = atoms_[TermAt(inside, 0).atom];
      int64_t a = inner.divisor, ac, ka;
      if (!MulOverflows(a, c, &ac) && !MulOverflows(inside.constant, a, &ka)) {
        const Lin y = args_[inner.arg];
        return Add(outside, FloorDivBy(Add(y, Constant(ka)), ac, depth + 1,
                                       AffineExpr()));
      }
    }
  }
  int32_t atom = DivModAtom(AtomKind::kFloorDiv, inside, c,
                            unchanged ? source : AffineExpr());
  if (atoms_[atom].bounds.IsPoint()) {
    return Add(outside, Constant(atoms_[atom].bounds.lower));
  }
  Lin result = Add(outside, FromAtom(atom));
  if (unchanged && source) result.source = source;
  return result;
}

AffineSimplifier::Lin AffineSimplifier::ModBy(Lin x, int64_t c, int depth,
                                              AffineExpr source) {
  if (c == 1) return Constant(0);
  if (x.bounds.IsFeasible() && x.bounds.lower != Interval::kMin &&
      x.bounds.upper != Interval::kMax) {
    int64_t q = FloorDiv(x.bounds.lower, c), qc;
    if (q == FloorDiv(x.bounds.upper, c) && !MulOverflows(q, c, &qc)) {
      if (q == 0) return x;
      return Add(x, Constant(-qc));
    }
  }
  if (IsVariable(x)) {
    return DivModTerm(AtomKind::kMod, x, c, x.source ? source : AffineExpr());
  }
  // (k*c*y + z) mod c -> z mod c, constant reduced modulo c.
  size_t kept = 0;
  for (size_t i = 0; i < x.size; ++i) kept += TermAt(x, i).coeff % c != 0;
  if (kept == 0) return Constant(FloorMod(x.constant, c));
  Lin inside = x;
  inside.constant = x.constant % c;  // Keeps `(d1 - 3) mod 7` as is.
  inside.source = AffineExpr();
  if (kept < x.size) {
    inside = StartLin(x.constant % c);
    for (size_t i = 0; i < x.size; ++i) {
      const Term t = TermAt(x, i);
      if (t.coeff % c != 0) Append(inside, t);
    }
  }
  ComputeBounds(inside);
  const bool moved = kept != x.size || inside.constant != x.constant;
  if (moved && depth < kMaxDepth) {
    return ModBy(inside, c, depth + 1, AffineExpr());
  }
  const bool unchanged = !moved && x.source;
  if (unchanged) inside.source = x.source;
  if (depth < kMaxDepth) {
    // (g*y + r) mod (g*c') -> g * ((y + r floordiv g) mod c') + r mod g.
    const int64_t g = CommonFactor(inside, c);
    if (g > 1) {
      Lin reduced = DivideTerms(inside, g);
      Lin mod = ModBy(reduced, c / g, depth + 1, AffineExpr());
      return Add(Scale(mod, g), Constant(FloorMod(inside.constant, g)));
    }
    // (y + z) mod c -> y mod c + z when y is a multiple of g | c and
    // z in [0, g).
    Lin multiple, small;
    if (SplitSmallPart(inside, c, multiple, small)) {
      return Add(ModBy(multiple, c, depth + 1, AffineExpr()), small);
    }
    // (m * (y mod a) + z) mod c -> (m * y + z) mod c when c | a.
    for (size_t i = 0; i < inside.size; ++i) {
      const Atom& inner = atoms_[TermAt(inside, i).atom];
      if (inner.kind != AtomKind::kMod || inner.divisor % c != 0) continue;
      const Lin rest = Without(inside, i, i);
      const Lin y = Scale(args_[inner.arg], TermAt(inside, i).coeff);
      return ModBy(Add(rest, y), c, depth + 1, AffineExpr());
    }
  }
  return DivModTerm(AtomKind::kMod, inside, c,
                    unchanged ? source : AffineExpr());
}

AffineSimplifier::Lin AffineSimplifier::DivModTerm(AtomKind kind, const Lin& x,
                                                   int64_t c,
                                                   AffineExpr source) {
  int32_t atom = DivModAtom(kind, x, c, source);
  if (atoms_[atom].bounds.IsPoint()) {
    return Constant(atoms_[atom].bounds.lower);
  }
  Lin result = FromAtom(atom);
  result.source = source;
  return result;
}

AffineSimplifier::Lin AffineSimplifier::DivideInChain(AtomKind kind,
                                                      const Lin& x, int64_t c) {
  // The result depends on x's bounds too (they are an over-approximation
  // that depends on how x was built).
  const uint64_t key = Fingerprint(kind, c, x) ^
                       (static_cast<uint64_t>(x.bounds.lower) << 21) ^
                       (static_cast<uint64_t>(x.bounds.upper) << 42);
  auto it = divisions_.find(key);
  if (it != divisions_.end()) {
    const Division& d = it->second;
    if (d.kind == kind && d.divisor == c && d.numerator.bounds == x.bounds &&
        LinEqual(d.numerator, x)) {
      return d.result;
    }
  }
  const bool overflow_before = overflow_;
  overflow_ = false;
  // No source: x is no input expression, so the result is not one either.
  Lin result = kind == AtomKind::kFloorDiv ? FloorDivBy(x, c, 0, AffineExpr())
                                           : ModBy(x, c, 0, AffineExpr());
  if (!overflow_) divisions_[key] = {kind, c, x, result};
  overflow_ |= overflow_before;
  return result;
}

// ---------------------------------------------------------------------------
// From and to MLIR.

AffineSimplifier::Lin AffineSimplifier::VisitCached(AffineExpr expr,
                                                    AffineExprKind kind) {
  auto it = visited_.find(expr.getAsOpaquePointer());
  if (it != visited_.end()) return it->second;
  bool overflow_before = overflow_;
  overflow_ = false;
  Lin lin = VisitNode(expr, kind);
  if (!overflow_) visited_[expr.getAsOpaquePointer()] = lin;
  overflow_ |= overflow_before;
  return lin;
}

AffineSimplifier::Lin AffineSimplifier::VisitNode(AffineExpr expr,
                                                  AffineExprKind kind) {
  switch (kind) {
    case AffineExprKind::Constant: {
      Lin lin = Constant(mlir::cast<mlir::AffineConstantExpr>(expr).getValue());
      lin.source = expr;
      return lin;
    }
    case AffineExprKind::DimId:
    case AffineExprKind::SymbolId: {
      bool is_dim = kind == AffineExprKind::DimId;
      unsigned pos =
          is_dim ? mlir::cast<mlir::AffineDimExpr>(expr).getPosition()
                 : mlir::cast<mlir::AffineSymbolExpr>(expr).getPosition();
      // In a composition, outer dims stand for inner results (the outer map
      // may have more dims than the box).
      if (is_dim && dim_values_ != nullptr && pos < dim_values_->size()) {
        Lin value = (*dim_values_)[pos];
        value.source = AffineExpr();
        return value;
      }
      if (!is_dim && in_chain_ && pos < symbol_positions_.size() &&
          static_cast<int>(pos) != symbol_positions_[pos]) {
        int32_t atom = VariableAtom(AtomKind::kSymbol, symbol_positions_[pos]);
        if (atoms_[atom].bounds.IsPoint()) {
          return Constant(atoms_[atom].bounds.lower);
        }
        return FromAtom(atom);  // No source: the position changed.
      }
      if (pos >= (is_dim ? dim_bounds_.size() : symbol_bounds_.size())) {
        Atom atom;  // A variable the box does not know: nothing is known.
        atom.kind = AtomKind::kOpaque;
        atom.bounds = Interval::Unbounded();
        atom.expr = expr;
        atom.symbolic = expr.isSymbolicOrConstant();
        Lin lin = FromAtom(InternAtom(std::move(atom)));
        lin.source = expr;
        return lin;
      }
      int32_t atom =
          VariableAtom(is_dim ? AtomKind::kDim : AtomKind::kSymbol, pos);
      if (atoms_[atom].bounds.IsPoint()) {
        return Constant(atoms_[atom].bounds.lower);
      }
      if (!atoms_[atom].expr) atoms_[atom].expr = expr;  // Saves building it.
      Lin lin = FromAtom(atom);
      lin.source = expr;
      return lin;
    }
    default:
      break;
  }
  auto binary = mlir::cast<mlir::AffineBinaryOpExpr>(expr);
  // Division numerators are cached (see visited_).
  Lin lhs = Visit(binary.getLHS(),
                  kind != AffineExprKind::Add && kind != AffineExprKind::Mul);
  Lin rhs = Visit(binary.getRHS(), /*cache=*/false);
  // The rules below reuse `expr` when its operands came back unchanged; an
  // operand that simplified to another expression (whose source is that
  // expression) must not count as unchanged.
  if (lhs.source != binary.getLHS()) lhs.source = AffineExpr();
  if (rhs.source != binary.getRHS()) rhs.source = AffineExpr();
  switch (kind) {
    case AffineExprKind::Add: {
      // The source is kept when it already has the canonical left-deep shape
      // t1 + t2 + ... + c with terms in order.
      bool canonical =
          lhs.source && rhs.source && lhs.size > 0 && lhs.constant == 0 &&
          (rhs.size == 0 ? rhs.constant != 0
                         : rhs.size == 1 && rhs.constant == 0 &&
                               AtomLess(TermAt(lhs, lhs.size - 1).atom,
                                        TermAt(rhs, 0).atom));
      Lin sum = Add(lhs, rhs);
      if (canonical && sum.size == lhs.size + rhs.size) {
        sum.source = expr;
      }
      return sum;
    }
    case AffineExprKind::Mul: {
      if (rhs.size == 0) {
        bool canonical =
            lhs.source && IsAtom(lhs) && rhs.constant != 0 && rhs.constant != 1;
        Lin product = Scale(lhs, rhs.constant);
        if (canonical) product.source = expr;
        return product;
      }
      if (lhs.size == 0) return Scale(rhs, lhs.constant);
      break;  // Not affine: opaque below.
    }
    case AffineExprKind::FloorDiv:
      if (rhs.size == 0 && rhs.constant > 0) {
        if (!in_chain_ || lhs.source) {
          return FloorDivBy(lhs, rhs.constant, 0, expr);
        }
        return DivideInChain(AtomKind::kFloorDiv, lhs, rhs.constant);
      }
      break;
    case AffineExprKind::CeilDiv:
      // ceil(x / c) == floor((x + c - 1) / c) for c > 0, unless x + c - 1
      // may leave int64 (the ceildiv itself cannot overflow).
      if (rhs.size == 0 && rhs.constant > 0 &&
          lhs.bounds.upper < Interval::kMax - (rhs.constant - 1)) {
        return FloorDivBy(Add(lhs, Constant(rhs.constant - 1)), rhs.constant, 0,
                          AffineExpr());
      }
      break;
    case AffineExprKind::Mod:
      if (rhs.size == 0 && rhs.constant > 0) {
        if (!in_chain_ || lhs.source) return ModBy(lhs, rhs.constant, 0, expr);
        return DivideInChain(AtomKind::kMod, lhs, rhs.constant);
      }
      break;
    default:
      break;
  }
  // A non-affine node: kept as is, with the range interval arithmetic gives.
  for (size_t i = 0; i < atoms_.size(); ++i) {
    if (atoms_[i].kind == AtomKind::kOpaque && atoms_[i].expr == expr) {
      Lin lin = FromAtom(i);
      lin.source = expr;
      return lin;
    }
  }
  Atom atom;
  atom.kind = AtomKind::kOpaque;
  atom.expr = expr;
  atom.symbolic = expr.isSymbolicOrConstant();
  switch (kind) {
    case AffineExprKind::Mul:
      atom.bounds = lhs.bounds * rhs.bounds;
      break;
    case AffineExprKind::FloorDiv:
      atom.bounds = FloorDiv(lhs.bounds, rhs.bounds);
      break;
    case AffineExprKind::CeilDiv:
      atom.bounds = CeilDiv(lhs.bounds, rhs.bounds);
      break;
    case AffineExprKind::Mod:
      atom.bounds = Mod(lhs.bounds, rhs.bounds);
      break;
    default:
      atom.bounds = Interval::Unbounded();
  }
  Lin lin = FromAtom(InternAtom(std::move(atom)));
  lin.source = expr;
  return lin;
}

AffineExpr AffineSimplifier::BuildAtom(int32_t id) {
  if (atoms_[id].expr) return atoms_[id].expr;
  AffineExpr e;
  const Atom atom = atoms_[id];
  switch (atom.kind) {
    case AtomKind::kDim:
      e = mlir::getAffineDimExpr(atom.var, context_);
      break;
    case AtomKind::kSymbol:
      e = mlir::getAffineSymbolExpr(atom.var, context_);
      break;
    case AtomKind::kFloorDiv:
      e = BuildArg(args_[atom.arg]).floorDiv(atom.divisor);
      break;
    case AtomKind::kMod:
      e = BuildArg(args_[atom.arg]) % atom.divisor;
      break;
    case AtomKind::kOpaque:
      break;  // Always has expr.
  }
  atoms_[id].expr = e;
  return e;
}

AffineExpr AffineSimplifier::BuildArg(const Lin& arg) {
  if (arg.source) return arg.source;
  for (const auto& [built, expr] : built_args_) {
    if (LinEqual(built, arg)) return expr;
  }
  AffineExpr expr = Build(arg);
  built_args_.push_back({arg, expr});
  return expr;
}

AffineExpr AffineSimplifier::Build(const Lin& lin) {
  if (lin.source) return lin.source;
  AffineExpr sum;
  for (size_t i = 0; i < lin.size; ++i) {
    const Term t = TermAt(lin, i);
    AffineExpr term = BuildAtom(t.atom);
    if (t.coeff != 1) term = term * t.coeff;
    sum = sum ? sum + term : term;
  }
  if (!sum) return mlir::getAffineConstantExpr(lin.constant, context_);
  if (lin.constant != 0) sum = sum + lin.constant;
  return sum;
}

AffineExpr AffineSimplifier::Simplify(AffineExpr expr) {
  overflow_ = false;
  ForgetStaleVisits();
  Lin lin = Visit(expr, /*cache=*/false);
  if (overflow_) return expr;
  return Build(lin);
}

Interval AffineSimplifier::Range(AffineExpr expr) {
  overflow_ = false;
  ForgetStaleVisits();
  Lin lin = Visit(expr, /*cache=*/false);
  return overflow_ ? Interval::Unbounded() : lin.bounds;
}

bool AffineSimplifier::SimplifyChain(
    llvm::ArrayRef<ChainLink> chain,
    llvm::SmallVectorImpl<AffineExpr>& results) {
  overflow_ = false;
  in_chain_ = true;
  std::vector<Lin> values, next;
  for (size_t k = 0; k < chain.size() && !overflow_; ++k) {
    const ChainLink& link = chain[k];
    if (k > 0) {
      for (size_t i = 0; i < values.size(); ++i) {
        if (i >= link.dim_bounds.size() ||
            !link.dim_bounds[i].Contains(values[i].bounds)) {
          overflow_ = true;  // Needs a domain constraint.
        }
      }
      dim_values_ = &values;
    }
    // The cache holds the previous map's meaning of dims and symbols.
    ClearVisited();
    symbol_positions_ = link.symbols;
    next.clear();
    for (size_t i = 0; i < link.results.size() && !overflow_; ++i) {
      next.push_back(Visit(link.results[i], /*cache=*/false));
    }
    std::swap(values, next);
  }
  if (!overflow_) {
    for (const Lin& lin : values) results.push_back(Build(lin));
  }
  ClearVisited();
  dim_values_ = nullptr;
  in_chain_ = false;
  symbol_positions_ = {};
  return !overflow_;
}

void AffineSimplifier::SetAtomRange(AffineExpr expr, Interval interval) {
  overflow_ = false;
  // The constraint was normalized just before: its form is cached (the
  // cache may be stale, but an atom equal to `expr` stays equal to it).
  Lin lin = Visit(expr, /*cache=*/true);
  if (overflow_ || !IsAtom(lin)) return;
  Atom& atom = atoms_[TermAt(lin, 0).atom];
  atom.bounds = atom.bounds.Intersect(interval);
  for (Atom& a : atoms_) a.quotient = -2;  // May simplify further now.
  divisions_.clear();
  visited_stale_ = true;  // Cached ranges may involve the atom.
}

AffineSimplifier::NormalConstraint AffineSimplifier::NormalizeConstraint(
    AffineExpr expr, Interval interval) {
  using Kind = NormalConstraint::Kind;
  overflow_ = false;
  ForgetStaleVisits();
  Lin lin = Visit(expr, /*cache=*/true);  // For SetAtomRange.
  if (overflow_) return {Kind::kExpression, expr, interval};
  for (int step = 0; step < kMaxDepth; ++step) {
    // Move the constant into the interval.
    Interval iv = {SaturatingSub(interval.lower, lin.constant),
                   SaturatingSub(interval.upper, lin.constant)};
    if (lin.constant != 0) lin.source = AffineExpr();
    lin.constant = 0;
    if (iv.IsEmpty()) return {Kind::kInfeasible, expr, iv};
    if (lin.size == 0) {
      return {iv.Contains(0) ? Kind::kAlwaysTrue : Kind::kInfeasible, expr, iv};
    }
    // Divide out the common factor: g*y in [lo, hi] <=> y in
    // [ceil(lo/g), floor(hi/g)]; make the first coefficient positive.
    int64_t g = CommonFactor(lin, 0);
    if (TermAt(lin, 0).coeff < 0) g = -g;
    if (g != 1) {
      lin = DivideTerms(lin, g);  // The constant is 0.
      iv = g > 0 ? Interval{CeilDiv(iv.lower, g), FloorDiv(iv.upper, g)}
                 : Interval{CeilDiv(iv.upper, g), FloorDiv(iv.lower, g)};
      lin.source = AffineExpr();
    }
    ComputeBounds(lin);
    if (iv.IsEmpty()) return {Kind::kInfeasible, expr, iv};
    if (iv.Contains(lin.bounds)) return {Kind::kAlwaysTrue, expr, iv};
    Interval tight = iv.Intersect(lin.bounds);
    if (tight.IsEmpty()) return {Kind::kInfeasible, expr, tight};
    if (lin.size == 1 && TermAt(lin, 0).coeff == 1) {
      const Atom& atom = atoms_[TermAt(lin, 0).atom];
      if (atom.kind == AtomKind::kDim || atom.kind == AtomKind::kSymbol) {
        NormalConstraint out{Kind::kVariable, Build(lin), tight};
        out.is_dim = atom.kind == AtomKind::kDim;
        out.variable = atom.var;
        return out;
      }
      // y floordiv c in [lo, hi] <=> y in [lo*c, hi*c + c - 1].
      if (atom.kind == AtomKind::kFloorDiv) {
        int64_t c = atom.divisor;
        Lin y = args_[atom.arg];
        interval = {SaturatingMul(tight.lower, c),
                    SaturatingAdd(SaturatingMul(tight.upper, c), c - 1)};
        lin = y;
        expr = Build(y);
        continue;
      }
    }
    NormalConstraint out{Kind::kExpression, Build(lin), tight};
    for (size_t i = 0; i < lin.size; ++i) {
      const Atom& atom = atoms_[TermAt(lin, i).atom];
      if (atom.kind != AtomKind::kDim && atom.kind != AtomKind::kSymbol) {
        continue;
      }
      Interval rest = Interval::Point(0);
      for (size_t j = 0; j < lin.size; ++j) {
        if (j != i) {
          rest =
              rest + atoms_[TermAt(lin, j).atom].bounds * TermAt(lin, j).coeff;
        }
      }
      Interval kv = {SaturatingSub(tight.lower, rest.upper),
                     SaturatingSub(tight.upper, rest.lower)};
      if (kv.lower == Interval::kMin || kv.upper == Interval::kMax) continue;
      int64_t k = TermAt(lin, i).coeff;
      Interval v = k > 0
                       ? Interval{CeilDiv(kv.lower, k), FloorDiv(kv.upper, k)}
                       : Interval{CeilDiv(kv.upper, k), FloorDiv(kv.lower, k)};
      v = v.Intersect(atom.bounds);
      if (v != atom.bounds) {
        out.tightened.push_back({atom.kind == AtomKind::kDim, atom.var, v});
      }
    }
    TightenModuloBound(lin, tight, out);
    return out;
  }
  return {Kind::kExpression, Build(lin), interval};
}

// v mod c in [r, s] with 0 <= r <= s < c: v's bounds move inward to the
// nearest values whose residue lies in [r, s] (saturating: past the int64
// limits no value has it, and the bound becomes empty).
void AffineSimplifier::TightenModuloBound(const Lin& lin, Interval residues,
                                          NormalConstraint& out) const {
  if (!IsAtom(lin) || atoms_[TermAt(lin, 0).atom].kind != AtomKind::kMod) {
    return;
  }
  const Atom& mod = atoms_[TermAt(lin, 0).atom];
  const Lin& arg = args_[mod.arg];
  if (!IsAtom(arg)) return;
  const Atom& var = atoms_[TermAt(arg, 0).atom];
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
}

}  // namespace xla_index
