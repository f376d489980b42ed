#include "xla_index/core/indexing_map_text.h"

#include <cstdint>
#include <functional>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/box_points.h"
#include "xla_index/core/checked_affine_expr.h"
#include "xla_index/core/exact_affine_eval.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/test_blocks.h"

namespace xla_index {
namespace {

using ::testing::HasSubstr;

class IndexingMapTextTest : public ::testing::Test {
 protected:
  IndexingMap Parse(const std::string& text) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context_);
    EXPECT_TRUE(map.ok()) << map.status() << "\n" << text;
    return map.ok() ? *map : IndexingMap::Undefined();
  }
  mlir::MLIRContext context_;
};

// Every map XLA's indexing-analysis documentation prints reads back and
// prints exactly as the documentation does.
TEST_F(IndexingMapTextTest, EverySeedMapPrintsExactly) {
  std::vector<std::string> maps =
      ReadBlocks("xla_index/core/testdata/seed_000_maps.txt");
  ASSERT_EQ(maps.size(), 40);
  for (const std::string& text : maps) {
    IndexingMap map = Parse(text);
    EXPECT_EQ(ToString(map), text);
    EXPECT_TRUE(map.Verify().ok()) << text;
    // Printing is deterministic and parsing gives the same map back.
    IndexingMap again = Parse(ToString(map));
    EXPECT_EQ(again, map) << text;
  }
}

TEST_F(IndexingMapTextTest, RuntimeVariablesKeepTheirHloAndAccess) {
  IndexingMap map = Parse(
      "(d0, d1)[s0, s1] -> (d0 - s0, d1 - s1)\n"
      "domain:\n"
      "d0 in [0, 19]\n"
      "d1 in [0, 29]\n"
      "s0 in [0, 15]\n"
      "  hlo: of1 = s32[] parameter(2)\n"
      "  (d0, d1) -> ()\n"
      "s1 in [0, 20]\n"
      "  hlo: of2 = s32[] parameter(3)\n"
      "  (d0, d1) -> ()");
  ASSERT_EQ(map.GetRuntimeVarsCount(), 2);
  EXPECT_EQ(map.GetRangeVarsCount(), 0);
  EXPECT_EQ(map.GetRuntimeVars()[0].hlo_text, "of1 = s32[] parameter(2)");
  EXPECT_EQ(map.GetRuntimeVars()[1].feasible_values, (Interval{0, 20}));
  EXPECT_EQ(AffineMapToString(map.GetRuntimeVars()[0].access),
            "(d0, d1) -> ()");
}

// A range variable listed after a runtime one is moved before it: symbols
// are range variables first.
TEST_F(IndexingMapTextTest, RangeSymbolsComeFirst) {
  IndexingMap map = Parse(
      "(d0)[s0, s1] -> (d0 + s0 * 10 + s1)\n"
      "domain:\n"
      "d0 in [0, 9]\n"
      "s0 in [0, 3]\n"
      "  hlo: NULL\n"
      "  (d0) -> ()\n"
      "s1 in [0, 7]");
  EXPECT_EQ(ToString(map),
            "(d0)[s0, s1] -> (d0 + s1 * 10 + s0)\n"
            "domain:\n"
            "d0 in [0, 9]\n"
            "s0 in [0, 7]\n"
            "s1 in [0, 3]\n"
            "  hlo: NULL\n"
            "  (d0) -> ()");
}

TEST_F(IndexingMapTextTest, ParsesXlaOneLineForm) {
  IndexingMap map = Parse(
      "(d0, d1)[s0]{rt0} -> (d0 + rt0, s0 * 2 + d1), domain: d0 in [0, 9], "
      "d1 in [0, 1], s0 in [0, 3], rt0 in [0, 5], d0 + s0 in [0, 8]");
  EXPECT_EQ(ToString(map),
            "(d0, d1)[s0, s1] -> (d0 + s1, d1 + s0 * 2)\n"
            "domain:\n"
            "d0 in [0, 9]\n"
            "d1 in [0, 1]\n"
            "s0 in [0, 3]\n"
            "s1 in [0, 5]\n"
            "  hlo: NULL\n"
            "  (d0, d1) -> ()\n"
            "d0 + s0 in [0, 8]");
  EXPECT_EQ(Parse(ToString(map)), map);
}

TEST_F(IndexingMapTextTest, ParsesNamedVariables) {
  IndexingMap map = Parse(
      "(th_x, bl_x)[chunk] -> (bl_x * 128 + th_x + chunk), domain: th_x in "
      "[0, 127], bl_x in [0, 3], chunk in [0, 1]");
  EXPECT_EQ(AffineMapToString(map.GetAffineMap()),
            "(d0, d1)[s0] -> (d1 * 128 + d0 + s0)");
}

// Spaces, tabs and newlines anywhere between a header's tokens (the
// header is read straight from the text when written plainly) give the map
// the plain spelling gives, written out here.
TEST_F(IndexingMapTextTest, HeaderSpacingDoesNotMatter) {
  IndexingMap map = Parse(
      "( \tx ,y\n)[ z ]{\nw} -> (x + w, z * 2 + y), domain: x in [0, 9], "
      "y in [0, 1], z in [0, 3], w in [0, 5]");
  EXPECT_EQ(ToString(map),
            "(d0, d1)[s0, s1] -> (d0 + s1, d1 + s0 * 2)\n"
            "domain:\n"
            "d0 in [0, 9]\n"
            "d1 in [0, 1]\n"
            "s0 in [0, 3]\n"
            "s1 in [0, 5]\n"
            "  hlo: NULL\n"
            "  (d0, d1) -> ()");
}

// Names that share prefixes, of every length around the name table's
// 8-byte key, in headers below and above its linear-search limit (16
// names): each name is its own variable, and a name declared twice is
// found.
TEST_F(IndexingMapTextTest, NamesOfEveryLengthAreTheirOwnVariables) {
  for (int count : {9, 40}) {
    std::vector<std::string> names;
    for (int i = 0; names.size() < static_cast<size_t>(count); ++i) {
      names.push_back(std::string(1 + i % 12, 'a' + i / 12));
      if (i % 3 == 0) names.back() += "_" + std::to_string(i);
    }
    std::string header = "(", results, domain;
    for (int i = 0; i < count; ++i) {
      absl::StrAppend(&header, i ? ", " : "", names[i]);
      absl::StrAppend(&results, i ? ", " : "", names[count - 1 - i]);
      absl::StrAppend(&domain, ", ", names[i], " in [0, ", i, "]");
    }
    IndexingMap map = Parse(absl::StrCat(header, ") -> (", results,
                                         "), domain:", domain.substr(1)));
    ASSERT_EQ(map.GetDimensionCount(), count);
    for (int i = 0; i < count; ++i) {
      EXPECT_EQ(map.GetAffineMap().getResult(i),
                mlir::getAffineDimExpr(count - 1 - i, &context_))
          << names[count - 1 - i];
      EXPECT_EQ(map.GetDimBound(i).upper, i) << names[i];
    }
    absl::StatusOr<IndexingMap> twice = ParseIndexingMap(
        absl::StrCat(header, ")[", names[count / 2], "] -> ()"), &context_);
    ASSERT_FALSE(twice.ok());
    EXPECT_THAT(std::string(twice.status().message()),
                HasSubstr(absl::StrCat("variable '", names[count / 2],
                                       "' declared twice")));
  }
}

