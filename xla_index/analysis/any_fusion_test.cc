// The analyses on an instruction that is not the entry root, and on every
// output of a tuple root (fusion_operands.h), plus their limits.

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "hlo/primitive_type.h"
#include "hlo/shape.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/coalescing.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/analysis/fusion_utilization.h"
#include "xla_index/analysis/symbolic_tile.h"

namespace xla_index {
namespace {

std::unique_ptr<HloModule> Parse(const std::string& text) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? std::move(*module) : nullptr;
}

// A two-output fusion whose output 1 alone reads p1 (transposed); the entry
// root is a get-tuple-element, so the fusion is not the root.
constexpr char kTwoOutputs[] = R"(
HloModule m

fused_two {
  a = f32[64,32] parameter(0)
  b = f32[32,64] parameter(1)
  neg = f32[64,32] negate(a)
  t = f32[64,32] transpose(b), dimensions={1,0}
  ROOT out = (f32[64,32], f32[64,32]) tuple(neg, t)
}

ENTRY main {
  p0 = f32[64,32] parameter(0)
  p1 = f32[32,64] parameter(1)
  fusion = (f32[64,32], f32[64,32]) fusion(p0, p1), kind=kLoop, calls=fused_two
  ROOT gte = f32[64,32] get-tuple-element(fusion), index=0
}
)";

// The same two outputs as a bare tuple root.
constexpr char kTupleRoot[] = R"(
p0 = f32[64,32] parameter(0)
p1 = f32[32,64] parameter(1)
neg = f32[64,32] negate(p0)
t = f32[64,32] transpose(p1), dimensions={1,0}
ROOT out = (f32[64,32], f32[64,32]) tuple(neg, t)
)";

TEST(FindInstructionTest, PlainAndQualifiedNames) {
  auto module = Parse(kTwoOutputs);
  ASSERT_NE(module, nullptr);
  absl::StatusOr<const HloInstruction*> fusion =
      FindInstruction(*module, "fusion");
  ASSERT_TRUE(fusion.ok()) << fusion.status();
  EXPECT_EQ((*fusion)->name(), "fusion");
  absl::StatusOr<const HloInstruction*> t =
      FindInstruction(*module, "fused_two.t");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ((*t)->name(), "t");
  absl::StatusOr<const HloInstruction*> missing =
      FindInstruction(*module, "main.t");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(absl::StrContains(missing.status().message(), "'main.t'"));
  // Library messages speak of the name, not of a command-line flag.
  EXPECT_FALSE(absl::StrContains(missing.status().message(), "--"));
}

TEST(AnalyzeFusionOperandsTest, FusionThatIsNotTheRootKeepsMapsPerOutput) {
  auto module = Parse(kTwoOutputs);
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context;
  const HloInstruction* fusion = *FindInstruction(*module, "fusion");
  absl::StatusOr<AnalyzedFusion> analyzed =
      AnalyzeFusionOperands(*fusion, &context);
  ASSERT_TRUE(analyzed.ok()) << analyzed.status();
  ASSERT_EQ(analyzed->output_shapes.size(), 2);
  ASSERT_EQ(analyzed->operands.size(), 2);
  const FusionOperand& p1 = analyzed->operands[1];
  ASSERT_EQ(p1.maps_by_output.size(), 2);
  EXPECT_EQ(p1.maps_by_output[0].size(), 0);
  EXPECT_EQ(p1.maps_by_output[1].size(), 1);
  EXPECT_EQ(p1.maps.size(), 1);
}

// A tuple root of n parameters: n operands x n outputs map sets. 1,024 is
// at the limit; 1,025 is refused before anything is allocated (20,000 took
// over 20 GB).
std::string WideTuple(int n) {
  std::string text = "HloModule wide\nENTRY e {\n";
  std::string shapes, operands;
  for (int i = 0; i < n; ++i) {
    absl::StrAppend(&text, "  p", i, " = f32[4] parameter(", i, ")\n");
    absl::StrAppend(&shapes, i ? ", " : "", "f32[4]");
    absl::StrAppend(&operands, i ? ", " : "", "p", i);
  }
  absl::StrAppend(&text, "  ROOT t = (", shapes, ") tuple(", operands,
                  ")\n}\n");
  return text;
}

TEST(AnalyzeFusionOperandsTest, OperandsTimesOutputsIsBounded) {
  mlir::MLIRContext context;
  auto at_limit = Parse(WideTuple(1024));
  ASSERT_NE(at_limit, nullptr);
  absl::StatusOr<AnalyzedFusion> analyzed =
      AnalyzeFusionOperands(*at_limit, &context);
  ASSERT_TRUE(analyzed.ok()) << analyzed.status();
  EXPECT_EQ(analyzed->operands[1023].maps_by_output[1023].size(), 1);
  auto beyond = Parse(WideTuple(1025));
  ASSERT_NE(beyond, nullptr);
  absl::StatusOr<AnalyzedFusion> refused =
      AnalyzeFusionOperands(*beyond, &context);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(absl::StrContains(refused.status().message(),
                                "1025 operands and 1025 outputs"))
      << refused.status();
}

