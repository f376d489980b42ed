// The affine simplifier's rewrite rules: one named function per rewrite with
// its contract, in ordered tables per operator, and the drivers that apply a
// table until a rule fires.
//
// Notation in the contracts: c > 0 a constant divisor; x, y, z linear forms
// (linear_form.h); k, m, g, a, b constants. Every rule is sound at every
// point whose variables lie in their intervals, and may use the bounds of
// its operands (each form carries them).

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/checked_arithmetic.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Compiler.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/core/affine_simplifier.h"
#include "xla_index/core/linear_form.h"

namespace xla_index {
namespace {

using mlir::AffineExpr;

// The division and sum rules are inlined into their table walk (one frame
// per division, as hand-written branches would have): most rules decline
// after a few comparisons, and a call per rule costs more than that.
#define XI_RULE LLVM_ATTRIBUTE_ALWAYS_INLINE static

// Rewrites that recurse (gcd, split, nested division) strictly shrink the
// problem, but a bound keeps pathological inputs cheap.
constexpr int kMaxDepth = 8;

// The test hook of CountRuleFirings (a plain global: a thread-local costs a
// call per firing in a shared library).
std::map<std::string, int>* rule_counts = nullptr;
// The test hook of DisableRulesForTest.
const std::set<std::string>* disabled_rules = nullptr;
// Either hook is set: the table walks check them (a separate instantiation,
// so that the walk without hooks pays nothing for them).
bool hooks_on = false;

}  // namespace

struct AffineSimplifier::Rules {
  using Self = AffineSimplifier;

  // `x floordiv c` or `x mod c`, `depth` rewrites deep.
  struct DivMod {
    const Lin& x;
    int64_t c;
    int depth;
  };
  // A rule stores its result in `out` and returns true when it fires.
  using DivModFn = bool (*)(Self&, const DivMod&, Lin& out);
  // What a division rule reads, in the order of the tables.
  enum class Reads : uint8_t {
    kRange,      // Only c and the numerator's range: applies to variables.
    kStructure,  // The numerator's terms: none applies to one variable.
    kRecursive,  // As kStructure, and rewrites into a new division of about
                 // the same size: skipped at kMaxDepth.
  };
  struct DivModRule {
    const char* name;
    const char* contract;
    DivModFn fn;
    Reads reads;
  };

  // A sum with at least two terms, one of them a floordiv or mod.
  using SumFn = bool (*)(Self&, const Lin&, Lin& out);
  struct SumRule {
    const char* name;
    const char* contract;
    SumFn fn;
    uint8_t needs;  // Atom kinds (KindBit) the sum must have.
  };
  static constexpr uint8_t kFloorDivs = KindBit(AtomKind::kFloorDiv);
  static constexpr uint8_t kMods = KindBit(AtomKind::kMod);

  // `lin in interval`, as the constraint `expr in interval` rewrites to;
  // `verdict` once it is known to hold everywhere or nowhere. (Its MLIR
  // expression is built once, when no rule fires any more.)
  struct Constraint {
    Lin lin;
    Interval interval;
    std::optional<NormalConstraint::Kind> verdict;
  };
  using ConstraintFn = bool (*)(Self&, Constraint&);
  struct ConstraintRule {
    const char* name;
    const char* contract;
    ConstraintFn fn;  // True when it fired (changed or decided).
    // After firing, the table runs again on the new constraint.
    bool restarts;
  };

  template <typename Rule>
  static void Fired(const Rule& rule) {
    if (rule_counts != nullptr) ++(*rule_counts)[rule.name];
  }
  template <typename Rule>
  static bool Disabled(const Rule& rule) {
    return disabled_rules != nullptr && disabled_rules->count(rule.name) > 0;
  }

  // `lin` as a sum with nothing added: a rule's result must not claim to be
  // the expression the caller passed as source.
  static Lin Fresh(Lin lin) {
    lin.source = AffineExpr();
    return lin;
  }

  // Splits x = multiple + small where every coefficient of `multiple` is a
  // multiple of some g > 1 dividing c and small in [0, g - 1] (after moving
  // a multiple of g from small's range into multiple's constant).
  static bool SplitSmallPart(Self& s, const Lin& x, int64_t c, Lin& multiple,
                             Lin& small);

  // --- floordiv rules -------------------------------------------------------
  XI_RULE bool FloorDivByOne(Self& s, const DivMod& p, Lin& out);
  XI_RULE bool FloorDivOfOnePeriod(Self& s, const DivMod& p, Lin& out);
  XI_RULE bool FloorDivMultiplesLeave(Self& s, const DivMod& p, Lin& out);
  XI_RULE bool FloorDivCommonFactor(Self& s, const DivMod& p, Lin& out);
  XI_RULE bool FloorDivDropSmallPart(Self& s, const DivMod& p, Lin& out);
  XI_RULE bool FloorDivOfMod(Self& s, const DivMod& p, Lin& out);
  XI_RULE bool FloorDivOfFloorDiv(Self& s, const DivMod& p, Lin& out);
  // For x = z + y floordiv a (the first floordiv term with coefficient 1):
  // merged = z*a + y, so that x == merged floordiv a; for x = z - y floordiv
  // a, merged = z*a + (a - 1 - y). False when x has no such term or merged
  // may leave int64.
  static bool MergeFloorDivTerm(Self& s, const Lin& x, Lin& merged, int64_t& a);
  // Whether x has a floordiv term of coefficient 1 or -1 (one that
  // MergeFloorDivTerm can merge).
  static bool HasUnitFloorDivTerm(LinearForms& f, const Lin& x);

  // --- mod rules ------------------------------------------------------------
  XI_RULE bool ModByOne(Self& s, const DivMod& p, Lin& out);
  XI_RULE bool ModOfOnePeriod(Self& s, const DivMod& p, Lin& out);
  XI_RULE bool ModMultiplesLeave(Self& s, const DivMod& p, Lin& out);
  XI_RULE bool ModCommonFactor(Self& s, const DivMod& p, Lin& out);
  XI_RULE bool ModSmallPartLeaves(Self& s, const DivMod& p, Lin& out);
  XI_RULE bool ModOfMod(Self& s, const DivMod& p, Lin& out);
  XI_RULE bool ModOfFloorDivSum(Self& s, const DivMod& p, Lin& out);

  // --- sum rules ------------------------------------------------------------
  XI_RULE bool ModPlusQuotient(Self& s, const Lin& lin, Lin& out);
  XI_RULE bool FloorDivPlusMod(Self& s, const Lin& lin, Lin& out);
  XI_RULE bool MinusFloorDivMultiple(Self& s, const Lin& lin, Lin& out);

  // --- constraint rules -----------------------------------------------------
  XI_RULE bool MoveConstant(Self& s, Constraint& k);
  XI_RULE bool DivideCommonFactor(Self& s, Constraint& k);
  static bool SetExactBounds(Self& s, Constraint& k, const Lin& y, __int128 lo,
                             __int128 hi);
  XI_RULE bool HoldsOnRange(Self& s, Constraint& k);
  XI_RULE bool TightenToRange(Self& s, Constraint& k);
  XI_RULE bool UnwrapFloorDiv(Self& s, Constraint& k);

