// ComposeIndexingMaps at the int64 edge: where MLIR's int64 folds of the
// substitution leave int64 but the composed map fits, the composition is
// exact (computed in 128 bits and expressed again, wide_substitution.h);
// it is UNDEFINED only where some point of the domain has a value beyond
// int64.
//
// Independent truth: every composed map is compared, point by point over
// the first map's domain, with the exact (__int128) value of the second
// map at the exact value of the first (exact_affine_eval.h).

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/exact_affine_eval.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

constexpr int64_t kMax = INT64_MAX;

class ComposeInt64EdgeTest : public ::testing::Test {
 protected:
  IndexingMap Parse(const std::string& text) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context_);
    EXPECT_TRUE(map.ok()) << map.status() << "\n" << text;
    return map.ok() ? *map : IndexingMap::Undefined("unparsed");
  }

  // Whether `composed` is `second` after `first` at every point of first's
  // (one-dimensional, symbol-free) domain: the same points, the same exact
  // values; false also when some point has no int64 value (then no exact
  // map exists).
  static bool IsExactComposition(const IndexingMap& first,
                                 const IndexingMap& second,
                                 const IndexingMap& composed,
                                 std::string* why) {
    const Interval box = first.GetDimBound(0);
    for (int64_t d = box.lower;; ++d) {
      const int64_t point[] = {d};
      const exact::PointValue inner = exact::EvaluateAt(first, point, {});
      if (inner.kind != exact::Value::kValue) {
        *why = absl::StrCat("first has no value at ", d);
        return false;
      }
      bool in_second = inner.holds;
      exact::PointValue outer;
      if (in_second) {
        std::vector<int64_t> middle;
        for (exact::Int v : inner.results) {
          if (v < INT64_MIN || v > INT64_MAX) {
            *why = absl::StrCat("first's result at ", d, " leaves int64");
            return false;
          }
          middle.push_back(static_cast<int64_t>(v));
        }
        for (size_t i = 0; i < middle.size(); ++i) {
          in_second &= second.GetDimBound(i).Contains(middle[i]);
        }
        if (in_second) outer = exact::EvaluateAt(second, middle, {});
        in_second &= outer.kind == exact::Value::kValue && outer.holds;
      }
      const exact::PointValue got = exact::EvaluateAt(composed, point, {});
      if (got.kind != exact::Value::kValue || got.holds != in_second ||
          (in_second && got.results != outer.results)) {
        *why = absl::StrCat("the composition differs at ", d);
        return false;
      }
      for (exact::Int v : got.results) {
        if (v < INT64_MIN || v > INT64_MAX) {
          *why = absl::StrCat("a value at ", d, " leaves int64");
          return false;
        }
      }
      if (d == box.upper) break;
    }
    return true;
  }

  void ExpectExact(const std::string& first_text,
                   const std::string& second_text,
                   const std::string& expected_results) {
    const IndexingMap first = Parse(first_text);
    const IndexingMap second = Parse(second_text);
    IndexingMap composed = ComposeIndexingMaps(first, second);
    ASSERT_FALSE(composed.IsUndefined()) << composed.undefined_reason();
    std::string why;
    EXPECT_TRUE(IsExactComposition(first, second, composed, &why))
        << why << "\n"
        << ToString(composed);
    composed.Simplify();
    EXPECT_TRUE(IsExactComposition(first, second, composed, &why))
        << why << "\n"
        << ToString(composed);
    const std::string text = ToString(composed);
    EXPECT_EQ(text.substr(0, text.find('\n')), expected_results);
  }

  mlir::MLIRContext context_;
};

const char kWholeLine[] =
    "\ndomain:\nd0 in [-9223372036854775808, 9223372036854775807]";

// (d0 * 2^61) * 4 folds to d0 * 2^63 in int64; the map is d0 * 4.
TEST_F(ComposeInt64EdgeTest, ProductBeyondInt64DividedBack) {
  ExpectExact("(d0) -> (d0 * 2305843009213693952)\ndomain:\nd0 in [-2, 0]",
              std::string("(d0) -> ((d0 * 4) floordiv 2305843009213693952)") +
                  kWholeLine,
              "(d0) -> (d0 * 4)");
}

// (d0 + MAX - 2) + 7 folds MAX + 5; (d0 + 2^63 + 4) floordiv 4 is
// d0 floordiv 4 + 2^61 + 1.
TEST_F(ComposeInt64EdgeTest, ConstantBeyondInt64Halved) {
  ExpectExact(
      absl::StrCat("(d0) -> (d0 + ", kMax - 2, ")\ndomain:\nd0 in [-9, -3]"),
      std::string("(d0) -> ((d0 + 7) floordiv 4)") + kWholeLine,
      "(d0) -> (d0 floordiv 4 + 2305843009213693953)");
}

// (d0 + MAX) + 3 mod 8: 2^63 + 2 leaves int64, the residue is (d0 + 2)
// mod 8.
TEST_F(ComposeInt64EdgeTest, ConstantBeyondInt64UnderMod) {
  ExpectExact(
      absl::StrCat("(d0) -> (d0 + ", kMax, ")\ndomain:\nd0 in [-12, -1]"),
      std::string("(d0) -> ((d0 + 3) mod 8)") + kWholeLine,
      "(d0) -> ((d0 + 2) mod 8)");
}

