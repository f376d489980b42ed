// Coalescing on XLA's emitters: the behaviour of XLA's coalescing tests
// (xla/service/gpu/model/coalescing_analysis_test.cc, CoalescingTest.*) on
// this repository's own shapes and names. Each test names the XLA test it
// re-expresses; the expected verdicts are XLA's (IsReadCoalescedPerOperand
// with the RTX A6000 of TestGpuDeviceInfo, or IsReadCoalescedHeuristic).
// A read counts as coalesced when XLA's 128-byte rule says so or the warp
// reads nothing through it; an operand when all its reads are.

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/coalescing.h"
#include "xla_index/analysis/gpu_device.h"
#include "xla_index/analysis/read_coalesced_heuristic.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;

std::unique_ptr<HloModule> Parse(const std::string& text) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? std::move(*module) : nullptr;
}

struct Verdicts {
  std::string emitter;
  std::vector<bool> coalesced;  // per operand of the root
};

Verdicts AnalyzeRoot(const std::string& text) {
  Verdicts v;
  std::unique_ptr<HloModule> module = Parse(text);
  if (module == nullptr) return v;
  const HloInstruction* root = module->entry_computation()->root();
  mlir::MLIRContext context;
  CoalescingOptions options;
  options.device = DefaultGpuDevice();
  absl::StatusOr<CoalescingReport> report =
      AnalyzeCoalescing(*root, options, &context);
  EXPECT_TRUE(report.ok()) << report.status();
  if (!report.ok()) return v;
  v.emitter = report->emitter;
  v.coalesced.assign(root->operand_count(), true);
  for (const OperandCoalescing& read : report->operands) {
    if (read.operand >= root->operand_count()) continue;
    const bool ok =
        read.analyzed && (read.active_threads == 0 || read.xla_rule.coalesced);
    if (!ok) v.coalesced[read.operand] = false;
  }
  return v;
}

// IsReadCoalescedHeuristic with the root's operand 0 as the producer.
bool Heuristic(const std::string& text) {
  std::unique_ptr<HloModule> module = Parse(text);
  if (module == nullptr) return false;
  const HloInstruction* root = module->entry_computation()->root();
  mlir::MLIRContext context;
  absl::StatusOr<ProducerConsumerCoalescing> answer =
      AnalyzeProducerConsumerCoalescing(*root->operand(0), root,
                                        DefaultGpuDevice(), &context);
  EXPECT_TRUE(answer.ok()) << answer.status();
  return answer.ok() && answer->coalesced;
}

std::string TwoOperandFusion(const std::string& p0_layout,
                             const std::string& p1_layout,
                             const std::string& out_layout) {
  return absl::StrCat(R"(
HloModule m
fz {
  a = f32[60,150]{)",
                      p0_layout, R"(} parameter(0)
  b = f32[60,150]{)",
                      p1_layout, R"(} parameter(1)
  ROOT s = f32[60,150]{)",
                      out_layout, R"(} subtract(a, b)
}
ENTRY e {
  x = f32[60,150]{)",
                      p0_layout, R"(} parameter(0)
  y = f32[60,150]{)",
                      p1_layout, R"(} parameter(1)
  ROOT f = f32[60,150]{)",
                      out_layout, R"(} fusion(x, y), kind=kLoop, calls=fz
})");
}

// CoalescingTest.IdentityLayout, RhsTransposedLayout,
// OutputTransposedLayout, OutputAndLhsTransposedLayout: the loop emitter
// walks the output in its physical order; an operand in the other order
// is read one element per 600-byte row.
TEST(CoalescingEmittersTest, LayoutsOfAnElementwiseLoop) {
  EXPECT_THAT(AnalyzeRoot(TwoOperandFusion("1,0", "1,0", "1,0")).coalesced,
              ElementsAre(true, true));
  EXPECT_THAT(AnalyzeRoot(TwoOperandFusion("1,0", "0,1", "1,0")).coalesced,
              ElementsAre(true, false));
  EXPECT_THAT(AnalyzeRoot(TwoOperandFusion("1,0", "1,0", "0,1")).coalesced,
              ElementsAre(false, false));
  EXPECT_THAT(AnalyzeRoot(TwoOperandFusion("0,1", "1,0", "0,1")).coalesced,
              ElementsAre(true, false));
}

