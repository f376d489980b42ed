#ifndef XLA_INDEX_ANALYSIS_EMITTER_INDEXING_INTERNAL_H_
#define XLA_INDEX_ANALYSIS_EMITTER_INDEXING_INTERNAL_H_

// Private to the emitter_indexing library: the pieces the loop, transpose
// and reduction emitters' maps share (emitter_indexing.cc,
// transpose_emitter_indexing.cc, reduction_emitter_indexing.cc). The public
// entry point is ComputeEmitterIndexing (emitter_indexing.h).

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/emitter_choice.h"
#include "xla_index/analysis/emitter_indexing.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/analysis/gpu_device.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

/// XLA's GetBitcastMap as expressions: the row-major linear index of
/// `indices` over `from_dims`, delinearized over `to`'s dimensions in its
/// physical (minor-to-major) order. Returns to.rank() expressions.
std::vector<mlir::AffineExpr> BitcastIndices(
    absl::Span<const mlir::AffineExpr> indices,
    absl::Span<const int64_t> from_dims, const Shape& to);

/// A thread map: the six grid dimensions with `threads` thread-x ids and
/// `blocks` block-x ids, range variables of `symbol_sizes`, results
/// `results`, and constrained[i] in [0, bounds[i] - 1] for each i.
/// Simplified.
IndexingMap MakeThreadMap(int64_t threads, int64_t blocks,
                          absl::Span<const int64_t> symbol_sizes,
                          absl::Span<const mlir::AffineExpr> results,
                          absl::Span<const mlir::AffineExpr> constrained,
                          absl::Span<const int64_t> bounds,
                          mlir::MLIRContext* context);

namespace emitter_internal {
/// The transpose and reduction emitters' maps and launches
/// (transpose_emitter_indexing.cc, reduction_emitter_indexing.cc), for
/// ComputeEmitterIndexing.
absl::StatusOr<EmitterIndexing> TransposeIndexing(
    const AnalyzedFusion& kernel, const EmitterChoice& choice,
    const GpuDeviceDescription& device, mlir::MLIRContext* context);
absl::StatusOr<EmitterIndexing> ReductionIndexing(
    const AnalyzedFusion& kernel, const EmitterChoice& choice,
    const GpuDeviceDescription& device, mlir::MLIRContext* context);
}  // namespace emitter_internal

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_EMITTER_INDEXING_INTERNAL_H_