  // clang-format off
  static constexpr DivModRule kFloorDivRules[] = {
      {"floordiv-by-one", "x floordiv 1 -> x", FloorDivByOne, Reads::kRange},
      {"floordiv-one-period",
       "x floordiv c -> q  if x in [q*c, q*c + c - 1]", FloorDivOfOnePeriod,
       Reads::kRange},
      {"floordiv-multiples-leave",
       "(k*c*y + z) floordiv c -> k*y + z floordiv c", FloorDivMultiplesLeave,
       Reads::kStructure},
      {"floordiv-common-factor",
       "(g*y + r) floordiv (g*c') -> (y + r floordiv g) floordiv c'",
       FloorDivCommonFactor, Reads::kRecursive},
      {"floordiv-drop-small-part",
       "(y + z) floordiv c -> y floordiv c  if g | y, g | c, z in [0, g)",
       FloorDivDropSmallPart, Reads::kRecursive},
      {"floordiv-of-mod",
       "(y mod (c*b)) floordiv c -> (y floordiv c) mod b", FloorDivOfMod,
       Reads::kRecursive},
      {"floordiv-of-floordiv",
       "(z + y floordiv a) floordiv c -> (z*a + y) floordiv (a*c), "
       "(z - y floordiv a) floordiv c -> (z*a + a - 1 - y) floordiv (a*c)",
       FloorDivOfFloorDiv, Reads::kRecursive},
  };
  static constexpr DivModRule kModRules[] = {
      {"mod-by-one", "x mod 1 -> 0", ModByOne, Reads::kRange},
      {"mod-one-period", "x mod c -> x - q*c  if x in [q*c, q*c + c - 1]",
       ModOfOnePeriod, Reads::kRange},
      {"mod-multiples-leave", "(k*c*y + z) mod c -> z mod c",
       ModMultiplesLeave, Reads::kStructure},
      {"mod-common-factor",
       "(g*y + r) mod (g*c') -> g*((y + r floordiv g) mod c') + r mod g",
       ModCommonFactor, Reads::kRecursive},
      {"mod-small-part-leaves",
       "(y + z) mod c -> y mod c + z  if g | y, g | c, z in [0, g)",
       ModSmallPartLeaves, Reads::kRecursive},
      {"mod-of-mod", "(m*(y mod a) + z) mod c -> (m*y + z) mod c  if c | a",
       ModOfMod, Reads::kRecursive},
      {"mod-of-floordiv-sum",
       "(z +- y floordiv a) mod c -> (merged floordiv a) mod c  if z has a "
       "variable term (merged as in floordiv-of-floordiv)", ModOfFloorDivSum, Reads::kRecursive},
  };
  static constexpr SumRule kSumRules[] = {
      {"sum-mod-plus-quotient",
       "(x mod c)*k + Q*(c*k) -> x*k, (x mod c)*k + (Q mod m)*(c*k) -> "
       "(x mod (c*m))*k  where Q = simplified x floordiv c",
       ModPlusQuotient, kMods},
      {"sum-floordiv-plus-mod",
       "(x floordiv c)*(c*k) + R*k -> x*k  where R = simplified x mod c",
       FloorDivPlusMod,
       kFloorDivs | kMods},
      {"sum-minus-floordiv-multiple",
       "x*k - (x floordiv c)*(c*k) -> (x mod c)*k", MinusFloorDivMultiple,
       kFloorDivs},
  };
  static constexpr ConstraintRule kConstraintRules[] = {
      {"constraint-move-constant",
       "y + k in [lo, hi] -> y in [lo - k, hi - k]", MoveConstant, false},
      {"constraint-common-factor",
       "g*y in [lo, hi] -> y in [ceil(lo/g), floor(hi/g)]  (g < 0 if the "
       "first coefficient is)", DivideCommonFactor, false},
      {"constraint-holds-on-range", "y in I -> true  if range(y) in I",
       HoldsOnRange, false},
      {"constraint-tighten-to-range", "y in I -> y in I & range(y)",
       TightenToRange, false},
      {"constraint-unwrap-floordiv",
       "y floordiv c in [lo, hi] -> y in [lo*c, hi*c + c - 1]",
       UnwrapFloorDiv, true},
  };
  // clang-format on

  // Applies constraint rule I; true when the walk of the table stops: the
  // constraint is decided (verdict), or rewritten by a restarting rule.
  template <bool kHooks, size_t I>
  XI_RULE bool TryConstraintRule(Self& s, Constraint& k, bool& restart) {
    using Kind = NormalConstraint::Kind;
    constexpr const ConstraintRule& kRule = kConstraintRules[I];
    if (!(kHooks && Disabled(kRule)) && kRule.fn(s, k)) {
      if (kHooks) Fired(kRule);
      restart = kRule.restarts;
    }
    // Decided: it holds nowhere (an empty interval, or a constant outside
    // it) or everywhere.
    if (!k.verdict && k.interval.IsEmpty()) k.verdict = Kind::kInfeasible;
    if (!k.verdict && k.lin.size == 0) {
      k.verdict =
          k.interval.Contains(0) ? Kind::kAlwaysTrue : Kind::kInfeasible;
    }
    return k.verdict || restart;
  }
  template <bool kHooks, size_t... I>
  XI_RULE bool WalkConstraintRules(Self& s, Constraint& k, bool& restart,
                                   std::index_sequence<I...>) {
    return (TryConstraintRule<kHooks, I>(s, k, restart) || ...);
  }

  // The table's first rule that fires on `x floordiv c` (`x mod c`), else
  // the division as an atom, reusing `source` if x is its own input.
  // kVariable: x is one variable, and only the rules that read its range
  // apply.
  template <const auto& kTable, bool kVariable>
  static Lin ApplyDivMod(Self& s, AtomKind kind, const Lin& x, int64_t c,
                         int depth, AffineExpr source);

