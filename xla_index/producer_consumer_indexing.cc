#include "xla_index/producer_consumer_indexing.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlo/shape.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/output_to_input_indexing.h"

namespace xla_index {
namespace {

// The fused operand list and, for each listed instruction, its position.
class FusedOperands {
 public:
  int64_t IndexOf(const HloInstruction* instruction) {
    auto [it, added] = index_.try_emplace(instruction, operands_.size());
    if (added) operands_.push_back(instruction);
    return it->second;
  }
  std::vector<const HloInstruction*> Release() { return std::move(operands_); }

 private:
  std::vector<const HloInstruction*> operands_;
  absl::flat_hash_map<const HloInstruction*, int64_t> index_;
};

// The rule maps of `instruction`, simplified: what the fused computation's
// walk gets from composing the identity on the root with the root's rule.
HloInstructionIndexing SimplifiedRule(const HloInstruction* instruction,
                                      int64_t output_id,
                                      mlir::MLIRContext* context) {
  HloInstructionIndexing rule =
      ComputeOutputToInputIndexing(instruction, output_id, context);
  rule.Simplify();
  return rule;
}

IndexingMapSet& SetOf(HloInstructionIndexing& indexing, int64_t k) {
  if (static_cast<int64_t>(indexing.indexing_maps.size()) <= k) {
    indexing.indexing_maps.resize(k + 1);
  }
  return indexing.indexing_maps[k];
}

}  // namespace

absl::StatusOr<ProducerConsumerIndexing> ComputeProducerConsumerIndexing(
    const HloInstruction& producer, const HloInstruction& consumer,
    mlir::MLIRContext* context, int64_t consumer_output_id) {
  const auto& consumer_operands = consumer.operands();
  if (std::find(consumer_operands.begin(), consumer_operands.end(),
                &producer) == consumer_operands.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "producer '", producer.name(), "' is not an operand of consumer '",
        consumer.name(), "'"));
  }
  if (producer.shape().IsTuple()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "producer '", producer.name(), "' of consumer '", consumer.name(),
        "' returns a tuple; fuse its get-tuple-element users instead"));
  }
  HloInstructionIndexing consumer_rule =
      SimplifiedRule(&consumer, consumer_output_id, context);
  HloInstructionIndexing producer_rule = SimplifiedRule(&producer, 0, context);
  FusedOperands fused;
  ProducerConsumerIndexing result;
  const int64_t slots = std::min<int64_t>(consumer_rule.indexing_maps.size(),
                                          consumer.operand_count());
  for (int64_t j = 0; j < slots; ++j) {
    const HloInstruction* operand = consumer.operand(j);
    const IndexingMapSet& consumer_maps = consumer_rule.indexing_maps[j];
    if (operand != &producer) {
      SetOf(result.indexing, fused.IndexOf(operand)).InsertAll(consumer_maps);
      continue;
    }
    // Slot j is the producer: x -> C_j(x) -> P_i(C_j(x)) for each operand i.
    for (int64_t i = 0; i < producer.operand_count(); ++i) {
      IndexingMapSet& set =
          SetOf(result.indexing, fused.IndexOf(producer.operand(i)));
      if (i >= static_cast<int64_t>(producer_rule.indexing_maps.size())) {
        continue;
      }
      const IndexingMapSet& producer_maps = producer_rule.indexing_maps[i];
      for (int64_t c = 0; c < consumer_maps.size(); ++c) {
        for (int64_t p = 0; p < producer_maps.size(); ++p) {
          auto [map, replica] = ComposeWithReplicaMaps(
              consumer_maps[c], consumer_maps.replica_map(c), producer_maps[p],
              producer_maps.replica_map(p));
          set.Insert(std::move(map), std::move(replica));
        }
      }
    }
  }
  result.operands = fused.Release();
  // An operand whose slot has no maps (e.g. the producer reads nothing of it)
  // still gets its (empty) entry.
  result.indexing.indexing_maps.resize(result.operands.size());
  return result;
}

}  // namespace xla_index
