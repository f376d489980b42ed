#ifndef XLA_INDEX_CORE_LINEAR_FORM_H_
#define XLA_INDEX_CORE_LINEAR_FORM_H_

// The normal form the affine simplifier works in.
//
// A linear form is what MLIR's affine flattener turns an expression into:
//
//   constant + sum_i coeff_i * atom_i
//
// where an atom is a dim, a symbol, `L floordiv c` or `L mod c` of a linear
// form L (c > 0), or an opaque (non-affine) node kept as is. Unlike the
// flattener's, every atom here also carries its bounds on the box of the
// dims' and symbols' intervals, so the bounds of a form are the sum of its
// terms' bounds and no rewrite has to re-derive a range.
//
// Canonical order of the terms (it fixes the printed text): terms involving
// dims before those of symbols only, then by kind (variable, floordiv, mod),
// position or structure; the constant last.

#include <cstdint>
#include <optional>
#include <utility>

#include "base/checked_arithmetic.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/core/interval.h"

namespace xla_index {

/// What an atom of a linear form stands for.
enum class AtomKind : uint8_t { kDim, kSymbol, kFloorDiv, kMod, kOpaque };

/// A bit per AtomKind, for sets of kinds.
constexpr uint8_t KindBit(AtomKind kind) {
  return static_cast<uint8_t>(1u << static_cast<unsigned>(kind));
}

/// One term `coeff * atom` (atom: an index into the pool's atoms).
struct Term {
  int64_t coeff;
  int32_t atom;
};

/// `constant + sum(coeff * atom)` over the terms `pool[begin, begin + size)`:
/// terms in canonical order, no zero coefficient, each atom once. A form is
/// a handle, copied for free; its terms never change once appended (a
/// rewrite appends new ones). `bounds` contains every value the form takes
/// on the box. `source`, when set, is an MLIR expression of exactly this
/// canonical shape, returned as is instead of building a new one.
struct LinearForm {
  uint32_t begin = 0;
  uint32_t size = 0;
  int64_t constant = 0;
  Interval bounds{0, 0};
  mlir::AffineExpr source;
};

/// A dim, a symbol, `arg floordiv divisor`, `arg mod divisor` or an opaque
/// node, with the interval of its values on the box.
struct Atom {
  AtomKind kind;
  int32_t var = -1;     // kDim, kSymbol: the position.
  int64_t divisor = 0;  // kFloorDiv, kMod.
  int32_t arg = -1;     // kFloorDiv, kMod: index of the numerator form.
  Interval bounds;
  bool symbolic = false;  // Involves symbols (and constants) only.
  mlir::AffineExpr expr;  // Built lazily; for kOpaque the original.
};

/// The pool of atoms and terms every linear form of one simplifier points
/// into, and the linear algebra on forms: sums, multiples, bounds, order.
/// Coefficient or bound arithmetic that leaves int64 sets `overflow()`; the
/// caller then discards the result. So, while overflow() is clear, every
/// value of every form lies in its bounds, inside int64: a saturated bound
/// (not containing the exact values) is never reasoned from.
class LinearForms {
 public:
  /// The bounds are read, not copied: they must outlive the pool.
  LinearForms(llvm::ArrayRef<Interval> dim_bounds,
              llvm::ArrayRef<Interval> symbol_bounds)
      : dim_bounds_(dim_bounds),
        symbol_bounds_(symbol_bounds),
        dim_atoms_(dim_bounds.size()),
        symbol_atoms_(symbol_bounds.size()) {}

  /// Forgets every atom and term (after the box changed).
  void Reset();

