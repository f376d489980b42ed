#include "xla_index/analysis/gpu_launch_grid.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "layout/layout_indexing_map.h"
#include "layout/shape_layout.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"

namespace xla_index {
namespace {

// Thread and block ids in [0, n - 1] for each extent n.
std::vector<Interval> GridBounds(const LaunchGrid& grid) {
  std::vector<Interval> bounds;
  for (int64_t n : grid.threads) bounds.push_back({0, n - 1});
  for (int64_t n : grid.blocks) bounds.push_back({0, n - 1});
  return bounds;
}

}  // namespace

absl::StatusOr<LaunchGrid> DefaultLoopLaunchGrid(int64_t num_elements,
                                                 int64_t threads_per_block,
                                                 int64_t unroll) {
  if (threads_per_block < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "threads per block must be at least 1, got ", threads_per_block));
  }
  if (unroll < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("unroll factor must be at least 1, got ", unroll));
  }
  // Threads needed when each handles `unroll` elements; a block is never
  // larger than that (XLA shrinks small launches the same way).
  if (num_elements < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("element count must be at least 0, got ", num_elements));
  }
  int64_t threads_needed = std::max<int64_t>(1, CeilDiv(num_elements, unroll));
  LaunchGrid grid;
  grid.threads[0] = std::min(threads_per_block, threads_needed);
  // threads.x * unroll < num_elements + unroll can still pass INT64_MAX
  // when num_elements is close to it.
  std::optional<int64_t> per_block = CheckedMul(grid.threads[0], unroll);
  if (!per_block) {
    return absl::InvalidArgumentError(
        absl::StrCat(grid.threads[0], " threads x unroll ", unroll,
                     " elements per block does not fit in int64 (",
                     num_elements, " elements)"));
  }
  grid.blocks[0] = std::max<int64_t>(1, CeilDiv(num_elements, *per_block));
  // The grid's last linear index, blocks * threads * unroll - 1, must fit
  // too: it is the thread map's largest value.
  if (!CheckedMul(grid.blocks[0], *per_block)) {
    return absl::InvalidArgumentError(
        absl::StrCat("a launch of ", grid.blocks[0], " blocks x ", *per_block,
                     " elements covers more than INT64_MAX elements (",
                     num_elements, " elements)"));
  }
  return grid;
}

IndexingMap LaunchGridDomain(const LaunchGrid& grid,
                             mlir::MLIRContext* context) {
  return IndexingMap(mlir::AffineMap::get(kLaunchGridDims, 0, {}, context),
                     GridBounds(grid), {}, {});
}

absl::StatusOr<IndexingMap> DefaultThreadIdToOutputIndexing(
    const LaunchGrid& grid, int64_t unroll, const Shape& output_shape,
    mlir::MLIRContext* context) {
  if (!output_shape.IsArray()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "thread map needs an array output, got ", output_shape.ToString()));
  }
  if (unroll < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("unroll factor must be at least 1, got ", unroll));
  }
  const int64_t rank = output_shape.rank();
  std::vector<int64_t> minor_to_major;
  if (output_shape.has_layout() &&
      static_cast<int64_t>(output_shape.layout().minor_to_major.size()) ==
          rank) {
    minor_to_major = output_shape.layout().minor_to_major;
  } else {
    minor_to_major = DefaultLayout(rank).minor_to_major;
  }

  // e = (bx * threads.x + tx) * u + s0.
  mlir::AffineExpr tx = mlir::getAffineDimExpr(kThreadIdX, context);
  mlir::AffineExpr bx = mlir::getAffineDimExpr(kBlockIdX, context);
  mlir::AffineExpr unroll_id = mlir::getAffineSymbolExpr(0, context);
  mlir::AffineExpr linear = (bx * grid.threads[0] + tx) * unroll + unroll_id;

  // Delinearize e over the dims from minor to major: the minor digit is
  // e mod n_minor, the next (e floordiv n_minor) mod n_next, ...; the most
  // major dim takes the whole quotient (the constraint below keeps e < N).
  std::vector<mlir::AffineExpr> results(
      rank, mlir::getAffineConstantExpr(0, context));
  mlir::AffineExpr rest = linear;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t dim = minor_to_major[i];
    int64_t size = output_shape.dimensions(dim);
    if (i + 1 == rank) {
      results[dim] = rest;
    } else {
      results[dim] = rest % size;
      rest = rest.floorDiv(size);
    }
  }
  IndexingMap map(mlir::AffineMap::get(kLaunchGridDims, 1, results, context),
                  GridBounds(grid), {{0, unroll - 1}}, {});
  const int64_t elements = output_shape.ElementCount();
  std::optional<int64_t> covered =
      CheckedProduct({grid.blocks[0], grid.threads[0], unroll});
  if (!covered) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the launch grid (", grid.blocks[0], " blocks x ", grid.threads[0],
        " threads x unroll ", unroll, ") covers more than INT64_MAX elements"));
  }
  // Threads past the last element (the grid is rounded up) write nothing.
  if (*covered > elements) map.AddConstraint(linear, {0, elements - 1});
  // Threads y, z and blocks y, z do not take part in the loop emitter's
  // linear index (the default grid has one of each).
  map.Simplify();
  return map;
}

IndexingMap ComposeThreadToInputIndexing(const IndexingMap& thread_to_output,
                                         const IndexingMap& output_to_operand) {
  IndexingMap composed =
      ComposeIndexingMaps(thread_to_output, output_to_operand);
  composed.Simplify();
  return composed;
}

absl::StatusOr<IndexingMap> ComposeWithPhysicalLayout(
    const IndexingMap& thread_to_operand, const Shape& operand_shape) {
  XI_ASSIGN_OR_RETURN(
      IndexingMap layout_map,
      LogicalToLinearMap(operand_shape, thread_to_operand.GetMLIRContext()));
  IndexingMap composed = ComposeIndexingMaps(thread_to_operand, layout_map);
  composed.Simplify();
  return composed;
}

}  // namespace xla_index
