#include "xla_index/core/checked_affine_expr.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <numeric>
#include <optional>
#include <string>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/raw_ostream.h"

namespace xla_index {
namespace {

using mlir::AffineBinaryOpExpr;
using mlir::AffineConstantExpr;
using mlir::AffineExpr;
using mlir::AffineExprKind;

absl::Status DoesNotFit(int64_t a, absl::string_view op, int64_t b) {
  return absl::OutOfRangeError(
      absl::StrCat(a, " ", op, " ", b, " does not fit in int64"));
}

std::optional<int64_t> ConstantValue(AffineExpr e) {
  if (e.getKind() != AffineExprKind::Constant) return std::nullopt;
  return mlir::cast<AffineConstantExpr>(e).getValue();
}

// Whether `value` is one of e's constants.
bool HasConstant(AffineExpr e, int64_t value) {
  bool found = false;
  e.walk([&](AffineExpr sub) { found |= ConstantValue(sub) == value; });
  return found;
}

AffineExpr Constant(int64_t value, AffineExpr like) {
  return mlir::getAffineConstantExpr(value, like.getContext());
}

// `e` if it is a binary expression of `kind` (one kind query: this and
// IsSymbolicOrConstant run on every operand of every operation).
AffineBinaryOpExpr AsBinary(AffineExpr e, AffineExprKind kind) {
  return e.getKind() == kind ? mlir::cast<AffineBinaryOpExpr>(e)
                             : AffineBinaryOpExpr(nullptr);
}

// `e` as (x, c) when it is x * c with a constant c.
std::optional<std::pair<AffineExpr, int64_t>> AsScaled(AffineExpr e) {
  if (AffineBinaryOpExpr mul = AsBinary(e, AffineExprKind::Mul)) {
    if (std::optional<int64_t> c = ConstantValue(mul.getRHS())) {
      return std::make_pair(mul.getLHS(), *c);
    }
  }
  return std::nullopt;
}

// AffineExpr::isSymbolicOrConstant (no dim anywhere), walking right
// operands first and the left spine in a loop: a left-deep sum has its
// newest term on the right, so a dim there answers at once instead of after
// a walk down the whole sum (which made building a long sum quadratic).
bool IsSymbolicOrConstant(AffineExpr e) {
  while (true) {
    switch (e.getKind()) {
      case AffineExprKind::DimId:
        return false;
      case AffineExprKind::SymbolId:
      case AffineExprKind::Constant:
        return true;
      default:
        break;
    }
    auto binary = mlir::cast<AffineBinaryOpExpr>(e);
    if (!IsSymbolicOrConstant(binary.getRHS())) return false;
    e = binary.getLHS();
  }
}

// `e` is a sum whose right operand is a constant.
bool EndsInConstant(AffineExpr e) {
  AffineBinaryOpExpr sum = AsBinary(e, AffineExprKind::Add);
  return sum && mlir::isa<AffineConstantExpr>(sum.getRHS());
}

// MLIR 22 orders the operands of a sum or product of two dims (two
// symbols) by position: d1 + d0 is built as d0 + d1.
bool OutOfOrder(AffineExpr lhs, AffineExpr rhs) {
  const AffineExprKind kind = lhs.getKind();
  if (kind != rhs.getKind()) return false;
  if (kind == AffineExprKind::DimId) {
    return mlir::cast<mlir::AffineDimExpr>(lhs).getPosition() >
           mlir::cast<mlir::AffineDimExpr>(rhs).getPosition();
  }
  if (kind == AffineExprKind::SymbolId) {
    return mlir::cast<mlir::AffineSymbolExpr>(lhs).getPosition() >
           mlir::cast<mlir::AffineSymbolExpr>(rhs).getPosition();
  }
  return false;
}

// |v| as an unsigned (|INT64_MIN| is 2^63).
uint64_t Magnitude(int64_t v) {
  return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

// MLIR's AffineExpr::getLargestKnownDivisor, which its floordiv and mod folds
// consult, without its wrap and its crash. A product's divisor is the
// product of its factors' divisors; when that exceeds 2^63, MLIR's int64
// product wraps (2 * 2^63 becomes 0, a multiple of every divisor, so
// `((d0 * 2) * INT64_MIN) mod 3` folds to 0) and every nonzero value of the
// product leaves int64: an error here, as INT64_MIN % -1 in the
// floordiv/ceildiv case is. (A product of exactly 2^63 is INT64_MIN, whose
// divisors are those of 2^63.)
absl::StatusOr<int64_t> KnownDivisor(AffineExpr e) {
  switch (e.getKind()) {
    case AffineExprKind::DimId:
    case AffineExprKind::SymbolId:
      return 1;
    case AffineExprKind::Constant: {
      uint64_t v = mlir::cast<AffineConstantExpr>(e).getValue();
      return static_cast<int64_t>(static_cast<int64_t>(v) < 0 ? 0 - v : v);
    }
    default:
      break;
  }
  auto binary = mlir::cast<AffineBinaryOpExpr>(e);
  XI_ASSIGN_OR_RETURN(int64_t lhs, KnownDivisor(binary.getLHS()));
  switch (e.getKind()) {
    case AffineExprKind::FloorDiv:
    case AffineExprKind::CeilDiv: {
      std::optional<int64_t> rhs = ConstantValue(binary.getRHS());
      if (!rhs || *rhs == 0) return 1;
      if (*rhs == -1 && lhs == std::numeric_limits<int64_t>::min()) {
        return absl::OutOfRangeError(
            "-9223372036854775808 / -1 does not fit in int64");
      }
      return lhs % *rhs == 0 ? lhs / *rhs : 1;
    }
    default:
      break;
  }
  XI_ASSIGN_OR_RETURN(int64_t rhs, KnownDivisor(binary.getRHS()));
  if (e.getKind() == AffineExprKind::Mul) {
    unsigned __int128 magnitude =
        static_cast<unsigned __int128>(Magnitude(lhs)) * Magnitude(rhs);
    if (magnitude > Magnitude(std::numeric_limits<int64_t>::min())) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << e << " leaves int64 wherever it is not 0 (a multiple of "
         << Magnitude(lhs) << " * " << Magnitude(rhs) << ")";
      return absl::OutOfRangeError(text);
    }
    return static_cast<int64_t>(static_cast<uint64_t>(magnitude));
  }
  return static_cast<int64_t>(std::gcd(Magnitude(lhs), Magnitude(rhs)));
}

// An expression as a sum of coefficient * atom plus a constant, in 128-bit
// arithmetic; atoms are the operands that are neither sums nor products
// with a constant (dims, symbols, divisions, semi-affine products),
// compared by identity (MLIR uniques them). `x mod c` (c >= 1) is
// x - c * (x floordiv c), so a floordiv atom is named by its numerator and
// divisor, whether or not MLIR has built the node. False when a 128-bit
// operation overflows.
using Int128 = __int128;
struct Flat {
  // (the atom, or a floordiv's numerator; the floordiv's divisor, or 0).
  using Atom = std::pair<const void*, int64_t>;
  llvm::SmallVector<std::pair<Atom, Int128>, 8> terms;
  Int128 constant = 0;
};
bool AddTerm(Flat::Atom atom, Int128 scale, Flat& out) {
  for (auto& [known, coefficient] : out.terms) {
    if (known == atom) {
      return !__builtin_add_overflow(coefficient, scale, &coefficient);
    }
  }
  out.terms.push_back({atom, scale});
  return true;
}
bool Flatten(AffineExpr e, Int128 scale, Flat& out) {
  if (std::optional<int64_t> c = ConstantValue(e)) {
    Int128 term;
    return !__builtin_mul_overflow(scale, Int128{*c}, &term) &&
           !__builtin_add_overflow(out.constant, term, &out.constant);
  }
  if (AffineBinaryOpExpr sum = AsBinary(e, AffineExprKind::Add)) {
    return Flatten(sum.getLHS(), scale, out) &&
           Flatten(sum.getRHS(), scale, out);
  }
  if (auto scaled = AsScaled(e)) {
    Int128 inner;
    return !__builtin_mul_overflow(scale, Int128{scaled->second}, &inner) &&
           Flatten(scaled->first, inner, out);
  }
  for (AffineExprKind kind : {AffineExprKind::FloorDiv, AffineExprKind::Mod}) {
    AffineBinaryOpExpr division = AsBinary(e, kind);
    std::optional<int64_t> c =
        division ? ConstantValue(division.getRHS()) : std::nullopt;
    if (!c || *c < 1) continue;
    const Flat::Atom quotient{division.getLHS().getAsOpaquePointer(), *c};
    if (kind == AffineExprKind::FloorDiv) return AddTerm(quotient, scale, out);
    Int128 quotient_scale;
    return !__builtin_mul_overflow(scale, Int128{-*c}, &quotient_scale) &&
           Flatten(division.getLHS(), scale, out) &&
           AddTerm(quotient, quotient_scale, out);
  }
  return AddTerm({e.getAsOpaquePointer(), 0}, scale, out);
}
bool SameValue(Flat a, Flat b) {
  auto normalize = [](Flat& f) {
    llvm::erase_if(f.terms, [](const auto& t) { return t.second == 0; });
    llvm::sort(f.terms,
               [](const auto& x, const auto& y) { return x.first < y.first; });
  };
  normalize(a);
  normalize(b);
  return a.constant == b.constant && a.terms == b.terms;
}

// The node MLIR builds when none of the folds above applies. MLIR is asked
// to build it; when it gives back something else (MLIR 22 also reorders
// some sums and products, e.g. (d0 + s0) + (d1 floordiv 7) * 5 becomes
// (d0 + (d1 floordiv 7) * 5) + s0), that result is kept only if it is a
// sum or product with exactly the value of `lhs kind rhs` (compared as
// 128-bit linear combinations of the same atoms, so a wrapped constant
// shows); anything else is an error, never a guess.
absl::StatusOr<AffineExpr> Node(AffineExprKind kind, AffineExpr lhs,
                                AffineExpr rhs) {
  AffineExpr built = mlir::getAffineBinaryOpExpr(kind, lhs, rhs);
  AffineBinaryOpExpr node = AsBinary(built, kind);
  if (node && node.getLHS() == lhs && node.getRHS() == rhs) return built;
  Flat expected, actual;
  bool flattened = Flatten(built, 1, actual);
  if (kind == AffineExprKind::Add) {
    flattened =
        flattened && Flatten(lhs, 1, expected) && Flatten(rhs, 1, expected);
  } else if (std::optional<int64_t> c = ConstantValue(rhs);
             kind == AffineExprKind::Mul && c) {
    flattened = flattened && Flatten(lhs, *c, expected);
  } else {
    flattened = false;
  }
  if (flattened && SameValue(expected, actual)) return built;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "MLIR simplified an affine expression in a way xla_index cannot "
        "check for int64 overflow: "
     << lhs << " and " << rhs << " became " << built;
  return absl::InternalError(text);
}

// An answer to IsSymbolicOrConstant known beforehand: kUnknown, or 0/1.
constexpr int8_t kUnknown = -1;
bool Symbolic(AffineExpr e, int8_t known) {
  return known == kUnknown ? IsSymbolicOrConstant(e) : known != 0;
}

absl::StatusOr<AffineExpr> Add(AffineExpr lhs, AffineExpr rhs,
                               int8_t lhs_symbolic = kUnknown,
                               int8_t rhs_symbolic = kUnknown);
absl::StatusOr<AffineExpr> Mul(AffineExpr lhs, AffineExpr rhs);
absl::StatusOr<AffineExpr> Div(AffineExprKind kind, AffineExpr lhs,
                               AffineExpr rhs);

absl::StatusOr<AffineExpr> AddConstant(AffineExpr lhs, int64_t a, int64_t b) {
  std::optional<int64_t> sum = CheckedAdd(a, b);
  if (!sum) return DoesNotFit(a, "+", b);
  return Add(lhs, Constant(*sum, lhs));
}

// MLIR rewrites e + ((e floordiv q) * q) * -1 and e + (e floordiv q) * -q to
// e mod q. Its first pattern checks only that the right operand's right
// side is -1, not that it is a product, so it also rewrites
// e + ((e floordiv q) * q - 1) (a wrong map) and e + ((e floordiv q) * q)
// mod -1. Here the sum is built as (e + (e floordiv q) * q) - 1 instead,
// the modulo is refused, and floordiv/ceildiv -1 (a negation) fold as MLIR
// folds them. -q is computed as MLIR does (q * -1), checked.
// e mod q, MLIR's rewrite of e - (e floordiv q) * q; refused for a constant
// q < 1, where the rewrite would turn a sum with a value into a mod by a
// non-positive constant, which has none (MLIR's lowering rejects it).
absl::StatusOr<std::optional<AffineExpr>> ModOrRefuse(AffineExpr e,
                                                      AffineExpr q) {
  if (std::optional<int64_t> c = ConstantValue(q); c && *c < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "MLIR rewrites e - (e floordiv ", *c, ") * ", *c, " to e mod ", *c,
        ", which has no value (a mod by a constant below 1)"));
  }
  return Div(AffineExprKind::Mod, e, q);
}

