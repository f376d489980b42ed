#include "xla_index/analysis/coalescing.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlo/evaluator.h"
#include "hlo/literal.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "layout/shape_layout.h"
#include "layout/tiled_layout.h"
#include "mlir/IR/MLIRContext.h"

namespace xla_index {
namespace {

std::unique_ptr<HloModule> Parse(const std::string& text) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? std::move(*module) : nullptr;
}

// The report's read of operand `operand` (map 0).
const OperandCoalescing& ReadOf(const CoalescingReport& report,
                                int64_t operand) {
  for (const OperandCoalescing& read : report.operands) {
    if (read.operand == operand && read.map_index == 0) return read;
  }
  ADD_FAILURE() << "no read of operand " << operand;
  static const OperandCoalescing* none = new OperandCoalescing();
  return *none;
}

// ---- The brute-force simulation ----
//
// Independent of indexing maps: the reference evaluator traces which
// parameter elements each output element reads; the loop emitter's thread
// assignment is written out by hand (thread t of block b, unroll element j
// handles output element (b * T + t) * u + j in row-major order, for the
// row-major outputs used here); TiledLayout::LinearIndex (plain index
// arithmetic, not maps) gives each element's memory position. For reads with
// a loop (a reduction), iteration 0 is the smallest element a thread reads.

struct Simulated {
  int64_t active_threads = 0;
  int64_t distinct_elements = 0;
  int64_t bytes_touched = 0;
  std::vector<int64_t> transactions;  // 32, 64, 128 bytes
};

// The evaluator's trace of the module's entry computation on zeros.
TracedValue Trace(const HloModule& module) {
  const HloComputation& entry = *module.entry_computation();
  std::vector<Literal> arguments;
  for (int64_t k = 0; k < static_cast<int64_t>(entry.parameters().size());
       ++k) {
    arguments.emplace_back(entry.parameter(k)->shape());
  }
  absl::StatusOr<TracedValue> traced = TraceComputation(entry, arguments);
  EXPECT_TRUE(traced.ok()) << traced.status();
  return traced.ok() ? std::move(*traced) : TracedValue{};
}

Simulated Simulate(const HloModule& module, const TracedValue& traced,
                   int64_t parameter, int64_t threads_per_block, int64_t unroll,
                   int64_t block, int64_t warp) {
  const HloComputation& entry = *module.entry_computation();
  const Shape shape = WithDefaultLayout(entry.parameter(parameter)->shape());
  absl::StatusOr<TiledLayout> layout = TiledLayoutOf(shape);
  EXPECT_TRUE(layout.ok()) << layout.status();
  const int64_t bits = BitsPerElement(shape);
  const int64_t n = entry.root()->shape().ElementCount();
  const int64_t threads =
      std::min(threads_per_block, (n + unroll - 1) / unroll);
  std::set<int64_t> elements, bytes;
  Simulated sim;
  for (int64_t t = warp * 32; t < std::min(warp * 32 + 32, threads); ++t) {
    bool active = false;
    for (int64_t j = 0; j < unroll; ++j) {
      int64_t e = (block * threads + t) * unroll + j;
      if (e >= n) continue;
      std::vector<int64_t> read;
      for (const ElementId& id : traced.reads[0][e]) {
        if (id.operand == parameter) read.push_back(id.linear_index);
      }
      if (read.empty()) continue;
      active = true;
      // Row-major linear index -> multi-index -> memory position.
      int64_t linear = read.front();  // iteration 0 (reads are sorted)
      std::vector<int64_t> index(shape.rank());
      for (int64_t d = shape.rank() - 1; d >= 0; --d) {
        index[d] = linear % shape.dimensions(d);
        linear /= shape.dimensions(d);
      }
      int64_t offset = layout->LinearIndex(index);
      elements.insert(offset);
      for (int64_t bit = offset * bits; bit < (offset + 1) * bits; bit += 8) {
        bytes.insert(bit / 8);
      }
    }
    if (active) ++sim.active_threads;
  }
  sim.distinct_elements = elements.size();
  sim.bytes_touched = bytes.size();
  for (int64_t size : {32, 64, 128}) {
    std::set<int64_t> segments;
    for (int64_t byte : bytes) segments.insert(byte / size);
    sim.transactions.push_back(segments.size());
  }
  return sim;
}

// Runs the analysis and checks every number against the simulation.
// `traced` may be given when the caller checks many configurations.
CoalescingReport AnalyzeAndSimulate(const HloModule& module,
                                    CoalescingOptions options,
                                    mlir::MLIRContext* context,
                                    const TracedValue* traced = nullptr) {
  TracedValue own;
  if (traced == nullptr) {
    own = Trace(module);
    traced = &own;
  }
  absl::StatusOr<CoalescingReport> report =
      AnalyzeCoalescing(module, options, context);
  EXPECT_TRUE(report.ok()) << report.status();
  if (!report.ok()) return {};
  for (const OperandCoalescing& read : report->operands) {
    SCOPED_TRACE(read.operand_name);
    EXPECT_TRUE(read.analyzed) << read.reason;
    Simulated sim =
        Simulate(module, *traced, read.operand, options.threads_per_block,
                 options.unroll, options.block, options.warp);
    EXPECT_EQ(read.active_threads, sim.active_threads);
    EXPECT_EQ(read.access.distinct_elements, sim.distinct_elements);
    EXPECT_EQ(read.access.bytes_touched, sim.bytes_touched);
    EXPECT_EQ(read.access.transactions.size(), 3u);
    for (size_t i = 0; i < 3 && i < read.access.transactions.size(); ++i) {
      EXPECT_EQ(read.access.transactions[i].count, sim.transactions[i]);
    }
  }
  return *report;
}

void ExpectTransactions(const OperandCoalescing& read,
                        std::vector<int64_t> counts,
                        std::vector<int64_t> minimums) {
  ASSERT_EQ(read.access.transactions.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(read.access.transactions[i].count, counts[i]) << i;
    EXPECT_EQ(read.access.transactions[i].minimum, minimums[i]) << i;
  }
}

TEST(CoalescingTest, ElementwiseRowMajorIsCoalesced) {
  // 8192 elements, 128 threads per block: 64 blocks. Warp 0 of block 0 is
  // threads 0..31, writing out[0, 0..31] and reading p0[0, 0..31] and
  // p1[0, 0..31]: f32 offsets 0..31, bytes [0, 128). 128 bytes need
  // 4 x 32 B (min 4), 2 x 64 B (min 2), 1 x 128 B (min 1): efficiency 1.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[64,128]{1,0} parameter(0)
    p1 = f32[64,128]{1,0} parameter(1)
    ROOT add = f32[64,128]{1,0} add(p0, p1)
  )");
  ASSERT_NE(module, nullptr);
  CoalescingReport report = AnalyzeAndSimulate(*module, {}, &context);
  ASSERT_EQ(report.operands.size(), 2u);
  EXPECT_EQ(report.grid.threads[0], 128);
  EXPECT_EQ(report.grid.blocks[0], 64);
  for (int64_t k : {0, 1}) {
    const OperandCoalescing& read = ReadOf(report, k);
    EXPECT_EQ(read.active_threads, 32);
    EXPECT_EQ(read.access.bytes_touched, 128);
    EXPECT_EQ(read.access.byte_ranges, (std::vector<ByteRange>{{0, 128}}));
    ExpectTransactions(read, {4, 2, 1}, {4, 2, 1});
    EXPECT_DOUBLE_EQ(read.access.efficiency, 1.0);
    EXPECT_TRUE(read.access.coalesced);
  }
}