  bool overflow() const { return overflow_ || bounds_overflow_; }
  void set_overflow(bool overflow) { overflow_ = bounds_overflow_ = overflow; }
  /// Only a bound left int64 since set_overflow(false) (every coefficient
  /// and constant is exact): a form of dims and symbols alone is then still
  /// the exact expression, its bounds aside.
  bool only_bounds_overflow() const { return bounds_overflow_ && !overflow_; }
  /// Both flags, saved around a sub-computation: `Flags before =
  /// flags(); set_overflow(false); ...; MergeFlags(before)` (or
  /// RestoreFlags(before) to drop the sub-computation's).
  struct Flags {
    bool overflow, bounds_overflow;
  };
  Flags flags() const { return {overflow_, bounds_overflow_}; }
  void MergeFlags(Flags before) {
    overflow_ |= before.overflow;
    bounds_overflow_ |= before.bounds_overflow;
  }
  void RestoreFlags(Flags before) {
    overflow_ = before.overflow;
    bounds_overflow_ = before.bounds_overflow;
  }
  llvm::ArrayRef<Interval> dim_bounds() const { return dim_bounds_; }
  llvm::ArrayRef<Interval> symbol_bounds() const { return symbol_bounds_; }

  const Atom& atom(int32_t id) const { return atoms_[id]; }
  Atom& mutable_atom(int32_t id) { return atoms_[id]; }
  size_t num_atoms() const { return atoms_.size(); }
  /// The numerator of a floordiv or mod atom.
  const LinearForm& ArgOf(const Atom& atom) const { return args_[atom.arg]; }
  const LinearForm& ArgOf(int32_t id) const { return ArgOf(atoms_[id]); }

  /// Term i of `lin`. A reference into the pool is invalidated by
  /// appending, so loops that append copy each term first.
  const Term& TermAt(const LinearForm& lin, size_t i) const {
    return terms_[lin.begin + i];
  }
  /// The kind of the atom of term i.
  AtomKind KindAt(const LinearForm& lin, size_t i) const {
    return atoms_[TermAt(lin, i).atom].kind;
  }
  /// An empty form whose terms are appended next, in canonical order (no
  /// other form may be appended to until it is complete).
  LinearForm Start(int64_t constant = 0) const {
    LinearForm lin;
    lin.begin = terms_.size();
    lin.constant = constant;
    return lin;
  }
  void Append(LinearForm& lin, Term term) {
    terms_.push_back(term);
    ++lin.size;
  }
  /// lin == 1 * atom (any atom when atom < 0).
  bool IsAtom(const LinearForm& lin, int32_t atom = -1) const {
    return lin.size == 1 && TermAt(lin, 0).coeff == 1 && lin.constant == 0 &&
           (atom < 0 || TermAt(lin, 0).atom == atom);
  }
  /// lin == 1 * (a dim, a symbol or an opaque atom).
  bool IsVariable(const LinearForm& lin) const {
    if (!IsAtom(lin)) return false;
    const AtomKind kind = KindAt(lin, 0);
    return kind != AtomKind::kFloorDiv && kind != AtomKind::kMod;
  }