// CoalescingTest.Transpose: a transpose of the minor dimension runs on the
// transpose emitter (GetDescriptionForTiledTransposeEmitter), whose tiles
// are read row by row: coalesced (the loop emitter's reading is not).
TEST(CoalescingEmittersTest, TransposeOnTheTransposeEmitter) {
  Verdicts v = AnalyzeRoot(R"(
HloModule m
fz {
  a = f32[90,48,32] parameter(0)
  ROOT t = f32[32,90,48] transpose(a), dimensions={2,0,1}
}
ENTRY e {
  x = f32[90,48,32] parameter(0)
  ROOT f = f32[32,90,48] fusion(x), kind=kLoop, calls=fz
})");
  EXPECT_EQ(v.emitter, "transpose");
  EXPECT_THAT(v.coalesced, ElementsAre(true));
}

// CoalescingTest.TransposeOnlyOuterDims: the minor dimension (64 floats,
// 256 bytes > 64 bits) stays, so no tiled transpose: the loop emitter reads
// runs of 64 elements, coalesced.
TEST(CoalescingEmittersTest, TransposeOfOuterDimensionsOnTheLoopEmitter) {
  Verdicts v = AnalyzeRoot(R"(
HloModule m
fz {
  a = f32[90,32,64] parameter(0)
  ROOT t = f32[32,90,64] transpose(a), dimensions={1,0,2}
}
ENTRY e {
  x = f32[90,32,64] parameter(0)
  ROOT f = f32[32,90,64] fusion(x), kind=kLoop, calls=fz
})");
  EXPECT_EQ(v.emitter, "loop");
  EXPECT_THAT(v.coalesced, ElementsAre(true));
}

std::string ConcatenateFusion(bool bitcast_root) {
  return absl::StrCat(R"(
HloModule m
fz {
  a = bf16[50] parameter(0)
  b = bf16[50] parameter(1)
  c = bf16[50] parameter(2)
  d = bf16[50] parameter(3)
  g = bf16[28] parameter(4)
  h = bf16[28] parameter(5)
  cat = bf16[256] concatenate(a, b, c, d, g, h), dimensions={0}
  w = bf16[256] parameter(6)
  m = bf16[256] multiply(cat, w)
)",
                      bitcast_root ? "  ROOT r = bf16[8,32] bitcast(m)\n}"
                                   : "  ROOT r = bf16[256] copy(m)\n}",
                      R"(
ENTRY e {
  a = bf16[50] parameter(0)
  b = bf16[50] parameter(1)
  c = bf16[50] parameter(2)
  d = bf16[50] parameter(3)
  g = bf16[28] parameter(4)
  h = bf16[28] parameter(5)
  w = bf16[256] parameter(6)
  ROOT f = )",
                      bitcast_root ? "bf16[8,32]" : "bf16[256]",
                      R"( fusion(a, b, c, d, g, h, w), kind=kLoop, calls=fz
})");
}

// CoalescingTest.ConcatenateInLoopEmitter and
// ConcatenateWitBitcastInLoopEmitter: six concatenate operands are more
// than UseConcatenateFusion's four, so the loop emitter; every read is a
// contiguous run.
TEST(CoalescingEmittersTest, ConcatenateOfSixOnTheLoopEmitter) {
  for (bool bitcast : {false, true}) {
    Verdicts v = AnalyzeRoot(ConcatenateFusion(bitcast));
    EXPECT_EQ(v.emitter, "loop") << bitcast;
    EXPECT_THAT(v.coalesced,
                ElementsAre(true, true, true, true, true, true, true))
        << bitcast;
  }
}

