#ifndef XLA_INDEX_ANALYSIS_READ_COALESCED_HEURISTIC_H_
#define XLA_INDEX_ANALYSIS_READ_COALESCED_HEURISTIC_H_

// XLA's producer-consumer coalescing query (IsReadCoalescedHeuristic in
// xla/service/gpu/model/coalescing_analysis.cc), what XLA's fusion passes
// ask before fusing a producer into a consumer: would the fused kernel
// still read its inputs coalesced?
//
//  - Unless the fused kernel runs on the transpose emitter, a producer or
//    consumer that transposes the minor dimension (TransposesMinorDimension:
//    a transpose or layout-changing copy, or a fusion holding one) breaks
//    coalescing, except a transpose of a broadcast or iota (through
//    bitcasts and elementwise ops).
//  - On the reduction emitter, fusing two input-fusible reductions
//    (IsInputFusibleReduction) breaks coalescing.
//  - Otherwise the reads are coalesced.
//
// The fused kernel's emitter: the consumer's (emitter_choice.h, the
// consumer as its own kernel), or, when that is the loop emitter, the
// consumer is one elementwise, bitcast or reshape step on the producer and
// the producer alone runs on the reduction or transpose emitter, the
// producer's (its hero then heads the fused kernel). Without a
// consumer, the producer's. XLA builds the fused analysis itself; this is
// the approximation docs/API.md describes.

#include <string>

#include "absl/status/statusor.h"
#include "hlo/instruction.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/emitter_choice.h"
#include "xla_index/analysis/gpu_device.h"

namespace xla_index {

struct ProducerConsumerCoalescing {
  std::string producer;
  /// Empty when the producer is asked about alone.
  std::string consumer;
  /// The fused kernel's emitter and why (see the file comment).
  std::string emitter;
  std::string emitter_reason;
  bool coalesced = true;
  /// Which rule decided.
  std::string reason;
};

/// XLA's IsReadCoalescedHeuristic for a known emitter kind; `reason`, when
/// not null, receives which rule decided.
bool IsReadCoalescedHeuristic(EmitterKind fused_kind,
                              const GpuDeviceDescription& device,
                              const HloInstruction& producer,
                              const HloInstruction* consumer,
                              std::string* reason = nullptr);

/// The query with the fused kernel's emitter chosen as the file comment
/// says. Errors of the emitter choice (e.g. an instruction that is not an
/// array) are returned.
absl::StatusOr<ProducerConsumerCoalescing> AnalyzeProducerConsumerCoalescing(
    const HloInstruction& producer, const HloInstruction* consumer,
    const GpuDeviceDescription& device, mlir::MLIRContext* context);

/// "producer: P\nconsumer: C\nfused emitter: E (why)\nreads coalesced: yes
/// (rule)\n".
std::string ProducerConsumerCoalescingToText(
    const ProducerConsumerCoalescing& answer);
/// {"producer": P, "consumer": C or null, "emitter": E, "emitter_reason":
/// R, "coalesced": true, "reason": W}
std::string ProducerConsumerCoalescingToJson(
    const ProducerConsumerCoalescing& answer);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_READ_COALESCED_HEURISTIC_H_
