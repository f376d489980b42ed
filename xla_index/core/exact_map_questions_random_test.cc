// `equal` and `empty` (exact_map_questions.h) against brute force on
// thousands of small random maps: empty domains, unused symbols, runtime
// variables, divisions by large and negative constants. The truth is
// exact::Enumerate (exact_affine_eval.h), an evaluator independent of the
// enumeration method's; every witness must be a pair of the map it names
// and not of the other. Each pair is decided twice: with the default
// budget (small boxes are enumerated) and with enumeration turned off, so
// that the direct, Presburger and fallback methods answer too.

#include <cstdint>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/exact_affine_eval.h"
#include "xla_index/core/exact_map_questions.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

/// Text of random small maps over given variable names.
class RandomMapText {
 public:
  explicit RandomMapText(uint32_t seed) : random_(seed) {}

  int Uniform(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(random_);
  }

  std::string Expr(const std::vector<std::string>& vars, int depth) {
    if (depth == 0 || Uniform(0, 3) == 0) {
      if (vars.empty() || Uniform(0, 4) == 0) {
        return absl::StrCat(Uniform(-4, 4));
      }
      return vars[Uniform(0, vars.size() - 1)];
    }
    static constexpr int64_t kDivisors[] = {2,  3,  4,      5,      7,
                                            -2, -3, 100000, 1000003};
    static constexpr int64_t kModuli[] = {2, 3, 4, 6, 7, 1000003};
    std::string lhs = Expr(vars, depth - 1);
    switch (Uniform(0, 6)) {
      case 0:
      case 1:
        return absl::StrCat("(", lhs, " + ", Expr(vars, depth - 1), ")");
      case 2:
        return absl::StrCat("(", lhs, " - ", Expr(vars, depth - 1), ")");
      case 3:
        return absl::StrCat("(", lhs, ") * ", Uniform(-3, 3));
      case 4:
        return absl::StrCat("(", lhs, ") floordiv ", kDivisors[Uniform(0, 8)]);
      case 5:
        return absl::StrCat("(", lhs, ") ceildiv ", kDivisors[Uniform(0, 6)]);
      default:
        return absl::StrCat("(", lhs, ") mod ", kModuli[Uniform(0, 5)]);
    }
  }

  std::string Interval(int width_max) {
    int lo = Uniform(-3, 3);
    // About one interval in 40 is empty.
    int width = Uniform(0, 39) == 0 ? -1 : Uniform(0, width_max);
    return absl::StrCat("[", lo, ", ", lo + width, "]");
  }

  /// A map with `dims` dims, `symbols` range variables (some unused),
  /// `runtime` runtime variables and `results` results.
  std::string Map(int dims, int symbols, int runtime, int results) {
    std::vector<std::string> d, s, rt, vars;
    for (int i = 0; i < dims; ++i) d.push_back(absl::StrCat("d", i));
    for (int i = 0; i < symbols; ++i) s.push_back(absl::StrCat("s", i));
    for (int i = 0; i < runtime; ++i) rt.push_back(absl::StrCat("rt", i));
    vars = d;
    vars.insert(vars.end(), s.begin(), s.end());
    vars.insert(vars.end(), rt.begin(), rt.end());
    std::vector<std::string> exprs;
    for (int i = 0; i < results; ++i) exprs.push_back(Expr(vars, 3));
    std::string text = absl::StrCat("(", absl::StrJoin(d, ", "), ")");
    if (!s.empty()) absl::StrAppend(&text, "[", absl::StrJoin(s, ", "), "]");
    if (!rt.empty()) absl::StrAppend(&text, "{", absl::StrJoin(rt, ", "), "}");
    absl::StrAppend(&text, " -> (", absl::StrJoin(exprs, ", "), ")");
    std::vector<std::string> domain;
    for (const std::string& v : vars) {
      domain.push_back(absl::StrCat(v, " in ", Interval(3)));
    }
    for (int c = Uniform(0, 2); c > 0; --c) {
      int lo = Uniform(-4, 4);
      domain.push_back(absl::StrCat(Expr(vars, 2), " in [", lo, ", ",
                                    lo + Uniform(0, 4), "]"));
    }
    if (!domain.empty()) {
      absl::StrAppend(&text, ", domain: ", absl::StrJoin(domain, ", "));
    }
    return text;
  }

 private:
  std::mt19937 random_;
};

/// True when no result or constraint names a symbol.
bool UsesNoSymbol(const IndexingMap& map) {
  if (map.IsKnownEmpty()) return true;
  bool uses = false;
  auto look = [&](mlir::AffineExpr expr) {
    expr.walk([&](mlir::AffineExpr e) {
      uses |= mlir::isa<mlir::AffineSymbolExpr>(e);
    });
  };
  for (mlir::AffineExpr r : map.GetAffineMap().getResults()) look(r);
  for (const IndexingConstraint& c : map.GetConstraints()) look(c.expr);
  return !uses;
}

