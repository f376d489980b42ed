#include "xla_index/analysis/read_coalesced_heuristic.h"

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "hlo/opcode.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

// A broadcast or iota, reached through bitcasts and elementwise ops of one
// operand (the transposes XLA allows).
bool IsBroadcastLike(const HloInstruction* i) {
  while (true) {
    if (i->opcode() == HloOpcode::kBroadcast ||
        i->opcode() == HloOpcode::kIota) {
      return true;
    }
    if (i->operand_count() != 1) return false;
    if (i->opcode() != HloOpcode::kBitcast && !IsElementwise(i->opcode())) {
      return false;
    }
    i = i->operand(0);
  }
}

// The instruction transposes the minor dimension of something that is not
// a broadcast (a fusion: any instruction inside does).
const HloInstruction* BadTranspose(const HloInstruction& i) {
  if (i.opcode() == HloOpcode::kFusion) {
    const HloComputation* fused = i.fused_computation();
    if (fused == nullptr) return nullptr;
    for (const auto& inner : fused->instructions()) {
      if (inner->opcode() != HloOpcode::kFusion &&
          TransposesMinorDimension(*inner) &&
          !IsBroadcastLike(inner->operand(0))) {
        return inner.get();
      }
    }
    return nullptr;
  }
  if (TransposesMinorDimension(i) && !IsBroadcastLike(i.operand(0))) return &i;
  return nullptr;
}

absl::StatusOr<EmitterChoice> EmitterOf(const HloInstruction& i,
                                        const GpuDeviceDescription& device,
                                        mlir::MLIRContext* context) {
  XI_ASSIGN_OR_RETURN(AnalyzedFusion kernel,
                      AnalyzeInstructionOperands(i, context));
  return ChooseEmitter(kernel, device);
}

}  // namespace

bool IsReadCoalescedHeuristic(EmitterKind fused_kind,
                              const GpuDeviceDescription& device,
                              const HloInstruction& producer,
                              const HloInstruction* consumer,
                              std::string* reason) {
  auto answer = [&](bool coalesced, std::string why) {
    if (reason != nullptr) *reason = std::move(why);
    return coalesced;
  };
  if (fused_kind != EmitterKind::kTranspose) {
    for (const HloInstruction* i : {&producer, consumer}) {
      if (i == nullptr) continue;
      if (const HloInstruction* t = BadTranspose(*i)) {
        return answer(false,
                      absl::StrCat(t->name(),
                                   " transposes the minor dimension outside "
                                   "the transpose emitter"));
      }
    }
  }
  if (fused_kind == EmitterKind::kReduction && consumer != nullptr &&
      IsInputFusibleReduction(producer, device) &&
      IsInputFusibleReduction(*consumer, device)) {
    return answer(false, "fusing two reductions (both input-fusible)");
  }
  return answer(true,
                "no minor-dimension transpose and no reduction fused into "
                "a reduction");
}

absl::StatusOr<ProducerConsumerCoalescing> AnalyzeProducerConsumerCoalescing(
    const HloInstruction& producer, const HloInstruction* consumer,
    const GpuDeviceDescription& device, mlir::MLIRContext* context) {
  ProducerConsumerCoalescing out;
  out.producer = producer.name();
  XI_ASSIGN_OR_RETURN(EmitterChoice fused,
                      EmitterOf(producer, device, context));
  if (consumer != nullptr) {
    out.consumer = consumer->name();
    XI_ASSIGN_OR_RETURN(EmitterChoice c, EmitterOf(*consumer, device, context));
    // The producer's hero heads the fused kernel only when the consumer
    // is a chain link above it: one operand (the producer), elementwise
    // or a bitcast/reshape.
    const bool link = consumer->operand_count() == 1 &&
                      consumer->operand(0) == &producer &&
                      (IsElementwise(consumer->opcode()) ||
                       consumer->opcode() == HloOpcode::kBitcast ||
                       consumer->opcode() == HloOpcode::kReshape);
    const bool producer_heads = c.kind == EmitterKind::kLoop && link &&
                                (fused.kind == EmitterKind::kReduction ||
                                 fused.kind == EmitterKind::kTranspose);
    if (!producer_heads) fused = std::move(c);
  }
  out.emitter = fused.name;
  out.emitter_reason = fused.reason;
  out.coalesced = IsReadCoalescedHeuristic(fused.kind, device, producer,
                                           consumer, &out.reason);
  return out;
}

std::string ProducerConsumerCoalescingToText(
    const ProducerConsumerCoalescing& a) {
  return absl::StrCat("producer: ", a.producer, "\n",
                      a.consumer.empty()
                          ? std::string()
                          : absl::StrCat("consumer: ", a.consumer, "\n"),
                      "fused emitter: ", a.emitter, " (", a.emitter_reason,
                      ")\nreads coalesced: ", a.coalesced ? "yes" : "no", " (",
                      a.reason, ")\n");
}

std::string ProducerConsumerCoalescingToJson(
    const ProducerConsumerCoalescing& a) {
  return absl::StrCat(
      "{\"producer\": ", JsonQuote(a.producer), ", \"consumer\": ",
      a.consumer.empty() ? std::string("null") : JsonQuote(a.consumer),
      ", \"emitter\": ", JsonQuote(a.emitter),
      ", \"emitter_reason\": ", JsonQuote(a.emitter_reason),
      ", \"coalesced\": ", a.coalesced ? "true" : "false",
      ", \"reason\": ", JsonQuote(a.reason), "}\n");
}

}  // namespace xla_index
