// reduce (variadic): both directions, the attribute check, malformed
// attributes.

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ReduceIndexingTest = OpIndexingTest;

// XLA's indexing-analysis documentation, "(Variadic)Reduce".
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

TEST_F(ReduceIndexingTest, VariadicOutputToInput) {
  std::string input = Text(R"(
(d0)[s0] -> (s0, d0)
domain:
d0 in [0, 9]
s0 in [0, 255])");
  std::string init = Text(R"(
(d0) -> ()
domain:
d0 in [0, 9])");
  EXPECT_THAT(AnalyzeOutputToInput(kVariadicReduce),
              ElementsAre(ElementsAre(input), ElementsAre(input),
                          ElementsAre(init), ElementsAre(init)));
}

TEST_F(ReduceIndexingTest, VariadicInputToOutput) {
  std::string input = Text(R"(
(d0, d1) -> (d1)
domain:
d0 in [0, 255]
d1 in [0, 9])");
  std::string init = Text(R"(
()[s0] -> (s0)
domain:
s0 in [0, 9])");
  EXPECT_THAT(AnalyzeInputToOutput(kVariadicReduce),
              ElementsAre(ElementsAre(input), ElementsAre(input),
                          ElementsAre(init), ElementsAre(init)));
}

TEST_F(ReduceIndexingTest, AttributeCheckAcceptsVerifiedReduce) {
  ExpectVerifiedRootPasses(R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p0 = f32[4,5] parameter(0)
  c = f32[] constant(0)
  ROOT r = f32[4] reduce(p0, c), dimensions={1}, to_apply=add
})",
                           IsValidReduce);
}

TEST_F(ReduceIndexingTest, MissingInitsAreUndefined) {
  HloInstruction* r = Add(HloOpcode::kReduce, Shape(PrimitiveType::kF32, {4}),
                          {Parameter({4, 5})});
  r->set_dimensions({1});
  ExpectUndefined(r);
}

// Accepted by one direction before both shared one check.
TEST_F(ReduceIndexingTest, ArrayInitIsUndefined) {
  HloInstruction* r = Add(HloOpcode::kReduce, Shape(PrimitiveType::kF32, {4}),
                          {Parameter({4, 5}), Parameter({1})});
  r->set_dimensions({1});
  EXPECT_FALSE(IsValidReduce(r));
  ExpectUndefined(r);
}

}  // namespace
}  // namespace xla_index
