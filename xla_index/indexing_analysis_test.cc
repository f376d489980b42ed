// Every indexing example of the seed (000, "indexing analysis"), with the
// printed map compared to the seed's text exactly.

#include "xla_index/indexing_analysis.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

// Seed text blocks start after a newline, for readability.
std::string Text(absl::string_view s) {
  if (!s.empty() && s.front() == '\n') s.remove_prefix(1);
  return std::string(s);
}

class SeedIndexingTest : public ::testing::Test {
 protected:
  // The printed maps of each operand of the root of `hlo`'s entry
  // computation, as `xla-index analyze` computes them.
  std::vector<std::vector<std::string>> Analyze(absl::string_view hlo,
                                                IndexingDirection direction) {
    auto module = ParseHloModule(hlo);
    EXPECT_TRUE(module.ok()) << module.status();
    if (!module.ok()) return {};
    module_ = std::move(*module);
    const HloInstruction* root = module_->entry_computation()->root();
    AnalyzedIndexing analyzed = AnalyzeIndexing(*root, direction, &context_);
    std::vector<std::vector<std::string>> printed;
    for (const IndexingMapSet& set : analyzed.indexing.indexing_maps) {
      printed.emplace_back();
      for (const IndexingMap& map : set)
        printed.back().push_back(ToString(map));
    }
    return printed;
  }
  std::vector<std::vector<std::string>> OutputToInput(absl::string_view hlo) {
    return Analyze(hlo, IndexingDirection::kOutputToInput);
  }
  std::vector<std::vector<std::string>> InputToOutput(absl::string_view hlo) {
    return Analyze(hlo, IndexingDirection::kInputToOutput);
  }

  mlir::MLIRContext context_;
  std::unique_ptr<HloModule> module_;
};

constexpr absl::string_view kElementwise = R"(
  p0 = f32[10, 20] parameter(0)
  p1 = f32[10, 20] parameter(1)
  add = f32[10, 20] add(p0, p1)
)";

TEST_F(SeedIndexingTest, ElementwiseOutputToInput) {
  std::string identity = Text(R"(
(d0, d1) -> (d0, d1)
domain:
d0 in [0, 9]
d1 in [0, 19])");
  EXPECT_THAT(OutputToInput(kElementwise),
              ElementsAre(ElementsAre(identity), ElementsAre(identity)));
}

TEST_F(SeedIndexingTest, ElementwiseInputToOutput) {
  std::string identity = Text(R"(
(d0, d1) -> (d0, d1)
domain:
d0 in [0, 9]
d1 in [0, 19])");
  EXPECT_THAT(InputToOutput(kElementwise),
              ElementsAre(ElementsAre(identity), ElementsAre(identity)));
}

constexpr absl::string_view kBroadcast = R"(
p0 = f32[20] parameter(0)
bc0 = f32[10, 20, 30] broadcast(p0), dimensions={1}
)";

TEST_F(SeedIndexingTest, BroadcastOutputToInput) {
  EXPECT_THAT(OutputToInput(kBroadcast), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d1)
domain:
d0 in [0, 9]
d1 in [0, 19]
d2 in [0, 29])"))));
}

TEST_F(SeedIndexingTest, BroadcastInputToOutput) {
  EXPECT_THAT(InputToOutput(kBroadcast), ElementsAre(ElementsAre(Text(R"(
(d0)[s0, s1] -> (s0, d0, s1)
domain:
d0 in [0, 19]
s0 in [0, 9]
s1 in [0, 29])"))));
}

TEST_F(SeedIndexingTest, ConstantAndIotaHaveNoOperands) {
  EXPECT_THAT(OutputToInput("c = f32[4] constant({1, 2, 3, 4})"), IsEmpty());
  EXPECT_THAT(OutputToInput("i = s32[4, 5] iota(), iota_dimension=1"),
              IsEmpty());
}

// The seed prints "(d0, d1, d2)  -> ()" with two spaces in places; the map
// format has one.
TEST_F(SeedIndexingTest, DynamicSliceOutputToInput) {
  constexpr absl::string_view kHlo = R"(
src = s32[2,2,258] parameter(0)
of1 = s32[] parameter(1)
of2 = s32[] parameter(2)
of3 = s32[] parameter(3)
ds = dynamic-slice(s32[2,2,258] src, s32[] of1, s32[] of2, s32[] of3), dynamic_slice_sizes={1, 2, 32}
)";
  std::string offset = Text(R"(
(d0, d1, d2) -> ()
domain:
d0 in [0, 0]
d1 in [0, 1]
d2 in [0, 31])");
  EXPECT_THAT(OutputToInput(kHlo),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2)[s0, s1, s2] -> (d0 + s0, d1 + s1, d2 + s2)
domain:
d0 in [0, 0]
d1 in [0, 1]
d2 in [0, 31]
s0 in [0, 1]
  hlo: of1 = s32[] parameter(1)
  (d0, d1, d2) -> ()
s1 in [0, 0]
  hlo: of2 = s32[] parameter(2)
  (d0, d1, d2) -> ()
s2 in [0, 226]
  hlo: of3 = s32[] parameter(3)
  (d0, d1, d2) -> ())")),
                          ElementsAre(offset), ElementsAre(offset),
                          ElementsAre(offset)));
}

