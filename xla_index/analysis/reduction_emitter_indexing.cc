// The reduction emitter's thread maps (XLA's RowReductionFusion,
// MultiRowReductionFusion, ColumnReductionFusion and
// SmallColumnReductionFusion in xla/backends/gpu/codegen/emitters/
// reduction.cc): see emitter_indexing.h.

#include <algorithm>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/checked_arithmetic.h"
#include "hlo/opcode.h"
#include "xla_index/analysis/emitter_indexing.h"

namespace xla_index {
namespace emitter_internal {
namespace {

using mlir::AffineExpr;

constexpr int64_t kTileSize = 32;
constexpr int64_t kThreadsPerBlockTarget = 256;

// One reduction emitter's parameters and its maps over the reduction's
// input (`input_dims`, row-major) and output (`output_dims`).
struct ReductionPlan {
  std::string variant;
  int64_t threads = 1;
  int64_t blocks = 1;
  int64_t vector = 1;
  std::vector<int64_t> input_dims;
  std::vector<int64_t> input_symbols;
  std::vector<AffineExpr> input;
  std::vector<int64_t> output_dims;
  std::vector<int64_t> output_symbols;
  std::vector<AffineExpr> output;
  // Extra output constraints: expr in [0, bound - 1].
  std::vector<AffineExpr> output_guards;
  std::vector<int64_t> output_guard_bounds;
  std::string params;
};

// XLA's GetVectorSizeForMlir.
int64_t VectorSize(const EmitterChoice& c, int64_t minor_dim,
                   int64_t num_threads) {
  if (minor_dim % 2 != 0 || num_threads * 2 > minor_dim) return 1;
  if (c.complex_hero_operand) return 1;
  if (c.smallest_input_bits >= 64) return 1;
  if (c.smallest_input_bits >= 32) return 2;
  if (num_threads * 4 > minor_dim) return 2;
  return minor_dim % 4 == 0 ? 4 : 2;
}

std::vector<AffineExpr> Delinearize2(AffineExpr linear, int64_t minor) {
  return {linear.floorDiv(minor), linear % minor};
}

ReductionPlan RowPlan(const EmitterChoice& c, const GpuDeviceDescription& dev,
                      mlir::MLIRContext* ctx) {
  const auto& s = c.reduction.dims;  // [major reduced, kept, minor reduced]
  ReductionPlan p;
  p.variant = "row";
  const int64_t per_thread = 16;
  const int64_t warp = dev.threads_per_warp;
  const int64_t reduced_threads =
      std::min<int64_t>(1024, CeilDiv(CeilDiv(s[2], per_thread), warp) * warp);
  int64_t kept_threads = 1;
  if (reduced_threads * 2 <= kThreadsPerBlockTarget) {
    kept_threads =
        SaturatingMul(s[1], reduced_threads) <= kThreadsPerBlockTarget
            ? s[1]
            : kThreadsPerBlockTarget / reduced_threads;
  }
  p.vector = VectorSize(c, s[2], reduced_threads);
  p.input_dims = {s[0], s[1], s[2] / p.vector, p.vector};
  const int64_t tile = std::min(per_thread / p.vector,
                                CeilDiv(p.input_dims[2], reduced_threads));
  const int64_t block_kept = kept_threads;
  const int64_t block_reduced = tile * reduced_threads;
  const int64_t blocks_kept = CeilDiv(s[1], block_kept);
  const int64_t blocks_reduced = CeilDiv(p.input_dims[2], block_reduced);
  p.threads = kept_threads * reduced_threads;
  p.blocks = SaturatingMul(blocks_kept, blocks_reduced);
  AffineExpr d0 = mlir::getAffineDimExpr(kThreadIdX, ctx);
  AffineExpr bx = mlir::getAffineDimExpr(kBlockIdX, ctx);
  std::vector<AffineExpr> t = Delinearize2(d0, reduced_threads);
  std::vector<AffineExpr> b = Delinearize2(bx, blocks_reduced);
  AffineExpr s0 = mlir::getAffineSymbolExpr(0, ctx);
  AffineExpr s1 = mlir::getAffineSymbolExpr(1, ctx);
  AffineExpr s2 = mlir::getAffineSymbolExpr(2, ctx);
  p.input_symbols = {s[0], tile, p.vector};
  p.input = {s0, b[0] * block_kept + t[0],
             b[1] * block_reduced + s1 * reduced_threads + t[1], s2};
  p.output_dims = {s[1]};
  p.output = {b[0] * block_kept + t[0]};
  p.output_guards = {t[1]};
  p.output_guard_bounds = {1};
  p.params =
      absl::StrCat("threads [", kept_threads, ", ", reduced_threads,
                   "], blocks [", blocks_kept, ", ", blocks_reduced, "], ",
                   tile, " x ", p.vector, " elements per row step");
  return p;
}

ReductionPlan MultiRowPlan(const EmitterChoice& c, mlir::MLIRContext* ctx) {
  const auto& s = c.reduction.dims;
  ReductionPlan p;
  p.variant = "multi-row";
  p.vector = c.multi_row_vector_size;
  const int64_t reduced_threads = s[2] / p.vector;
  const int64_t kept_threads =
      SaturatingMul(s[1], reduced_threads) <= kThreadsPerBlockTarget
          ? s[1]
          : kThreadsPerBlockTarget / reduced_threads;
  p.threads = kept_threads * reduced_threads;
  p.blocks = CeilDiv(s[1], kept_threads);
  p.input_dims = {s[0], s[1], s[2]};
  AffineExpr d0 = mlir::getAffineDimExpr(kThreadIdX, ctx);
  AffineExpr block = p.blocks == 1 ? mlir::getAffineConstantExpr(0, ctx)
                                   : mlir::getAffineDimExpr(kBlockIdX, ctx);
  std::vector<AffineExpr> t = Delinearize2(d0, reduced_threads);
  AffineExpr s0 = mlir::getAffineSymbolExpr(0, ctx);
  AffineExpr s1 = mlir::getAffineSymbolExpr(1, ctx);
  p.input_symbols = {s[0], p.vector};
  p.input = {s0, block * kept_threads + t[0], t[1] * p.vector + s1};
  p.output_dims = {s[1]};
  p.output = {block * kept_threads + t[0]};
  p.output_guards = {t[1]};
  p.output_guard_bounds = {1};
  p.params = absl::StrCat("threads [", kept_threads, ", ", reduced_threads,
                          "], ", p.blocks, " blocks");
  return p;
}

ReductionPlan ColumnPlan(const EmitterChoice& c, mlir::MLIRContext* ctx) {
  const auto& s = c.reduction.dims;  // [major kept, reduced, minor kept]
  ReductionPlan p;
  p.variant = "column";
  p.vector = VectorSize(c, s[2], kTileSize);
  const int64_t per_thread = CeilDiv(s[1], kTileSize);
  const int64_t blocks_minor = CeilDiv(s[2], kTileSize * p.vector);
  p.threads = kTileSize * kTileSize;
  p.blocks = SaturatingMul(s[0], blocks_minor);
  p.input_dims = {s[0], s[1], s[2]};
  AffineExpr d0 = mlir::getAffineDimExpr(kThreadIdX, ctx);
  AffineExpr bx = mlir::getAffineDimExpr(kBlockIdX, ctx);
  std::vector<AffineExpr> t = Delinearize2(d0, kTileSize);
  std::vector<AffineExpr> b = Delinearize2(bx, blocks_minor);
  AffineExpr s0 = mlir::getAffineSymbolExpr(0, ctx);
  AffineExpr s1 = mlir::getAffineSymbolExpr(1, ctx);
  p.input_symbols = {per_thread, p.vector};
  p.input = {b[0], t[0] + s0 * kTileSize,
             (b[1] * kTileSize + t[1]) * p.vector + s1};
  p.output_dims = {s[0], s[2]};
  p.output_symbols = {p.vector};
  p.output = {b[0], (b[1] * kTileSize + t[0]) * p.vector + s0};
  p.output_guards = {t[1]};
  p.output_guard_bounds = {1};
  p.params = absl::StrCat("threads [32, 32], blocks [", s[0], ", ",
                          blocks_minor, "], ", per_thread, " rows per thread");
  return p;
}

ReductionPlan SmallColumnPlan(const EmitterChoice& c, mlir::MLIRContext* ctx) {
  const auto& s = c.reduction.dims;
  ReductionPlan p;
  p.variant = "small column";
  const int64_t inner = SaturatingMul(s[1], s[2]);
  p.vector = VectorSize(c, inner, kTileSize);
  int64_t threads = 128;
  int64_t shared_rows = p.vector * threads / s[2];
  while (shared_rows > kTileSize && p.vector > 1) {
    p.vector /= 2;
    shared_rows /= 2;
  }
  if (shared_rows > kTileSize) {
    threads /= shared_rows / kTileSize;
    shared_rows = kTileSize;
  }
  const int64_t loop = CeilDiv(inner, p.vector * threads);
  p.threads = threads;
  p.blocks = s[0];
  p.input_dims = {s[0], s[1], s[2]};
  AffineExpr d0 = mlir::getAffineDimExpr(kThreadIdX, ctx);
  AffineExpr bx = mlir::getAffineDimExpr(kBlockIdX, ctx);
  AffineExpr s0 = mlir::getAffineSymbolExpr(0, ctx);
  AffineExpr s1 = mlir::getAffineSymbolExpr(1, ctx);
  AffineExpr linear = d0 * p.vector + s1 + s0 * (p.vector * threads);
  p.input_symbols = {loop, p.vector};
  p.input = {bx, linear.floorDiv(s[2]), linear % s[2]};
  p.output_dims = {s[0], s[2]};
  p.output_symbols = {p.vector};
  p.output = {bx, (d0 + s0 * threads).floorDiv(shared_rows)};
  p.output_guards = {d0 % shared_rows};
  p.output_guard_bounds = {1};
  p.params = absl::StrCat(threads, " threads, ", s[0], " blocks, ", loop,
                          " steps, ", shared_rows, " shared rows");
  return p;
}

// The map from threads to `shape`'s elements through the plan's input
// (bitcast from the reduction input's row-major dims).
IndexingMap InputMap(const ReductionPlan& p, const Shape& shape,
                     mlir::MLIRContext* ctx) {
  return MakeThreadMap(p.threads, p.blocks, p.input_symbols,
                       BitcastIndices(p.input, p.input_dims, shape), p.input,
                       p.input_dims, ctx);
}

IndexingMap OutputMap(const ReductionPlan& p, const Shape& shape,
                      mlir::MLIRContext* ctx) {
  std::vector<AffineExpr> constrained = p.output;
  std::vector<int64_t> bounds = p.output_dims;
  constrained.insert(constrained.end(), p.output_guards.begin(),
                     p.output_guards.end());
  bounds.insert(bounds.end(), p.output_guard_bounds.begin(),
                p.output_guard_bounds.end());
  return MakeThreadMap(p.threads, p.blocks, p.output_symbols,
                       BitcastIndices(p.output, p.output_dims, shape),
                       constrained, bounds, ctx);
}

// A reduce's operand k: an input (k < n / 2) through the plan, an init
// value as a scalar read (no results).
IndexingMap HeroOperandMap(const ReductionPlan& p, const HloInstruction& hero,
                           int64_t k, mlir::MLIRContext* ctx) {
  if (k < hero.operand_count() / 2) {
    return InputMap(p, hero.operand(k)->shape(), ctx);
  }
  return MakeThreadMap(p.threads, p.blocks, {}, {}, {}, {}, ctx);
}

}  // namespace

absl::StatusOr<EmitterIndexing> ReductionIndexing(
    const AnalyzedFusion& kernel, const EmitterChoice& choice,
    const GpuDeviceDescription& device, mlir::MLIRContext* context) {
  ReductionPlan p;
  switch (choice.reduction_variant) {
    case ReductionVariant::kRow:
      p = RowPlan(choice, device, context);
      break;
    case ReductionVariant::kMultiRow:
      p = MultiRowPlan(choice, context);
      break;
    case ReductionVariant::kColumn:
      p = ColumnPlan(choice, context);
      break;
    case ReductionVariant::kSmallColumn:
      p = SmallColumnPlan(choice, context);
      break;
  }
  EmitterIndexing out;
  out.grid.threads[0] = p.threads;
  out.grid.blocks[0] = p.blocks;
  out.unroll = p.vector;
  out.note = absl::StrCat(p.variant, " reduction emitter: ", p.params,
                          ", vector ", p.vector);
  const size_t outputs = kernel.output_shapes.size();
  const bool one_root = choice.roots.size() == 1;
  if (!one_root && choice.roots.size() != outputs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", kernel.root->name(), "': ", choice.roots.size(), " roots for ",
        outputs, " outputs (nested tuples are not modelled)"));
  }
  for (size_t j = 0; j < outputs; ++j) {
    const HloInstruction* root = choice.roots[one_root ? 0 : j];
    const HloInstruction* hero = choice.heroes[one_root ? 0 : j];
    const bool reduction_root =
        hero->opcode() == HloOpcode::kReduce &&
        IsReductionFromOrToContiguousDimensions(*hero, device);
    out.hero_anchored.push_back(reduction_root);
    out.heroes.push_back(reduction_root ? hero : nullptr);
    if (!reduction_root) {
      out.thread_to_outputs.push_back(
          InputMap(p, kernel.output_shapes[j], context));
      out.thread_to_hero_operands.emplace_back();
      continue;
    }
    (void)root;
    out.thread_to_outputs.push_back(
        OutputMap(p, kernel.output_shapes[j], context));
    std::vector<IndexingMap> operands;
    for (int64_t k = 0; k < hero->operand_count(); ++k) {
      operands.push_back(HeroOperandMap(p, *hero, k, context));
    }
    out.thread_to_hero_operands.push_back(std::move(operands));
  }
  return out;
}

}  // namespace emitter_internal
}  // namespace xla_index
