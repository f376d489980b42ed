#include "xla_index/analysis/operand_utilization.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/utilization_brute_force.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/core/interval.h"

namespace xla_index {
namespace {

// The per-instruction answer (moved here from xla_index/indexing_rules_test.cc
// with the model).
class OperandUtilizationTest : public ::testing::Test {
 protected:
  const HloInstruction* Parse(absl::string_view hlo) {
    auto module = ParseHloModule(hlo);
    EXPECT_TRUE(module.ok()) << module.status();
    if (!module.ok()) return nullptr;
    module_ = std::move(*module);
    return module_->entry_computation()->root();
  }

  mlir::MLIRContext context_;
  std::unique_ptr<HloModule> module_;
};

TEST_F(OperandUtilizationTest, OperandUtilization) {
  const HloInstruction* root = Parse(R"(
p0 = f32[10, 20, 50] parameter(0)
slice = f32[5, 3, 25] slice(f32[10, 20, 50] p0),
  slice={[5:10:1], [3:20:7], [0:50:2]}
)");
  ASSERT_NE(root, nullptr);
  std::vector<OperandUtilization> u =
      ComputeOperandUtilization(*root, &context_);
  ASSERT_EQ(u.size(), 1);
  // The slice reads 5 * 3 * 25 elements of 10 * 20 * 50.
  EXPECT_TRUE(u[0].exact);
  EXPECT_EQ(u[0].elements_read, 5 * 3 * 25);
  EXPECT_EQ(u[0].element_count, 10 * 20 * 50);

  // Too many points to enumerate: the box bound is still exact here.
  std::vector<OperandUtilization> bounded =
      ComputeOperandUtilization(*root, &context_, /*max_points=*/10);
  EXPECT_FALSE(bounded[0].exact);
  EXPECT_GE(bounded[0].elements_read, 5 * 3 * 25);
  EXPECT_LE(bounded[0].elements_read, 10 * 20 * 50);
}

TEST_F(OperandUtilizationTest, OperandUtilizationOfAReduceReadsEverything) {
  const HloInstruction* root = Parse(R"(
p0 = f32[6, 4] parameter(0)
c = f32[] constant(0)
r = f32[4] reduce(p0, c), dimensions={0}, to_apply=add
)");
  ASSERT_NE(root, nullptr);
  std::vector<OperandUtilization> u =
      ComputeOperandUtilization(*root, &context_);
  ASSERT_EQ(u.size(), 2);
  EXPECT_EQ(u[0].elements_read, 24);
  EXPECT_DOUBLE_EQ(u[0].Fraction(), 1.0);
  EXPECT_EQ(u[1].elements_read, 1);
}

}  // namespace
}  // namespace xla_index

