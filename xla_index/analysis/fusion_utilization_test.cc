#include "xla_index/analysis/fusion_utilization.h"

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "hlo/evaluator.h"
#include "hlo/literal.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/utilization_brute_force.h"

namespace xla_index {
namespace {

std::unique_ptr<HloModule> Parse(const std::string& text) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? std::move(*module) : nullptr;
}

UtilizationReport Analyze(const HloModule& module, mlir::MLIRContext* context) {
  absl::StatusOr<UtilizationReport> report =
      AnalyzeUtilization(module, context);
  EXPECT_TRUE(report.ok()) << report.status();
  return report.ok() ? *report : UtilizationReport{};
}

// Brute force, independent of maps: the reference evaluator's trace of the
// parameter elements each output element reads. elements read = the union
// over all outputs, reads = the sum of the per-output set sizes.
std::pair<int64_t, int64_t> TracedCounts(const HloModule& module,
                                         int64_t parameter) {
  const HloComputation& entry = *module.entry_computation();
  std::vector<Literal> arguments;
  for (size_t k = 0; k < entry.parameters().size(); ++k) {
    arguments.emplace_back(entry.parameter(k)->shape());
  }
  absl::StatusOr<TracedValue> traced = TraceComputation(entry, arguments);
  EXPECT_TRUE(traced.ok()) << traced.status();
  if (!traced.ok()) return {-1, -1};
  std::set<int64_t> elements;
  int64_t reads = 0;
  for (const ReadSet& set : traced->reads[0]) {
    for (const ElementId& id : set) {
      if (id.operand != parameter) continue;
      elements.insert(id.linear_index);
      ++reads;
    }
  }
  return {static_cast<int64_t>(elements.size()), reads};
}

void ExpectCounts(const FusionOperandUtilization& u, int64_t elements,
                  int64_t elements_read, int64_t reads, bool exact = true) {
  SCOPED_TRACE(u.name);
  EXPECT_EQ(u.counts.element_count, elements);
  EXPECT_EQ(u.counts.elements_read, elements_read);
  EXPECT_EQ(u.counts.reads, reads);
  EXPECT_EQ(u.counts.exact, exact);
}

void ExpectMatchesTrace(const HloModule& module,
                        const FusionOperandUtilization& u) {
  auto [elements, reads] = TracedCounts(module, u.operand);
  EXPECT_EQ(u.counts.elements_read, elements) << u.name;
  EXPECT_EQ(u.counts.reads, reads) << u.name;
}

TEST(FusionUtilizationTest, BroadcastReadsEachElementManyTimes) {
  // The broadcast of XLA's indexing-analysis documentation: out[i, j, k] =
  // p0[j]. All 20 elements are read; each by the 10 x 30 = 300 outputs with
  // that j: 6000 reads, 300 each.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[20] parameter(0)
    ROOT bc0 = f32[10, 20, 30] broadcast(p0), dimensions={1}
  )");
  ASSERT_NE(module, nullptr);
  UtilizationReport report = Analyze(*module, &context);
  ASSERT_EQ(report.operands.size(), 1u);
  ExpectCounts(report.operands[0], 20, 20, 6000);
  EXPECT_DOUBLE_EQ(report.operands[0].counts.Fraction(), 1.0);
  EXPECT_DOUBLE_EQ(report.operands[0].counts.AverageReads(), 300.0);
  ExpectMatchesTrace(*module, report.operands[0]);
}

TEST(FusionUtilizationTest, SliceReadsPart) {
  // The slice of XLA's indexing-analysis documentation: rows 5..9 (5), columns
  // 3, 10, 17 (3), every other of 50 (25): 5 * 3 * 25 = 375 of 10 * 20 * 50 =
  // 10000 elements, 0.0375, each read once.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[10, 20, 50] parameter(0)
    ROOT slice = f32[5, 3, 25] slice(f32[10, 20, 50] p0),
      slice={[5:10:1], [3:20:7], [0:50:2]}
  )");
  ASSERT_NE(module, nullptr);
  UtilizationReport report = Analyze(*module, &context);
  ASSERT_EQ(report.operands.size(), 1u);
  ExpectCounts(report.operands[0], 10000, 375, 375);
  EXPECT_DOUBLE_EQ(report.operands[0].counts.Fraction(), 0.0375);
  EXPECT_DOUBLE_EQ(report.operands[0].counts.AverageReads(), 1.0);
  ExpectMatchesTrace(*module, report.operands[0]);
}