TEST_F(IndexingMapTextTest, Int64Limits) {
  IndexingMap map = Parse(
      "(d0) -> (d0 - 9223372036854775807, -9223372036854775808)\ndomain:\n"
      "d0 in [-9223372036854775808, 9223372036854775807]");
  EXPECT_EQ(ToString(map),
            "(d0) -> (d0 - 9223372036854775807, -9223372036854775808)\n"
            "domain:\nd0 in [-9223372036854775808, 9223372036854775807]");
  EXPECT_EQ(Parse(ToString(map)), map);
}

TEST_F(IndexingMapTextTest, SpecialMaps) {
  EXPECT_EQ(ToString(IndexingMap::Undefined()), "UNDEFINED");
  EXPECT_EQ(ToString(IndexingMap::KnownEmpty(&context_, 2)), "KNOWN EMPTY");
  EXPECT_TRUE(Parse("UNDEFINED").IsUndefined());
  EXPECT_TRUE(Parse("KNOWN EMPTY").IsKnownEmpty());
}

TEST_F(IndexingMapTextTest, ConstraintsPrintSortedByExpression) {
  IndexingMap map = Parse(
      "(d0, d1) -> (d0)\ndomain:\nd0 in [0, 9]\nd1 in [0, 9]\n"
      "d1 mod 2 in [0, 0]\nd0 + d1 in [1, 5]");
  EXPECT_EQ(ToString(map),
            "(d0, d1) -> (d0)\ndomain:\nd0 in [0, 9]\nd1 in [0, 9]\n"
            "d0 + d1 in [1, 5]\nd1 mod 2 in [0, 0]");
}

// A constraint that folds to a lone variable (`0 + s0`) narrows the
// variable's bound: kept as a constraint it would print as a second bound
// of s0, which does not parse (found by the indexing_map_text fuzzer).
TEST_F(IndexingMapTextTest, ConstraintOnALoneVariableNarrowsItsBound) {
  IndexingMap map = Parse(
      "(d0)[s0] -> (d0 + s0)\ndomain:\nd0 in [0, 5]\ns0 in [1, 3]\n"
      "0 + s0 in [0, 2]\nd0 * 1 in [2, 20]");
  const std::string text =
      "(d0)[s0] -> (d0 + s0)\ndomain:\nd0 in [2, 5]\ns0 in [1, 2]";
  EXPECT_EQ(ToString(map), text);
  EXPECT_EQ(ToString(Parse(text)), text);
}

// The printer spells expressions as MLIR and XLA's indexing-analysis
// documentation do.
TEST_F(IndexingMapTextTest, ExpressionSpelling) {
  mlir::AffineExpr d0 = mlir::getAffineDimExpr(0, &context_);
  mlir::AffineExpr d1 = mlir::getAffineDimExpr(1, &context_);
  mlir::AffineExpr s0 = mlir::getAffineSymbolExpr(0, &context_);
  EXPECT_EQ(AffineExprToString(d0 * 8 + d1), "d0 * 8 + d1");
  EXPECT_EQ(AffineExprToString(d0.floorDiv(8)), "d0 floordiv 8");
  EXPECT_EQ(AffineExprToString(-d1 + 16), "-d1 + 16");
  EXPECT_EQ(AffineExprToString((d1 - 3) % 7), "(d1 - 3) mod 7");
  EXPECT_EQ(AffineExprToString(d0 - 5), "d0 - 5");
  EXPECT_EQ(AffineExprToString(d0 - d1 * 3), "d0 - d1 * 3");
  EXPECT_EQ(AffineExprToString(d1 + s0.ceilDiv(4)), "d1 + s0 ceildiv 4");
}

// The printer agrees with MLIR's on expressions MLIR builds, except that it
// parenthesizes a right-nested sum so that the text reads back as the same
// expression (found by tests/fuzz: `(d1 * 4 + d2) floordiv 4` becomes
// `d1 + d2 floordiv 4` inside `d0 * 2 + ...`).
TEST_F(IndexingMapTextTest, PrinterMatchesMlirAndRoundTripsRightNestedSums) {
  std::mt19937 rng(7);
  mlir::AffineExpr leaves[] = {mlir::getAffineDimExpr(0, &context_),
                               mlir::getAffineDimExpr(1, &context_),
                               mlir::getAffineSymbolExpr(0, &context_),
                               mlir::getAffineConstantExpr(3, &context_),
                               mlir::getAffineConstantExpr(-2, &context_)};
  std::function<mlir::AffineExpr(int)> random_expr = [&](int depth) {
    if (depth == 0 || rng() % 4 == 0) return leaves[rng() % 5];
    mlir::AffineExpr a = random_expr(depth - 1);
    switch (rng() % 5) {
      case 0:
        return a + random_expr(depth - 1);
      case 1:
        return a - random_expr(depth - 1);
      case 2:
        return a * static_cast<int64_t>(rng() % 7) - 3;
      case 3:
        return a.floorDiv(1 + rng() % 6);
      default:
        return a % (1 + rng() % 6);
    }
  };
  for (int i = 0; i < 3000; ++i) {
    mlir::AffineExpr e = random_expr(4);
    std::string ours = AffineExprToString(e);
    std::string mlir_text;
    llvm::raw_string_ostream os(mlir_text);
    e.print(os);
    os.flush();
    bool right_nested_sum = false;
    e.walk([&](mlir::AffineExpr sub) {
      if (auto add = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(sub);
          add && add.getKind() == mlir::AffineExprKind::Add &&
          add.getRHS().getKind() == mlir::AffineExprKind::Add) {
        right_nested_sum = true;
      }
    });
    if (!right_nested_sum) EXPECT_EQ(ours, mlir_text);
    absl::StatusOr<mlir::AffineExpr> parsed =
        ParseAffineExpr(ours, {"d0", "d1"}, {"s0"}, &context_);
    ASSERT_TRUE(parsed.ok()) << parsed.status() << " " << ours;
    EXPECT_EQ(*parsed, e) << ours;
  }
  IndexingMap map = Parse(
      "(d0, d1, d2) -> (d0 * 2 + (d1 * 4 + d2) floordiv 4, (d1 * 4 + d2) mod "
      "8)\ndomain:\nd0 in [0, 9]\nd1 in [0, 9]\nd2 in [0, 9]");
  EXPECT_EQ(Parse(ToString(map)), map) << ToString(map);
}