// A ceildiv by a negative divisor of a sum beyond int64.
TEST_F(ComposeInt64EdgeTest, CeilDivByNegativeBeyondInt64) {
  const IndexingMap first = Parse(
      absl::StrCat("(d0) -> (d0 + ", kMax - 1, ")\ndomain:\nd0 in [-6, 0]"));
  const IndexingMap second =
      Parse(std::string("(d0) -> ((d0 + 9) ceildiv 4)") + kWholeLine);
  // Built through MLIR: the text format has no negative divisor.
  mlir::AffineExpr d0 = mlir::getAffineDimExpr(0, &context_);
  const IndexingMap negative(
      mlir::AffineMap::get(1, 0, {(d0 * 3 + 9).ceilDiv(-4)}, &context_),
      {Interval{INT64_MIN, INT64_MAX}}, {}, {});
  for (const IndexingMap& outer : {second, negative}) {
    const IndexingMap composed = ComposeIndexingMaps(first, outer);
    ASSERT_FALSE(composed.IsUndefined()) << composed.undefined_reason();
    std::string why;
    EXPECT_TRUE(IsExactComposition(first, outer, composed, &why))
        << why << "\n"
        << ToString(composed);
  }
}

// No exact map: at d0 = 1 the value is 2^64.
TEST_F(ComposeInt64EdgeTest, UndefinedWhereAValueLeavesInt64) {
  const IndexingMap first =
      Parse("(d0) -> (d0 * 4611686018427387904)\ndomain:\nd0 in [0, 1]");
  const IndexingMap second =
      Parse(std::string("(d0) -> (d0 * 4 + 1)") + kWholeLine);
  const IndexingMap composed = ComposeIndexingMaps(first, second);
  ASSERT_TRUE(composed.IsUndefined()) << ToString(composed);
  EXPECT_NE(composed.undefined_reason().find("cannot be represented exactly"),
            std::string::npos);
}

// Random pairs around the int64 edge: a defined composition is exact, and
// an undefined one has a point whose value leaves int64 (checked by
// brute force).
TEST_F(ComposeInt64EdgeTest, RandomPairsAreExactOrHaveNoInt64Map) {
  std::mt19937_64 rng(30);
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  const int64_t big[] = {int64_t{1} << 61, int64_t{1} << 62,   kMax, kMax - 3,
                         INT64_MIN + 1,    -(int64_t{1} << 62)};
  int defined = 0, undefined = 0;
  for (int i = 0; i < 1500; ++i) {
    const int64_t k = big[uniform(0, 5)];
    const int64_t lo = uniform(-8, 0);
    const std::string first_text =
        uniform(0, 1) == 0
            ? absl::StrCat("(d0) -> (d0 * ", k, ")\ndomain:\nd0 in [", lo, ", ",
                           lo + uniform(0, 3), "]")
            : absl::StrCat("(d0) -> (d0 + ", k, ")\ndomain:\nd0 in [", lo, ", ",
                           lo + uniform(0, 6), "]");
    const int64_t m = uniform(1, 5), c = uniform(-9, 9);
    const int64_t divisor =
        uniform(0, 1) == 0 ? uniform(2, 9) : big[uniform(0, 1)];
    const char* op = uniform(0, 2) == 0   ? "floordiv"
                     : uniform(0, 1) == 0 ? "ceildiv"
                                          : "mod";
    const std::string second_text =
        absl::StrCat("(d0) -> ((d0 * ", m, " + ", c, ") ", op, " ", divisor,
                     ")", kWholeLine);
    const IndexingMap first = Parse(first_text);
    const IndexingMap second = Parse(second_text);
    // Only maps whose values fit in int64 are maps: first's, and second's
    // at first's values.
    auto out = [](exact::Int v) { return v < INT64_MIN || v > INT64_MAX; };
    bool fits = true;
    for (int64_t d = first.GetDimBound(0).lower;
         fits && d <= first.GetDimBound(0).upper; ++d) {
      const int64_t point[] = {d};
      const exact::Int v = exact::EvaluateAt(first, point, {}).results[0];
      fits = !out(v);
      if (!fits) break;
      const int64_t middle[] = {static_cast<int64_t>(v)};
      const exact::PointValue outer = exact::EvaluateAt(second, middle, {});
      fits = outer.kind == exact::Value::kValue && !out(outer.results[0]);
    }
    if (!fits) continue;
    const IndexingMap composed = ComposeIndexingMaps(first, second);
    std::string why;
    if (composed.IsUndefined()) {
      ++undefined;
      // Every value fits (above): then the part the division takes out
      // of the numerator a * d0 + b (b = c or m * k + c) leaves int64, as
      // floor(a / divisor) * d0 or floor(b / divisor): no map of the
      // normal form is within int64.
      const bool scaled = first_text.find(" * ") != std::string::npos;
      const exact::Int a = scaled ? exact::Int{k} * m : exact::Int{m};
      const exact::Int b = scaled ? exact::Int{c} : exact::Int{k} * m + c;
      const bool leaves = std::string(op) != "mod" &&
                          ((out(a) && out(a / divisor)) || out(b / divisor));
      EXPECT_TRUE(leaves) << first_text << "\nthen\n"
                          << second_text << "\n"
                          << composed.undefined_reason();
      continue;
    }
    ++defined;
    EXPECT_TRUE(IsExactComposition(first, second, composed, &why))
        << why << "\n"
        << first_text << "\nthen\n"
        << second_text << "\n-> " << ToString(composed);
  }
  EXPECT_GT(defined, 100);
  EXPECT_GE(undefined, 1);
}

}  // namespace
}  // namespace xla_index