namespace xla_index {
namespace {

// The distinct in-bounds elements `maps` read, by brute force over every
// (dims, symbols) point, independently of the counting code.
int64_t BruteForceElementsRead(const IndexingMapSet& maps,
                               const std::vector<int64_t>& operand_dims) {
  std::set<std::vector<int64_t>> read;
  for (const IndexingMap& map : maps) {
    std::vector<Interval> box = map.GetDimBounds();
    for (const Interval& s : map.GetSymbolBounds()) box.push_back(s);
    std::vector<int64_t> point;
    for (const Interval& b : box) point.push_back(b.lower);
    const size_t dims = map.GetDimensionCount();
    while (true) {
      absl::Span<const int64_t> all(point);
      if (map.ConstraintsSatisfied(all.subspan(0, dims), all.subspan(dims))) {
        std::vector<int64_t> r =
            *map.Evaluate(all.subspan(0, dims), all.subspan(dims));
        bool inside = true;
        for (size_t k = 0; k < r.size(); ++k) {
          inside &= r[k] >= 0 && r[k] < operand_dims[k];
        }
        if (inside) read.insert(r);
      }
      size_t k = box.size();
      while (k > 0 && point[k - 1] == box[k - 1].upper) {
        point[k - 1] = box[k - 1].lower;
        --k;
      }
      if (k == 0) break;
      ++point[k - 1];
    }
  }
  return read.size();
}

struct ExactCase {
  std::vector<const char*> maps;
  std::vector<int64_t> operand_dims;
};

class ExactUtilizationTest : public ::testing::TestWithParam<ExactCase> {};

// Elements read are counted exactly, by enumeration with room to enumerate
// and with the Presburger membership test without; both equal brute force.
TEST_P(ExactUtilizationTest, MatchesBruteForceByEveryMethod) {
  mlir::MLIRContext context;
  IndexingMapSet maps;
  for (const char* text : GetParam().maps) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context);
    ASSERT_TRUE(map.ok()) << map.status();
    maps.Insert(*map);
  }
  const std::vector<int64_t>& dims = GetParam().operand_dims;
  const int64_t expected = BruteForceElementsRead(maps, dims);
  OperandUtilization enumerated = ComputeOperandUtilization(maps, dims);
  EXPECT_TRUE(enumerated.exact);
  EXPECT_EQ(enumerated.elements_read, expected);
  EXPECT_NE(enumerated.method, UtilizationMethod::kBound);
  OperandUtilization presburger =
      ComputeOperandUtilization(maps, dims, /*max_points=*/1);
  EXPECT_EQ(presburger.method, UtilizationMethod::kPresburger);
  EXPECT_EQ(presburger.elements_read, expected);
  // Out of time for the element-by-element count: a bound, marked inexact,
  // that is never below the truth.
  OperandUtilization out_of_time = ComputeOperandUtilization(
      maps, dims, /*max_points=*/1, /*time_budget=*/absl::ZeroDuration());
  EXPECT_EQ(out_of_time.method, UtilizationMethod::kBound);
  EXPECT_FALSE(out_of_time.exact);
  EXPECT_GE(out_of_time.elements_read, expected);
}

INSTANTIATE_TEST_SUITE_P(
    Maps, ExactUtilizationTest,
    testing::Values(
        // Two results sharing variables, under a constraint.
        ExactCase{{"(d0, d1) -> (d0 + d1, d0 - d1 + 7)\ndomain:\n"
                   "d0 in [0, 9]\nd1 in [0, 7]\nd0 + d1 in [0, 10]"},
                  {20, 20}},
        // A gather-like stride with a divisibility constraint.
        ExactCase{{"(d0)[s0] -> (d0 * 4 + s0)\ndomain:\nd0 in [0, 15]\n"
                   "s0 in [0, 3]\n(d0 * 4 + s0) mod 3 in [0, 0]"},
                  {64}},
        // floordiv and mod of one variable in two results, part of the
        // results out of bounds.
        ExactCase{{"(d0) -> (d0 floordiv 6, d0 mod 6)\ndomain:\n"
                   "d0 in [0, 47]"},
                  {7, 5}},
        // A union of two overlapping windows.
        ExactCase{{"(d0)[s0] -> (d0 + s0)\ndomain:\nd0 in [0, 9]\n"
                   "s0 in [0, 2]",
                   "(d0) -> (d0 * 3)\ndomain:\nd0 in [0, 9]"},
                  {40}}));

// The elements read through a dynamic offset range over every feasible
// offset; the reads count once per output element, at one offset.
TEST(RuntimeUtilizationTest, ElementsOverAllOffsetsReadsAtOne) {
  mlir::MLIRContext context;
  absl::StatusOr<std::unique_ptr<HloModule>> module = ParseHloModule(R"(
src = f32[64,256] parameter(0)
i = s32[] parameter(1)
j = s32[] parameter(2)
ds = f32[64,128] dynamic-slice(src, i, j), dynamic_slice_sizes={64,128}
)");
  ASSERT_TRUE(module.ok()) << module.status();
  std::vector<OperandUtilization> u = ComputeOperandUtilization(
      *(*module)->entry_computation()->root(), &context);
  ASSERT_FALSE(u.empty());
  EXPECT_FALSE(u[0].exact);  // depends on the runtime offset
  EXPECT_EQ(u[0].elements_read, 64 * 256);
  EXPECT_EQ(u[0].reads, 64 * 128);
  EXPECT_EQ(u[0].method, UtilizationMethod::kPerResult);
}

}  // namespace
}  // namespace xla_index