  /// The KindBits of lin's atoms.
  uint8_t Kinds(const LinearForm& lin) const {
    uint8_t kinds = 0;
    for (size_t i = 0; i < lin.size; ++i) kinds |= KindBit(KindAt(lin, i));
    return kinds;
  }
  /// The form `value`.
  LinearForm Constant(int64_t value) const {
    LinearForm lin = Start(value);
    lin.bounds = Interval::Point(value);
    return lin;
  }
  /// The form `coeff * atom`.
  LinearForm FromAtom(int32_t atom, int64_t coeff = 1) {
    LinearForm lin = Start();
    if (coeff == 0) {
      lin.bounds = Interval::Point(0);
    } else {
      Append(lin, {coeff, atom});
      lin.bounds = ScaleBoundsOrFlag(atoms_[atom].bounds, coeff);
    }
    return lin;
  }
  /// a + b, merging equal atoms. `kinds`, if set, receives the KindBits of
  /// the sum's atoms when it was built by merging (0 when an operand is
  /// zero and the sum is the other operand).
  LinearForm Add(const LinearForm& a, const LinearForm& b,
                 uint8_t* kinds = nullptr);
  /// Add(Without(a, i, j), b) without the intermediate form; `kinds`
  /// receives the KindBits of the sum's atoms.
  LinearForm AddWithout(const LinearForm& a, size_t i, size_t j,
                        const LinearForm& b, uint8_t& kinds);
  /// The sum of all `forms` (any number: the terms are sorted and merged
  /// once). `kinds` receives the KindBits of the sum's atoms; `merged` is
  /// set when two forms shared an atom.
  LinearForm AddAll(llvm::ArrayRef<LinearForm> forms, uint8_t& kinds,
                    bool& merged);
  /// k * a.
  LinearForm Scale(const LinearForm& a, int64_t k);
  /// `lin` without its terms i and j (i == j: one term).
  LinearForm Without(const LinearForm& lin, size_t i, size_t j);
  /// lin's terms divided by g (which divides them all), its constant
  /// floor-divided by g. A quotient INT64_MIN / -1 sets overflow().
  LinearForm DivideTerms(const LinearForm& lin, int64_t g);
  /// gcd(c, the coefficients of lin) (c = 0: of the coefficients).
  int64_t CommonFactor(const LinearForm& lin, int64_t c) const;
  /// Sets lin.bounds to the constant plus the sum of its terms' bounds.
  void ComputeBounds(LinearForm& lin) {
    Interval b = Interval::Point(lin.constant);
    for (size_t i = 0; i < lin.size; ++i) {
      const Term& t = TermAt(lin, i);
      b = AddBoundsOrFlag(b, ScaleBoundsOrFlag(atoms_[t.atom].bounds, t.coeff));
    }
    lin.bounds = b;
  }

  /// The range of lin's terms other than term `skip` (the constant left
  /// out), or nullopt when a bound leaves int64: exact reasoning about a
  /// constraint needs the values of the rest to fit.
  std::optional<Interval> CheckedTermsRange(const LinearForm& lin,
                                            size_t skip = SIZE_MAX) const {
    std::optional<Interval> range = Interval::Point(0);
    for (size_t i = 0; i < lin.size && range; ++i) {
      if (i == skip) continue;
      const Term& t = TermAt(lin, i);
      const std::optional<Interval> term =
          CheckedMul(atoms_[t.atom].bounds, t.coeff);
      range = term ? CheckedAdd(*range, *term) : std::nullopt;
    }
    return range;
  }

