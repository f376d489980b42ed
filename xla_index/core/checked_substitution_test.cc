// CheckedSubstitution's fast path (MLIR's own operation where no fold can
// leave int64) against two independent references on random expressions:
//   - the substitution rebuilt node by node through CheckedAffineBinaryOp
//     alone (every fold checked): the same node, or an error in both;
//   - exact evaluation (exact_affine_eval.h): the substituted expression
//     has, at random points, the value of the original at the values of
//     the replacements.

#include <cstdint>
#include <functional>
#include <iterator>
#include <optional>
#include <random>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/checked_affine_expr.h"
#include "xla_index/core/exact_affine_eval.h"

namespace xla_index {
namespace {

using mlir::AffineExpr;

// The substitution with every operation through CheckedAffineBinaryOp.
absl::StatusOr<AffineExpr> SlowReplace(AffineExpr e,
                                       llvm::ArrayRef<AffineExpr> dims,
                                       llvm::ArrayRef<AffineExpr> symbols) {
  if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(e)) {
    return d.getPosition() < dims.size() ? dims[d.getPosition()] : e;
  }
  if (auto s = mlir::dyn_cast<mlir::AffineSymbolExpr>(e)) {
    return s.getPosition() < symbols.size() ? symbols[s.getPosition()] : e;
  }
  auto binary = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(e);
  if (!binary) return e;
  absl::StatusOr<AffineExpr> lhs = SlowReplace(binary.getLHS(), dims, symbols);
  if (!lhs.ok()) return lhs;
  absl::StatusOr<AffineExpr> rhs = SlowReplace(binary.getRHS(), dims, symbols);
  if (!rhs.ok()) return rhs;
  if (*lhs == binary.getLHS() && *rhs == binary.getRHS()) return e;
  return CheckedAffineBinaryOp(e.getKind(), *lhs, *rhs);
}

std::string Text(AffineExpr e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << e;
  return s;
}

class CheckedSubstitutionTest : public ::testing::Test {
 protected:
  int64_t Uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  // A constant: mostly small, sometimes near the fast path's limit 2^15 or
  // far beyond it (up to 2^40), either sign.
  int64_t Constant() {
    const int64_t magnitude = Uniform(0, 9) < 6    ? Uniform(1, 70)
                              : Uniform(0, 1) == 0 ? Uniform(20000, 40000)
                                                   : Uniform(1, 1) << 40;
    return Uniform(0, 3) == 0 ? -magnitude : magnitude;
  }
  // A random affine expression over d0, d1 and s0 (products always have a
  // constant factor; divisors are positive constants).
  AffineExpr Random(int depth) {
    if (depth == 0 || Uniform(0, 9) < 2) {
      switch (Uniform(0, 3)) {
        case 0:
          return mlir::getAffineConstantExpr(Constant(), &context_);
        case 1:
          return mlir::getAffineSymbolExpr(0, &context_);
        default:
          return mlir::getAffineDimExpr(Uniform(0, 1), &context_);
      }
    }
    AffineExpr a = Random(depth - 1);
    const int64_t divisor = std::max<int64_t>(1, std::abs(Constant()));
    switch (Uniform(0, 5)) {
      case 0:
      case 1:
        return a + Random(depth - 1);
      case 2:
        return a * Constant();
      case 3:
        return a.floorDiv(divisor);
      case 4:
        return a % divisor;
      default:
        return a.ceilDiv(divisor);
    }
  }
  mlir::MLIRContext context_;
  std::mt19937_64 rng_{29};
};

TEST_F(CheckedSubstitutionTest, SameAsEveryFoldCheckedAndExact) {
  int compared = 0, errors = 0;
  for (int iteration = 0; iteration < 3000; ++iteration) {
    const AffineExpr expr = Random(4);
    const llvm::SmallVector<AffineExpr, 2> dims = {Random(3), Random(3)};
    const llvm::SmallVector<AffineExpr, 1> symbols = {Random(2)};
    const absl::StatusOr<AffineExpr> fast =
        CheckedSubstitution(dims, symbols).Apply(expr);
    const absl::StatusOr<AffineExpr> slow = SlowReplace(expr, dims, symbols);
    ASSERT_EQ(fast.ok(), slow.ok()) << Text(expr) << "\nfast: " << fast.status()
                                    << "\nslow: " << slow.status();
    if (!fast.ok()) {
      ++errors;
      continue;
    }
    ASSERT_EQ(*fast, *slow) << Text(expr) << "\n"
                            << Text(*fast) << "\n"
                            << Text(*slow);
    // Exact values at random points (the new variables are d0, d1, s0 of
    // the replacements).
    for (int p = 0; p < 8; ++p) {
      const std::vector<int64_t> point = {Uniform(-50, 50), Uniform(-50, 50)};
      const std::vector<int64_t> symbol = {Uniform(-50, 50)};
      std::vector<int64_t> inner_dims, inner_symbols;
      bool representable = true;
      for (AffineExpr d : dims) {
        exact::Value v = exact::Evaluate(d, point, symbol);
        representable &= v.kind == exact::Value::kValue &&
                         v.value >= INT64_MIN && v.value <= INT64_MAX;
        inner_dims.push_back(static_cast<int64_t>(v.value));
      }
      exact::Value s = exact::Evaluate(symbols[0], point, symbol);
      representable &= s.kind == exact::Value::kValue && s.value >= INT64_MIN &&
                       s.value <= INT64_MAX;
      inner_symbols.push_back(static_cast<int64_t>(s.value));
      if (!representable) continue;
      const exact::Value want =
          exact::Evaluate(expr, inner_dims, inner_symbols);
      const exact::Value got = exact::Evaluate(*fast, point, symbol);
      if (want.kind != exact::Value::kValue) continue;
      ASSERT_EQ(got.kind, exact::Value::kValue) << Text(*fast);
      ASSERT_TRUE(got.value == want.value)
          << Text(expr) << " -> " << Text(*fast) << " at (" << point[0] << ", "
          << point[1] << ")[" << symbol[0]
          << "]: " << exact::ToString(got.value)
          << " != " << exact::ToString(want.value);
      ++compared;
    }
  }
  // The generator reaches both outcomes.
  EXPECT_GT(compared, 10000);
  EXPECT_GT(errors, 0);
}

// Whether `replaced` has, at random points over d0, d1 and s0, the value
// `expr` has at the values of the replacements (exact_affine_eval.h); the
// number of points compared is added to `compared`.
::testing::AssertionResult ExactAtPoints(AffineExpr expr, AffineExpr replaced,
                                         llvm::ArrayRef<AffineExpr> dims,
                                         llvm::ArrayRef<AffineExpr> symbols,
                                         std::mt19937_64& rng, int& compared) {
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  auto fits = [](const exact::Value& v) {
    return v.kind == exact::Value::kValue && v.value >= INT64_MIN &&
           v.value <= INT64_MAX;
  };
  for (int p = 0; p < 8; ++p) {
    const std::vector<int64_t> point = {uniform(-50, 50), uniform(-50, 50)};
    const std::vector<int64_t> symbol = {uniform(-50, 50)};
    std::vector<int64_t> inner_dims, inner_symbols;
    bool representable = true;
    for (AffineExpr d : dims) {
      const exact::Value v = exact::Evaluate(d, point, symbol);
      representable &= fits(v);
      inner_dims.push_back(static_cast<int64_t>(v.value));
    }
    for (AffineExpr s : symbols) {
      const exact::Value v = exact::Evaluate(s, point, symbol);
      representable &= fits(v);
      inner_symbols.push_back(static_cast<int64_t>(v.value));
    }
    if (!representable) continue;
    const exact::Value want = exact::Evaluate(expr, inner_dims, inner_symbols);
    if (want.kind != exact::Value::kValue) continue;
    const exact::Value got = exact::Evaluate(replaced, point, symbol);
    if (got.kind != exact::Value::kValue || got.value != want.value) {
      return ::testing::AssertionFailure()
             << Text(expr) << " -> " << Text(replaced) << " at (" << point[0]
             << ", " << point[1] << ")[" << symbol[0]
             << "]: " << exact::ToString(got.value)
             << " != " << exact::ToString(want.value);
    }
    ++compared;
  }
  return ::testing::AssertionSuccess();
}

// A map whose results share subtrees (as a reshape's results share its
// linear index) is substituted once per node (CheckedSubstitution's memo):
// each result must be what substituting it alone, every fold checked,
// gives, and the map an error exactly when one of its results is one (the
// first's). The replacements have constants at the edges: 2^15 (the
// largest the fast path takes) and 2^15 + 1, and int64's own limits.
TEST_F(CheckedSubstitutionTest, MapWithSharedSubtreesSameAsEachResultAlone) {
  const int64_t edges[] = {1 << 15,   (1 << 15) + 1,    -(1 << 15), INT64_MAX,
                           INT64_MIN, int64_t{1} << 62, -1,         3};
  auto edge = [&] { return edges[Uniform(0, std::size(edges) - 1)]; };
  int compared = 0, errors = 0, maps_ok = 0;
  for (int iteration = 0; iteration < 1500; ++iteration) {
    const AffineExpr shared = Random(3);
    llvm::SmallVector<AffineExpr, 4> results;
    for (int r = 0; r < 4; ++r) {
      // Each result uses the shared subtree, once or twice.
      AffineExpr result = shared * Constant() + Random(2);
      if (Uniform(0, 1) == 0) result = result.floorDiv(7) + shared;
      if (Uniform(0, 1) == 0) result = result % 5;
      results.push_back(result);
    }
    const mlir::AffineMap map = mlir::AffineMap::get(2, 1, results, &context_);
    // Replacements: random, or scaled by an edge constant.
    auto replacement = [&] {
      AffineExpr e = Random(2);
      return Uniform(0, 2) == 0 ? e * edge() : e;
    };
    const llvm::SmallVector<AffineExpr, 2> dims = {replacement(),
                                                   replacement()};
    const llvm::SmallVector<AffineExpr, 1> symbols = {replacement()};
    const absl::StatusOr<mlir::AffineMap> fast =
        CheckedSubstitution(dims, symbols).Apply(map, 2, 1);
    std::optional<absl::Status> first_error;
    llvm::SmallVector<AffineExpr, 4> slow_results;
    for (AffineExpr result : results) {
      const absl::StatusOr<AffineExpr> slow =
          SlowReplace(result, dims, symbols);
      if (!slow.ok()) {
        first_error = slow.status();
        break;
      }
      slow_results.push_back(*slow);
    }
    if (first_error) {
      ASSERT_FALSE(fast.ok()) << Text(results[slow_results.size()]);
      EXPECT_EQ(fast.status().code(), first_error->code()) << fast.status();
      ++errors;
      continue;
    }
    ASSERT_TRUE(fast.ok()) << fast.status();
    ++maps_ok;
    for (size_t r = 0; r < results.size(); ++r) {
      ASSERT_EQ(fast->getResult(r), slow_results[r])
          << Text(results[r]) << "\n"
          << Text(fast->getResult(r)) << "\n"
          << Text(slow_results[r]);
      ASSERT_TRUE(ExactAtPoints(results[r], fast->getResult(r), dims, symbols,
                                rng_, compared));
    }
  }
  // The generator reaches both outcomes.
  EXPECT_GT(maps_ok, 100);
  EXPECT_GT(errors, 100);
  EXPECT_GT(compared, 5000);
}

// Operands shaped like those of MLIR's rewrites of a sum to a mod
// (MLIR's simplifyAdd: e + (e floordiv q) * -q, and a right operand ending
// in -1) must not take MLIR's own result even when every constant is
// small: there CheckedAffineBinaryOp refuses, or builds something other
// than MLIR builds.
TEST_F(CheckedSubstitutionTest, ModShapedOperandsTakeTheCheckedPath) {
  const AffineExpr d0 = mlir::getAffineDimExpr(0, &context_);
  const AffineExpr d1 = mlir::getAffineDimExpr(1, &context_);
  const AffineExpr s0 = mlir::getAffineSymbolExpr(0, &context_);
  const AffineExpr sum = d0 + d1;
  // (s0 floordiv -6) * 6: CheckedAffineBinaryOp refuses s0 + it (by the
  // rule of MLIR's rewrite it would be `s0 mod -6`, which has no value),
  // where MLIR 22 itself leaves the sum: taking MLIR's node would change
  // today's answer.
  {
    const llvm::SmallVector<AffineExpr, 2> dims = {s0, s0.floorDiv(-6) * 6};
    const absl::StatusOr<AffineExpr> fast =
        CheckedSubstitution(dims, {}).Apply(sum);
    EXPECT_FALSE(fast.ok()) << Text(*fast);
    EXPECT_FALSE(SlowReplace(sum, dims, {}).ok());
    EXPECT_EQ(sum.replaceDimsAndSymbols(dims, {}).getKind(),
              mlir::AffineExprKind::Add);
  }
  // (s0 floordiv 4) * 4 - 1: MLIR makes s0 + it `s0 mod 4`, off by one.
  {
    const llvm::SmallVector<AffineExpr, 2> dims = {s0, s0.floorDiv(4) * 4 - 1};
    const absl::StatusOr<AffineExpr> fast =
        CheckedSubstitution(dims, {}).Apply(sum);
    ASSERT_TRUE(fast.ok()) << fast.status();
    const absl::StatusOr<AffineExpr> slow = SlowReplace(sum, dims, {});
    ASSERT_TRUE(slow.ok()) << slow.status();
    EXPECT_EQ(*fast, *slow) << Text(*fast) << " vs " << Text(*slow);
    int compared = 0;
    EXPECT_TRUE(ExactAtPoints(sum, *fast, dims, {}, rng_, compared));
    EXPECT_GT(compared, 0);
    EXPECT_NE(*fast, sum.replaceDimsAndSymbols(dims, {}));
  }
}

}  // namespace
}  // namespace xla_index