namespace xla_index {
namespace {

// Maps counted without enumerating the output, each against brute force:
// a pad's strided read under its constraints (one group per dimension), a
// reshape's floordiv/mod pair, and a concatenate's two slabs (disjoint
// images, proved with Presburger).
TEST(GroupedUtilizationTest, CountsWithoutEnumeratingTheOutput) {
  mlir::MLIRContext context;
  struct Case {
    std::vector<const char*> maps;
    std::vector<int64_t> dims;
    UtilizationMethod method;
    int64_t max_points = kDefaultUtilizationPointLimit;
  };
  const Case cases[] = {
      {{"(d0, d1) -> (d0 floordiv 2, d1 floordiv 2)\ndomain:\n"
        "d0 in [0, 254]\nd1 in [0, 254]\nd0 mod 2 in [0, 0]\n"
        "d1 mod 2 in [0, 0]"},
       {128, 128},
       UtilizationMethod::kPerResult},
      {{"(d0, d1) -> (d0, d1 floordiv 6, d1 mod 6)\ndomain:\n"
        "d0 in [0, 99]\nd1 in [0, 35]"},
       {100, 6, 6},
       UtilizationMethod::kPerResult},
      {{"(d0, d1) -> (d0 + 128, d1)\ndomain:\nd0 in [0, 127]\nd1 in [0, 63]",
        "(d0, d1) -> (d0 - 128, d1)\ndomain:\nd0 in [128, 255]\n"
        "d1 in [0, 63]"},
       {256, 64},
       UtilizationMethod::kDisjointSum,
       // Fewer points than the images hold (2 x 8192): not listed.
       /*max_points=*/4096},
      // The same with room to list the images: counted from them, without
      // a Presburger proof.
      {{"(d0, d1) -> (d0 + 128, d1)\ndomain:\nd0 in [0, 127]\nd1 in [0, 63]",
        "(d0, d1) -> (d0 - 128, d1)\ndomain:\nd0 in [128, 255]\n"
        "d1 in [0, 63]"},
       {256, 64},
       UtilizationMethod::kEnumeration},
      // Overlapping images: not a disjoint sum, still exact.
      {{"(d0) -> (d0)\ndomain:\nd0 in [0, 9]",
        "(d0) -> (d0 + 5)\ndomain:\nd0 in [0, 9]"},
       {20},
       UtilizationMethod::kEnumeration},
  };
  for (const Case& c : cases) {
    IndexingMapSet maps;
    for (const char* text : c.maps) {
      absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context);
      ASSERT_TRUE(map.ok()) << map.status();
      maps.Insert(*map);
    }
    OperandUtilization u =
        ComputeOperandUtilization(maps, c.dims, c.max_points);
    EXPECT_TRUE(u.exact) << c.maps[0];
    EXPECT_EQ(u.method, c.method) << c.maps[0];
    EXPECT_EQ(u.elements_read, BruteForceElementsRead(maps, c.dims))
        << c.maps[0];
  }
}

}  // namespace
}  // namespace xla_index

