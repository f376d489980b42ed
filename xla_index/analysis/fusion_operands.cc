#include "xla_index/analysis/fusion_operands.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "layout/shape_layout.h"
#include "xla_index/fusion_indexing.h"
#include "xla_index/output_to_input_indexing.h"

namespace xla_index {
namespace {

// `shape` with a layout: its own, else `fallback`'s, else the default.
Shape WithLayout(const Shape& shape, const Shape& fallback) {
  if (!shape.IsArray() || shape.has_layout()) return shape;
  Shape result = shape;
  if (fallback.IsArray() && fallback.has_layout() &&
      fallback.rank() == shape.rank()) {
    result.set_layout(fallback.layout());
    return result;
  }
  return WithDefaultLayout(result);
}

// The output shapes of `root` (tuple elements for a tuple), each an array.
absl::StatusOr<std::vector<Shape>> OutputShapes(const HloInstruction& root) {
  const Shape& shape = root.shape();
  std::vector<Shape> outputs;
  if (shape.IsTuple()) {
    outputs = shape.tuple_shapes();
  } else {
    outputs.push_back(shape);
  }
  if (outputs.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "instruction '", root.name(), "' (line ", root.source_line(),
        ") has no outputs: ", shape.ToString()));
  }
  for (size_t j = 0; j < outputs.size(); ++j) {
    if (!outputs[j].IsArray()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "instruction '", root.name(), "' (line ", root.source_line(), ")",
          shape.IsTuple() ? absl::StrCat(" output ", j) : "",
          " does not produce an array: ", shape.ToString()));
    }
    if (outputs[j].HasUnboundedDimension()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "instruction '", root.name(), "' (line ", root.source_line(), ")",
          shape.IsTuple() ? absl::StrCat(" output ", j) : "",
          " has the unbounded shape ", outputs[j].ToString(),
          ": a '?' dimension has no size to count or index"));
    }
    // Every analysis counts output elements; they must fit.
    if (!CheckedProduct(outputs[j].dimensions())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "instruction '", root.name(), "' (line ", root.source_line(), ")",
          shape.IsTuple() ? absl::StrCat(" output ", j) : "", " of shape ",
          outputs[j].ToString(), " has more than INT64_MAX elements"));
    }
    outputs[j] = WithLayout(outputs[j], outputs[j]);
  }
  return outputs;
}

// Appends `indexing` (maps per operand number) as output `output`'s maps.
void AddOutputMaps(const HloInstructionIndexing& indexing, size_t output,
                   std::vector<FusionOperand>& operands) {
  for (FusionOperand& operand : operands) {
    if (operand.number >= 0 &&
        operand.number < static_cast<int64_t>(indexing.indexing_maps.size())) {
      operand.maps_by_output[output] = indexing.indexing_maps[operand.number];
      operand.maps.InsertAll(operand.maps_by_output[output]);
    }
  }
}

// A fusion: operand K is the fusion's operand K (its layout, else the fused
// parameter's), read through the fused computation's composed maps. Any
// other instruction (no computation to compose): its own operands and rule.
void AddFusionOperands(AnalyzedFusion& fusion, mlir::MLIRContext* context) {
  const HloInstruction* root = fusion.root;
  const size_t outputs = fusion.output_shapes.size();
  for (int64_t k = 0; k < root->operand_count(); ++k) {
    const HloInstruction* operand = root->operand(k);
    const HloInstruction* parameter =
        fusion.computation ? fusion.computation->parameter(k) : nullptr;
    FusionOperand entry_operand;
    entry_operand.number = k;
    entry_operand.name = operand->name();
    entry_operand.shape = WithLayout(
        operand->shape(), parameter ? parameter->shape() : operand->shape());
    entry_operand.maps_by_output.resize(outputs);
    fusion.operands.push_back(std::move(entry_operand));
  }
  for (size_t j = 0; j < outputs; ++j) {
    AddOutputMaps(fusion.computation
                      ? ComputeOutputToInputFusionIndexing(root, j, context)
                      : ComputeOutputToInputIndexing(root, j, context),
                  j, fusion.operands);
  }
}

// Any other instruction: operand K is parameter K of its computation,
// read through the maps composed from the instruction back to it.
void AddParameterOperands(AnalyzedFusion& fusion, mlir::MLIRContext* context) {
  const size_t outputs = fusion.output_shapes.size();
  for (const HloInstruction* parameter : fusion.computation->parameters()) {
    FusionOperand operand;
    operand.number = parameter->parameter_number();
    operand.name = parameter->name();
    operand.shape = WithLayout(parameter->shape(), parameter->shape());
    operand.maps_by_output.resize(outputs);
    fusion.operands.push_back(std::move(operand));
  }
  std::sort(fusion.operands.begin(), fusion.operands.end(),
            [](const FusionOperand& a, const FusionOperand& b) {
              return a.number < b.number;
            });
  for (size_t j = 0; j < outputs; ++j) {
    AddOutputMaps(ComputeComputationOutputToInputIndexing(
                      *fusion.computation, fusion.root, j, context),
                  j, fusion.operands);
  }
}

// Every operand keeps one map set per output (maps_by_output), so a kernel
// holds operands x outputs sets: a tuple root of 20,000 parameters would
// need 400 million (tens of GB). Beyond this many the analysis is refused.
constexpr int64_t kMaxOperandOutputPairs = int64_t{1} << 20;