TEST_F(SeedIndexingTest, DynamicUpdateSliceOutputToInput) {
  constexpr absl::string_view kHlo = R"(
src = s32[20,30] parameter(0)
upd = s32[5,10] parameter(1)
of1 = s32[] parameter(2)
of2 = s32[] parameter(3)
dus = s32[20,30] dynamic-update-slice(
    s32[20,30] src, s32[5,10] upd, s32[] of1, s32[] of2)
)";
  std::string offset = Text(R"(
(d0, d1) -> ()
domain:
d0 in [0, 19]
d1 in [0, 29])");
  EXPECT_THAT(OutputToInput(kHlo),
              ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d0, d1)
domain:
d0 in [0, 19]
d1 in [0, 29])")),
                          ElementsAre(Text(R"(
(d0, d1)[s0, s1] -> (d0 - s0, d1 - s1)
domain:
d0 in [0, 19]
d1 in [0, 29]
s0 in [0, 15]
  hlo: of1 = s32[] parameter(2)
  (d0, d1) -> ()
s1 in [0, 20]
  hlo: of2 = s32[] parameter(3)
  (d0, d1) -> ())")),
                          ElementsAre(offset), ElementsAre(offset)));
}

TEST_F(SeedIndexingTest, GatherOutputToInput) {
  constexpr absl::string_view kHlo = R"(
operand = f32[33,76,70] parameter(0)
indices = s32[1806,2] parameter(1)
gather = f32[1806,7,8,4] gather(operand, indices),
  offset_dims={1,2,3},
  collapsed_slice_dims={},
  start_index_map={0,1},
  index_vector_dim=1,
  slice_sizes={7,8,4}
)";
  EXPECT_THAT(OutputToInput(kHlo), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2, d3)[s0, s1] -> (d1 + s0, d2 + s1, d3)
domain:
d0 in [0, 1805]
d1 in [0, 6]
d2 in [0, 7]
d3 in [0, 3]
s0 in [0, 26]
  hlo: indices = s32[1806,2]{1,0} parameter(1)
  (d0, d1, d2, d3) -> (d0, 0)
s1 in [0, 68]
  hlo: indices = s32[1806,2]{1,0} parameter(1)
  (d0, d1, d2, d3) -> (d0, 1))")),
                                               ElementsAre(Text(R"(
(d0, d1, d2, d3)[s0] -> (d0, s0)
domain:
d0 in [0, 1805]
d1 in [0, 6]
d2 in [0, 7]
d3 in [0, 3]
s0 in [0, 1])"))));
}

constexpr absl::string_view kTranspose = R"(
p0 = f32[3, 12288, 6, 128] parameter(0)
transpose = f32[3, 6, 128, 12288] transpose(p0), dimensions={0, 2, 3, 1}
)";

TEST_F(SeedIndexingTest, TransposeOutputToInput) {
  EXPECT_THAT(OutputToInput(kTranspose), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2, d3) -> (d0, d3, d1, d2)
domain:
d0 in [0, 2]
d1 in [0, 5]
d2 in [0, 127]
d3 in [0, 12287])"))));
}

TEST_F(SeedIndexingTest, TransposeInputToOutput) {
  EXPECT_THAT(InputToOutput(kTranspose), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2, d3) -> (d0, d2, d3, d1)
domain:
d0 in [0, 2]
d1 in [0, 12287]
d2 in [0, 5]
d3 in [0, 127])"))));
}

