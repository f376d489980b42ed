#include "xla_index/analysis/emitter_indexing.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "hlo/opcode.h"
#include "layout/shape_layout.h"
#include "mlir/IR/AffineMap.h"

namespace xla_index {
namespace {

std::vector<int64_t> MinorToMajorOf(const Shape& shape) {
  if (shape.has_layout() &&
      static_cast<int64_t>(shape.layout().minor_to_major.size()) ==
          shape.rank()) {
    return shape.layout().minor_to_major;
  }
  return DefaultLayout(shape.rank()).minor_to_major;
}

// The instructions of the kernel (its fused or composed computation, or
// the instruction alone).
std::vector<const HloInstruction*> KernelInstructions(
    const AnalyzedFusion& kernel) {
  std::vector<const HloInstruction*> out;
  const HloComputation* c = kernel.computation;
  if (c == nullptr && kernel.root->opcode() == HloOpcode::kFusion) {
    c = kernel.root->fused_computation();
  }
  if (c == nullptr) return {kernel.root};
  for (const auto& i : c->instructions()) out.push_back(i.get());
  return out;
}

// XLA's MayCausePerformanceDropIfUnrolled.
bool MayCausePerformanceDropIfUnrolled(const AnalyzedFusion& kernel) {
  for (const HloInstruction* i : KernelInstructions(kernel)) {
    switch (i->opcode()) {
      case HloOpcode::kReduceWindow: {
        int64_t size = 1;
        for (const WindowDimension& d : i->window().dimensions) {
          size = SaturatingMul(size, d.size);
        }
        if (size > 8) return true;
        break;
      }
      case HloOpcode::kSort:
      case HloOpcode::kDot:
        return true;
      case HloOpcode::kConcatenate:
        if (i->operand_count() > 10) return true;
        break;
      case HloOpcode::kReduce:
        if (i->shape().IsTuple() && i->shape().tuple_shapes().size() > 1) {
          return true;
        }
        break;
      default:
        break;
    }
  }
  return false;
}

absl::StatusOr<EmitterIndexing> LoopIndexing(
    const AnalyzedFusion& kernel, const EmitterChoice& choice,
    const GpuDeviceDescription& device, const LoopLaunchOverrides& overrides,
    mlir::MLIRContext* context) {
  EmitterIndexing out;
  const int64_t elements = kernel.output_shapes[0].ElementCount();
  for (size_t j = 1; j < kernel.output_shapes.size(); ++j) {
    if (kernel.output_shapes[j].ElementCount() != elements) {
      return absl::InvalidArgumentError(
          absl::StrCat("outputs of '", kernel.root->name(),
                       "' differ in element count (output 0: ",
                       kernel.output_shapes[0].ToString(), ", output ", j, ": ",
                       kernel.output_shapes[j].ToString(),
                       "); one loop launch cannot cover both"));
    }
  }
  out.unroll = overrides.unroll.value_or(
      XlaLoopUnrollFactor(elements, kernel, choice, device));
  // CalculateLaunchDimensions: 4 warps per block (one per warp scheduler).
  const int64_t threads =
      overrides.threads_per_block.value_or(device.threads_per_warp * 4);
  XI_ASSIGN_OR_RETURN(out.grid,
                      DefaultLoopLaunchGrid(elements, threads, out.unroll));
  out.note = absl::StrCat(
      "loop emitter: ", out.grid.threads[0], " threads per block",
      overrides.threads_per_block ? " (given)" : " (4 warps)", ", unroll ",
      out.unroll, overrides.unroll ? " (given)" : " (ComputeLoopFusionConfig)");
  for (const Shape& output : kernel.output_shapes) {
    XI_ASSIGN_OR_RETURN(
        IndexingMap map,
        DefaultThreadIdToOutputIndexing(out.grid, out.unroll, output, context));
    out.thread_to_outputs.push_back(std::move(map));
    out.hero_anchored.push_back(false);
    out.heroes.push_back(nullptr);
    out.thread_to_hero_operands.emplace_back();
  }
  return out;
}

// A loop over `index_shape` as XLA's loop-based emitters launch it:
// 4 warps per block (or the override), `unroll` elements per thread.
absl::StatusOr<IndexingMap> LoopOver(const Shape& index_shape, int64_t unroll,
                                     const GpuDeviceDescription& device,
                                     const LoopLaunchOverrides& overrides,
                                     mlir::MLIRContext* context,
                                     EmitterIndexing& out) {
  out.unroll = unroll;
  const int64_t threads =
      overrides.threads_per_block.value_or(device.threads_per_warp * 4);
  XI_ASSIGN_OR_RETURN(
      out.grid,
      DefaultLoopLaunchGrid(index_shape.ElementCount(), threads, unroll));
  return DefaultThreadIdToOutputIndexing(out.grid, unroll, index_shape,
                                         context);
}

// `map` with its results also bounded by `shape`'s dimensions.
IndexingMap BoundedBy(IndexingMap map, const Shape& shape) {
  for (int64_t d = 0; d < shape.rank(); ++d) {
    map.AddConstraint(map.GetAffineMap().getResult(d),
                      {0, shape.dimensions(d) - 1});
  }
  map.Simplify();
  return map;
}

// ConcatenateFusion: see the file comment of emitter_indexing.h.
absl::StatusOr<EmitterIndexing> ConcatenateIndexing(
    const AnalyzedFusion& kernel, const EmitterChoice& choice,
    const GpuDeviceDescription& device, const LoopLaunchOverrides& overrides,
    mlir::MLIRContext* context) {
  const HloInstruction* concat = choice.heroes[0];
  const int64_t dim = concat->dimension();
  const HloInstruction* largest = concat->operand(0);
  for (const HloInstruction* o : concat->operands()) {
    if (o->shape().dimensions(dim) > largest->shape().dimensions(dim)) {
      largest = o;
    }
  }
  // ComputeLoopFusionConfig over the largest operand, then
  // GetValidUnrollFactor: a divisor of every operand's size along `dim`.
  int64_t unroll = XlaLoopUnrollFactor(largest->shape().ElementCount(), kernel,
                                       choice, device);
  for (const HloInstruction* o : concat->operands()) {
    unroll = std::gcd(unroll, o->shape().dimensions(dim));
  }
  EmitterIndexing out;
  XI_ASSIGN_OR_RETURN(
      IndexingMap map,
      LoopOver(largest->shape(), overrides.unroll.value_or(unroll), device,
               overrides, context, out));
  out.note = absl::StrCat(
      "concatenate emitter: a loop over ", largest->shape().ToString(), ", ",
      out.grid.threads[0], " threads per block, unroll ", out.unroll);
  std::vector<IndexingMap> operands;
  for (const HloInstruction* o : concat->operands()) {
    operands.push_back(BoundedBy(map, o->shape()));
  }
  out.hero_anchored = {true};
  out.heroes = {concat};
  out.thread_to_outputs = {BoundedBy(map, concat->operand(0)->shape())};
  out.thread_to_hero_operands = {std::move(operands)};
  return out;
}

// InPlaceDynamicUpdateSliceFusion: see the file comment.
absl::StatusOr<EmitterIndexing> DynamicUpdateSliceIndexing(
    const AnalyzedFusion& kernel, const EmitterChoice& choice,
    const GpuDeviceDescription& device, const LoopLaunchOverrides& overrides,
    mlir::MLIRContext* context) {
  auto strip = [](const HloInstruction* h) {
    while (h->opcode() == HloOpcode::kBitcast) h = h->operand(0);
    return h;
  };
  // XLA launches over the first dynamic-update-slice's update; every
  // thread updates all the roots at its index.
  const Shape& update = strip(choice.heroes[0])->operand(1)->shape();
  EmitterIndexing out;
  XI_ASSIGN_OR_RETURN(
      IndexingMap map,
      LoopOver(update,
               overrides.unroll.value_or(XlaLoopUnrollFactor(
                   update.ElementCount(), kernel, choice, device)),
               device, overrides, context, out));
  out.note = absl::StrCat(
      "in-place dynamic-update-slice emitter: a loop over the update ",
      update.ToString(), ", ", out.grid.threads[0],
      " threads per block, unroll ", out.unroll,
      "; the updated buffer is not read");
  const bool one_root = choice.roots.size() == 1;
  for (size_t j = 0; j < kernel.output_shapes.size(); ++j) {
    const HloInstruction* dus = strip(
        choice.heroes[one_root ? 0 : std::min(j, choice.heroes.size() - 1)]);
    std::vector<IndexingMap> operands = {
        IndexingMap::Undefined(std::string(kNotReadByTheEmitter)), map};
    for (int64_t k = 2; k < dus->operand_count(); ++k) {
      operands.push_back(MakeThreadMap(out.grid.threads[0], out.grid.blocks[0],
                                       {}, {}, {}, {}, context));
    }
    out.hero_anchored.push_back(true);
    out.heroes.push_back(dus);
    out.thread_to_outputs.push_back(map);
    out.thread_to_hero_operands.push_back(std::move(operands));
  }
  return out;
}

// XLA's ScatterSimplifier form, which its scatter emitter requires: indices
// [slices, index vector], updates [slices, window...] with every dimension
// but the first a window dimension, nothing inserted or batched.
bool IsSimplifiedScatter(const HloInstruction& scatter) {
  const int64_t n = (scatter.operand_count() - 1) / 2;
  const Shape& operand = scatter.operand(0)->shape();
  const Shape& indices = scatter.operand(n)->shape();
  const Shape& updates = scatter.operand(n + 1)->shape();
  const ScatterDimensionNumbers& dn = scatter.scatter_dimension_numbers();
  // An empty scatter is no work (XLA's simplifier removes it).
  if (updates.ElementCount() == 0 || indices.rank() != 2 ||
      dn.index_vector_dim != 1 || updates.rank() != operand.rank() + 1 ||
      !dn.inserted_window_dims.empty() || !dn.input_batching_dims.empty() ||
      static_cast<int64_t>(dn.update_window_dims.size()) != operand.rank()) {
    return false;
  }
  for (int64_t i = 0; i < operand.rank(); ++i) {
    if (dn.update_window_dims[i] != i + 1) return false;
  }
  return true;
}

// ScatterWithDistributedUpdates: a loop over the updates, `v` elements per
// thread (v divides a slice), threads rounded up to whole warps; thread
// reads its updates at the loop's index and the index vector of its slice.
absl::StatusOr<EmitterIndexing> ScatterIndexing(
    const AnalyzedFusion& kernel, const EmitterChoice& choice,
    const GpuDeviceDescription& device, const LoopLaunchOverrides& overrides,
    mlir::MLIRContext* context) {
  const HloInstruction& scatter = *choice.heroes[0];
  const int64_t n = (scatter.operand_count() - 1) / 2;
  const Shape& updates = scatter.operand(n + 1)->shape();
  const int64_t index_vector = scatter.operand(n)->shape().dimensions(1);
  const int64_t slice = updates.ElementCount() / updates.dimensions(0);
  const int64_t vector =
      std::gcd(slice, overrides.unroll.value_or(XlaLoopUnrollFactor(
                          updates.ElementCount(), kernel, choice, device)));
  EmitterIndexing out;
  XI_ASSIGN_OR_RETURN(
      out.grid, DefaultLoopLaunchGrid(updates.ElementCount(),
                                      overrides.threads_per_block.value_or(
                                          device.threads_per_warp * 4),
                                      vector));
  out.grid.threads[0] = CeilDiv(out.grid.threads[0], device.threads_per_warp) *
                        device.threads_per_warp;
  out.unroll = vector;
  XI_ASSIGN_OR_RETURN(
      IndexingMap update_map,
      DefaultThreadIdToOutputIndexing(out.grid, vector, updates, context));
  // The slice of the thread's first element (v divides a slice, so all its
  // elements share it), then the index vector element s0.
  mlir::AffineExpr first =
      (mlir::getAffineDimExpr(kBlockIdX, context) * out.grid.threads[0] +
       mlir::getAffineDimExpr(kThreadIdX, context)) *
      vector;
  IndexingMap index_map = MakeThreadMap(
      out.grid.threads[0], out.grid.blocks[0], {index_vector},
      {first.floorDiv(slice), mlir::getAffineSymbolExpr(0, context)}, {first},
      {updates.ElementCount()}, context);
  out.note = absl::StrCat(
      "scatter emitter (distributed updates): ", out.grid.threads[0],
      " threads per block, vector ", vector, " of a ", slice, "-element slice");
  std::vector<IndexingMap> operands(
      n, IndexingMap::Undefined(
             "read and written where the scatter indices say (data "
             "dependent)"));
  operands.push_back(std::move(index_map));
  for (int64_t k = 0; k < n; ++k) operands.push_back(update_map);
  for (size_t j = 0; j < kernel.output_shapes.size(); ++j) {
    out.hero_anchored.push_back(true);
    out.heroes.push_back(&scatter);
    out.thread_to_outputs.push_back(update_map);
    out.thread_to_hero_operands.push_back(operands);
  }
  return out;
}

}  // namespace

std::vector<mlir::AffineExpr> BitcastIndices(
    absl::Span<const mlir::AffineExpr> indices,
    absl::Span<const int64_t> from_dims, const Shape& to) {
  mlir::MLIRContext* context =
      indices.empty() ? nullptr : indices[0].getContext();
  std::vector<mlir::AffineExpr> results(to.rank());
  if (context == nullptr) {
    return results;  // rank 0 to rank 0: nothing to index
  }
  mlir::AffineExpr linear = mlir::getAffineConstantExpr(0, context);
  for (size_t i = 0; i < indices.size(); ++i) {
    linear = linear * from_dims[i] + indices[i];
  }
  const std::vector<int64_t> order = MinorToMajorOf(to);
  for (size_t p = 0; p < order.size(); ++p) {
    const int64_t dim = order[p];
    if (p + 1 == order.size()) {
      results[dim] = linear;
    } else {
      results[dim] = linear % to.dimensions(dim);
      linear = linear.floorDiv(to.dimensions(dim));
    }
  }
  return results;
}

IndexingMap MakeThreadMap(int64_t threads, int64_t blocks,
                          absl::Span<const int64_t> symbol_sizes,
                          absl::Span<const mlir::AffineExpr> results,
                          absl::Span<const mlir::AffineExpr> constrained,
                          absl::Span<const int64_t> bounds,
                          mlir::MLIRContext* context) {
  LaunchGrid grid;
  grid.threads[0] = threads;
  grid.blocks[0] = blocks;
  std::vector<Interval> dim_bounds;
  for (int64_t n : grid.threads) dim_bounds.push_back({0, n - 1});
  for (int64_t n : grid.blocks) dim_bounds.push_back({0, n - 1});
  std::vector<Interval> ranges;
  for (int64_t n : symbol_sizes) ranges.push_back({0, n - 1});
  IndexingMap map(
      mlir::AffineMap::get(
          kLaunchGridDims, static_cast<unsigned>(symbol_sizes.size()),
          std::vector<mlir::AffineExpr>(results.begin(), results.end()),
          context),
      dim_bounds, ranges, {});
  for (size_t i = 0; i < bounds.size() && i < constrained.size(); ++i) {
    map.AddConstraint(constrained[i], {0, bounds[i] - 1});
  }
  map.Simplify();
  return map;
}

int64_t XlaLoopUnrollFactor(int64_t elements, const AnalyzedFusion& kernel,
                            const EmitterChoice& choice,
                            const GpuDeviceDescription& device) {
  int64_t unroll = 1;
  const int64_t threads_max =
      SaturatingMul(device.threads_per_core_limit, device.core_count);
  if (elements >= threads_max && !MayCausePerformanceDropIfUnrolled(kernel)) {
    unroll = std::gcd(elements, int64_t{4});
  }
  const int64_t bits = std::max<int64_t>(1, choice.smallest_output_bits);
  return std::max(unroll, CeilDiv(int64_t{8}, bits));
}

namespace {

// Every emitter's launch stays within block_dim_limit.x (XLA's
// MaybeSplitGridDimensionX would split a larger one over y).
absl::StatusOr<EmitterIndexing> CheckBlockLimit(
    absl::StatusOr<EmitterIndexing> indexing, const AnalyzedFusion& kernel,
    const EmitterChoice& choice, const GpuDeviceDescription& device) {
  if (indexing.ok() && indexing->grid.blocks[0] > device.block_dim_limit_x) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the ", choice.name, " launch of '", kernel.root->name(), "' needs ",
        indexing->grid.blocks[0],
        " blocks, more than the device's block_dim_limit.x (XLA splits such "
        "grids over y; not modelled)"));
  }
  return indexing;
}