struct ErrorCase {
  const char* text;
  const char* message;
};

TEST_F(IndexingMapTextTest, ErrorsNameLineColumnAndWhat) {
  const ErrorCase cases[] = {
      {"(d0) -> (d0 +)", "1:14: expected a variable, an integer or '('"},
      {"(d0) -> (d0)\ndomain:\nd0 in [0 9]", "3:10: expected ','"},
      {"(d0) -> (d1)", "1:10: expected a declared variable"},
      {"(d0) -> (d0)\ndomain:", "no bounds for 'd0'"},
      {"(d0) -> (d0 floordiv 0)\ndomain:\nd0 in [0, 1]",
       "1:13: division by zero"},
      {"(d0) -> (d0 mod -3)\ndomain:\nd0 in [0, 1]",
       "1:13: mod by a negative constant is not supported: MLIR's affine mod "
       "requires a positive divisor"},
      {"(d0) -> (d0 ceildiv -9223372036854775808)\ndomain:\nd0 in [0, 1]",
       "1:13: divisor -9223372036854775808 cannot be negated in int64"},
      {"(d0, d0) -> (d0)", "declared twice"},
      // Header lists that are not plain names and commas: their errors,
      // not the duplicate seen before them.
      {"(d0 d1) -> (d0)", "1:5: expected ','"},
      {"(d0,) -> (d0)", "1:5: expected a variable name"},
      {"(d0)[s0, s0 x] -> (d0)", "1:13: expected ','"},
      {"(d0, d1)[s0 -> (d0)", "1:13: expected ','"},
      {"(d0) -> (d0 * d0)\ndomain:\nd0 in [0, 1]",
       "one side of '*' must be a constant"},
      {"(d0) -> (d0)\ndomain:\nd0 in [0, 99999999999999999999]",
       "3:11: integer does not fit in 64 bits"},
      {"(d0) (d0)", "1:6: expected '->'"},
      {"", "1:1: expected '('"},
  };
  for (const ErrorCase& c : cases) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(c.text, &context_);
    ASSERT_FALSE(map.ok()) << c.text;
    EXPECT_THAT(std::string(map.status().message()), HasSubstr(c.message))
        << c.text;
  }
}

// A control byte in the text is named escaped in the error, never written
// as it is (a NUL would cut the message short where it is printed).
TEST_F(IndexingMapTextTest, ErrorsShowControlBytesEscaped) {
  const std::string text =
      std::string("(d0) -> (d0") + '\0' + "\x7f)\ndomain:\nd0 in [0, 9]";
  absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context_);
  ASSERT_FALSE(map.ok());
  const std::string message(map.status().message());
  EXPECT_THAT(message, HasSubstr("found '\\x00"));
  for (char c : message) {
    EXPECT_TRUE(c >= 0x20 && c < 0x7f) << static_cast<int>(c) << " " << message;
  }
}

