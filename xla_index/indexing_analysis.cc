#include "xla_index/indexing_analysis.h"

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlo/module.h"
#include "hlo/opcode.h"

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

AnalyzedIndexing AnalyzeIndexing(const HloInstruction& instruction,
                                 IndexingDirection direction,
                                 mlir::MLIRContext* context) {
  AnalyzedIndexing result;
  const HloComputation* computation = instruction.parent();
  const bool compose =
      computation != nullptr && instruction.opcode() != HloOpcode::kFusion &&
      instruction.opcode() != HloOpcode::kCall && !ReadsOnlyLeaves(instruction);
  result.operand_kind =
      compose ? AnalyzedIndexing::OperandKind::kComputationParameter
              : AnalyzedIndexing::OperandKind::kInstructionOperand;

  if (direction == IndexingDirection::kOutputToInput) {
    for (int64_t out = 0; out < OutputCount(&instruction); ++out) {
      HloInstructionIndexing one =
          compose ? ComputeComputationOutputToInputIndexing(
                        *computation, &instruction, out, context)
                  : ComputeOutputToInputIndexing(&instruction, out, context);
      if (result.indexing.indexing_maps.size() < one.indexing_maps.size()) {
        result.indexing.indexing_maps.resize(one.indexing_maps.size());
      }
      for (size_t k = 0; k < one.indexing_maps.size(); ++k) {
        result.indexing.indexing_maps[k].InsertAll(one.indexing_maps[k]);
      }
    }
    if (!compose) {
      result.indexing.indexing_maps.resize(instruction.operand_count());
    }
    return result;
  }

  if (compose) {
    std::vector<HloInstruction*> parameters = computation->parameters();
    result.indexing.indexing_maps.resize(parameters.size());
    for (const HloInstruction* parameter : parameters) {
      int64_t number = parameter->parameter_number();
      if (number < 0 || number >= static_cast<int64_t>(parameters.size())) {
        continue;
      }
      result.indexing.indexing_maps[number] =
          MergeOutputs(ComputeInputToOutputIndexingThroughComputation(
              *computation, parameter, &instruction, context));
    }
    return result;
  }
  for (int64_t k = 0; k < instruction.operand_count(); ++k) {
    result.indexing.indexing_maps.push_back(
        MergeOutputs(ComputeInputToOutputIndexing(&instruction, k, context)));
  }
  return result;
}

}  // namespace xla_index
