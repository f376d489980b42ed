#include "hlo/evaluator.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/parser.h"
#include "hlo/verifier.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;

// Parses `hlo` (verified), evaluates its entry computation without
// arguments and returns the result as text (Literal::ToString).
std::string EvalText(absl::string_view hlo) {
  absl::StatusOr<std::unique_ptr<HloModule>> module = ParseHloModule(hlo);
  if (!module.ok()) return std::string(module.status().message());
  if (absl::Status s = VerifyModule(**module); !s.ok()) {
    return std::string(s.message());
  }
  absl::StatusOr<Literal> result =
      EvaluateComputation(*(*module)->entry_computation(), {});
  if (!result.ok()) return std::string(result.status().message());
  return result->ToString();
}

Literal MakeLiteral(absl::string_view shape_text, absl::string_view values) {
  Shape shape = *ParseShape(shape_text);
  TextCursor cursor(values);
  absl::StatusOr<Literal> literal = ParseLiteralAtCursor(cursor, shape);
  EXPECT_TRUE(literal.ok()) << literal.status();
  return *literal;
}

// ---- Worked examples of XLA's operation-semantics documentation. ----

TEST(EvaluatorSeedTest, ConcatenateOneDimensional) {
  // Concat({{2, 3}, {4, 5}, {6, 7}}, 0) >>> {2, 3, 4, 5, 6, 7}
  EXPECT_EQ(EvalText(R"(
a = s32[2] constant({2, 3})
b = s32[2] constant({4, 5})
c = s32[2] constant({6, 7})
ROOT r = s32[6] concatenate(a, b, c), dimensions={0})"),
            "{2, 3, 4, 5, 6, 7}");
}

TEST(EvaluatorSeedTest, ConcatenateTwoDimensional) {
  EXPECT_EQ(EvalText(R"(
a = s32[3,2] constant({{1, 2}, {3, 4}, {5, 6}})
b = s32[1,2] constant({{7, 8}})
ROOT r = s32[4,2] concatenate(a, b), dimensions={0})"),
            "{{1, 2}, {3, 4}, {5, 6}, {7, 8}}");
}

TEST(EvaluatorSeedTest, DotGeneralContracting) {
  EXPECT_EQ(EvalText(R"(
lhs = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
rhs = f32[2,3] constant({{1, 1, 1}, {2, 2, 2}})
ROOT d = f32[2,2] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={1})"),
            "{{6, 12}, {15, 30}}");
}

TEST(EvaluatorSeedTest, DotGeneralBatch) {
  EXPECT_EQ(EvalText(R"(
lhs = f32[2,2,2] constant({{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}})
rhs = f32[2,2,2] constant({{{1, 0}, {0, 1}}, {{1, 0}, {0, 1}}})
ROOT d = f32[2,2,2] dot(lhs, rhs), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1})"),
            "{{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}}");
}

TEST(EvaluatorSeedTest, DynamicSlice) {
  EXPECT_EQ(EvalText(R"(
a = f32[5] constant({0, 1, 2, 3, 4})
s = s32[] constant(2)
ROOT r = f32[2] dynamic-slice(a, s), dynamic_slice_sizes={2})"),
            "{2, 3}");
  EXPECT_EQ(EvalText(R"(
b = f32[4,3] constant({{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}})
s0 = s32[] constant(2)
s1 = s32[] constant(1)
ROOT r = f32[2,2] dynamic-slice(b, s0, s1), dynamic_slice_sizes={2, 2})"),
            "{{7, 8}, {10, 11}}");
  // Out-of-range starts are clamped to dim - size.
  EXPECT_EQ(EvalText(R"(
a = f32[5] constant({0, 1, 2, 3, 4})
s = s32[] constant(9)
ROOT r = f32[2] dynamic-slice(a, s), dynamic_slice_sizes={2})"),
            "{3, 4}");
}

TEST(EvaluatorSeedTest, DynamicUpdateSlice) {
  EXPECT_EQ(EvalText(R"(
a = f32[5] constant({0, 1, 2, 3, 4})
u = f32[2] constant({5, 6})
s = s32[] constant(2)
ROOT r = f32[5] dynamic-update-slice(a, u, s))"),
            "{0, 1, 5, 6, 4}");
  EXPECT_EQ(EvalText(R"(
b = f32[4,3] constant({{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}})
u = f32[3,2] constant({{12, 13}, {14, 15}, {16, 17}})
s0 = s32[] constant(1)
s1 = s32[] constant(1)
ROOT r = f32[4,3] dynamic-update-slice(b, u, s0, s1))"),
            "{{0, 1, 2}, {3, 12, 13}, {6, 14, 15}, {9, 16, 17}}");
}