// Issue #18: MLIR's operators fold constants with wrapping int64
// arithmetic, so these texts used to parse into different maps. Each is an
// error at the operator whose folded constant does not fit.
TEST_F(IndexingMapTextTest, ConstantsThatWouldWrapAreErrors) {
  struct Case {
    std::string text;
    std::string error;
  };
  const Case cases[] = {
      {"(d0) -> ((d0 * 4611686018427387904 * 2) floordiv 4611686018427387904)"
       ", domain: d0 in [-1, -1]",
       "1:36: the map cannot be represented exactly: 4611686018427387904 * 2 "
       "does not fit in int64"},
      {"(d0) -> ((d0 + 9223372036854775807 + 1) floordiv 2), domain: d0 in "
       "[-5, -1]",
       "1:36: the map cannot be represented exactly: 9223372036854775807 + 1 "
       "does not fit in int64"},
      {"(d0) -> (d0 - 9223372036854775807 - 9223372036854775807), domain: d0 "
       "in [0, 0]",
       "1:35: the map cannot be represented exactly: -9223372036854775807 + "
       "-9223372036854775807 does not fit in int64"},
      {"(d0) -> (-(d0 * -9223372036854775808)), domain: d0 in [0, 0]",
       "1:10: the map cannot be represented exactly: -9223372036854775808 * -1 "
       "does not fit in int64"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(c.text, &context_);
    ASSERT_FALSE(map.ok()) << c.text << "\n" << ToString(*map);
    EXPECT_EQ(map.status().message(), c.error);
  }
  // 64 chained "* 2": the 63rd overflows.
  std::string chain = "(d0) -> (d0";
  for (int i = 0; i < 64; ++i) chain += " * 2";
  chain += "), domain: d0 in [0, 1]";
  absl::StatusOr<IndexingMap> doubled = ParseIndexingMap(chain, &context_);
  ASSERT_FALSE(doubled.ok()) << ToString(*doubled);
  EXPECT_THAT(doubled.status().message(),
              HasSubstr("4611686018427387904 * 2 does not fit in int64"));
}

// Random expressions with constants near the int64 limits, printed fully
// parenthesized: wherever the written expression evaluates without leaving
// int64 (each operation evaluated exactly in 128 bits), the parsed map has
// that value, or the parse is an error; never a different value.
TEST_F(IndexingMapTextTest, ParsedExpressionsKeepTheirExactValue) {
  using Int128 = __int128;
  const std::vector<std::vector<int64_t>> points = {
      {0, 0}, {1, -1}, {-1, 5}, {7, 3}, {-(int64_t{1} << 40), 1 << 20}};
  const int64_t constants[] = {1,
                               2,
                               3,
                               -5,
                               7,
                               64,
                               int64_t{1} << 62,
                               -(int64_t{1} << 62),
                               INT64_MAX,
                               INT64_MIN,
                               INT64_MAX - 1,
                               int64_t{3} << 61};
  std::mt19937 rng(7);
  auto pick = [&](int n) {
    return std::uniform_int_distribution<int>(0, n - 1)(rng);
  };
  auto fits = [](std::optional<Int128> v) -> std::optional<Int128> {
    if (!v || *v < INT64_MIN || *v > INT64_MAX) return std::nullopt;
    return v;
  };
  auto floor_div = [](Int128 a, Int128 b) {
    Int128 q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  };
  // The text and its exact value at each point.
  using Values = std::vector<std::optional<Int128>>;
  std::function<std::string(int, Values&)> make = [&](int depth, Values& v) {
    v.assign(points.size(), std::nullopt);
    if (depth == 0 || pick(3) == 0) {
      if (pick(2) == 0) {
        int64_t c = constants[pick(12)];
        for (auto& x : v) x = c;
        return absl::StrCat(c);
      }
      int d = pick(2);
      for (size_t p = 0; p < points.size(); ++p) v[p] = points[p][d];
      return absl::StrCat("d", d);
    }
    Values a, b;
    std::string lhs = make(depth - 1, a);
    int op = pick(5);
    if (op < 2) {
      std::string rhs = make(depth - 1, b);
      for (size_t p = 0; p < v.size(); ++p) {
        if (a[p] && b[p]) v[p] = fits(op == 0 ? *a[p] + *b[p] : *a[p] - *b[p]);
      }
      return absl::StrCat("(", lhs, op == 0 ? " + " : " - ", rhs, ")");
    }
    int64_t c = constants[pick(12)];
    if (op > 2 && c < 1) c = 3;
    for (size_t p = 0; p < v.size(); ++p) {
      if (!a[p]) continue;
      v[p] = fits(op == 2   ? *a[p] * c
                  : op == 3 ? floor_div(*a[p], c)
                            : *a[p] - floor_div(*a[p], c) * c);
    }
    static const char* kOps[] = {"", "", " * ", " floordiv ", " mod "};
    return absl::StrCat("(", lhs, kOps[op], c, ")");
  };
  // The parsed expression's exact value (its intermediates may leave int64
  // where the written ones do not: MLIR reassociates sums).
  std::function<std::optional<Int128>(mlir::AffineExpr,
                                      const std::vector<int64_t>&)>
      exact = [&](mlir::AffineExpr e,
                  const std::vector<int64_t>& point) -> std::optional<Int128> {
    if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(e)) {
      return c.getValue();
    }
    if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(e)) {
      return point[d.getPosition()];
    }
    auto bin = mlir::cast<mlir::AffineBinaryOpExpr>(e);
    std::optional<Int128> a = exact(bin.getLHS(), point);
    std::optional<Int128> b = exact(bin.getRHS(), point);
    if (!a || !b) return std::nullopt;
    switch (e.getKind()) {
      case mlir::AffineExprKind::Add:
        return *a + *b;
      case mlir::AffineExprKind::Mul:
        return *a * *b;
      case mlir::AffineExprKind::FloorDiv:
        return floor_div(*a, *b);
      case mlir::AffineExprKind::Mod:
        return *a - floor_div(*a, *b) * *b;
      default:
        return std::nullopt;
    }
  };
  int parsed = 0, refused = 0;
  for (int i = 0; i < 3000; ++i) {
    Values expected;
    std::string expr = make(4, expected);
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(
        absl::StrCat("(d0, d1) -> (", expr,
                     "), domain: d0 in [-10, 10], d1 in [-10, 10]"),
        &context_);
    if (!map.ok()) {
      EXPECT_THAT(map.status().message(), HasSubstr("does not fit in int64"))
          << expr;
      ++refused;
      continue;
    }
    ++parsed;
    for (size_t p = 0; p < points.size(); ++p) {
      if (!expected[p]) continue;
      std::optional<Int128> actual =
          exact(map->GetAffineMap().getResult(0), points[p]);
      ASSERT_TRUE(actual.has_value()) << expr;
      EXPECT_TRUE(*actual == *expected[p]) << expr << " at point " << p;
    }
  }
  EXPECT_GT(parsed, 1000);
  EXPECT_GT(refused, 100);
}