TEST(CoalescingTest, ElementwiseUnrolledSecondWarp) {
  // Unroll 4: thread t handles elements 4t..4t+3. Warp 1 is threads
  // 32..63: elements 128..255, i.e. row 1 of f32[64,128]: offsets
  // 128..255, bytes [512, 1024) = 512 bytes: 16 x 32 B, 8 x 64 B,
  // 4 x 128 B, each the minimum.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[64,128]{1,0} parameter(0)
    ROOT e = f32[64,128]{1,0} exponential(p0)
  )");
  ASSERT_NE(module, nullptr);
  CoalescingOptions options;
  options.unroll = 4;
  options.warp = 1;
  CoalescingReport report = AnalyzeAndSimulate(*module, options, &context);
  const OperandCoalescing& read = ReadOf(report, 0);
  EXPECT_EQ(read.access.distinct_elements, 128);
  EXPECT_EQ(read.access.byte_ranges, (std::vector<ByteRange>{{512, 1024}}));
  ExpectTransactions(read, {16, 8, 4}, {16, 8, 4});
  EXPECT_TRUE(read.access.coalesced);
}

TEST(CoalescingTest, TransposeOfMinorDimensionIsNotCoalesced) {
  // out[i, j] = p0[j, i]. Warp 0 writes out[0, 0..31] and reads
  // p0[t, 0] for t = 0..31: offsets 128 t, bytes [512 t, 512 t + 4).
  // 32 separate 4-byte ranges, 128 bytes: every range is its own 32, 64
  // and 128-byte segment, so 32 transactions of each size against minimums
  // 4, 2, 1. Efficiency 4 / 32 = 0.125.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[64,128]{1,0} parameter(0)
    ROOT t = f32[128,64]{1,0} transpose(p0), dimensions={1,0}
  )");
  ASSERT_NE(module, nullptr);
  CoalescingReport report = AnalyzeAndSimulate(*module, {}, &context);
  const OperandCoalescing& read = ReadOf(report, 0);
  EXPECT_EQ(read.access.bytes_touched, 128);
  EXPECT_EQ(read.access.byte_ranges.size(), 32u);
  EXPECT_EQ(read.access.byte_ranges[1], (ByteRange{512, 516}));
  ExpectTransactions(read, {32, 32, 32}, {4, 2, 1});
  EXPECT_DOUBLE_EQ(read.access.efficiency, 0.125);
  EXPECT_FALSE(read.access.coalesced);
}