TEST(FusionUtilizationTest, ReduceReadsAllOnce) {
  // out[j] = max over s of p0[s, j]: each of the 256 * 10 = 2560 inputs is
  // read once (by output j); the init scalar by each of the 10 outputs.
  mlir::MLIRContext context;
  auto module = Parse(R"(
HloModule m
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY e {
  p0 = f32[256,10] parameter(0)
  init = f32[] parameter(1)
  ROOT r = f32[10] reduce(p0, init), dimensions={0}, to_apply=max
})");
  ASSERT_NE(module, nullptr);
  UtilizationReport report = Analyze(*module, &context);
  ASSERT_EQ(report.operands.size(), 2u);
  ExpectCounts(report.operands[0], 2560, 2560, 2560);
  EXPECT_DOUBLE_EQ(report.operands[0].counts.AverageReads(), 1.0);
  ExpectCounts(report.operands[1], 1, 1, 10);
  ExpectMatchesTrace(*module, report.operands[0]);
  ExpectMatchesTrace(*module, report.operands[1]);
}

TEST(FusionUtilizationTest, DotReadsRowsAndColumns) {
  // out[i, j] = sum_k lhs[i, k] * rhs[k, j], 4 x 6 outputs, k in [0, 7].
  // lhs: all 32 elements, 24 * 8 = 192 reads, each by the 6 outputs of its
  // row: 6 per element. rhs: all 48, 192 reads, 4 per element.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    lhs = f32[4,8] parameter(0)
    rhs = f32[8,6] parameter(1)
    ROOT dot = f32[4,6] dot(lhs, rhs), lhs_contracting_dims={1},
      rhs_contracting_dims={0}
  )");
  ASSERT_NE(module, nullptr);
  UtilizationReport report = Analyze(*module, &context);
  ASSERT_EQ(report.operands.size(), 2u);
  ExpectCounts(report.operands[0], 32, 32, 192);
  EXPECT_DOUBLE_EQ(report.operands[0].counts.AverageReads(), 6.0);
  ExpectCounts(report.operands[1], 48, 48, 192);
  EXPECT_DOUBLE_EQ(report.operands[1].counts.AverageReads(), 4.0);
  ExpectMatchesTrace(*module, report.operands[0]);
  ExpectMatchesTrace(*module, report.operands[1]);
}

TEST(FusionUtilizationTest, ConstrainedMapIsEnumerated) {
  // The pad of XLA's indexing-analysis documentation: p0 (4 x 4) lands on rows
  // 1, 3, 5, 7 and columns 4..7
  // ((d0 - 1) mod 2 == 0 is a constraint, so the map is enumerated): all
  // 16 elements once. The padding value's map is (d0, d1) -> () over all
  // 12 * 16 outputs: 1 element, 192 reads (the map's over-approximation:
  // the 16 outputs that copy p0 do not need it).
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[4, 4] parameter(0)
    p1 = f32[] parameter(1)
    ROOT pad = f32[12, 16] pad(p0, p1), padding=1_4_1x4_8_0
  )");
  ASSERT_NE(module, nullptr);
  UtilizationReport report = Analyze(*module, &context);
  ASSERT_EQ(report.operands.size(), 2u);
  ExpectCounts(report.operands[0], 16, 16, 16);
  ExpectMatchesTrace(*module, report.operands[0]);
  ExpectCounts(report.operands[1], 1, 1, 192);
}

TEST(FusionUtilizationTest, TwoMapsCountReadsPerMap) {
  // XLA's indexing-analysis documentation's p0 + transpose(p0) on f32[4, 4]:
  // maps (d0, d1) -> (d0, d1) and (d0, d1) -> (d1, d0); 16 elements, 16 reads
  // per map = 32, 2 per element. (On the diagonal both maps name the same
  // element: the kernel loads it twice, so the count is per map; the
  // evaluator's trace, a set per output, would say 28.)
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[4, 4] parameter(0)
    t = f32[4, 4] transpose(p0), dimensions={1, 0}
    ROOT a0 = f32[4, 4] add(p0, t)
  )");
  ASSERT_NE(module, nullptr);
  UtilizationReport report = Analyze(*module, &context);
  ASSERT_EQ(report.operands.size(), 1u);
  EXPECT_EQ(report.operands[0].maps.size(), 2);
  ExpectCounts(report.operands[0], 16, 16, 32);
  EXPECT_DOUBLE_EQ(report.operands[0].counts.AverageReads(), 2.0);
}