// The parser builds every expression in one pass with local caches and
// constant folding of its own (indexing_map_parser.cc); the result must be
// exactly the expression the plain checked builder gives for the written
// tree: a left fold of the terms of each sum through CheckedAffineAdd,
// negation as CheckedAffineNeg, products and divisions through
// CheckedAffineBinaryOp (MLIR's own operators, with their folds, and the
// int64 checks). Random trees mix variables, small constants and constants
// near the int64 limits, repeated subtrees (the parser's memo), sums of
// constants, negative divisors and unary minus; where the fold refuses a
// constant, the parse must be refused too.
TEST_F(IndexingMapTextTest, ParsedExpressionsAreTheCheckedFoldOfTheText) {
  std::mt19937 rng(2024);
  auto pick = [&](int n) {
    return std::uniform_int_distribution<int>(0, n - 1)(rng);
  };
  const int64_t constants[] = {0,
                               1,
                               2,
                               3,
                               4,
                               5,
                               7,
                               64,
                               128,
                               -1,
                               -3,
                               INT64_MAX,
                               INT64_MIN + 1,
                               int64_t{1} << 62,
                               int64_t{3} << 61};
  const std::vector<std::string> names = {"d0", "d1", "s0"};
  auto var = [&](int i) {
    return i < 2 ? mlir::getAffineDimExpr(i, &context_)
                 : mlir::getAffineSymbolExpr(0, &context_);
  };
  auto constant = [&](int64_t v) {
    return mlir::getAffineConstantExpr(v, &context_);
  };
  // Earlier subtrees, reused (as text and value) to exercise repeats.
  std::vector<std::pair<std::string, absl::StatusOr<mlir::AffineExpr>>> seen;
  std::function<std::string(int, absl::StatusOr<mlir::AffineExpr>&)> make =
      [&](int depth, absl::StatusOr<mlir::AffineExpr>& value) -> std::string {
    if (!seen.empty() && pick(8) == 0) {
      const auto& [text, v] = seen[pick(seen.size())];
      value = v;
      return text;
    }
    std::string text;
    if (depth == 0 || pick(4) == 0) {
      if (pick(2) == 0) {
        int64_t c = constants[pick(std::size(constants))];
        value = constant(c);
        text = absl::StrCat(c);
      } else {
        int i = pick(3);
        value = var(i);
        text = names[i];
      }
    } else {
      switch (pick(5)) {
        case 0:
        case 1: {  // A sum, folded left to right.
          text = "(";
          text += make(depth - 1, value);
          int terms = 1 + pick(5);
          for (int t = 0; t < terms; ++t) {
            absl::StatusOr<mlir::AffineExpr> term;
            bool minus = pick(2);
            absl::StrAppend(&text, minus ? " - " : " + ",
                            make(depth - 1, term));
            if (value.ok() && term.ok()) {
              value = minus ? CheckedAffineSub(*value, *term)
                            : CheckedAffineAdd(*value, *term);
            } else if (value.ok()) {
              value = term.status();
            }
          }
          text += ")";
          break;
        }
        case 2: {  // A product with a constant on either side.
          int64_t c = constants[pick(std::size(constants))];
          std::string inner = make(depth - 1, value);
          bool left = pick(2);
          text = left ? absl::StrCat(c, " * (", inner, ")")
                      : absl::StrCat("(", inner, ") * ", c);
          if (value.ok()) {
            value = left ? CheckedAffineMul(constant(c), *value)
                         : CheckedAffineMul(*value, constant(c));
          }
          break;
        }
        case 3: {  // A division or modulo (negative divisors: floordiv and
                   // ceildiv only).
          static const char* kOps[] = {"floordiv", "ceildiv", "mod"};
          static const mlir::AffineExprKind kKinds[] = {
              mlir::AffineExprKind::FloorDiv, mlir::AffineExprKind::CeilDiv,
              mlir::AffineExprKind::Mod};
          int op = pick(3);
          int64_t k = constants[pick(std::size(constants))];
          if (k == 0 || (op == 2 && k < 0)) k = 7;
          text =
              absl::StrCat("(", make(depth - 1, value), ") ", kOps[op], " ", k);
          if (value.ok()) {
            value = CheckedAffineBinaryOp(kKinds[op], *value, constant(k));
          }
          break;
        }
        default:  // Unary minus.
          text = absl::StrCat("-(", make(depth - 1, value), ")");
          if (value.ok()) value = CheckedAffineNeg(*value);
      }
    }
    seen.push_back({text, value});
    return text;
  };
  int parsed = 0, refused = 0;
  for (int i = 0; i < 4000; ++i) {
    if (seen.size() > 64) seen.clear();
    absl::StatusOr<mlir::AffineExpr> r0, r1, c0;
    std::string e0 = make(1 + pick(4), r0);
    std::string e1 = make(1 + pick(4), r1);
    std::string k0 = make(1 + pick(3), c0);
    std::string text = absl::StrCat("(d0, d1)[s0] -> (", e0, ", ", e1,
                                    "), domain: d0 in [0, 9], d1 in [0, 9], "
                                    "s0 in [0, 3], ",
                                    "(", k0, ") in [0, 5]");
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context_);
    if (!r0.ok() || !r1.ok() || !c0.ok()) {
      // The first refusal in the text is the one reported: a constant that
      // does not fit, or a fold of MLIR's the builder cannot check (by a
      // negative divisor).
      const absl::Status& first = !r0.ok()   ? r0.status()
                                  : !r1.ok() ? r1.status()
                                             : c0.status();
      ASSERT_FALSE(map.ok()) << text;
      EXPECT_THAT(std::string(map.status().message()),
                  HasSubstr(absl::StrCat("the map cannot be represented "
                                         "exactly: ",
                                         first.message())))
          << text;
      ++refused;
      continue;
    }
    ASSERT_TRUE(map.ok()) << map.status() << "\n" << text;
    ++parsed;
    ASSERT_EQ(map->GetAffineMap().getResult(0), *r0) << text;
    ASSERT_EQ(map->GetAffineMap().getResult(1), *r1) << text;
    // A constraint on a lone variable narrows its bound instead.
    if (mlir::isa<mlir::AffineDimExpr, mlir::AffineSymbolExpr>(*c0)) continue;
    ASSERT_EQ(map->GetConstraints().size(), 1) << text;
    ASSERT_EQ(map->GetConstraints()[0].expr, *c0) << text;
  }
  EXPECT_GT(parsed, 1000);
  EXPECT_GT(refused, 100);
}

TEST_F(IndexingMapTextTest, OneLineFormRejectsStrayCommas) {
  for (const char* text :
       {"(d0) -> (d0), domain: d0 in [0, 9],",
        "(d0) -> (d0), domain: d0 in [0, 9], , d0 mod 2 in [0, 0]",
        "(d0) -> (d0),"}) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context_);
    ASSERT_FALSE(map.ok()) << text;
    EXPECT_THAT(map.status().message(), HasSubstr("1:")) << text;
  }
  EXPECT_TRUE(
      ParseIndexingMap("(d0) -> (d0), domain: d0 in [0, 9]", &context_).ok());
}

TEST_F(IndexingMapTextTest, AccessMapsUseOnlyTheMapsSymbols) {
  absl::StatusOr<IndexingMap> map = ParseIndexingMap(
      "(d0)[s0] -> (d0 + s0)\ndomain:\nd0 in [0, 9]\ns0 in [0, 3]\n"
      "  hlo: NULL\n  (d0)[s0, s1] -> (s1)",
      &context_);
  ASSERT_FALSE(map.ok());
  EXPECT_THAT(map.status().message(),
              HasSubstr("access map of 's0' declares 2 symbols but the map "
                        "has 1"));
}

TEST_F(IndexingMapTextTest, Json) {
  IndexingMap map = Parse(
      "(d0, d1)[s0, s1] -> (d0, s0)\ndomain:\nd0 in [0, 9]\nd1 in [0, 5]\n"
      "s0 in [0, 255]\ns1 in [0, 15]\n  hlo: of1 = s32[] parameter(1)\n"
      "  (d0, d1) -> ()\nd1 mod 2 in [0, 0]");
  EXPECT_EQ(
      IndexingMapToJson(map),
      "{\"text\": \"(d0, d1)[s0, s1] -> (d0, s0)\\ndomain:\\nd0 in [0, "
      "9]\\nd1 in [0, 5]\\ns0 in [0, 255]\\ns1 in [0, 15]\\n  hlo: of1 = "
      "s32[] parameter(1)\\n  (d0, d1) -> ()\\nd1 mod 2 in [0, 0]\", "
      "\"map\": \"(d0, d1)[s0, s1] -> (d0, s0)\", "
      "\"dims\": [{\"name\": \"d0\", \"lo\": 0, \"hi\": 9}, {\"name\": "
      "\"d1\", \"lo\": 0, \"hi\": 5}], "
      "\"symbols\": [{\"name\": \"s0\", \"lo\": 0, \"hi\": 255, \"kind\": "
      "\"range\"}, {\"name\": \"s1\", \"lo\": 0, \"hi\": 15, \"kind\": "
      "\"runtime\", \"hlo\": \"of1 = s32[] parameter(1)\", \"access\": "
      "\"(d0, d1) -> ()\"}], "
      "\"constraints\": [{\"expr\": \"d1 mod 2\", \"lo\": 0, \"hi\": 0}], "
      "\"undefined\": false, \"known_empty\": false}");
  EXPECT_EQ(IndexingMapToJson(IndexingMap::Undefined()),
            "{\"text\": \"UNDEFINED\", \"map\": \"\", \"dims\": [], "
            "\"symbols\": [], \"constraints\": [], \"undefined\": true, "
            "\"known_empty\": false}");
  EXPECT_EQ(JsonQuote("a\"b\\c\nd\x01"), "\"a\\\"b\\\\c\\nd\\u0001\"");
}
// ---------------------------------------------------------------------------
// XLA HEAD's spellings (xla/hlo/analysis/symbolic_map_serialization.cc and
// indexing_map_serialization.cc): each reads as the map XLA gives it, checked
// at every point of the domain against the arithmetic written out here
// (floor rounding, as SymbolicExpr::Evaluate's llvm::divideFloorSigned),
// evaluated exactly (exact_affine_eval.h), and equal to our spelling's map.

