#ifndef XLA_INDEX_CORE_AFFINE_SIMPLIFIER_H_
#define XLA_INDEX_CORE_AFFINE_SIMPLIFIER_H_

// AffineSimplifier: the bound-aware simplifier of affine expressions behind
// IndexingMap::Simplify (linear normal form plus named rewrite rules), and
// its rule catalog.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Compiler.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/interval.h"
#include "xla_index/core/linear_form.h"
#include "xla_index/core/simplifier_caches.h"

namespace xla_index {

/// Simplifies affine expressions under known intervals of their dims and
/// symbols, in one bottom-up pass that returns every subexpression's
/// simplified form together with its range (as Halide's simplifier does), so
/// no rule re-derives a range.
///
/// Internally an expression is a linear form (linear_form.h: MLIR's affine
/// flattener's sum of coefficient * atom plus a constant, with the bounds of
/// every atom). MLIR expressions are only built for the final result, and an
/// input subexpression that no rule changed is reused as is.
///
/// The rewrites are named rules in ordered tables, one per operator
/// (floordiv, mod, sum, constraint; affine_rewrite_rules.cc, listed by
/// RuleCatalog()): each states its contract as
/// `pattern -> replacement [if condition]` and is sound at every point whose
/// variables lie in their intervals. A table is tried in order until a rule
/// fires; a division no rule rewrites becomes an atom. Besides the tables,
/// a variable with a point range becomes that constant,
/// `x ceildiv c -> (x + c - 1) floordiv c` (when x + c - 1 cannot overflow),
/// and a negative divisor is normalized: `x floordiv -c -> (-x) floordiv c`,
/// `x ceildiv -c -> (-x) ceildiv c` (`mod` by a negative constant stays as
/// it is: MLIR's affine `mod` requires a positive divisor).
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
    // For kVariable, and for only_tightens_itself: the variable.
    bool is_dim = false;
    int variable = -1;
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
    /// For `v mod c in [r, s]` of one variable v whose `tightened` bound
    /// still spans more than one period of c: normalizing the constraint
    /// again under that bound gives it back unchanged, so the new bound
    /// only matters to other constraints on v.
    bool only_tightens_itself = false;
    /// With only_tightens_itself: that bound of v (v's bound moved inward
    /// to residues in [r, s]; v's bound as it was when nothing moved).
    Interval self_bound;
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

  /// One named rewrite; `contract` states it as
  /// `pattern -> replacement [if condition]`.
  struct RuleInfo {
    const char* table;  // "floordiv", "mod", "sum" or "constraint".
    const char* name;
    const char* contract;
  };
  /// Every rewrite rule, table by table, each table in the order it tries
  /// its rules.
  static std::vector<RuleInfo> RuleCatalog();
  /// Test hook: while `counts` is set, every rule that fires on this thread
  /// adds one to (*counts)[its name]. Null turns counting off.
  static void CountRuleFirings(std::map<std::string, int>* counts);
  /// Test hook: while `names` is set, the rules it names never fire (to
  /// test a rule that an earlier rule of its table shadows). Null: none.
  static void DisableRulesForTest(const std::set<std::string>* names);

 private:
  using Lin = LinearForm;
  // The rule tables and the rules themselves (affine_rewrite_rules.cc).
  struct Rules;

  // The linear form of `expr`; with `cache`, a binary node's form is
  // remembered (see SimplifierCaches::visited). getKind() is an out-of-line
  // call into MLIR: each node reads it once.
  Lin Visit(mlir::AffineExpr expr, bool cache) {
    const mlir::AffineExprKind kind = expr.getKind();
    if (cache && kind <= mlir::AffineExprKind::LAST_AFFINE_BINARY_OP) {
      return VisitCached(expr, kind);
    }
    return VisitNode(expr, kind);
  }
  Lin VisitCached(mlir::AffineExpr expr, mlir::AffineExprKind kind);
  Lin VisitNode(mlir::AffineExpr expr, mlir::AffineExprKind kind);
  LLVM_ATTRIBUTE_ALWAYS_INLINE Lin VisitConstant(mlir::AffineExpr expr) {
    Lin lin =
        forms_.Constant(mlir::cast<mlir::AffineConstantExpr>(expr).getValue());
    lin.source = expr;
    return lin;
  }
  // Inlined into VisitNode: every leaf of every expression comes here.
  LLVM_ATTRIBUTE_ALWAYS_INLINE Lin VisitVariable(mlir::AffineExpr expr,
                                                 bool is_dim,
                                                 unsigned position);
  // Inlined into VisitNode (its one caller): a call per `+`, `*`, floordiv
  // and mod node would cost a prologue and a form copy each.
  LLVM_ATTRIBUTE_ALWAYS_INLINE Lin VisitBinary(mlir::AffineExpr expr,
                                               mlir::AffineExprKind kind);
  // A sum of any length and shape, without recursion over its `+` nodes.
  Lin VisitSum(mlir::AffineExpr expr);
  // `sum` (of `expr`'s summands, with the KindBits `kinds`) after the sum
  // rules; `expr` itself when no rule fired and `canonical` (expr already
  // is this sum in canonical shape).
  Lin FinishSum(const Lin& sum, uint8_t kinds, bool canonical,
                mlir::AffineExpr expr) {
    constexpr uint8_t kDivMod =
        KindBit(AtomKind::kFloorDiv) | KindBit(AtomKind::kMod);
    if ((kinds & kDivMod) != 0 && sum.size >= 2) {
      Lin rewritten = ApplySumRules(sum, kinds);
      if (rewritten.begin != sum.begin || rewritten.size != sum.size) {
        return rewritten;  // A sum rule fired: not `expr` any more.
      }
    }
    Lin out = sum;
    if (canonical) out.source = expr;
    return out;
  }
  // `expr` = x floordiv -c, given -x (`negated`) and c > 0.
  Lin NegativeFloorDiv(mlir::AffineExpr expr, const Lin& negated, int64_t c,
                       bool numerator_unchanged);
  // A node no rule understands, kept as an atom with the range interval
  // arithmetic gives.
  Lin VisitOpaque(mlir::AffineExpr expr, mlir::AffineExprKind kind,
                  const Lin& lhs, const Lin& rhs);