TEST(FusionUtilizationTest, UnionOfTwoPartialMaps) {
  // out[i] = p0[i] + p0[i + 8], i < 4: maps (d0) -> (d0) and
  // (d0) -> (d0 + 8) read elements 0..3 and 8..11: 8 of 16 (0.5), 8 reads,
  // once each. The union is counted point by point.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[16] parameter(0)
    a = f32[4] slice(p0), slice={[0:4]}
    b = f32[4] slice(p0), slice={[8:12]}
    ROOT s = f32[4] add(a, b)
  )");
  ASSERT_NE(module, nullptr);
  UtilizationReport report = Analyze(*module, &context);
  ASSERT_EQ(report.operands.size(), 1u);
  EXPECT_EQ(report.operands[0].maps.size(), 2);
  ExpectCounts(report.operands[0], 16, 8, 8);
  EXPECT_DOUBLE_EQ(report.operands[0].counts.Fraction(), 0.5);
  ExpectMatchesTrace(*module, report.operands[0]);
}

TEST(FusionUtilizationTest, LargeSeparableShapesStayExact) {
  // f32[1024] broadcast to f32[4096, 1024]: 1024 elements, 4096 * 1024 =
  // 4194304 reads, 4096 each; counted per result, without enumerating the
  // 4M outputs.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[1024] parameter(0)
    ROOT b = f32[4096, 1024] broadcast(p0), dimensions={1}
  )");
  ASSERT_NE(module, nullptr);
  absl::StatusOr<UtilizationReport> report =
      AnalyzeUtilization(*module, &context, /*max_points=*/1 << 16);
  ASSERT_TRUE(report.ok());
  ExpectCounts(report->operands[0], 1024, 1024, 4194304);
  EXPECT_DOUBLE_EQ(report->operands[0].counts.AverageReads(), 4096.0);
}

TEST(FusionUtilizationTest, HugeTransposeIsCountedWithoutEnumeration) {
  // f32[100000000000, 4] transposed: each of the 4e11 elements once; each
  // result is a bare variable, counted from its interval.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[100000000000,4] parameter(0)
    ROOT t = f32[4,100000000000] transpose(p0), dimensions={1,0}
  )");
  ASSERT_NE(module, nullptr);
  UtilizationReport report = Analyze(*module, &context);
  ExpectCounts(report.operands[0], 400000000000, 400000000000, 400000000000);
}

TEST(FusionUtilizationTest, SoftmaxFusionThroughFusionInstruction) {
  // Softmax over the minor dim of f32[2, 8]: p0 is read by the max
  // reduction (2 x 8 reads feeding each of the 16 outputs through the
  // broadcast: (d0, d1)[s0] -> (d0, s0), 16 * 8 = 128 reads), by the
  // subtract ((d0, d1) -> (d0, d1), 16 reads) and by the sum's
  // exponential chain ((d0, d1)[s0] -> (d0, s0) again, the same map). Two
  // distinct maps: 128 + 16 = 144 reads of 16 elements, 9 each.
  mlir::MLIRContext context;
  auto module = Parse(R"(
HloModule softmax
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
fused {
  p0 = f32[2,8] parameter(0)
  ninf = f32[] constant(-inf)
  mx = f32[2] reduce(p0, ninf), dimensions={1}, to_apply=max
  mxb = f32[2,8] broadcast(mx), dimensions={0}
  sub = f32[2,8] subtract(p0, mxb)
  ex = f32[2,8] exponential(sub)
  zero = f32[] constant(0)
  sm = f32[2] reduce(ex, zero), dimensions={1}, to_apply=add
  smb = f32[2,8] broadcast(sm), dimensions={0}
  ROOT div = f32[2,8] divide(ex, smb)
}
ENTRY e {
  x = f32[2,8] parameter(0)
  ROOT f = f32[2,8] fusion(x), kind=kCustom, calls=fused
})");
  ASSERT_NE(module, nullptr);
  UtilizationReport report = Analyze(*module, &context);
  ASSERT_EQ(report.operands.size(), 1u);
  EXPECT_EQ(report.operands[0].name, "x");
  EXPECT_EQ(report.operands[0].maps.size(), 2);
  ExpectCounts(report.operands[0], 16, 16, 144);
}

