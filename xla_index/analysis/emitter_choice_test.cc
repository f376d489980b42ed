// XLA's emitter choice on own inputs: the transpose normalization checked
// element by element against the transpose itself, the tiled-transpose test
// (GetDescriptionForTiledTransposeEmitter, ir_emission_utils_test.cc's
// FindTiledLogical* cases re-expressed) and the emitter kinds of
// hlo_fusion_analysis_test.cc (HloFusionAnalysisTest.*), each named where
// it is re-expressed.

#include "xla_index/analysis/emitter_choice.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "layout/shape_layout.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/analysis/gpu_device.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;

std::unique_ptr<HloModule> Parse(const std::string& text) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? std::move(*module) : nullptr;
}

std::vector<int64_t> MinorToMajorOf(const Shape& s) {
  return s.has_layout() ? s.layout().minor_to_major
                        : DefaultLayout(s.rank()).minor_to_major;
}

// Physical offset of logical `index` in `shape` (its layout).
int64_t PhysicalOffset(const Shape& shape, const std::vector<int64_t>& index) {
  int64_t offset = 0, stride = 1;
  for (int64_t d : MinorToMajorOf(shape)) {
    offset += index[d] * stride;
    stride *= shape.dimensions(d);
  }
  return offset;
}

// For every output element of the transpose or copy `root`: the input's
// physical offset through the instruction itself, and through its
// normalized form (row-major over the normalized output and input
// dimensions) agree.
void ExpectNormalizationIsExact(const std::string& text) {
  std::unique_ptr<HloModule> module = Parse(text);
  ASSERT_NE(module, nullptr);
  const HloInstruction& root = *module->entry_computation()->root();
  std::optional<NormalizedTranspose> t = NormalizeTranspose(root);
  ASSERT_TRUE(t.has_value()) << text;
  const Shape& in = root.operand(0)->shape();
  const Shape& out = root.shape();
  const int64_t n = static_cast<int64_t>(t->output_dims.size());
  std::vector<int64_t> index(out.rank(), 0);
  int64_t checked = 0;
  for (int64_t e = 0; e < out.ElementCount(); ++e) {
    // Logical output index of linear e (row-major), then the input's.
    int64_t rest = e;
    for (int64_t d = out.rank() - 1; d >= 0; --d) {
      index[d] = rest % out.dimensions(d);
      rest /= out.dimensions(d);
    }
    std::vector<int64_t> in_index(in.rank());
    for (int64_t d = 0; d < out.rank(); ++d) {
      const int64_t from =
          root.opcode() == HloOpcode::kCopy ? d : root.dimensions()[d];
      in_index[from] = index[d];
    }
    // Through the normalized form: the output's physical offset is a
    // row-major index over output_dims.
    int64_t physical = PhysicalOffset(out, index);
    std::vector<int64_t> norm(n);
    for (int64_t i = n - 1; i >= 0; --i) {
      norm[i] = physical % t->output_dims[i];
      physical /= t->output_dims[i];
    }
    std::vector<int64_t> norm_in(n);
    for (int64_t i = 0; i < n; ++i) norm_in[t->permutation[i]] = norm[i];
    int64_t via_normalized = 0;
    for (int64_t i = 0; i < n; ++i) {
      via_normalized = via_normalized * t->input_dims[i] + norm_in[i];
    }
    ASSERT_EQ(via_normalized, PhysicalOffset(in, in_index))
        << text << " output element " << e;
    ++checked;
  }
  EXPECT_EQ(checked, out.ElementCount());
}

TEST(EmitterChoiceTest, TransposeNormalizationIsExact) {
  ExpectNormalizationIsExact(
      "p = f32[20,6,8] parameter(0)\n"
      "ROOT t = f32[8,20,6] transpose(p), dimensions={2,0,1}");
  ExpectNormalizationIsExact(
      "p = f32[4,1,6,2] parameter(0)\n"
      "ROOT t = f32[1,4,6,2] transpose(p), dimensions={1,0,2,3}");
  ExpectNormalizationIsExact(
      "p = f32[5,6,3,2] parameter(0)\n"
      "ROOT t = f32[3,6,5,2] transpose(p), dimensions={2,1,0,3}");
  ExpectNormalizationIsExact(
      "p = f32[7,5,4]{0,2,1} parameter(0)\n"
      "ROOT t = f32[4,7,5]{1,0,2} transpose(p), dimensions={2,0,1}");
  ExpectNormalizationIsExact(
      "p = f32[6,1,9]{2,1,0} parameter(0)\n"
      "ROOT c = f32[6,1,9]{0,1,2} copy(p)");
  ExpectNormalizationIsExact(
      "p = f32[3,4,5,6]{3,2,1,0} parameter(0)\n"
      "ROOT c = f32[3,4,5,6]{1,0,3,2} copy(p)");
}