absl::StatusOr<std::optional<AffineExpr>> AddAsMod(AffineExpr lhs,
                                                   AffineBinaryOpExpr rhs) {
  if (ConstantValue(rhs.getRHS()) == -1) {
    if (AffineBinaryOpExpr product =
            AsBinary(rhs.getLHS(), AffineExprKind::Mul)) {
      AffineBinaryOpExpr div =
          AsBinary(product.getLHS(), AffineExprKind::FloorDiv);
      if (!div || div.getRHS() != product.getRHS() || div.getLHS() != lhs) {
        return std::nullopt;
      }
      switch (rhs.getKind()) {
        case AffineExprKind::Add: {
          XI_ASSIGN_OR_RETURN(AffineExpr sum, Add(lhs, product));
          return Add(sum, rhs.getRHS());
        }
        case AffineExprKind::Mod:
          return absl::InvalidArgumentError(
              "MLIR cannot build e + (e floordiv q * q) mod -1 exactly");
        default:
          return ModOrRefuse(lhs, div.getRHS());
      }
    }
  }
  AffineBinaryOpExpr div = AsBinary(rhs.getLHS(), AffineExprKind::FloorDiv);
  if (rhs.getKind() != AffineExprKind::Mul || !div || div.getLHS() != lhs) {
    return std::nullopt;
  }
  AffineExpr q = div.getRHS(), factor = rhs.getRHS();
  if (std::optional<int64_t> f = ConstantValue(factor)) {
    // MLIR's -f wraps for INT64_MIN: then it would rewrite
    // e + (e floordiv MIN) * MIN, which is not e mod MIN.
    if (ConstantValue(q) !=
        (f == std::numeric_limits<int64_t>::min() ? *f : -*f)) {
      return std::nullopt;
    }
    if (*f == std::numeric_limits<int64_t>::min()) {
      return DoesNotFit(*f, "*", -1);
    }
    return ModOrRefuse(lhs, q);
  }
  XI_ASSIGN_OR_RETURN(AffineExpr negated, Mul(factor, Constant(-1, factor)));
  if (q != negated) return std::nullopt;
  return Div(AffineExprKind::Mod, lhs, q);
}