// Gather's formal definition on the informal example of
// XLA's operation-semantics documentation: a [16,11]
// operand, slices [8,6], 5 start positions; Out [G,O0,O1] reads
// operand[X + O0, Y + O1] where (X, Y) = indices[G].
TEST(EvaluatorSeedTest, GatherFormalDefinition) {
  auto module = ParseHloModule(R"(
operand = s32[16,11] parameter(0)
indices = s64[5,2] parameter(1)
ROOT g = s32[5,8,6] gather(operand, indices), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={8,6})");
  ASSERT_TRUE(module.ok()) << module.status();
  ASSERT_TRUE(VerifyModule(**module).ok());
  Literal operand(*ParseShape("s32[16,11]"));
  for (int64_t i = 0; i < 16 * 11; ++i) operand.SetInt(i, 1000 + i);
  Literal indices =
      MakeLiteral("s64[5,2]", "{{0, 0}, {8, 5}, {3, 2}, {1, 4}, {8, 0}}");
  absl::StatusOr<Literal> out =
      EvaluateComputation(*(*module)->entry_computation(), {operand, indices});
  ASSERT_TRUE(out.ok()) << out.status();
  for (int64_t g = 0; g < 5; ++g) {
    int64_t x = indices.GetInt(2 * g), y = indices.GetInt(2 * g + 1);
    for (int64_t o0 = 0; o0 < 8; ++o0) {
      for (int64_t o1 = 0; o1 < 6; ++o1) {
        EXPECT_EQ(out->GetInt((g * 8 + o0) * 6 + o1),
                  1000 + (x + o0) * 11 + (y + o1));
      }
    }
  }
}

// The tf.gather_nd example of XLA's operation-semantics documentation:
// slice_sizes [1,11] with dimension 0 collapsed; each index X picks a whole
// row.
TEST(EvaluatorSeedTest, GatherRows) {
  EXPECT_EQ(EvalText(R"(
operand = s32[3,2] constant({{1, 2}, {3, 4}, {5, 6}})
indices = s32[2] constant({2, 0})
ROOT g = s32[2,2] gather(operand, indices), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,2})"),
            "{{5, 6}, {1, 2}}");
}