TEST(CoalescingTest, BroadcastAlongMinorDimensionIsCoalesced) {
  // out[i, j] = p0[j]: warp 0 reads p0[0..31], bytes [0, 128): 4 sectors,
  // the minimum.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[128]{0} parameter(0)
    ROOT b = f32[64,128]{1,0} broadcast(p0), dimensions={1}
  )");
  ASSERT_NE(module, nullptr);
  CoalescingReport report = AnalyzeAndSimulate(*module, {}, &context);
  const OperandCoalescing& read = ReadOf(report, 0);
  EXPECT_EQ(read.access.byte_ranges, (std::vector<ByteRange>{{0, 128}}));
  ExpectTransactions(read, {4, 2, 1}, {4, 2, 1});
  EXPECT_TRUE(read.access.coalesced);
}

TEST(CoalescingTest, BroadcastAlongMajorDimensionReadsOneElement) {
  // out[i, j] = p0[i]: all 32 threads of warp 0 (row 0) read p0[0]: one
  // element, 4 bytes, one transaction of each size, the minimum.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[64]{0} parameter(0)
    ROOT b = f32[64,128]{1,0} broadcast(p0), dimensions={0}
  )");
  ASSERT_NE(module, nullptr);
  CoalescingReport report = AnalyzeAndSimulate(*module, {}, &context);
  const OperandCoalescing& read = ReadOf(report, 0);
  EXPECT_EQ(read.active_threads, 32);
  EXPECT_EQ(read.access.distinct_elements, 1);
  EXPECT_EQ(read.access.bytes_touched, 4);
  ExpectTransactions(read, {1, 1, 1}, {1, 1, 1});
  EXPECT_TRUE(read.access.coalesced);
}

constexpr char kReduceModule[] = R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p0 = f32[64,128]{1,0} parameter(0)
  c = f32[] constant(0)
  ROOT r = f32[$OUT] reduce(p0, c), dimensions={$DIM}, to_apply=add
})";

std::string ReduceModule(const std::string& out, const std::string& dim) {
  std::string text = kReduceModule;
  text.replace(text.find("$OUT"), 4, out);
  text.replace(text.find("$DIM"), 4, dim);
  return text;
}

TEST(CoalescingTest, ColumnReductionInputIsCoalesced) {
  // reduce over dim 0: out[j] = sum_s p0[s, j], 128 outputs, one block of
  // 128 threads. At iteration s = 0, warp 0 reads p0[0, 0..31]: offsets
  // 0..31, bytes [0, 128): 4 sectors, minimum 4. (Each later iteration
  // reads the next row, equally coalesced.)
  mlir::MLIRContext context;
  auto module = Parse(ReduceModule("128", "0"));
  ASSERT_NE(module, nullptr);
  CoalescingReport report = AnalyzeAndSimulate(*module, {}, &context);
  const OperandCoalescing& read = ReadOf(report, 0);
  EXPECT_EQ(read.access.byte_ranges, (std::vector<ByteRange>{{0, 128}}));
  ExpectTransactions(read, {4, 2, 1}, {4, 2, 1});
  EXPECT_TRUE(read.access.coalesced);
}