// `lhs_symbolic` and `rhs_symbolic`: IsSymbolicOrConstant of the operands
// when the caller knows it (a sum being built knows it of itself).
absl::StatusOr<AffineExpr> Add(AffineExpr lhs, AffineExpr rhs,
                               int8_t lhs_symbolic, int8_t rhs_symbolic) {
  std::optional<int64_t> lc = ConstantValue(lhs), rc = ConstantValue(rhs);
  if (lc && rc) {
    std::optional<int64_t> sum = CheckedAdd(*lc, *rc);
    if (!sum) return DoesNotFit(*lc, "+", *rc);
    return Constant(*sum, lhs);
  }
  if (lc || (!Symbolic(rhs, rhs_symbolic) && Symbolic(lhs, lhs_symbolic)) ||
      OutOfOrder(lhs, rhs)) {
    return Add(rhs, lhs);
  }
  if (rc == 0) return lhs;
  AffineBinaryOpExpr lhs_sum = AsBinary(lhs, AffineExprKind::Add);
  std::optional<int64_t> lhs_sum_constant =
      lhs_sum ? ConstantValue(lhs_sum.getRHS()) : std::nullopt;
  if (lhs_sum_constant && rc) {
    return AddConstant(lhs_sum.getLHS(), *lhs_sum_constant, *rc);
  }
  // Like terms: e * c1 + e * c2 (a bare e is e * 1).
  auto [first, c1] = AsScaled(lhs).value_or(std::make_pair(lhs, int64_t{1}));
  auto [second, c2] = AsScaled(rhs).value_or(std::make_pair(rhs, int64_t{1}));
  if (first == second) {
    std::optional<int64_t> sum = CheckedAdd(c1, c2);
    if (!sum) return DoesNotFit(c1, "+", c2);
    return Mul(first, Constant(*sum, lhs));
  }
  if (lhs_sum_constant) {
    XI_ASSIGN_OR_RETURN(AffineExpr moved, Add(lhs_sum.getLHS(), rhs));
    return Add(moved, lhs_sum.getRHS());
  }
  if (auto rhs_binary = mlir::dyn_cast<AffineBinaryOpExpr>(rhs)) {
    XI_ASSIGN_OR_RETURN(std::optional<AffineExpr> mod,
                        AddAsMod(lhs, rhs_binary));
    if (mod) return *mod;
  }
  return Node(AffineExprKind::Add, lhs, rhs);
}

absl::StatusOr<AffineExpr> Mul(AffineExpr lhs, AffineExpr rhs) {
  std::optional<int64_t> lc = ConstantValue(lhs), rc = ConstantValue(rhs);
  if (lc && rc) {
    std::optional<int64_t> product = CheckedMul(*lc, *rc);
    if (!product) return DoesNotFit(*lc, "*", *rc);
    return Constant(*product, lhs);
  }
  const bool rhs_symbolic = IsSymbolicOrConstant(rhs);
  if (!rhs_symbolic && !IsSymbolicOrConstant(lhs)) {
    return absl::InvalidArgumentError(
        "a product of two expressions with dimensions is not affine");
  }
  if (!rhs_symbolic || lc || OutOfOrder(lhs, rhs)) return Mul(rhs, lhs);
  if (rc == 1) return lhs;
  if (rc == 0) return rhs;
  if (auto scaled = AsScaled(lhs)) {
    auto [inner, c1] = *scaled;
    if (rc) {
      std::optional<int64_t> product = CheckedMul(c1, *rc);
      if (!product) return DoesNotFit(c1, "*", *rc);
      return Mul(inner, Constant(*product, lhs));
    }
    XI_ASSIGN_OR_RETURN(AffineExpr moved, Mul(inner, rhs));
    return Mul(moved, Constant(c1, lhs));
  }
  return Node(AffineExprKind::Mul, lhs, rhs);
}

// A division of two constants by a divisor < 0, which MLIR may fold (the
// parser and the simplifier accept floordiv/ceildiv by negative constants):
// the folded constant is accepted only when it is the exact quotient
// (INT64_MIN floordiv -1 is 2^63: an error, never a wrap).
absl::StatusOr<AffineExpr> DivByNonPositive(AffineExprKind kind, int64_t lc,
                                            int64_t k, AffineExpr lhs,
                                            AffineExpr rhs) {
  if (k == -1 && lc == std::numeric_limits<int64_t>::min() &&
      kind != AffineExprKind::Mod) {
    return absl::OutOfRangeError(
        absl::StrCat(lc, " / ", k, " does not fit in int64"));
  }
  AffineExpr built = mlir::getAffineBinaryOpExpr(kind, lhs, rhs);
  if (AffineBinaryOpExpr node = AsBinary(built, kind);
      node && node.getLHS() == lhs && node.getRHS() == rhs) {
    return built;
  }
  std::optional<int64_t> folded = ConstantValue(built);
  if (k != 0 && folded) {
    const int64_t exact = kind == AffineExprKind::FloorDiv  ? FloorDiv(lc, k)
                          : kind == AffineExprKind::CeilDiv ? CeilDiv(lc, k)
                                                            : FloorMod(lc, k);
    if (*folded == exact) return built;
  }
  return Node(kind, lhs, rhs);  // The error naming what MLIR built.
}

// Whether a is a multiple of k != 0 (INT64_MIN % -1 would trap).
bool IsMultiple(int64_t a, int64_t k) { return k == -1 || a % k == 0; }