// Batching dims (XLA's operation semantics, "Gather"): output element G
// reads operand row G (operand_batching_dims={0} pairs with the indices'
// batch dim) at column indices[G]; the indices' batching dim may sit after
// index_vector_dim.
TEST(EvaluatorSeedTest, GatherBatchingDims) {
  EXPECT_EQ(EvalText(R"(
operand = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
indices = s32[2] constant({2, 0})
ROOT g = s32[2] gather(operand, indices), offset_dims={}, collapsed_slice_dims={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, start_index_map={1}, index_vector_dim=1, slice_sizes={1,1})"),
            "{3, 4}");
  EXPECT_EQ(EvalText(R"(
operand = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
indices = s32[1,2] constant({{1, 2}})
ROOT g = s32[2,1] gather(operand, indices), offset_dims={1}, collapsed_slice_dims={}, operand_batching_dims={0}, start_indices_batching_dims={1}, start_index_map={1}, index_vector_dim=0, slice_sizes={1,1})"),
            "{{2}, {6}}");
}

TEST(EvaluatorSeedTest, Pad) {
  // Interior padding first, then edges: 1_2_1 on {1, 2, 3}.
  EXPECT_EQ(EvalText(R"(
a = s32[3] constant({1, 2, 3})
z = s32[] constant(0)
ROOT p = s32[8] pad(a, z), padding=1_2_1)"),
            "{0, 1, 0, 2, 0, 3, 0, 0}");
  // Negative edge padding removes elements from the interior-padded array.
  EXPECT_EQ(EvalText(R"(
a = s32[3] constant({1, 2, 3})
z = s32[] constant(9)
ROOT p = s32[4] pad(a, z), padding=-1_0_1)"),
            "{9, 2, 9, 3}");
}

// Reshape and Collapse examples of XLA's operation-semantics documentation on v
// = f32[4x2x3].
constexpr absl::string_view kV =
    "v = f32[4,2,3] constant({{{10, 11, 12}, {15, 16, 17}}, {{20, 21, 22}, "
    "{25, 26, 27}}, {{30, 31, 32}, {35, 36, 37}}, {{40, 41, 42}, {45, 46, "
    "47}}})\n";

TEST(EvaluatorSeedTest, ReshapeInOrder) {
  EXPECT_EQ(EvalText(absl::StrCat(kV, "ROOT r = f32[24] reshape(v)")),
            "{10, 11, 12, 15, 16, 17, 20, 21, 22, 25, 26, 27, 30, 31, 32, 35, "
            "36, 37, 40, 41, 42, 45, 46, 47}");
  EXPECT_EQ(EvalText(absl::StrCat(kV, "ROOT r = f32[8,3] reshape(v)")),
            "{{10, 11, 12}, {15, 16, 17}, {20, 21, 22}, {25, 26, 27}, {30, 31, "
            "32}, {35, 36, 37}, {40, 41, 42}, {45, 46, 47}}");
  // Collapse(v, {1,2}) == f32[4x6].
  EXPECT_EQ(EvalText(absl::StrCat(kV, "ROOT r = f32[4,6] reshape(v)")),
            "{{10, 11, 12, 15, 16, 17}, {20, 21, 22, 25, 26, 27}, {30, 31, 32, "
            "35, 36, 37}, {40, 41, 42, 45, 46, 47}}");
}

// Reshape(v, {1,2,0}, sizes) = reshape of transpose(v) with permutation
// {1,2,0}: the out-of-order collapse of XLA's operation-semantics
// documentation.
TEST(EvaluatorSeedTest, ReshapeOutOfOrderViaTranspose) {
  EXPECT_EQ(
      EvalText(absl::StrCat(kV,
                            "t = f32[2,3,4] transpose(v), dimensions={1,2,0}\n"
                            "ROOT r = f32[24] reshape(t)")),
      "{10, 20, 30, 40, 11, 21, 31, 41, 12, 22, 32, 42, 15, 25, 35, 45, "
      "16, 26, 36, 46, 17, 27, 37, 47}");
  EXPECT_EQ(
      EvalText(absl::StrCat(kV,
                            "t = f32[2,3,4] transpose(v), dimensions={1,2,0}\n"
                            "ROOT r = f32[2,6,2] reshape(t)")),
      "{{{10, 20}, {30, 40}, {11, 21}, {31, 41}, {12, 22}, {32, 42}}, "
      "{{15, 25}, {35, 45}, {16, 26}, {36, 46}, {17, 27}, {37, 47}}}");
}

TEST(EvaluatorSeedTest, ReshapeScalar) {
  EXPECT_EQ(EvalText("a = f32[1,1] constant({{5}})\nROOT r = f32[] reshape(a)"),
            "5");
  EXPECT_EQ(EvalText("a = f32[] constant(5)\nROOT r = f32[1,1] reshape(a)"),
            "{{5}}");
}

TEST(EvaluatorSeedTest, Rev) {
  // Index i of a reversed dimension of size N becomes N - 1 - i.
  EXPECT_EQ(EvalText(R"(
a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
ROOT r = s32[2,3] reverse(a), dimensions={1})"),
            "{{3, 2, 1}, {6, 5, 4}}");
  EXPECT_EQ(EvalText(R"(
a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
ROOT r = s32[2,3] reverse(a), dimensions={0,1})"),
            "{{6, 5, 4}, {3, 2, 1}}");
}

TEST(EvaluatorSeedTest, Slice) {
  EXPECT_EQ(EvalText(R"(
a = f32[5] constant({0, 1, 2, 3, 4})
ROOT r = f32[2] slice(a), slice={[2:4]})"),
            "{2, 3}");
  EXPECT_EQ(EvalText(R"(
b = f32[4,3] constant({{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}})
ROOT r = f32[2,2] slice(b), slice={[2:4], [1:3]})"),
            "{{7, 8}, {10, 11}}");
}

TEST(EvaluatorSeedTest, Transpose) {
  // input_dimensions[permutation[i]] = output_dimensions[i].
  EXPECT_EQ(EvalText(R"(
a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
ROOT t = s32[3,2] transpose(a), dimensions={1,0})"),
            "{{1, 4}, {2, 5}, {3, 6}}");
}

constexpr absl::string_view kAdd = R"(HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
)";