int64_t TestFloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t TestCeilDiv(int64_t a, int64_t b) { return -TestFloorDiv(-a, b); }
int64_t TestMod(int64_t a, int64_t b) { return a - TestFloorDiv(a, b) * b; }

// The results `expected(dims, symbols)` at every point of the map's box
// (constraints ignored: the box is small and every point has a value).
void ExpectResultsEverywhere(
    const IndexingMap& map,
    const std::function<std::vector<int64_t>(
        const std::vector<int64_t>&, const std::vector<int64_t>&)>& expected) {
  std::vector<Interval> box = map.GetDimBounds();
  for (Interval b : map.GetSymbolBounds()) box.push_back(b);
  const size_t num_dims = map.GetDimensionCount();
  int points = 0;
  ASSERT_TRUE(ForEachBoxPoint(box, 100000, [&](const std::vector<int64_t>& p) {
    std::vector<int64_t> dims(p.begin(), p.begin() + num_dims);
    std::vector<int64_t> symbols(p.begin() + num_dims, p.end());
    std::vector<int64_t> want = expected(dims, symbols);
    ASSERT_EQ(want.size(), map.GetAffineMap().getNumResults());
    for (size_t r = 0; r < want.size(); ++r) {
      exact::Value v =
          exact::Evaluate(map.GetAffineMap().getResult(r), dims, symbols);
      ASSERT_EQ(v.kind, exact::Value::kValue);
      EXPECT_TRUE(v.value == want[r])
          << "result " << r << " at " << exact::ToString(dims, {}) << ": "
          << exact::ToString(v.value) << " != " << want[r];
    }
    ++points;
  }));
  EXPECT_GT(points, 0);
}

// `/`, `floorDiv` and `ceilDiv` are read by XLA's
// SymbolicExprParserImpl::ParseTerm (and tokenized by
// indexing_map_serialization.cc's Parser::GetNextTokenImpl): `/` and
// `floorDiv` are floordiv, `ceilDiv` is ceildiv. Negative dividends and a
// negative divisor round toward -inf (floordiv) / +inf (ceildiv).
TEST_F(IndexingMapTextTest, XlaHeadDivisionSpellingsMeanFloorAndCeil) {
  IndexingMap xla = Parse(
      "(i, j)[k] -> (i / 6, j floorDiv 5, i ceilDiv 4, j / -3, k ceilDiv -2, "
      "j mod 3), domain: i in [-13, 17], j in [-9, 11], k in [-5, 5]");
  IndexingMap ours = Parse(
      "(i, j)[k] -> (i floordiv 6, j floordiv 5, i ceildiv 4, j floordiv -3, "
      "k ceildiv -2, j mod 3), domain: i in [-13, 17], j in [-9, 11], "
      "k in [-5, 5]");
  EXPECT_EQ(xla, ours);
  ExpectResultsEverywhere(
      xla, [](const std::vector<int64_t>& d, const std::vector<int64_t>& s) {
        return std::vector<int64_t>{
            TestFloorDiv(d[0], 6),  TestFloorDiv(d[1], 5), TestCeilDiv(d[0], 4),
            TestFloorDiv(d[1], -3), TestCeilDiv(s[0], -2), TestMod(d[1], 3)};
      });
}

// Precedence and associativity of XLA's SymbolicExprParserImpl: ParseTerm
// reads `*`, `/`, `floordiv`, `ceildiv`, `mod` at one level, left to right;
// ParseExpression reads `+` and `-` below it; ParseFactor reads a unary `-`
// before the term's operators apply (so `-a / 3` is `(-a) / 3`).
TEST_F(IndexingMapTextTest, XlaHeadPrecedenceAndAssociativity) {
  struct Case {
    const char* xla;
    const char* ours;
    std::function<int64_t(int64_t, int64_t)> value;
  };
  const Case cases[] = {
      {"a + b / 3 * 2", "a + (b floordiv 3) * 2",
       [](int64_t a, int64_t b) { return a + TestFloorDiv(b, 3) * 2; }},
      {"a * 5 / 3", "(a * 5) floordiv 3",
       [](int64_t a, int64_t) { return TestFloorDiv(a * 5, 3); }},
      {"a / 3 mod 4", "(a floordiv 3) mod 4",
       [](int64_t a, int64_t) { return TestMod(TestFloorDiv(a, 3), 4); }},
      {"a / 4 / 2", "(a floordiv 4) floordiv 2",
       [](int64_t a, int64_t) { return TestFloorDiv(TestFloorDiv(a, 4), 2); }},
      {"-a / 3", "(a * -1) floordiv 3",
       [](int64_t a, int64_t) { return TestFloorDiv(-a, 3); }},
      {"a - b / 2 - 1", "a - (b floordiv 2) - 1",
       [](int64_t a, int64_t b) { return a - TestFloorDiv(b, 2) - 1; }},
      {"a mod 5 / 2", "(a mod 5) floordiv 2",
       [](int64_t a, int64_t) { return TestFloorDiv(TestMod(a, 5), 2); }},
      {"(a + b) / 4 * -3", "((a + b) floordiv 4) * -3",
       [](int64_t a, int64_t b) { return TestFloorDiv(a + b, 4) * -3; }},
      {"-7 / 2 + a", "-4 + a", [](int64_t a, int64_t) { return a - 4; }},
      {"b ceilDiv 3 / 2", "(b ceildiv 3) floordiv 2",
       [](int64_t, int64_t b) { return TestFloorDiv(TestCeilDiv(b, 3), 2); }},
  };
  const std::string domain = ", domain: a in [-11, 13], b in [-7, 9]";
  for (const Case& c : cases) {
    SCOPED_TRACE(c.xla);
    IndexingMap xla = Parse(absl::StrCat("(a, b) -> (", c.xla, ")", domain));
    IndexingMap ours = Parse(absl::StrCat("(a, b) -> (", c.ours, ")", domain));
    EXPECT_EQ(xla, ours);
    ExpectResultsEverywhere(
        xla, [&](const std::vector<int64_t>& d, const std::vector<int64_t>&) {
          return std::vector<int64_t>{c.value(d[0], d[1])};
        });
  }
  // ParseAffineExpr reads the same spellings.
  absl::StatusOr<mlir::AffineExpr> e =
      ParseAffineExpr("x / 8 + y ceilDiv 2", {"x"}, {"y"}, &context_);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(AffineExprToString(*e), "d0 floordiv 8 + s0 ceildiv 2");
}