// floordiv, ceildiv and mod by a constant k, folded as MLIR 22 folds them:
// constant numerators (by k <= 0 see DivByNonPositive); for any k != 0,
// (e * m) floordiv/ceildiv k -> e * (m / k) when k divides m, and
// (a + b) floordiv k -> a floordiv k + b floordiv k when k divides a known
// divisor of a or b; for k >= 1 also e floordiv 1 -> e and the mod folds.
// (MLIR folds no mod by k < 1.) Each quotient fits: INT64_MIN / -1, the one
// that does not, is refused before MLIR's folds compute it.
absl::StatusOr<AffineExpr> Div(AffineExprKind kind, AffineExpr lhs,
                               AffineExpr rhs) {
  std::optional<int64_t> lc = ConstantValue(lhs), k = ConstantValue(rhs);
  if (k && *k < 1 && lc) return DivByNonPositive(kind, *lc, *k, lhs, rhs);
  if (!k || *k == 0 || (*k < 0 && kind == AffineExprKind::Mod)) {
    return Node(kind, lhs, rhs);
  }
  if (lc) {
    return Constant(kind == AffineExprKind::FloorDiv  ? FloorDiv(*lc, *k)
                    : kind == AffineExprKind::CeilDiv ? CeilDiv(*lc, *k)
                                                      : FloorMod(*lc, *k),
                    lhs);
  }
  AffineBinaryOpExpr sum = AsBinary(lhs, AffineExprKind::Add);
  // The known divisors of a sum's operands, computed once (a mod of a sum
  // needs them twice).
  int64_t a = 0, b = 0;
  bool have_operand_divisors = false;
  auto operand_divisors = [&]() -> absl::Status {
    if (have_operand_divisors) return absl::OkStatus();
    XI_ASSIGN_OR_RETURN(a, KnownDivisor(sum.getLHS()));
    XI_ASSIGN_OR_RETURN(b, KnownDivisor(sum.getRHS()));
    have_operand_divisors = true;
    return absl::OkStatus();
  };
  if (*k == -1) {
    // MLIR's folds compute v % -1 for the constants and known divisors v of
    // lhs: INT64_MIN % -1 traps (SIGFPE) before any check.
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
    bool min_divisor = HasConstant(lhs, kMin);
    if (sum && !min_divisor) {
      XI_RETURN_IF_ERROR(operand_divisors());
      min_divisor = a == kMin || b == kMin;
    }
    if (min_divisor) {
      return absl::OutOfRangeError(
          "a division by -1 of an expression with the constant "
          "-9223372036854775808 or a term that is a multiple of 2^63 cannot "
          "be folded within int64");
    }
  }
  if (kind == AffineExprKind::Mod) {
    int64_t divisor;
    if (sum) {
      // KnownDivisor of a sum: the gcd of its operands' (same order, same
      // errors).
      XI_RETURN_IF_ERROR(operand_divisors());
      divisor = static_cast<int64_t>(std::gcd(Magnitude(a), Magnitude(b)));
    } else {
      XI_ASSIGN_OR_RETURN(divisor, KnownDivisor(lhs));
    }
    if (divisor % *k == 0) return Constant(0, lhs);
  } else {
    if (*k == 1) return lhs;
    if (auto scaled = AsScaled(lhs); scaled && IsMultiple(scaled->second, *k)) {
      return Mul(scaled->first, Constant(scaled->second / *k, lhs));
    }
  }
  if (kind == AffineExprKind::CeilDiv) return Node(kind, lhs, rhs);
  if (sum) {
    XI_RETURN_IF_ERROR(operand_divisors());
    if (kind == AffineExprKind::FloorDiv &&
        (IsMultiple(a, *k) || IsMultiple(b, *k))) {
      XI_ASSIGN_OR_RETURN(AffineExpr left, Div(kind, sum.getLHS(), rhs));
      XI_ASSIGN_OR_RETURN(AffineExpr right, Div(kind, sum.getRHS(), rhs));
      return Add(left, right);
    }
    if (kind == AffineExprKind::Mod && a % *k == 0) {
      return Div(kind, sum.getRHS(), rhs);
    }
    if (kind == AffineExprKind::Mod && b % *k == 0) {
      return Div(kind, sum.getLHS(), rhs);
    }
  }
  if (AffineBinaryOpExpr inner = AsBinary(lhs, AffineExprKind::Mod);
      inner && kind == AffineExprKind::Mod) {
    std::optional<int64_t> a = ConstantValue(inner.getRHS());
    if (a && *a >= 1 && FloorMod(*a, *k) == 0) {
      return Div(kind, inner.getLHS(), rhs);
    }
  }
  return Node(kind, lhs, rhs);
}

}  // namespace

absl::StatusOr<AffineExpr> CheckedAffineBinaryOp(AffineExprKind kind,
                                                 AffineExpr lhs,
                                                 AffineExpr rhs) {
  switch (kind) {
    case AffineExprKind::Add:
      return Add(lhs, rhs);
    case AffineExprKind::Mul:
      return Mul(lhs, rhs);
    case AffineExprKind::FloorDiv:
    case AffineExprKind::CeilDiv:
    case AffineExprKind::Mod:
      return Div(kind, lhs, rhs);
    default:
      return absl::InvalidArgumentError("not a binary affine operator");
  }
}

absl::StatusOr<AffineExpr> CheckedAffineAdd(AffineExpr lhs, AffineExpr rhs) {
  return Add(lhs, rhs);
}
absl::StatusOr<AffineExpr> CheckedAffineMul(AffineExpr lhs, AffineExpr rhs) {
  return Mul(lhs, rhs);
}
absl::StatusOr<AffineExpr> CheckedAffineNeg(AffineExpr expr) {
  return Mul(expr, Constant(-1, expr));
}
absl::StatusOr<AffineExpr> CheckedAffineSub(AffineExpr lhs, AffineExpr rhs) {
  XI_ASSIGN_OR_RETURN(AffineExpr negated, CheckedAffineNeg(rhs));
  return Add(lhs, negated);
}

CheckedAffineBuilder::CheckedAffineBuilder(mlir::MLIRContext* context)
    : context_(context) {}

AffineExpr CheckedAffineBuilder::Constant(int64_t value) {
  static_assert(kConstantSlots <= 32, "constants_filled_ has 32 bits");
  // The top bits of a multiplicative hash (Knuth's golden-ratio constant).
  const int i = (static_cast<uint64_t>(value) * 0x9E3779B97F4A7C15ull) >> 60;
  ConstantSlot& slot = constants_[i];
  if (!(constants_filled_ >> i & 1) || slot.value != value) {
    slot.value = value;
    slot.expr =
        mlir::getAffineConstantExpr(value, context_).getAsOpaquePointer();
    constants_filled_ |= uint32_t{1} << i;
  }
  return AffineExpr::getFromOpaquePointer(slot.expr);
}

size_t CheckedAffineBuilder::Slot(uint64_t kind, const void* lhs,
                                  const void* rhs) const {
  // Nodes are aligned, so the low bits of the pointers carry nothing: mix
  // the products' high halves down.
  uint64_t h = reinterpret_cast<uintptr_t>(lhs) * 0x9E3779B97F4A7C15ull;
  h ^= (reinterpret_cast<uintptr_t>(rhs) + kind) * 0xC2B2AE3D27D4EB4Full;
  h ^= h >> 29;
  h ^= h >> 32;
  size_t i = h & mask_;
  while (lhs_[i] != nullptr && (lhs_[i] != lhs || operations_[i].rhs != rhs ||
                                operations_[i].kind != kind)) {
    i = (i + 1) & mask_;
  }
  return i;
}

AffineExpr CheckedAffineBuilder::Lookup(AffineExprKind kind, AffineExpr lhs,
                                        AffineExpr rhs) const {
  if (count_ == 0) return AffineExpr();
  const size_t i = Slot(static_cast<uint64_t>(kind), lhs.getAsOpaquePointer(),
                        rhs.getAsOpaquePointer());
  return AffineExpr::getFromOpaquePointer(lhs_[i] ? operations_[i].result
                                                  : nullptr);
}

void CheckedAffineBuilder::Remember(AffineExprKind kind, AffineExpr lhs,
                                    AffineExpr rhs, AffineExpr result) {
  if (count_ == 0 && lhs_ == inline_lhs_) {
    // In 64-byte pieces, which compile to vector stores: one memset (or
    // loop) of the whole became `rep stos`, whose start-up cost was most of
    // Remember's time under perf.
    static_assert(sizeof(inline_lhs_) % 64 == 0, "64-byte pieces");
    for (size_t i = 0; i < sizeof(inline_lhs_); i += 64) {
      std::memset(reinterpret_cast<char*>(inline_lhs_) + i, 0, 64);
    }
  }
  if (2 * (count_ + 1) > mask_ + 1) Grow();
  const size_t i = Slot(static_cast<uint64_t>(kind), lhs.getAsOpaquePointer(),
                        rhs.getAsOpaquePointer());
  if (lhs_[i] == nullptr) ++count_;
  lhs_[i] = lhs.getAsOpaquePointer();
  operations_[i] = {rhs.getAsOpaquePointer(), result.getAsOpaquePointer(),
                    static_cast<uint64_t>(kind)};
}