// The 3-D reduce example of XLA's operation-semantics documentation:
// values 1..6 replicated along dimension 0.
TEST(EvaluatorSeedTest, Reduce) {
  std::string input =
      "  v = f32[4,2,3] constant({{{1, 2, 3}, {4, 5, 6}}, {{1, 2, 3}, {4, 5, "
      "6}}, {{1, 2, 3}, {4, 5, 6}}, {{1, 2, 3}, {4, 5, 6}}})\n"
      "  z = f32[] constant(0)\n";
  auto reduce = [&](absl::string_view shape, absl::string_view dims) {
    return EvalText(absl::StrCat(
        kAdd, "ENTRY e {\n", input, "  ROOT r = ", shape,
        " reduce(v, z), dimensions={", dims, "}, to_apply=add\n}\n"));
  };
  EXPECT_EQ(reduce("f32[2,3]", "0"), "{{4, 8, 12}, {16, 20, 24}}");
  EXPECT_EQ(reduce("f32[4,2]", "2"), "{{6, 15}, {6, 15}, {6, 15}, {6, 15}}");
  EXPECT_EQ(reduce("f32[3]", "0,1"), "{20, 28, 36}");
  EXPECT_EQ(reduce("f32[]", "0,1,2"), "84");
}

// The variadic reduce of XLA's operation-semantics documentation: max and
// argmax in parallel.
TEST(EvaluatorSeedTest, ReduceVariadicArgmax) {
  EXPECT_EQ(EvalText(R"(HloModule m
argmax {
  max = f32[] parameter(0)
  argmax = s32[] parameter(1)
  value = f32[] parameter(2)
  index = s32[] parameter(3)
  ge = pred[] compare(value, max), direction=GE
  m = f32[] select(ge, value, max)
  i = s32[] select(ge, index, argmax)
  ROOT t = (f32[], s32[]) tuple(m, i)
}
ENTRY e {
  v = f32[5] constant({3, 9, 1, 7, 9})
  k = s32[5] iota(), iota_dimension=0
  init_v = f32[] constant(-inf)
  init_k = s32[] constant(-1)
  ROOT r = (f32[], s32[]) reduce(v, k, init_v, init_k), dimensions={0}, to_apply=argmax
})"),
            "(9, 4)");
}

// XLA's operation-semantics documentation: min-reduce-window of size 3, stride
// 2 over [10000, 1000, 100, 10, 1]: kValid gives [100, 1], kSame (pad 1 each
// side with the init value) gives [1000, 10, 1].
TEST(EvaluatorSeedTest, ReduceWindow) {
  constexpr absl::string_view kMin = R"(HloModule m
min {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] minimum(a, b)
}
ENTRY e {
  v = f32[5] constant({10000, 1000, 100, 10, 1})
  init = f32[] constant(inf)
)";
  EXPECT_EQ(EvalText(absl::StrCat(kMin,
                                  "  ROOT r = f32[2] reduce-window(v, init), "
                                  "window={size=3 stride=2}, to_apply=min\n}")),
            "{100, 1}");
  EXPECT_EQ(EvalText(absl::StrCat(kMin,
                                  "  ROOT r = f32[3] reduce-window(v, init), "
                                  "window={size=3 stride=2 pad=1_1}, "
                                  "to_apply=min\n}")),
            "{1000, 10, 1}");
}

TEST(EvaluatorSeedTest, ClampSelectConvertIota) {
  EXPECT_EQ(EvalText(R"(
x = s32[3] constant({-1, 5, 9})
lo = s32[] constant(0)
hi = s32[] constant(6)
ROOT c = s32[3] clamp(lo, x, hi))"),
            "{0, 5, 6}");
  EXPECT_EQ(EvalText(R"(
p = pred[4] constant({true, false, false, true})
a = s32[4] constant({1, 2, 3, 4})
b = s32[4] constant({100, 200, 300, 400})
ROOT s = s32[4] select(p, a, b))"),
            "{1, 200, 300, 4}");
  EXPECT_EQ(EvalText(R"(
p = pred[] constant(true)
a = s32[4] constant({1, 2, 3, 4})
b = s32[4] constant({100, 200, 300, 400})
ROOT s = s32[4] select(p, a, b))"),
            "{1, 2, 3, 4}");
  EXPECT_EQ(
      EvalText("a = s32[3] constant({0, 1, 2})\nROOT b = f32[3] convert(a)"),
      "{0, 1, 2}");
  EXPECT_EQ(EvalText("ROOT i = s32[4,8] iota(), iota_dimension=0"),
            "{{0, 0, 0, 0, 0, 0, 0, 0}, {1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, "
            "2, 2, 2, 2}, {3, 3, 3, 3, 3, 3, 3, 3}}");
  EXPECT_EQ(EvalText("ROOT i = s32[2,8] iota(), iota_dimension=1"),
            "{{0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7}}");
}

