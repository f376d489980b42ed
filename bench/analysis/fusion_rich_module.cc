#include "bench/analysis/fusion_rich_module.h"

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace xla_index {
namespace {

// The fused computations, one per access pattern; `$k` is the fusion's
// number, `A` the activation shape. Each reads the previous activation as
// parameter 0.
constexpr const char* kBodies[] = {
    // Elementwise with a broadcast bias.
    "(a.$k: A, b.$k: f32[256]) -> A {\n"
    "  a.$k = A parameter(0)\n  b.$k = f32[256]{0} parameter(1)\n"
    "  bb.$k = A broadcast(b.$k), dimensions={1}\n"
    "  s.$k = A add(a.$k, bb.$k)\n  ROOT t.$k = A tanh(s.$k)\n}\n",
    // A transpose.
    "(a.$k: A) -> A {\n  a.$k = A parameter(0)\n"
    "  t.$k = A transpose(a.$k), dimensions={1,0}\n"
    "  ROOT n.$k = A negate(t.$k)\n}\n",
    // A strided slice of the wide weight.
    "(a.$k: A, w.$k: W) -> A {\n  a.$k = A parameter(0)\n"
    "  w.$k = W parameter(1)\n"
    "  sl.$k = A slice(w.$k), slice={[0:256], [0:512:2]}\n"
    "  ROOT s.$k = A add(a.$k, sl.$k)\n}\n",
    // A row reduction broadcast back.
    "(a.$k: A) -> A {\n  a.$k = A parameter(0)\n"
    "  z.$k = f32[] constant(0)\n"
    "  r.$k = f32[256]{0} reduce(a.$k, z.$k), dimensions={1}, to_apply=add\n"
    "  rb.$k = A broadcast(r.$k), dimensions={0}\n"
    "  ROOT s.$k = A subtract(a.$k, rb.$k)\n}\n",
    // A column reduction broadcast back.
    "(a.$k: A) -> A {\n  a.$k = A parameter(0)\n"
    "  z.$k = f32[] constant(1)\n"
    "  r.$k = f32[256]{0} reduce(a.$k, z.$k), dimensions={0}, to_apply=add\n"
    "  rb.$k = A broadcast(r.$k), dimensions={1}\n"
    "  ROOT m.$k = A multiply(a.$k, rb.$k)\n}\n",
    // Reshapes around a transpose of the split dimension.
    "(a.$k: A) -> A {\n  a.$k = A parameter(0)\n"
    "  r.$k = f32[64,4,256]{2,1,0} reshape(a.$k)\n"
    "  t.$k = f32[4,64,256]{2,1,0} transpose(r.$k), dimensions={1,0,2}\n"
    "  ROOT b.$k = A reshape(t.$k)\n}\n",
    // The two halves swapped by a concatenate.
    "(a.$k: A) -> A {\n  a.$k = A parameter(0)\n"
    "  lo.$k = f32[128,256]{1,0} slice(a.$k), slice={[0:128], [0:256]}\n"
    "  hi.$k = f32[128,256]{1,0} slice(a.$k), slice={[128:256], [0:256]}\n"
    "  ROOT c.$k = A concatenate(hi.$k, lo.$k), dimensions={0}\n}\n",
    // A quarter spread out by interior padding.
    "(a.$k: A) -> A {\n  a.$k = A parameter(0)\n"
    "  q.$k = f32[128,128]{1,0} slice(a.$k), slice={[0:128], [0:128]}\n"
    "  z.$k = f32[] constant(0)\n"
    "  ROOT p.$k = A pad(q.$k, z.$k), padding=0_1_1x0_1_1\n}\n",
    // A window of the weight at a dynamic offset.
    "(a.$k: A, w.$k: W, i.$k: s32[]) -> A {\n  a.$k = A parameter(0)\n"
    "  w.$k = W parameter(1)\n  i.$k = s32[] parameter(2)\n"
    "  d.$k = A dynamic-slice(w.$k, i.$k, i.$k), dynamic_slice_sizes={256,"
    "256}\n  ROOT s.$k = A add(a.$k, d.$k)\n}\n",
};
constexpr int64_t kPatterns = sizeof(kBodies) / sizeof(kBodies[0]);

// The fusion's operands after the activation, by pattern.
const char* ExtraOperands(int64_t pattern) {
  switch (pattern) {
    case 0:
      return ", bias";
    case 2:
      return ", weight";
    case 8:
      return ", weight, offset";
    default:
      return "";
  }
}

// Instructions per fusion on average: its fused computation (3 to 6) and
// its line in the entry computation.
constexpr int64_t kInstructionsPerFusion = 6;

}  // namespace

std::string MakeFusionRichModule(int64_t instruction_count) {
  const int64_t fusions = instruction_count / kInstructionsPerFusion > 0
                              ? instruction_count / kInstructionsPerFusion
                              : 1;
  std::string text =
      "HloModule fusion_rich, is_scheduled=true\n\n"
      "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(x, y)\n}\n\n";
  for (int64_t k = 0; k < fusions; ++k) {
    absl::StrAppend(&text, "fused_", k, " ",
                    absl::StrReplaceAll(kBodies[k % kPatterns],
                                        {{"$k", absl::StrCat(k)},
                                         {" A ", " f32[256,256]{1,0} "},
                                         {": A", ": f32[256,256]{1,0}"},
                                         {"> A", "> f32[256,256]{1,0}"},
                                         {"= A", "= f32[256,256]{1,0}"},
                                         {" W ", " f32[256,512]{1,0} "},
                                         {": W", ": f32[256,512]{1,0}"},
                                         {"= W", "= f32[256,512]{1,0}"}}),
                    "\n");
  }
  absl::StrAppend(&text,
                  "ENTRY main {\n  act.0 = f32[256,256]{1,0} parameter(0)\n"
                  "  bias = f32[256]{0} parameter(1)\n"
                  "  weight = f32[256,512]{1,0} parameter(2)\n"
                  "  offset = s32[] parameter(3)\n");
  for (int64_t k = 0; k < fusions; ++k) {
    absl::StrAppend(&text, "  ", k + 1 == fusions ? "ROOT " : "", "act.", k + 1,
                    " = f32[256,256]{1,0} fusion(act.", k,
                    ExtraOperands(k % kPatterns), "), kind=kLoop, calls=fused_",
                    k, "\n");
  }
  absl::StrAppend(&text, "}\n");
  return text;
}

}  // namespace xla_index