// CoalescingTest.TransposeOfBroadcastHeuristic, TransposeOfIotaHeuristic,
// TransposeOfAddHeuristic: a producer transposing the minor dimension
// breaks coalescing, unless it transposes a broadcast or an iota.
TEST(CoalescingEmittersTest, ProducerTransposeHeuristic) {
  const std::string consumer = R"(
fz {
  a = f32[16,30,40] parameter(0)
  ROOT s = f32[16,30,1] slice(a), slice={[0:16], [0:30], [0:1]}
}
)";
  EXPECT_TRUE(Heuristic(absl::StrCat("HloModule m\n", consumer, R"(
ENTRY e {
  v = f32[16] parameter(0)
  b = f32[30,40,16] broadcast(v), dimensions={2}
  t = f32[16,30,40] transpose(b), dimensions={2,0,1}
  ROOT f = f32[16,30,1] fusion(t), kind=kLoop, calls=fz
})")));
  EXPECT_TRUE(Heuristic(absl::StrCat("HloModule m\n", consumer, R"(
ENTRY e {
  i = f32[30,40,16] iota(), iota_dimension=0
  t = f32[16,30,40] transpose(i), dimensions={2,0,1}
  ROOT f = f32[16,30,1] fusion(t), kind=kLoop, calls=fz
})")));
  EXPECT_FALSE(Heuristic(absl::StrCat("HloModule m\n", consumer, R"(
ENTRY e {
  x = f32[30,40,16] parameter(0)
  m = f32[30,40,16] multiply(x, x)
  t = f32[16,30,40] transpose(m), dimensions={2,0,1}
  ROOT f = f32[16,30,1] fusion(t), kind=kLoop, calls=fz
})")));
}

// XLA's IsReadCoalescedHeuristic also refuses to fuse two reductions on
// the reduction emitter.
TEST(CoalescingEmittersTest, ReductionIntoReductionHeuristic) {
  EXPECT_FALSE(Heuristic(R"(
HloModule m
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
ENTRY e {
  x = f32[64,48,256] parameter(0)
  z = f32[] constant(0)
  r1 = f32[64,48] reduce(x, z), dimensions={2}, to_apply=sum
  ROOT r2 = f32[64] reduce(r1, z), dimensions={1}, to_apply=sum
})"));
}

// CoalescingTest.PadOp: both the padded operand and the padding value.
TEST(CoalescingEmittersTest, Pad) {
  Verdicts v = AnalyzeRoot(R"(
HloModule m
fz {
  a = f32[500,300] parameter(0)
  v = f32[] parameter(1)
  ROOT p = f32[516,364] pad(a, v), padding=6_10x20_44
}
ENTRY e {
  x = f32[500,300] parameter(0)
  y = f32[] parameter(1)
  ROOT f = f32[516,364] fusion(x, y), kind=kLoop, calls=fz
})");
  EXPECT_THAT(v.coalesced, ElementsAre(true, true));
}

std::string ReduceFusion(const std::string& input, const std::string& output,
                         const std::string& dims) {
  return absl::StrCat(R"(
HloModule m
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
fz {
  a = )",
                      input, R"( parameter(0)
  z = f32[] constant(0)
  ROOT r = )",
                      output, " reduce(a, z), dimensions={", dims,
                      R"(}, to_apply=sum
}
ENTRY e {
  x = )",
                      input, R"( parameter(0)
  ROOT f = )",
                      output, R"( fusion(x), kind=kInput, calls=fz
})");
}

// CoalescingTest.RowReduction, MultiRowReduction, ColumnReduction: the
// reduction emitter reads along the row (a warp over 32 consecutive
// columns, vectorized), several short rows per warp, or 32 consecutive
// columns of a row for a column reduction.
TEST(CoalescingEmittersTest, Reductions) {
  Verdicts row = AnalyzeRoot(ReduceFusion("f32[50,32,512]", "f32[50,32]", "2"));
  EXPECT_EQ(row.emitter, "reduction (row)");
  EXPECT_THAT(row.coalesced, ElementsAre(true));
  Verdicts multi = AnalyzeRoot(ReduceFusion("f32[50,32,4]", "f32[50,32]", "2"));
  EXPECT_EQ(multi.emitter, "reduction (multi-row)");
  EXPECT_THAT(multi.coalesced, ElementsAre(true));
  Verdicts column =
      AnalyzeRoot(ReduceFusion("f32[50,64,32]", "f32[50,32]", "1"));
  EXPECT_EQ(column.emitter, "reduction (small column)");
  EXPECT_THAT(column.coalesced, ElementsAre(true));
  Verdicts wide_column =
      AnalyzeRoot(ReduceFusion("f32[50,64,96]", "f32[50,96]", "1"));
  EXPECT_EQ(wide_column.emitter, "reduction (column)");
  EXPECT_THAT(wide_column.coalesced, ElementsAre(true));
}

std::string VariadicReduce(const std::string& shape, const std::string& out,
                           const std::string& dims) {
  return absl::StrCat(
      R"(
HloModule m
mx {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ab = s32[] maximum(a, b)
  cd = s32[] minimum(c, d)
  ROOT t = (s32[], s32[]) tuple(ab, cd)
}
fz {
  a = )",
      shape, R"( parameter(0)
  b = )",
      shape, R"( parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT r = ()",
      out, ", ", out, R"() reduce(a, b, c, d), dimensions={)", dims,
      R"(}, to_apply=mx
}
ENTRY e {
  a = )",
      shape, R"( parameter(0)
  b = )",
      shape, R"( parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT f = ()",
      out, ", ", out, R"() fusion(a, b, c, d), kind=kInput, calls=fz
})");
}