// The BitcastConvert forms of XLA's operation-semantics documentation: same
// width, narrower (a new minor dimension of B/B' pieces, little-endian), wider
// (the minor dimension of B'/B pieces is assembled).
TEST(EvaluatorSeedTest, BitcastConvert) {
  // 1.0f is 0x3f800000; -2.0f is 0xc0000000.
  EXPECT_EQ(EvalText("a = f32[2] constant({1, -2})\n"
                     "ROOT b = s32[2] bitcast-convert(a)"),
            "{1065353216, -1073741824}");
  EXPECT_EQ(EvalText("a = f32[2] constant({1, -2})\n"
                     "ROOT b = u16[2,2] bitcast-convert(a)"),
            "{{0, 16256}, {0, 49152}}");
  // f16[10,2] -> f32[10] style, on one element: halves 0x0000 and 0x3f80.
  EXPECT_EQ(EvalText("a = u16[1,2] constant({{0, 16256}})\n"
                     "ROOT b = f32[1] bitcast-convert(a)"),
            "{1}");
  // f16: 1.0 is 0x3c00, -0.5 is 0xb800; and back.
  EXPECT_EQ(EvalText("a = f16[2] constant({1, -0.5})\n"
                     "ROOT b = u16[2] bitcast-convert(a)"),
            "{15360, 47104}");
  EXPECT_EQ(EvalText("a = u16[2] constant({15360, 47104})\n"
                     "ROOT b = f16[2] bitcast-convert(a)"),
            "{1, -0.5}");
  // A scalar f32 becomes f16[2] (XLA's operation-semantics documentation:
  // "f16[2]{0} bitcast-convert(f32[])").
  EXPECT_EQ(EvalText("a = f32[] constant(1)\n"
                     "b = f16[2] bitcast-convert(a)\n"
                     "ROOT c = u16[2] bitcast-convert(b)"),
            "{0, 16256}");
}

TEST(EvaluatorSeedTest, CopyOfATuple) {
  EXPECT_EQ(EvalText(R"(
a = s32[2] constant({1, 2})
b = f32[] constant(3)
t = (s32[2], f32[]) tuple(a, b)
ROOT c = (s32[2], f32[]) copy(t))"),
            "({1, 2}, 3)");
}