void CheckedAffineBuilder::Grow() {
  const void* const* old_lhs = lhs_;
  const Operation* old = operations_;
  const size_t old_size = mask_ + 1;
  auto bigger_lhs = std::make_unique<const void*[]>(2 * old_size);  // Null.
  auto bigger = std::make_unique<Operation[]>(2 * old_size);
  lhs_ = bigger_lhs.get();
  operations_ = bigger.get();
  mask_ = 2 * old_size - 1;
  for (size_t i = 0; i < old_size; ++i) {
    if (old_lhs[i] != nullptr) {
      const size_t j = Slot(old[i].kind, old_lhs[i], old[i].rhs);
      lhs_[j] = old_lhs[i];
      operations_[j] = old[i];
    }
  }
  // Frees the old arrays when they were on the heap.
  heap_lhs_ = std::move(bigger_lhs);
  heap_ = std::move(bigger);
}

absl::StatusOr<AffineExpr> CheckedAffineBuilder::BinaryOp(AffineExprKind kind,
                                                          AffineExpr lhs,
                                                          AffineExpr rhs) {
  if (AffineExpr known = Lookup(kind, lhs, rhs)) return known;
  XI_ASSIGN_OR_RETURN(AffineExpr built, CheckedAffineBinaryOp(kind, lhs, rhs));
  Remember(kind, lhs, rhs, built);
  return built;
}

absl::StatusOr<AffineExpr> CheckedAffineBuilder::VariableOp(AffineExprKind kind,
                                                            AffineExpr variable,
                                                            int64_t k) {
  // What Mul and Div do for a dim or symbol times / by a constant: x * 0 is
  // 0, x * 1, x floordiv 1 and x ceildiv 1 are x, x mod 1 is 0 (a variable's
  // known divisor is 1); divisors < 1 take the general path.
  switch (kind) {
    case AffineExprKind::Mul:
      if (k == 0) return Constant(0);
      if (k == 1) return variable;
      break;
    case AffineExprKind::FloorDiv:
    case AffineExprKind::CeilDiv:
      if (k < 1) return BinaryOp(kind, variable, Constant(k));
      if (k == 1) return variable;
      break;
    case AffineExprKind::Mod:
      if (k < 1) return BinaryOp(kind, variable, Constant(k));
      if (k == 1) return Constant(0);
      break;
    default:
      return BinaryOp(kind, variable, Constant(k));
  }
  AffineExpr constant = Constant(k);
  if (AffineExpr known = Lookup(kind, variable, constant)) return known;
  XI_ASSIGN_OR_RETURN(AffineExpr built, Node(kind, variable, constant));
  Remember(kind, variable, constant, built);
  return built;
}

CheckedAffineSum::CheckedAffineSum(AffineExpr first,
                                   CheckedAffineBuilder* builder,
                                   const Term& facts)
    : base_(first), builder_(builder) {
  if (facts.simple) {
    // Field by field: the caller has just written `facts` so, and a copy
    // of the whole would read it back in 16-byte pieces that straddle
    // those stores (a store-forwarding stall, most of this constructor's
    // time under perf).
    base_term_.simple = true;
    base_term_.variable = facts.variable;
    base_term_.is_dim = facts.is_dim;
    base_term_.position = facts.position;
    base_term_.scaled = facts.scaled;
    base_symbolic_ = !facts.is_dim;
    return;  // Not a sum: no constant to take.
  }
  // With nothing pending, taking the constant does no arithmetic.
  TakeConstant().IgnoreError();
}

// Add(base_, term) for a simple term (a variable v, or v * k with k not 0 or
// 1) when base_ is plain (a sum ending in a non-constant) or simple too. Of
// the folds in Add then only these can apply: the swap (a term with a dim
// after a base without one, or two bare dims / two bare symbols out of
// order), which puts the term first; like terms (the same variable on both
// sides of a simple base), left to the general fold. A sum is not like a
// variable; a variable or v * k is neither a constant, nor a sum ending in
// one, nor a mod pattern's (e floordiv q) * -q. So the result is the node
// of the two operands, and base_ stays plain.
bool CheckedAffineSum::AddSimple(AffineExpr term, const Term& facts,
                                 absl::Status& status) {
  if (!base_plain_ && !base_term_.simple) return false;
  const bool term_symbolic = !facts.is_dim;
  if (pending_ && !term_symbolic && BaseSymbolic()) return false;  // Finish.
  bool swap = !term_symbolic && BaseSymbolic();
  if (base_term_.simple) {
    if (base_term_.variable == facts.variable) return false;  // Like terms.
    swap = swap || (!base_term_.scaled && !facts.scaled &&
                    base_term_.is_dim == facts.is_dim &&
                    base_term_.position > facts.position);
  }
  AffineExpr sum =
      builder_ ? builder_->Lookup(AffineExprKind::Add, base_, term) : nullptr;
  if (!sum) {
    absl::StatusOr<AffineExpr> node =
        swap ? Node(AffineExprKind::Add, term, base_)
             : Node(AffineExprKind::Add, base_, term);
    if (!node.ok()) {
      status = node.status();
      return true;
    }
    sum = *node;
    if (builder_) builder_->Remember(AffineExprKind::Add, base_, term, sum);
  }
  base_symbolic_ = term_symbolic ? (BaseSymbolic() ? 1 : 0) : 0;
  base_ = sum;
  base_plain_ = true;
  base_term_ = Term();
  status = absl::OkStatus();
  return true;
}

bool CheckedAffineSum::BaseSymbolic() {
  if (base_symbolic_ == kUnknown) base_symbolic_ = IsSymbolicOrConstant(base_);
  return base_symbolic_ != 0;
}

absl::Status CheckedAffineSum::TakeConstant() {
  AffineBinaryOpExpr sum = AsBinary(base_, AffineExprKind::Add);
  if (!sum || mlir::isa<AffineConstantExpr>(sum.getLHS())) {
    return absl::OkStatus();
  }
  std::optional<int64_t> c = ConstantValue(sum.getRHS());
  // A sum ending in a constant never has another one inside (MLIR folds
  // (e + c1) + c2), but check rather than assume.
  if (!c || EndsInConstant(sum.getLHS())) return absl::OkStatus();
  int64_t total = *c;
  if (pending_) {
    // The fold computes (e + c) + pending as e + (c + pending).
    std::optional<int64_t> folded = CheckedAdd(*c, *pending_);
    if (!folded) return DoesNotFit(*c, "+", *pending_);
    total = *folded;
  }
  // e has a dimension exactly when e + c has: base_symbolic_ stays.
  base_ = sum.getLHS();
  pending_ = total;
  if (pending_ == 0) pending_.reset();
  return absl::OkStatus();
}

bool CheckedAffineSum::BaseIsConstant() const {
  // A plain sum, a variable and v * k are neither (no MLIR query).
  if (base_plain_ || base_term_.simple) return false;
  return mlir::isa<AffineConstantExpr>(base_) || EndsInConstant(base_);
}

absl::Status CheckedAffineSum::AddPending(int64_t k) {
  // (e + p) + k -> e + (p + k); e + k is built only at the end.
  int64_t total = k;
  if (pending_) {
    std::optional<int64_t> folded = CheckedAdd(*pending_, k);
    if (!folded) return DoesNotFit(*pending_, "+", k);
    total = *folded;
  }
  pending_ = total;
  if (pending_ == 0) pending_.reset();
  return absl::OkStatus();
}

absl::Status CheckedAffineSum::AddConstant(int64_t k) {
  if (!BaseIsConstant()) return AddPending(k);
  return Add(builder_ ? builder_->Constant(k) : Constant(k, base_));
}

