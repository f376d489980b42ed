#include "hlo/shape_inference.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/parser.h"
#include "hlo/verifier.h"

namespace xla_index {
namespace {

// The shape the parser infers for the root of `hlo`, whose root is written
// without a result shape; or the error.
std::string InferredRootShape(absl::string_view hlo) {
  absl::StatusOr<std::unique_ptr<HloModule>> module = ParseHloModule(hlo);
  if (!module.ok()) return std::string(module.status().message());
  return (*module)->entry_computation()->root()->shape().ToString();
}

struct Case {
  std::string name;
  std::string hlo;
  std::string shape;
};

TEST(ShapeInferenceTest, InfersResultShapes) {
  const std::vector<Case> cases = {
      // Examples of XLA's indexing-analysis documentation, with the result
      // shape left out.
      {"dynamic_slice",
       "src = s32[2,2,258] parameter(0)\nof1 = s32[] parameter(1)\nof2 = "
       "s32[] parameter(2)\nof3 = s32[] parameter(3)\nds = dynamic-slice(src, "
       "of1, of2, of3), dynamic_slice_sizes={1, 2, 32}",
       "s32[1,2,32]"},
      {"gather",
       "operand = f32[33,76,70] parameter(0)\nindices = s32[1806,2] "
       "parameter(1)\ngather = gather(operand, indices), "
       "offset_dims={1,2,3}, collapsed_slice_dims={}, start_index_map={0,1}, "
       "index_vector_dim=1, slice_sizes={7,8,4}",
       "f32[1806,7,8,4]"},
      {"gather_collapsed_implicit_index_dim",
       "o = f32[16,11] parameter(0)\ni = s32[4,5] parameter(1)\ng = gather(o, "
       "i), offset_dims={2}, collapsed_slice_dims={0}, start_index_map={0}, "
       "index_vector_dim=2, slice_sizes={1,11}",
       "f32[4,5,11]"},
      {"transpose",
       "p0 = f32[3, 12288, 6, 128] parameter(0)\nt = transpose(p0), "
       "dimensions={0, 2, 3, 1}",
       "f32[3,6,128,12288]"},
      {"slice",
       "p0 = f32[10, 20, 50] parameter(0)\ns = slice(p0), slice={[5:10:1], "
       "[3:20:7], [0:50:2]}",
       "f32[5,3,25]"},
      {"concatenate",
       "p0 = f32[2, 5, 7] parameter(0)\np1 = f32[2, 11, 7] parameter(1)\np2 = "
       "f32[2, 17, 7] parameter(2)\nc = concatenate(p0, p1, p2), "
       "dimensions={1}",
       "f32[2,33,7]"},
      {"dot",
       "p0 = f32[4, 128, 256] parameter(0)\np1 = f32[4, 256, 64] "
       "parameter(1)\nd = dot(p0, p1), lhs_batch_dims={0}, "
       "rhs_batch_dims={0}, lhs_contracting_dims={2}, "
       "rhs_contracting_dims={1}",
       "f32[4,128,64]"},
      {"pad",
       "p0 = f32[4, 4] parameter(0)\np1 = f32[] parameter(1)\np = pad(p0, "
       "p1), padding=1_4_1x4_8_0",
       "f32[12,16]"},
      {"pad_negative_edges",
       "p0 = f32[5] parameter(0)\np1 = f32[] parameter(1)\np = pad(p0, p1), "
       "padding=-2_-1_1",
       "f32[6]"},
      {"reduce_variadic",
       "p0 = f32[256,10] parameter(0)\ni0 = f32[] constant(-inf)\np1 = "
       "s32[256,10] parameter(1)\ni1 = s32[] constant(0)\nr = reduce(p0, p1, "
       "i0, i1), dimensions={0}, to_apply=max",
       "(f32[10], s32[10])"},
      {"reduce_window_seed",
       "c = f32[] constant(-inf)\np0 = f32[1024, 514] parameter(0)\nr = "
       "reduce-window(p0, c), window={size=1x512 pad=0_0x0_0}, to_apply=max",
       "f32[1024,3]"},
      // Base dilation 2 makes 10 elements 19 wide, padding 21; a size-3
      // window dilated by 2 spans 5; stride 2: (21 - 5) / 2 + 1 = 9.
      {"reduce_window_dilated",
       "c = f32[] constant(0)\np0 = f32[10] parameter(0)\nr = "
       "reduce-window(p0, c), window={size=3 stride=2 pad=1_1 lhs_dilate=2 "
       "rhs_dilate=2}, to_apply=add",
       "f32[9]"},
      {"convolution",
       "a = f32[1,5,5,3] parameter(0)\nk = f32[3,3,3,8] parameter(1)\nc = "
       "convolution(a, k), window={size=3x3 stride=2x2 pad=1_1x1_1}, "
       "dim_labels=b01f_01io->b01f",
       "f32[1,3,3,8]"},
      {"convolution_grouped",
       "a = f32[2,6,7] parameter(0)\nk = f32[4,3,2] parameter(1)\nc = "
       "convolution(a, k), window={size=2}, dim_labels=bf0_oi0->bf0, "
       "feature_group_count=2",
       "f32[2,4,6]"},
      {"compare", "a = f32[3] parameter(0)\nc = compare(a, a), direction=LT",
       "pred[3]"},
      {"select_scalar_predicate",
       "p = pred[] parameter(0)\na = s32[4] parameter(1)\ns = select(p, a, a)",
       "s32[4]"},
      {"clamp_scalar_bounds",
       "lo = f32[] parameter(0)\nx = f32[4] parameter(1)\nc = clamp(lo, x, lo)",
       "f32[4]"},
      {"tuple_and_get_tuple_element",
       "a = f32[4] parameter(0)\nb = s32[] parameter(1)\nt = tuple(a, b)\ng "
       "= get-tuple-element(t), index=1",
       "s32[]"},
      {"dynamic_update_slice",
       "s = s32[20,30] parameter(0)\nu = s32[5,10] parameter(1)\no = s32[] "
       "parameter(2)\nd = dynamic-update-slice(s, u, o, o)",
       "s32[20,30]"},
      {"scatter",
       "o = f32[3,3] parameter(0)\ni = s32[2] parameter(1)\nu = f32[2,3] "
       "parameter(2)\ns = scatter(o, i, u), update_window_dims={1}, "
       "inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, "
       "index_vector_dim=1, to_apply=add",
       "f32[3,3]"},
      {"sort_variadic",
       "a = s32[5] parameter(0)\nb = f32[5] parameter(1)\ns = sort(a, b), "
       "dimensions={0}, to_apply=less",
       "(s32[5], f32[5])"},
      {"fusion_from_its_computation",
       "HloModule m\nf {\n  p = f32[4,8] parameter(0)\n  ROOT t = "
       "f32[8,4] transpose(p), dimensions={1,0}\n}\nENTRY e {\n  a = "
       "f32[4,8] parameter(0)\n  ROOT r = fusion(a), kind=kLoop, calls=f\n}",
       "f32[8,4]"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(InferredRootShape(c.hlo), c.shape) << c.name;
  }
}

// The bitcast-convert rules of XLA's operation-semantics documentation: B > B'
// adds a minor dimension B/B', B < B' drops a last dimension of size B'/B.
TEST(ShapeInferenceTest, BitcastConvertBetweenWidths) {
  for (absl::string_view good : {
           "i = f32[10] parameter(0)\no = f16[10,2] bitcast-convert(i)",
           "i = f32[] parameter(0)\no = f16[2] bitcast-convert(i)",
           "i = f16[10,2] parameter(0)\no = f32[10] bitcast-convert(i)",
           "i = s32[3] parameter(0)\no = f32[3] bitcast-convert(i)",
       }) {
    absl::StatusOr<std::unique_ptr<HloModule>> m =
        ParseAndVerifyHloModule(good);
    EXPECT_TRUE(m.ok()) << good << ": " << m.status();
  }
  for (absl::string_view bad : {
           "i = f32[10] parameter(0)\no = f16[10] bitcast-convert(i)",
           "i = f16[10,3] parameter(0)\no = f32[10] bitcast-convert(i)",
       }) {
    EXPECT_FALSE(ParseAndVerifyHloModule(bad).ok()) << bad;
  }
}

// The batching dims of gather and scatter: each rule of XLA's shape
// inference (StableHLO's gather and scatter constraints) gets a status
// naming the instruction and the attribute, never a crash.
TEST(ShapeInferenceTest, BatchingDimsAreChecked) {
  constexpr absl::string_view kGatherPrefix =
      "o = f32[2,3,4] parameter(0)\ni = s32[2,5,1] parameter(1)\n"
      "g = gather(o, i), offset_dims={2}, ";
  const std::string good =
      "collapsed_slice_dims={1}, operand_batching_dims={0}, "
      "start_indices_batching_dims={0}, start_index_map={1}, "
      "index_vector_dim=2, slice_sizes={1,1,4}";
  EXPECT_EQ(InferredRootShape(absl::StrCat(kGatherPrefix, good)), "f32[2,5,4]");
  const std::vector<std::pair<std::string, std::string>> bad_gathers = {
      {"collapsed_slice_dims={1}, operand_batching_dims={0}, "
       "start_indices_batching_dims={}, start_index_map={1}, "
       "index_vector_dim=2, slice_sizes={1,1,4}",
       "must have the same length"},
      {"collapsed_slice_dims={1}, operand_batching_dims={0}, "
       "start_indices_batching_dims={3}, start_index_map={1}, "
       "index_vector_dim=2, slice_sizes={1,1,4}",
       "start_indices_batching_dims {3} has 3"},
      {"collapsed_slice_dims={1}, operand_batching_dims={0}, "
       "start_indices_batching_dims={2}, start_index_map={1}, "
       "index_vector_dim=2, slice_sizes={1,1,4}",
       "must not contain index_vector_dim 2"},
      {"collapsed_slice_dims={0}, operand_batching_dims={0}, "
       "start_indices_batching_dims={0}, start_index_map={1}, "
       "index_vector_dim=2, slice_sizes={1,1,4}",
       "operand_batching_dims {0} and collapsed_slice_dims {0} share"},
      {"collapsed_slice_dims={1}, operand_batching_dims={0}, "
       "start_indices_batching_dims={0}, start_index_map={0}, "
       "index_vector_dim=2, slice_sizes={1,1,4}",
       "operand_batching_dims {0} and start_index_map {0} share"},
      {"collapsed_slice_dims={1}, operand_batching_dims={0}, "
       "start_indices_batching_dims={1}, start_index_map={1}, "
       "index_vector_dim=2, slice_sizes={1,1,4}",
       "must have equal sizes"},
      {"collapsed_slice_dims={}, operand_batching_dims={1,0}, "
       "start_indices_batching_dims={0,1}, start_index_map={2}, "
       "index_vector_dim=2, slice_sizes={1,1,4}",
       "operand_batching_dims {1,0} must be sorted"},
      {"collapsed_slice_dims={1}, operand_batching_dims={0}, "
       "start_indices_batching_dims={0}, start_index_map={1}, "
       "index_vector_dim=2, slice_sizes={2,1,4}",
       "operand batching dimension 0 must have slice size <= 1"},
      {"collapsed_slice_dims={1}, operand_batching_dims={7}, "
       "start_indices_batching_dims={0}, start_index_map={1}, "
       "index_vector_dim=2, slice_sizes={1,1,4}",
       "operand_batching_dims {7} has 7"},
  };
  for (const auto& [attributes, message] : bad_gathers) {
    absl::StatusOr<std::unique_ptr<HloModule>> m =
        ParseHloModule(absl::StrCat(kGatherPrefix, attributes));
    ASSERT_FALSE(m.ok()) << attributes;
    EXPECT_THAT(std::string(m.status().message()),
                ::testing::AllOf(::testing::HasSubstr("'g'"),
                                 ::testing::HasSubstr(message)))
        << attributes;
  }
  constexpr absl::string_view kScatter =
      "HloModule m\nadd {\n  a = f32[] parameter(0)\n  b = f32[] "
      "parameter(1)\n  ROOT s = f32[] add(a, b)\n}\nENTRY e {\n  o = "
      "f32[2,3] parameter(0)\n  i = s32[2] parameter(1)\n  u = f32[2] "
      "parameter(2)\n  ROOT s = scatter(o, i, u), update_window_dims={}, "
      "inserted_window_dims={1}, scatter_dims_to_operand_dims={1}, "
      "index_vector_dim=1, to_apply=add, ";
  EXPECT_EQ(
      InferredRootShape(absl::StrCat(
          kScatter,
          "input_batching_dims={0}, scatter_indices_batching_dims={0}\n}")),
      "f32[2,3]");
  absl::StatusOr<std::unique_ptr<HloModule>> m = ParseHloModule(absl::StrCat(
      kScatter,
      "input_batching_dims={0}, scatter_indices_batching_dims={1}\n}"));
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(std::string(m.status().message()),
              ::testing::HasSubstr("'s': scatter_indices_batching_dims {1} "
                                   "has 1, expected a dimension in [0, 1)"));
}

TEST(ShapeInferenceTest, WrittenShapesAreChecked) {
  // Dot's result type may differ from the operands' (preferred type).
  EXPECT_TRUE(ParseAndVerifyHloModule(
                  "a = bf16[2,3] parameter(0)\nb = bf16[3,4] parameter(1)\n"
                  "d = f32[2,4] dot(a, b), lhs_contracting_dims={1}, "
                  "rhs_contracting_dims={0}")
                  .ok());
  // Broadcast checks operand sizes against the written output dimensions.
  absl::StatusOr<std::unique_ptr<HloModule>> m = ParseAndVerifyHloModule(
      "p0 = f32[20] parameter(0)\nb = f32[10,21] broadcast(p0), "
      "dimensions={1}");
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(std::string(m.status().message()),
              ::testing::HasSubstr("operand dimension 0 (size 20) must equal "
                                   "output dimension 1 (size 21)"));
}

}  // namespace
}  // namespace xla_index