namespace xla_index {
namespace {

// `c + sum of +-v` is counted in closed form when no read leaves the
// operand, by groups otherwise; both equal brute force.
TEST(GroupedUtilizationTest, UnitLinearResultsMatchBruteForce) {
  mlir::MLIRContext context;
  const char* maps[] = {
      "(d0, d1)[s0] -> (d0, d1 + s0)\ndomain:\nd0 in [0, 3]\nd1 in [0, 15]\n"
      "s0 in [0, 16]",
      "(d0, d1)[s0] -> (d0, d1 - s0 + 20)\ndomain:\nd0 in [0, 3]\n"
      "d1 in [0, 15]\ns0 in [0, 16]",
      // Clipped by the operand's end: counted by enumeration of the group.
      "(d0, d1)[s0] -> (d0, d1 + s0 + 10)\ndomain:\nd0 in [0, 3]\n"
      "d1 in [0, 15]\ns0 in [0, 16]",
  };
  for (const char* text : maps) {
    absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context);
    ASSERT_TRUE(map.ok()) << map.status();
    IndexingMapSet set = {*map};
    OperandUtilization u = ComputeOperandUtilization(set, {4, 40});
    EXPECT_EQ(u.method, UtilizationMethod::kPerResult) << text;
    EXPECT_EQ(u.elements_read, BruteForceElementsRead(set, {4, 40})) << text;
    // Pairs: per output element, the distinct in-bounds elements over s0.
    int64_t pairs = 0;
    for (int64_t d0 = 0; d0 < 4; ++d0) {
      for (int64_t d1 = 0; d1 < 16; ++d1) {
        std::set<std::vector<int64_t>> read;
        for (int64_t s0 = 0; s0 <= 16; ++s0) {
          std::vector<int64_t> r = *map->Evaluate({d0, d1}, {s0});
          if (r[1] >= 0 && r[1] < 40) read.insert(r);
        }
        pairs += read.size();
      }
    }
    EXPECT_EQ(u.reads, pairs) << text;
  }
}

}  // namespace
}  // namespace xla_index