  /// The atom of dim or symbol `position` (one per variable).
  int32_t VariableAtom(AtomKind kind, int32_t position) {
    const std::optional<int32_t>& known =
        kind == AtomKind::kDim ? dim_atoms_[position] : symbol_atoms_[position];
    return known ? *known : NewVariableAtom(kind, position);
  }
  /// The atom `arg floordiv divisor` or `arg mod divisor`, shared by equal
  /// (kind, divisor, arg); `source`, if set, is its MLIR expression.
  int32_t DivModAtom(AtomKind kind, const LinearForm& arg, int64_t divisor,
                     mlir::AffineExpr source);
  /// A new atom (opaque atoms are interned by the caller).
  int32_t InternAtom(Atom atom);
  /// A hash of `lin floordiv divisor` or `lin mod divisor` (lin's terms and
  /// constant, not its bounds).
  uint64_t Fingerprint(AtomKind kind, int64_t divisor,
                       const LinearForm& lin) const {
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

  /// The canonical order: <0, 0, >0 as a is before, equal to, after b.
  int CompareAtoms(int32_t a, int32_t b) const {
    if (a == b) return 0;
    const Atom& x = atoms_[a];
    const Atom& y = atoms_[b];
    // Terms of dims first, then those of symbols only: MLIR's `+` moves a
    // symbolic left operand to the right, so built in this order a sum
    // stays left-deep and reads back (print, parse) as the same expression.
    if (x.symbolic != y.symbolic) return x.symbolic ? 1 : -1;
    if (x.kind != y.kind) return x.kind < y.kind ? -1 : 1;
    if (x.kind == AtomKind::kDim || x.kind == AtomKind::kSymbol) {
      return x.var < y.var ? -1 : (x.var > y.var ? 1 : 0);
    }
    return CompareSameKind(x, y);
  }
  bool AtomLess(int32_t a, int32_t b) const { return CompareAtoms(a, b) < 0; }
  int Compare(const LinearForm& a, const LinearForm& b) const;
  /// Same terms and constant (bounds and source aside).
  bool Equal(const LinearForm& a, const LinearForm& b) const;

  /// a + b; on overflow sets overflow() (the result is discarded) and
  /// returns the sum modulo 2^64.
  int64_t AddOrFlag(int64_t a, int64_t b) {
    if (std::optional<int64_t> sum = CheckedAdd(a, b)) return *sum;
    overflow_ = true;
    return static_cast<int64_t>(static_cast<uint64_t>(a) +
                                static_cast<uint64_t>(b));
  }
  /// a + b on bounds; when a bound leaves int64 sets overflow() and returns
  /// the saturated sum.
  Interval AddBoundsOrFlag(Interval a, Interval b) {
    if (std::optional<Interval> sum = CheckedAdd(a, b)) return *sum;
    bounds_overflow_ = true;
    return a + b;
  }
  /// a * k on bounds, as AddBoundsOrFlag.
  Interval ScaleBoundsOrFlag(Interval a, int64_t k) {
    if (std::optional<Interval> product = CheckedMul(a, k)) return *product;
    bounds_overflow_ = true;
    return a * k;
  }
  /// a * b; on overflow sets overflow() and returns the product modulo 2^64.
  int64_t MulOrFlag(int64_t a, int64_t b) {
    if (std::optional<int64_t> product = CheckedMul(a, b)) return *product;
    overflow_ = true;
    return static_cast<int64_t>(static_cast<uint64_t>(a) *
                                static_cast<uint64_t>(b));
  }

 private:
  int32_t NewVariableAtom(AtomKind kind, int32_t position);
  // CompareAtoms of two floordiv, mod or opaque atoms of the same kind.
  int CompareSameKind(const Atom& x, const Atom& y) const;

  llvm::ArrayRef<Interval> dim_bounds_;
  llvm::ArrayRef<Interval> symbol_bounds_;
  // Inline capacity covers typical maps without a heap allocation.
  llvm::SmallVector<Atom, 16> atoms_;
  llvm::SmallVector<Term, 64> terms_;      // The terms of every form.
  llvm::SmallVector<LinearForm, 8> args_;  // Numerators of floordiv/mod.
  // (Fingerprint, atom) of every floordiv and mod atom, for DivModAtom.
  llvm::SmallVector<std::pair<uint64_t, int32_t>, 8> div_mod_atoms_;
  // The atom of each dim and symbol, once interned.
  llvm::SmallVector<std::optional<int32_t>, 8> dim_atoms_, symbol_atoms_;
  bool overflow_ = false;
  bool bounds_overflow_ = false;
};

/// gcd(|a|, |b|); where that is 2^63 (a and b in {INT64_MIN, 0}), 2^62,
/// the largest common divisor int64 holds (callers divide by the result, so
/// it must divide both). Inline: the division rules call it on every term.
inline int64_t Gcd(int64_t a, int64_t b) {
  // Magnitudes as uint64, so that |INT64_MIN| does not overflow.
  uint64_t x = a < 0 ? 0 - static_cast<uint64_t>(a) : a;
  uint64_t y = b < 0 ? 0 - static_cast<uint64_t>(b) : b;
  while (y != 0) {
    uint64_t t = x % y;
    x = y;
    y = t;
  }
  return x > static_cast<uint64_t>(Interval::kMax) ? int64_t{1} << 62
                                                   : static_cast<int64_t>(x);
}

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_LINEAR_FORM_H_