constexpr absl::string_view kReverse = R"(
p0 = f32[1, 17, 9, 9] parameter(0)
reverse = f32[1, 17, 9, 9] reverse(p0), dimensions={1, 2}
)";
constexpr absl::string_view kReverseMap = R"(
(d0, d1, d2, d3) -> (d0, -d1 + 16, -d2 + 8, d3)
domain:
d0 in [0, 0]
d1 in [0, 16]
d2 in [0, 8]
d3 in [0, 8])";

TEST_F(SeedIndexingTest, ReverseOutputToInput) {
  EXPECT_THAT(OutputToInput(kReverse),
              ElementsAre(ElementsAre(Text(kReverseMap))));
}

TEST_F(SeedIndexingTest, ReverseInputToOutput) {
  EXPECT_THAT(InputToOutput(kReverse),
              ElementsAre(ElementsAre(Text(kReverseMap))));
}

constexpr absl::string_view kVariadicReduce = R"(
HloModule m
max {
  p0 = f32[] parameter(0)
  p1 = s32[] parameter(1)
  p2 = f32[] parameter(2)
  p3 = s32[] parameter(3)
  m0 = f32[] maximum(p0, p2)
  m1 = s32[] maximum(p1, p3)
  ROOT t = (f32[], s32[]) tuple(m0, m1)
}
ENTRY e {
  p0 = f32[256,10] parameter(0)
  p0_init = f32[] constant(-inf)
  p1 = s32[256,10] parameter(1)
  p1_init = s32[] constant(0)
  ROOT reduce = (f32[10], s32[10]) reduce(p0, p1, p0_init, p1_init),
    dimensions={0}, to_apply=max
}
)";

TEST_F(SeedIndexingTest, VariadicReduceOutputToInput) {
  std::string input = Text(R"(
(d0)[s0] -> (s0, d0)
domain:
d0 in [0, 9]
s0 in [0, 255])");
  std::string init = Text(R"(
(d0) -> ()
domain:
d0 in [0, 9])");
  EXPECT_THAT(OutputToInput(kVariadicReduce),
              ElementsAre(ElementsAre(input), ElementsAre(input),
                          ElementsAre(init), ElementsAre(init)));
}

TEST_F(SeedIndexingTest, VariadicReduceInputToOutput) {
  std::string input = Text(R"(
(d0, d1) -> (d1)
domain:
d0 in [0, 255]
d1 in [0, 9])");
  std::string init = Text(R"(
()[s0] -> (s0)
domain:
s0 in [0, 9])");
  EXPECT_THAT(InputToOutput(kVariadicReduce),
              ElementsAre(ElementsAre(input), ElementsAre(input),
                          ElementsAre(init), ElementsAre(init)));
}

constexpr absl::string_view kSlice = R"(
p0 = f32[10, 20, 50] parameter(0)
slice = f32[5, 3, 25] slice(f32[10, 20, 50] p0),
  slice={[5:10:1], [3:20:7], [0:50:2]}
)";

TEST_F(SeedIndexingTest, SliceOutputToInput) {
  EXPECT_THAT(OutputToInput(kSlice), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d0 + 5, d1 * 7 + 3, d2 * 2)
domain:
d0 in [0, 4]
d1 in [0, 2]
d2 in [0, 24])"))));
}

TEST_F(SeedIndexingTest, SliceInputToOutput) {
  EXPECT_THAT(InputToOutput(kSlice), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2)
domain:
d0 in [5, 9]
d1 in [3, 17]
d2 in [0, 48]
(d1 - 3) mod 7 in [0, 0]
d2 mod 2 in [0, 0])"))));
}

constexpr absl::string_view kCollapse = R"(
p0 = f32[4,8] parameter(0)
reshape = f32[32] reshape(p0)
)";
constexpr absl::string_view kExpand = R"(
p0 = f32[32] parameter(0)
reshape = f32[4, 8] reshape(p0)
)";
constexpr absl::string_view kDelinearize = R"(
(d0) -> (d0 floordiv 8, d0 mod 8)
domain:
d0 in [0, 31])";
constexpr absl::string_view kLinearize = R"(
(d0, d1) -> (d0 * 8 + d1)
domain:
d0 in [0, 3]
d1 in [0, 7])";

TEST_F(SeedIndexingTest, CollapseShapeOutputToInput) {
  EXPECT_THAT(OutputToInput(kCollapse),
              ElementsAre(ElementsAre(Text(kDelinearize))));
}

TEST_F(SeedIndexingTest, CollapseShapeInputToOutput) {
  EXPECT_THAT(InputToOutput(kCollapse),
              ElementsAre(ElementsAre(Text(kLinearize))));
}

