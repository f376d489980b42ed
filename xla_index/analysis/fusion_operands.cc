#include "xla_index/analysis/fusion_operands.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "layout/shape_layout.h"
#include "xla_index/fusion_indexing.h"

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

}  // namespace

absl::StatusOr<AnalyzedFusion> AnalyzeFusionOperands(
    const HloModule& module, mlir::MLIRContext* context) {
  const HloComputation* entry = module.entry_computation();
  if (entry == nullptr || entry->root() == nullptr) {
    return absl::InvalidArgumentError("module has no entry root instruction");
  }
  AnalyzedFusion fusion;
  fusion.root = entry->root();
  const Shape& shape = fusion.root->shape();
  fusion.output_shape = shape.IsTuple() && !shape.tuple_shapes().empty()
                            ? shape.tuple_shapes(0)
                            : shape;
  if (!fusion.output_shape.IsArray()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "root '", fusion.root->name(), "' (line ", fusion.root->source_line(),
        ") does not produce an array: ", shape.ToString()));
  }
  fusion.output_shape = WithLayout(fusion.output_shape, fusion.output_shape);

  const HloComputation* fused = fusion.root->fused_computation();
  if (fused != nullptr) {
    fusion.computation = fused;
    HloInstructionIndexing indexing =
        ComputeOutputToInputFusionIndexing(fusion.root, 0, context);
    for (int64_t k = 0; k < fusion.root->operand_count(); ++k) {
      const HloInstruction* operand = fusion.root->operand(k);
      const HloInstruction* parameter = fused->parameter(k);
      FusionOperand entry_operand;
      entry_operand.number = k;
      entry_operand.name = operand->name();
      entry_operand.shape = WithLayout(
          operand->shape(), parameter ? parameter->shape() : operand->shape());
      if (k < static_cast<int64_t>(indexing.indexing_maps.size())) {
        entry_operand.maps = indexing.indexing_maps[k];
      }
      fusion.operands.push_back(std::move(entry_operand));
    }
    return fusion;
  }

  fusion.computation = entry;
  HloInstructionIndexing indexing =
      ComputeComputationOutputToInputIndexing(*entry, fusion.root, 0, context);
  std::vector<HloInstruction*> parameters = entry->parameters();
  for (const HloInstruction* parameter : parameters) {
    FusionOperand operand;
    operand.number = parameter->parameter_number();
    operand.name = parameter->name();
    operand.shape = WithLayout(parameter->shape(), parameter->shape());
    if (operand.number >= 0 &&
        operand.number < static_cast<int64_t>(indexing.indexing_maps.size())) {
      operand.maps = indexing.indexing_maps[operand.number];
    }
    fusion.operands.push_back(std::move(operand));
  }
  std::sort(fusion.operands.begin(), fusion.operands.end(),
            [](const FusionOperand& a, const FusionOperand& b) {
              return a.number < b.number;
            });
  return fusion;
}

}  // namespace xla_index