namespace xla_index {
namespace {

// A random affine expression over `vars` in the forms the HLO rules make:
// a variable, an offset or stride, a sum or difference, a reshape's
// floordiv and mod, a constant.
std::string RandomExpr(std::mt19937& rng,
                       const std::vector<std::string>& vars) {
  auto pick = [&](int n) { return static_cast<int>(rng() % n); };
  const std::string& a = vars[pick(vars.size())];
  const std::string& b = vars[pick(vars.size())];
  switch (pick(7)) {
    case 0:
      return a;
    case 1:
      return absl::StrCat(a, " + ", pick(4));
    case 2:
      return absl::StrCat(a, " * ", 2 + pick(3), " + ", pick(3));
    case 3:
      return absl::StrCat("(", a, " + ", b, ") floordiv ", 2 + pick(3));
    case 4:
      return absl::StrCat("(", a, " * ", 3 + pick(3), " + ", b, ") mod ",
                          2 + pick(5));
    case 5:
      return absl::StrCat(a, " - ", b, " + ", 3 + pick(4));
    default:
      return absl::StrCat(pick(4));
  }
}

// Random unions of one to three maps over small domains (some variables
// unused, some constraints), counted with room to enumerate and without it
// (max_points 1: the Presburger steps, else the bound): exact counts equal
// brute force, a bound is never below it.
TEST(RandomUtilizationTest, MatchesBruteForce) {
  mlir::MLIRContext context;
  std::mt19937 rng(20261129);
  int exact_without_room = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const int rank = 1 + static_cast<int>(rng() % 2);
    std::vector<int64_t> operand_dims;
    for (int k = 0; k < rank; ++k) operand_dims.push_back(2 + rng() % 11);
    IndexingMapSet maps;
    std::string texts;
    const int count = 1 + static_cast<int>(rng() % 3);
    for (int m = 0; m < count; ++m) {
      const int dims = 1 + static_cast<int>(rng() % 3);
      const int symbols = static_cast<int>(rng() % 2);
      std::vector<std::string> vars, dim_names, symbol_names;
      for (int i = 0; i < dims; ++i) dim_names.push_back(absl::StrCat("d", i));
      for (int i = 0; i < symbols; ++i) {
        symbol_names.push_back(absl::StrCat("s", i));
      }
      // The last dim is often left out of every result (unused).
      vars = dim_names;
      if (dims > 1 && rng() % 2 == 0) vars.pop_back();
      vars.insert(vars.end(), symbol_names.begin(), symbol_names.end());
      std::vector<std::string> results;
      for (int k = 0; k < rank; ++k) results.push_back(RandomExpr(rng, vars));
      std::string text = absl::StrCat(
          "(", absl::StrJoin(dim_names, ", "), ")",
          symbols ? absl::StrCat("[", absl::StrJoin(symbol_names, ", "), "]")
                  : "",
          " -> (", absl::StrJoin(results, ", "), ")\ndomain:\n");
      for (const std::string& v : dim_names) {
        absl::StrAppend(&text, v, " in [0, ", 1 + rng() % 7, "]\n");
      }
      for (const std::string& v : symbol_names) {
        absl::StrAppend(&text, v, " in [0, ", 1 + rng() % 4, "]\n");
      }
      if (rng() % 3 == 0) {
        absl::StrAppend(&text, "(", vars[rng() % vars.size()], " + ",
                        vars[rng() % vars.size()], ") mod 2 in [0, 0]\n");
      }
      absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context);
      ASSERT_TRUE(map.ok()) << map.status() << "\n" << text;
      maps.Insert(*map);
      absl::StrAppend(&texts, text, "--\n");
    }
    SCOPED_TRACE(texts);
    const int64_t elements = BruteForceElementsRead(maps, operand_dims);
    const int64_t pairs = CountByBruteForce(maps, operand_dims).pairs;
    OperandUtilization roomy = ComputeOperandUtilization(maps, operand_dims);
    EXPECT_TRUE(roomy.exact);
    EXPECT_EQ(roomy.elements_read, elements);
    EXPECT_EQ(roomy.reads, pairs);
    OperandUtilization tight =
        ComputeOperandUtilization(maps, operand_dims, /*max_points=*/1);
    if (tight.exact) {
      ++exact_without_room;
      EXPECT_EQ(tight.elements_read, elements);
      EXPECT_EQ(tight.reads, pairs);
    } else {
      EXPECT_GE(tight.elements_read, elements);
      EXPECT_GE(tight.reads, pairs);
    }
  }
  // Some counts are exact without enumerating (closed forms, Presburger).
  EXPECT_GT(exact_without_room, 0);
}

}  // namespace
}  // namespace xla_index

namespace xla_index {
namespace {

// The share of a total budget an operand's count gets: at least the
// per-operand budget, an even share when larger, never more than is left.
TEST(UtilizationBudgetTest, NextOperandTimeBudgetSharesWhatIsLeft) {
  const absl::Time now = absl::Now();
  EXPECT_EQ(NextOperandTimeBudget(now - absl::Seconds(1), 3),
            absl::ZeroDuration());
  EXPECT_EQ(NextOperandTimeBudget(now - absl::Seconds(1)),
            absl::ZeroDuration());
  // Far from the end: 2 s each when many remain or the count is unknown.
  EXPECT_EQ(NextOperandTimeBudget(now + absl::Hours(1), 10000),
            kDefaultUtilizationTimeBudget);
  EXPECT_EQ(NextOperandTimeBudget(now + absl::Hours(1)),
            kDefaultUtilizationTimeBudget);
  // One operand left: all that is left (a little less, time passes).
  const absl::Duration alone = NextOperandTimeBudget(now + absl::Hours(1), 1);
  EXPECT_GT(alone, absl::Minutes(59));
  EXPECT_LE(alone, absl::Hours(1));
  // Less left than 2 s: what is left.
  EXPECT_LE(NextOperandTimeBudget(absl::Now() + absl::Seconds(1), 5),
            absl::Seconds(1));
}

}  // namespace
}  // namespace xla_index