TEST(FusionUtilizationTest, DynamicSliceIsNotExact) {
  // The offset is a runtime value: which 4 of the 16 elements are read is
  // not known; the elements read range over the feasible offsets.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    src = f32[16] parameter(0)
    of = s32[] parameter(1)
    ROOT ds = f32[4] dynamic-slice(src, of), dynamic_slice_sizes={4}
  )");
  ASSERT_NE(module, nullptr);
  UtilizationReport report = Analyze(*module, &context);
  ASSERT_EQ(report.operands.size(), 2u);
  EXPECT_FALSE(report.operands[0].counts.exact);
  EXPECT_EQ(report.operands[0].counts.reads, 4);
  EXPECT_EQ(report.operands[0].counts.elements_read, 16);
  ExpectCounts(report.operands[1], 1, 1, 4);
}

TEST(FusionUtilizationTest, RefusesASnippetWithAGapInItsParameterNumbers) {
  // The parser reads a snippet's lone `parameter(1)` as written; operand K
  // is parameter K, so the analysis refuses it rather than report the
  // parameter as not read (a module is refused by the parser, as XLA's
  // HloParserImpl refuses it).
  mlir::MLIRContext context;
  absl::StatusOr<std::unique_ptr<HloModule>> module = ParseHloModule(R"(
    q = f32[8] parameter(1)
    ROOT n = f32[8] negate(q)
  )");
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<UtilizationReport> report =
      AnalyzeUtilization(**module, &context);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(report.status().message(), "parameter 'q' of"))
      << report.status();
  EXPECT_TRUE(absl::StrContains(report.status().message(), "0 is missing"))
      << report.status();
}

TEST(FusionUtilizationTest, TextAndJson) {
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[20] parameter(0)
    ROOT bc0 = f32[10, 20, 30] broadcast(p0), dimensions={1}
  )");
  ASSERT_NE(module, nullptr);
  UtilizationReport report = Analyze(*module, &context);
  std::string text = UtilizationReportToText(report);
  EXPECT_TRUE(absl::StrContains(
      text,
      "operand 0 (p0, f32[20]{0}): read 20 of 20 elements (1), 6000 "
      "reads, 300 per element read (per result)\n  (d0, d1, d2) -> (d1)"))
      << text;
  std::string json = UtilizationReportToJson(report);
  EXPECT_EQ(json.find('\n'), std::string::npos);
  EXPECT_TRUE(absl::StrContains(
      json,
      "\"elements\": 20, \"elements_read\": 20, \"reads\": 6000, "
      "\"fraction\": 1, \"average_reads\": 300, \"exact\": true"))
      << json;
}

// Fusions of transpose, reshape, broadcast, two slices (offset, strided)
// added, reshape and reduce, some broadcast again after the reduce, made
// by a generator of such chains. One parameter read through two maps whose
// images are small (a few thousand elements). The union was counted by one
// Presburger intersection proving the images disjoint (over 60 s for the
// first), point by point over the whole domain (the second: 2 x 16 x 2400
// points), or element by element with an emptiness test each until the
// time budget ran out (the third: a bound). Counted from the images
// instead: exact, equal to brute force (and to the evaluator's trace), without
// a Presburger test: each of the two maps' groups of variables is
// enumerated twice (for the reads, for the image) and its image listed once,
// each at most the reduced elements, so at most 6 x those points in all,
// whatever the output's size.
struct ChainCase {
  const char* name;
  const char* hlo;
  int64_t max_points;
  /// Elements of the reduce's input.
  int64_t reduced;
  /// Also check the elements read against the evaluator's trace.
  bool trace = false;
};

class ChainedFusionTest : public ::testing::TestWithParam<ChainCase> {};

// A module whose entry computation is `body`, with the reducer `add`.
std::string WithAdd(absl::string_view body) {
  return absl::StrCat(R"(HloModule chain
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {)",
                      body, "}\n");
}

TEST_P(ChainedFusionTest, CountedFromTheImagesExactly) {
  mlir::MLIRContext context;
  auto module = Parse(WithAdd(GetParam().hlo));
  ASSERT_NE(module, nullptr);
  absl::StatusOr<UtilizationReport> report =
      AnalyzeUtilization(*module, &context, GetParam().max_points);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->operands.size(), 1u);
  const FusionOperandUtilization& u = report->operands[0];
  EXPECT_EQ(u.maps.size(), 2);
  EXPECT_TRUE(u.counts.exact);
  EXPECT_EQ(u.counts.method, UtilizationMethod::kEnumeration);
  const auto [elements, reads] =
      CountByBruteForce(u.maps, u.shape.dimensions());
  EXPECT_EQ(u.counts.elements_read, elements);
  EXPECT_EQ(u.counts.reads, reads);
  if (GetParam().trace) {
    // The maps themselves against the evaluator (tracing the larger
    // intermediates of the other cases takes seconds).
    EXPECT_EQ(TracedCounts(*module, 0).first, elements);
  }
  EXPECT_EQ(u.counts.presburger_checks, 0);
  EXPECT_LE(u.counts.points_enumerated, 6 * GetParam().reduced);
}