TEST_F(SeedIndexingTest, ExpandShapeOutputToInput) {
  EXPECT_THAT(OutputToInput(kExpand),
              ElementsAre(ElementsAre(Text(kLinearize))));
}

TEST_F(SeedIndexingTest, ExpandShapeInputToOutput) {
  EXPECT_THAT(InputToOutput(kExpand),
              ElementsAre(ElementsAre(Text(kDelinearize))));
}

constexpr absl::string_view kGenericReshape1 = R"(
p0 = f32[4,8] parameter(0)
reshape = f32[2, 4, 4] reshape(p0)
)";

TEST_F(SeedIndexingTest, GenericReshapeLinearizeDelinearizeOutputToInput) {
  EXPECT_THAT(OutputToInput(kGenericReshape1), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d0 * 2 + d1 floordiv 2, d2 + (d1 mod 2) * 4)
domain:
d0 in [0, 1]
d1 in [0, 3]
d2 in [0, 3])"))));
}

TEST_F(SeedIndexingTest, GenericReshapeLinearizeDelinearizeInputToOutput) {
  EXPECT_THAT(InputToOutput(kGenericReshape1), ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> (d0 floordiv 2, d1 floordiv 4 + (d0 mod 2) * 2, d1 mod 4)
domain:
d0 in [0, 3]
d1 in [0, 7])"))));
}

constexpr absl::string_view kGenericReshape2 = R"(
p0 = f32[4, 8, 12] parameter(0)
reshape = f32[32, 3, 4] reshape(p0)
)";

TEST_F(SeedIndexingTest, GenericReshapeSubshapesOutputToInput) {
  EXPECT_THAT(OutputToInput(kGenericReshape2), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d0 floordiv 8, d0 mod 8, d1 * 4 + d2)
domain:
d0 in [0, 31]
d1 in [0, 2]
d2 in [0, 3])"))));
}

TEST_F(SeedIndexingTest, GenericReshapeSubshapesInputToOutput) {
  EXPECT_THAT(InputToOutput(kGenericReshape2), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d0 * 8 + d1, d2 floordiv 4, d2 mod 4)
domain:
d0 in [0, 3]
d1 in [0, 7]
d2 in [0, 11])"))));
}

constexpr absl::string_view kConcat = R"(
p0 = f32[2, 5, 7] parameter(0)
p1 = f32[2, 11, 7] parameter(1)
p2 = f32[2, 17, 7] parameter(2)
ROOT concat = f32[2, 33, 7] concatenate(f32[2, 5, 7] p0, f32[2, 11, 7] p1, f32[2, 17, 7] p2), dimensions={1}
)";