  // Drivers of the rule tables (affine_rewrite_rules.cc). `source`, if set,
  // is `x floordiv c` (`x mod c`) as MLIR: returned when no rule fires and
  // x is its own input expression.
  Lin FloorDivBy(Lin x, int64_t c, int depth, mlir::AffineExpr source);
  Lin ModBy(Lin x, int64_t c, int depth, mlir::AffineExpr source);
  // a + b, then the sum rules (recombining digits) when the sum has a
  // floordiv or mod term.
  Lin Sum(const Lin& a, const Lin& b) {
    uint8_t kinds = 0;
    Lin out = forms_.Add(a, b, &kinds);
    constexpr uint8_t kDivMod =
        KindBit(AtomKind::kFloorDiv) | KindBit(AtomKind::kMod);
    if ((kinds & kDivMod) == 0 || out.size < 2) return out;
    return ApplySumRules(out, kinds);
  }
  Lin ApplySumRules(const Lin& sum, uint8_t kinds);
  // `x floordiv c` or `x mod c` as one atom (a constant if its range is a
  // point), when no rule rewrites it.
  Lin DivModTerm(AtomKind kind, const Lin& x, int64_t c,
                 mlir::AffineExpr source);
  // `x floordiv c` or `x mod c` of a visited node in a chain, where x is no
  // input expression (has no source): FloorDivBy or ModBy at depth 0,
  // memoized by x's content (see SimplifierCaches::divisions).
  Lin DivideInChain(AtomKind kind, const Lin& x, int64_t c);
  // The atom `x floordiv c` simplifies to for the mod atom `x mod c`, if it
  // is a single atom.
  std::optional<int32_t> QuotientAtom(int32_t mod_atom);
  // The atom `x mod c` simplifies to for the floordiv atom `x floordiv c`,
  // if it is a single atom.
  std::optional<int32_t> RemainderAtom(int32_t floordiv_atom);
  // QuotientAtom or RemainderAtom of `division`, memoized in `cache`.
  std::optional<int32_t> OtherDigitAtom(
      int32_t division, llvm::SmallVectorImpl<SimplifierCaches::Digit>& cache);

  // `lin in interval` (of dims and symbols) whose bounds left int64,
  // divided by its coefficients' gcd into one whose bounds fit; false when
  // that is not possible (see the definition).
  bool ScaleDownConstraint(mlir::AffineExpr expr, Lin& lin, Interval& interval);
  // The implied bounds of a kExpression constraint's variables.
  void TightenVariableBounds(const Lin& lin, Interval interval,
                             NormalConstraint& out) const;
  void TightenModuloBound(const Lin& lin, Interval residues,
                          NormalConstraint& out) const;

  mlir::AffineExpr Build(const Lin& lin);
  mlir::AffineExpr BuildAtom(int32_t atom);
  // The term `(y mod c) * m` as `(y * m) mod (c * m)` when that has fewer
  // nodes; else null.
  mlir::AffineExpr BuildScaledMod(const Term& term);
  // The constant `value`, uniqued by MLIR once per simplifier (coefficients
  // and divisors repeat: `x floordiv 8`, `x mod 8`, `y * 8`).
  mlir::AffineExpr BuildConstant(int64_t value);
  // Build for the numerator of a floordiv or mod atom, built once.
  mlir::AffineExpr BuildArg(const Lin& arg);

  mlir::MLIRContext* context_;
  LinearForms forms_;
  SimplifierCaches caches_;
  // While simplifying a composition: values of dims and positions of
  // symbols of the expressions being visited (null: themselves).
  const std::vector<Lin>* dim_values_ = nullptr;
  llvm::ArrayRef<int> symbol_positions_;
  // In SimplifyChain: symbols are remapped and divisions memoized.
  bool in_chain_ = false;
  // `+` nodes being visited by recursion; past kMaxSumRecursion, VisitSum.
  static constexpr int kMaxSumRecursion = 200;
  int sum_depth_ = 0;
  // OtherDigitAtom calls in progress (the outermost one simplifies with the
  // full depth).
  int digit_lookups_ = 0;
};

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_AFFINE_SIMPLIFIER_H_
