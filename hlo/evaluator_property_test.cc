// Properties of the reference evaluator checked on random data: algebraic
// identities between ops (slice undoes pad, reverse twice is the identity,
// dynamic-slice reads back what dynamic-update-slice wrote, a 1x1
// convolution is a dot, gather of rows is a loop of dynamic slices) and
// plain C++ loops for dot and reduce. Each side is computed independently,
// so an error in one op's evaluation shows up as a mismatch.

#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/evaluator.h"
#include "hlo/parser.h"

namespace xla_index {
namespace {

Literal RandomLiteral(absl::string_view shape_text, std::mt19937& rng) {
  Literal literal(*ParseShape(shape_text));
  std::uniform_int_distribution<int> value(-20, 20);
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    literal.SetInt(i, value(rng));
  }
  return literal;
}

Literal Eval(absl::string_view hlo, const std::vector<Literal>& args) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(hlo);
  EXPECT_TRUE(module.ok()) << module.status() << "\n" << hlo;
  if (!module.ok()) return Literal();
  absl::StatusOr<Literal> out =
      EvaluateComputation(*(*module)->entry_computation(), args);
  EXPECT_TRUE(out.ok()) << out.status() << "\n" << hlo;
  return out.ok() ? *out : Literal();
}

TEST(EvaluatorPropertyTest, SliceUndoesPad) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 20; ++trial) {
    int64_t n = 1 + rng() % 6, m = 1 + rng() % 5;
    int64_t lo0 = rng() % 3, hi0 = rng() % 3, in0 = rng() % 3;
    int64_t lo1 = rng() % 3, hi1 = rng() % 3, in1 = rng() % 2;
    int64_t p0 = lo0 + hi0 + n + (n - 1) * in0;
    int64_t p1 = lo1 + hi1 + m + (m - 1) * in1;
    std::string hlo = absl::StrCat(
        "x = s32[", n, ",", m, "] parameter(0)\nz = s32[] constant(7)\n",
        "p = s32[", p0, ",", p1, "] pad(x, z), padding=", lo0, "_", hi0, "_",
        in0, "x", lo1, "_", hi1, "_", in1, "\n", "ROOT s = s32[", n, ",", m,
        "] slice(p), slice={[", lo0, ":", lo0 + (n - 1) * (in0 + 1) + 1, ":",
        in0 + 1, "], [", lo1, ":", lo1 + (m - 1) * (in1 + 1) + 1, ":", in1 + 1,
        "]}");
    Literal x = RandomLiteral(absl::StrCat("s32[", n, ",", m, "]"), rng);
    EXPECT_EQ(Eval(hlo, {x}), x) << hlo;
  }
}

TEST(EvaluatorPropertyTest, ReverseTwiceAndTransposeInverse) {
  std::mt19937 rng(2);
  Literal x = RandomLiteral("s32[3,4,5]", rng);
  EXPECT_EQ(Eval("x = s32[3,4,5] parameter(0)\n"
                 "r = s32[3,4,5] reverse(x), dimensions={0,2}\n"
                 "ROOT s = s32[3,4,5] reverse(r), dimensions={2,0}",
                 {x}),
            x);
  // Permutation {2,0,1} then its inverse {1,2,0}.
  EXPECT_EQ(Eval("x = s32[3,4,5] parameter(0)\n"
                 "t = s32[5,3,4] transpose(x), dimensions={2,0,1}\n"
                 "ROOT u = s32[3,4,5] transpose(t), dimensions={1,2,0}",
                 {x}),
            x);
}

TEST(EvaluatorPropertyTest, DynamicSliceReadsWhatDynamicUpdateSliceWrote) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    Literal x = RandomLiteral("s32[6,7]", rng);
    Literal u = RandomLiteral("s32[2,3]", rng);
    Literal s0(Shape(PrimitiveType::kS32, {}));
    Literal s1(Shape(PrimitiveType::kS32, {}));
    s0.SetInt(0, rng() % 5);
    s1.SetInt(0, rng() % 5);
    EXPECT_EQ(Eval("x = s32[6,7] parameter(0)\nu = s32[2,3] parameter(1)\n"
                   "a = s32[] parameter(2)\nb = s32[] parameter(3)\n"
                   "d = s32[6,7] dynamic-update-slice(x, u, a, b)\n"
                   "ROOT s = s32[2,3] dynamic-slice(d, a, b), "
                   "dynamic_slice_sizes={2,3}",
                   {x, u, s0, s1}),
              u);
  }
}

TEST(EvaluatorPropertyTest, DotMatchesLoops) {
  std::mt19937 rng(4);
  Literal a = RandomLiteral("s32[2,3,4]", rng);
  Literal b = RandomLiteral("s32[2,4,5]", rng);
  Literal out = Eval(
      "a = s32[2,3,4] parameter(0)\nb = s32[2,4,5] parameter(1)\n"
      "ROOT d = s32[2,3,5] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, "
      "lhs_contracting_dims={2}, rhs_contracting_dims={1}",
      {a, b});
  for (int64_t n = 0; n < 2; ++n) {
    for (int64_t i = 0; i < 3; ++i) {
      for (int64_t j = 0; j < 5; ++j) {
        int64_t sum = 0;
        for (int64_t k = 0; k < 4; ++k) {
          sum += a.GetInt((n * 3 + i) * 4 + k) * b.GetInt((n * 4 + k) * 5 + j);
        }
        EXPECT_EQ(out.GetInt((n * 3 + i) * 5 + j), sum);
      }
    }
  }
}

