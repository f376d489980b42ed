// Properties of the module report on the example modules of testdata/:
// every fusion is listed once, its verdicts are those of AnalyzeCoalescing
// on the fusion alone, unused operands are decided exactly, the JSON is
// well-formed, and one kernel's error does not stop the report.

#include "xla_index/analysis/module_report.h"

#include <cctype>
#include <cstdint>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/coalescing.h"
#include "xla_index/analysis/gpu_device.h"

namespace xla_index {
namespace {

std::unique_ptr<HloModule> ParseFile(const std::string& name) {
  std::ifstream file("xla_index/analysis/testdata/" + name);
  EXPECT_TRUE(file.good()) << name;
  std::stringstream text;
  text << file.rdbuf();
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text.str());
  EXPECT_TRUE(module.ok()) << name << ": " << module.status();
  return module.ok() ? std::move(*module) : nullptr;
}

// A strict JSON recognizer (RFC 8259 values), enough to say the report's
// one line parses: Value() consumes one value and returns false on error.
class JsonChecker {
 public:
  explicit JsonChecker(const std::string& text) : text_(text) {}
  bool Document() { return Value() && (Space(), pos_ == text_.size()); }

 private:
  void Space() {
    while (pos_ < text_.size() && std::isspace(text_[pos_])) ++pos_;
  }
  bool Eat(char c) {
    Space();
    if (pos_ < text_.size() && text_[pos_] == c) return ++pos_, true;
    return false;
  }
  bool Literal(const char* word) {
    const std::string w(word);
    if (text_.compare(pos_, w.size(), w) != 0) return false;
    pos_ += w.size();
    return true;
  }
  bool String() {
    if (!Eat('"')) return false;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (static_cast<unsigned char>(text_[pos_]) < 0x20) return false;
      if (text_[pos_] == '\\') ++pos_;
      ++pos_;
    }
    return pos_ < text_.size() && text_[pos_++] == '"';
  }
  bool Number() {
    const size_t start = pos_;
    if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
    while (pos_ < text_.size() &&
           (std::isdigit(text_[pos_]) ||
            std::string(".eE+-").find(text_[pos_]) != std::string::npos)) {
      ++pos_;
    }
    return pos_ > start && std::isdigit(text_[pos_ - 1]);
  }
  template <typename Item>
  bool Sequence(char close, Item item) {
    if (Eat(close)) return true;
    do {
      if (!item()) return false;
    } while (Eat(','));
    return Eat(close);
  }
  bool Value() {
    Space();
    if (pos_ >= text_.size()) return false;
    const char c = text_[pos_];
    if (c == '{') {
      ++pos_;
      return Sequence('}', [&] { return String() && Eat(':') && Value(); });
    }
    if (c == '[') {
      ++pos_;
      return Sequence(']', [&] { return Value(); });
    }
    if (c == '"') return String();
    if (c == 't') return Literal("true");
    if (c == 'f') return Literal("false");
    if (c == 'n') return Literal("null");
    return Number();
  }

  const std::string& text_;
  size_t pos_ = 0;
};

TEST(JsonCheckerTest, RejectsBrokenJson) {
  EXPECT_TRUE(
      JsonChecker(R"({"a": [1, -2.5e3, "x\"y", null, true]})").Document());
  EXPECT_FALSE(JsonChecker(R"({"a": [1, 2})").Document());
  EXPECT_FALSE(JsonChecker(R"({"a": 1,})").Document());
  EXPECT_FALSE(JsonChecker(R"({"a" 1})").Document());
  EXPECT_FALSE(JsonChecker("{\"a\": \"line\nbreak\"}").Document());
}

std::set<std::string> FusionNames(const HloModule& module) {
  std::set<std::string> names;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      if (instruction->opcode() == HloOpcode::kFusion) {
        names.insert(instruction->name());
      }
    }
  }
  return names;
}

const KernelReport* FindKernel(const ModuleReport& report,
                               const std::string& name) {
  for (const KernelReport& kernel : report.kernels) {
    if (kernel.name == name) return &kernel;
  }
  return nullptr;
}

class ModuleReportFileTest : public testing::TestWithParam<const char*> {};

