#include "xla_index/physical_layout_indexing.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "hlo/instruction.h"
#include "hlo/module.h"
#include "layout/layout_indexing_map.h"
#include "layout/shape_layout.h"
#include "layout/tiled_layout.h"

namespace xla_index {
namespace {

// The physical -> logical and logical -> physical maps of `shape`.
struct LayoutMaps {
  IndexingMap to_logical;
  IndexingMap to_physical;
};

absl::StatusOr<LayoutMaps> LayoutMapsOf(const Shape& shape,
                                        absl::string_view what,
                                        mlir::MLIRContext* context) {
  if (!shape.IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--physical-layout: ", what, " has the non-array shape ",
                     shape.ToString(), "; physical layouts are of arrays"));
  }
  if (shape.HasUnboundedDimension()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--physical-layout: ", what, " has the unbounded shape ",
        shape.ToString(), ": a '?' dimension has no size to lay out"));
  }
  absl::StatusOr<TiledLayout> layout = TiledLayoutOf(shape);
  if (!layout.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--physical-layout: ", what,
                                                   " ", shape.ToString(), ": ",
                                                   layout.status().message()));
  }
  return LayoutMaps{PhysicalShapeToLogicalMap(*layout, context),
                    LogicalToPhysicalShapeMap(*layout, context)};
}

// Every entry of `set` between `first` (domain physical -> logical) and
// `last` (range logical -> physical).
IndexingMapSet BetweenLayouts(const IndexingMapSet& set,
                              const IndexingMap& first,
                              const IndexingMap& last) {
  IndexingMapSet physical;
  for (int64_t i = 0; i < set.size(); ++i) {
    auto [map, replica] =
        ComposeWithReplicaMaps(first, std::nullopt, set[i], set.replica_map(i));
    auto [composed, composed_replica] =
        ComposeWithReplicaMaps(map, replica, last, std::nullopt);
    physical.Insert(std::move(composed), std::move(composed_replica));
  }
  return physical;
}

}  // namespace

absl::StatusOr<HloInstructionIndexing> ComposeWithPhysicalLayouts(
    const HloInstructionIndexing& logical, IndexingDirection direction,
    const Shape& output, absl::Span<const Shape* const> operands,
    mlir::MLIRContext* context) {
  XI_ASSIGN_OR_RETURN(LayoutMaps out,
                      LayoutMapsOf(output, "the output", context));
  HloInstructionIndexing physical;
  for (size_t k = 0; k < logical.indexing_maps.size(); ++k) {
    if (k >= operands.size() || operands[k] == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("--physical-layout: no shape for operand ", k));
    }
    XI_ASSIGN_OR_RETURN(
        LayoutMaps in,
        LayoutMapsOf(*operands[k], absl::StrCat("operand ", k), context));
    const bool forward = direction == IndexingDirection::kOutputToInput;
    physical.indexing_maps.push_back(BetweenLayouts(
        logical.indexing_maps[k], forward ? out.to_logical : in.to_logical,
        forward ? in.to_physical : out.to_physical));
  }
  return physical;
}

absl::StatusOr<HloInstructionIndexing> AnalyzedIndexingWithPhysicalLayouts(
    const HloInstruction& instruction, const AnalyzedIndexing& analyzed,
    IndexingDirection direction, mlir::MLIRContext* context) {
  std::vector<const Shape*> operands;
  if (analyzed.operand_kind ==
      AnalyzedIndexing::OperandKind::kInstructionOperand) {
    for (const HloInstruction* operand : instruction.operands()) {
      operands.push_back(&operand->shape());
    }
  } else {
    operands.assign(analyzed.indexing.indexing_maps.size(), nullptr);
    for (const HloInstruction* parameter : instruction.parent()->parameters()) {
      const int64_t number = parameter->parameter_number();
      if (number >= 0 && number < static_cast<int64_t>(operands.size())) {
        operands[number] = &parameter->shape();
      }
    }
  }
  return ComposeWithPhysicalLayouts(analyzed.indexing, direction,
                                    instruction.shape(), operands, context);
}

}  // namespace xla_index