TEST(CoalescingTest, RowReductionInputIsNotCoalescedByTheLoopEmitter) {
  // reduce over dim 1: out[i] = sum_s p0[i, s], 64 threads. At s = 0 thread
  // t reads p0[t, 0], offset 128 t: 32 ranges of 4 bytes, 512 bytes apart:
  // 32 transactions of every size against 4, 2, 1 (why XLA has a separate
  // row-reduction emitter).
  mlir::MLIRContext context;
  auto module = Parse(ReduceModule("64", "1"));
  ASSERT_NE(module, nullptr);
  CoalescingReport report = AnalyzeAndSimulate(*module, {}, &context);
  const OperandCoalescing& read = ReadOf(report, 0);
  ExpectTransactions(read, {32, 32, 32}, {4, 2, 1});
  EXPECT_FALSE(read.access.coalesced);
}

// A loop fusion whose reduce covers `rows` x 48 elements of a broadcast
// of 60 permuted values: the reduced dimension is long, the values few.
std::string WideReduceModule(int64_t rows) {
  const int64_t m = rows * 48 / 12;
  return absl::StrCat(R"(
HloModule wide_reduce
plus {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
fused_wide {
  q = f32[3,5,4] parameter(0)
  t = f32[4,3,5] transpose(q), dimensions={2,0,1}
  flat = f32[60] reshape(t)
  wide = f32[)",
                      rows, R"(,60] broadcast(flat), dimensions={1}
  cut = f32[)",
                      rows, R"(,48] slice(wide), slice={[0:)", rows,
                      R"(], [7:55]}
  r3 = f32[2,)",
                      m, R"(,6] reshape(cut)
  z = f32[] constant(0)
  red = f32[6] reduce(r3, z), dimensions={0,1}, to_apply=plus
  ROOT out = f32[6] copy(red)
}
ENTRY main {
  x = f32[3,5,4] parameter(0)
  ROOT f = f32[6] fusion(x), kind=kLoop, calls=fused_wide
})");
}

// The XLA rule of `read` by brute force: every warp thread and every value
// of the varied range variable (the innermost with more than one value),
// the others at their lower bound, through the read's own map.
XlaTransactionRule BruteForceXlaRule(const OperandCoalescing& read,
                                     const CoalescingReport& report) {
  const IndexingMap& map = read.thread_to_offset;
  std::vector<Interval> bounds = map.GetSymbolBounds();
  int64_t varied = -1;
  for (int64_t s = 0; s < map.GetRangeVarsCount(); ++s) {
    if (bounds[s].upper > bounds[s].lower) varied = s;
  }
  std::vector<int64_t> symbols;
  for (Interval b : bounds) symbols.push_back(b.lower);
  std::vector<int64_t> offsets;
  for (int64_t t = report.first_thread; t <= report.last_thread; ++t) {
    const std::vector<int64_t> dims = {t, 0, 0, report.options.block, 0, 0};
    for (int64_t v = bounds[varied].lower; v <= bounds[varied].upper; ++v) {
      symbols[varied] = v;
      if (!map.ConstraintsSatisfied(dims, symbols)) continue;
      std::optional<std::vector<int64_t>> r = map.Evaluate(dims, symbols);
      if (r) offsets.push_back((*r)[0]);
    }
  }
  return SummarizeXlaTransactionRule(offsets, read.bits_per_element);
}

// The rule the analysis decided for `read` is BruteForceXlaRule's.
void ExpectRuleOfBruteForce(const OperandCoalescing& read,
                            const CoalescingReport& report) {
  const XlaTransactionRule truth = BruteForceXlaRule(read, report);
  EXPECT_EQ(read.xla_rule.intervals, truth.intervals);
  EXPECT_EQ(read.xla_rule.transactions, truth.transactions);
  EXPECT_EQ(read.xla_rule.lower_bound, truth.lower_bound);
  EXPECT_EQ(read.xla_rule.coalesced, truth.coalesced);
}

TEST(CoalescingTest, LongReductionSampleWalksOnePeriod) {
  // The reduced dimension of r3 (m iterations) moves the column
  // (d0 + 6 s) mod 48, which repeats every 8 iterations: XLA's sample of
  // the 6 threads costs 6 x 8 evaluations at any length (the walk of every
  // iteration cost 6 x 400,000 at 100,000 rows). At 200 rows (m = 800) the
  // rule is checked against a brute-force walk of every iteration; at
  // 100,000 rows the offsets read are the same 48 columns' sources, so the
  // rule is the same.
  mlir::MLIRContext context;
  std::optional<XlaTransactionRule> small_rule;
  for (int64_t rows : {200, 100000}) {
    auto module = Parse(WideReduceModule(rows));
    ASSERT_NE(module, nullptr);
    absl::StatusOr<CoalescingReport> report =
        AnalyzeCoalescing(*module, CoalescingOptions{}, &context);
    ASSERT_TRUE(report.ok()) << report.status();
    ASSERT_EQ(report->operands.size(), 1);
    const OperandCoalescing& read = report->operands[0];
    ASSERT_TRUE(read.xla_rule.decided);
    EXPECT_EQ(read.xla_rule.points_evaluated, 6 * 8);
    if (rows == 200) {
      ExpectRuleOfBruteForce(read, *report);
      small_rule = read.xla_rule;
    } else {
      ASSERT_TRUE(small_rule.has_value());
      EXPECT_EQ(read.xla_rule.intervals, small_rule->intervals);
      EXPECT_EQ(read.xla_rule.transactions, small_rule->transactions);
      EXPECT_EQ(read.xla_rule.coalesced, small_rule->coalesced);
    }
  }
}

// A column reduction of f32[2, rows, 6] over dimensions 0 and 1.
std::string TallColumnsModule(int64_t rows) {
  return absl::StrCat(R"(
HloModule tall_columns
plus {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
ENTRY main {
  p = f32[2,)",
                      rows, R"(,6] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[6] reduce(p, z), dimensions={0,1}, to_apply=plus
})");
}

TEST(CoalescingTest, ColumnReductionSampleIsCountedPerResidue) {
  // Thread t reads offsets 6 s + t (s the row, the first slab): a step of
  // 6 per iteration. The 6 threads' offsets are the 6 residues of every
  // block of 6, so at 300,000 rows XLA's sample is the one interval
  // [0, 1,800,000): 56,250 transactions of 128 bytes, lower bound 56,250,
  // coalesced; decided from 6 evaluations and 6 residues, not 1.8 million.
  // At 500 rows the same rule is checked against a brute-force walk.
  mlir::MLIRContext context;
  for (int64_t rows : {500, 300000}) {
    auto module = Parse(TallColumnsModule(rows));
    ASSERT_NE(module, nullptr);
    absl::StatusOr<CoalescingReport> report =
        AnalyzeCoalescing(*module, CoalescingOptions{}, &context);
    ASSERT_TRUE(report.ok()) << report.status();
    ASSERT_EQ(report->operands.size(), 1);
    const OperandCoalescing& read = report->operands[0];
    ASSERT_TRUE(read.xla_rule.decided);
    EXPECT_EQ(read.xla_rule.points_evaluated, 6 + 6);
    if (rows == 500) {
      ExpectRuleOfBruteForce(read, *report);
    } else {
      EXPECT_EQ(read.xla_rule.intervals, 1);
      EXPECT_EQ(read.xla_rule.transactions, 1800000 * 4 / 128);
      EXPECT_EQ(read.xla_rule.lower_bound, 1800000 * 4 / 128);
      EXPECT_TRUE(read.xla_rule.coalesced);
    }
  }
}

TEST(CoalescingTest, SampleBeyondTheBudgetIsNotDecided) {
  // With a budget of 4 evaluations the 6 threads cannot be sampled: the rule
  // says it is not decided (never a guessed verdict), in the text and the
  // JSON.
  mlir::MLIRContext context;
  auto module = Parse(TallColumnsModule(300000));
  ASSERT_NE(module, nullptr);
  CoalescingOptions options;
  options.max_sample_points = 4;
  absl::StatusOr<CoalescingReport> report =
      AnalyzeCoalescing(*module, options, &context);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->operands.size(), 1);
  const OperandCoalescing& read = report->operands[0];
  EXPECT_FALSE(read.xla_rule.decided);
  EXPECT_EQ(read.xla_rule.points_evaluated, 0);
  EXPECT_TRUE(absl::StrContains(CoalescingReportToText(*report),
                                "xla 128-byte rule: not decided"));
  EXPECT_TRUE(absl::StrContains(CoalescingReportToJson(*report),
                                "\"xla_rule\": {\"decided\": false"));
}

TEST(CoalescingTest, StridedSliceStride2IsHalfEfficient) {
  // out[i, j] = p0[i, 2 j]: warp 0 reads p0[0, 0], p0[0, 2], ..., p0[0, 62]:
  // offsets 0, 2, ..., 62, bytes [8k, 8k + 4) for k = 0..31, 128 bytes
  // spread over [0, 252). 32-byte sectors 0..7: 8 against the minimum 4 ->
  // efficiency 0.5; 64 B: 4 (min 2); 128 B: 2 (min 1).
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[64,256]{1,0} parameter(0)
    ROOT s = f32[64,128]{1,0} slice(p0), slice={[0:64:1], [0:256:2]}
  )");
  ASSERT_NE(module, nullptr);
  CoalescingReport report = AnalyzeAndSimulate(*module, {}, &context);
  const OperandCoalescing& read = ReadOf(report, 0);
  EXPECT_EQ(read.access.bytes_touched, 128);
  EXPECT_EQ(read.access.byte_ranges.size(), 32u);
  EXPECT_EQ(read.access.byte_ranges.back(), (ByteRange{248, 252}));
  ExpectTransactions(read, {8, 4, 2}, {4, 2, 1});
  EXPECT_DOUBLE_EQ(read.access.efficiency, 0.5);
  EXPECT_FALSE(read.access.coalesced);
}

