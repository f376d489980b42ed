#ifndef XLA_INDEX_RESHAPE_INDEXING_H_
#define XLA_INDEX_RESHAPE_INDEXING_H_

// Indexing of reshape and bitcast, which both reinterpret the same
// row-major (resp. physical) sequence of elements under another shape.

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

class Shape;

/// sum_k exprs[k] * stride_k with row-major strides of `dims`
/// (stride_k = dims[k+1] * ... * dims[n-1]): `(d0, d1) -> d0 * 8 + d1` for
/// dims [4, 8]. An empty `dims` gives 0.
mlir::AffineExpr LinearizeIndex(absl::Span<const int64_t> dims,
                                absl::Span<const mlir::AffineExpr> exprs,
                                mlir::MLIRContext* context);

/// The inverse of LinearizeIndex for a linear index in [0, prod(dims)):
/// component 0 is `linear floordiv stride_0`, component k > 0 is
/// `(linear mod stride_{k-1}) floordiv stride_k`; for dims [4, 8] this is
/// (linear floordiv 8, linear mod 8).
std::vector<mlir::AffineExpr> DelinearizeIndex(absl::Span<const int64_t> dims,
                                               mlir::AffineExpr linear,
                                               mlir::MLIRContext* context);

/// The affine map from an index of the reshape's output (dims
/// `output_dims`) to the index of its input (dims `input_dims`) that holds
/// the same element in row-major order.
///
/// The shapes are split into minimal pairs of sub-shapes with equal element
/// counts (size-1 dimensions join the group before them), and each pair is
/// one of:
///   unchanged  [8] -> [8]            d0 -> d0
///   expand     [32] -> [4, 8]        (d0, d1) -> (d0 * 8 + d1)
///   collapse   [4, 8] -> [32]        (d0) -> (d0 floordiv 8, d0 mod 8)
///   generic    [4, 8] -> [2, 4, 4]   delinearize(linearize(output index))
/// so [4, 8, 12] -> [32, 3, 4] is a collapse [4, 8] -> [32] next to an
/// expand [12] -> [3, 4]:
///   (d0, d1, d2) -> (d0 floordiv 8, d0 mod 8, d1 * 4 + d2).
/// Zero-element shapes map every index to 0 (the domain is empty anyway).
/// Requires equal element counts (checked by the callers).
mlir::AffineMap ComputeReshapeAffineMap(absl::Span<const int64_t> input_dims,
                                        absl::Span<const int64_t> output_dims,
                                        mlir::MLIRContext* context);

/// ComputeReshapeAffineMap with the domain of the output dims, simplified.
/// Undefined when the element counts differ.
IndexingMap ComputeReshapeIndexingMap(absl::Span<const int64_t> input_dims,
                                      absl::Span<const int64_t> output_dims,
                                      mlir::MLIRContext* context);

/// Output-to-input map of `bitcast` from `input` to `output` (array shapes
/// with equal element counts). A bitcast keeps the physical order of the
/// elements, so the map is
///   transpose(output logical -> output physical, by output's layout)
///   then reshape(output physical -> input physical)
///   then transpose(input physical -> input logical, by input's layout),
/// composed and simplified. A missing layout is the default {n-1, ..., 0}.
/// Undefined when element counts differ or a layout is tiled or invalid.
IndexingMap ComputeBitcastIndexingMap(const Shape& input, const Shape& output,
                                      mlir::MLIRContext* context);

}  // namespace xla_index

#endif  // XLA_INDEX_RESHAPE_INDEXING_H_
