// The named rewrite rules of the affine simplifier (affine_rewrite_rules.cc,
// listed by AffineSimplifier::RuleCatalog()), one line per case naming the
// rule it is about. Each case must fire its rule, simplify to the expected
// text, and keep the map's relation: the original and the simplified map are
// enumerated over the original box with exact (__int128) arithmetic
// (exact_affine_eval.h) and must relate the same pairs. Every rule of the
// catalog must have a case.
//
// Three names are not table rules; their cases check the text and the
// relation only: `normal-form` (the linear normal form of linear_form.h
// alone: terms merged, distributed and ordered), `ceildiv-to-floordiv`
// (`x ceildiv c -> (x + c - 1) floordiv c`, applied before the floordiv
// table; affine_simplifier.h) and `mlir-fold` (MLIR's folding operators,
// through which the parser builds the map, already give the simplified
// form; the simplifier keeps it).

#include <map>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/affine_simplifier.h"
#include "xla_index/core/exact_affine_eval.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

struct RuleCase {
  const char* rule;  // a RuleCatalog() name, or one of the three above
  // The map's results and its domain lines ("\n" between them). The
  // divisors "floordiv s0" and "mod s0" (the text format requires a
  // constant) are built through MLIR, with s0 in [1, 1].
  const char* map;
  const char* domain;
  const char* expected;
  // The expected domain when it is not `domain`.
  const char* expected_domain = nullptr;
  // A rule of the same table that shadows `rule` on every input we know,
  // switched off for the case.
  const char* disable = nullptr;
};