// CoalescingTest.VariadicReduceViaLoopEmitter: reducing the middle 12 of
// s32[4000,12,4] is a column reduction too short for the reduction emitter
// (IsUnnestedReductionFasterThanElemental), so the loop emitter runs it:
// thread d0 reads (d0 / 4) * 48 + d0 % 4 + 4 s over the 12 steps s. XLA
// expects "not coalesced" for the two inputs, but that comes from its
// approximation (FindContiguousIntervals drops g(s) = 4 s because it is not
// s itself, leaving 8 runs of 4); element by element the warp's 32 threads
// x 12 steps read the 384 consecutive elements [0, 384): one interval, 12
// transactions against a lower bound of 12, coalesced by XLA's own rule.
// Each single step, though, reads 8 runs of 16 bytes (8 sectors for 4):
// the per-load sector verdict is "not coalesced", which is what XLA's
// expectation amounts to. docs/API.md lists this disagreement.
TEST(CoalescingEmittersTest, VariadicReductions) {
  Verdicts loop =
      AnalyzeRoot(VariadicReduce("s32[4000,12,4]", "s32[4000,4]", "1"));
  EXPECT_EQ(loop.emitter, "loop");
  EXPECT_THAT(loop.coalesced, ElementsAre(true, true, true, true));
  {
    std::unique_ptr<HloModule> module =
        Parse(VariadicReduce("s32[4000,12,4]", "s32[4000,4]", "1"));
    ASSERT_NE(module, nullptr);
    mlir::MLIRContext context;
    CoalescingOptions options;
    options.device = DefaultGpuDevice();
    absl::StatusOr<CoalescingReport> report = AnalyzeCoalescing(
        *module->entry_computation()->root(), options, &context);
    ASSERT_TRUE(report.ok()) << report.status();
    for (const OperandCoalescing& read : report->operands) {
      if (read.operand >= 2) continue;
      EXPECT_EQ(read.xla_rule.intervals, 1);
      EXPECT_EQ(read.xla_rule.transactions, 12);
      EXPECT_FALSE(read.access.coalesced);
      EXPECT_EQ(read.access.efficiency, 0.5);
    }
  }
  Verdicts row = AnalyzeRoot(VariadicReduce("s32[24,48]", "s32[24]", "1"));
  EXPECT_EQ(row.emitter, "reduction (row)");
  EXPECT_THAT(row.coalesced, ElementsAre(true, true, true, true));
}

// CoalescingTest.Gather: the slices are 4 elements wide (not coalesced);
// the indices are read two at a time (coalesced).
TEST(CoalescingEmittersTest, Gather) {
  Verdicts v = AnalyzeRoot(R"(
HloModule m
fz {
  a = f32[20,50,60] parameter(0)
  i = s32[900,2] parameter(1)
  ROOT g = f32[900,5,6,4] gather(a, i), offset_dims={1,2,3},
    collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1,
    slice_sizes={5,6,4}
}
ENTRY e {
  x = f32[20,50,60] parameter(0)
  y = s32[900,2] parameter(1)
  ROOT f = f32[900,5,6,4] fusion(x, y), kind=kLoop, calls=fz
})");
  EXPECT_THAT(v.coalesced, ElementsAre(false, true));
}

// CoalescingTest.DynamicSlice: the slice is read along its minor
// dimension; the offsets are scalars.
TEST(CoalescingEmittersTest, DynamicSlice) {
  Verdicts v = AnalyzeRoot(R"(
HloModule m
fz {
  a = s32[3,2,300] parameter(0)
  o1 = s32[] parameter(1)
  o2 = s32[] parameter(2)
  o3 = s32[] parameter(3)
  ROOT d = s32[1,2,32] dynamic-slice(a, o1, o2, o3), dynamic_slice_sizes={1,2,32}
}
ENTRY e {
  a = s32[3,2,300] parameter(0)
  b = s32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT f = s32[1,2,32] fusion(a, b, c, d), kind=kLoop, calls=fz
})");
  EXPECT_THAT(v.coalesced, ElementsAre(true, true, true, true));
}