struct TiledCase {
  std::string text;
  bool tiled;
  std::vector<int64_t> dims;
  std::vector<int64_t> permutation;
};

// ir_emission_utils_test.cc: FindTiledLogicalTranspose,
// FindTiledLogical102Transpose, ...TooMuchMemoryRequired,
// FindTiledLogical2103Transpose, FindTiledLogical1320Transpose,
// FindTiledLogicalTransposeOneSwapDimIsSmall / OtherSwapDimIsSmall,
// FindTiledLogicalTransposeWithSize1DimensionInRawShape, on own shapes; the
// last two cases sit on either side of the 64 x 128 element threshold for
// swapped dimensions of at least 8.
TEST(EmitterChoiceTest, TiledTransposeDescriptions) {
  const std::vector<TiledCase> cases = {
      {"p = f32[24,40,64] parameter(0)\n"
       "ROOT t = f32[64,24,40] transpose(p), dimensions={2,0,1}",
       true,
       {64, 960},
       {1, 0}},
      {"p = f32[32,40,1,2] parameter(0)\n"
       "ROOT t = f32[40,32,1,2] transpose(p), dimensions={1,0,2,3}",
       true,
       {40, 32, 2},
       {1, 0, 2}},
      {"p = s8[40,56,9] parameter(0)\n"
       "ROOT t = s8[56,40,9] transpose(p), dimensions={1,0,2}",
       false,
       {},
       {}},
      {"p = f32[35,48,32,2] parameter(0)\n"
       "ROOT t = f32[32,48,35,2] transpose(p), dimensions={2,1,0,3}",
       true,
       {32, 48, 35, 2},
       {2, 1, 0, 3}},
      {"p = f32[35,40,32,36] parameter(0)\n"
       "ROOT t = f32[40,36,32,35] transpose(p), dimensions={1,3,2,0}",
       true,
       {40, 36, 32, 35},
       {1, 3, 2, 0}},
      {"p = f32[40,1,16,2] parameter(0)\n"
       "ROOT t = f32[16,1,40,2] transpose(p), dimensions={2,1,0,3}",
       true,
       {16, 40, 2},
       {1, 0, 2}},
      {"p = f32[90,12,10,8] parameter(0)\n"
       "ROOT t = f32[8,10,90,12] transpose(p), dimensions={3,2,0,1}",
       true,
       {8, 10, 1080},
       {2, 1, 0}},
      {"p = f32[100,10,10,8] parameter(0)\n"
       "ROOT t = f32[8,10,100,10] transpose(p), dimensions={3,2,0,1}",
       false,
       {},
       {}},
  };
  for (const TiledCase& c : cases) {
    std::unique_ptr<HloModule> module = Parse(c.text);
    ASSERT_NE(module, nullptr);
    std::optional<NormalizedTranspose> t =
        TiledTransposeDescription(*module->entry_computation()->root());
    EXPECT_EQ(t.has_value(), c.tiled) << c.text;
    if (t.has_value() && c.tiled) {
      EXPECT_EQ(t->output_dims, c.dims) << c.text;
      EXPECT_EQ(t->permutation, c.permutation) << c.text;
    }
  }
}

std::string ChosenEmitter(const std::string& text) {
  std::unique_ptr<HloModule> module = Parse(text);
  if (module == nullptr) return "";
  mlir::MLIRContext context;
  absl::StatusOr<AnalyzedFusion> kernel = AnalyzeInstructionOperands(
      *module->entry_computation()->root(), &context);
  EXPECT_TRUE(kernel.ok()) << kernel.status();
  if (!kernel.ok()) return "";
  absl::StatusOr<EmitterChoice> choice =
      ChooseEmitter(*kernel, DefaultGpuDevice());
  EXPECT_TRUE(choice.ok()) << choice.status();
  return choice.ok() ? choice->name : "";
}