  // The tables are walked at compile time (a fold over the indices), so
  // each rule is a direct call the compiler may inline: the hot path costs
  // what hand-written branches would.
  template <const auto& kTable, bool kVariable, bool kHooks, size_t... I>
  XI_RULE bool FirstDivModRule(Self& s, const DivMod& p, Lin& out,
                               std::index_sequence<I...>) {
    return (TryDivModRule<kTable, kVariable, kHooks, I>(s, p, out) || ...);
  }
  template <const auto& kTable, bool kVariable, bool kHooks, size_t I>
  XI_RULE bool TryDivModRule(Self& s, const DivMod& p, Lin& out) {
    constexpr const DivModRule& kRule = kTable[I];
    // The tables are ordered: range rules, then structural ones, then the
    // recursive ones.
    if (kVariable && kRule.reads != Reads::kRange) return false;
    if (kRule.reads == Reads::kRecursive && p.depth >= kMaxDepth) return false;
    if (kHooks && Disabled(kRule)) return false;
    if (!Call<kTable[I].fn>(s, p, out)) return false;
    if (kHooks) Fired(kRule);
    return true;
  }
  // A call through a constant template argument is a direct call.
  template <DivModFn kFn>
  XI_RULE bool Call(Self& s, const DivMod& p, Lin& out) {
    return kFn(s, p, out);
  }
  template <SumFn kFn>
  XI_RULE bool Call(Self& s, const Lin& lin, Lin& out) {
    return kFn(s, lin, out);
  }
  XI_RULE bool Set(Lin& out, const Lin& value) {
    out = value;
    return true;
  }
  template <bool kHooks, size_t... I>
  XI_RULE bool FirstSumRule(Self& s, const Lin& lin, uint8_t kinds, Lin& out,
                            std::index_sequence<I...>) {
    return (TrySumRule<kHooks, I>(s, lin, kinds, out) || ...);
  }
  template <bool kHooks, size_t I>
  XI_RULE bool TrySumRule(Self& s, const Lin& lin, uint8_t kinds, Lin& out) {
    constexpr const SumRule& kRule = kSumRules[I];
    if ((kinds & kRule.needs) != kRule.needs) return false;
    if (kHooks && Disabled(kRule)) return false;
    if (!Call<kSumRules[I].fn>(s, lin, out)) return false;
    if (kHooks) Fired(kRule);
    return true;
  }
};

constexpr AffineSimplifier::Rules::DivModRule
    AffineSimplifier::Rules::kFloorDivRules[];
constexpr AffineSimplifier::Rules::DivModRule
    AffineSimplifier::Rules::kModRules[];
constexpr AffineSimplifier::Rules::SumRule AffineSimplifier::Rules::kSumRules[];
constexpr AffineSimplifier::Rules::ConstraintRule
    AffineSimplifier::Rules::kConstraintRules[];

// ---------------------------------------------------------------------------
// Drivers.

template <const auto& kTable, bool kVariable>
LinearForm AffineSimplifier::Rules::ApplyDivMod(Self& s, AtomKind kind,
                                                const Lin& x, int64_t c,
                                                int depth, AffineExpr source) {
  constexpr size_t kSize = sizeof(kTable) / sizeof(kTable[0]);
  constexpr auto kIndices = std::make_index_sequence<kSize>();
  const DivMod problem{x, c, depth};
  Lin out;
  if (hooks_on
          ? FirstDivModRule<kTable, kVariable, true>(s, problem, out, kIndices)
          : FirstDivModRule<kTable, kVariable, false>(s, problem, out,
                                                      kIndices)) {
    return out;
  }
  // No rule fired: the only place an unchanged input is reused.
  if (kVariable) {
    return s.DivModTerm(kind, x, c, x.source ? source : AffineExpr());
  }
  Lin arg = x;
  s.forms_.ComputeBounds(arg);
  return s.DivModTerm(kind, arg, c, x.source ? source : AffineExpr());
}

LinearForm AffineSimplifier::FloorDivBy(Lin x, int64_t c, int depth,
                                        AffineExpr source) {
  // No structural rule applies to a single variable: its walk of the table
  // is a separate, smaller function.
  return forms_.IsVariable(x)
             ? Rules::ApplyDivMod<Rules::kFloorDivRules, true>(
                   *this, AtomKind::kFloorDiv, x, c, depth, source)
             : Rules::ApplyDivMod<Rules::kFloorDivRules, false>(
                   *this, AtomKind::kFloorDiv, x, c, depth, source);
}

LinearForm AffineSimplifier::ModBy(Lin x, int64_t c, int depth,
                                   AffineExpr source) {
  return forms_.IsVariable(x) ? Rules::ApplyDivMod<Rules::kModRules, true>(
                                    *this, AtomKind::kMod, x, c, depth, source)
                              : Rules::ApplyDivMod<Rules::kModRules, false>(
                                    *this, AtomKind::kMod, x, c, depth, source);
}

// The sum rules rewrite one pair of terms at a time (their results are plain
// sums): the table is applied again until no rule fires, in a loop, so that
// a sum of many digit pairs needs no deep recursion. Each firing replaces
// two division terms by fewer; the bound only guards against a cycle.
LinearForm AffineSimplifier::ApplySumRules(const Lin& sum, uint8_t kinds) {
  constexpr size_t kSize = sizeof(Rules::kSumRules) / sizeof(Rules::SumRule);
  constexpr auto kIndices = std::make_index_sequence<kSize>();
  constexpr uint8_t kDivMod =
      KindBit(AtomKind::kFloorDiv) | KindBit(AtomKind::kMod);
  Lin current = sum;
  for (size_t round = 0; round < 2 * sum.size + 8; ++round) {
    Lin rewritten;
    if (!(hooks_on ? Rules::FirstSumRule<true>(*this, current, kinds, rewritten,
                                               kIndices)
                   : Rules::FirstSumRule<false>(*this, current, kinds,
                                                rewritten, kIndices))) {
      break;
    }
    current = rewritten;
    current.source = AffineExpr();
    kinds = forms_.Kinds(current);
    if ((kinds & kDivMod) == 0 || current.size < 2) break;
  }
  return current;
}

LinearForm AffineSimplifier::DivModTerm(AtomKind kind, const Lin& x, int64_t c,
                                        AffineExpr source) {
  int32_t atom = forms_.DivModAtom(kind, x, c, source);
  if (forms_.atom(atom).bounds.IsPoint()) {
    return forms_.Constant(forms_.atom(atom).bounds.lower);
  }
  Lin result = forms_.FromAtom(atom);
  result.source = source;
  return result;
}

std::optional<int32_t> AffineSimplifier::QuotientAtom(int32_t mod_atom) {
  return OtherDigitAtom(mod_atom, caches_.quotients);
}

std::optional<int32_t> AffineSimplifier::RemainderAtom(int32_t floordiv_atom) {
  return OtherDigitAtom(floordiv_atom, caches_.remainders);
}

std::optional<int32_t> AffineSimplifier::OtherDigitAtom(
    int32_t division, llvm::SmallVectorImpl<SimplifierCaches::Digit>& cache) {
  if (const std::optional<int32_t>* known =
          SimplifierCaches::Find(cache, division)) {
    return *known;
  }
  const LinearForms::Flags flags_before = forms_.flags();
  forms_.set_overflow(false);
  const Atom atom = forms_.atom(division);
  const Lin x = forms_.ArgOf(atom);
  // The other digit is "the simplified x floordiv c" (x mod c) of the sum
  // rules' contracts: the outermost lookup simplifies it with the full
  // depth, as a Simplify of that expression would. A digit atom built by an
  // earlier rewrite may need it all: for ((d0 * 128 + d1) floordiv 64) mod
  // 3072 the quotient goes floordiv-of-floordiv, drop-small-part, then
  // common-factor before it is d0 floordiv 1536. A lookup made while
  // computing another digit keeps a shallow budget, which bounds the
  // recursion through the sum rules.
  const int depth = digit_lookups_ == 0 ? 0 : kMaxDepth - 2;
  ++digit_lookups_;
  const Lin other = atom.kind == AtomKind::kMod
                        ? FloorDivBy(x, atom.divisor, depth, AffineExpr())
                        : ModBy(x, atom.divisor, depth, AffineExpr());
  --digit_lookups_;
  std::optional<int32_t> result;
  if (forms_.IsAtom(other)) result = forms_.TermAt(other, 0).atom;
  // A result computed with overflow is discarded, not cached.
  if (!forms_.overflow()) cache.push_back({division, result});
  forms_.MergeFlags(flags_before);
  return result;
}

// `lin in interval` whose bounds left int64 (d0 * 2^62 for d0 in [0, 9]):
// the points where lin leaves int64 fail the constraint, so when lin is
// exact (`expr` has no division, so no rule used a saturated bound; the
// coefficients are exact) it is still the constraint
// `g*y + c in [lo, hi]` <=> `y in [ceil((lo - c) / g), floor((hi - c) / g)]`
// (g > 0 the coefficients' gcd, the quotients in 128 bits), usable when y's
// bounds fit in int64.
bool AffineSimplifier::ScaleDownConstraint(AffineExpr expr, Lin& lin,
                                           Interval& interval) {
  constexpr uint8_t kVariables =
      KindBit(AtomKind::kDim) | KindBit(AtomKind::kSymbol);
  if (!forms_.only_bounds_overflow() || (forms_.Kinds(lin) & ~kVariables)) {
    return false;
  }
  bool has_division = false;
  expr.walk([&](AffineExpr e) {
    const mlir::AffineExprKind kind = e.getKind();
    has_division |= kind == mlir::AffineExprKind::FloorDiv ||
                    kind == mlir::AffineExprKind::CeilDiv ||
                    kind == mlir::AffineExprKind::Mod;
  });
  if (has_division) return false;
  const int64_t g = forms_.CommonFactor(lin, 0);
  if (lin.size == 0 || g <= 0) return false;
  forms_.set_overflow(false);
  Lin terms = lin;
  terms.constant = 0;
  terms.source = AffineExpr();
  Lin reduced = forms_.DivideTerms(terms, g);
  if (forms_.overflow()) return false;
  // (bound - c) / g in 128 bits, exactly; y's values fit in int64.
  if (!forms_.CheckedTermsRange(reduced)) return false;
  const __int128 lo = __int128{interval.lower} - lin.constant;
  const __int128 hi = __int128{interval.upper} - lin.constant;
  interval = ConstraintBoundsInInt64(CeilDiv128(lo, g), FloorDiv128(hi, g));
  lin = reduced;
  return true;
}

AffineSimplifier::NormalConstraint AffineSimplifier::NormalizeConstraint(
    AffineExpr expr, Interval interval) {
  using Kind = NormalConstraint::Kind;
  // One result object, returned from every path (no copy of it).
  NormalConstraint out{Kind::kExpression, expr, interval};
  forms_.set_overflow(false);
  caches_.ForgetStaleVisits();
  Lin lin = Visit(expr, /*cache=*/true);  // For SetAtomRange.
  Interval scaled_interval = interval;
  if (forms_.overflow() && !ScaleDownConstraint(expr, lin, scaled_interval)) {
    return out;
  }
  Rules::Constraint k{lin, scaled_interval, std::nullopt};
  for (int step = 0; step < kMaxDepth; ++step) {
    bool restart = false;
    constexpr auto kIndices =
        std::make_index_sequence<sizeof(Rules::kConstraintRules) /
                                 sizeof(Rules::ConstraintRule)>();
    if (hooks_on
            ? Rules::WalkConstraintRules<true>(*this, k, restart, kIndices)
            : Rules::WalkConstraintRules<false>(*this, k, restart, kIndices)) {
      // A rule that needed a value beyond int64: keep the constraint.
      if (forms_.overflow()) return out;
      if (k.verdict) {
        out.kind = *k.verdict;
        out.interval = k.interval;
        return out;
      }
      continue;  // Restart the table on the rewritten constraint.
    }
    if (forms_.overflow()) return out;
    const LinearForm& n = k.lin;
    out.expr = Build(n);
    out.interval = k.interval;
    if (forms_.IsAtom(n)) {
      const Atom& atom = forms_.atom(forms_.TermAt(n, 0).atom);
      if (atom.kind == AtomKind::kDim || atom.kind == AtomKind::kSymbol) {
        out.kind = Kind::kVariable;
        out.is_dim = atom.kind == AtomKind::kDim;
        out.variable = atom.var;
        return out;
      }
    }
    TightenVariableBounds(n, k.interval, out);
    TightenModuloBound(n, k.interval, out);
    return out;
  }
  out.expr = Build(k.lin);
  out.interval = k.interval;
  return out;
}

// ---------------------------------------------------------------------------
// Floordiv rules.

// x floordiv 1 -> x.
bool AffineSimplifier::Rules::FloorDivByOne(Self&, const DivMod& p, Lin& out) {
  if (p.c != 1) return false;
  return Set(out, p.x);
}

// x floordiv c -> q  if x in [q*c, q*c + c - 1].
bool AffineSimplifier::Rules::FloorDivOfOnePeriod(Self& s, const DivMod& p,
                                                  Lin& out) {
  const Interval& b = p.x.bounds;
  if (!b.IsFeasible() || b.lower == Interval::kMin ||
      b.upper == Interval::kMax) {
    return false;
  }
  const int64_t q = FloorDiv(b.lower, p.c);
  if (q != FloorDiv(b.upper, p.c)) return false;
  return Set(out, s.forms_.Constant(q));
}

// (k*c*y + z) floordiv c -> k*y + z floordiv c. The constant's quotient is
// rounded toward zero: `(d1 - 3) floordiv 7` stays as written, and
// `(x + 109) floordiv 11` gives 9 + ....
bool AffineSimplifier::Rules::FloorDivMultiplesLeave(Self& s, const DivMod& p,
                                                     Lin& out) {
  LinearForms& f = s.forms_;
  const Lin& x = p.x;
  const int64_t c = p.c;
  Lin outside = f.Start(x.constant / c);
  for (size_t i = 0; i < x.size; ++i) {
    const Term t = f.TermAt(x, i);
    if (t.coeff % c == 0) f.Append(outside, {t.coeff / c, t.atom});
  }
  const bool moved = outside.size > 0 || outside.constant != 0;
  if (!moved) return false;
  if (outside.size == x.size) {  // Nothing stays inside.
    outside.constant = FloorDiv(x.constant, c);
    f.ComputeBounds(outside);
    return Set(out, outside);
  }
  Lin inside = x;
  inside.constant = x.constant % c;
  inside.source = AffineExpr();
  if (outside.size > 0) {
    inside = f.Start(x.constant % c);
    for (size_t i = 0; i < x.size; ++i) {
      const Term t = f.TermAt(x, i);
      if (t.coeff % c != 0) f.Append(inside, t);
    }
  }
  f.ComputeBounds(outside);
  f.ComputeBounds(inside);
  // Past the depth limit the rest stays one atom.
  Lin rest = p.depth < kMaxDepth
                 ? s.FloorDivBy(inside, c, p.depth + 1, AffineExpr())
                 : s.DivModTerm(AtomKind::kFloorDiv, inside, c, AffineExpr());
  return Set(out, s.Sum(outside, rest));
}

// (g*y + r) floordiv (g*c') -> (y + r floordiv g) floordiv c'.
bool AffineSimplifier::Rules::FloorDivCommonFactor(Self& s, const DivMod& p,
                                                   Lin& out) {
  const int64_t g = s.forms_.CommonFactor(p.x, p.c);
  if (g <= 1) return false;
  Lin reduced = s.forms_.DivideTerms(p.x, g);
  return Set(out,
             Fresh(s.FloorDivBy(reduced, p.c / g, p.depth + 1, AffineExpr())));
}

// (y + z) floordiv c -> y floordiv c  if g | y, g | c and z in [0, g).
bool AffineSimplifier::Rules::FloorDivDropSmallPart(Self& s, const DivMod& p,
                                                    Lin& out) {
  Lin multiple, small;
  if (!SplitSmallPart(s, p.x, p.c, multiple, small)) return false;
  return Set(out,
             Fresh(s.FloorDivBy(multiple, p.c, p.depth + 1, AffineExpr())));
}

// (y mod (c*b)) floordiv c -> (y floordiv c) mod b: digits of y are written
// as "floordiv, then mod", so that they recombine (sum rules).
bool AffineSimplifier::Rules::FloorDivOfMod(Self& s, const DivMod& p,
                                            Lin& out) {
  LinearForms& f = s.forms_;
  if (!f.IsAtom(p.x) || f.KindAt(p.x, 0) != AtomKind::kMod) return false;
  const Atom inner = f.atom(f.TermAt(p.x, 0).atom);
  if (inner.divisor % p.c != 0) return false;
  const Lin y = f.ArgOf(inner);
  Lin quotient = s.FloorDivBy(y, p.c, p.depth + 1, AffineExpr());
  return Set(out, Fresh(s.ModBy(quotient, inner.divisor / p.c, p.depth + 1,
                                AffineExpr())));
}

// (z + y floordiv a) floordiv c -> (z*a + y) floordiv (a*c): for integer z,
// z + floor(y/a) = floor((z*a + y)/a), and floor(floor(q)/c) = floor(q/c)
// for c > 0, so both sides are floor((z*a + y)/(a*c)). Exact for every
// integer z (any linear form: variables, divisions, the constant) and
// a, c > 0; it only needs z*a, a*c and the range of z*a + y to fit in int64
// (else the rule declines).
bool AffineSimplifier::Rules::FloorDivOfFloorDiv(Self& s, const DivMod& p,
                                                 Lin& out) {
  Lin merged;
  int64_t a = 0;
  if (!MergeFloorDivTerm(s, p.x, merged, a)) return false;
  const std::optional<int64_t> ac = CheckedMul(a, p.c);
  if (!ac) return false;
  return Set(out, Fresh(s.FloorDivBy(merged, *ac, p.depth + 1, AffineExpr())));
}

bool AffineSimplifier::Rules::MergeFloorDivTerm(Self& s, const Lin& x,
                                                Lin& merged, int64_t& a) {
  LinearForms& f = s.forms_;
  // A term with coefficient 1, else one with -1: z - y floordiv a ==
  // z + (a - 1 - y) floordiv a (-floor(q) == ceil(-q)).
  for (const int64_t sign : {1, -1}) {
    for (size_t i = 0; i < x.size; ++i) {
      if (f.KindAt(x, i) != AtomKind::kFloorDiv ||
          f.TermAt(x, i).coeff != sign) {
        continue;
      }
      const Atom& inner = f.atom(f.TermAt(x, i).atom);
      a = inner.divisor;
      const LinearForms::Flags flags_before = f.flags();
      f.set_overflow(false);
      Lin y = f.ArgOf(inner);
      if (sign < 0) y = f.Add(f.Scale(y, -1), f.Constant(a - 1));
      // Through the sum rules: z*a may cancel a digit of y (for z = -(d0
      // floordiv 5), a = 5 and y = d0 + 4, merged is d0 mod 5 + 4, in
      // [4, 8], where the plain sum's bounds are [-2, 15]); the looser
      // bounds left a division that only the next Simplify removed.
      merged = s.Sum(f.Scale(f.Without(x, i, i), a), y);
      const bool fits = !f.overflow() &&
                        merged.bounds.lower != Interval::kMin &&
                        merged.bounds.upper != Interval::kMax;
      f.RestoreFlags(flags_before);
      return fits;
    }
  }
  return false;
}

// ---------------------------------------------------------------------------
// Mod rules.

// x mod 1 -> 0.
bool AffineSimplifier::Rules::ModByOne(Self& s, const DivMod& p, Lin& out) {
  if (p.c != 1) return false;
  return Set(out, s.forms_.Constant(0));
}

// x mod c -> x - q*c  if x in [q*c, q*c + c - 1].
bool AffineSimplifier::Rules::ModOfOnePeriod(Self& s, const DivMod& p,
                                             Lin& out) {
  const Interval& b = p.x.bounds;
  if (!b.IsFeasible() || b.lower == Interval::kMin ||
      b.upper == Interval::kMax) {
    return false;
  }
  const int64_t q = FloorDiv(b.lower, p.c);
  if (q != FloorDiv(b.upper, p.c)) return false;
  // -q*c must fit too: x in [MIN + 1, MIN + 5] mod 8 has q*c = INT64_MIN.
  const std::optional<int64_t> qc = CheckedMul(q, p.c);
  const std::optional<int64_t> minus_qc = qc ? CheckedNeg(*qc) : std::nullopt;
  if (!minus_qc) return false;
  if (q == 0) return Set(out, p.x);
  return Set(out, s.Sum(p.x, s.forms_.Constant(*minus_qc)));
}

// (k*c*y + z) mod c -> z mod c, the constant reduced toward zero (keeps
// `(d1 - 3) mod 7` as written).
bool AffineSimplifier::Rules::ModMultiplesLeave(Self& s, const DivMod& p,
                                                Lin& out) {
  LinearForms& f = s.forms_;
  const Lin& x = p.x;
  const int64_t c = p.c;
  size_t kept = 0;
  for (size_t i = 0; i < x.size; ++i) kept += f.TermAt(x, i).coeff % c != 0;
  if (kept == 0) return Set(out, f.Constant(FloorMod(x.constant, c)));
  const bool moved = kept != x.size || x.constant % c != x.constant;
  if (!moved) return false;
  Lin inside = x;
  inside.constant = x.constant % c;
  inside.source = AffineExpr();
  if (kept < x.size) {
    inside = f.Start(x.constant % c);
    for (size_t i = 0; i < x.size; ++i) {
      const Term t = f.TermAt(x, i);
      if (t.coeff % c != 0) f.Append(inside, t);
    }
  }
  f.ComputeBounds(inside);
  // Past the depth limit the rest stays one atom.
  if (p.depth >= kMaxDepth) {
    return Set(out, s.DivModTerm(AtomKind::kMod, inside, c, AffineExpr()));
  }
  return Set(out, s.ModBy(inside, c, p.depth + 1, AffineExpr()));
}

// (g*y + r) mod (g*c') -> g*((y + r floordiv g) mod c') + r mod g.
bool AffineSimplifier::Rules::ModCommonFactor(Self& s, const DivMod& p,
                                              Lin& out) {
  LinearForms& f = s.forms_;
  const int64_t g = f.CommonFactor(p.x, p.c);
  if (g <= 1) return false;
  Lin reduced = f.DivideTerms(p.x, g);
  Lin mod = s.ModBy(reduced, p.c / g, p.depth + 1, AffineExpr());
  return Set(out,
             s.Sum(f.Scale(mod, g), f.Constant(FloorMod(p.x.constant, g))));
}

// (y + z) mod c -> y mod c + z  if g | y, g | c and z in [0, g).
bool AffineSimplifier::Rules::ModSmallPartLeaves(Self& s, const DivMod& p,
                                                 Lin& out) {
  Lin multiple, small;
  if (!SplitSmallPart(s, p.x, p.c, multiple, small)) return false;
  return Set(out,
             s.Sum(s.ModBy(multiple, p.c, p.depth + 1, AffineExpr()), small));
}

// (m*(y mod a) + z) mod c -> (m*y + z) mod c  if c | a.
bool AffineSimplifier::Rules::ModOfMod(Self& s, const DivMod& p, Lin& out) {
  LinearForms& f = s.forms_;
  for (size_t i = 0; i < p.x.size; ++i) {
    const Atom& inner = f.atom(f.TermAt(p.x, i).atom);
    if (inner.kind != AtomKind::kMod || inner.divisor % p.c != 0) continue;
    const Lin rest = f.Without(p.x, i, i);
    const Lin y = f.Scale(f.ArgOf(inner), f.TermAt(p.x, i).coeff);
    return Set(out, s.ModBy(s.Sum(rest, y), p.c, p.depth + 1, AffineExpr()));
  }
  return false;
}

// (z + y floordiv a) mod c -> ((z*a + y) floordiv a) mod c: the numerator
// as one digit of the linear index z*a + y (see floordiv-of-floordiv), so
// that the digit pairs with the other digits of that index in a sum
// (sum-mod-plus-quotient, sum-floordiv-plus-mod). Only when z has a
// variable term (a constant z reads better where it is).
bool AffineSimplifier::Rules::ModOfFloorDivSum(Self& s, const DivMod& p,
                                               Lin& out) {
  LinearForms& f = s.forms_;
  if (p.x.size < 2) return false;
  Lin merged;
  int64_t a = 0;
  if (!MergeFloorDivTerm(s, p.x, merged, a)) return false;
  // The digit is kept as written, z*a + y over a (the sum rules pair it
  // with the index's other digits), so it must be what simplifying it again
  // gives back: with a constant of a or more, `(d1 * 10 - 10) floordiv 9`
  // would become `(d1 * 10 - 1) floordiv 9 - 1` the next time.
  if (merged.constant / a != 0) return false;
  const Lin digit = s.DivModTerm(AtomKind::kFloorDiv, merged, a, AffineExpr());
  if (!f.IsAtom(digit)) return false;
  // What the next Simplify does with the digit: the floordiv rules rewrite
  // it. When the rewriting still has a floordiv term of coefficient +-1 (the
  // digit's own z + y floordiv a, split again), this rule merges it back
  // and the digit is a fixed point; else (with d0 in [5, 6],
  // `(d0 + d1 * 2 + 1) floordiv 2` is d1 + 3) the mod applies to the
  // rewriting now.
  const Lin rewritten = s.FloorDivBy(merged, a, p.depth + 1, AffineExpr());
  if (!f.IsAtom(rewritten, f.TermAt(digit, 0).atom) &&
      !HasUnitFloorDivTerm(f, rewritten)) {
    return Set(out, s.ModBy(rewritten, p.c, p.depth + 1, AffineExpr()));
  }
  // Through the mod rules: the digit may fit in one period of c.
  Lin result = s.ModBy(digit, p.c, p.depth + 1, AffineExpr());
  // Then the mod is gone (digit + k) and the digit stands alone, where
  // nothing pairs with it: the next Simplify applies the floordiv rules to
  // it (`(d1 * 5 - s0 * 4 + 4) floordiv 5` splits off d1), so apply them
  // now.
  if (result.size == 1 && f.TermAt(result, 0).coeff == 1 &&
      f.TermAt(result, 0).atom == f.TermAt(digit, 0).atom) {
    result = s.Sum(rewritten, f.Constant(result.constant));
  }
  return Set(out, result);
}

bool AffineSimplifier::Rules::HasUnitFloorDivTerm(LinearForms& f,
                                                  const Lin& x) {
  for (size_t i = 0; i < x.size; ++i) {
    const int64_t coeff = f.TermAt(x, i).coeff;
    if (f.KindAt(x, i) == AtomKind::kFloorDiv && (coeff == 1 || coeff == -1)) {
      return true;
    }
  }
  return false;
}

bool AffineSimplifier::Rules::SplitSmallPart(Self& s, const Lin& x, int64_t c,
                                             Lin& multiple, Lin& small) {
  LinearForms& f = s.forms_;
  const size_t n = x.size;
  if (n < 2) return false;
  // Terms by decreasing |coefficient|, ties in term order: an insertion sort,
  // since n is small (std::stable_sort allocates a buffer).
  llvm::SmallVector<std::pair<uint64_t, size_t>, 8> order;  // (|coeff|, term)
  for (size_t i = 0; i < n; ++i) {
    const int64_t coeff = f.TermAt(x, i).coeff;
    const uint64_t magnitude =
        coeff < 0 ? 0 - static_cast<uint64_t>(coeff) : coeff;
    size_t j = order.size();
    order.push_back({magnitude, i});
    for (; j > 0 && order[j - 1].first < magnitude; --j)
      order[j] = order[j - 1];
    order[j] = {magnitude, i};
  }
  // The first p terms (largest coefficients) share the factor g with c; the
  // rest must span less than one multiple of g.
  int64_t prefix_gcd = c;
  for (size_t p = 1; p < n; ++p) {
    prefix_gcd = Gcd(prefix_gcd, f.TermAt(x, order[p - 1].second).coeff);
    if (prefix_gcd <= 1) return false;
    // Checked: a saturated partial sum is no bound of the exact values.
    std::optional<Interval> range = Interval::Point(x.constant);
    for (size_t q = p; q < n && range; ++q) {
      const Term& t = f.TermAt(x, order[q].second);
      const std::optional<Interval> term =
          CheckedMul(f.atom(t.atom).bounds, t.coeff);
      range = term ? CheckedAdd(*range, *term) : std::nullopt;
    }
    if (!range || range->IsEmpty()) continue;
    const Interval r = *range;
    const int64_t base = FloorDiv(r.lower, prefix_gcd);
    if (FloorDiv(r.upper, prefix_gcd) != base) continue;
    const std::optional<int64_t> shift = CheckedMul(base, prefix_gcd);
    const std::optional<int64_t> small_constant =
        shift ? CheckedSub(x.constant, *shift) : std::nullopt;
    if (!small_constant) continue;
    llvm::SmallVector<bool, 8> in_prefix(n, false);
    for (size_t q = 0; q < p; ++q) in_prefix[order[q].second] = true;
    multiple = f.Start(*shift);
    for (size_t q = 0; q < n; ++q) {
      if (in_prefix[q]) f.Append(multiple, f.TermAt(x, q));
    }
    small = f.Start(*small_constant);  // In [0, g) by construction.
    for (size_t q = 0; q < n; ++q) {
      if (!in_prefix[q]) f.Append(small, f.TermAt(x, q));
    }
    f.ComputeBounds(multiple);
    f.ComputeBounds(small);
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------
// Sum rules. `x floordiv c` here is the simplified quotient Q, so
// (y floordiv 4) mod 4 and y floordiv 16 pair up as digits of y floordiv 4.

// (x mod c)*k + Q*(c*k) -> x*k and
// (x mod c)*k + (Q mod m)*(c*k) -> (x mod (c*m))*k, Q = x floordiv c.
bool AffineSimplifier::Rules::ModPlusQuotient(Self& s, const Lin& lin,
                                              Lin& out) {
  LinearForms& f = s.forms_;
  for (size_t i = 0; i < lin.size; ++i) {
    if (f.KindAt(lin, i) != AtomKind::kMod) continue;
    const int32_t mod_atom = f.TermAt(lin, i).atom;
    const int64_t c = f.atom(mod_atom).divisor, k = f.TermAt(lin, i).coeff;
    const std::optional<int64_t> kc = CheckedMul(k, c);
    if (!kc) continue;
    // Only a floordiv or mod term with coefficient k*c can pair with it;
    // look for one before computing the quotient.
    bool has_partner = false;
    for (size_t j = 0; j < lin.size && !has_partner; ++j) {
      const AtomKind kind_j = f.KindAt(lin, j);
      has_partner = j != i && f.TermAt(lin, j).coeff == *kc &&
                    (kind_j == AtomKind::kFloorDiv || kind_j == AtomKind::kMod);
    }
    if (!has_partner) continue;
    const std::optional<int32_t> quotient = s.QuotientAtom(mod_atom);
    if (!quotient) continue;
    const Lin x = f.ArgOf(mod_atom);
    for (size_t j = 0; j < lin.size; ++j) {
      if (j == i || f.TermAt(lin, j).coeff != *kc) continue;
      const int32_t aj = f.TermAt(lin, j).atom;
      Lin replacement;
      if (aj == *quotient) {
        replacement = f.Scale(x, k);
      } else if (f.atom(aj).kind == AtomKind::kMod &&
                 f.IsAtom(f.ArgOf(aj), *quotient)) {
        const std::optional<int64_t> cm = CheckedMul(c, f.atom(aj).divisor);
        if (!cm) continue;
        replacement = f.Scale(s.ModBy(x, *cm, kMaxDepth - 2, AffineExpr()), k);
      } else {
        continue;
      }
      uint8_t kinds;
      return Set(out, f.AddWithout(lin, i, j, replacement, kinds));
    }
  }
  return false;
}

// (x floordiv c)*(c*k) + R*k -> x*k, R the simplified x mod c: the mod term
// may be written on another numerator that agrees with x modulo c
// ((d1*128 + d0) mod 64 is d0 mod 64).
bool AffineSimplifier::Rules::FloorDivPlusMod(Self& s, const Lin& lin,
                                              Lin& out) {
  LinearForms& f = s.forms_;
  for (size_t i = 0; i < lin.size; ++i) {
    if (f.KindAt(lin, i) != AtomKind::kFloorDiv) continue;
    const int32_t fd = f.TermAt(lin, i).atom;
    const int64_t c = f.atom(fd).divisor, m = f.TermAt(lin, i).coeff;
    if (m % c != 0) continue;
    const int64_t k = m / c;
    // Only a mod term by a divisor of c with coefficient k can pair with it;
    // look for one before computing the remainder.
    bool has_partner = false;
    for (size_t j = 0; j < lin.size && !has_partner; ++j) {
      has_partner = f.KindAt(lin, j) == AtomKind::kMod &&
                    f.TermAt(lin, j).coeff == k &&
                    c % f.atom(f.TermAt(lin, j).atom).divisor == 0;
    }
    if (!has_partner) continue;
    const std::optional<int32_t> remainder = s.RemainderAtom(fd);
    if (!remainder) continue;
    for (size_t j = 0; j < lin.size; ++j) {
      if (f.TermAt(lin, j).atom != *remainder || f.TermAt(lin, j).coeff != k) {
        continue;
      }
      uint8_t kinds;
      return Set(out, f.AddWithout(lin, i, j, f.Scale(f.ArgOf(fd), k), kinds));
    }
  }
  return false;
}

// x*k - (x floordiv c)*(c*k) -> (x mod c)*k: all of x's terms times -k are
// present besides the floordiv term.
bool AffineSimplifier::Rules::MinusFloorDivMultiple(Self& s, const Lin& lin,
                                                    Lin& out) {
  LinearForms& f = s.forms_;
  for (size_t i = 0; i < lin.size; ++i) {
    if (f.KindAt(lin, i) != AtomKind::kFloorDiv) continue;
    const int32_t fd = f.TermAt(lin, i).atom;
    const int64_t c = f.atom(fd).divisor, m = f.TermAt(lin, i).coeff;
    if (m % c != 0) continue;
    const Lin x = f.ArgOf(fd);
    if (x.size == 0) continue;
    const int64_t neg_k = -(m / c);
    bool all_present = true;
    for (size_t p = 0; p < x.size && all_present; ++p) {
      const Term& xt = f.TermAt(x, p);
      const std::optional<int64_t> want = CheckedMul(xt.coeff, neg_k);
      bool found = false;
      for (size_t q = 0; want && q < lin.size; ++q) {
        if (f.TermAt(lin, q).atom == xt.atom) {
          found = f.TermAt(lin, q).coeff == *want;
          break;
        }
      }
      all_present = found;
    }
    if (!all_present) continue;
    // lin - (x*(-k) + (x floordiv c)*m) + (x mod c)*(-k) + x.constant*(-k).
    llvm::SmallVector<Term, 8> removed_terms;
    for (size_t p = 0; p < x.size; ++p) {
      removed_terms.push_back(
          {f.TermAt(x, p).coeff * neg_k, f.TermAt(x, p).atom});
    }
    removed_terms.push_back({m, f.TermAt(lin, i).atom});
    std::sort(removed_terms.begin(), removed_terms.end(),
              [&](const Term& a, const Term& b) {
                return f.AtomLess(a.atom, b.atom);
              });
    Lin removed = f.Start(f.MulOrFlag(x.constant, neg_k));
    for (const Term& t : removed_terms) f.Append(removed, t);
    f.ComputeBounds(removed);
    Lin rest = f.Add(lin, f.Scale(removed, -1));
    Lin mod = f.Scale(s.ModBy(x, c, 0, AffineExpr()), neg_k);
    return Set(out, f.Add(rest, mod));
  }
  return false;
}

// ---------------------------------------------------------------------------
// Constraint rules: each rewrites `lin in interval` in place to an
// equivalent constraint; the driver decides it once the interval is empty
// or the form constant.

// Sets k to `y in [lo, hi]` (exact 128-bit bounds). Bounds past int64 are
// clamped by ConstraintBoundsInInt64, which is exact only for a y whose
// values fit in int64; for another y the constraint is flagged as overflow
// (and kept as it is).
bool AffineSimplifier::Rules::SetExactBounds(Self& s, Constraint& k,
                                             const Lin& y, __int128 lo,
                                             __int128 hi) {
  const bool fits = lo >= Interval::kMin && lo <= Interval::kMax &&
                    hi >= Interval::kMin && hi <= Interval::kMax;
  if (!fits) {
    const std::optional<Interval> terms = s.forms_.CheckedTermsRange(y);
    if (!terms || !CheckedAdd(*terms, Interval::Point(y.constant))) {
      s.forms_.set_overflow(true);
      return true;
    }
  }
  k.interval = ConstraintBoundsInInt64(lo, hi);
  k.lin = y;
  return true;
}

// y + k in [lo, hi] -> y in [lo - k, hi - k]. A bound that leaves int64 is
// exact only for a y whose values fit in int64 (ConstraintBoundsInInt64: y +
// 6 in [MIN + 3, MIN + 3] is empty, -d0 - 1 in [MAX - 7, MAX] keeps d0 =
// MIN); otherwise it is flagged as overflow, and the constraint is kept as
// it is.
bool AffineSimplifier::Rules::MoveConstant(Self& s, Constraint& k) {
  if (k.lin.constant == 0) return false;
  Lin y = k.lin;
  y.constant = 0;
  y.source = AffineExpr();
  return SetExactBounds(s, k, y, __int128{k.interval.lower} - k.lin.constant,
                        __int128{k.interval.upper} - k.lin.constant);
}

// g*y in [lo, hi] <=> y in [ceil(lo/g), floor(hi/g)], with g's sign making
// y's first coefficient positive (for g < 0 the bounds swap). Only g = -1
// can take a quotient past int64 (-INT64_MIN); as in MoveConstant, that is
// exact for a y whose values fit in int64, else the constraint is kept.
//
// When every coefficient is INT64_MIN their gcd is 2^63, which int64 holds
// only as g = INT64_MIN (Gcd gives 2^62, and dividing by it would leave a
// factor 2 that the next Simplify divides out).
bool AffineSimplifier::Rules::DivideCommonFactor(Self& s, Constraint& k) {
  int64_t g = s.forms_.CommonFactor(k.lin, 0);
  if (s.forms_.TermAt(k.lin, 0).coeff < 0) g = -g;
  bool all_int64_min = k.lin.size > 0;
  for (size_t i = 0; i < k.lin.size; ++i) {
    all_int64_min &= s.forms_.TermAt(k.lin, i).coeff == Interval::kMin;
  }
  if (all_int64_min) g = Interval::kMin;
  if (g == 1) return false;
  const Interval iv = k.interval;
  const __int128 lo = g > 0 ? CeilDiv128(iv.lower, g) : CeilDiv128(iv.upper, g);
  const __int128 hi =
      g > 0 ? FloorDiv128(iv.upper, g) : FloorDiv128(iv.lower, g);
  Lin y = s.forms_.DivideTerms(k.lin, g);  // The constant is 0.
  y.source = AffineExpr();
  return SetExactBounds(s, k, y, lo, hi);
}

// y in I -> true  if range(y) is inside I (the range from y's terms, which
// earlier constraints may have tightened).
bool AffineSimplifier::Rules::HoldsOnRange(Self& s, Constraint& k) {
  s.forms_.ComputeBounds(k.lin);
  if (!k.interval.Contains(k.lin.bounds)) return false;
  k.verdict = NormalConstraint::Kind::kAlwaysTrue;
  return true;
}

// y in I -> y in I & range(y) (empty: infeasible).
bool AffineSimplifier::Rules::TightenToRange(Self&, Constraint& k) {
  const Interval tight = k.interval.Intersect(k.lin.bounds);
  if (tight == k.interval) return false;
  k.interval = tight;
  return true;
}

// y floordiv c in [lo, hi] <=> y in [lo*c, hi*c + c - 1].
bool AffineSimplifier::Rules::UnwrapFloorDiv(Self& s, Constraint& k) {
  if (!s.forms_.IsAtom(k.lin) ||
      s.forms_.KindAt(k.lin, 0) != AtomKind::kFloorDiv) {
    return false;
  }
  const Atom& atom = s.forms_.atom(s.forms_.TermAt(k.lin, 0).atom);
  const int64_t c = atom.divisor;
  // In 128 bits: a saturated lo*c plus c - 1 was a bound c - 1 too far.
  return SetExactBounds(s, k, s.forms_.ArgOf(atom),
                        __int128{k.interval.lower} * c,
                        __int128{k.interval.upper} * c + (c - 1));
}

// ---------------------------------------------------------------------------
// The catalog and the test hook.

std::vector<AffineSimplifier::RuleInfo> AffineSimplifier::RuleCatalog() {
  std::vector<RuleInfo> rules;
  for (const auto& r : Rules::kFloorDivRules) {
    rules.push_back({"floordiv", r.name, r.contract});
  }
  for (const auto& r : Rules::kModRules) {
    rules.push_back({"mod", r.name, r.contract});
  }
  for (const auto& r : Rules::kSumRules) {
    rules.push_back({"sum", r.name, r.contract});
  }
  for (const auto& r : Rules::kConstraintRules) {
    rules.push_back({"constraint", r.name, r.contract});
  }
  return rules;
}

void AffineSimplifier::CountRuleFirings(std::map<std::string, int>* counts) {
  rule_counts = counts;
  hooks_on = rule_counts != nullptr || disabled_rules != nullptr;
}

void AffineSimplifier::DisableRulesForTest(const std::set<std::string>* names) {
  disabled_rules = names;
  hooks_on = rule_counts != nullptr || disabled_rules != nullptr;
}

}  // namespace xla_index