// What XLA HEAD reads but an affine map cannot hold is refused at its place:
// min/max (SymbolicExprParserImpl::ParseBinaryFunction), a divisor that is
// not a constant (SymbolicExpr allows `s0 / s1`), and `%`, which neither XLA
// parser accepts (Parser::GetNextTokenImpl has no token for it).
TEST_F(IndexingMapTextTest, XlaHeadSpellingsWithoutAnAffineMeaningAreErrors) {
  const ErrorCase cases[] = {
      {"(d0, d1) -> (min(d0, 4), d1), domain: d0 in [0, 5], d1 in [0, 5]",
       "1:14: 'min(...)' (XLA's SymbolicExpr min/max) cannot be represented: "
       "an affine expression has no min"},
      {"(d0, d1) -> (d1, d0 + max (d1, 2))\ndomain:\nd0 in [0, 5]\n"
       "d1 in [0, 5]",
       "1:23: 'max(...)' (XLA's SymbolicExpr min/max) cannot be represented"},
      {"(d0) -> (d0)\ndomain:\nd0 in [0, 5]\nmax(d0, 3) in [3, 4]",
       "4:1: 'max(...)'"},
      {"()[p, q] -> (p / q), domain: p in [0, 3], q in [1, 4]",
       "1:16: divisor of floordiv/ceildiv/mod must be a constant"},
      {"(d0) -> (d0 % 4), domain: d0 in [0, 7]", "1:13: expected ','"},
      {"(d0) -> (d0 / 0), domain: d0 in [0, 7]", "1:13: division by zero"},
      {"(d0) -> (d0 ceilDiv 0), domain: d0 in [0, 7]",
       "1:13: division by zero"},
      {"(d0) -> (d0 floorDiv d0), domain: d0 in [1, 7]",
       "1:13: divisor of floordiv/ceildiv/mod must be a constant"},
  };
  for (const ErrorCase& c : cases) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(c.text, &context_);
    ASSERT_FALSE(map.ok()) << c.text;
    EXPECT_THAT(std::string(map.status().message()), HasSubstr(c.message))
        << c.text;
  }
  // `min` and `max` not followed by '(' are ordinary names.
  IndexingMap named = Parse(
      "(min, max) -> (max / 2 - min), domain: min in [0, 3], "
      "max in [-4, 4]");
  ExpectResultsEverywhere(
      named, [](const std::vector<int64_t>& d, const std::vector<int64_t>&) {
        return std::vector<int64_t>{TestFloorDiv(d[1], 2) - d[0]};
      });
}