absl::Status CheckedAffineSum::Add(AffineExpr term, const Term& facts) {
  if (facts.simple) {
    absl::Status status;
    if (AddSimple(term, facts, status)) return status;
  }
  base_term_ = Term();  // The general fold below may change base_.
  // Only a base that is neither a constant nor e + c (which TakeConstant
  // leaves only for nodes MLIR itself never builds) takes the short cuts.
  const bool base_constant = BaseIsConstant();
  if (std::optional<int64_t> k = ConstantValue(term); k && !base_constant) {
    return AddPending(*k);
  }
  // Whether the term has no dimension, computed once.
  const int8_t term_symbolic = IsSymbolicOrConstant(term);
  if (pending_) {
    // The fold builds (e + p) + t as (e + t) + p unless it first swaps the
    // operands (e has no dim and t has one) or merges like terms (t is a
    // multiple of e + p itself): then build e + p now.
    AffineExpr atom =
        AsScaled(term).value_or(std::make_pair(term, int64_t{1})).first;
    AffineBinaryOpExpr atom_sum = AsBinary(atom, AffineExprKind::Add);
    const bool like = atom_sum && atom_sum.getLHS() == base_ &&
                      ConstantValue(atom_sum.getRHS()) == pending_;
    if (base_constant || like || (!term_symbolic && BaseSymbolic())) {
      XI_ASSIGN_OR_RETURN(base_, Finish());
      pending_.reset();
      base_symbolic_ = kUnknown;
      base_plain_ = false;
    }
  }
  AffineExpr sum =
      builder_ ? builder_->Lookup(AffineExprKind::Add, base_, term) : nullptr;
  if (!sum) {
    XI_ASSIGN_OR_RETURN(
        sum, xla_index::Add(base_, term, base_symbolic_, term_symbolic));
    if (builder_) builder_->Remember(AffineExprKind::Add, base_, term, sum);
  }
  // A node base_ + term has a dimension when either operand has one; any
  // other result (a fold) is walked when asked.
  AffineBinaryOpExpr node = AsBinary(sum, AffineExprKind::Add);
  if (node && node.getLHS() == base_ && node.getRHS() == term) {
    base_symbolic_ = term_symbolic ? base_symbolic_ : 0;
    base_ = sum;
    // A constant term went to pending_ unless the base was a constant.
    base_plain_ = !mlir::isa<AffineConstantExpr>(term);
    if (base_plain_) return absl::OkStatus();  // No constant to take.
    return TakeConstant();
  }
  base_symbolic_ = kUnknown;
  base_plain_ = false;
  base_ = sum;
  return TakeConstant();
}

absl::StatusOr<AffineExpr> CheckedAffineSum::Finish() const {
  if (!pending_) return base_;
  AffineExpr constant =
      builder_ ? builder_->Constant(*pending_) : Constant(*pending_, base_);
  if (builder_) {
    if (AffineExpr known =
            builder_->Lookup(AffineExprKind::Add, base_, constant)) {
      return known;
    }
  }
  // A plain or simple base plus a nonzero constant is their node (no swap:
  // a constant is symbolic; no like terms; base_ does not end in a
  // constant).
  absl::StatusOr<AffineExpr> sum =
      base_plain_ || base_term_.simple
          ? Node(AffineExprKind::Add, base_, constant)
          : xla_index::Add(base_, constant, base_symbolic_, 1);
  XI_RETURN_IF_ERROR(sum.status());
  if (builder_) builder_->Remember(AffineExprKind::Add, base_, constant, *sum);
  return sum;
}

namespace {

using Facts = CheckedSubstitution::Facts;

// Operands whose constants and known divisors are all at most 2^15: every
// integer MLIR's folds compute while building one operation from them
// (sums and products of two constants, a coefficient times a constant, a
// product's known divisor, quotients, and the sums of a few of these that
// the recursion over a sum's terms makes) is a product of at most three
// such values, plus a sum of such products over the operands' terms, far
// inside int64: MLIR's result is exact and is taken as it is.
constexpr uint64_t kFoldCannotWrap = uint64_t{1} << 15;

// The fields of Facts, packed in one word so that a Facts (and a Replaced,
// with its node) is built and returned in registers: built field by field
// in memory and read back whole, it stalled on store forwarding (a third
// of FactsOf's time under perf).
//   bits  0-15: the known divisor (at most 2^15 when not big);
//   bits 16-47: the value of a constant (as int32; |value| <= 2^15);
//   bits 48-51: the AffineExprKind;
//   bit 52: big; bit 53: mod_shaped; bit 54: odd_floordiv.
constexpr int kConstantShift = 16, kKindShift = 48;
constexpr uint64_t kBig = uint64_t{1} << 52, kModShaped = uint64_t{1} << 53,
                   kOddFloorDiv = uint64_t{1} << 54;

uint32_t DivisorOf(Facts f) { return static_cast<uint16_t>(f.bits); }
int32_t ConstantOf(Facts f) {
  return static_cast<int32_t>(static_cast<uint32_t>(f.bits >> kConstantShift));
}
bool IsConstant(Facts f) {
  return ((f.bits >> kKindShift) & 0xF) ==
         static_cast<uint64_t>(AffineExprKind::Constant);
}
bool IsBig(Facts f) { return (f.bits & kBig) != 0; }

// The facts of `kind lhs rhs` from its operands' (getLargestKnownDivisor's
// recursion, one node at a time; the shape flags from the operands' kinds).
// An operand's divisor and constant mean something only when it is not
// big; when one is big, so is the node, whatever its divisor says.
LLVM_ATTRIBUTE_ALWAYS_INLINE Facts Combine(AffineExprKind kind, Facts lhs,
                                           Facts rhs) {
  const bool rhs_constant = IsConstant(rhs);
  const int32_t rhs_value = ConstantOf(rhs);
  const uint32_t lhs_divisor = DivisorOf(lhs), rhs_divisor = DivisorOf(rhs);
  uint64_t divisor = 1;
  switch (kind) {
    case AffineExprKind::Mul:
      divisor = uint64_t{lhs_divisor} * rhs_divisor;
      break;
    case AffineExprKind::Add:
    case AffineExprKind::Mod:
      // gcd(1, x) is 1: most operands are dims or sums with one.
      if (lhs_divisor != 1 && rhs_divisor != 1) {
        divisor = std::gcd(lhs_divisor, rhs_divisor);
      }
      break;
    default:  // floordiv, ceildiv: the quotient when it divides, else 1.
      if (rhs_constant && rhs_value != 0) {
        const auto k = static_cast<uint32_t>(Magnitude(rhs_value));
        if (lhs_divisor % k == 0) divisor = lhs_divisor / k;
      }
      break;
  }
  uint64_t bits = (divisor & 0xFFFF) |
                  (static_cast<uint64_t>(kind) << kKindShift) |
                  ((lhs.bits | rhs.bits) & kBig);
  if (divisor > kFoldCannotWrap) bits |= kBig;
  if ((rhs_constant && rhs_value == -1) ||
      (kind == AffineExprKind::Mul && (lhs.bits & kOddFloorDiv) != 0)) {
    bits |= kModShaped;
  }
  if (kind == AffineExprKind::FloorDiv && !(rhs_constant && rhs_value >= 1)) {
    bits |= kOddFloorDiv;
  }
  return Facts{bits};
}

Facts LeafFacts(AffineExprKind kind) {
  return Facts{1 | (static_cast<uint64_t>(kind) << kKindShift)};
}

Facts ConstantFacts(int64_t value) {
  const uint64_t kind = static_cast<uint64_t>(AffineExprKind::Constant)
                        << kKindShift;
  const uint64_t magnitude = Magnitude(value);
  if (magnitude > kFoldCannotWrap) return Facts{kind | kBig};
  return Facts{magnitude |
               (uint64_t{static_cast<uint32_t>(static_cast<int32_t>(value))}
                << kConstantShift) |
               kind};
}

// What one substitution computed for each binary node it met, by node
// (MLIR uniques nodes, so a subtree shared by several results, or several
// times by one, is one pointer): open addressing with linear probing, in
// an inline array for small maps, doubled when half full. The keys are
// cleared on the first insertion only (a lookup before it reads nothing).
template <typename Value>
class NodeMemo {
 public:
  NodeMemo() = default;
  NodeMemo(const NodeMemo&) = delete;
  NodeMemo& operator=(const NodeMemo&) = delete;

