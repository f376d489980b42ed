#include "xla_index/core/linear_form.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace xla_index {

void LinearForms::Reset() {
  atoms_.clear();
  div_mod_atoms_.clear();
  terms_.clear();
  args_.clear();
  std::fill(dim_atoms_.begin(), dim_atoms_.end(), std::nullopt);
  std::fill(symbol_atoms_.begin(), symbol_atoms_.end(), std::nullopt);
}

// ---------------------------------------------------------------------------
// Order and equality.

int LinearForms::Compare(const LinearForm& a, const LinearForm& b) const {
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

int LinearForms::CompareSameKind(const Atom& x, const Atom& y) const {
  if (x.kind == AtomKind::kOpaque) {
    return x.expr.getAsOpaquePointer() < y.expr.getAsOpaquePointer() ? -1 : 1;
  }
  int c = Compare(args_[x.arg], args_[y.arg]);
  if (c != 0) return c;
  return x.divisor < y.divisor ? -1 : (x.divisor > y.divisor ? 1 : 0);
}

bool LinearForms::Equal(const LinearForm& a, const LinearForm& b) const {
  if (a.constant != b.constant || a.size != b.size) return false;
  if (a.begin == b.begin) return true;
  for (size_t i = 0; i < a.size; ++i) {
    const Term& s = TermAt(a, i);
    const Term& t = TermAt(b, i);
    if (s.atom != t.atom || s.coeff != t.coeff) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Atoms.

int32_t LinearForms::InternAtom(Atom atom) {
  atoms_.push_back(std::move(atom));
  return atoms_.size() - 1;
}

int32_t LinearForms::NewVariableAtom(AtomKind kind, int32_t position) {
  Atom atom;
  atom.kind = kind;
  atom.var = position;
  atom.bounds =
      kind == AtomKind::kDim ? dim_bounds_[position] : symbol_bounds_[position];
  atom.symbolic = kind == AtomKind::kSymbol;
  const int32_t id = InternAtom(std::move(atom));
  (kind == AtomKind::kDim ? dim_atoms_ : symbol_atoms_)[position] = id;
  return id;
}

int32_t LinearForms::DivModAtom(AtomKind kind, const LinearForm& arg,
                                int64_t divisor, mlir::AffineExpr source) {
  // A cheap fingerprint of (kind, divisor, arg) skips most Equal calls; the
  // fingerprints sit in their own array, so the scan reads no atom.
  const uint64_t fingerprint = Fingerprint(kind, divisor, arg);
  for (const auto& [known, id] : div_mod_atoms_) {
    if (known != fingerprint) continue;
    const Atom& a = atoms_[id];
    if (a.kind == kind && a.divisor == divisor && Equal(args_[a.arg], arg)) {
      return id;
    }
  }
  Atom atom;
  atom.kind = kind;
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
  const int32_t id = InternAtom(std::move(atom));
  div_mod_atoms_.push_back({fingerprint, id});
  return id;
}

// ---------------------------------------------------------------------------
// Linear algebra.

LinearForm LinearForms::Add(const LinearForm& a, const LinearForm& b,
                            uint8_t* kinds) {
  if (kinds != nullptr) *kinds = 0;
  // x + 0 (a division with nothing moved out of it): the same terms.
  if (a.size == 0 && a.constant == 0) {
    LinearForm out = b;
    out.source = mlir::AffineExpr();
    return out;
  }
  if (b.size == 0 && b.constant == 0) {
    LinearForm out = a;
    out.source = mlir::AffineExpr();
    return out;
  }
  LinearForm out = Start(AddOrFlag(a.constant, b.constant));
  // A merge of the two sorted term lists, written in place past the end of
  // the pool (room for all terms first, so no pointer moves).
  terms_.resize_for_overwrite(out.begin + a.size + b.size);
  const Term* x = terms_.data() + a.begin;
  const Term* const x_end = x + a.size;
  const Term* y = terms_.data() + b.begin;
  const Term* const y_end = y + b.size;
  Term* const first = terms_.data() + out.begin;
  Term* to = first;
  bool merged = false;
  while (x != x_end && y != y_end) {
    if (x->atom == y->atom) {
      const Term t{AddOrFlag(x->coeff, y->coeff), x->atom};
      ++x;
      ++y;
      merged = true;
      if (t.coeff != 0) *to++ = t;
    } else if (AtomLess(x->atom, y->atom)) {
      *to++ = *x++;
    } else {
      *to++ = *y++;
    }
  }
  while (x != x_end) *to++ = *x++;
  while (y != y_end) *to++ = *y++;
  out.size = to - first;
  terms_.truncate(out.begin + out.size);
  if (kinds != nullptr) *kinds = Kinds(out);
  // Without a shared atom, the range of the sum is the sum of the ranges
  // (interval addition is exact for independent terms).
  if (merged) {
    ComputeBounds(out);
  } else {
    out.bounds = AddBoundsOrFlag(a.bounds, b.bounds);
  }
  return out;
}

LinearForm LinearForms::AddWithout(const LinearForm& a, size_t skip_i,
                                   size_t skip_j, const LinearForm& b,
                                   uint8_t& kinds) {
  // Add(Without(a, skip_i, skip_j), b) in one merge, without the
  // intermediate form: the same terms, constant and bounds (the kept terms'
  // bounds are summed in the same order, then b's), and the same flags.
  LinearForm out = Start(AddOrFlag(a.constant, b.constant));
  Interval kept_bounds = Interval::Point(a.constant);
  terms_.resize_for_overwrite(out.begin + a.size + b.size);
  const Term* x = terms_.data() + a.begin;
  const Term* const x_end = x + a.size;
  const Term* const skip1 = x + skip_i;
  const Term* const skip2 = x + skip_j;
  const Term* y = terms_.data() + b.begin;
  const Term* const y_end = y + b.size;
  Term* const first = terms_.data() + out.begin;
  Term* to = first;
  bool merged = false;
  while (true) {
    while (x != x_end && (x == skip1 || x == skip2)) ++x;
    if (x == x_end) break;
    if (y == y_end || x->atom != y->atom) {
      if (y != y_end && !AtomLess(x->atom, y->atom)) {
        *to++ = *y++;
        continue;
      }
      kept_bounds = AddBoundsOrFlag(
          kept_bounds, ScaleBoundsOrFlag(atoms_[x->atom].bounds, x->coeff));
      *to++ = *x++;
      continue;
    }
    kept_bounds = AddBoundsOrFlag(
        kept_bounds, ScaleBoundsOrFlag(atoms_[x->atom].bounds, x->coeff));
    const Term t{AddOrFlag(x->coeff, y->coeff), x->atom};
    ++x;
    ++y;
    merged = true;
    if (t.coeff != 0) *to++ = t;
  }
  while (y != y_end) *to++ = *y++;
  out.size = to - first;
  terms_.truncate(out.begin + out.size);
  kinds = Kinds(out);
  if (merged) {
    ComputeBounds(out);
  } else {
    out.bounds = AddBoundsOrFlag(kept_bounds, b.bounds);
  }
  return out;
}

LinearForm LinearForms::AddAll(llvm::ArrayRef<LinearForm> forms, uint8_t& kinds,
                               bool& merged) {
  int64_t constant = 0;
  Interval bounds = Interval::Point(0);
  llvm::SmallVector<Term, 16> terms;
  bool sorted = true;
  for (const LinearForm& form : forms) {
    constant = AddOrFlag(constant, form.constant);
    bounds = AddBoundsOrFlag(bounds, form.bounds);
    for (size_t i = 0; i < form.size; ++i) {
      const Term& t = TermAt(form, i);
      sorted = sorted && (terms.empty() || AtomLess(terms.back().atom, t.atom));
      terms.push_back(t);
    }
  }
  // Canonical input (the common case) is already in order; stable: equal
  // atoms merge in the order they came.
  if (!sorted) {
    std::stable_sort(
        terms.begin(), terms.end(),
        [&](const Term& a, const Term& b) { return AtomLess(a.atom, b.atom); });
  }
  LinearForm out = Start(constant);
  kinds = 0;
  merged = false;
  for (size_t i = 0; i < terms.size();) {
    Term t = terms[i++];
    for (; i < terms.size() && terms[i].atom == t.atom; ++i) {
      t.coeff = AddOrFlag(t.coeff, terms[i].coeff);
      merged = true;
    }
    if (t.coeff == 0) continue;
    kinds |= KindBit(atoms_[t.atom].kind);
    Append(out, t);
  }
  // Without a shared atom, the range of the sum is the sum of the ranges.
  if (merged) {
    ComputeBounds(out);
  } else {
    out.bounds = bounds;
  }
  return out;
}

LinearForm LinearForms::Scale(const LinearForm& a, int64_t k) {
  if (k == 1) {
    LinearForm out = a;  // The same terms.
    out.source = mlir::AffineExpr();
    return out;
  }
  LinearForm out = Start();
  if (k == 0) {
    out.bounds = Interval::Point(0);
    return out;
  }
  out.constant = MulOrFlag(a.constant, k);
  // Room for the terms first: no capacity check per term.
  terms_.resize_for_overwrite(out.begin + a.size);
  const Term* from = terms_.data() + a.begin;
  Term* to = terms_.data() + out.begin;
  for (size_t i = 0; i < a.size; ++i) {
    to[i] = {MulOrFlag(from[i].coeff, k), from[i].atom};
  }
  out.size = a.size;
  // k * sum(ranges) == sum(k * ranges).
  out.bounds = ScaleBoundsOrFlag(a.bounds, k);
  return out;
}

LinearForm LinearForms::Without(const LinearForm& lin, size_t i, size_t j) {
  LinearForm rest = Start(lin.constant);
  for (size_t t = 0; t < lin.size; ++t) {
    if (t != i && t != j) Append(rest, TermAt(lin, t));
  }
  ComputeBounds(rest);
  return rest;
}

int64_t LinearForms::CommonFactor(const LinearForm& lin, int64_t c) const {
  int64_t g = c;
  for (size_t i = 0; i < lin.size; ++i) g = Gcd(g, TermAt(lin, i).coeff);
  return g;
}

LinearForm LinearForms::DivideTerms(const LinearForm& lin, int64_t g) {
  // Only INT64_MIN / -1 leaves int64 (g divides every coefficient).
  if (g == -1 && lin.constant == Interval::kMin) overflow_ = true;
  LinearForm reduced = Start(FloorDiv(lin.constant, g));
  for (size_t i = 0; i < lin.size; ++i) {
    const Term t = TermAt(lin, i);
    if (g == -1 && t.coeff == Interval::kMin) {
      overflow_ = true;  // Kept (the result is discarded): no division.
      Append(reduced, t);
      continue;
    }
    Append(reduced, {t.coeff / g, t.atom});
  }
  ComputeBounds(reduced);
  return reduced;
}

}  // namespace xla_index
