#include "xla_index/core/wide_substitution.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "llvm/ADT/STLExtras.h"
#include "xla_index/core/checked_affine_expr.h"

namespace xla_index {
namespace {

using mlir::AffineExpr;
using mlir::AffineExprKind;
using Int128 = __int128;

std::string Text(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 u = negative ? 0 - static_cast<unsigned __int128>(v)
                                 : static_cast<unsigned __int128>(v);
  std::string digits;
  for (; u != 0; u /= 10) digits.insert(digits.begin(), '0' + (u % 10));
  return negative ? "-" + digits : digits;
}

absl::Status Overflow() {
  return absl::OutOfRangeError("a 128-bit intermediate value overflows");
}

// A linear form over atoms, in 128 bits; terms sorted by atom, no zero
// coefficient.
struct Linear {
  std::vector<std::pair<int, Int128>> terms;
  Int128 constant = 0;
};

// A dimension or symbol (`variable`), or a division of the normalized form
// `numerator` (an index into the pool's forms) by `divisor` > 0.
struct Atom {
  AffineExprKind kind;  // DimId, SymbolId, FloorDiv, CeilDiv or Mod.
  unsigned variable = 0;
  int numerator = -1;
  Int128 divisor = 0;
};

bool SameForm(const Linear& a, const Linear& b) {
  return a.constant == b.constant && a.terms == b.terms;
}

class Normalizer {
 public:
  Normalizer(llvm::ArrayRef<AffineExpr> dims,
             llvm::ArrayRef<AffineExpr> symbols)
      : dims_(dims), symbols_(symbols) {}

  // The normal form of `e`; with `substitute`, its dims and symbols are
  // replaced (the replacements are in the new variables: not again).
  absl::StatusOr<Linear> Normalize(AffineExpr e, bool substitute);
  absl::StatusOr<AffineExpr> Build(const Linear& form, mlir::MLIRContext* ctx);

 private:
  int InternAtom(const Atom& atom);
  Linear FromAtom(int atom) {
    Linear out;
    out.terms.push_back({atom, 1});
    return out;
  }
  absl::StatusOr<Linear> Add(const Linear& a, const Linear& b);
  absl::StatusOr<Linear> Scale(const Linear& a, Int128 k);
  absl::StatusOr<Linear> Divide(AffineExprKind kind, Linear x, Int128 c);
  absl::StatusOr<AffineExpr> BuildAtom(int atom, mlir::MLIRContext* ctx);

