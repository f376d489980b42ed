#include "xla_index/core/checked_affine_expr.h"

#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/MLIRContext.h"

namespace xla_index {
namespace {

using mlir::AffineExpr;
using mlir::AffineExprKind;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t k2To62 = int64_t{1} << 62;

class CheckedAffineExprTest : public ::testing::Test {
 protected:
  AffineExpr D(int i) { return mlir::getAffineDimExpr(i, &context_); }
  AffineExpr S(int i) { return mlir::getAffineSymbolExpr(i, &context_); }
  AffineExpr C(int64_t v) { return mlir::getAffineConstantExpr(v, &context_); }
  mlir::MLIRContext context_;
};

// The examples of the issue: MLIR's operators wrap, the checked ones refuse.
TEST_F(CheckedAffineExprTest, RefusesWhatMlirWraps) {
  // (d0 * 2^62) * 2: MLIR gives d0 * -2^63.
  AffineExpr product = *CheckedAffineMul(D(0), C(k2To62));
  EXPECT_EQ(D(0) * k2To62 * 2, D(0) * kMin);
  absl::StatusOr<AffineExpr> doubled = CheckedAffineMul(product, C(2));
  ASSERT_FALSE(doubled.ok());
  EXPECT_EQ(doubled.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(doubled.status().message(),
            "4611686018427387904 * 2 does not fit in int64");
  // (d0 + MAX) + 1.
  AffineExpr sum = *CheckedAffineAdd(D(0), C(kMax));
  EXPECT_FALSE(CheckedAffineAdd(sum, C(1)).ok());
  // d0 - MAX - MAX: MLIR gives d0 + 2.
  AffineExpr once = *CheckedAffineSub(D(0), C(kMax));
  EXPECT_EQ(D(0) - kMax - kMax, D(0) + 2);
  EXPECT_FALSE(CheckedAffineSub(once, C(kMax)).ok());
  // -(d0 * MIN) and MIN - 1 and MAX + MAX of constants.
  EXPECT_FALSE(CheckedAffineNeg(D(0) * kMin).ok());
  EXPECT_FALSE(CheckedAffineSub(C(kMin), C(1)).ok());
  EXPECT_FALSE(CheckedAffineAdd(C(kMax), C(kMax)).ok());
  // Like terms: d0 * MAX + d0.
  EXPECT_FALSE(CheckedAffineAdd(D(0) * kMax, D(0)).ok());
  // Moving a constant right: (d0 * MAX + 1) + d0 * 1 -> d0 * (MAX + 1).
  EXPECT_FALSE(CheckedAffineAdd(D(0) * kMax + 1, D(0)).ok());
  // (d0 * 2^62) * s0 * 2 -> (d0 * s0) * 2^63.
  EXPECT_FALSE(CheckedAffineMul(D(0) * k2To62 * S(0), C(2)).ok());
}

// Constants divided by negative constants (the parser accepts floordiv and
// ceildiv by them): the exact quotient, or an error for INT64_MIN / -1.
TEST_F(CheckedAffineExprTest, ConstantsByNegativeDivisors) {
  using mlir::AffineExprKind;
  auto div = [&](AffineExprKind kind, int64_t a, int64_t b) {
    return CheckedAffineBinaryOp(kind, C(a), C(b));
  };
  EXPECT_EQ(*div(AffineExprKind::CeilDiv, 0, -1), C(0));
  EXPECT_EQ(*div(AffineExprKind::FloorDiv, 7, -2), C(-4));
  EXPECT_EQ(*div(AffineExprKind::CeilDiv, 7, -2), C(-3));
  EXPECT_EQ(*div(AffineExprKind::FloorDiv, kMin, -2), C(int64_t{1} << 62));
  absl::StatusOr<AffineExpr> wraps = div(AffineExprKind::FloorDiv, kMin, -1);
  ASSERT_FALSE(wraps.ok());
  EXPECT_EQ(wraps.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_FALSE(div(AffineExprKind::CeilDiv, kMin, -1).ok());
}

TEST_F(CheckedAffineExprTest, SixtyFourDoublingsFail) {
  AffineExpr e = D(0);
  int doublings = 0;
  for (; doublings < 64; ++doublings) {
    absl::StatusOr<AffineExpr> next = CheckedAffineMul(e, C(2));
    if (!next.ok()) break;
    e = *next;
  }
  EXPECT_EQ(doublings, 62);  // d0 * 2^62 is the last that fits.
  EXPECT_EQ(e, D(0) * k2To62);
}

TEST_F(CheckedAffineExprTest, BuildsWhatMlirBuilds) {
  EXPECT_EQ(*CheckedAffineAdd(C(3), D(0)), D(0) + 3);
  EXPECT_EQ(*CheckedAffineAdd(D(0) + 2, D(1)), D(0) + D(1) + 2);
  EXPECT_EQ(*CheckedAffineAdd(D(0) * 3, D(0) * 4), D(0) * 7);
  EXPECT_EQ(*CheckedAffineAdd(D(0), D(0).floorDiv(4) * -4), D(0) % 4);
  EXPECT_EQ(
      *CheckedAffineBinaryOp(AffineExprKind::FloorDiv, D(0) * 6 + D(1), C(3)),
      D(0) * 2 + D(1).floorDiv(3));
  EXPECT_EQ(*CheckedAffineBinaryOp(AffineExprKind::Mod, D(0) % 6, C(3)),
            D(0) % 3);
  EXPECT_EQ(*CheckedAffineMul(S(0) * 2, D(0)), D(0) * (S(0) * 2));
  EXPECT_EQ(*CheckedAffineAdd(D(0), D(0) * -1), C(0));
}

// MLIR rewrites e + ((e floordiv q) * q - 1) to e mod q, which is wrong;
// the checked sum keeps its value.
TEST_F(CheckedAffineExprTest, AvoidsMlirsWrongModRewrite) {
  AffineExpr rhs = D(0).floorDiv(4) * 4 - 1;
  EXPECT_EQ(D(0) + rhs, D(0) % 4);  // MLIR's answer; d0 = 1 gives -1, not 1.
  EXPECT_EQ(*CheckedAffineAdd(D(0), rhs), D(0) + D(0).floorDiv(4) * 4 - 1);
}

// MLIR's known divisor of (d0 * 2 + s0 * 2) * INT64_MIN is 2 * 2^63, which
// wraps to 0, a multiple of 3: it folds the mod to 0, though d0 = 1, s0 = 0
// gives (2 * -2^63) mod 3 = 2. Every nonzero value of the product leaves
// int64, so the checked build refuses; a product whose divisor is exactly
// 2^63 keeps MLIR's (right) answer.
TEST_F(CheckedAffineExprTest, RefusesAFoldOnAWrappedKnownDivisor) {
  AffineExpr even = (D(0) * 2 + S(0) * 2) * kMin;
  EXPECT_EQ(even % 3, C(0));  // MLIR's answer.
  absl::StatusOr<AffineExpr> mod =
      CheckedAffineBinaryOp(AffineExprKind::Mod, even, C(3));
  ASSERT_FALSE(mod.ok());
  EXPECT_EQ(mod.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_FALSE(
      CheckedAffineBinaryOp(AffineExprKind::FloorDiv, even + D(1), C(3)).ok());
  AffineExpr odd = (D(0) + S(0)) * kMin;
  EXPECT_EQ(*CheckedAffineBinaryOp(AffineExprKind::Mod, odd, C(3)), odd % 3);
  EXPECT_EQ(*CheckedAffineBinaryOp(AffineExprKind::Mod, odd, C(4)), C(0));
}

// MLIR 22 folds floordiv and ceildiv by negative constants too; the
// checked build gives the same expressions, and refuses none of them.
TEST_F(CheckedAffineExprTest, NegativeDivisorsFoldAsMlirDoes) {
  const AffineExprKind kFloorDiv = AffineExprKind::FloorDiv;
  const AffineExprKind kCeilDiv = AffineExprKind::CeilDiv;
  const std::pair<AffineExprKind, AffineExpr> cases[] = {
      {kFloorDiv, -D(1)},           {kCeilDiv, -D(1)},
      {kFloorDiv, D(1) * 6},        {kCeilDiv, D(1) * 6},
      {kFloorDiv, D(0) * 6 + D(1)}, {kCeilDiv, D(0) * 6 + D(1)},
      {kFloorDiv, D(0) + S(0)},     {kFloorDiv, D(0)}};
  for (size_t i = 0; i < std::size(cases); ++i) {
    const auto& [kind, numerator] = cases[i];
    for (int64_t k : {-1, -3}) {
      AffineExpr mlir = mlir::getAffineBinaryOpExpr(kind, numerator, C(k));
      absl::StatusOr<AffineExpr> checked =
          CheckedAffineBinaryOp(kind, numerator, C(k));
      ASSERT_TRUE(checked.ok())
          << "case " << i << " by " << k << ": " << checked.status();
      EXPECT_EQ(*checked, mlir) << "case " << i << " by " << k;
    }
  }
  EXPECT_EQ(*CheckedAffineBinaryOp(kFloorDiv, -D(1), C(-1)), D(1));
  // Mod by a negative constant is not folded.
  EXPECT_EQ(*CheckedAffineBinaryOp(AffineExprKind::Mod, D(1) * 6, C(-3)),
            mlir::getAffineBinaryOpExpr(AffineExprKind::Mod, D(1) * 6, C(-3)));
}

// MLIR folds s1 - s1 floordiv 2 - s1 floordiv 2 to s1 mod 2, which is
// x - c * (x floordiv c): the checked sum accepts it.
TEST_F(CheckedAffineExprTest, AcceptsMlirsModOfASum) {
  AffineExpr half = S(1).floorDiv(2) * -1;
  EXPECT_EQ(*CheckedAffineAdd(*CheckedAffineAdd(S(1), half), half), S(1) % 2);
  EXPECT_EQ(*CheckedAffineAdd(S(0) + S(1) + half, half), S(0) + S(1) % 2);
}

// MLIR rewrites d0 + (d0 floordiv -3) * 3 to d0 mod -3, which has no value;
// the checked sum refuses it.
TEST_F(CheckedAffineExprTest, RefusesMlirsModByANegativeConstant) {
  absl::StatusOr<AffineExpr> sum =
      CheckedAffineAdd(D(0), D(0).floorDiv(-3) * 3);
  ASSERT_FALSE(sum.ok());
  EXPECT_EQ(sum.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(CheckedAffineAdd(D(0), D(0).floorDiv(-3) * -3 * -1).ok());
  // A positive divisor is MLIR's (right) rewrite.
  EXPECT_EQ(*CheckedAffineAdd(D(0), D(0).floorDiv(3) * -3), D(0) % 3);
}

TEST_F(CheckedAffineExprTest, ProductOfDimensionsIsRefused) {
  absl::StatusOr<AffineExpr> product = CheckedAffineMul(D(0), D(1));
  ASSERT_FALSE(product.ok());
  EXPECT_EQ(product.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(CheckedAffineExprTest, ReplaceChecksTheProductOfCoefficients) {
  // d0 * 2 with d0 := d0 * 2^62.
  EXPECT_FALSE(
      CheckedReplaceDimsAndSymbols(D(0) * 2, {D(0) * k2To62}, {}).ok());
  EXPECT_EQ(*CheckedReplaceDimsAndSymbols(D(0) * 2 + S(0), {D(1) * 3}, {C(5)}),
            D(1) * 6 + 5);
  AffineExpr unchanged = D(0) + D(1) * 3;
  EXPECT_EQ(*CheckedReplaceDimsAndSymbols(unchanged, {D(0), D(1)}, {}),
            unchanged);
}

// Random expressions with constants near the int64 limits, built bottom-up
// through the checked layer; at every point where the written expression
// evaluates without leaving int64 (exact 128-bit evaluation of each
// operation), the built expression must have the same value. When the
// checked build succeeds it must also be the expression MLIR's own
// operators build (the checked layer changes nothing but the errors).
struct Tree {
  AffineExprKind kind;
  int64_t value = 0;  // constant value, or variable number
  std::unique_ptr<Tree> lhs, rhs;
};

using Int128 = __int128;

std::optional<Int128> FitOrNone(Int128 v) {
  if (v < kMin || v > kMax) return std::nullopt;
  return v;
}
Int128 FloorDiv128(Int128 a, Int128 b) {
  Int128 q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
Int128 CeilDiv128(Int128 a, Int128 b) {
  Int128 q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}
std::optional<Int128> Apply(AffineExprKind kind, Int128 a, Int128 b) {
  switch (kind) {
    case AffineExprKind::Add:
      return a + b;
    case AffineExprKind::Mul:
      return a * b;
    case AffineExprKind::FloorDiv:
      if (b == 0) return std::nullopt;
      return FloorDiv128(a, b);
    case AffineExprKind::CeilDiv:
      if (b == 0) return std::nullopt;
      return CeilDiv128(a, b);
    default:
      if (b < 1) return std::nullopt;
      return a - FloorDiv128(a, b) * b;
  }
}

// The written tree's value, nullopt when an intermediate leaves int64.
std::optional<Int128> EvalTree(const Tree& t, const std::vector<int64_t>& v) {
  if (t.kind == AffineExprKind::Constant) return t.value;
  if (t.kind == AffineExprKind::DimId) return v[t.value];
  std::optional<Int128> a = EvalTree(*t.lhs, v), b = EvalTree(*t.rhs, v);
  if (!a || !b) return std::nullopt;
  std::optional<Int128> r = Apply(t.kind, *a, *b);
  return r ? FitOrNone(*r) : std::nullopt;
}

// The built expression's exact value (dims d0, d1 then symbol s0 in `v`).
std::optional<Int128> EvalExpr(AffineExpr e, const std::vector<int64_t>& v) {
  if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(e)) {
    return c.getValue();
  }
  if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(e))
    return v[d.getPosition()];
  if (auto s = mlir::dyn_cast<mlir::AffineSymbolExpr>(e)) return v[2];
  auto bin = mlir::cast<mlir::AffineBinaryOpExpr>(e);
  std::optional<Int128> a = EvalExpr(bin.getLHS(), v);
  std::optional<Int128> b = EvalExpr(bin.getRHS(), v);
  if (!a || !b) return std::nullopt;
  return Apply(e.getKind(), *a, *b);
}

class RandomTrees {
 public:
  explicit RandomTrees(mlir::MLIRContext* ctx, uint32_t seed)
      : ctx_(ctx), rng_(seed) {}

  int64_t Constant() {
    static const int64_t kValues[] = {
        0,      1,       -1,   2,    3,        -5,       7,         64,
        k2To62, -k2To62, kMax, kMin, kMax - 1, kMin + 1, 1LL << 32, 3LL << 61};
    return kValues[Pick(sizeof(kValues) / sizeof(kValues[0]))];
  }

  // A tree and the unchecked MLIR expression of it.
  std::unique_ptr<Tree> Make(int depth) {
    auto t = std::make_unique<Tree>();
    if (depth == 0 || Pick(4) == 0) {
      if (Pick(3) == 0) {
        t->kind = AffineExprKind::Constant;
        t->value = Constant();
      } else {
        t->kind = AffineExprKind::DimId;
        t->value = Pick(3);  // d0, d1 or s0 (index 2)
      }
      return t;
    }
    static const AffineExprKind kKinds[] = {
        AffineExprKind::Add,      AffineExprKind::Add,     AffineExprKind::Mul,
        AffineExprKind::FloorDiv, AffineExprKind::CeilDiv, AffineExprKind::Mod};
    t->kind = kKinds[Pick(6)];
    t->lhs = Make(depth - 1);
    if (t->kind == AffineExprKind::Add) {
      t->rhs = Make(depth - 1);
    } else {
      t->rhs = std::make_unique<Tree>();
      t->rhs->kind = AffineExprKind::Constant;
      int64_t c = Constant();
      // A nonzero divisor, positive for mod (MLIR folds no mod by a
      // negative constant); not -1, by which MLIR's own fold of a numerator
      // with INT64_MIN traps in the unchecked build. (-INT64_MIN does not
      // exist: negating it is undefined behaviour, which an optimized build
      // turned into a divisor of INT64_MIN.)
      if (t->kind == AffineExprKind::Mod && c < 1) {
        c = c == 0 ? 4 : (c == std::numeric_limits<int64_t>::min() ? 3 : -c);
      } else if (t->kind != AffineExprKind::Mul && (c == 0 || c == -1)) {
        c = c == 0 ? 4 : -3;
      }
      t->rhs->value = c;
    }
    return t;
  }

  AffineExpr Leaf(const Tree& t) {
    if (t.kind == AffineExprKind::Constant) {
      return mlir::getAffineConstantExpr(t.value, ctx_);
    }
    return t.value < 2 ? mlir::getAffineDimExpr(t.value, ctx_)
                       : mlir::getAffineSymbolExpr(0, ctx_);
  }
  AffineExpr BuildUnchecked(const Tree& t) {
    if (!t.lhs) return Leaf(t);
    return mlir::getAffineBinaryOpExpr(t.kind, BuildUnchecked(*t.lhs),
                                       BuildUnchecked(*t.rhs));
  }
  absl::StatusOr<AffineExpr> BuildChecked(const Tree& t) {
    if (!t.lhs) return Leaf(t);
    absl::StatusOr<AffineExpr> a = BuildChecked(*t.lhs);
    if (!a.ok()) return a;
    absl::StatusOr<AffineExpr> b = BuildChecked(*t.rhs);
    if (!b.ok()) return b;
    return CheckedAffineBinaryOp(t.kind, *a, *b);
  }
  int64_t Pick(int n) {
    return std::uniform_int_distribution<int>(0, n - 1)(rng_);
  }

 private:
  mlir::MLIRContext* ctx_;
  std::mt19937 rng_;
};

TEST_F(CheckedAffineExprTest, RandomExpressionsKeepTheirValue) {
  RandomTrees trees(&context_, 12345);
  const int64_t kPoints[] = {0,  1,         -1,           2,      -3,   5,
                             17, 1LL << 31, -(1LL << 40), k2To62, kMax, kMin};
  int built = 0, refused = 0, compared = 0;
  for (int i = 0; i < 20000; ++i) {
    std::unique_ptr<Tree> tree = trees.Make(4);
    absl::StatusOr<AffineExpr> checked = trees.BuildChecked(*tree);
    if (!checked.ok()) {
      ASSERT_NE(checked.status().code(), absl::StatusCode::kInternal)
          << checked.status();
      ++refused;
      continue;
    }
    ++built;
    for (int p = 0; p < 30; ++p) {
      std::vector<int64_t> point = {kPoints[trees.Pick(12)],
                                    kPoints[trees.Pick(12)],
                                    kPoints[trees.Pick(12)]};
      std::optional<Int128> expected = EvalTree(*tree, point);
      if (!expected) continue;
      std::optional<Int128> actual = EvalExpr(*checked, point);
      ASSERT_TRUE(actual.has_value());
      ASSERT_TRUE(*actual == *expected)
          << "tree " << i << " at (" << point[0] << ", " << point[1] << ", "
          << point[2] << ")";
      ++compared;
    }
    // Where MLIR's own build is right (no wrapped constant; its one wrong
    // rewrite aside), the checked build is the same expression.
    AffineExpr unchecked = trees.BuildUnchecked(*tree);
    if (unchecked != *checked) {
      bool mlir_wrong = false;
      for (int64_t a : kPoints) {
        std::vector<int64_t> point = {a, kPoints[trees.Pick(12)], 3};
        std::optional<Int128> expected = EvalTree(*tree, point);
        std::optional<Int128> mlir = EvalExpr(unchecked, point);
        if (expected && (!mlir || *mlir != *expected)) mlir_wrong = true;
      }
      EXPECT_TRUE(mlir_wrong) << "tree " << i << ": checked and MLIR differ";
    }
  }
  EXPECT_GT(built, 5000);
  EXPECT_GT(refused, 100);
  EXPECT_GT(compared, 50000);
}

// Adds terms[1..] to `sum` (add_term(t)) and to the left fold of
// CheckedAffineAdd: both give the same expression (counted in `folded`) or
// both refuse (counted in `refused`). Case `i` names a failure.
template <typename AddTerm>
void ExpectLeftFold(const std::vector<AffineExpr>& terms, CheckedAffineSum& sum,
                    AddTerm add_term, int i, int& folded, int& refused) {
  absl::StatusOr<AffineExpr> fold = terms[0];
  absl::Status sum_status;
  for (size_t t = 1; t < terms.size(); ++t) {
    if (fold.ok()) fold = CheckedAffineAdd(*fold, terms[t]);
    if (sum_status.ok()) sum_status = add_term(t);
  }
  absl::StatusOr<AffineExpr> result =
      sum_status.ok() ? sum.Finish() : sum_status;
  ASSERT_EQ(fold.ok(), result.ok())
      << "case " << i << ": " << fold.status() << " vs " << result.status();
  if (fold.ok()) {
    ASSERT_EQ(*fold, *result) << "case " << i;
    ++folded;
  } else {
    ++refused;
  }
}
// CheckedAffineSum is the left fold of CheckedAffineAdd: the same expression
// or, where a constant does not fit, an error in both. Terms are random
// trees, constants near the limits, and sums of earlier terms with a
// constant (like terms of the sum being built, which the fold merges).
TEST_F(CheckedAffineExprTest, SumIsTheLeftFoldOfAdd) {
  RandomTrees trees(&context_, 777);
  int folded = 0, refused = 0;
  for (int i = 0; i < 20000; ++i) {
    std::vector<AffineExpr> terms;
    const int n = 1 + trees.Pick(8);
    for (int t = 0; t < n; ++t) {
      absl::StatusOr<AffineExpr> term;
      switch (trees.Pick(4)) {
        case 0:
          term = C(trees.Constant());
          break;
        case 1:
          term = trees.Pick(2) ? S(trees.Pick(2)) : D(trees.Pick(2));
          break;
        case 2:
          if (!terms.empty()) {
            term = CheckedAffineAdd(terms[trees.Pick(terms.size())],
                                    C(trees.Constant()));
            break;
          }
          [[fallthrough]];
        default:
          term = trees.BuildChecked(*trees.Make(2));
      }
      if (term.ok()) terms.push_back(*term);
    }
    if (terms.empty()) continue;
    CheckedAffineSum sum(terms[0]);
    ASSERT_NO_FATAL_FAILURE(ExpectLeftFold(
        terms, sum, [&](size_t t) { return sum.Add(terms[t]); }, i, folded,
        refused));
  }
  EXPECT_GT(folded, 5000);
  EXPECT_GT(refused, 100);
}

// The same with what a parser knows of its terms: variables and
// variable * k (built by CheckedAffineBuilder::VariableOp) are added with
// their facts, which skips the general fold's queries; the sum must still
// be the left fold of CheckedAffineAdd. Sums of variables in every order,
// like terms, symbols before dims, constants between them.
TEST_F(CheckedAffineExprTest, SumOfKnownTermsIsTheLeftFoldOfAdd) {
  RandomTrees trees(&context_, 4242);
  CheckedAffineBuilder builder(&context_);
  const int64_t factors[] = {-1, 2, -3, 5, 64, k2To62, kMax, kMin};
  int folded = 0, refused = 0;
  for (int i = 0; i < 20000; ++i) {
    std::vector<AffineExpr> terms;
    std::vector<CheckedSumTerm> facts;
    const int n = 1 + trees.Pick(6);
    for (int t = 0; t < n; ++t) {
      CheckedSumTerm f;
      AffineExpr term;
      const int kind = trees.Pick(6);
      if (kind < 4) {
        f.simple = true;
        f.is_dim = trees.Pick(2);
        f.position = trees.Pick(2);
        f.variable = f.is_dim ? D(f.position) : S(f.position);
        term = f.variable;
        if (kind >= 2) {
          absl::StatusOr<AffineExpr> scaled =
              builder.VariableOp(AffineExprKind::Mul, f.variable,
                                 factors[trees.Pick(std::size(factors))]);
          ASSERT_TRUE(scaled.ok());
          term = *scaled;
          f.scaled = true;
        }
      } else if (kind == 4) {
        term = C(trees.Constant());
      } else {
        absl::StatusOr<AffineExpr> tree = trees.BuildChecked(*trees.Make(2));
        if (!tree.ok()) continue;
        term = *tree;
      }
      terms.push_back(term);
      facts.push_back(f);
    }
    if (terms.empty()) continue;
    CheckedAffineSum sum(terms[0], &builder, facts[0]);
    ASSERT_NO_FATAL_FAILURE(ExpectLeftFold(
        terms, sum, [&](size_t t) { return sum.Add(terms[t], facts[t]); }, i,
        folded, refused));
  }
  EXPECT_GT(folded, 10000);
  EXPECT_GT(refused, 10);
}

}  // namespace
}  // namespace xla_index
