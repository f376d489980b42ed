#ifndef XLA_INDEX_PRODUCER_CONSUMER_INDEXING_H_
#define XLA_INDEX_PRODUCER_CONSUMER_INDEXING_H_

// The indexing of a producer as if it were fused into its consumer, without
// building the fusion: what a fusion pass asks before deciding to fuse (the
// use XLA makes of HloFusionAdaptor::ForProducerConsumer).
//
// For a consumer output element x, the consumer reads operand slot j at
// C_j(x). When slot j is the producer, the producer reads its operand i at
// P_i(C_j(x)): the composition "C_j then P_i". Every other slot keeps C_j.
// The maps of one instruction reached through several slots are merged (a
// duplicate-free union), exactly as the fused computation would merge them.
//
// Example: with producer t = f32[20,10] transpose(p0), dimensions={1,0} and
// consumer a = f32[20,10] add(t, p1), the fused pair has operands {p0, p1}:
// p0 is read at (d0, d1) -> (d1, d0) (the transpose composed into the add)
// and p1 at (d0, d1) -> (d0, d1), as the fusion of the two would read them.

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "hlo/instruction.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/ops/instruction_indexing.h"

namespace xla_index {

/// The operands and maps of a producer fused into its consumer.
struct ProducerConsumerIndexing {
  /// The operands of the fused pair, as a fusion of the two would take them:
  /// the consumer's operands in order, each slot holding the producer
  /// replaced by the producer's operands, every instruction listed once (at
  /// its first occurrence).
  std::vector<const HloInstruction*> operands;
  /// indexing.indexing_maps[k]: the maps from an element of the consumer's
  /// output to the elements of operands[k] (output-to-input), simplified.
  HloInstructionIndexing indexing;
};

/// Output-to-input indexing of `producer` fused into `consumer`, for output
/// `consumer_output_id` of the consumer (0 unless it returns a tuple); see
/// the file comment. Either may be a fusion. Ops without a rule give
/// UNDEFINED maps (with their reason) for the operands they read, as in
/// ComputeOutputToInputIndexing. InvalidArgument naming both instructions
/// when `producer` is not an operand of `consumer` or returns a tuple
/// (a multi-output producer is read through get-tuple-element).
absl::StatusOr<ProducerConsumerIndexing> ComputeProducerConsumerIndexing(
    const HloInstruction& producer, const HloInstruction& consumer,
    mlir::MLIRContext* context, int64_t consumer_output_id = 0);

}  // namespace xla_index

#endif  // XLA_INDEX_PRODUCER_CONSUMER_INDEXING_H_