  llvm::ArrayRef<AffineExpr> dims_, symbols_;
  std::vector<Atom> atoms_;
  std::vector<Linear> forms_;
};

int Normalizer::InternAtom(const Atom& atom) {
  for (size_t i = 0; i < atoms_.size(); ++i) {
    const Atom& a = atoms_[i];
    if (a.kind != atom.kind) continue;
    const bool variable = atom.kind == AffineExprKind::DimId ||
                          atom.kind == AffineExprKind::SymbolId;
    if (variable ? a.variable == atom.variable
                 : a.divisor == atom.divisor &&
                       SameForm(forms_[a.numerator], forms_[atom.numerator])) {
      return static_cast<int>(i);
    }
  }
  atoms_.push_back(atom);
  return static_cast<int>(atoms_.size()) - 1;
}

absl::StatusOr<Linear> Normalizer::Add(const Linear& a, const Linear& b) {
  Linear out;
  if (__builtin_add_overflow(a.constant, b.constant, &out.constant)) {
    return Overflow();
  }
  size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    if (j == b.terms.size() ||
        (i < a.terms.size() && a.terms[i].first < b.terms[j].first)) {
      out.terms.push_back(a.terms[i++]);
    } else if (i == a.terms.size() || b.terms[j].first < a.terms[i].first) {
      out.terms.push_back(b.terms[j++]);
    } else {
      Int128 sum;
      if (__builtin_add_overflow(a.terms[i].second, b.terms[j].second, &sum)) {
        return Overflow();
      }
      if (sum != 0) out.terms.push_back({a.terms[i].first, sum});
      ++i;
      ++j;
    }
  }
  return out;
}

absl::StatusOr<Linear> Normalizer::Scale(const Linear& a, Int128 k) {
  Linear out;
  if (k == 0) return out;
  if (__builtin_mul_overflow(a.constant, k, &out.constant)) return Overflow();
  for (const auto& [atom, coefficient] : a.terms) {
    Int128 product;
    if (__builtin_mul_overflow(coefficient, k, &product)) return Overflow();
    out.terms.push_back({atom, product});
  }
  return out;
}

// x floordiv/ceildiv/mod c for c != 0, as in the header.
absl::StatusOr<Linear> Normalizer::Divide(AffineExprKind kind, Linear x,
                                          Int128 c) {
  if (c == 0) return absl::InvalidArgumentError("a division by 0");
  if (c < 0) {
    if (kind == AffineExprKind::Mod) {
      return absl::InvalidArgumentError(
          absl::StrCat("a mod by ", Text(c), ", which has no value"));
    }
    XI_ASSIGN_OR_RETURN(x, Scale(x, -1));
    c = -c;
  }
  // x = outside * c + q * c + (r + rest), 0 <= r < c.
  Linear outside, inside;
  const Int128 q = FloorDiv128(x.constant, c);
  inside.constant = x.constant - q * c;
  if (kind != AffineExprKind::Mod) outside.constant = q;
  for (const auto& [atom, coefficient] : x.terms) {
    // A multiple of c leaves whole; so does the multiple of c in a
    // coefficient beyond int64 (a = m*c + r, 0 <= r < c: floor((a*x +
    // y) / c) = m*x + floor((r*x + y) / c), and mod drops m*x), which could
    // not be written otherwise.
    const bool fits = coefficient >= std::numeric_limits<int64_t>::min() &&
                      coefficient <= std::numeric_limits<int64_t>::max();
    const Int128 multiple = coefficient % c == 0
                                ? coefficient / c
                                : (fits ? 0 : FloorDiv128(coefficient, c));
    const Int128 rest = coefficient - multiple * c;
    if (multiple != 0 && kind != AffineExprKind::Mod) {
      outside.terms.push_back({atom, multiple});
    }
    if (rest != 0) inside.terms.push_back({atom, rest});
  }
  if (inside.terms.empty()) {
    // 0 <= r < c: r floordiv c = 0, r ceildiv c = (r > 0), r mod c = r.
    Linear rest;
    rest.constant = kind == AffineExprKind::FloorDiv  ? 0
                    : kind == AffineExprKind::CeilDiv ? (inside.constant > 0)
                                                      : inside.constant;
    return Add(outside, rest);
  }
  forms_.push_back(std::move(inside));
  Atom atom;
  atom.kind = kind;
  atom.numerator = static_cast<int>(forms_.size()) - 1;
  atom.divisor = c;
  return Add(outside, FromAtom(InternAtom(atom)));
}

absl::StatusOr<Linear> Normalizer::Normalize(AffineExpr e, bool substitute) {
  switch (e.getKind()) {
    case AffineExprKind::Constant: {
      Linear out;
      out.constant = mlir::cast<mlir::AffineConstantExpr>(e).getValue();
      return out;
    }
    case AffineExprKind::DimId:
    case AffineExprKind::SymbolId: {
      const bool is_dim = e.getKind() == AffineExprKind::DimId;
      const unsigned pos =
          is_dim ? mlir::cast<mlir::AffineDimExpr>(e).getPosition()
                 : mlir::cast<mlir::AffineSymbolExpr>(e).getPosition();
      llvm::ArrayRef<AffineExpr> replacements = is_dim ? dims_ : symbols_;
      if (substitute && pos < replacements.size()) {
        return Normalize(replacements[pos], /*substitute=*/false);
      }
      Atom atom;
      atom.kind = e.getKind();
      atom.variable = pos;
      return FromAtom(InternAtom(atom));
    }
    default:
      break;
  }
  auto binary = mlir::cast<mlir::AffineBinaryOpExpr>(e);
  XI_ASSIGN_OR_RETURN(Linear lhs, Normalize(binary.getLHS(), substitute));
  XI_ASSIGN_OR_RETURN(Linear rhs, Normalize(binary.getRHS(), substitute));
  switch (e.getKind()) {
    case AffineExprKind::Add:
      return Add(lhs, rhs);
    case AffineExprKind::Mul:
      if (rhs.terms.empty()) return Scale(lhs, rhs.constant);
      if (lhs.terms.empty()) return Scale(rhs, lhs.constant);
      return absl::InvalidArgumentError("a product without a constant factor");
    default:
      if (!rhs.terms.empty()) {
        return absl::InvalidArgumentError("a division by a non-constant");
      }
      return Divide(e.getKind(), std::move(lhs), rhs.constant);
  }
}

// The int64 value of `v`, or the error naming it.
absl::StatusOr<int64_t> Narrow(Int128 v) {
  if (v < std::numeric_limits<int64_t>::min() ||
      v > std::numeric_limits<int64_t>::max()) {
    return absl::OutOfRangeError(
        absl::StrCat(Text(v), " does not fit in int64"));
  }
  return static_cast<int64_t>(v);
}

absl::StatusOr<AffineExpr> Normalizer::BuildAtom(int index,
                                                 mlir::MLIRContext* ctx) {
  const Atom atom = atoms_[index];
  switch (atom.kind) {
    case AffineExprKind::DimId:
      return mlir::getAffineDimExpr(atom.variable, ctx);
    case AffineExprKind::SymbolId:
      return mlir::getAffineSymbolExpr(atom.variable, ctx);
    default:
      break;
  }
  XI_ASSIGN_OR_RETURN(AffineExpr numerator, Build(forms_[atom.numerator], ctx));
  XI_ASSIGN_OR_RETURN(int64_t divisor, Narrow(atom.divisor));
  return CheckedAffineBinaryOp(atom.kind, numerator,
                               mlir::getAffineConstantExpr(divisor, ctx));
}

absl::StatusOr<AffineExpr> Normalizer::Build(const Linear& form,
                                             mlir::MLIRContext* ctx) {
  AffineExpr sum;
  for (const auto& [atom, coefficient] : form.terms) {
    XI_ASSIGN_OR_RETURN(AffineExpr term, BuildAtom(atom, ctx));
    XI_ASSIGN_OR_RETURN(int64_t k, Narrow(coefficient));
    XI_ASSIGN_OR_RETURN(
        term, CheckedAffineMul(term, mlir::getAffineConstantExpr(k, ctx)));
    if (!sum) {
      sum = term;
      continue;
    }
    XI_ASSIGN_OR_RETURN(sum, CheckedAffineAdd(sum, term));
  }
  XI_ASSIGN_OR_RETURN(int64_t constant, Narrow(form.constant));
  AffineExpr c = mlir::getAffineConstantExpr(constant, ctx);
  if (!sum) return c;
  if (constant == 0) return sum;
  return CheckedAffineAdd(sum, c);
}

}  // namespace

absl::StatusOr<AffineExpr> WideReplaceDimsAndSymbols(
    AffineExpr expr, llvm::ArrayRef<AffineExpr> dims,
    llvm::ArrayRef<AffineExpr> symbols) {
  Normalizer normalizer(dims, symbols);
  XI_ASSIGN_OR_RETURN(Linear form,
                      normalizer.Normalize(expr, /*substitute=*/true));
  return normalizer.Build(form, expr.getContext());
}

}  // namespace xla_index