TEST(CoalescingTest, TiledLayoutReadInRowOrderWithinATileRow) {
  // f32[16,64]{1,0:T(8,128)}: the minor dim 64 is padded to 128 in each
  // (8,128) tile, so element (r, c) is at offset (r / 8) * 1024 +
  // (r mod 8) * 128 + c. Unroll 4: warp 0 (threads 0..31) reads elements
  // 0..127 in row order = rows 0 and 1, columns 0..63: offsets 0..63 and
  // 128..191, bytes [0, 256) and [512, 768), 512 bytes in 2 ranges.
  // Both ranges are 256-byte aligned: 16 x 32 B (min 16), 8 x 64 B (min 8),
  // 4 x 128 B (min 4); coalesced although memory skips the padding.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[16,64]{1,0:T(8,128)} parameter(0)
    ROOT n = f32[16,64]{1,0} negate(p0)
  )");
  ASSERT_NE(module, nullptr);
  CoalescingOptions options;
  options.unroll = 4;
  CoalescingReport report = AnalyzeAndSimulate(*module, options, &context);
  const OperandCoalescing& read = ReadOf(report, 0);
  EXPECT_EQ(read.access.byte_ranges,
            (std::vector<ByteRange>{{0, 256}, {512, 768}}));
  ExpectTransactions(read, {16, 8, 4}, {16, 8, 4});
  EXPECT_TRUE(read.access.coalesced);
}

