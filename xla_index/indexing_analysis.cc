#include "xla_index/indexing_analysis.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlo/module.h"
#include "hlo/opcode.h"
#include "xla_index/core/status_macros.h"

namespace xla_index {
namespace {

bool ReadsOnlyLeaves(const HloInstruction& instruction) {
  for (const HloInstruction* operand : instruction.operands()) {
    if (operand->opcode() != HloOpcode::kParameter &&
        operand->opcode() != HloOpcode::kConstant) {
      return false;
    }
  }
  return true;
}

// Merges the per-output sets of `indexing` into one set.
IndexingMapSet MergeOutputs(const HloInstructionIndexing& indexing) {
  IndexingMapSet merged;
  for (const IndexingMapSet& set : indexing.indexing_maps) {
    merged.InsertAll(set);
  }
  return merged;
}

}  // namespace

absl::string_view IndexingDirectionName(IndexingDirection direction) {
  return direction == IndexingDirection::kOutputToInput ? "output-to-input"
                                                        : "input-to-output";
}

absl::StatusOr<IndexingDirection> ParseIndexingDirection(
    absl::string_view name) {
  if (name == "output-to-input") return IndexingDirection::kOutputToInput;
  if (name == "input-to-output") return IndexingDirection::kInputToOutput;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown direction '", name,
                   "', expected output-to-input or input-to-output"));
}

namespace {

// One output of one instruction (the index is 0 for array shapes).
using Value = std::pair<const HloInstruction*, int64_t>;

// What operand `k` of `user` reads: a get-tuple-element one element of its
// tuple operand, any other op its operand's (only) output.
Value OperandValue(const HloInstruction& user, int64_t k) {
  return {user.operand(k), user.opcode() == HloOpcode::kGetTupleElement
                               ? user.tuple_index()
                               : 0};
}

// The shape of `value`, or null when its instruction has no such output.
const Shape* ValueShape(const Value& value) {
  const Shape& shape = value.first->shape();
  if (!shape.IsTuple()) return value.second == 0 ? &shape : nullptr;
  if (value.second < 0 ||
      value.second >= static_cast<int64_t>(shape.tuple_shapes().size())) {
    return nullptr;
  }
  return &shape.tuple_shapes(value.second);
}

// The maps of every output of `target` (a tuple's output k is its operand
// k), composed back to the parameters of its computation in ONE walk from
// users to producers: each value is composed once with the deduplicated
// maps that all outputs bring to it, where a walk per output would compose
// a producer the outputs share once per output. The union over outputs is
// what ComputeComputationOutputToInputIndexing gives output by output; only
// the order of the maps in a set may differ. A value whose set outgrows
// bound.max_maps fails (bound.fail) or becomes UNDEFINED.
class AllOutputsWalk {
 public:
  AllOutputsWalk(const CompositionBound& bound, mlir::MLIRContext* context)
      : bound_(bound), context_(context) {}

  absl::StatusOr<HloInstructionIndexing> Run(const HloInstruction& target) {
    const HloComputation& computation = *target.parent();
    result_.indexing_maps.resize(computation.parameters().size());
    for (int64_t out = 0; out < OutputCount(&target); ++out) {
      Value start = target.opcode() == HloOpcode::kTuple
                        ? Value{target.operand(out), 0}
                        : Value{&target, out};
      const Shape* value_shape = ValueShape(start);
      if (value_shape == nullptr || !value_shape->IsArray()) {
        // Nothing to index: UNDEFINED if the value is a parameter.
        Collect(*start.first, IndexingMapSet{IndexingMap::Undefined()});
        continue;
      }
      maps_[start].Insert(CreateIdentityMap(*value_shape, context_));
    }
    std::vector<HloInstruction*> post_order = computation.PostOrder();
    for (auto it = post_order.rbegin(); it != post_order.rend(); ++it) {
      XI_RETURN_IF_ERROR(Visit(**it));
    }
    return std::move(result_);
  }

 private:
  // All users come earlier in the walk, so the maps of `instruction` are
  // final: composed into its operands, then released.
  absl::Status Visit(const HloInstruction& instruction) {
    for (int64_t out = 0; out < OutputCount(&instruction); ++out) {
      auto found = maps_.find(Value{&instruction, out});
      if (found == maps_.end()) continue;
      IndexingMapSet consumer_maps = std::move(found->second);
      maps_.erase(found);
      Collect(instruction, consumer_maps);
      if (instruction.operand_count() == 0) continue;
      HloInstructionIndexing rule =
          ComputeOutputToInputIndexing(&instruction, out, context_);
      const int64_t operands = std::min<int64_t>(rule.indexing_maps.size(),
                                                 instruction.operand_count());
      for (int64_t k = 0; k < operands; ++k) {
        IndexingMapSet& operand_maps = maps_[OperandValue(instruction, k)];
        for (const IndexingMap& consumer : consumer_maps) {
          for (const IndexingMap& producer : rule.indexing_maps[k]) {
            XI_RETURN_IF_ERROR(Insert(*instruction.operand(k), operand_maps,
                                      Compose(consumer, producer)));
          }
        }
      }
    }
    return absl::OkStatus();
  }