// Every fusion once, verdicts as the coalescing analysis of that fusion
// alone, and JSON that parses.
TEST_P(ModuleReportFileTest, ListsEveryFusionWithCoalescingVerdicts) {
  std::unique_ptr<HloModule> module = ParseFile(GetParam());
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<ModuleReport> report =
      AnalyzeModuleReport(*module, ModuleReportOptions(), &context);
  ASSERT_TRUE(report.ok()) << report.status();
  const std::set<std::string> fusions = FusionNames(*module);
  std::multiset<std::string> listed;
  for (const KernelReport& kernel : report->kernels) listed.insert(kernel.name);
  if (!fusions.empty()) {
    EXPECT_TRUE(report->fusions);
    EXPECT_EQ(std::set<std::string>(listed.begin(), listed.end()), fusions);
    EXPECT_EQ(listed.size(), fusions.size());
  }
  for (const KernelReport& kernel : report->kernels) {
    if (!kernel.error.empty() || !report->fusions) continue;
    absl::StatusOr<const HloInstruction*> instruction =
        FindInstruction(*module, kernel.computation + "." + kernel.name);
    ASSERT_TRUE(instruction.ok()) << instruction.status();
    absl::StatusOr<CoalescingReport> alone =
        AnalyzeCoalescing(**instruction, CoalescingOptions(), &context);
    ASSERT_EQ(alone.ok(), kernel.coalescing_error.empty()) << kernel.name;
    if (!alone.ok()) continue;
    size_t r = 0;
    for (const OperandReport& operand : kernel.operands) {
      for (const OperandCoalescing& read : operand.reads) {
        ASSERT_LT(r, alone->operands.size());
        const OperandCoalescing& expected = alone->operands[r++];
        EXPECT_EQ(read.operand, expected.operand);
        EXPECT_EQ(CoalescingVerdict(read), CoalescingVerdict(expected))
            << kernel.name << " operand " << read.operand;
        EXPECT_EQ(read.access.efficiency, expected.access.efficiency);
      }
    }
    EXPECT_EQ(r, alone->operands.size()) << kernel.name;
  }
  const std::string json = ModuleReportToJson(*report);
  EXPECT_TRUE(JsonChecker(json).Document()) << json;
  EXPECT_EQ(json.find('\n'), std::string::npos);
  const std::string text = ModuleReportToText(*report);
  for (const std::string& name : fusions) {
    EXPECT_TRUE(absl::StrContains(text, "\n" + name + " (fusion")) << name;
  }
}

INSTANTIATE_TEST_SUITE_P(Files, ModuleReportFileTest,
                         testing::Values("report_fusions.hlo",
                                         "multi_output_fusion.hlo",
                                         "tile_softmax.hlo",
                                         "coalescing_transpose.hlo",
                                         "utilization_slice.hlo",
                                         "coalescing_column_reduction.hlo"));

TEST(ModuleReportTest, KnownVerdictsUnusedOperandAndWorstFirst) {
  std::unique_ptr<HloModule> module = ParseFile("report_fusions.hlo");
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<ModuleReport> report =
      AnalyzeModuleReport(*module, ModuleReportOptions(), &context);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->kernels.size(), 7u);
  const KernelReport* unused = FindKernel(*report, "one_unused");
  ASSERT_NE(unused, nullptr);
  ASSERT_EQ(unused->operands.size(), 2u);
  EXPECT_EQ(unused->operands[0].unused, false);
  EXPECT_EQ(unused->operands[1].unused, true);
  const KernelReport* transposed = FindKernel(*report, "transposed");
  ASSERT_NE(transposed, nullptr);
  ASSERT_EQ(transposed->operands[0].reads.size(), 1u);
  EXPECT_FALSE(transposed->operands[0].reads[0].access.coalesced);
  // The worst read comes first and efficiencies never decrease.
  const std::vector<ReadPosition> worst = UncoalescedReads(*report);
  ASSERT_GE(worst.size(), 2u);
  EXPECT_EQ(report->kernels[worst[0].kernel].name, "transposed");
  double last = 0;
  for (const ReadPosition& p : worst) {
    const double e = report->kernels[p.kernel]
                         .operands[p.operand]
                         .reads[p.read]
                         .access.efficiency;
    EXPECT_GE(e, last);
    last = e;
  }
  EXPECT_EQ(SummarizeModuleReport(*report).uncoalesced_reads,
            static_cast<int64_t>(worst.size()));
}