TEST(CoalescingTest, TiledLayoutNarrowRowsFillSectorsButNotLines) {
  // f32[256,8]{1,0:T(8,128)}: each row of 8 floats (32 bytes) sits at the
  // start of a 128-float (512-byte) tile row: (r, c) -> (r / 8) * 1024 +
  // (r mod 8) * 128 + c. Warp 0 reads elements 0..31 = rows 0..3: offsets
  // 0..7, 128..135, 256..263, 384..391, bytes [512 r, 512 r + 32) for
  // r = 0..3. 4 sectors (min 4, efficiency 1, coalesced at sector
  // granularity) but 4 x 64 B (min 2) and 4 x 128 B (min 1).
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[256,8]{1,0:T(8,128)} parameter(0)
    ROOT n = f32[256,8]{1,0} negate(p0)
  )");
  ASSERT_NE(module, nullptr);
  CoalescingReport report = AnalyzeAndSimulate(*module, {}, &context);
  const OperandCoalescing& read = ReadOf(report, 0);
  EXPECT_EQ(read.access.byte_ranges.size(), 4u);
  EXPECT_EQ(read.access.byte_ranges[3], (ByteRange{1536, 1568}));
  ExpectTransactions(read, {4, 4, 4}, {4, 2, 1});
  EXPECT_TRUE(read.access.coalesced);
}

TEST(CoalescingTest, FusionInstructionIsAnalyzedThroughItsComputation) {
  // The elementwise case written as a fusion: the same numbers.
  mlir::MLIRContext context;
  auto module = Parse(R"(
HloModule m
fused {
  a = f32[64,128]{1,0} parameter(0)
  ROOT n = f32[64,128]{1,0} negate(a)
}
ENTRY e {
  p0 = f32[64,128]{1,0} parameter(0)
  ROOT f = f32[64,128]{1,0} fusion(p0), kind=kLoop, calls=fused
})");
  ASSERT_NE(module, nullptr);
  absl::StatusOr<CoalescingReport> report =
      AnalyzeCoalescing(*module, {}, &context);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->operands.size(), 1u);
  EXPECT_EQ(report->operands[0].operand_name, "p0");
  ExpectTransactions(report->operands[0], {4, 2, 1}, {4, 2, 1});
}

