// ComputeProducerConsumerIndexing against the fusion of the same pair built
// by hand and analyzed by the fusion composition (fusion_indexing.h): the
// maps of every operand must be the same.
#include "xla_index/producer_consumer_indexing.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/output_to_input_indexing.h"

namespace xla_index {
namespace {

using Maps = std::vector<std::vector<std::string>>;

// Per operand, the printed maps sorted (sets compare regardless of the order
// the two walks insert them in).
Maps Sorted(const HloInstructionIndexing& indexing) {
  Maps out;
  for (const IndexingMapSet& set : indexing.indexing_maps) {
    out.emplace_back();
    for (const IndexingMap& map : set) out.back().push_back(ToString(map));
    std::sort(out.back().begin(), out.back().end());
  }
  return out;
}

class ProducerConsumerIndexingTest : public ::testing::Test {
 protected:
  std::unique_ptr<HloModule> Parse(const std::string& hlo) {
    auto module = ParseAndVerifyHloModule(hlo);
    EXPECT_TRUE(module.ok()) << module.status();
    return module.ok() ? std::move(*module) : nullptr;
  }

  // `unfused` has instructions "producer" and "consumer" in its entry;
  // `fused` has the entry root fusion of the two, whose operands are
  // `operand_names` in order. Both analyses must agree operand by operand.
  void ExpectSameAsFusion(const std::string& unfused, const std::string& fused,
                          const std::vector<std::string>& operand_names) {
    std::unique_ptr<HloModule> pair = Parse(unfused);
    std::unique_ptr<HloModule> fusion = Parse(fused);
    ASSERT_NE(pair, nullptr);
    ASSERT_NE(fusion, nullptr);
    const HloComputation* entry = pair->entry_computation();
    auto result = ComputeProducerConsumerIndexing(
        *entry->GetInstruction("producer"), *entry->GetInstruction("consumer"),
        &context_);
    ASSERT_TRUE(result.ok()) << result.status();
    std::vector<std::string> names;
    for (const HloInstruction* operand : result->operands) {
      names.push_back(operand->name());
    }
    EXPECT_EQ(names, operand_names);
    HloInstructionIndexing expected = ComputeOutputToInputIndexing(
        fusion->entry_computation()->root_instruction(), 0, &context_);
    EXPECT_EQ(Sorted(result->indexing), Sorted(expected));
  }

  mlir::MLIRContext context_{mlir::MLIRContext::Threading::DISABLED};
};

TEST_F(ProducerConsumerIndexingTest, TransposeIntoAdd) {
  ExpectSameAsFusion(R"(
HloModule m
ENTRY e {
  p0 = f32[3,5] parameter(0)
  p1 = f32[5,3] parameter(1)
  producer = f32[5,3] transpose(p0), dimensions={1,0}
  ROOT consumer = f32[5,3] add(producer, p1)
})",
                     R"(
HloModule m
fused {
  q0 = f32[3,5] parameter(0)
  q1 = f32[5,3] parameter(1)
  t = f32[5,3] transpose(q0), dimensions={1,0}
  ROOT a = f32[5,3] add(t, q1)
}
ENTRY e {
  p0 = f32[3,5] parameter(0)
  p1 = f32[5,3] parameter(1)
  ROOT f = f32[5,3] fusion(p0, p1), kind=kLoop, calls=fused
})",
                     {"p0", "p1"});
}

// p0 is read directly by the consumer and through the producer: one operand
// with both maps.
TEST_F(ProducerConsumerIndexingTest, SharedOperandMergesMaps) {
  ExpectSameAsFusion(R"(
HloModule m
ENTRY e {
  p0 = f32[4,4] parameter(0)
  producer = f32[4,4] transpose(p0), dimensions={1,0}
  ROOT consumer = f32[4,4] add(p0, producer)
})",
                     R"(
HloModule m
fused {
  q0 = f32[4,4] parameter(0)
  t = f32[4,4] transpose(q0), dimensions={1,0}
  ROOT a = f32[4,4] add(q0, t)
}
ENTRY e {
  p0 = f32[4,4] parameter(0)
  ROOT f = f32[4,4] fusion(p0), kind=kLoop, calls=fused
})",
                     {"p0"});
}