  static IndexingMap Compose(const IndexingMap& first,
                             const IndexingMap& second) {
    IndexingMap composed = ComposeIndexingMaps(first, second);
    SimplifyAndRemoveUnusedSymbols(composed);
    return composed;
  }

  absl::Status Insert(const HloInstruction& owner, IndexingMapSet& set,
                      IndexingMap map) {
    if (set.size() == 1 && set[0].IsUndefined()) return absl::OkStatus();
    set.Insert(std::move(map));
    if (set.size() <= bound_.max_maps) return absl::OkStatus();
    if (bound_.fail) {
      return absl::ResourceExhaustedError(
          absl::StrCat("the maps of ", owner.name(), " exceed ",
                       bound_.max_maps, " distinct maps"));
    }
    set = {IndexingMap::Undefined()};
    return absl::OkStatus();
  }

  // A parameter's maps are the answer for its number.
  void Collect(const HloInstruction& instruction, const IndexingMapSet& maps) {
    if (instruction.opcode() != HloOpcode::kParameter) return;
    const int64_t number = instruction.parameter_number();
    if (number < 0 ||
        number >= static_cast<int64_t>(result_.indexing_maps.size())) {
      return;
    }
    result_.indexing_maps[number].InsertAll(maps);
  }

  const CompositionBound& bound_;
  mlir::MLIRContext* context_;
  absl::flat_hash_map<Value, IndexingMapSet> maps_;
  HloInstructionIndexing result_;
};

// Output to input: composed through the computation for all outputs at
// once, or per output of `instruction` (one unless it returns a tuple) its
// own rule, merged per operand.
absl::Status AnalyzeOutputToInput(const HloInstruction& instruction,
                                  bool compose, const CompositionBound& bound,
                                  mlir::MLIRContext* context,
                                  HloInstructionIndexing& result) {
  if (compose) {
    XI_ASSIGN_OR_RETURN(result,
                        AllOutputsWalk(bound, context).Run(instruction));
    return absl::OkStatus();
  }
  result.indexing_maps.resize(instruction.operand_count());
  for (int64_t out = 0; out < OutputCount(&instruction); ++out) {
    HloInstructionIndexing one =
        ComputeOutputToInputIndexing(&instruction, out, context);
    const size_t operands =
        std::min(one.indexing_maps.size(), result.indexing_maps.size());
    for (size_t k = 0; k < operands; ++k) {
      result.indexing_maps[k].InsertAll(one.indexing_maps[k]);
    }
  }
  return absl::OkStatus();
}

// Input to output: per operand (own rule) or per parameter of the
// computation (one forward walk for all parameters), outputs merged.
absl::Status AnalyzeInputToOutput(const HloInstruction& instruction,
                                  bool compose, const CompositionBound& bound,
                                  mlir::MLIRContext* context,
                                  HloInstructionIndexing& result) {
  if (!compose) {
    for (int64_t k = 0; k < instruction.operand_count(); ++k) {
      result.indexing_maps.push_back(
          MergeOutputs(ComputeInputToOutputIndexing(&instruction, k, context)));
    }
    return absl::OkStatus();
  }
  XI_ASSIGN_OR_RETURN(result.indexing_maps,
                      ComputeParametersToOutputIndexing(
                          *instruction.parent(), &instruction, bound, context));
  return absl::OkStatus();
}

absl::StatusOr<AnalyzedIndexing> Analyze(const HloInstruction& instruction,
                                         IndexingDirection direction,
                                         bool compose_requested,
                                         const CompositionBound& bound,
                                         mlir::MLIRContext* context) {
  AnalyzedIndexing result;
  const bool compose = compose_requested && instruction.parent() != nullptr &&
                       instruction.opcode() != HloOpcode::kFusion &&
                       instruction.opcode() != HloOpcode::kCall &&
                       !ReadsOnlyLeaves(instruction);
  result.operand_kind =
      compose ? AnalyzedIndexing::OperandKind::kComputationParameter
              : AnalyzedIndexing::OperandKind::kInstructionOperand;
  if (direction == IndexingDirection::kOutputToInput) {
    XI_RETURN_IF_ERROR(AnalyzeOutputToInput(instruction, compose, bound,
                                            context, result.indexing));
  } else {
    XI_RETURN_IF_ERROR(AnalyzeInputToOutput(instruction, compose, bound,
                                            context, result.indexing));
  }
  return result;
}

}  // namespace

absl::StatusOr<AnalyzedIndexing> AnalyzeIndexing(
    const HloInstruction& instruction, IndexingDirection direction,
    const AnalyzeOptions& options, mlir::MLIRContext* context) {
  return Analyze(instruction, direction, options.compose,
                 CompositionBound{options.max_maps, /*fail=*/true}, context);
}

AnalyzedIndexing AnalyzeIndexing(const HloInstruction& instruction,
                                 IndexingDirection direction,
                                 mlir::MLIRContext* context) {
  // The default bound collapses to UNDEFINED instead of failing.
  return *Analyze(instruction, direction, /*compose=*/true, CompositionBound{},
                  context);
}

}  // namespace xla_index
