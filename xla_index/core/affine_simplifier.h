#ifndef XLA_INDEX_CORE_AFFINE_SIMPLIFIER_H_
#define XLA_INDEX_CORE_AFFINE_SIMPLIFIER_H_

#include <cstdint>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/interval.h"

namespace xla_index {

/// Simplifies affine expressions under known intervals of their dims and
/// symbols, in one bottom-up pass that returns every subexpression's
/// simplified form together with its range (as Halide's simplifier does), so
/// no rule re-derives a range.
///
/// Internally an expression is a linear form `c + sum_i k_i * a_i` over
/// hash-consed atoms a_i (a dim, a symbol, `L floordiv c` or `L mod c` of a
/// simplified linear form L, or an opaque non-affine node), with terms in a
/// canonical order: terms involving dims before those of symbols only, then
/// by kind (variable, floordiv, mod), position or structure; constant last.
/// MLIR expressions are only built for the final result, and an input
/// subexpression that no rule changed is reused as is.
///
// clang-format off
/// Rewrites (c > 0 constant; x, y linear forms; each sound at every point
/// whose variables lie in their intervals), one per line as
/// `pattern -> replacement [if condition]`:
///   v                          -> k            if v in [k, k]
///   (k*c*x + y) floordiv c     -> k*x + y floordiv c
///   (k*c*x + y) mod c          -> y mod c
///   x floordiv c               -> q            if x in [q*c, q*c + c - 1]
///   x mod c                    -> x - q*c      if x in [q*c, q*c + c - 1]
///   (g*x + r) floordiv (g*c)   -> (x + r floordiv g) floordiv c
///   (g*x + r) mod (g*c)        -> g*((x + r floordiv g) mod c) + r mod g
///   (x + y) floordiv c         -> x floordiv c  if g | x, g | c, y in [0, g)
///   (x + y) mod c              -> x mod c + y   if g | x, g | c, y in [0, g)
///   (x floordiv a + k) floordiv c  -> (x + k*a) floordiv (a*c)
///   (x mod (c*b)) floordiv c   -> (x floordiv c) mod b
///   (m*(x mod a) + y) mod c    -> (m*x + y) mod c           if c | a
///   (x mod c)*k + (x floordiv c)*(c*k)          -> x*k
///   (x mod c)*k + ((x floordiv c) mod m)*(c*k)  -> (x mod (c*m))*k
///   x*k - (x floordiv c)*(c*k)                  -> (x mod c)*k
///   x ceildiv c                -> (x + c - 1) floordiv c  (if no overflow)
/// (`x floordiv c` in the recombinations is the simplified quotient, so
/// (x floordiv 4) mod 4 and x floordiv 16 pair up.)
// clang-format on
/// Atoms may carry tighter ranges from constraints (see SetAtomRange).
class AffineSimplifier {
 public:
  /// The bounds are read, not copied: they must outlive the simplifier.
  AffineSimplifier(mlir::MLIRContext* context,
                   llvm::ArrayRef<Interval> dim_bounds,
                   llvm::ArrayRef<Interval> symbol_bounds);

  /// Forgets everything derived from the bounds, after the caller changed
  /// the intervals it passed (same number of dims and symbols).
  void ResetBounds();

  /// The simplified expression (equal to `expr` at every point of the box).
  mlir::AffineExpr Simplify(mlir::AffineExpr expr);

  /// The range of `expr` over the box, from the same analysis.
  Interval Range(mlir::AffineExpr expr);

  /// A simplified constraint `expr in interval` in normal form: constant
  /// moved into the interval, common factor divided out, first coefficient
  /// positive, interval tightened to the expression's range.
  struct NormalConstraint {
    enum class Kind {
      kAlwaysTrue,  // Holds everywhere: drop it.
      kInfeasible,  // Never holds: the map is empty.
      kVariable,    // `variable in interval`: a bound on one dim/symbol.
      kExpression,  // Keep `expr in interval`.
    };
    Kind kind;
    mlir::AffineExpr expr;
    Interval interval;
    bool is_dim = false;  // For kVariable.
    int variable = -1;    // For kVariable.
    /// For kExpression: bounds of its dims/symbols implied by the constraint
    /// (k*v in [lo - max(rest), hi - min(rest)]; for `v mod c in [r, s]`,
    /// the nearest values of v with a residue in [r, s]) that are tighter
    /// than the current ones.
    struct VariableBound {
      bool is_dim;
      int variable;
      Interval interval;
    };
    llvm::SmallVector<VariableBound, 2> tightened;
  };
  NormalConstraint NormalizeConstraint(mlir::AffineExpr expr,
                                       Interval interval);