class ExactMapQuestionsRandomTest : public ::testing::Test {
 protected:
  std::optional<IndexingMap> Parse(const std::string& text) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context_);
    if (!map.ok()) return std::nullopt;  // e.g. a constant folded to 0
    return *map;
  }

  static bool InRelation(const exact::Relation& relation,
                         const RelationPoint& point) {
    return relation.count(
               {point.dims, std::vector<exact::Int>(point.results.begin(),
                                                    point.results.end())}) > 0;
  }

  /// Whether the witness's pair comes from its own symbols in `map`.
  static bool RelatesWithSymbols(const IndexingMap& map,
                                 const RelationPoint& point) {
    for (size_t i = 0; i < point.symbols.size(); ++i) {
      if (!map.GetSymbolBound(i).Contains(point.symbols[i])) return false;
    }
    exact::PointValue value = exact::EvaluateAt(map, point.dims, point.symbols);
    return value.kind == exact::Value::kValue && value.holds &&
           value.results == std::vector<exact::Int>(point.results.begin(),
                                                    point.results.end());
  }

  mlir::MLIRContext context_;
};

TEST_F(ExactMapQuestionsRandomTest, AgreesWithEnumeration) {
  RandomMapText random(20261128);
  int compared = 0, different = 0, empty = 0, exhausted = 0, nonempty_equal = 0;
  ExactBudget no_enumeration;
  no_enumeration.max_enumerated_points = 0;
  no_enumeration.max_fallback_points = 1 << 12;
  const int trials = 10000;
  for (int trial = 0; trial < trials; ++trial) {
    const int dims = random.Uniform(0, 2), symbols = random.Uniform(0, 2);
    const int runtime = random.Uniform(0, 3) == 0 ? 1 : 0;
    const int results = random.Uniform(1, 2);
    std::optional<IndexingMap> a =
        Parse(random.Map(dims, symbols, runtime, results));
    if (!a) continue;
    std::optional<IndexingMap> b;
    switch (random.Uniform(0, 2)) {
      case 0: {  // a simplified: usually equal
        b = *a;
        b->Simplify();
        break;
      }
      default:  // another map of the same shape: usually different
        b = Parse(random.Map(dims, random.Uniform(0, 2), runtime, results));
    }
    if (!b || b->IsUndefined()) continue;
    exact::Enumeration ta = exact::Enumerate(*a, 1 << 12);
    exact::Enumeration tb = exact::Enumerate(*b, 1 << 12);
    ASSERT_EQ(ta.kind, exact::Enumeration::kDone) << ToString(*a);
    if (tb.kind != exact::Enumeration::kDone) continue;
    const bool truth_equal = ta.relation == tb.relation;
    // Without enumeration, maps with symbols would go to the Presburger
    // subtraction, which presburger_relation_test checks on its own (and
    // which can take minutes on a few random maps): only maps that are
    // functions of their dims (the direct method) are asked that way.
    std::vector<ExactBudget> budgets = {ExactBudget()};
    if (UsesNoSymbol(*a) && UsesNoSymbol(*b)) budgets.push_back(no_enumeration);
    for (const ExactBudget& budget : budgets) {
      absl::StatusOr<EqualityAnswer> answer = DecideEquality(*a, *b, budget);
      if (!answer.ok() && absl::IsResourceExhausted(answer.status()) &&
          budget.max_enumerated_points == 0) {
        ++exhausted;
        continue;
      }
      ASSERT_TRUE(answer.ok()) << answer.status() << "\n"
                               << ToString(*a) << "\n"
                               << ToString(*b);
      ASSERT_EQ(!answer->difference.has_value(), truth_equal)
          << ExactMethodName(answer->method) << "\n"
          << ToString(*a) << "\n"
          << ToString(*b) << "\n"
          << exact::FirstDifference(ta.relation, tb.relation);
      if (answer->difference) {
        const MapDifference& d = *answer->difference;
        const bool a_side = d.in_map == 0;
        EXPECT_TRUE(InRelation(a_side ? ta.relation : tb.relation, d.point));
        EXPECT_FALSE(InRelation(a_side ? tb.relation : ta.relation, d.point));
        EXPECT_TRUE(RelatesWithSymbols(a_side ? *a : *b, d.point));
      }
      absl::StatusOr<EmptinessAnswer> emptiness = DecideEmptiness(*a, budget);
      ASSERT_TRUE(emptiness.ok()) << emptiness.status() << "\n" << ToString(*a);
      ASSERT_EQ(!emptiness->point.has_value(), ta.relation.empty())
          << ToString(*a);
      if (emptiness->point) {
        EXPECT_TRUE(RelatesWithSymbols(*a, *emptiness->point));
      }
      ++compared;
      different += !truth_equal;
      empty += ta.relation.empty();
      nonempty_equal += truth_equal && !ta.relation.empty();
    }
  }
  // Enough of each kind that the comparison means something.
  EXPECT_GT(compared, 4000);
  EXPECT_GT(different, 1000);
  EXPECT_GT(compared - different, 1000);
  EXPECT_GT(empty, 100);
  EXPECT_GT(nonempty_equal, 500);
  // The budgeted methods answer nearly everything without enumeration.
  EXPECT_LT(exhausted, compared / 20);
  std::cout << compared << " compared, " << different << " different, " << empty
            << " empty, " << nonempty_equal << " equal and non-empty, "
            << exhausted << " over budget\n";
}

}  // namespace
}  // namespace xla_index