// Maps shaped as XLA's indexing_map_serialization_test cases (DimsAndRuntime,
// DimRangesRuntimeAndConstraints, Int64Bounds, AffineExprsWithParens,
// CustomNames), written here with other names, sizes and constants, in the
// form XLA's ToString(IndexingMap) prints and ParseIndexingMap reads:
// `, domain:` and commas between entries, runtime variables in `{...}`.
TEST_F(IndexingMapTextTest, XlaHeadSerializedMapsParse) {
  // Dims and runtime variables.
  IndexingMap runtime = Parse(
      "(p0){q0, q1} -> (p0 / 5 + q1),\ndomain:\np0 in [0, 11],\n"
      "q0 in [2, 2],\nq1 in [0, 3]");
  EXPECT_EQ(runtime.GetRuntimeVarsCount(), 2);
  ExpectResultsEverywhere(runtime, [](const std::vector<int64_t>& d,
                                      const std::vector<int64_t>& s) {
    return std::vector<int64_t>{TestFloorDiv(d[0], 5) + s[1]};
  });
  // Range and runtime variables and constraints, one per line with commas.
  IndexingMap constrained = Parse(
      "(a, b)[x, y]{r} -> (y, a + b, x / 2, r),\ndomain:\na in [0, 5],\n"
      "b in [0, 6],\nx in [0, 3],\ny in [0, 2],\nr in [0, 20],\n"
      "(r + 2) mod 3 in [0, 0],\na mod 2 in [1, 1],\nb + x / 2 in [0, 7]");
  IndexingMap constrained_ours = Parse(
      "(a, b)[x, y]{r} -> (y, a + b, x floordiv 2, r), domain: a in [0, 5], "
      "b in [0, 6], x in [0, 3], y in [0, 2], r in [0, 20], "
      "(r + 2) mod 3 in [0, 0], a mod 2 in [1, 1], "
      "b + x floordiv 2 in [0, 7]");
  EXPECT_EQ(constrained, constrained_ours);
  EXPECT_EQ(constrained.GetConstraints().size(), 3);
  // The relations agree point by point.
  exact::Enumeration xla_relation = exact::Enumerate(constrained, 100000);
  exact::Enumeration our_relation = exact::Enumerate(constrained_ours, 100000);
  ASSERT_EQ(xla_relation.kind, exact::Enumeration::kDone);
  EXPECT_FALSE(xla_relation.relation.empty());
  EXPECT_EQ(
      exact::FirstDifference(xla_relation.relation, our_relation.relation), "");
  // Bounds beyond int32 and a large divisor.
  IndexingMap wide =
      Parse("(blk) -> (blk / 50331648), domain: blk in [0, 3221225471]");
  EXPECT_EQ(AffineMapToString(wide.GetAffineMap()),
            "(d0) -> (d0 floordiv 50331648)");
  EXPECT_EQ(wide.GetDimBounds()[0], (Interval{0, 3221225471}));
  // Parenthesized sums and a multi-line result list.
  IndexingMap parens = Parse(
      "(d0, d1)[s0] -> ((d0 + d0 mod 4) / 4\n  + s0 + (s0 * 3) mod 5 + "
      "(d1 + s0) mod 2),\ndomain:\nd0 in [0, 11],\nd1 in [0, 5],\n"
      "s0 in [0, 6]");
  ExpectResultsEverywhere(
      parens, [](const std::vector<int64_t>& d, const std::vector<int64_t>& s) {
        return std::vector<int64_t>{TestFloorDiv(d[0] + TestMod(d[0], 4), 4) +
                                    s[0] + TestMod(s[0] * 3, 5) +
                                    TestMod(d[1] + s[0], 2)};
      });
  // Custom names, XLA's printed `a - b * 2` for a negative term.
  IndexingMap named = Parse(
      "(tid, bid)[lane, vec]{dev} -> (vec, bid * 32 + tid, lane - dev * 4),"
      " domain: tid in [0, 31], bid in [0, 2], lane in [0, 1], "
      "vec in [0, 3], dev in [0, 1], (tid * 3) mod 4 in [0, 0], "
      "bid + lane in [0, 2]");
  EXPECT_EQ(AffineMapToString(named.GetAffineMap()),
            "(d0, d1)[s0, s1, s2] -> (s1, d1 * 32 + d0, s0 - s2 * 4)");
}
// ToXlaHeadString writes the one-line form XLA HEAD's ToString(IndexingMap)
// prints and ParseIndexingMap (indexing_map_serialization.cc) reads: `,
// domain:` and commas, range variables in [...], runtime variables in {...},
// and `/` for floordiv as SymbolicExpr's GetBinaryOpString spells it.
TEST_F(IndexingMapTextTest, XlaHeadStringIsXlasOneLineForm) {
  IndexingMap map = Parse(
      "(d0, d1)[s0, s1]{s2} -> (d0 floordiv 4 + s2, (d1 - 3) mod 5, "
      "-(d0 floordiv 3), d1 ceildiv 2 - s1 * 3), domain: d0 in [0, 15], "
      "d1 in [-2, 7], s0 in [0, 1], s1 in [0, 2], s2 in [0, 3], "
      "d0 floordiv 2 + s0 in [0, 6], d1 mod 2 in [1, 1]");
  EXPECT_EQ(ToXlaHeadString(map),
            "(d0, d1)[s0, s1]{s2} -> (d0 / 4 + s2, (d1 - 3) mod 5, "
            "-(d0 / 3), d1 ceildiv 2 - s1 * 3), domain: d0 in [0, 15], "
            "d1 in [-2, 7], s0 in [0, 1], s1 in [0, 2], s2 in [0, 3], "
            "d0 / 2 + s0 in [0, 6], d1 mod 2 in [1, 1]");
  EXPECT_EQ(Parse(ToXlaHeadString(map)), map);
  EXPECT_EQ(ToXlaHeadString(Parse("() -> ()")), "() -> ()");
  EXPECT_EQ(ToXlaHeadString(Parse("(){s0} -> (s0 * 2), domain: s0 in [0, 3]")),
            "(){s0} -> (s0 * 2), domain: s0 in [0, 3]");
  EXPECT_EQ(ToXlaHeadString(IndexingMap::Undefined()), "UNDEFINED");
  // Every documentation map reads back with the same expressions, bounds and
  // relation (its runtime variables' hlo text is not part of the form).
  for (const std::string& text :
       ReadBlocks("xla_index/core/testdata/seed_000_maps.txt")) {
    IndexingMap original = Parse(text);
    const std::string xla = ToXlaHeadString(original);
    EXPECT_EQ(xla.find('\n'), std::string::npos) << xla;
    EXPECT_EQ(xla.find("floordiv"), std::string::npos) << xla;
    IndexingMap again = Parse(xla);
    EXPECT_EQ(again.GetAffineMap(), original.GetAffineMap()) << xla;
    EXPECT_EQ(again.GetDimBounds(), original.GetDimBounds()) << xla;
    EXPECT_EQ(again.GetSymbolBounds(), original.GetSymbolBounds()) << xla;
    EXPECT_EQ(again.GetRuntimeVarsCount(), original.GetRuntimeVarsCount());
    exact::Enumeration a = exact::Enumerate(original, 20000);
    exact::Enumeration b = exact::Enumerate(again, 20000);
    EXPECT_EQ(a.kind, b.kind) << xla;
    EXPECT_EQ(exact::FirstDifference(a.relation, b.relation), "") << xla;
  }
}

// Random text, and random mutations of valid maps, never crash the parser;
// whatever parses prints and parses back to an equal map.
TEST_F(IndexingMapTextTest, FuzzRandomTextNeverCrashes) {
  std::mt19937 rng(12345);
  const std::vector<std::string> seeds =
      ReadBlocks("xla_index/core/testdata/seed_000_maps.txt");
  const std::string alphabet =
      "()[]{},:-> +-*0123456789dsrt_ floordiv ceildiv mod in domain: hlo\n";
  int parsed = 0;
  for (int iteration = 0; iteration < 6000; ++iteration) {
    std::string text;
    if (iteration % 2 == 0) {
      int length = rng() % 60;
      for (int i = 0; i < length; ++i)
        text += alphabet[rng() % alphabet.size()];
    } else {
      text = seeds[rng() % seeds.size()];
      int edits = 1 + rng() % 4;
      for (int e = 0; e < edits && !text.empty(); ++e) {
        size_t pos = rng() % text.size();
        switch (rng() % 3) {
          case 0:
            text.erase(pos, 1 + rng() % 3);
            break;
          case 1:
            text.insert(pos, 1, alphabet[rng() % alphabet.size()]);
            break;
          default:
            text[pos] = alphabet[rng() % alphabet.size()];
        }
      }
    }
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context_);
    if (!map.ok()) {
      // Errors say where.
      EXPECT_THAT(std::string(map.status().message()),
                  testing::MatchesRegex("[0-9]+:[0-9]+: .*"))
          << text;
      continue;
    }
    ++parsed;
    absl::StatusOr<IndexingMap> again =
        ParseIndexingMap(ToString(*map), &context_);
    ASSERT_TRUE(again.ok()) << again.status() << "\n" << ToString(*map);
    EXPECT_EQ(*again, *map) << text;
  }
  EXPECT_GT(parsed, 100);  // The mutations exercise the accepting paths too.
}

}  // namespace
}  // namespace xla_index