TEST(CoalescingTest, ConcatenateOperandNotReadByTheWarp) {
  // out = concat(a, b) of two f32[32] vectors: 64 threads; warp 0 (threads
  // 0..31) writes out[0..31] = a[0..31] (128 bytes, 4 sectors) and reads
  // nothing of b; warp 1 reads b[0..31] and nothing of a.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    a = f32[32]{0} parameter(0)
    b = f32[32]{0} parameter(1)
    ROOT c = f32[64]{0} concatenate(a, b), dimensions={0}
  )");
  ASSERT_NE(module, nullptr);
  CoalescingReport report = AnalyzeAndSimulate(*module, {}, &context);
  ExpectTransactions(ReadOf(report, 0), {4, 2, 1}, {4, 2, 1});
  EXPECT_EQ(CoalescingVerdict(ReadOf(report, 0)), "coalesced");
  EXPECT_EQ(ReadOf(report, 1).active_threads, 0);
  EXPECT_EQ(CoalescingVerdict(ReadOf(report, 1)), "not read by this warp");
  CoalescingOptions options;
  options.warp = 1;
  report = AnalyzeAndSimulate(*module, options, &context);
  EXPECT_EQ(CoalescingVerdict(ReadOf(report, 0)), "not read by this warp");
  EXPECT_EQ(ReadOf(report, 1).access.byte_ranges,
            (std::vector<ByteRange>{{0, 128}}));
  EXPECT_TRUE(absl::StrContains(CoalescingReportToText(report),
                                "verdict: not read by this warp"));
}

TEST(CoalescingTest, TextAndJson) {
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[64,256]{1,0} parameter(0)
    ROOT s = f32[64,128]{1,0} slice(p0), slice={[0:64:1], [0:256:2]}
  )");
  ASSERT_NE(module, nullptr);
  absl::StatusOr<CoalescingReport> report =
      AnalyzeCoalescing(*module, {}, &context);
  ASSERT_TRUE(report.ok());
  std::string text = CoalescingReportToText(*report);
  EXPECT_TRUE(absl::StrContains(text,
                                "transactions: 32B 8 (min 4) 64B 4 "
                                "(min 2) 128B 2 (min 1)"))
      << text;
  EXPECT_TRUE(absl::StrContains(text, "efficiency: 0.5")) << text;
  EXPECT_TRUE(absl::StrContains(text, "verdict: not coalesced")) << text;
  std::string json = CoalescingReportToJson(*report);
  EXPECT_EQ(json.find('\n'), std::string::npos);
  EXPECT_TRUE(
      absl::StrContains(json, "{\"size\": 32, \"count\": 8, \"minimum\": 4}"))
      << json;
  EXPECT_TRUE(absl::StrContains(
      json, "\"coalesced\": false, \"verdict\": \"not coalesced\", "))
      << json;
  // XLA's rule on the same 32 one-element intervals: 32 transactions of
  // 128 bytes against a lower bound of ceil(128 / 128) = 1, decided from
  // one evaluation per thread.
  EXPECT_TRUE(absl::StrContains(json,
                                "\"xla_rule\": {\"decided\": true, "
                                "\"points_evaluated\": 32, "
                                "\"intervals\": 32, "
                                "\"transactions\": 32, \"lower_bound\": 1, "
                                "\"coalesced\": false}"))
      << json;
  EXPECT_TRUE(absl::StrContains(json, "\"efficiency\": 0.5,")) << json;
}

TEST(CoalescingTest, RejectsWarpOutsideTheGrid) {
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[100]{0} parameter(0)
    ROOT n = f32[100]{0} negate(p0)
  )");
  ASSERT_NE(module, nullptr);
  CoalescingOptions options;
  options.warp = 4;  // 100 threads: warps 0..3
  EXPECT_FALSE(AnalyzeCoalescing(*module, options, &context).ok());
  options.warp = 0;
  options.block = 1;  // one block
  EXPECT_FALSE(AnalyzeCoalescing(*module, options, &context).ok());
  options.block = 0;
  options.unroll = 0;
  EXPECT_FALSE(AnalyzeCoalescing(*module, options, &context).ok());
}