TEST(EvaluatorSeedTest, BroadcastAndTuple) {
  EXPECT_EQ(EvalText("a = f32[] constant(2)\nROOT b = f32[2,3] broadcast(a), "
                     "dimensions={}"),
            "{{2, 2, 2}, {2, 2, 2}}");
  EXPECT_EQ(EvalText(R"(
v = f32[10] constant({0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
s = s32[] constant(5)
t = (f32[10], s32[]) tuple(v, s)
ROOT e = s32[] get-tuple-element(t), index=1)"),
            "5");
}

// The Sort example of XLA's operation-semantics documentation: three operands
// sorted by operand 0 with <.
TEST(EvaluatorSeedTest, SortVariadic) {
  EXPECT_EQ(EvalText(R"(HloModule m
less {
  a0 = s32[] parameter(0)
  b0 = s32[] parameter(1)
  a1 = s32[] parameter(2)
  b1 = s32[] parameter(3)
  a2 = f32[] parameter(4)
  b2 = f32[] parameter(5)
  ROOT lt = pred[] compare(a0, b0), direction=LT
}
ENTRY e {
  o0 = s32[2] constant({3, 1})
  o1 = s32[2] constant({42, 50})
  o2 = f32[2] constant({-3, 1.1})
  ROOT s = (s32[2], s32[2], f32[2]) sort(o0, o1, o2), dimensions={0}, to_apply=less
})"),
            "({1, 3}, {50, 42}, {1.1, -3})");
}

TEST(EvaluatorSeedTest, MapAndFusion) {
  EXPECT_EQ(EvalText(R"(HloModule m
f {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT m = f32[] multiply(x, y)
}
fused {
  p = f32[3] parameter(0)
  ROOT n = f32[3] negate(p)
}
ENTRY e {
  a = f32[3] constant({1, 2, 3})
  b = f32[3] constant({4, 5, 6})
  m = f32[3] map(a, b), dimensions={0}, to_apply=f
  ROOT r = f32[3] fusion(m), kind=kLoop, calls=fused
})"),
            "{-4, -10, -18}");
}

TEST(EvaluatorSeedTest, ScatterAdd) {
  // Rows 0 and 2 of the operand get the update rows added (the
  // definition in XLA's operation-semantics documentation with
  // update_window_dims={1}, inserted_window_dims={0}).
  EXPECT_EQ(EvalText(absl::StrCat(kAdd, R"(ENTRY e {
  o = f32[3,3] constant({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
  i = s32[2] constant({0, 2})
  u = f32[2,3] constant({{10, 20, 30}, {70, 80, 90}})
  ROOT s = f32[3,3] scatter(o, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
})")),
            "{{11, 22, 33}, {4, 5, 6}, {77, 88, 99}}");
}

// Scatter's batching dims pair an operand dim with an indices dim as
// gather's do: update G goes to row G, column indices[G].
TEST(EvaluatorSeedTest, ScatterBatchingDims) {
  EXPECT_EQ(EvalText(absl::StrCat(kAdd, R"(ENTRY e {
  o = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  i = s32[2] constant({2, 0})
  u = f32[2] constant({10, 20})
  ROOT s = f32[2,3] scatter(o, i, u), update_window_dims={}, inserted_window_dims={1}, input_batching_dims={0}, scatter_indices_batching_dims={0}, scatter_dims_to_operand_dims={1}, index_vector_dim=1, to_apply=add
})")),
            "{{1, 2, 13}, {24, 5, 6}}");
}

TEST(EvaluatorSeedTest, Convolution) {
  // 1-D: input [1,2,3,4], kernel [1,1] -> sums of neighbours.
  EXPECT_EQ(EvalText(R"(
lhs = f32[1,1,4] constant({{{1, 2, 3, 4}}})
rhs = f32[1,1,2] constant({{{1, 1}}})
ROOT c = f32[1,1,3] convolution(lhs, rhs), window={size=2}, dim_labels=bf0_oi0->bf0)"),
            "{{{3, 5, 7}}}");
}

TEST(EvaluatorSeedTest, IntegerSemantics) {
  // Rem takes the dividend's sign; s8 arithmetic wraps.
  EXPECT_EQ(EvalText(R"(
a = s32[2] constant({-7, 7})
b = s32[2] constant({2, -2})
ROOT r = s32[2] remainder(a, b))"),
            "{-1, 1}");
  EXPECT_EQ(EvalText(R"(
a = s8[1] constant({127})
ROOT r = s8[1] add(a, a))"),
            "{-2}");
}

// ---- Tracing: which input elements each output element reads. ----

TEST(EvaluatorTraceTest, SliceReadsOneElement) {
  auto module = ParseHloModule(
      "p0 = f32[10] parameter(0)\n"
      "ROOT s = f32[3] slice(p0), slice={[1:10:4]}");
  ASSERT_TRUE(module.ok());
  Literal p0(*ParseShape("f32[10]"));
  absl::StatusOr<TracedValue> t =
      TraceInstruction(*(*module)->entry_computation()->root(), {p0});
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->reads[0].size(), 3u);
  EXPECT_THAT(t->reads[0][2], ElementsAre(ElementId{0, 0, 9}));
}

TEST(EvaluatorTraceTest, ReduceReadsRowAndInit) {
  auto module = ParseHloModule(absl::StrCat(kAdd, R"(ENTRY e {
  p = f32[2,3] parameter(0)
  z = f32[] parameter(1)
  ROOT r = f32[2] reduce(p, z), dimensions={1}, to_apply=add
})"));
  ASSERT_TRUE(module.ok()) << module.status();
  Literal p = MakeLiteral("f32[2,3]", "{{1, 2, 3}, {4, 5, 6}}");
  Literal z = MakeLiteral("f32[]", "0");
  absl::StatusOr<TracedValue> t =
      TraceInstruction(*(*module)->entry_computation()->root(), {p, z});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->value.ToString(), "{6, 15}");
  EXPECT_THAT(t->reads[0][1],
              ElementsAre(ElementId{0, 0, 3}, ElementId{0, 0, 4},
                          ElementId{0, 0, 5}, ElementId{1, 0, 0}));
}

TEST(EvaluatorTraceTest, DynamicSliceReadsOffsets) {
  auto module = ParseHloModule(
      "src = s32[6] parameter(0)\nof = s32[] parameter(1)\n"
      "ROOT ds = s32[2] dynamic-slice(src, of), dynamic_slice_sizes={2}");
  ASSERT_TRUE(module.ok());
  Literal src = MakeLiteral("s32[6]", "{0, 1, 2, 3, 4, 5}");
  Literal of = MakeLiteral("s32[]", "3");
  absl::StatusOr<TracedValue> t =
      TraceInstruction(*(*module)->entry_computation()->root(), {src, of});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->value.ToString(), "{3, 4}");
  EXPECT_THAT(t->reads[0][1],
              ElementsAre(ElementId{0, 0, 4}, ElementId{1, 0, 0}));
}

// The fusion of XLA's indexing-analysis documentation: p0 + transpose(p0):
// output (i, j) reads p0 at (i, j) and (j, i) -- the two indexing maps of that
// example.
TEST(EvaluatorTraceTest, FusionComposesThroughTranspose) {
  auto module = ParseHloModule(R"(
f {
  p0 = f32[3, 3] parameter(0)
  transpose_p0 = f32[3, 3]{0, 1} transpose(p0), dimensions={1, 0}
  ROOT a0 = f32[3, 3] add(p0, transpose_p0)
})");
  ASSERT_TRUE(module.ok()) << module.status();
  Literal p0(*ParseShape("f32[3,3]"));
  absl::StatusOr<TracedValue> t =
      TraceComputation(*(*module)->entry_computation(), {p0});
  ASSERT_TRUE(t.ok()) << t.status();
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      ReadSet expected = {{0, 0, i * 3 + j}, {0, 0, j * 3 + i}};
      std::sort(expected.begin(), expected.end());
      expected.erase(std::unique(expected.begin(), expected.end()),
                     expected.end());
      EXPECT_EQ(t->reads[0][i * 3 + j], expected);
    }
  }
}