absl::Status CheckOperandOutputPairs(const HloInstruction& instruction,
                                     int64_t operands, int64_t outputs) {
  if (operands <= kMaxOperandOutputPairs / std::max<int64_t>(outputs, 1)) {
    return absl::OkStatus();
  }
  return absl::ResourceExhaustedError(absl::StrCat(
      "'", instruction.name(), "' has ", operands, " operands and ", outputs,
      " outputs: their per-output maps would take ", operands, " x ", outputs,
      " sets (the limit is ", kMaxOperandOutputPairs, ")"));
}

// An operand that is read (some map, even an UNDEFINED one) must have
// sizes: the analyses count its elements and bytes. XLA's parser reads an
// unbounded `?` dimension; the analyses of it are refused here, by name.
absl::Status CheckReadOperandsBounded(const AnalyzedFusion& fusion) {
  for (const FusionOperand& operand : fusion.operands) {
    if (!operand.maps.empty() && operand.shape.HasUnboundedDimension()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "operand ", operand.number, " '", operand.name, "' of '",
          fusion.root->name(), "' (line ", fusion.root->source_line(),
          ") has the unbounded shape ", operand.shape.ToString(false),
          ": a '?' dimension has no size to count or index"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<AnalyzedFusion> AnalyzeFusionOperands(
    const HloInstruction& instruction, mlir::MLIRContext* context) {
  AnalyzedFusion fusion;
  fusion.root = &instruction;
  absl::StatusOr<std::vector<Shape>> outputs = OutputShapes(instruction);
  if (!outputs.ok()) return outputs.status();
  fusion.output_shapes = *std::move(outputs);
  fusion.output_shape = fusion.output_shapes[0];
  const int64_t outputs_count = fusion.output_shapes.size();
  if (const HloComputation* fused = instruction.fused_computation()) {
    XI_RETURN_IF_ERROR(CheckOperandOutputPairs(
        instruction, instruction.operand_count(), outputs_count));
    fusion.computation = fused;
    AddFusionOperands(fusion, context);
    XI_RETURN_IF_ERROR(CheckReadOperandsBounded(fusion));
    return fusion;
  }
  fusion.computation = instruction.parent();
  if (fusion.computation == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "instruction '", instruction.name(), "' is not part of a computation"));
  }
  XI_RETURN_IF_ERROR(CheckOperandOutputPairs(
      instruction, fusion.computation->parameters().size(), outputs_count));
  // Operand K is the parameter numbered K (the maps come by number from
  // ComputeComputationOutputToInputIndexing): a snippet's gap (hlo/parser.h
  // reads `p = f32[8] parameter(1)` alone) is refused, naming the
  // parameter, as the commands refuse it when loading (tools/hlo_input.h).
  XI_RETURN_IF_ERROR(CheckParametersNumbered(*fusion.computation));
  AddParameterOperands(fusion, context);
  XI_RETURN_IF_ERROR(CheckReadOperandsBounded(fusion));
  return fusion;
}

absl::StatusOr<AnalyzedFusion> AnalyzeInstructionOperands(
    const HloInstruction& instruction, mlir::MLIRContext* context) {
  if (instruction.fused_computation() != nullptr) {
    return AnalyzeFusionOperands(instruction, context);
  }
  AnalyzedFusion fusion;
  fusion.root = &instruction;
  absl::StatusOr<std::vector<Shape>> outputs = OutputShapes(instruction);
  if (!outputs.ok()) return outputs.status();
  fusion.output_shapes = *std::move(outputs);
  fusion.output_shape = fusion.output_shapes[0];
  XI_RETURN_IF_ERROR(CheckOperandOutputPairs(
      instruction, instruction.operand_count(), fusion.output_shapes.size()));
  AddFusionOperands(fusion, context);
  XI_RETURN_IF_ERROR(CheckReadOperandsBounded(fusion));
  return fusion;
}

absl::StatusOr<AnalyzedFusion> AnalyzeFusionOperands(
    const HloModule& module, mlir::MLIRContext* context) {
  XI_ASSIGN_OR_RETURN(const HloInstruction* root, EntryRoot(module));
  return AnalyzeFusionOperands(*root, context);
}

absl::StatusOr<const HloInstruction*> FindInstruction(const HloModule& module,
                                                      absl::string_view name) {
  if (const HloComputation* entry = module.entry_computation()) {
    if (const HloInstruction* found = entry->GetInstruction(name)) {
      return found;
    }
  }
  for (const auto& computation : module.computations()) {
    if (const HloInstruction* found = computation->GetInstruction(name)) {
      return found;
    }
  }
  for (size_t dot = name.find('.'); dot != absl::string_view::npos;
       dot = name.find('.', dot + 1)) {
    const HloComputation* computation =
        module.GetComputation(name.substr(0, dot));
    if (computation == nullptr) continue;
    if (const HloInstruction* found =
            computation->GetInstruction(name.substr(dot + 1))) {
      return found;
    }
  }
  return absl::NotFoundError(absl::StrCat(
      "no instruction named '", name,
      "' (write NAME, or COMPUTATION.NAME for one inside a computation)"));
}

}  // namespace xla_index