// CoalescingTest.UnusedParameter: an operand the fusion never reads is not
// an uncoalesced read.
TEST(CoalescingEmittersTest, UnusedParameter) {
  Verdicts v = AnalyzeRoot(R"(
HloModule m
fz {
  a = f32[50000] parameter(0)
  b = f32[50000] parameter(1)
  ROOT n = f32[50000] negate(a)
}
ENTRY e {
  x = f32[50000] parameter(0)
  y = f32[50000] parameter(1)
  ROOT f = f32[50000] fusion(x, y), kind=kLoop, calls=fz
})");
  EXPECT_THAT(v.coalesced, ElementsAre(true, true));
}

// CoalescingTest.Param: a concatenate hero of two operands (the concatenate
// emitter; its maps are the loop emitter's here) feeding an elementwise
// root with a third operand: all coalesced.
TEST(CoalescingEmittersTest, ConcatenateOfTwoUnderAnElementwiseRoot) {
  Verdicts v = AnalyzeRoot(R"(
HloModule m
fz {
  a = u32[24,2,640] parameter(0)
  b = u32[24,1,640] parameter(1)
  c = u32[24,1,640] parameter(2)
  cat = u32[24,2,640] concatenate(b, c), dimensions={1}
  ROOT s = u32[24,2,640] shift-left(cat, a)
}
ENTRY e {
  a = u32[24,2,640] parameter(0)
  b = u32[24,1,640] parameter(1)
  c = u32[24,1,640] parameter(2)
  ROOT f = u32[24,2,640] fusion(a, b, c), kind=kLoop, calls=fz
})");
  EXPECT_EQ(v.emitter, "concatenate");
  EXPECT_THAT(v.coalesced, ElementsAre(true, true, true));
}

// An in-place dynamic-update-slice fusion reads the update along its rows
// and never reads the buffer it updates: no read of operand 0 at all
// (XLA's emitter leaves that map Undefined, which its analysis would count
// as uncoalesced).
TEST(CoalescingEmittersTest, InPlaceDynamicUpdateSliceReadsOnlyTheUpdate) {
  std::unique_ptr<HloModule> module = Parse(R"(
HloModule m
fz {
  buf = f32[300,128] parameter(0)
  upd = f32[20,128] parameter(1)
  r = s32[] parameter(2)
  c = s32[] constant(0)
  ROOT d = f32[300,128] dynamic-update-slice(buf, upd, r, c)
}
ENTRY e {
  x = f32[300,128] parameter(0)
  y = f32[20,128] parameter(1)
  z = s32[] parameter(2)
  ROOT f = f32[300,128] fusion(x, y, z), kind=kLoop, calls=fz
})");
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context;
  CoalescingOptions options;
  options.device = DefaultGpuDevice();
  absl::StatusOr<CoalescingReport> report = AnalyzeCoalescing(
      *module->entry_computation()->root(), options, &context);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->emitter, "in-place dynamic-update-slice");
  bool update_read = false;
  for (const OperandCoalescing& read : report->operands) {
    EXPECT_NE(read.operand, 0) << "the updated buffer is read";
    if (read.operand == 1) {
      update_read = true;
      EXPECT_TRUE(read.xla_rule.coalesced);
      EXPECT_TRUE(read.access.coalesced);
      EXPECT_EQ(read.access.bytes_touched, 128);
    }
  }
  EXPECT_TRUE(update_read);
}

// Empty reductions and transposes (a zero-sized dimension) are no
// emitter's work in XLA (the simplifier removes them); here they fall back
// to the loop emitter instead of dividing by zero.
TEST(CoalescingEmittersTest, EmptyKernelsFallBackToTheLoopEmitter) {
  const std::string sum = R"(
HloModule m
s {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
)";
  for (const std::string& body :
       {std::string("p = f32[0,512] parameter(0)\nz = f32[] constant(0)\n"
                    "ROOT r = f32[0] reduce(p, z), dimensions={1}, "
                    "to_apply=s"),
        std::string("p = f32[512,0] parameter(0)\nz = f32[] constant(0)\n"
                    "ROOT r = f32[512] reduce(p, z), dimensions={1}, "
                    "to_apply=s"),
        std::string("p = f32[0,300] parameter(0)\n"
                    "ROOT t = f32[300,0] transpose(p), dimensions={1,0}"),
        std::string("p = bf16[640,0] parameter(0)\n"
                    "ROOT t = bf16[0,640] transpose(p), dimensions={1,0}")}) {
    Verdicts v = AnalyzeRoot(absl::StrCat(sum, "ENTRY e {\n", body, "\n}"));
    EXPECT_EQ(v.emitter, "loop") << body;
  }
}