TEST(EvaluatorTraceTest, PadReadsPaddingValueOnlyAtPadding) {
  auto module = ParseHloModule(
      "a = f32[2] parameter(0)\nv = f32[] parameter(1)\n"
      "ROOT p = f32[5] pad(a, v), padding=1_1_1");
  ASSERT_TRUE(module.ok());
  Literal a = MakeLiteral("f32[2]", "{1, 2}");
  Literal v = MakeLiteral("f32[]", "0");
  absl::StatusOr<TracedValue> t =
      TraceInstruction(*(*module)->entry_computation()->root(), {a, v});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->value.ToString(), "{0, 1, 0, 2, 0}");
  EXPECT_THAT(t->reads[0][0], ElementsAre(ElementId{1, 0, 0}));
  EXPECT_THAT(t->reads[0][3], ElementsAre(ElementId{0, 0, 1}));
}

TEST(EvaluatorTraceTest, BitcastConvertReadsItsPieces) {
  auto module = ParseHloModule(
      "a = u16[3,2] parameter(0)\nROOT b = f32[3] bitcast-convert(a)");
  ASSERT_TRUE(module.ok());
  Literal a(*ParseShape("u16[3,2]"));
  absl::StatusOr<TracedValue> t =
      TraceInstruction(*(*module)->entry_computation()->root(), {a});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_THAT(t->reads[0][2],
              ElementsAre(ElementId{0, 0, 4}, ElementId{0, 0, 5}));
}

TEST(EvaluatorTest, ErrorsAreStatuses) {
  EXPECT_THAT(EvalText("a = f32[3] constant({...})\nROOT n = f32[3] negate(a)"),
              ::testing::HasSubstr("elided"));
  EXPECT_THAT(EvalText("a = f32[3] constant({1,2,3})\nROOT n = f32[3] "
                       "sinh(a)"),
              ::testing::HasSubstr("no semantics"));
}

}  // namespace
}  // namespace xla_index
