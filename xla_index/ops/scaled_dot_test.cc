// scaled-dot: both directions. The maps of XLA's scaled-dot tiling example
// by hand, and the whole relation of every operand checked by brute force
// against a trace of the op's definition (a dot of lhs and rhs, each element
// multiplied by the scale of its block).

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/evaluator.h"
#include "hlo/literal.h"
#include "xla_index/core/box_points.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ScaledDotIndexingTest = OpIndexingTest;

// XLA's symbolic-tile test of scaled-dot (blocks of 32 along k).
constexpr absl::string_view kScaledDot = R"(
lhs = f8e4m3fn[128,64] parameter(0)
rhs = f8e4m3fn[64,128] parameter(1)
lhs_scale = f8e8m0fnu[128,2] parameter(2)
rhs_scale = f8e8m0fnu[2,128] parameter(3)
ROOT dot = f32[128,128] scaled-dot(lhs, rhs, lhs_scale, rhs_scale),
  lhs_contracting_dims={1}, rhs_contracting_dims={0}
)";

std::string Domain(absl::string_view symbol_range) {
  return absl::StrCat("domain:\nd0 in [0, 127]\nd1 in [0, 127]\n",
                      symbol_range);
}

TEST_F(ScaledDotIndexingTest, OutputToInput) {
  const std::string domain = Domain("s0 in [0, 63]");
  EXPECT_THAT(
      OutputToInput(kScaledDot),
      ElementsAre(
          ElementsAre("(d0, d1)[s0] -> (d0, s0)\n" + domain),
          ElementsAre("(d0, d1)[s0] -> (s0, d1)\n" + domain),
          ElementsAre("(d0, d1)[s0] -> (d0, s0 floordiv 32)\n" + domain),
          ElementsAre("(d0, d1)[s0] -> (s0 floordiv 32, d1)\n" + domain)));
}