  /// One map of a composition chain: its results, where each of its symbols
  /// sits in this simplifier's box, and its dims' bounds.
  struct ChainLink {
    llvm::ArrayRef<mlir::AffineExpr> results;
    llvm::ArrayRef<int> symbols;  // Symbol j is the box's symbol symbols[j].
    llvm::ArrayRef<Interval> dim_bounds;
  };
  /// Simplified results of the chain's last map after ... after its first
  /// (map k+1's dim i is map k's result i; the first map's dims are the
  /// box's), without building the intermediate MLIR expressions: each map's
  /// results are carried to the next as linear forms. Returns false,
  /// computing nothing, when some result of map k may leave map k+1's dim
  /// bounds (the composition then needs a constraint: use
  /// ComposeIndexingMaps and Simplify).
  bool SimplifyChain(llvm::ArrayRef<ChainLink> chain,
                     llvm::SmallVectorImpl<mlir::AffineExpr>& results);

  /// Records that `expr` lies in `interval` on the domain (a constraint), so
  /// later simplifications may use the tighter range of that subexpression.
  /// Only has an effect when `expr` simplifies to a single atom.
  void SetAtomRange(mlir::AffineExpr expr, Interval interval);

 private:
  enum class AtomKind : uint8_t { kDim, kSymbol, kFloorDiv, kMod, kOpaque };
  struct Term {
    int64_t coeff;
    int32_t atom;
  };
  /// constant + sum(coeff * atom): terms sorted by AtomLess, no zero
  /// coefficients, each atom once. The terms are terms_[begin, begin + size):
  /// a linear form is a handle, copied for free, and its terms never change
  /// once appended (a rewrite appends new ones; the pool lives as long as the
  /// simplifier). `bounds` contains every value it takes on the box (the sum
  /// of its terms' ranges, or of its operands' ranges when it was built by
  /// Add or Scale). `source`, when set, is an MLIR expression of exactly this
  /// canonical shape that can be returned as is.
  struct Lin {
    uint32_t begin = 0;
    uint32_t size = 0;
    int64_t constant = 0;
    Interval bounds{0, 0};
    mlir::AffineExpr source;
  };
  struct Atom {
    AtomKind kind;
    int32_t var = -1;     // kDim, kSymbol.
    int64_t divisor = 0;  // kFloorDiv, kMod.
    int32_t arg = -1;     // kFloorDiv, kMod: index in args_.
    Interval bounds;
    bool symbolic = false;  // Involves symbols (and constants) only.
    // kMod `x mod c`: the atom that `x floordiv c` simplifies to, -1 if it is
    // not a single atom, -2 if not computed yet (Recombine asks repeatedly).
    int32_t quotient = -2;
    uint64_t fingerprint = 0;  // kFloorDiv, kMod: of kind, divisor, arg.
    mlir::AffineExpr expr;     // Built lazily; for kOpaque the original.
  };

