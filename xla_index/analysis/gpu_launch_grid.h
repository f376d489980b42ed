#ifndef XLA_INDEX_ANALYSIS_GPU_LAUNCH_GRID_H_
#define XLA_INDEX_ANALYSIS_GPU_LAUNCH_GRID_H_

// GPU launch grids as indexing maps: the thread and block ids of a kernel
// launch are the dimension variables
//
//   d0, d1, d2 = thread id x, y, z   in [0, threads.{x,y,z} - 1]
//   d3, d4, d5 = block id x, y, z    in [0, blocks.{x,y,z} - 1]
//
// (XLA's order), and a map from them to output elements says which elements
// each thread writes. Composed with a fusion's output-to-input maps it says
// which operand elements each thread reads, and composed further with an
// operand's layout map, which memory offsets.
//
// The default loop-fusion map (XLA's GetDefaultThreadIdIndexingMap without
// chunks): thread (tx, bx) with unroll factor u writes the elements with
// linear index
//   e = (bx * threads.x + tx) * u + s0,   s0 in [0, u - 1]
// (s0, the unroll element, is the map's only symbol), where e runs over the
// output in its physical order: the minor-to-major layout order, so e's
// fastest-varying digit is the most minor dimension. For f32[10,20]{1,0}
// with 32 threads per block and u = 2:
//   (d0, d1, d2, d3, d4, d5)[s0] ->
//       (((d3 * 32 + d0) * 2 + s0) floordiv 20, ((d3 * 32 + d0) * 2 + s0) mod
//       20)
// with the constraint (d3 * 32 + d0) * 2 + s0 in [0, 199] when the grid
// covers more than the 200 elements (as simplified, the expressions may
// read differently).

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "base/checked_arithmetic.h"
#include "hlo/shape.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

/// Threads per block and blocks per grid, x, y, z.
struct LaunchGrid {
  std::array<int64_t, 3> threads = {1, 1, 1};
  std::array<int64_t, 3> blocks = {1, 1, 1};

  /// threads.x * threads.y * threads.z, saturating at INT64_MAX.
  int64_t ThreadsPerBlock() const {
    return SaturatingMul(SaturatingMul(threads[0], threads[1]), threads[2]);
  }
  /// blocks.x * blocks.y * blocks.z, saturating at INT64_MAX.
  int64_t BlockCount() const {
    return SaturatingMul(SaturatingMul(blocks[0], blocks[1]), blocks[2]);
  }
};

/// Dimension variable positions of the launch-grid maps.
inline constexpr int64_t kThreadIdX = 0;
inline constexpr int64_t kThreadIdY = 1;
inline constexpr int64_t kThreadIdZ = 2;
inline constexpr int64_t kBlockIdX = 3;
inline constexpr int64_t kBlockIdY = 4;
inline constexpr int64_t kBlockIdZ = 5;
inline constexpr int64_t kLaunchGridDims = 6;

/// The loop-fusion launch for `num_elements` output elements: threads.x =
/// min(threads_per_block, ceil(num_elements / unroll)), blocks.x =
/// ceil(num_elements / (threads.x * unroll)), y and z 1 (at least one
/// thread and block even for an empty output). InvalidArgument when
/// threads_per_block or unroll is < 1, num_elements < 0, or the grid's
/// blocks.x * threads.x * unroll does not fit in int64.
absl::StatusOr<LaunchGrid> DefaultLoopLaunchGrid(int64_t num_elements,
                                                 int64_t threads_per_block,
                                                 int64_t unroll);

/// The domain of a grid alone: `(d0, ..., d5) -> ()` with the
/// thread and block id bounds of `grid`.
IndexingMap LaunchGridDomain(const LaunchGrid& grid,
                             mlir::MLIRContext* context);

/// The default loop-fusion map from (thread, block) ids to the elements of
/// `output_shape` (an array; its layout's minor_to_major order, the default
/// when it has none), see the file comment. Symbol s0 is the unroll element
/// in [0, unroll - 1]. Simplified. InvalidArgument for a non-array shape,
/// unroll < 1, or a grid whose element count does not fit in int64.
absl::StatusOr<IndexingMap> DefaultThreadIdToOutputIndexing(
    const LaunchGrid& grid, int64_t unroll, const Shape& output_shape,
    mlir::MLIRContext* context);

/// `thread_to_output` followed by `output_to_operand`: from (thread, block)
/// ids to the operand elements each thread reads. Symbols (from
/// ComposeIndexingMaps): the operand map's range variables, then the thread
/// map's (the unroll element), then the runtime variables. Simplified, no
/// symbol removed (so the positions above hold).
IndexingMap ComposeThreadToInputIndexing(const IndexingMap& thread_to_output,
                                         const IndexingMap& output_to_operand);

/// `thread_to_operand` followed by the operand's logical -> linear layout
/// map (layout/layout_indexing_map.h; tiled layouts included): from (thread,
/// block) ids to memory offsets in elements. Same symbols as the input.
/// InvalidArgument when the shape's layout is invalid.
absl::StatusOr<IndexingMap> ComposeWithPhysicalLayout(
    const IndexingMap& thread_to_operand, const Shape& operand_shape);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_GPU_LAUNCH_GRID_H_