INSTANTIATE_TEST_SUITE_P(
    Generated, ChainedFusionTest,
    testing::Values(ChainCase{"to_scalar", R"(
    p0 = f32[39,15,26,6] parameter(0)
    v1 = f32[15,6,39,26] transpose(p0), dimensions={1,3,0,2}
    v2 = f32[13,2,195,2,9] reshape(v1)
    v3 = f32[13,2,195,2,9,7] broadcast(v2), dimensions={0,1,2,3,4}
    v4 = f32[3,2,82,2,2,1] slice(v3),
      slice={[3:6:1], [0:2:1], [1:165:2], [0:2:1], [1:4:2], [2:4:2]}
    v5 = f32[3,2,82,2,2,1] slice(v3),
      slice={[3:10:3], [0:2:1], [29:192:2], [0:2:1], [4:7:2], [6:7:1]}
    v6 = f32[3,2,82,2,2,1] add(v4, v5)
    v7 = f32[82,2,4,3] reshape(v6)
    zero = f32[] constant(0)
    ROOT r = f32[] reduce(v7, zero), dimensions={0,1,2,3}, to_apply=add
  )",
                              kDefaultUtilizationPointLimit, 1968},
                    ChainCase{"rebroadcast", R"(
    p0 = f32[15,33,27] parameter(0)
    v1 = f32[33,27,15] transpose(p0), dimensions={1,2,0}
    v2 = f32[15,9,99] reshape(v1)
    v3 = f32[7,15,9,99] broadcast(v2), dimensions={1,2,3}
    v4 = f32[5,3,5,32] slice(v3), slice={[1:6:1], [5:8:1], [1:6:1], [19:82:2]}
    v5 = f32[5,3,5,32] slice(v3), slice={[0:5:1], [6:9:1], [3:8:1], [35:98:2]}
    v6 = f32[5,3,5,32] add(v4, v5)
    v7 = f32[24,2,10,5] reshape(v6)
    zero = f32[] constant(0)
    r0 = f32[2,10,5] reduce(v7, zero), dimensions={0}, to_apply=add
    ROOT r = f32[16,2,10,5] broadcast(r0), dimensions={1,2,3}
  )",
                              kDefaultUtilizationPointLimit, 2400},
                    ChainCase{"rebroadcast_scalar", R"(
    p0 = f32[11,4,15,6] parameter(0)
    v1 = f32[6,11,4,15] transpose(p0), dimensions={3,0,1,2}
    v2 = f32[60,66] reshape(v1)
    v3 = f32[3,60,66] broadcast(v2), dimensions={1,2}
    v4 = f32[1,50,47] slice(v3), slice={[0:1:1], [5:55:1], [2:49:1]}
    v5 = f32[1,50,47] slice(v3), slice={[0:1:2], [7:57:1], [0:47:1]}
    v6 = f32[1,50,47] add(v4, v5)
    v7 = f32[470,5] reshape(v6)
    zero = f32[] constant(0)
    r0 = f32[] reduce(v7, zero), dimensions={0,1}, to_apply=add
    ROOT r = f32[16] broadcast(r0), dimensions={}
  )",
                              int64_t{1} << 16, 2350, true},
                    ChainCase{"partial_reduce", R"(
    p0 = f32[11,8,33,39] parameter(0)
    v1 = f32[39,33,11,8] transpose(p0), dimensions={3,2,0,1}
    v2 = f32[22,4,1287] reshape(v1)
    v3 = f32[5,22,4,1287] broadcast(v2), dimensions={1,2,3}
    v4 = f32[4,2,2,109] slice(v3),
      slice={[1:5:1], [10:13:2], [1:4:2], [470:688:2]}
    v5 = f32[4,2,2,109] slice(v3),
      slice={[0:4:1], [17:21:3], [1:3:1], [155:264:1]}
    v6 = f32[4,2,2,109] add(v4, v5)
    v7 = f32[109,4,4] reshape(v6)
    zero = f32[] constant(0)
    ROOT r = f32[109,4] reduce(v7, zero), dimensions={1}, to_apply=add
  )",
                              kDefaultUtilizationPointLimit, 1744}),
    [](const testing::TestParamInfo<ChainCase>& info) {
      return std::string(info.param.name);
    });

}  // namespace
}  // namespace xla_index
