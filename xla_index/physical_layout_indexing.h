#ifndef XLA_INDEX_PHYSICAL_LAYOUT_INDEXING_H_
#define XLA_INDEX_PHYSICAL_LAYOUT_INDEXING_H_

// Indexing maps between physical shapes: what XLA's indexing analysis gives
// with use_physical_layout=true, extended to tiled layouts. Output to
// input, a map of operand K becomes
//
//   output physical -> output logical      (PhysicalShapeToLogicalMap)
//   then output logical -> operand logical (the op's map)
//   then operand logical -> operand physical (LogicalToPhysicalShapeMap)
//
// and input to output the same with the roles swapped (operand physical ->
// logical, the op's map, output logical -> physical). A physical index is
// an index of the layout's physical shape (layout/layout_indexing_map.h):
// the dims in major-to-minor order, and with tiles, the tile indices then
// the indices inside the tiles; padding positions are excluded by the
// constraints of the physical -> logical map. A shape without a layout has
// XLA's default layout ({rank-1, ..., 0}), whose physical index is the
// logical one.
//
// For example, a transpose whose layouts undo it reads its operand at the
// same physical index:
//   p0 = f32[3,5]{1,0} parameter(0)
//   t = f32[5,3]{0,1} transpose(p0), dimensions={1,0}
//   output to input, physical: (d0, d1) -> (d0, d1)
//
// Replica-id maps are composed with the domain's physical -> logical map,
// as the element maps are (their result, a group position, has no layout).

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlo/shape.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/indexing_analysis.h"
#include "xla_index/ops/instruction_indexing.h"

namespace xla_index {

/// `logical` (indexing_maps[K] of operand K, in `direction`) with the
/// layouts of `output` and `operands[K]` composed in as above. `output` and
/// each operand must be arrays: InvalidArgument naming the shape otherwise,
/// or when a layout is invalid (TiledLayoutOf). Maps are simplified with
/// unused symbols removed; UNDEFINED stays UNDEFINED.
absl::StatusOr<HloInstructionIndexing> ComposeWithPhysicalLayouts(
    const HloInstructionIndexing& logical, IndexingDirection direction,
    const Shape& output, absl::Span<const Shape* const> operands,
    mlir::MLIRContext* context);

/// ComposeWithPhysicalLayouts for an AnalyzeIndexing result of
/// `instruction`: the operands are the instruction's operands or its
/// computation's parameters, as `analyzed.operand_kind` says.
absl::StatusOr<HloInstructionIndexing> AnalyzedIndexingWithPhysicalLayouts(
    const HloInstruction& instruction, const AnalyzedIndexing& analyzed,
    IndexingDirection direction, mlir::MLIRContext* context);

}  // namespace xla_index

#endif  // XLA_INDEX_PHYSICAL_LAYOUT_INDEXING_H_