// The reduction emitter's read reaches the fusion's parameter through the
// producers before the reduce (convert, exponential): bf16[12,512] is read
// with vector 4 (GetVectorSizeForMlir: 16-bit inputs, 32 threads x 4 <=
// 512), so warp 0 at the first step reads elements tx * 4 + v of row 0,
// tx in [0, 31], v in [0, 3]: the walk below, compared element by element.
TEST(CoalescingEmittersTest, FusedReductionReadsThroughItsProducers) {
  std::unique_ptr<HloModule> module = Parse(R"(
HloModule m
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
fz {
  p = bf16[12,512] parameter(0)
  c = f32[12,512] convert(p)
  x = f32[12,512] exponential(c)
  z = f32[] constant(0)
  ROOT r = f32[12] reduce(x, z), dimensions={1}, to_apply=sum
}
ENTRY e {
  a = bf16[12,512] parameter(0)
  ROOT f = f32[12] fusion(a), kind=kInput, calls=fz
})");
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context;
  CoalescingOptions options;
  options.device = DefaultGpuDevice();
  absl::StatusOr<CoalescingReport> report = AnalyzeCoalescing(
      *module->entry_computation()->root(), options, &context);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->emitter, "reduction (row)");
  EXPECT_EQ(report->unroll, 4);
  std::vector<int64_t> walk;
  for (int64_t tx = 0; tx < 32; ++tx) {
    for (int64_t v = 0; v < 4; ++v) walk.push_back(tx * 4 + v);
  }
  ASSERT_EQ(report->operands.size(), 1u);
  const OperandCoalescing& read = report->operands[0];
  EXPECT_EQ(read.operand, 0);
  EXPECT_EQ(read.active_threads, 32);
  EXPECT_EQ(read.access.distinct_elements, static_cast<int64_t>(walk.size()));
  ASSERT_EQ(read.access.byte_ranges.size(), 1u);
  EXPECT_EQ(read.access.byte_ranges[0].begin, walk.front() * 2);
  EXPECT_EQ(read.access.byte_ranges[0].end, (walk.back() + 1) * 2);
  // Each thread's own points, from the map, match the walk's order.
  for (int64_t tx = 0; tx < 32; ++tx) {
    for (int64_t v = 0; v < 4; ++v) {
      std::vector<int64_t> dims(6, 0), symbols;
      dims[0] = tx;
      for (const Interval& b : read.thread_to_offset.GetSymbolBounds()) {
        symbols.push_back(b.lower);
      }
      symbols[read.thread_to_offset.GetRangeVarsCount() - 1] = v;
      std::optional<std::vector<int64_t>> offset =
          read.thread_to_offset.Evaluate(dims, symbols);
      ASSERT_TRUE(offset.has_value());
      EXPECT_EQ((*offset)[0], walk[tx * 4 + v]);
    }
  }
}

// A scatter: the updates and indices are read by the scatter emitter's
// loop (coalesced), the operand where the indices say: not analyzed, with
// the reason (XLA leaves that map Undefined too).
TEST(CoalescingEmittersTest, ScatterReads) {
  std::unique_ptr<HloModule> module = Parse(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
ENTRY e {
  operand = f32[300,64] parameter(0)
  indices = s32[50,1] parameter(1)
  updates = f32[50,1,64] parameter(2)
  ROOT s = f32[300,64] scatter(operand, indices, updates),
    update_window_dims={1,2}, inserted_window_dims={},
    scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
})");
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context;
  CoalescingOptions options;
  options.device = DefaultGpuDevice();
  absl::StatusOr<CoalescingReport> report = AnalyzeCoalescing(
      *module->entry_computation()->root(), options, &context);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->emitter, "scatter");
  ASSERT_EQ(report->operands.size(), 3u);
  EXPECT_FALSE(report->operands[0].analyzed);
  EXPECT_NE(report->operands[0].reason.find("data dependent"),
            std::string::npos);
  for (size_t r = 1; r < 3; ++r) {
    EXPECT_TRUE(report->operands[r].analyzed) << r;
    EXPECT_TRUE(report->operands[r].xla_rule.coalesced) << r;
  }
}

