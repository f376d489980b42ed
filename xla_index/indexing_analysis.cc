#include "xla_index/indexing_analysis.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "hlo/module.h"
#include "hlo/opcode.h"
#include "xla_index/ops/op_rules.h"

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

// Output to input: composed through the computation for all outputs at
// once, or per output of `instruction` (one unless it returns a tuple) its
// own rule, merged per operand.
absl::Status AnalyzeOutputToInput(const HloInstruction& instruction,
                                  bool compose, const CompositionBound& bound,
                                  mlir::MLIRContext* context,
                                  HloInstructionIndexing& result) {
  if (compose) {
    XI_ASSIGN_OR_RETURN(
        result, ComputeComputationAllOutputsToInputIndexing(
                    *instruction.parent(), &instruction, bound, context));
    return absl::OkStatus();
  }
  if (instruction.opcode() == HloOpcode::kTuple) {
    // Built directly: merging its per-output rules is quadratic in its width.
    result = ComputeTupleIndexingOfAllOutputs(&instruction, context);
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
  if (!compose && instruction.opcode() == HloOpcode::kTuple) {
    result = ComputeTupleIndexingOfAllOutputs(&instruction, context);
    return absl::OkStatus();
  }
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
  // The default bound collapses to UNDEFINED instead of failing; only a
  // computation whose parameters are not numbered 0..n-1 fails, and then
  // every parameter gets one UNDEFINED map saying why.
  absl::StatusOr<AnalyzedIndexing> analyzed = Analyze(
      instruction, direction, /*compose=*/true, CompositionBound{}, context);
  if (analyzed.ok()) return *std::move(analyzed);
  AnalyzedIndexing undefined;
  undefined.operand_kind = AnalyzedIndexing::OperandKind::kComputationParameter;
  undefined.indexing.indexing_maps.resize(
      instruction.parent() == nullptr
          ? 0
          : instruction.parent()->parameters().size());
  for (IndexingMapSet& maps : undefined.indexing.indexing_maps) {
    maps.Insert(
        IndexingMap::Undefined(std::string(analyzed.status().message())));
  }
  return undefined;
}

}  // namespace xla_index