TEST_F(ScaledDotIndexingTest, InputToOutput) {
  // lhs (m, k) feeds every output column; lhs_scale (m, b) likewise, for
  // each of the 32 k of its block (which drop out of the map).
  EXPECT_THAT(InputToOutput(kScaledDot, 0), ElementsAre(ElementsAre(Text(R"(
(d0, d1)[s0] -> (d0, s0)
domain:
d0 in [0, 127]
d1 in [0, 63]
s0 in [0, 127])"))));
  EXPECT_THAT(InputToOutput(kScaledDot, 2), ElementsAre(ElementsAre(Text(R"(
(d0, d1)[s0] -> (d0, s0)
domain:
d0 in [0, 127]
d1 in [0, 1]
s0 in [0, 127])"))));
  EXPECT_THAT(InputToOutput(kScaledDot, 3), ElementsAre(ElementsAre(Text(R"(
(d0, d1)[s0] -> (s0, d1)
domain:
d0 in [0, 1]
d1 in [0, 127]
s0 in [0, 127])"))));
}

TEST_F(ScaledDotIndexingTest, ScalesThatDoNotDivideAreUndefined) {
  constexpr absl::string_view kHlo = R"(
lhs = f32[4,6] parameter(0)
rhs = f32[6,5] parameter(1)
ls = f32[4,4] parameter(2)
rs = f32[2,5] parameter(3)
ROOT d = f32[4,5] scaled-dot(lhs, rhs, ls, rs),
  lhs_contracting_dims={1}, rhs_contracting_dims={0}
)";
  // The verifier refuses it; built without the verifier, it is UNDEFINED.
  auto verified = ParseAndVerifyHloModule(kHlo);
  ASSERT_FALSE(verified.ok());
  EXPECT_THAT(verified.status().message(), HasSubstr("does not divide"));
  const HloInstruction* root = Parse(kHlo);
  ASSERT_NE(root, nullptr);
  for (bool forward : {true, false}) {
    HloInstructionIndexing indexing =
        forward ? ComputeOutputToInputIndexing(root, 0, &context_)
                : ComputeInputToOutputIndexing(root, 2, &context_);
    ASSERT_FALSE(indexing.indexing_maps.empty());
    EXPECT_THAT(indexing.indexing_maps[0][0].undefined_reason(),
                HasSubstr("attributes do not fit"));
  }
}

// ---- Brute force against the definition. ----

using Index = std::vector<int64_t>;
using Pair = std::pair<Index, Index>;  // (from, to)

std::vector<Index> AllIndices(absl::Span<const int64_t> dims) {
  std::vector<Index> all;
  ForEachBoxPoint(ShapeBox(dims), int64_t{1} << 20,
                  [&](const Index& point) { all.push_back(point); });
  return all;
}

bool Contains(const std::vector<int64_t>& v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The (output index, operand index) pairs of each of the four operands:
// out[batch, lhs free, rhs free] sums over the contracting indices of
// lhs[..] * lhs_scale[lhs / block] * rhs[..] * rhs_scale[rhs / block].
std::vector<std::set<Pair>> Trace(const HloInstruction& dot) {
  const Shape& lhs = dot.operand(0)->shape();
  const Shape& rhs = dot.operand(1)->shape();
  const DotDimensionNumbers& dn = dot.dot_dimension_numbers();
  std::vector<std::set<Pair>> reads(4);
  Index contracting_sizes;
  for (int64_t d : dn.lhs_contracting_dimensions) {
    contracting_sizes.push_back(lhs.dimensions(d));
  }
  for (const Index& out : AllIndices(dot.shape().dimensions())) {
    for (const Index& k : AllIndices(contracting_sizes)) {
      Index l(lhs.rank()), r(rhs.rank());
      size_t o = 0;
      for (size_t b = 0; b < dn.lhs_batch_dimensions.size(); ++b, ++o) {
        l[dn.lhs_batch_dimensions[b]] = r[dn.rhs_batch_dimensions[b]] = out[o];
      }
      for (int64_t d = 0; d < lhs.rank(); ++d) {
        if (!Contains(dn.lhs_batch_dimensions, d) &&
            !Contains(dn.lhs_contracting_dimensions, d)) {
          l[d] = out[o++];
        }
      }
      for (int64_t d = 0; d < rhs.rank(); ++d) {
        if (!Contains(dn.rhs_batch_dimensions, d) &&
            !Contains(dn.rhs_contracting_dimensions, d)) {
          r[d] = out[o++];
        }
      }
      for (size_t c = 0; c < k.size(); ++c) {
        l[dn.lhs_contracting_dimensions[c]] = k[c];
        r[dn.rhs_contracting_dimensions[c]] = k[c];
      }
      Index ls = l, rs = r;
      for (int64_t d = 0; d < lhs.rank(); ++d) {
        ls[d] /= lhs.dimensions(d) / dot.operand(2)->shape().dimensions(d);
      }
      for (int64_t d = 0; d < rhs.rank(); ++d) {
        rs[d] /= rhs.dimensions(d) / dot.operand(3)->shape().dimensions(d);
      }
      reads[0].insert({out, l});
      reads[1].insert({out, r});
      reads[2].insert({out, ls});
      reads[3].insert({out, rs});
    }
  }
  return reads;
}

std::set<Pair> Relation(const IndexingMapSet& set) {
  std::set<Pair> relation;
  for (const IndexingMap& map : set) {
    absl::StatusOr<std::vector<IndexingPoint>> points = EnumerateImage(map);
    EXPECT_TRUE(points.ok()) << points.status();
    if (!points.ok()) continue;
    for (const IndexingPoint& p : *points) relation.insert({p.dims, p.results});
  }
  return relation;
}

TEST_F(ScaledDotIndexingTest, BothDirectionsMatchTheDefinition) {
  const absl::string_view cases[] = {
      R"(
lhs = f32[4,6] parameter(0)
rhs = f32[6,5] parameter(1)
ls = f32[4,2] parameter(2)
rs = f32[2,5] parameter(3)
ROOT d = f32[4,5] scaled-dot(lhs, rhs, ls, rs),
  lhs_contracting_dims={1}, rhs_contracting_dims={0})",
      R"(
lhs = f32[2,4,6] parameter(0)
rhs = f32[2,5,6] parameter(1)
ls = f32[2,2,3] parameter(2)
rs = f32[1,5,2] parameter(3)
ROOT d = f32[2,4,5] scaled-dot(lhs, rhs, ls, rs),
  lhs_batch_dims={0}, rhs_batch_dims={0},
  lhs_contracting_dims={2}, rhs_contracting_dims={2})",
      R"(
lhs = f32[4,4] parameter(0)
rhs = f32[4,4] parameter(1)
ls = f32[1,1] parameter(2)
rs = f32[1,1] parameter(3)
ROOT d = f32[4,4] scaled-dot(lhs, rhs, ls, rs),
  lhs_contracting_dims={1}, rhs_contracting_dims={1})",
  };
  for (absl::string_view hlo : cases) {
    const HloInstruction* root = Parse(hlo);
    ASSERT_NE(root, nullptr) << hlo;
    std::vector<std::set<Pair>> reads = Trace(*root);
    HloInstructionIndexing o2i =
        ComputeOutputToInputIndexing(root, 0, &context_);
    ASSERT_EQ(o2i.indexing_maps.size(), 4);
    for (int64_t k = 0; k < 4; ++k) {
      EXPECT_EQ(Relation(o2i.indexing_maps[k]), reads[k])
          << hlo << "\noperand " << k;
      std::set<Pair> inverse;
      for (const auto& [out, in] : reads[k]) inverse.insert({in, out});
      HloInstructionIndexing i2o =
          ComputeInputToOutputIndexing(root, k, &context_);
      ASSERT_EQ(i2o.indexing_maps.size(), 1);
      EXPECT_EQ(Relation(i2o.indexing_maps[0]), inverse)
          << hlo << "\noperand " << k;
    }
  }
}

// The reference evaluator computes scaled-dot: (1*3 + 2*4) * 2 * 10.
TEST_F(ScaledDotIndexingTest, EvaluatorComputesTheScaledDot) {
  const HloInstruction* root = Parse(R"(
lhs = f32[1,2] parameter(0)
rhs = f32[2,1] parameter(1)
ls = f32[1,1] parameter(2)
rs = f32[1,1] parameter(3)
ROOT d = f32[1,1] scaled-dot(lhs, rhs, ls, rs),
  lhs_contracting_dims={1}, rhs_contracting_dims={0}
)");
  ASSERT_NE(root, nullptr);
  std::vector<Literal> operands;
  const std::vector<std::vector<double>> values = {{1, 2}, {3, 4}, {2}, {10}};
  for (int64_t k = 0; k < 4; ++k) {
    operands.emplace_back(root->operand(k)->shape());
    for (size_t i = 0; i < values[k].size(); ++i) {
      operands.back().SetDouble(i, values[k][i]);
    }
  }
  absl::StatusOr<Literal> result = EvaluateInstruction(*root, operands);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->GetDouble(0), 220);
}

// Oracle: the elements the evaluator's trace records each output element
// reading are those the output-to-input maps name.
TEST_F(ScaledDotIndexingTest, OutputToInputMatchesTheEvaluatorTrace) {
  const HloInstruction* root = Parse(R"(
lhs = f32[2,4,6] parameter(0)
rhs = f32[2,5,6] parameter(1)
ls = f32[2,2,3] parameter(2)
rs = f32[1,5,2] parameter(3)
ROOT d = f32[2,4,5] scaled-dot(lhs, rhs, ls, rs),
  lhs_batch_dims={0}, rhs_batch_dims={0},
  lhs_contracting_dims={2}, rhs_contracting_dims={2})");
  ASSERT_NE(root, nullptr);
  std::vector<Literal> operands;
  for (int64_t k = 0; k < 4; ++k) {
    operands.emplace_back(root->operand(k)->shape());
    for (int64_t i = 0; i < operands.back().element_count(); ++i) {
      operands.back().SetDouble(i, 1);
    }
  }
  absl::StatusOr<TracedValue> traced = TraceInstruction(*root, operands);
  ASSERT_TRUE(traced.ok()) << traced.status();
  HloInstructionIndexing o2i = ComputeOutputToInputIndexing(root, 0, &context_);
  // (output linear index, ElementId) from the maps.
  std::set<std::pair<int64_t, ElementId>> from_maps, from_trace;
  const std::vector<Index> outputs = AllIndices(root->shape().dimensions());
  for (int64_t k = 0; k < 4; ++k) {
    const Shape& shape = root->operand(k)->shape();
    for (const auto& [out, in] : Relation(o2i.indexing_maps[k])) {
      int64_t o = 0, i = 0;
      for (size_t d = 0; d < out.size(); ++d) {
        o = o * root->shape().dimensions(d) + out[d];
      }
      for (size_t d = 0; d < in.size(); ++d)
        i = i * shape.dimensions(d) + in[d];
      from_maps.insert({o, ElementId{k, 0, i}});
    }
  }
  for (size_t o = 0; o < outputs.size(); ++o) {
    for (const ElementId& id : traced->reads[0][o]) {
      from_trace.insert({static_cast<int64_t>(o), id});
    }
  }
  EXPECT_EQ(from_maps, from_trace);
  EXPECT_FALSE(from_trace.empty());
}

}  // namespace
}  // namespace xla_index
