#include "xla_index/core/indexing_map_text.h"

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
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
       "1:13: divisor of floordiv/ceildiv/mod must be positive"},
      {"(d0, d0) -> (d0)", "declared twice"},
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