// clang-format off
const RuleCase kCases[] = {
    {"floordiv-by-one", "(d0)[s0] -> (d0 floordiv s0)", "d0 in [0, 9]\ns0 in [1, 1]", "(d0)[s0] -> (d0)"},
    {"floordiv-one-period", "(d0) -> ((d0 + 20) floordiv 32)", "d0 in [0, 10]", "(d0) -> (0)"},
    {"floordiv-multiples-leave", "(d0) -> ((d0 * 3 + 17) floordiv 8)", "d0 in [0, 100]", "(d0) -> ((d0 * 3 + 1) floordiv 8 + 2)"},
    {"floordiv-multiples-leave", "(d0) -> ((d0 - 20) floordiv 8)", "d0 in [0, 100]", "(d0) -> ((d0 - 4) floordiv 8 - 2)"},
    {"floordiv-common-factor", "(d0) -> ((d0 * 6 + 5) floordiv 4)", "d0 in [0, 100]", "(d0) -> ((d0 * 3) floordiv 2 + 1)"},
    {"floordiv-drop-small-part", "(d0, d1) -> ((d0 * 4 + d1) floordiv 8)", "d0 in [0, 100]\nd1 in [0, 3]", "(d0, d1) -> (d0 floordiv 2)"},
    {"floordiv-of-mod", "(d0) -> ((d0 mod 16) floordiv 4)", "d0 in [0, 100]", "(d0) -> ((d0 floordiv 4) mod 4)"},
    {"floordiv-of-floordiv", "(d0) -> ((d0 floordiv 4) floordiv 8)", "d0 in [0, 100]", "(d0) -> (d0 floordiv 32)"},
    {"floordiv-of-floordiv", "(d0) -> ((d0 floordiv 4 + 3) floordiv 8)", "d0 in [0, 100]", "(d0) -> ((d0 + 12) floordiv 32)"},
    {"mod-by-one", "(d0)[s0] -> (d0 mod s0)", "d0 in [0, 9]\ns0 in [1, 1]", "(d0)[s0] -> (0)"},
    {"mod-one-period", "(d0) -> ((d0 floordiv 10 + 20) mod 16)", "d0 in [0, 100]", "(d0) -> (d0 floordiv 10 + 4)"},
    {"mod-one-period", "(d0) -> (((d0 floordiv 12) mod 16) * 2 + (d0 floordiv 2) mod 2)", "d0 in [0, 100]", "(d0) -> ((d0 floordiv 12) * 2 + (d0 floordiv 2) mod 2)"},
    {"mod-multiples-leave", "(d0, d1) -> ((d0 * 8 + d1 * 3 + 11) mod 8)", "d0 in [0, 100]\nd1 in [0, 9]", "(d0, d1) -> ((d1 * 3 + 3) mod 8)"},
    {"mod-common-factor", "(d0) -> ((d0 * 4) mod 8)", "d0 in [0, 100]", "(d0) -> ((d0 mod 2) * 4)"},
    {"mod-small-part-leaves", "(d0, d1) -> ((d0 * 4 + d1) mod 8)", "d0 in [0, 100]\nd1 in [0, 3]", "(d0, d1) -> (d1 + (d0 mod 2) * 4)"},
    // (MLIR prints `((d0 + d1 * 128) floordiv 64) mod 3` back as the input's digit; the rewrite shows when the digit pairs with the others.)
    {"mod-of-floordiv-sum", "(d0, d1) -> (((d1 * 2 + d0 floordiv 64) mod 3) * 64 + (d0 mod 64) + ((d1 * 128 + d0) floordiv 192) * 192)", "d0 in [0, 127]\nd1 in [0, 99]", "(d0, d1) -> (d0 + d1 * 128)"},
    {"mod-of-mod", "(d0, d1) -> (((d0 mod 16) * 2 + d1) mod 8)", "d0 in [0, 100]\nd1 in [0, 3]", "(d0, d1) -> ((d0 * 2 + d1) mod 8)"},
    {"sum-mod-plus-quotient", "(d0) -> ((d0 mod 8) * 2 + (d0 floordiv 8) * 16)", "d0 in [0, 100]", "(d0) -> (d0 * 2)"},
    {"sum-floordiv-plus-mod", "(d0, d1) -> (((d0 + d1) mod 8) * 2 + ((d0 + d1) floordiv 8) * 16)", "d0 in [0, 100]\nd1 in [0, 100]", "(d0, d1) -> (d0 * 2 + d1 * 2)", nullptr, "sum-mod-plus-quotient"},
    {"sum-minus-floordiv-multiple", "(d0, d1) -> (d0 * 2 + d1 * 2 - ((d0 + d1) floordiv 8) * 16)", "d0 in [0, 100]\nd1 in [0, 100]", "(d0, d1) -> (((d0 + d1) mod 8) * 2)"},
    {"constraint-move-constant", "(d0, d1) -> (d0)", "d0 in [0, 9]\nd1 in [0, 9]\nd0 + d1 + 4 in [0, 9]", "(d0, d1) -> (d0)", "d0 in [0, 5]\nd1 in [0, 5]\nd0 + d1 in [0, 5]"},
    {"constraint-common-factor", "(d0, d1) -> (d0)", "d0 in [0, 9]\nd1 in [0, 9]\nd0 * 3 + d1 * 3 in [3, 13]", "(d0, d1) -> (d0)", "d0 in [0, 4]\nd1 in [0, 4]\nd0 + d1 in [1, 4]"},
    {"constraint-holds-on-range", "(d0, d1) -> (d0)", "d0 in [0, 9]\nd1 in [0, 9]\nd0 + d1 in [0, 30]", "(d0, d1) -> (d0)", "d0 in [0, 9]\nd1 in [0, 9]"},
    {"constraint-tighten-to-range", "(d0, d1) -> (d0)", "d0 in [0, 9]\nd1 in [0, 9]\nd0 + d1 in [4, 30]", "(d0, d1) -> (d0)", "d0 in [0, 9]\nd1 in [0, 9]\nd0 + d1 in [4, 18]"},
    {"constraint-unwrap-floordiv", "(d0) -> (d0)", "d0 in [0, 99]\nd0 floordiv 4 in [1, 2]", "(d0) -> (d0)", "d0 in [4, 11]"},
    {"mlir-fold", "(d0) -> ((d0 * 4 + 3) floordiv 4)", "d0 in [0, 100]", "(d0) -> (d0)"},
    {"mlir-fold", "(d0) -> ((d0 mod 16) mod 4)", "d0 in [0, 100]", "(d0) -> (d0 mod 4)"},
    {"mlir-fold", "(d0) -> (d0 - (d0 floordiv 8) * 8)", "d0 in [0, 100]", "(d0) -> (d0 mod 8)"},
    {"ceildiv-to-floordiv", "(d0) -> (d0 ceildiv 4)", "d0 in [0, 100]", "(d0) -> ((d0 + 3) floordiv 4)"},
    {"normal-form", "(d0, d1)[s0] -> (s0 + d1 + d0 * 2)", "d0 in [0, 100]\nd1 in [0, 3]\ns0 in [0, 5]", "(d0, d1)[s0] -> (d0 * 2 + d1 + s0)"},
    {"normal-form", "(d0, d1) -> ((d0 + d1) * 3 - d1)", "d0 in [0, 100]\nd1 in [0, 3]", "(d0, d1) -> (d0 * 3 + d1 * 2)"},
};
// clang-format on