constexpr char kSum[] = R"(
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
)";

std::string Fusion(const std::string& body, const std::string& params,
                   const std::string& out, const std::string& args) {
  return absl::StrCat("HloModule m\n", kSum, "fz {\n", body, "\n}\nENTRY e {\n",
                      params, "\n  ROOT f = ", out, " fusion(", args,
                      "), kind=kLoop, calls=fz\n}\n");
}

// HloFusionAnalysisTest.ReductionWithMultipleUsers, ReductionEpilogueFusion,
// ReduceMultiOutputFusionWithTransposeBitcast,
// InvalidReduceMultiOutputFusion, ConcatenateFusion,
// ConcatenateFusionFallbackToLoop, SortFusion, and a Triton fusion.
TEST(EmitterChoiceTest, EmitterKindsOfFusions) {
  EXPECT_EQ(ChosenEmitter(Fusion(
                "  a = f32[2048] parameter(0)\n  z = f32[] parameter(1)\n"
                "  r = f32[] reduce(a, z), dimensions={0}, to_apply=sum\n"
                "  n = f32[] negate(r)\n  l = f32[] log(r)\n"
                "  ROOT t = (f32[], f32[]) tuple(n, l)",
                "  a = f32[2048] parameter(0)\n  z = f32[] parameter(1)",
                "(f32[], f32[])", "a, z")),
            "reduction (row)");
  EXPECT_EQ(ChosenEmitter(Fusion(
                "  a = f32[2048] parameter(0)\n  z = f32[] parameter(1)\n"
                "  r = f32[] reduce(a, z), dimensions={0}, to_apply=sum\n"
                "  ROOT n = f32[] negate(r)",
                "  a = f32[2048] parameter(0)\n  z = f32[] parameter(1)",
                "f32[]", "a, z")),
            "reduction (row)");
  EXPECT_EQ(
      ChosenEmitter(Fusion(
          "  a = f32[512,256]{1,0} parameter(0)\n  z = f32[] parameter(1)\n"
          "  r = f32[512]{0} reduce(a, z), dimensions={1}, to_apply=sum\n"
          "  b = f32[256,512]{0,1} bitcast(a)\n"
          "  ROOT t = (f32[512]{0}, f32[256,512]{0,1}) tuple(r, b)",
          "  a = f32[512,256]{1,0} parameter(0)\n  z = f32[] parameter(1)",
          "(f32[512]{0}, f32[256,512]{0,1})", "a, z")),
      "reduction (row)");
  EXPECT_EQ(ChosenEmitter(Fusion(
                "  a = f32[512,512] parameter(0)\n  z = f32[] parameter(1)\n"
                "  r0 = f32[512] reduce(a, z), dimensions={0}, to_apply=sum\n"
                "  r1 = f32[512] reduce(a, z), dimensions={1}, to_apply=sum\n"
                "  ROOT t = (f32[512], f32[512]) tuple(r0, r1)",
                "  a = f32[512,512] parameter(0)\n  z = f32[] parameter(1)",
                "(f32[512], f32[512])", "a, z")),
            "loop");
  EXPECT_EQ(ChosenEmitter(Fusion(
                "  a = bf16[96] parameter(0)\n  b = bf16[96] parameter(1)\n"
                "  w = bf16[192] parameter(2)\n"
                "  c = bf16[192] concatenate(a, b), dimensions={0}\n"
                "  ROOT m = bf16[192] multiply(c, w)",
                "  a = bf16[96] parameter(0)\n  b = bf16[96] parameter(1)\n"
                "  w = bf16[192] parameter(2)",
                "bf16[192]", "a, b, w")),
            "concatenate");
  EXPECT_EQ(ChosenEmitter(Fusion(
                "  a = bf16[16] parameter(0)\n  b = bf16[16] parameter(1)\n"
                "  c = bf16[16] parameter(2)\n  d = bf16[16] parameter(3)\n"
                "  g = bf16[16] parameter(4)\n  w = bf16[80] parameter(5)\n"
                "  x = bf16[80] concatenate(a, b, c, d, g), dimensions={0}\n"
                "  ROOT m = bf16[80] multiply(x, w)",
                "  a = bf16[16] parameter(0)\n  b = bf16[16] parameter(1)\n"
                "  c = bf16[16] parameter(2)\n  d = bf16[16] parameter(3)\n"
                "  g = bf16[16] parameter(4)\n  w = bf16[80] parameter(5)",
                "bf16[80]", "a, b, c, d, g, w")),
            "loop");
  EXPECT_EQ(ChosenEmitter(absl::StrCat("HloModule m\n", R"(
lt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT l = pred[] compare(a, b), direction=LT
}
fz {
  a = f32[64,300] parameter(0)
  ROOT s = f32[64,300] sort(a), dimensions={1}, to_apply=lt
}
ENTRY e {
  a = f32[64,300] parameter(0)
  ROOT f = f32[64,300] fusion(a), kind=kLoop, calls=fz
})")),
            "sort");
  EXPECT_EQ(ChosenEmitter(R"(
HloModule m
fz {
  a = f32[64,32] parameter(0)
  b = f32[32,16] parameter(1)
  ROOT d = f32[64,16] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
ENTRY e {
  a = f32[64,32] parameter(0)
  b = f32[32,16] parameter(1)
  ROOT f = f32[64,16] fusion(a, b), kind=kCustom, calls=fz,
    backend_config={"fusion_backend_config":{"kind":"__triton_gemm"}}
})"),
            "library (Triton)");
  // Two dynamic-update-slice roots: the in-place emitter (GetFusionEmitter).
  EXPECT_EQ(ChosenEmitter(Fusion(
                "  a = f32[64,32] parameter(0)\n  b = f32[64,32] parameter(1)\n"
                "  u = f32[4,32] parameter(2)\n  i = s32[] parameter(3)\n"
                "  z = s32[] constant(0)\n"
                "  d0 = f32[64,32] dynamic-update-slice(a, u, i, z)\n"
                "  d1 = f32[64,32] dynamic-update-slice(b, u, i, z)\n"
                "  ROOT t = (f32[64,32], f32[64,32]) tuple(d0, d1)",
                "  a = f32[64,32] parameter(0)\n  b = f32[64,32] parameter(1)\n"
                "  u = f32[4,32] parameter(2)\n  i = s32[] parameter(3)",
                "(f32[64,32], f32[64,32])", "a, b, u, i")),
            "in-place dynamic-update-slice");
}

// Unfused instructions, as XLA would wrap them: reductions by their shape
// (IsReductionFromOrToContiguousDimensions: a column reduction of fewer
// than 32 rows stays on the loop emitter), a dot, a convolution.
TEST(EmitterChoiceTest, UnfusedInstructions) {
  auto reduce = [](const std::string& in, const std::string& out,
                   const std::string& dims) {
    return absl::StrCat(
        "HloModule m\n", kSum, "ENTRY e {\n  a = ", in,
        " parameter(0)\n  z = f32[] constant(0)\n  ROOT r = ", out,
        " reduce(a, z), dimensions={", dims, "}, to_apply=sum\n}\n");
  };
  EXPECT_EQ(ChosenEmitter(reduce("f32[64,1000]", "f32[64]", "1")),
            "reduction (row)");
  EXPECT_EQ(ChosenEmitter(reduce("f32[16,8]", "f32[16]", "1")),
            "reduction (multi-row)");
  EXPECT_EQ(ChosenEmitter(reduce("f32[20,500]", "f32[500]", "0")), "loop");
  EXPECT_EQ(ChosenEmitter(reduce("f32[300,500]", "f32[500]", "0")),
            "reduction (column)");
  EXPECT_EQ(ChosenEmitter(reduce("f32[300,16]", "f32[16]", "0")),
            "reduction (small column)");
  EXPECT_EQ(ChosenEmitter(R"(
HloModule m
ENTRY e {
  a = f32[1,30,30,8] parameter(0)
  k = f32[3,3,8,16] parameter(1)
  ROOT c = f32[1,28,28,16] convolution(a, k), window={size=3x3}, dim_labels=b01f_01io->b01f
})"),
            "library (cuDNN)");
  EXPECT_EQ(ChosenEmitter(R"(
HloModule m
ENTRY e {
  a = f32[64,32] parameter(0)
  b = f32[32,16] parameter(1)
  ROOT g = f32[64,16] custom-call(a, b), custom_call_target="__cublas$gemm"
})"),
            "library (cuBLAS)");
}

}  // namespace
}  // namespace xla_index