TEST(CoalescingTest, LaunchConfigurationsMatchTheSimulation) {
  // Every case above, and a few more shapes (odd sizes leave idle threads,
  // a column-major operand, a bf16 tiled layout, a dynamic-slice at its
  // representative offset 0), for several block sizes, unroll factors,
  // blocks and warps: every number must equal the brute-force simulation.
  const std::vector<std::string> modules = {
      "p0 = f32[64,128]{1,0} parameter(0)\n"
      "ROOT t = f32[128,64]{1,0} transpose(p0), dimensions={1,0}",
      "p0 = f32[128]{0} parameter(0)\n"
      "ROOT b = f32[64,128]{1,0} broadcast(p0), dimensions={1}",
      "p0 = f32[64,256]{1,0} parameter(0)\n"
      "ROOT s = f32[64,128]{1,0} slice(p0), slice={[0:64:1], [0:256:2]}",
      "p0 = f32[16,64]{1,0:T(8,128)} parameter(0)\n"
      "ROOT n = f32[16,64]{1,0} negate(p0)",
      "p0 = bf16[24,100]{1,0:T(8,128)(2,1)} parameter(0)\n"
      "ROOT n = bf16[24,100]{1,0} negate(p0)",
      "p0 = f32[37,29]{0,1} parameter(0)\n"
      "p1 = f32[37,29]{1,0} parameter(1)\n"
      "ROOT a = f32[37,29]{1,0} add(p0, p1)",
      "p0 = f32[10,20,50]{2,1,0} parameter(0)\n"
      "ROOT s = f32[5,3,25]{2,1,0} slice(p0), "
      "slice={[5:10:1], [3:20:7], [0:50:2]}",
      "src = f32[300]{0} parameter(0)\n"
      "of = s32[] parameter(1)\n"
      "ROOT ds = f32[200]{0} dynamic-slice(src, of), "
      "dynamic_slice_sizes={200}",
      ReduceModule("128", "0"),
      ReduceModule("64", "1"),
  };
  int64_t checked = 0;
  for (const std::string& text : modules) {
    SCOPED_TRACE(text);
    auto module = Parse(text);
    ASSERT_NE(module, nullptr);
    mlir::MLIRContext context;
    TracedValue traced = Trace(*module);
    for (int64_t threads : {32, 64, 128}) {
      for (int64_t unroll : {1, 2, 3, 4}) {
        CoalescingOptions options;
        options.threads_per_block = threads;
        options.unroll = unroll;
        absl::StatusOr<CoalescingReport> probe =
            AnalyzeCoalescing(*module, options, &context);
        ASSERT_TRUE(probe.ok()) << probe.status();
        const int64_t blocks = probe->grid.blocks[0];
        const int64_t warps = (probe->grid.threads[0] + 31) / 32;
        for (int64_t block : {int64_t{0}, blocks / 2, blocks - 1}) {
          for (int64_t warp : {int64_t{0}, warps - 1}) {
            SCOPED_TRACE(testing::Message()
                         << "threads " << threads << " unroll " << unroll
                         << " block " << block << " warp " << warp);
            options.block = block;
            options.warp = warp;
            AnalyzeAndSimulate(*module, options, &context, &traced);
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_EQ(checked, 10 * 3 * 4 * 3 * 2);
}

TEST(SummarizeWarpAccessTest, PackedFourBitElementsShareBytes) {
  // s4 elements 0..63: bits [0, 256), bytes [0, 32): one sector.
  std::vector<int64_t> offsets;
  for (int64_t i = 0; i < 64; ++i) offsets.push_back(i);
  WarpMemoryAccess access = SummarizeWarpAccess(offsets, 4);
  EXPECT_EQ(access.bytes_touched, 32);
  EXPECT_EQ(access.byte_ranges, (std::vector<ByteRange>{{0, 32}}));
  EXPECT_EQ(access.transactions[0].count, 1);
}

TEST(SummarizeWarpAccessTest, MisalignedContiguousRunIsCoalesced) {
  // f32 offsets 1..32: bytes [4, 132), 128 bytes over sectors 0..4: 5
  // against a minimum of 4 (efficiency 0.8), but one contiguous range, so
  // the extra sector is alignment only: coalesced.
  std::vector<int64_t> offsets;
  for (int64_t i = 1; i <= 32; ++i) offsets.push_back(i);
  WarpMemoryAccess access = SummarizeWarpAccess(offsets, 32);
  EXPECT_EQ(access.transactions[0].count, 5);
  EXPECT_EQ(access.transactions[0].minimum, 4);
  EXPECT_DOUBLE_EQ(access.efficiency, 0.8);
  EXPECT_TRUE(access.coalesced);
}

TEST(SummarizeWarpAccessTest, NothingRead) {
  WarpMemoryAccess access = SummarizeWarpAccess({}, 32);
  EXPECT_EQ(access.bytes_touched, 0);
  EXPECT_EQ(access.transactions[0].count, 0);
  EXPECT_TRUE(access.coalesced);
}

}  // namespace
}  // namespace xla_index