TEST_F(SeedIndexingTest, ConcatenateOutputToInput) {
  EXPECT_THAT(OutputToInput(kConcat), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d0, d1, d2)
domain:
d0 in [0, 1]
d1 in [0, 4]
d2 in [0, 6])")),
                                                  ElementsAre(Text(R"(
(d0, d1, d2) -> (d0, d1 - 5, d2)
domain:
d0 in [0, 1]
d1 in [5, 15]
d2 in [0, 6])")),
                                                  ElementsAre(Text(R"(
(d0, d1, d2) -> (d0, d1 - 16, d2)
domain:
d0 in [0, 1]
d1 in [16, 32]
d2 in [0, 6])"))));
}

TEST_F(SeedIndexingTest, ConcatenateInputToOutput) {
  EXPECT_THAT(InputToOutput(kConcat), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d0, d1, d2)
domain:
d0 in [0, 1]
d1 in [0, 4]
d2 in [0, 6])")),
                                                  ElementsAre(Text(R"(
(d0, d1, d2) -> (d0, d1 + 5, d2)
domain:
d0 in [0, 1]
d1 in [0, 10]
d2 in [0, 6])")),
                                                  ElementsAre(Text(R"(
(d0, d1, d2) -> (d0, d1 + 16, d2)
domain:
d0 in [0, 1]
d1 in [0, 16]
d2 in [0, 6])"))));
}

constexpr absl::string_view kDot = R"(
p0 = f32[4, 128, 256] parameter(0)
p1 = f32[4, 256, 64] parameter(1)
dot = f32[4, 128, 64] dot(p0, p1),
  lhs_batch_dims={0}, rhs_batch_dims={0},
  lhs_contracting_dims={2}, rhs_contracting_dims={1}
)";

TEST_F(SeedIndexingTest, DotOutputToInput) {
  EXPECT_THAT(OutputToInput(kDot), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2)[s0] -> (d0, d1, s0)
domain:
d0 in [0, 3]
d1 in [0, 127]
d2 in [0, 63]
s0 in [0, 255])")),
                                               ElementsAre(Text(R"(
(d0, d1, d2)[s0] -> (d0, s0, d2)
domain:
d0 in [0, 3]
d1 in [0, 127]
d2 in [0, 63]
s0 in [0, 255])"))));
}

// The seed prints input_2 -> output as `(d0, s0, d1)`, with d1 the
// contracting dimension (256 values) landing in the output's 64-wide rhs
// free dimension: a typo. The rhs element (b, k, n) feeds output (b, m, n)
// for every m, i.e. `(d0, s0, d2)`; the oracle test
// (indexing_oracle_test.cc) checks this against the evaluator.
TEST_F(SeedIndexingTest, DotInputToOutput) {
  EXPECT_THAT(InputToOutput(kDot), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2)[s0] -> (d0, d1, s0)
domain:
d0 in [0, 3]
d1 in [0, 127]
d2 in [0, 255]
s0 in [0, 63])")),
                                               ElementsAre(Text(R"(
(d0, d1, d2)[s0] -> (d0, s0, d2)
domain:
d0 in [0, 3]
d1 in [0, 255]
d2 in [0, 63]
s0 in [0, 127])"))));
}

TEST_F(SeedIndexingTest, PadOutputToInput) {
  constexpr absl::string_view kHlo = R"(
p0 = f32[4, 4] parameter(0)
p1 = f32[] parameter(1)
pad = f32[12, 16] pad(p0, p1), padding=1_4_1x4_8_0
)";
  EXPECT_THAT(OutputToInput(kHlo), ElementsAre(ElementsAre(Text(R"(
(d0, d1) -> ((d0 - 1) floordiv 2, d1 - 4)
domain:
d0 in [1, 7]
d1 in [4, 7]
(d0 - 1) mod 2 in [0, 0])")),
                                               ElementsAre(Text(R"(
(d0, d1) -> ()
domain:
d0 in [0, 11]
d1 in [0, 15])"))));
}

TEST_F(SeedIndexingTest, ReduceWindowOutputToInput) {
  constexpr absl::string_view kHlo = R"(
c_inf = f32[] constant(-inf)
p0 = f32[1024, 514] parameter(0)
reduce-window = f32[1024, 3] reduce-window(p0, c_inf),
  window={size=1x512 pad=0_0x0_0}, to_apply=max
)";
  EXPECT_THAT(OutputToInput(kHlo), ElementsAre(ElementsAre(Text(R"(
(d0, d1)[s0] -> (d0, d1 + s0)
domain:
d0 in [0, 1023]
d1 in [0, 2]
s0 in [0, 511])")),
                                               ElementsAre(Text(R"(
(d0, d1) -> ()
domain:
d0 in [0, 1023]
d1 in [0, 2])"))));
}

TEST_F(SeedIndexingTest, FusionOneInputTwoMaps) {
  constexpr absl::string_view kHlo = R"(
f {
  p0 = f32[1000, 1000] parameter(0)
  transpose_p0 = f32[1000, 1000]{0, 1} transpose(p0), dimensions={1, 0}
  ROOT a0 = f32[1000, 1000] add(p0, transpose_p0)
}
)";
  EXPECT_THAT(OutputToInput(kHlo), ElementsAre(UnorderedElementsAre(Text(R"(
(d0, d1) -> (d0, d1)
domain:
d0 in [0, 999]
d1 in [0, 999])"),
                                                                    Text(R"(
(d0, d1) -> (d1, d0)
domain:
d0 in [0, 999]
d1 in [0, 999])"))));
}

TEST_F(SeedIndexingTest, FusionDeduplicatedMaps) {
  constexpr absl::string_view kHlo = R"(
f {
  p0 = f32[20, 10, 50] parameter(0)
  lhs_transpose_1 = f32[10, 20, 50] transpose(p0), dimensions={1, 0, 2}
  lhs_e = f32[10, 20, 50] exponential(lhs_transpose_1)
  lhs_transpose_2 = f32[10, 50, 20] transpose(lhs_e), dimensions={0, 2, 1}
  rhs_transpose_1 = f32[50, 10, 20] transpose(p0), dimensions={2, 1, 0}
  rhs_log = f32[50, 10, 20] exponential(rhs_transpose_1)
  rhs_transpose_2 = f32[10, 50, 20] transpose(rhs_log), dimensions={1, 0, 2}
  ROOT add = f32[10, 50, 20] add(lhs_transpose_2, rhs_transpose_2)
}
)";
  EXPECT_THAT(OutputToInput(kHlo), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d2, d0, d1)
domain:
d0 in [0, 9]
d1 in [0, 49]
d2 in [0, 19])"))));
}

// The seed's softmax fusion (its HLO is an image; this is the usual
// reduce-max, subtract, exp, reduce-sum, divide over the minor dimension).
TEST_F(SeedIndexingTest, SoftmaxFusion) {
  constexpr absl::string_view kHlo = R"(
HloModule m
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
softmax {
  p0 = f32[2,65,125] parameter(0)
  c_inf = f32[] constant(-inf)
  mx = f32[2,65] reduce(p0, c_inf), dimensions={2}, to_apply=max
  mxb = f32[2,65,125] broadcast(mx), dimensions={0,1}
  sub = f32[2,65,125] subtract(p0, mxb)
  ex = f32[2,65,125] exponential(sub)
  c0 = f32[] constant(0)
  sm = f32[2,65] reduce(ex, c0), dimensions={2}, to_apply=add
  smb = f32[2,65,125] broadcast(sm), dimensions={0,1}
  ROOT div = f32[2,65,125] divide(ex, smb)
}
ENTRY e {
  x = f32[2,65,125] parameter(0)
  ROOT fusion = f32[2,65,125] fusion(x), kind=kLoop, calls=softmax
}
)";
  EXPECT_THAT(OutputToInput(kHlo), ElementsAre(UnorderedElementsAre(Text(R"(
(d0, d1, d2)[s0] -> (d0, d1, s0)
domain:
d0 in [0, 1]
d1 in [0, 64]
d2 in [0, 124]
s0 in [0, 124])"),
                                                                    Text(R"(
(d0, d1, d2) -> (d0, d1, d2)
domain:
d0 in [0, 1]
d1 in [0, 64]
d2 in [0, 124])"))));
}

// The same softmax as a plain computation (the form of
// seed_cases/indexing.json): the root reads more than parameters, so
// `analyze` composes it back to the computation's parameter 0.
TEST_F(SeedIndexingTest, SoftmaxComputationRoot) {
  constexpr absl::string_view kHlo = R"(
HloModule m
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
ENTRY softmax {
  p0 = f32[2,65,125] parameter(0)
  c_inf = f32[] constant(-inf)
  mx = f32[2,65] reduce(p0, c_inf), dimensions={2}, to_apply=max
  mxb = f32[2,65,125] broadcast(mx), dimensions={0,1}
  sub = f32[2,65,125] subtract(p0, mxb)
  ex = f32[2,65,125] exponential(sub)
  c0 = f32[] constant(0)
  sm = f32[2,65] reduce(ex, c0), dimensions={2}, to_apply=add
  smb = f32[2,65,125] broadcast(sm), dimensions={0,1}
  ROOT div = f32[2,65,125] divide(ex, smb)
}
)";
  EXPECT_THAT(OutputToInput(kHlo), ElementsAre(UnorderedElementsAre(Text(R"(
(d0, d1, d2)[s0] -> (d0, d1, s0)
domain:
d0 in [0, 1]
d1 in [0, 64]
d2 in [0, 124]
s0 in [0, 124])"),
                                                                    Text(R"(
(d0, d1, d2) -> (d0, d1, d2)
domain:
d0 in [0, 1]
d1 in [0, 64]
d2 in [0, 124])"))));
  AnalyzedIndexing analyzed =
      AnalyzeIndexing(*module_->entry_computation()->root(),
                      IndexingDirection::kOutputToInput, &context_);
  EXPECT_EQ(analyzed.operand_kind,
            AnalyzedIndexing::OperandKind::kComputationParameter);
}

TEST_F(SeedIndexingTest, ChainedReshapesCancel) {
  constexpr absl::string_view kHlo = R"(
p0 = f32[10, 10, 10] parameter(0)
reshape1 = f32[50, 20] reshape(p0)
reshape2 = f32[10, 10, 10] reshape(reshape1)
)";
  EXPECT_THAT(OutputToInput(kHlo), ElementsAre(ElementsAre(Text(R"(
(d0, d1, d2) -> (d0, d1, d2)
domain:
d0 in [0, 9]
d1 in [0, 9]
d2 in [0, 9])"))));
}

}  // namespace
}  // namespace xla_index