TEST(ModuleReportTest, UnfusedModuleReportsNonIdentityInstructions) {
  std::unique_ptr<HloModule> module = ParseFile("coalescing_transpose.hlo");
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<ModuleReport> report =
      AnalyzeModuleReport(*module, ModuleReportOptions(), &context);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_FALSE(report->fusions);
  ASSERT_FALSE(report->kernels.empty());
  for (const KernelReport& kernel : report->kernels) {
    EXPECT_NE(kernel.kind, "parameter");
    EXPECT_TRUE(kernel.error.empty()) << kernel.error;
  }
}

// An op without a rule inside one fusion and an output that is not an
// array in another: both stay in the report, the third fusion is analyzed.
TEST(ModuleReportTest, ErrorsStayPerKernel) {
  absl::StatusOr<std::unique_ptr<HloModule>> module = ParseHloModule(R"(
HloModule errors
less {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT lt = pred[] compare(x, y), direction=LT
}
fused_sort {
  a = f32[64]{0} parameter(0)
  ROOT s = f32[64]{0} sort(a), dimensions={0}, to_apply=less
}
fused_token {
  b = f32[64]{0} parameter(0)
  ROOT t = token[] after-all()
}
fused_neg {
  c = f32[64]{0} parameter(0)
  ROOT n = f32[64]{0} negate(c)
}
ENTRY e {
  p = f32[64]{0} parameter(0)
  f1 = f32[64]{0} fusion(p), kind=kLoop, calls=fused_sort
  f2 = token[] fusion(p), kind=kLoop, calls=fused_token
  ROOT f3 = f32[64]{0} fusion(p), kind=kLoop, calls=fused_neg
})");
  ASSERT_TRUE(module.ok()) << module.status();
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<ModuleReport> report =
      AnalyzeModuleReport(**module, ModuleReportOptions(), &context);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->kernels.size(), 3u);
  const KernelReport& sort = report->kernels[0];
  EXPECT_TRUE(sort.error.empty());
  ASSERT_EQ(sort.operands.size(), 1u);
  ASSERT_EQ(sort.operands[0].reads.size(), 1u);
  EXPECT_EQ(CoalescingVerdict(sort.operands[0].reads[0]), "not analyzed");
  EXPECT_FALSE(sort.operands[0].utilization.exact);
  EXPECT_TRUE(absl::StrContains(report->kernels[1].error, "array"))
      << report->kernels[1].error;
  EXPECT_TRUE(report->kernels[2].error.empty());
  EXPECT_EQ(SummarizeModuleReport(*report).failed, 1);
  EXPECT_TRUE(JsonChecker(ModuleReportToJson(*report)).Document());
}

// Fusions in a called computation (call, while body) are kernels too;
// those inside a fused computation are part of their fusion.
TEST(ModuleReportTest, FindsFusionsInCalledComputations) {
  absl::StatusOr<std::unique_ptr<HloModule>> module = ParseHloModule(R"(
HloModule called
fused_neg {
  a = f32[64]{0} parameter(0)
  ROOT n = f32[64]{0} negate(a)
}
outer_fused {
  b = f32[64]{0} parameter(0)
  ROOT inner = f32[64]{0} fusion(b), kind=kLoop, calls=fused_neg
}
body {
  c = f32[64]{0} parameter(0)
  ROOT in_call = f32[64]{0} fusion(c), kind=kLoop, calls=fused_neg
}
ENTRY e {
  p = f32[64]{0} parameter(0)
  k = f32[64]{0} call(p), to_apply=body
  ROOT outer = f32[64]{0} fusion(k), kind=kLoop, calls=outer_fused
})");
  ASSERT_TRUE(module.ok()) << module.status();
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<ModuleReport> report =
      AnalyzeModuleReport(**module, ModuleReportOptions(), &context);
  ASSERT_TRUE(report.ok()) << report.status();
  std::set<std::string> names;
  for (const KernelReport& kernel : report->kernels) names.insert(kernel.name);
  EXPECT_EQ(names, (std::set<std::string>{"in_call", "outer"}));
}