absl::StatusOr<EmitterIndexing> EmitterIndexingUnchecked(
    const AnalyzedFusion& kernel, const EmitterChoice& choice,
    const GpuDeviceDescription& device, const LoopLaunchOverrides& overrides,
    mlir::MLIRContext* context) {
  switch (choice.kind) {
    case EmitterKind::kLibrary:
      return absl::InvalidArgumentError(
          absl::StrCat("'", kernel.root->name(), "' runs as ", choice.name,
                       ": a library kernel has no emitter thread map"));
    case EmitterKind::kTranspose:
      return emitter_internal::TransposeIndexing(kernel, choice, device,
                                                 context);
    case EmitterKind::kReduction:
      return emitter_internal::ReductionIndexing(kernel, choice, device,
                                                 context);
    case EmitterKind::kLoop:
      return LoopIndexing(kernel, choice, device, overrides, context);
    case EmitterKind::kConcatenate:
      return ConcatenateIndexing(kernel, choice, device, overrides, context);
    case EmitterKind::kScatter: {
      // The sorted, non-unique variant (ScatterWithDistributedIndices) and
      // scatters XLA would first simplify keep the loop emitter's maps.
      const HloInstruction& scatter = *choice.heroes[0];
      const int64_t n = (scatter.operand_count() - 1) / 2;
      const bool distributed_indices =
          scatter.indices_are_sorted() && !scatter.unique_indices() &&
          IsSimplifiedScatter(scatter) &&
          scatter.operand(n)->shape().dimensions(0) > 4 * device.core_count;
      if (IsSimplifiedScatter(scatter) && !distributed_indices) {
        return ScatterIndexing(kernel, choice, device, overrides, context);
      }
      break;
    }
    case EmitterKind::kInPlaceDynamicUpdateSlice:
      return DynamicUpdateSliceIndexing(kernel, choice, device, overrides,
                                        context);
    default:
      break;
  }
  XI_ASSIGN_OR_RETURN(EmitterIndexing out,
                      LoopIndexing(kernel, choice, device, overrides, context));
  out.note = absl::StrCat("the ", choice.name,
                          " emitter's own maps are not modelled; ", out.note);
  return out;
}

}  // namespace

absl::StatusOr<EmitterIndexing> ComputeEmitterIndexing(
    const AnalyzedFusion& kernel, const EmitterChoice& choice,
    const GpuDeviceDescription& device, const LoopLaunchOverrides& overrides,
    mlir::MLIRContext* context) {
  return CheckBlockLimit(
      EmitterIndexingUnchecked(kernel, choice, device, overrides, context),
      kernel, choice, device);
}

}  // namespace xla_index
