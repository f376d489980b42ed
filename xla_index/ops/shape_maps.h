#ifndef XLA_INDEX_OPS_SHAPE_MAPS_H_
#define XLA_INDEX_OPS_SHAPE_MAPS_H_

// Indexing maps computed from sizes and attributes alone, without an HLO
// instruction: the cores of the pad, reshape, bitcast, transpose and
// broadcast rules. Each is defined beside its op's rules (ops/pad.cc,
// ops/reshape.cc, ops/transpose.cc, ops/broadcast.cc).
//
// They are declared together, in this one header, as XLA declares its
// shape-level helpers in indexing_analysis_utils.h: code that has shapes
// but no instruction (bitcasts of physical shapes, reduce-window's implicit
// pad, layouts, tests of the decomposition) finds every such builder here
// without pulling in the per-op rules of op_rules.h.
//
// Unless its name says otherwise, a map here is output-to-input: from an
// index of the op's output to the index of its operand.

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

class Shape;

// ---- pad (ops/pad.cc) ----

/// One dimension of a padding config.
struct PadDimension {
  int64_t low = 0;
  int64_t high = 0;
  int64_t interior = 0;
};

/// The indexing of padding: a map from the padded shape's index to the
/// operand index, `(d - low) floordiv (interior + 1)` with constraint
/// `(d - low) mod (interior + 1) in [0, 0]` and domain the covered part
/// [max(0, low), min(padded - 1, low + (size - 1) * (interior + 1))] (plain
/// `d - low` without interior padding). Shared by pad and, written out
/// per window dimension, by reduce-window and convolution (ops/window.h).
/// Undefined, naming the value, when a bound, -low or interior + 1 (with
/// two or more elements) does not fit in int64.
IndexingMap ComputePadIndexingMap(absl::Span<const int64_t> operand_dims,
                                  absl::Span<const PadDimension> padding,
                                  mlir::MLIRContext* context);

// ---- reshape and bitcast (ops/reshape.cc) ----

/// sum_k exprs[k] * stride_k with row-major strides of `dims`
/// (stride_k = dims[k+1] * ... * dims[n-1]): `(d0, d1) -> d0 * 8 + d1` for
/// dims [4, 8]. An empty `dims` gives 0. The element count of `dims` must
/// fit in int64 (asserted; the reshape rules check it first), here and in
/// DelinearizeIndex.
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

// ---- transpose (ops/transpose.cc) ----

/// Output dim i is operand dim permutation[i]: the map over `output_dims`
/// whose result permutation[i] is d_i. `permutation` must be a permutation
/// of [0, output_dims.size()).
///   permutation {0, 2, 3, 1}: (d0, d1, d2, d3) -> (d0, d3, d1, d2)
IndexingMap ComputeTransposeIndexingMap(absl::Span<const int64_t> permutation,
                                        absl::Span<const int64_t> output_dims,
                                        mlir::MLIRContext* context);

/// q with q[permutation[i]] = i.
std::vector<int64_t> InversePermutation(absl::Span<const int64_t> permutation);

// ---- broadcast (ops/broadcast.cc) ----

/// Operand dim i is output dim dimensions[i]: the map over `output_dims`
/// to (d_{dimensions[0]}, d_{dimensions[1]}, ...). `dimensions` must list
/// distinct dims of the output.
///   output [10, 20, 30], dimensions {1}: (d0, d1, d2) -> (d1)
IndexingMap ComputeBroadcastIndexingMap(absl::Span<const int64_t> output_dims,
                                        absl::Span<const int64_t> dimensions,
                                        mlir::MLIRContext* context);

/// Input-to-output: the map over `operand_dims` to the output index whose
/// dim dimensions[i] is d_i, the other output dims as range variables.
///   operand [20], output [10, 20, 30], dimensions {1}:
///   (d0)[s0, s1] -> (s0, d0, s1)
IndexingMap ComputeBroadcastInputToOutputIndexingMap(
    absl::Span<const int64_t> operand_dims,
    absl::Span<const int64_t> output_dims, absl::Span<const int64_t> dimensions,
    mlir::MLIRContext* context);

}  // namespace xla_index

#endif  // XLA_INDEX_OPS_SHAPE_MAPS_H_