// XLA's parser reads unbounded `?` dimensions; the analyses count
// elements, so a read operand or an output of such a shape is refused by
// name, and an unbounded parameter nothing reads is no obstacle.
TEST(AnalyzeFusionOperandsTest, UnboundedShapesAreRefusedWhereRead) {
  mlir::MLIRContext context;
  auto read = Parse(R"(HloModule m
ENTRY e {
  v = s16[?] parameter(0)
  ROOT r = s16[2,6] reshape(v)
})");
  ASSERT_NE(read, nullptr);
  absl::StatusOr<AnalyzedFusion> refused =
      AnalyzeFusionOperands(*read, &context);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(absl::StrContains(refused.status().message(),
                                "operand 0 'v' of 'r' (line 4) has the "
                                "unbounded shape s16[?]"))
      << refused.status();
  auto output = Parse(R"(HloModule m
ENTRY e {
  v = u32[?,5] parameter(0)
  ROOT n = u32[?,5] negate(v)
})");
  ASSERT_NE(output, nullptr);
  refused = AnalyzeFusionOperands(*output, &context);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(absl::StrContains(refused.status().message(),
                                "'n' (line 4) has the unbounded shape"))
      << refused.status();
  auto unread = Parse(R"(HloModule m
ENTRY e {
  q = u32[?,5] parameter(1)
  p = u32[6] parameter(0)
  ROOT n = u32[6] negate(p)
})");
  ASSERT_NE(unread, nullptr);
  absl::StatusOr<AnalyzedFusion> analyzed =
      AnalyzeFusionOperands(*unread, &context);
  ASSERT_TRUE(analyzed.ok()) << analyzed.status();
  ASSERT_EQ(analyzed->operands.size(), 2);
  EXPECT_EQ(analyzed->operands[1].maps.size(), 0);
}

TEST(AnalyzeFusionOperandsTest, InstructionInsideAComputation) {
  auto module = Parse(kTwoOutputs);
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context;
  const HloInstruction* t = *FindInstruction(*module, "fused_two.t");
  absl::StatusOr<AnalyzedFusion> analyzed = AnalyzeFusionOperands(*t, &context);
  ASSERT_TRUE(analyzed.ok()) << analyzed.status();
  ASSERT_EQ(analyzed->operands.size(), 2);
  EXPECT_EQ(analyzed->operands[1].name, "b");
  EXPECT_EQ(analyzed->operands[0].maps.size(), 0);
  EXPECT_EQ(analyzed->operands[1].maps.size(), 1);
}

TEST(TupleRootTest, UtilizationCountsEveryOutput) {
  mlir::MLIRContext context;
  for (const char* text : {kTupleRoot, kTwoOutputs}) {
    auto module = Parse(text);
    ASSERT_NE(module, nullptr);
    const HloInstruction* root = text == kTupleRoot
                                     ? module->entry_computation()->root()
                                     : *FindInstruction(*module, "fusion");
    absl::StatusOr<UtilizationReport> report =
        AnalyzeUtilization(*root, &context);
    ASSERT_TRUE(report.ok()) << report.status();
    EXPECT_EQ(report->output_elements, 2 * 64 * 32);
    ASSERT_EQ(report->operands.size(), 2);
    for (const FusionOperandUtilization& u : report->operands) {
      SCOPED_TRACE(u.name);
      EXPECT_EQ(u.counts.elements_read, 64 * 32);
      EXPECT_EQ(u.counts.reads, 64 * 32);
      EXPECT_TRUE(u.counts.exact);
    }
  }
}

TEST(TupleRootTest, TilePropagatesEveryOutput) {
  auto module = Parse(kTupleRoot);
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context;
  absl::StatusOr<TileReport> report = AnalyzeTiling(*module, {8, 16}, &context);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->output_tiles.size(), 2);
  ASSERT_EQ(report->operands.size(), 2);
  ASSERT_EQ(report->operands[1].tiles.size(), 1);
  const PropagatedTile& tile = report->operands[1].tiles[0];
  ASSERT_TRUE(tile.tileable) << tile.reason;
  EXPECT_EQ(tile.tile.sizes, (std::vector<int64_t>{16, 8}));
  EXPECT_TRUE(report->tileable);
}

TEST(TupleRootTest, CoalescingAnalyzesEveryOutputsReads) {
  auto module = Parse(kTupleRoot);
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context;
  absl::StatusOr<CoalescingReport> report =
      AnalyzeCoalescing(*module, {}, &context);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->thread_to_outputs.size(), 2);
  ASSERT_EQ(report->operands.size(), 2);
  EXPECT_EQ(report->operands[0].operand, 0);
  EXPECT_EQ(report->operands[0].output, 0);
  EXPECT_EQ(CoalescingVerdict(report->operands[0]), "coalesced");
  EXPECT_EQ(report->operands[1].operand, 1);
  EXPECT_EQ(report->operands[1].output, 1);
  EXPECT_EQ(CoalescingVerdict(report->operands[1]), "not coalesced");
}