// Two dynamic-update-slice roots updating two buffers with one update: the
// in-place emitter loops over the update once; neither buffer is read.
TEST(CoalescingEmittersTest, TwoInPlaceDynamicUpdateSlices) {
  std::unique_ptr<HloModule> module = Parse(R"(
HloModule m
fz {
  a = f32[96,48] parameter(0)
  b = f32[96,48] parameter(1)
  u = f32[6,48] parameter(2)
  i = s32[] parameter(3)
  z = s32[] constant(0)
  d0 = f32[96,48] dynamic-update-slice(a, u, i, z)
  d1 = f32[96,48] dynamic-update-slice(b, u, i, z)
  ROOT t = (f32[96,48], f32[96,48]) tuple(d0, d1)
}
ENTRY e {
  a = f32[96,48] parameter(0)
  b = f32[96,48] parameter(1)
  u = f32[6,48] parameter(2)
  i = s32[] parameter(3)
  ROOT f = (f32[96,48], f32[96,48]) fusion(a, b, u, i), kind=kLoop, calls=fz
})");
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context;
  CoalescingOptions options;
  options.device = DefaultGpuDevice();
  absl::StatusOr<CoalescingReport> report = AnalyzeCoalescing(
      *module->entry_computation()->root(), options, &context);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->emitter, "in-place dynamic-update-slice");
  EXPECT_EQ(report->grid.blocks[0], 3);  // 288 update elements, 128 threads
  int64_t update_reads = 0;
  for (const OperandCoalescing& read : report->operands) {
    EXPECT_GE(read.operand, 2) << "a buffer updated in place is read";
    if (read.operand == 2) {
      ++update_reads;
      EXPECT_TRUE(read.access.coalesced);
    }
  }
  EXPECT_EQ(update_reads, 2);  // once per root
}

// A dot is a library call: no emitter reads to judge.
TEST(CoalescingEmittersTest, DotIsALibraryCall) {
  std::unique_ptr<HloModule> module = Parse(R"(
HloModule m
ENTRY e {
  a = f32[40,64] parameter(0)
  b = f32[64,24] parameter(1)
  ROOT d = f32[40,24] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  ASSERT_NE(module, nullptr);
  mlir::MLIRContext context;
  CoalescingOptions options;
  options.device = DefaultGpuDevice();
  absl::StatusOr<CoalescingReport> report = AnalyzeCoalescing(
      *module->entry_computation()->root(), options, &context);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->library);
  EXPECT_EQ(report->emitter, "library (cuBLAS)");
  EXPECT_TRUE(report->operands.empty());
}

// XLA's rule itself (EstimateCoalescingViaMemoryTransactionsCount): 32
// floats in one run is 1 transaction of 128 bytes against a lower bound of
// 1; 8 runs of 4 floats are 8 transactions for 1; 40 runs of 12 floats
// (48 bytes) are 40 transactions against ceil(1920 / 128) = 15, and
// 15 > 0.9 x 40 fails; 2 runs of 120 floats are 8 against 8.
TEST(CoalescingEmittersTest, XlaTransactionRule) {
  auto runs = [](int64_t count, int64_t length, int64_t stride) {
    std::vector<int64_t> offsets;
    for (int64_t r = 0; r < count; ++r) {
      for (int64_t i = 0; i < length; ++i) offsets.push_back(r * stride + i);
    }
    return offsets;
  };
  XlaTransactionRule one = SummarizeXlaTransactionRule(runs(1, 32, 0), 32);
  EXPECT_EQ(one.transactions, 1);
  EXPECT_TRUE(one.coalesced);
  XlaTransactionRule eight = SummarizeXlaTransactionRule(runs(8, 4, 40), 32);
  EXPECT_EQ(eight.intervals, 8);
  EXPECT_EQ(eight.transactions, 8);
  EXPECT_EQ(eight.lower_bound, 1);
  EXPECT_FALSE(eight.coalesced);
  XlaTransactionRule forty = SummarizeXlaTransactionRule(runs(40, 12, 20), 32);
  EXPECT_EQ(forty.transactions, 40);
  EXPECT_EQ(forty.lower_bound, 15);
  EXPECT_FALSE(forty.coalesced);
  XlaTransactionRule two = SummarizeXlaTransactionRule(runs(2, 120, 200), 32);
  EXPECT_EQ(two.transactions, 8);
  EXPECT_EQ(two.lower_bound, 8);
  EXPECT_TRUE(two.coalesced);
}

}  // namespace
}  // namespace xla_index
