#ifndef XLA_INDEX_LAYOUT_LAYOUT_INDEXING_MAP_H_
#define XLA_INDEX_LAYOUT_LAYOUT_INDEXING_MAP_H_

// Tiled layouts as indexing maps. The maps state the same tiling as
// tiled_layout.h, as affine expressions: floordiv and mod by the tile sizes,
// and the row-major linearization of the physical shape.
//
// XLA's tiled-layout documentation, figure 1, F32[3,5]{1,0:T(2,2)}, physical
// shape (2,3,2,2), as printed after simplification:
//   logical -> physical shape:
//     (d0, d1) -> (d0 floordiv 2, d1 floordiv 2, d0 mod 2, d1 mod 2)
//   logical -> linear offset (the documented formula: tile index times tile
//   volume plus the index inside the tile):
//     (d0, d1) -> ((d0 floordiv 2) * 12 + (d1 floordiv 2) * 4
//                  + (d0 mod 2) * 2 + d1 mod 2)
//     domain: d0 in [0, 2], d1 in [0, 4]
//   linear offset -> logical, padding excluded by the constraints:
//     (d0) -> (((d0 floordiv 12) mod 2) * 2 + (d0 floordiv 2) mod 2,
//              d0 mod 2 + ((d0 floordiv 4) mod 3) * 2)
//     domain: d0 in [0, 23],
//       ((d0 floordiv 12) mod 2) * 2 + (d0 floordiv 2) mod 2 in [0, 2]
//       d0 mod 2 + ((d0 floordiv 4) mod 3) * 2 in [0, 4]
//
// The inverse maps constrain every intermediate index, not only the final
// logical one: with T(2)(4), the second tile pads the in-tile dimension of
// size 2 to 4, and an in-tile index r = 2 gives T * 2 + r, a valid-looking
// element, from a padding position.
//
// Composing an operand's indexing map (output element -> operand element)
// with the operand's logical -> linear map gives the memory offsets each
// output element reads.

#include "absl/status/statusor.h"
#include "hlo/shape.h"
#include "layout/tiled_layout.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

/// (d0, ..., d_{r-1}) -> (physical index): logical element to its index in
/// the tiled physical shape (TiledLayout::physical_dimensions()), with
/// d_i in [0, dims[i] - 1]. Simplified.
IndexingMap LogicalToPhysicalShapeMap(const TiledLayout& layout,
                                      mlir::MLIRContext* context);

/// (d0, ..., d_{r-1}) -> (offset): logical element to its position in
/// memory, in elements. Simplified.
IndexingMap LogicalToLinearMap(const TiledLayout& layout,
                               mlir::MLIRContext* context);

/// (p0, ..., p_{n-1}) -> (logical index): an index of the physical shape to
/// the logical element stored there, with constraints that exclude padding
/// (each result within its dimension). Simplified.
IndexingMap PhysicalShapeToLogicalMap(const TiledLayout& layout,
                                      mlir::MLIRContext* context);

/// (d0) -> (logical index): memory position in [0, tiled_element_count - 1]
/// to the logical element stored there, padding excluded by constraints.
/// Simplified.
IndexingMap LinearToLogicalMap(const TiledLayout& layout,
                               mlir::MLIRContext* context);

/// LogicalToLinearMap of an array shape under its layout (DefaultLayout when
/// it has none); InvalidArgument when the shape or its layout is invalid.
absl::StatusOr<IndexingMap> LogicalToLinearMap(const Shape& shape,
                                               mlir::MLIRContext* context);

/// The memory offsets read through `operand_indexing`, a map whose results
/// index an array of shape `operand_shape`: `operand_indexing` composed with
/// the operand's logical -> linear map, simplified.
absl::StatusOr<IndexingMap> ComposeWithLayout(
    const IndexingMap& operand_indexing, const Shape& operand_shape);

}  // namespace xla_index

#endif  // XLA_INDEX_LAYOUT_LAYOUT_INDEXING_MAP_H_