// A broadcast producer into a reduce: range variables and the init value.
TEST_F(ProducerConsumerIndexingTest, BroadcastIntoReduce) {
  ExpectSameAsFusion(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
ENTRY e {
  p0 = f32[10] parameter(0)
  c0 = f32[] constant(0)
  producer = f32[10,20] broadcast(p0), dimensions={0}
  ROOT consumer = f32[10] reduce(producer, c0), dimensions={1}, to_apply=add
})",
                     R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
fused {
  q0 = f32[10] parameter(0)
  q1 = f32[] parameter(1)
  b = f32[10,20] broadcast(q0), dimensions={0}
  ROOT r = f32[10] reduce(b, q1), dimensions={1}, to_apply=add
}
ENTRY e {
  p0 = f32[10] parameter(0)
  c0 = f32[] constant(0)
  ROOT f = f32[10] fusion(p0, c0), kind=kLoop, calls=fused
})",
                     {"p0", "c0"});
}

// The consumer reads the producer in two slots, one of them sliced.
TEST_F(ProducerConsumerIndexingTest, ProducerReadTwice) {
  ExpectSameAsFusion(R"(
HloModule m
ENTRY e {
  p0 = f32[3,5] parameter(0)
  producer = f32[15] reshape(p0)
  s = f32[15] negate(producer)
  ROOT consumer = f32[30] concatenate(producer, s), dimensions={0}
})",
                     R"(
HloModule m
fused {
  q0 = f32[3,5] parameter(0)
  q1 = f32[15] parameter(1)
  r = f32[15] reshape(q0)
  ROOT c = f32[30] concatenate(r, q1), dimensions={0}
}
ENTRY e {
  p0 = f32[3,5] parameter(0)
  r0 = f32[15] reshape(p0)
  s = f32[15] negate(r0)
  ROOT f = f32[30] fusion(p0, s), kind=kLoop, calls=fused
})",
                     {"p0", "s"});
}

TEST_F(ProducerConsumerIndexingTest, SameProducerInTwoSlots) {
  ExpectSameAsFusion(R"(
HloModule m
ENTRY e {
  p0 = f32[4,6] parameter(0)
  producer = f32[6,4] transpose(p0), dimensions={1,0}
  ROOT consumer = f32[6,4] multiply(producer, producer)
})",
                     R"(
HloModule m
fused {
  q0 = f32[4,6] parameter(0)
  t = f32[6,4] transpose(q0), dimensions={1,0}
  ROOT m = f32[6,4] multiply(t, t)
}
ENTRY e {
  p0 = f32[4,6] parameter(0)
  ROOT f = f32[6,4] fusion(p0), kind=kLoop, calls=fused
})",
                     {"p0"});
}

TEST_F(ProducerConsumerIndexingTest, ProducerWithoutRuleIsUndefined) {
  std::unique_ptr<HloModule> module = Parse(R"(
HloModule m
lt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=LT
}
ENTRY e {
  p0 = f32[8] parameter(0)
  producer = f32[8] sort(p0), dimensions={0}, to_apply=lt
  ROOT consumer = f32[8] negate(producer)
})");
  ASSERT_NE(module, nullptr);
  const HloComputation* entry = module->entry_computation();
  auto result = ComputeProducerConsumerIndexing(
      *entry->GetInstruction("producer"), *entry->GetInstruction("consumer"),
      &context_);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->indexing.indexing_maps.size(), 1);
  ASSERT_EQ(result->indexing.indexing_maps[0].size(), 1);
  EXPECT_EQ(result->indexing.indexing_maps[0][0].undefined_reason(),
            "no indexing rule for opcode 'sort'");
}

TEST_F(ProducerConsumerIndexingTest, NotAnOperandIsAnError) {
  std::unique_ptr<HloModule> module = Parse(R"(
HloModule m
ENTRY e {
  p0 = f32[8] parameter(0)
  producer = f32[8] negate(p0)
  ROOT consumer = f32[8] exponential(p0)
})");
  ASSERT_NE(module, nullptr);
  const HloComputation* entry = module->entry_computation();
  auto result = ComputeProducerConsumerIndexing(
      *entry->GetInstruction("producer"), *entry->GetInstruction("consumer"),
      &context_);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(),
            "producer 'producer' is not an operand of consumer 'consumer'");
}

}  // namespace
}  // namespace xla_index