bool IsTableRule(const std::string& name) {
  return name != "normal-form" && name != "ceildiv-to-floordiv" &&
         name != "mlir-fold";
}

class AffineRewriteRulesTest : public ::testing::Test {
 protected:
  // The case's map; `d0 floordiv s0` and `d0 mod s0` are parsed with d0 in
  // place of the division, then the result is replaced by the division
  // built through MLIR.
  IndexingMap Input(const RuleCase& c) {
    std::string text = absl::StrCat(c.map, "\ndomain:\n", c.domain);
    for (const char* op : {"floordiv", "mod"}) {
      const std::string semi_affine = absl::StrCat("d0 ", op, " s0");
      const size_t at = text.find(semi_affine);
      if (at == std::string::npos) continue;
      IndexingMap parsed = Parse(text.substr(0, at) + "d0" +
                                 text.substr(at + semi_affine.size()));
      mlir::AffineExpr d0 = mlir::getAffineDimExpr(0, &context_);
      mlir::AffineExpr s0 = mlir::getAffineSymbolExpr(0, &context_);
      mlir::AffineExpr result = mlir::getAffineBinaryOpExpr(
          std::string(op) == "mod" ? mlir::AffineExprKind::Mod
                                   : mlir::AffineExprKind::FloorDiv,
          d0, s0);
      return IndexingMap(mlir::AffineMap::get(1, 1, {result}, &context_),
                         parsed.GetDimBounds(), parsed.GetSymbolBounds(), {});
    }
    return Parse(text);
  }

  IndexingMap Parse(const std::string& text) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context_);
    EXPECT_TRUE(map.ok()) << map.status() << "\n" << text;
    return map.ok() ? *map : IndexingMap::Undefined();
  }

  mlir::MLIRContext context_;
};

TEST_F(AffineRewriteRulesTest, EveryRuleHasACase) {
  std::set<std::string> with_case;
  for (const RuleCase& c : kCases) with_case.insert(c.rule);
  for (const AffineSimplifier::RuleInfo& rule :
       AffineSimplifier::RuleCatalog()) {
    EXPECT_TRUE(with_case.count(rule.name))
        << rule.table << " rule " << rule.name << " (" << rule.contract
        << ") has no case in kCases";
  }
}

TEST_F(AffineRewriteRulesTest, EachCaseFiresItsRuleAndKeepsTheRelation) {
  std::set<std::string> catalog;
  for (const AffineSimplifier::RuleInfo& rule :
       AffineSimplifier::RuleCatalog()) {
    catalog.insert(rule.name);
  }
  for (const RuleCase& c : kCases) {
    SCOPED_TRACE(absl::StrCat(c.rule, ": ", c.map));
    if (IsTableRule(c.rule)) {
      EXPECT_TRUE(catalog.count(c.rule)) << "not a rule of the catalog";
    }
    const IndexingMap original = Input(c);
    IndexingMap simplified = original;
    std::map<std::string, int> fired;
    std::set<std::string> disabled;
    if (c.disable != nullptr) disabled.insert(c.disable);
    AffineSimplifier::CountRuleFirings(&fired);
    AffineSimplifier::DisableRulesForTest(&disabled);
    simplified.Simplify();
    AffineSimplifier::DisableRulesForTest(nullptr);
    AffineSimplifier::CountRuleFirings(nullptr);

    std::vector<std::string> fired_names;
    for (const auto& [name, count] : fired) fired_names.push_back(name);
    if (IsTableRule(c.rule)) {
      EXPECT_GT(fired[c.rule], 0)
          << "did not fire; fired: " << absl::StrJoin(fired_names, ", ");
    }
    EXPECT_EQ(ToString(simplified),
              absl::StrCat(c.expected, "\ndomain:\n",
                           c.expected_domain ? c.expected_domain : c.domain));

    exact::Enumeration want = exact::Enumerate(original, 1 << 16);
    exact::Enumeration got = exact::Enumerate(simplified, 1 << 16);
    ASSERT_EQ(want.kind, exact::Enumeration::kDone);
    ASSERT_EQ(got.kind, exact::Enumeration::kDone);
    EXPECT_FALSE(want.relation.empty());
    EXPECT_EQ(exact::FirstDifference(want.relation, got.relation), "");
  }
}

}  // namespace
}  // namespace xla_index