  // The linear form of `expr`; with `cache`, a binary node's form is
  // remembered (see visited_). getKind() is an out-of-line call into MLIR:
  // each node reads it once.
  Lin Visit(mlir::AffineExpr expr, bool cache) {
    const mlir::AffineExprKind kind = expr.getKind();
    if (cache && kind <= mlir::AffineExprKind::LAST_AFFINE_BINARY_OP) {
      return VisitCached(expr, kind);
    }
    return VisitNode(expr, kind);
  }
  Lin VisitCached(mlir::AffineExpr expr, mlir::AffineExprKind kind);
  Lin VisitNode(mlir::AffineExpr expr, mlir::AffineExprKind kind);
  Lin Constant(int64_t value) const;
  Lin FromAtom(int32_t atom, int64_t coeff = 1);
  Lin Add(const Lin& a, const Lin& b);
  static Lin WithoutSource(Lin lin) {
    lin.source = mlir::AffineExpr();
    return lin;
  }
  Lin Scale(const Lin& a, int64_t k);
  // `x floordiv c` or `x mod c` of a visited node in a chain, where x is no
  // input expression (has no source): FloorDivBy or ModBy at depth 0,
  // memoized by x's content (see divisions_).
  Lin DivideInChain(AtomKind kind, const Lin& x, int64_t c);
  Lin FloorDivBy(Lin x, int64_t c, int depth, mlir::AffineExpr source);
  Lin ModBy(Lin x, int64_t c, int depth, mlir::AffineExpr source);
  // `x floordiv c` or `x mod c` as one atom, when no rule rewrites it.
  // `source`, if set, is that expression as MLIR (x's source unchanged).
  Lin DivModTerm(AtomKind kind, const Lin& x, int64_t c,
                 mlir::AffineExpr source);
  // x is 1 * (a dim, a symbol or an opaque atom): no division rule applies
  // to it beyond its range.
  bool IsVariable(const Lin& x) const {
    if (!IsAtom(x)) return false;
    AtomKind kind = atoms_[TermAt(x, 0).atom].kind;
    return kind != AtomKind::kFloorDiv && kind != AtomKind::kMod;
  }
  // gcd(c, the coefficients of lin).
  int64_t CommonFactor(const Lin& lin, int64_t c) const;
  // lin's terms divided by g (which divides them all), its constant
  // floor-divided by g.
  Lin DivideTerms(const Lin& lin, int64_t g);
  // Splits x = a + b where every coefficient of `a` is a multiple of some
  // g dividing c and b in [0, g - 1] after moving a multiple of g from b's
  // range into a. Returns false if no split exists.
  bool SplitSmallPart(const Lin& x, int64_t c, Lin& multiple, Lin& small);
  void Recombine(Lin& lin);
  // `lin` without its terms i and j.
  Lin Without(const Lin& lin, size_t i, size_t j);
  void TightenModuloBound(const Lin& lin, Interval residues,
                          NormalConstraint& out) const;
  int32_t QuotientAtom(int32_t mod_atom);
  void ClearVisited() {
    visited_.clear();
    visited_stale_ = false;
  }
  void ForgetStaleVisits() {
    if (visited_stale_) ClearVisited();
  }
  // Term i of `lin`. A reference into the pool is invalidated by appending,
  // so loops that append copy each term first.
  const Term& TermAt(const Lin& lin, size_t i) const {
    return terms_[lin.begin + i];
  }
  // An empty linear form whose terms are appended next (with Append; no other
  // form may be appended to until it is complete).
  Lin StartLin(int64_t constant = 0) const {
    Lin lin;
    lin.begin = terms_.size();
    lin.constant = constant;
    return lin;
  }
  void Append(Lin& lin, Term term) {
    terms_.push_back(term);
    ++lin.size;
  }
  // lin == 1 * atom (any atom when atom < 0).
  bool IsAtom(const Lin& lin, int32_t atom = -1) const {
    return lin.size == 1 && TermAt(lin, 0).coeff == 1 && lin.constant == 0 &&
           (atom < 0 || TermAt(lin, 0).atom == atom);
  }
  void ComputeBounds(Lin& lin) const;
  int32_t InternAtom(Atom atom);
  // A hash of `lin floordiv divisor` or `lin mod divisor` (lin's terms and
  // constant, not its bounds).
  uint64_t Fingerprint(AtomKind kind, int64_t divisor, const Lin& lin) const;
  int32_t DivModAtom(AtomKind kind, const Lin& arg, int64_t divisor,
                     mlir::AffineExpr source);
  int32_t VariableAtom(AtomKind kind, int32_t position);
  bool AtomLess(int32_t a, int32_t b) const;
  int CompareAtoms(int32_t a, int32_t b) const;
  int CompareLins(const Lin& a, const Lin& b) const;
  bool LinEqual(const Lin& a, const Lin& b) const;
  mlir::AffineExpr Build(const Lin& lin);
  mlir::AffineExpr BuildAtom(int32_t atom);
  // Build for the numerator of a floordiv or mod atom: `x floordiv c` and
  // `x mod c` come in pairs (digits), and build x once.
  mlir::AffineExpr BuildArg(const Lin& arg);

  mlir::MLIRContext* context_;
  llvm::ArrayRef<Interval> dim_bounds_;
  llvm::ArrayRef<Interval> symbol_bounds_;
  // Inline capacity covers typical maps without a heap allocation.
  llvm::SmallVector<Atom, 16> atoms_;
  llvm::SmallVector<Term, 64> terms_;  // The terms of every linear form.
  llvm::SmallVector<Lin, 8> args_;     // Arguments of floordiv/mod atoms.
  llvm::SmallVector<std::pair<Lin, mlir::AffineExpr>, 4> built_args_;
  llvm::SmallVector<int32_t, 16> dim_atoms_, symbol_atoms_;
  bool overflow_ = false;  // Set when coefficient arithmetic overflowed.
  // Linear forms of division numerators: a composed map divides the same
  // linear index by each stride.
  llvm::SmallDenseMap<const void*, Lin, 8> visited_;
  // Set when an atom's range changed since the entries were made: a
  // simplification must not use them (their bounds are looser), an atom
  // lookup may (SetAtomRange).
  bool visited_stale_ = false;
  // Results of DivideInChain: each map of a chain of reshapes divides the
  // same linear index by its strides again. Keyed by a hash of (kind,
  // divisor, numerator); cleared when atom ranges change.
  struct Division {
    AtomKind kind;
    int64_t divisor;
    Lin numerator;
    Lin result;
  };
  llvm::DenseMap<uint64_t, Division> divisions_;
  // While simplifying a composition: values of dims and positions of
  // symbols of the expressions being visited (null: themselves).
  const std::vector<Lin>* dim_values_ = nullptr;
  llvm::ArrayRef<int> symbol_positions_;
  // In SimplifyChain: symbols are remapped and divisions memoized.
  bool in_chain_ = false;
};

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_AFFINE_SIMPLIFIER_H_