  const Value* Find(AffineExpr node) const {
    if (count_ == 0) return nullptr;
    const size_t i = Slot(node.getAsOpaquePointer());
    return keys_[i] != nullptr ? &values_[i] : nullptr;
  }
  // Find, and where `node` would go: `miss` is set for Insert to reuse.
  struct Miss {
    const void* const* keys = nullptr;  // The table probed; null: none.
    size_t slot = 0;                    // Its first empty slot on the chain.
  };
  const Value* Find(AffineExpr node, Miss& miss) const {
    if (count_ == 0) return nullptr;
    const size_t i = Slot(node.getAsOpaquePointer());
    if (keys_[i] != nullptr) return &values_[i];
    miss = {keys_, i};
    return nullptr;
  }
  // Insert of a node that Find(node, miss) did not find, with no probe
  // when it can be put where Find saw its chain end: keys are never
  // removed, so while the table is the same (not grown) and that slot is
  // still empty, every slot before it on the chain still holds another
  // key, and it is where a probe would put `node`.
  void Insert(AffineExpr node, const Value& value, const Miss& miss) {
    if (miss.keys == keys_ && keys_[miss.slot] == nullptr &&
        2 * (count_ + 1) <= mask_ + 1) {
      keys_[miss.slot] = node.getAsOpaquePointer();
      new (&values_[miss.slot]) Value(value);
      ++count_;
      return;
    }
    Insert(node, value);
  }
  void Insert(AffineExpr node, const Value& value) {
    if (count_ == 0 && keys_ == inline_keys_) {
      // 64-byte pieces compile to vector stores (see Remember above).
      static_assert(sizeof(inline_keys_) % 64 == 0, "64-byte pieces");
      for (size_t i = 0; i < sizeof(inline_keys_); i += 64) {
        std::memset(reinterpret_cast<char*>(inline_keys_) + i, 0, 64);
      }
    }
    if (2 * (count_ + 1) > mask_ + 1) Grow();
    const void* key = node.getAsOpaquePointer();
    const size_t i = Slot(key);
    if (keys_[i] == nullptr) ++count_;
    keys_[i] = key;
    new (&values_[i]) Value(value);
  }

 private:
  static constexpr size_t kInline = 32;

  size_t Slot(const void* key) const {
    // Nodes are aligned: the product's high bits carry the pointer's.
    const uint64_t h =
        (reinterpret_cast<uintptr_t>(key) * 0x9E3779B97F4A7C15ull) >> 40;
    size_t i = h & mask_;
    while (keys_[i] != nullptr && keys_[i] != key) i = (i + 1) & mask_;
    return i;
  }
  void Grow() {
    const void* const* old_keys = keys_;
    const Value* old_values = values_;
    const size_t old_size = mask_ + 1;
    auto keys = std::make_unique<const void*[]>(2 * old_size);  // Null.
    auto values = std::make_unique<Value[]>(2 * old_size);
    keys_ = keys.get();
    values_ = values.get();
    mask_ = 2 * old_size - 1;
    for (size_t i = 0; i < old_size; ++i) {
      if (old_keys[i] == nullptr) continue;
      const size_t j = Slot(old_keys[i]);
      keys_[j] = old_keys[i];
      values_[j] = old_values[i];
    }
    // Frees the old arrays when they were on the heap.
    heap_keys_ = std::move(keys);
    heap_values_ = std::move(values);
  }

  // Values are written before they are read (their key is set with them):
  // the inline ones are left uninitialized, not constructed per memo.
  static_assert(std::is_trivially_copyable_v<Value> &&
                    std::is_trivially_destructible_v<Value>,
                "values live in raw storage");
  const void* inline_keys_[kInline];
  alignas(Value) unsigned char inline_values_[kInline * sizeof(Value)];
  std::unique_ptr<const void*[]> heap_keys_;
  std::unique_ptr<Value[]> heap_values_;
  const void** keys_ = inline_keys_;
  Value* values_ = reinterpret_cast<Value*>(inline_values_);
  size_t mask_ = kInline - 1;
  size_t count_ = 0;
};

// The facts of `e`, each binary node's computed once per `memo`.
Facts FactsOf(AffineExpr e, NodeMemo<Facts>& memo) {
  const AffineExprKind kind = e.getKind();
  switch (kind) {
    case AffineExprKind::DimId:
    case AffineExprKind::SymbolId:
      return LeafFacts(kind);
    case AffineExprKind::Constant:
      return ConstantFacts(mlir::cast<AffineConstantExpr>(e).getValue());
    default:
      break;
  }
  if (const Facts* known = memo.Find(e)) return *known;
  auto binary = mlir::cast<AffineBinaryOpExpr>(e);
  const Facts facts = Combine(kind, FactsOf(binary.getLHS(), memo),
                              FactsOf(binary.getRHS(), memo));
  memo.Insert(e, facts);
  return facts;
}

// The facts of a dimension, symbol or constant (`kind` is e's kind).
LLVM_ATTRIBUTE_ALWAYS_INLINE Facts LeafFactsOf(AffineExprKind kind,
                                               AffineExpr e) {
  if (kind == AffineExprKind::Constant) {
    return ConstantFacts(mlir::cast<AffineConstantExpr>(e).getValue());
  }
  return LeafFacts(kind);
}

// FactsOf without a memo, for the replacements: a fusion's replacements
// (one map's results) share a subtree or two, which the memo's clearing
// and probes cost more than walking again (BM_Compose: 63.3M against 62.0M
// instructions). A leaf operand is handled by the caller, not by a call of
// its own: a call per leaf (half the nodes) cost more than the leaf.
Facts PlainBinaryFactsOf(AffineExprKind kind, AffineExpr e);
LLVM_ATTRIBUTE_ALWAYS_INLINE Facts PlainFactsOf(AffineExpr e) {
  const AffineExprKind kind = e.getKind();
  if (kind > AffineExprKind::LAST_AFFINE_BINARY_OP) return LeafFactsOf(kind, e);
  return PlainBinaryFactsOf(kind, e);
}
LLVM_ATTRIBUTE_NOINLINE Facts PlainBinaryFactsOf(AffineExprKind kind,
                                                 AffineExpr e) {
  auto binary = mlir::cast<AffineBinaryOpExpr>(e);
  const Facts lhs = PlainFactsOf(binary.getLHS());
  return Combine(kind, lhs, PlainFactsOf(binary.getRHS()));
}

// Whether MLIR's own operation on these operands builds exactly what
// CheckedAffineBinaryOp builds: no fold can wrap (kFoldCannotWrap), and the
// operation is none of those CheckedAffineBinaryOp refuses or builds
// otherwise (a product without a constant factor, which may not be affine;
// a division or mod by a constant below 1 or by an expression; a sum with
// an operand shaped like the operands of MLIR's rewrites to a mod, which
// CheckedAffineBinaryOp refuses or builds differently, see AddAsMod).
bool MlirIsExact(AffineExprKind kind, Facts lhs, Facts rhs) {
  if (IsBig(lhs) || IsBig(rhs)) return false;
  switch (kind) {
    case AffineExprKind::Add:
      return ((lhs.bits | rhs.bits) & kModShaped) == 0;
    case AffineExprKind::Mul:
      return IsConstant(lhs) || IsConstant(rhs);
    default:
      return IsConstant(rhs) && ConstantOf(rhs) >= 1;
  }
}

struct Replaced {
  AffineExpr expr;
  Facts facts;
};

// CheckedReplaceDimsAndSymbols returning the facts of each result with it:
// where MlirIsExact, MLIR builds the node (its own folds, computed once),
// else CheckedAffineBinaryOp. The first error stops it (`error`); no
// StatusOr per node (its construction and test were a tenth of the
// substitution's instructions).
class Replacer {
 public:
  Replacer(llvm::ArrayRef<AffineExpr> dims, llvm::ArrayRef<AffineExpr> symbols,
           llvm::ArrayRef<Facts> dim_facts, llvm::ArrayRef<Facts> symbol_facts)
      : dims_(dims),
        symbols_(symbols),
        dim_facts_(dim_facts),
        symbol_facts_(symbol_facts) {}