TEST(EvaluatorPropertyTest, OneByOneConvolutionIsADot) {
  std::mt19937 rng(5);
  // Input b0f [2,5,3] (batch, spatial, features), kernel 0io [1,3,4].
  Literal x = RandomLiteral("s32[2,5,3]", rng);
  Literal k = RandomLiteral("s32[1,3,4]", rng);
  Literal conv = Eval(
      "x = s32[2,5,3] parameter(0)\nk = s32[1,3,4] parameter(1)\n"
      "ROOT c = s32[2,5,4] convolution(x, k), window={size=1}, "
      "dim_labels=b0f_0io->b0f",
      {x, k});
  Literal dot = Eval(
      "x = s32[2,5,3] parameter(0)\nk = s32[1,3,4] parameter(1)\n"
      "w = s32[3,4] reshape(k)\n"
      "ROOT d = s32[2,5,4] dot(x, w), lhs_contracting_dims={2}, "
      "rhs_contracting_dims={0}",
      {x, k});
  EXPECT_EQ(conv, dot);
}

TEST(EvaluatorPropertyTest, GatherOfRowsIsDynamicSlices) {
  std::mt19937 rng(6);
  Literal x = RandomLiteral("s32[7,4]", rng);
  Literal indices(*ParseShape("s32[5]"));
  for (int64_t i = 0; i < 5; ++i) indices.SetInt(i, rng() % 9 - 1);
  Literal gathered = Eval(
      "x = s32[7,4] parameter(0)\ni = s32[5] parameter(1)\n"
      "ROOT g = s32[5,4] gather(x, i), offset_dims={1}, "
      "collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, "
      "slice_sizes={1,4}",
      {x, indices});
  for (int64_t r = 0; r < 5; ++r) {
    Literal s(Shape(PrimitiveType::kS32, {}));
    s.SetInt(0, indices.GetInt(r));
    Literal zero(Shape(PrimitiveType::kS32, {}));
    Literal row = Eval(
        "x = s32[7,4] parameter(0)\ns = s32[] parameter(1)\n"
        "z = s32[] parameter(2)\n"
        "ROOT d = s32[1,4] dynamic-slice(x, s, z), dynamic_slice_sizes={1,4}",
        {x, s, zero});
    for (int64_t c = 0; c < 4; ++c) {
      EXPECT_EQ(gathered.GetInt(r * 4 + c), row.GetInt(c)) << r;
    }
  }
}

constexpr absl::string_view kAdd = R"(HloModule m
add {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
)";

TEST(EvaluatorPropertyTest, FullWindowReduceWindowIsReduce) {
  std::mt19937 rng(7);
  Literal x = RandomLiteral("s32[4,6]", rng);
  Literal window = Eval(absl::StrCat(kAdd, R"(ENTRY e {
  x = s32[4,6] parameter(0)
  z = s32[] constant(0)
  ROOT r = s32[4,1] reduce-window(x, z), window={size=1x6}, to_apply=add
})"),
                        {x});
  Literal reduce = Eval(absl::StrCat(kAdd, R"(ENTRY e {
  x = s32[4,6] parameter(0)
  z = s32[] constant(0)
  ROOT r = s32[4] reduce(x, z), dimensions={1}, to_apply=add
})"),
                        {x});
  for (int64_t i = 0; i < 4; ++i) {
    int64_t sum = 0;
    for (int64_t j = 0; j < 6; ++j) sum += x.GetInt(i * 6 + j);
    EXPECT_EQ(window.GetInt(i), sum);
    EXPECT_EQ(reduce.GetInt(i), sum);
  }
}

// Traced reads of reduce-window with stride, padding and dilations against
// a direct enumeration of the window positions. The 9 elements dilated by
// 2 span 17, padded 20; a window of 3 dilated by 2 spans 5; stride 3 gives
// (20 - 5) / 3 + 1 = 6 outputs.
TEST(EvaluatorPropertyTest, ReduceWindowReadsTheWindow) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(absl::StrCat(kAdd, R"(ENTRY e {
  x = s32[9] parameter(0)
  z = s32[] parameter(1)
  ROOT r = s32[6] reduce-window(x, z), window={size=3 stride=3 pad=2_1 lhs_dilate=2 rhs_dilate=2}, to_apply=add
})"));
  ASSERT_TRUE(module.ok()) << module.status();
  std::mt19937 rng(8);
  Literal x = RandomLiteral("s32[9]", rng);
  Literal z(Shape(PrimitiveType::kS32, {}));
  absl::StatusOr<TracedValue> t =
      TraceInstruction(*(*module)->entry_computation()->root(), {x, z});
  ASSERT_TRUE(t.ok()) << t.status();
  for (int64_t o = 0; o < 6; ++o) {
    ReadSet expected = {{1, 0, 0}};
    int64_t sum = 0;
    for (int64_t k = 0; k < 3; ++k) {
      // Position in the dilated, padded operand: o*3 + k*2 - 2; real
      // elements sit at even positions 0, 2, ..., 16.
      int64_t pos = o * 3 + k * 2 - 2;
      if (pos >= 0 && pos % 2 == 0 && pos / 2 < 9) {
        expected.push_back({0, 0, pos / 2});
        sum += x.GetInt(pos / 2);
      }
    }
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(t->reads[0][o], expected) << o;
    EXPECT_EQ(t->value.GetInt(o), sum) << o;
  }
}

}  // namespace
}  // namespace xla_index
