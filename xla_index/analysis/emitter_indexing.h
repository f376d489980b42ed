#ifndef XLA_INDEX_ANALYSIS_EMITTER_INDEXING_H_
#define XLA_INDEX_ANALYSIS_EMITTER_INDEXING_H_

// Thread-to-element maps of XLA's GPU emitters (ComputeThreadIdToOutputIndexing
// and ComputeThreadIdToInputIndexing in xla/backends/gpu/codegen/emitters/)
// and the launch each emitter picks, for a kernel whose emitter is chosen
// (emitter_choice.h).
//
// Every map has the six launch-grid dimensions of gpu_launch_grid.h
// (thread x, y, z, block x, y, z; the emitters use thread x and block x)
// and range variables for the per-thread loops, the vector (or unroll)
// element always last:
//
//  - loop: threads = min(4 warps, ceil(n / u)) per block, u = XLA's
//    ComputeLoopFusionConfig (gcd(n, 4) once n fills the device, at least
//    ceil(8 / smallest output bits)); element (bx * threads + tx) * u + s0
//    of the first output in its physical order (gpu_launch_grid.h).
//  - transpose (TransposeFusion): 128 threads, 32 x 32 tiles (times the
//    vector size v along the minor dimension) of the normalized input;
//    thread t reads the tile's element at linear index s0 * 128 * v +
//    t * v + s1 (s0 the loop over the tile's rows in steps of 4, s1 the
//    vector element), row-major over the block sizes; it writes the
//    transposed tile the same way over the output block sizes.
//  - reduction: RowReductionFusion, MultiRowReductionFusion,
//    ColumnReductionFusion and SmallColumnReductionFusion as in XLA (see
//    the functions in emitter_indexing.cc for the formulas).
//
// A root whose hero is the reduction or transpose is "hero-anchored": the
// maps go to the hero's operands (XLA's thread-to-input maps); the reads of
// the kernel's operands are these composed with the hero operands' own
// maps back to the kernel's operands. Any other root is "output-anchored":
// a map to its output, composed with the kernel's output-to-operand maps.
//  - concatenate (ConcatenateFusion): the loop emitter's launch and map
//    over the operand largest along the concatenated dimension; every
//    operand is read at that index where it has one (the unroll factor
//    divides every operand's size along the dimension).
//  - in-place dynamic-update-slice: the loop over the update's shape; the
//    update is read at the thread's index, the updated buffer is not read.
//  - scatter (ScatterWithDistributedUpdates, on XLA's simplified scatter
//    form): the loop over the updates with v = gcd(slice size, the loop
//    unroll) elements per thread, threads rounded up to whole warps; the
//    updates are read at the loop's index, the indices of the thread's
//    slice over the index vector, the operand where the indices say
//    (Undefined: the data decides).
// Emitters whose own maps are not modelled (sort, other scatters) use the
// loop emitter's maps and say so in `note`.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/emitter_choice.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/analysis/gpu_device.h"
#include "xla_index/analysis/gpu_launch_grid.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

/// Caller overrides of the loop emitter's launch (the CLI's --block and
/// --unroll); unset means XLA's choice for the device.
struct LoopLaunchOverrides {
  std::optional<int64_t> threads_per_block;
  std::optional<int64_t> unroll;
};

/// The reason of the Undefined thread map of an operand the emitter does
/// not read at all (a dynamic-update-slice's buffer, updated in place). Any
/// other Undefined thread map is a read whose positions are not known (a
/// scatter's operand, read and written where the indices say).
inline constexpr absl::string_view kNotReadByTheEmitter =
    "not read by the emitter (updated in place)";

struct EmitterIndexing {
  LaunchGrid grid;
  /// Elements of the innermost (last) range variable per thread: the loop
  /// emitter's unroll factor, the transpose's or reduction's vector size.
  int64_t unroll = 1;
  /// How the launch and maps were obtained, for people.
  std::string note;
  /// Per output j (tuple element): true when hero-anchored.
  std::vector<bool> hero_anchored;
  /// Per output j: the map to output j's elements (output-anchored), or,
  /// hero-anchored (informational), to the hero's output; for the
  /// concatenate emitter to the index its loop runs over (the largest
  /// operand: the writes of the first operand's slab), for the in-place
  /// dynamic-update-slice to the update's element (written at the dynamic
  /// offset).
  std::vector<IndexingMap> thread_to_outputs;
  /// Per output j, hero-anchored: the hero instruction and the map to each
  /// of its operands' elements (an init value of a reduce or an offset of a
  /// dynamic-update-slice: a map with no results, every thread reads the
  /// scalar; an operand the emitter does not read, the buffer a
  /// dynamic-update-slice updates in place: Undefined).
  std::vector<const HloInstruction*> heroes;
  std::vector<std::vector<IndexingMap>> thread_to_hero_operands;
};

/// The loop emitter's unroll factor XLA picks on `device` for a loop over
/// `elements` elements (ComputeLoopFusionConfig, MaxUnrollFactor 4 before
/// Blackwell); the loop emitter loops over the first output.
int64_t XlaLoopUnrollFactor(int64_t elements, const AnalyzedFusion& kernel,
                            const EmitterChoice& choice,
                            const GpuDeviceDescription& device);

/// The maps and launch of `kernel` on its emitter `choice`. InvalidArgument
/// for a library kernel (no thread map), outputs of the loop emitter that
/// differ in element count, or sizes that overflow.
absl::StatusOr<EmitterIndexing> ComputeEmitterIndexing(
    const AnalyzedFusion& kernel, const EmitterChoice& choice,
    const GpuDeviceDescription& device, const LoopLaunchOverrides& overrides,
    mlir::MLIRContext* context);

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
// The transpose and reduction emitters (transpose_emitter_indexing.cc,
// reduction_emitter_indexing.cc).
absl::StatusOr<EmitterIndexing> TransposeIndexing(
    const AnalyzedFusion& kernel, const EmitterChoice& choice,
    const GpuDeviceDescription& device, mlir::MLIRContext* context);
absl::StatusOr<EmitterIndexing> ReductionIndexing(
    const AnalyzedFusion& kernel, const EmitterChoice& choice,
    const GpuDeviceDescription& device, mlir::MLIRContext* context);
}  // namespace emitter_internal

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_EMITTER_INDEXING_H_