TEST(TupleRootTest, CoalescingRefusesOutputsOfDifferentSizes) {
  auto module = Parse(R"(
p0 = f32[64] parameter(0)
s = f32[32] slice(p0), slice={[0:32]}
ROOT out = (f32[64], f32[32]) tuple(p0, s)
)");
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context;
  absl::StatusOr<CoalescingReport> report =
      AnalyzeCoalescing(*module, {}, &context);
  ASSERT_FALSE(report.ok());
  EXPECT_TRUE(
      absl::StrContains(report.status().message(), "differ in element count"));
}

TEST(CoalescingLimitsTest, ByteOffsetsPastInt64NameTheOperand) {
  // The parser refuses f32[2^62] (its size in bytes overflows int64), so
  // the module is parsed with 1-byte elements and the operand's element
  // type widened afterwards, as a module built in code could have it:
  // element offsets still fit in int64, their byte offsets do not.
  auto module = Parse(R"(
p0 = s8[4611686018427387904] parameter(0)
ROOT s = s8[64] slice(p0), slice={[4611686018427387800:4611686018427387864]}
)");
  ASSERT_NE(module, nullptr);
  for (HloInstruction* instruction :
       module->entry_computation()->parameters()) {
    Shape shape = instruction->shape();
    shape.set_element_type(PrimitiveType::kF32);
    instruction->set_shape(shape);
  }
  mlir::MLIRContext context;
  absl::StatusOr<CoalescingReport> report =
      AnalyzeCoalescing(*module, {}, &context);
  ASSERT_FALSE(report.ok());
  EXPECT_TRUE(absl::StrContains(report.status().message(), "operand 0 (p0"))
      << report.status();
}

TEST(CoalescingLimitsTest, UnrollIsBoundedBeforeAnyWork) {
  auto module = Parse(R"(
p0 = f32[1099511627776] parameter(0)
ROOT n = f32[1099511627776] negate(p0)
)");
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context;
  CoalescingOptions options;
  options.unroll = 1000000;
  EXPECT_FALSE(AnalyzeCoalescing(*module, options, &context).ok());
  options.unroll = 1024;  // 32 x 1024 points: well inside the limit
  EXPECT_TRUE(AnalyzeCoalescing(*module, options, &context).ok());
}

TEST(CoalescingLimitsTest, SaturatedOffsetsDoNotWrapInTheSummary) {
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  WarpMemoryAccess access = SummarizeWarpAccess({kMax - 1}, 32);
  EXPECT_GE(access.bytes_touched, 0);
  for (const ByteRange& r : access.byte_ranges) EXPECT_GE(r.begin, 0);
}

TEST(TileMessagesTest, LibraryErrorsDoNotNameTheFlag) {
  absl::StatusOr<std::vector<int64_t>> sizes = ParseTileSizes("4,x");
  ASSERT_FALSE(sizes.ok());
  EXPECT_TRUE(absl::StrContains(sizes.status().message(), "column 3"));
  EXPECT_FALSE(absl::StrContains(sizes.status().message(), "--tile"));
  mlir::MLIRContext context;
  absl::StatusOr<IndexingMap> map = OutputTileMap({4, 8}, {1, 2, 3}, &context);
  ASSERT_FALSE(map.ok());
  EXPECT_FALSE(absl::StrContains(map.status().message(), "--tile"));
}

TEST(CoalescingGridTest, CallerGivenLaunchGrid) {
  // 64 x 32 elements with a caller's grid of 16 blocks of 64 threads and
  // unroll 2 (instead of the default 128 threads): block 3, warp 1 covers
  // threads 32..63, elements (3 * 64 + t) * 2 + u = 448..511, rows 14, 15.
  auto module = Parse(kTupleRoot);
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context;
  CoalescingOptions options;
  options.unroll = 2;
  options.block = 3;
  options.warp = 1;
  LaunchGrid grid;
  grid.threads[0] = 64;
  grid.blocks[0] = 16;
  options.grid = grid;
  absl::StatusOr<CoalescingReport> report =
      AnalyzeCoalescing(*module, options, &context);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->grid.threads[0], 64);
  EXPECT_EQ(report->grid.blocks[0], 16);
  EXPECT_EQ(report->first_thread, 32);
  EXPECT_EQ(report->last_thread, 63);
  const OperandCoalescing& p0 = report->operands[0];
  ASSERT_EQ(p0.access.byte_ranges.size(), 1);
  EXPECT_EQ(p0.access.byte_ranges[0], (ByteRange{448 * 4, 512 * 4}));

  grid.threads[1] = 2;
  options.grid = grid;
  absl::StatusOr<CoalescingReport> bad =
      AnalyzeCoalescing(*module, options, &context);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(absl::StrContains(bad.status().message(), "threads.y"));
  grid.threads[1] = 1;
  grid.blocks[0] = std::numeric_limits<int64_t>::max();
  options.grid = grid;
  EXPECT_FALSE(AnalyzeCoalescing(*module, options, &context).ok());
}

}  // namespace
}  // namespace xla_index