TEST(ModuleReportTest, RecordsWarpAndTileOffsets) {
  std::unique_ptr<HloModule> module = ParseFile("report_fusions.hlo");
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  ModuleReportOptions options;
  options.record_offsets = true;
  absl::StatusOr<ModuleReport> report =
      AnalyzeModuleReport(*module, options, &context);
  ASSERT_TRUE(report.ok()) << report.status();
  // bias_add reads p0 elementwise: the warp reads offsets 0..31, the block
  // of 128 threads offsets 0..127.
  const KernelReport* bias = FindKernel(*report, "bias_add");
  ASSERT_NE(bias, nullptr);
  ASSERT_TRUE(bias->operands[0].offsets.has_value());
  const ReadOffsets& p0 = *bias->operands[0].offsets;
  ASSERT_EQ(p0.warp.size(), 32u);
  EXPECT_EQ(p0.warp.front(), 0);
  EXPECT_EQ(p0.warp.back(), 31);
  ASSERT_EQ(p0.tile.size(), 128u);
  EXPECT_EQ(p0.tile.back(), 127);
  // The strided slice: every second element, 0, 2, ..., 62.
  const KernelReport* strided = FindKernel(*report, "strided");
  ASSERT_NE(strided, nullptr);
  const ReadOffsets& s0 = *strided->operands[0].offsets;
  ASSERT_EQ(s0.warp.size(), 32u);
  EXPECT_EQ(s0.warp[1], 2);
  EXPECT_EQ(s0.warp.back(), 62);
  // The column sum: one block covers the 128 columns over all 64 rows.
  const KernelReport* sum = FindKernel(*report, "column_sum");
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(sum->operands[0].offsets->tile.size(), 64u * 128u);
}

// The acceptance check of the emitter model on a JAX-style module (own
// shapes): with the RTX A6000, XLA runs the dots as library calls (no
// emitter reads to flag), the reduces along the minor dimension on the row
// reduction emitter (a warp reads along the row), the column sum on the
// column emitter and the transposes on the transpose emitter; none of their
// reads is flagged. The same module judged with the loop emitter's map for
// every kernel (no device) flags reads of exactly these kernels, which is
// what the emitter model corrects.
TEST(ModuleReportTest, JaxStyleModuleOnTheEmitters) {
  std::unique_ptr<HloModule> module = ParseFile("jax_style_mlp_block.hlo");
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context;
  ModuleReportOptions options;
  options.coalescing.device = DefaultGpuDevice();
  absl::StatusOr<ModuleReport> report =
      AnalyzeModuleReport(*module, options, &context);
  ASSERT_TRUE(report.ok()) << report.status();
  int64_t dots = 0, row_reductions = 0, transposes = 0;
  for (const KernelReport& kernel : report->kernels) {
    EXPECT_TRUE(kernel.error.empty()) << kernel.name << ": " << kernel.error;
    EXPECT_TRUE(kernel.coalescing_error.empty())
        << kernel.name << ": " << kernel.coalescing_error;
    if (kernel.kind == "dot") {
      ++dots;
      EXPECT_TRUE(kernel.library) << kernel.name;
      EXPECT_EQ(kernel.emitter, "library (cuBLAS)") << kernel.name;
      for (const OperandReport& operand : kernel.operands) {
        EXPECT_TRUE(operand.reads.empty()) << kernel.name;
      }
    }
    if (kernel.emitter == "reduction (row)") ++row_reductions;
    if (kernel.emitter == "transpose") ++transposes;
  }
  EXPECT_EQ(dots, 3);
  EXPECT_EQ(row_reductions, 3);
  EXPECT_EQ(transposes, 2);
  for (const ReadPosition& p : UncoalescedReads(*report)) {
    const KernelReport& kernel = report->kernels[p.kernel];
    ADD_FAILURE() << "flagged: " << kernel.name << " (" << kernel.emitter
                  << ") operand " << kernel.operands[p.operand].name;
  }

  // The loop emitter's reading of every kernel (the model before emitters).
  ModuleReportOptions loop_only;
  absl::StatusOr<ModuleReport> loop =
      AnalyzeModuleReport(*module, loop_only, &context);
  ASSERT_TRUE(loop.ok()) << loop.status();
  std::set<std::string> flagged;
  for (const ReadPosition& p : UncoalescedReads(*loop)) {
    flagged.insert(loop->kernels[p.kernel].name);
  }
  EXPECT_TRUE(flagged.count("dot_general.19"))
      << "a dot with the weight's minor dimension contracted";
  EXPECT_TRUE(flagged.count("transpose.26"));
  EXPECT_TRUE(flagged.count("reduce_sum.28")) << "a row reduction";
}

}  // namespace
}  // namespace xla_index