  // A leaf is replaced here, in the caller; a binary node by Binary (one
  // call per binary node, none per leaf: the call cost more than a leaf).
  LLVM_ATTRIBUTE_ALWAYS_INLINE Replaced Run(AffineExpr expr) {
    const AffineExprKind kind = expr.getKind();
    if (kind > AffineExprKind::LAST_AFFINE_BINARY_OP) return Leaf(kind, expr);
    return Binary(kind, expr);
  }

  absl::Status error;

 private:
  // Each binary node is substituted once per Replacer: its replacement is
  // a function of the node alone, and the results of a map share subtrees
  // (each of a reshape's results divides the same linear index).
  LLVM_ATTRIBUTE_NOINLINE Replaced Binary(AffineExprKind kind,
                                          AffineExpr expr) {
    NodeMemo<Replaced>::Miss miss;
    if (const Replaced* known = done_.Find(expr, miss)) return *known;
    const Replaced replaced = Substitute(kind, expr);
    if (error.ok()) done_.Insert(expr, replaced, miss);
    return replaced;
  }

  LLVM_ATTRIBUTE_ALWAYS_INLINE Replaced Leaf(AffineExprKind kind,
                                             AffineExpr expr) {
    if (kind == AffineExprKind::Constant) {
      return {expr,
              ConstantFacts(mlir::cast<AffineConstantExpr>(expr).getValue())};
    }
    if (kind == AffineExprKind::DimId) {
      unsigned pos = mlir::cast<mlir::AffineDimExpr>(expr).getPosition();
      if (pos < dims_.size()) return {dims_[pos], dim_facts_[pos]};
      return {expr, LeafFacts(kind)};
    }
    unsigned pos = mlir::cast<mlir::AffineSymbolExpr>(expr).getPosition();
    if (pos < symbols_.size()) return {symbols_[pos], symbol_facts_[pos]};
    return {expr, LeafFacts(kind)};
  }

  LLVM_ATTRIBUTE_ALWAYS_INLINE Replaced Substitute(AffineExprKind kind,
                                                   AffineExpr expr) {
    auto binary = mlir::cast<AffineBinaryOpExpr>(expr);
    const AffineExpr old_lhs = binary.getLHS(), old_rhs = binary.getRHS();
    const Replaced lhs = Run(old_lhs);
    if (!error.ok()) return {};
    const Replaced rhs = Run(old_rhs);
    if (!error.ok()) return {};
    // As MLIR: an unchanged node is kept, not rebuilt.
    if (lhs.expr == old_lhs && rhs.expr == old_rhs) {
      return {expr, Combine(kind, lhs.facts, rhs.facts)};
    }
    AffineExpr built;
    if (MlirIsExact(kind, lhs.facts, rhs.facts)) {
      built = mlir::getAffineBinaryOpExpr(kind, lhs.expr, rhs.expr);
    } else {
      absl::StatusOr<AffineExpr> checked =
          CheckedAffineBinaryOp(kind, lhs.expr, rhs.expr);
      if (!checked.ok()) {
        error = checked.status();
        return {};
      }
      built = *checked;
    }
    // The node of the two operands (no fold): its facts from theirs; a fold
    // is walked.
    if (AffineBinaryOpExpr node = AsBinary(built, kind);
        node && node.getLHS() == lhs.expr && node.getRHS() == rhs.expr) {
      return {built, Combine(kind, lhs.facts, rhs.facts)};
    }
    return {built, FactsOf(built, facts_)};
  }

  llvm::ArrayRef<AffineExpr> dims_, symbols_;
  llvm::ArrayRef<Facts> dim_facts_, symbol_facts_;
  NodeMemo<Replaced> done_;  // Each binary node substituted so far.
  NodeMemo<Facts> facts_;    // The facts of the nodes folds built.
};

}  // namespace

CheckedSubstitution::CheckedSubstitution(llvm::ArrayRef<AffineExpr> dims,
                                         llvm::ArrayRef<AffineExpr> symbols)
    : dims_(dims), symbols_(symbols) {
  dim_facts_.reserve(dims.size());
  for (AffineExpr d : dims) dim_facts_.push_back(PlainFactsOf(d));
  symbol_facts_.reserve(symbols.size());
  for (AffineExpr s : symbols) symbol_facts_.push_back(PlainFactsOf(s));
}

absl::StatusOr<AffineExpr> CheckedSubstitution::Apply(AffineExpr expr) const {
  Replacer replacer(dims_, symbols_, dim_facts_, symbol_facts_);
  const Replaced replaced = replacer.Run(expr);
  if (!replacer.error.ok()) return replacer.error;
  return replaced.expr;
}

absl::StatusOr<mlir::AffineMap> CheckedSubstitution::Apply(
    mlir::AffineMap map, unsigned num_dims, unsigned num_symbols) const {
  Replacer replacer(dims_, symbols_, dim_facts_, symbol_facts_);
  llvm::SmallVector<AffineExpr, 8> results;
  results.reserve(map.getNumResults());
  for (AffineExpr result : map.getResults()) {
    const Replaced replaced = replacer.Run(result);
    if (!replacer.error.ok()) return replacer.error;
    results.push_back(replaced.expr);
  }
  return mlir::AffineMap::get(num_dims, num_symbols, results, map.getContext());
}

absl::StatusOr<AffineExpr> CheckedReplaceDimsAndSymbols(
    AffineExpr expr, llvm::ArrayRef<AffineExpr> dims,
    llvm::ArrayRef<AffineExpr> symbols) {
  return CheckedSubstitution(dims, symbols).Apply(expr);
}

absl::StatusOr<mlir::AffineMap> CheckedReplaceDimsAndSymbols(
    mlir::AffineMap map, llvm::ArrayRef<AffineExpr> dims,
    llvm::ArrayRef<AffineExpr> symbols, unsigned num_dims,
    unsigned num_symbols) {
  return CheckedSubstitution(dims, symbols).Apply(map, num_dims, num_symbols);
}

}  // namespace xla_index
