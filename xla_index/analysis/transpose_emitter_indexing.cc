// The transpose emitter's thread maps (XLA's TransposeFusion in
// xla/backends/gpu/codegen/emitters/transpose.cc): see emitter_indexing.h.

#include <algorithm>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/checked_arithmetic.h"
#include "hlo/primitive_type.h"
#include "xla_index/analysis/emitter_choice.h"
#include "xla_index/analysis/emitter_indexing.h"

namespace xla_index {
namespace emitter_internal {
namespace {

constexpr int64_t kTileSize = 32;
constexpr int64_t kNumRows = 4;
constexpr int64_t kThreadsPerBlock = kNumRows * kTileSize;
constexpr int64_t kMaxVectorizedBytes = 4;

// Row-major digits of `linear` over `sizes`; the first digit is not reduced
// modulo its size (XLA's DelinearizeInBoundsIndex).
std::vector<mlir::AffineExpr> Delinearize(mlir::AffineExpr linear,
                                          const std::vector<int64_t>& sizes) {
  std::vector<mlir::AffineExpr> out(sizes.size());
  int64_t stride = 1;
  for (int64_t i = static_cast<int64_t>(sizes.size()) - 1; i >= 0; --i) {
    mlir::AffineExpr digit = linear.floorDiv(stride);
    out[i] = i == 0 ? digit : digit % sizes[i];
    stride *= sizes[i];
  }
  return out;
}

// The emitter's tiling: block sizes over the normalized input, vector size.
struct TransposeTiling {
  std::vector<int64_t> input;        // normalized input dimensions
  std::vector<int64_t> output;       // normalized output dimensions
  std::vector<int64_t> permutation;  // output i = input permutation[i]
  int64_t vector = 1;
  int64_t block_size = kTileSize;
  std::vector<int64_t> block_sizes;         // over the input
  std::vector<int64_t> output_block_sizes;  // over the output
  std::vector<int64_t> block_counts;        // over the input
  bool minor_unchanged = false;
  int64_t BlockCount() const {
    int64_t n = 1;
    for (int64_t c : block_counts) n = SaturatingMul(n, c);
    return n;
  }
};

void ComputeBlockSizes(TransposeTiling& t, int64_t vector) {
  const size_t n = t.input.size();
  t.vector = vector;
  t.block_sizes.assign(n, 1);
  if (t.minor_unchanged) {
    t.block_size = kTileSize;
    t.block_sizes.back() = vector;
    t.block_sizes[n - 2] = kTileSize;
    t.block_sizes[t.permutation[n - 2]] = kTileSize;
  } else {
    t.block_size = kTileSize * vector;
    t.block_sizes.back() = t.block_size;
    t.block_sizes[t.permutation.back()] = t.block_size;
  }
  t.output_block_sizes.assign(n, 1);
  for (size_t i = 0; i < n; ++i) {
    t.output_block_sizes[i] = t.block_sizes[t.permutation[i]];
  }
  t.block_counts.assign(n, 1);
  for (size_t i = 0; i < n; ++i) {
    t.block_counts[i] = CeilDiv(t.input[i], t.block_sizes[i]);
  }
}

// TransposeFusion's constructor: vectorize when there is enough work,
// shared memory and alignment.
TransposeTiling ChooseTiling(const EmitterChoice& choice,
                             const GpuDeviceDescription& device) {
  TransposeTiling t;
  t.input = choice.transpose.input_dims;
  t.output = choice.transpose.output_dims;
  t.permutation = choice.transpose.permutation;
  const size_t n = t.input.size();
  t.minor_unchanged = t.permutation.back() == static_cast<int64_t>(n) - 1;
  int64_t max_element_bytes = 0, shmem_usage = 0;
  for (const HloInstruction* hero : choice.heroes) {
    if (!TiledTransposeDescription(*hero).has_value()) continue;
    int64_t size = ByteSize(hero->shape().element_type());
    if (t.minor_unchanged) size *= t.input.back();
    max_element_bytes = std::max(max_element_bytes, size);
    shmem_usage += kTileSize * (kTileSize + 1) * size;
  }
  if (t.minor_unchanged) {
    ComputeBlockSizes(t, t.input.back());
    return t;
  }
  ComputeBlockSizes(t, 1);
  for (int64_t v =
           kMaxVectorizedBytes / std::max<int64_t>(1, max_element_bytes);
       v > 1; v /= 2) {
    const int64_t per_thread = v * v;
    const bool enough_work =
        SaturatingMul(t.BlockCount(), kThreadsPerBlock) >=
        SaturatingMul(per_thread, SaturatingMul(device.core_count,
                                                device.threads_per_core_limit));
    const bool enough_shmem =
        shmem_usage * per_thread <= device.shared_memory_per_block;
    const bool aligned =
        t.input.back() % v == 0 && t.input[t.permutation.back()] % v == 0;
    if (enough_work && enough_shmem && aligned) {
      ComputeBlockSizes(t, v);
      break;
    }
  }
  return t;
}

// TransposeFusion::GetIndexing: the tile element each thread reads (input)
// or writes (output), bitcast to `shape`.
IndexingMap TileMap(const TransposeTiling& t, bool input, const Shape& shape,
                    mlir::MLIRContext* context) {
  mlir::AffineExpr thread = mlir::getAffineDimExpr(kThreadIdX, context);
  mlir::AffineExpr block = mlir::getAffineDimExpr(kBlockIdX, context);
  mlir::AffineExpr loop = mlir::getAffineSymbolExpr(0, context);
  mlir::AffineExpr vector = mlir::getAffineSymbolExpr(1, context);
  int64_t loop_stride = t.block_size * kNumRows;
  if (t.minor_unchanged) loop_stride *= t.vector;
  mlir::AffineExpr linear = loop * loop_stride + thread * t.vector + vector;
  std::vector<mlir::AffineExpr> offsets =
      Delinearize(linear, input ? t.block_sizes : t.output_block_sizes);
  std::vector<mlir::AffineExpr> block_ids = Delinearize(block, t.block_counts);
  if (!input) {
    std::vector<mlir::AffineExpr> permuted(block_ids.size());
    for (size_t i = 0; i < block_ids.size(); ++i) {
      permuted[i] = block_ids[t.permutation[i]];
    }
    block_ids = permuted;
  }
  const std::vector<int64_t>& sizes =
      input ? t.block_sizes : t.output_block_sizes;
  const std::vector<int64_t>& dims = input ? t.input : t.output;
  std::vector<mlir::AffineExpr> indices;
  for (size_t i = 0; i < offsets.size(); ++i) {
    indices.push_back(block_ids[i] * sizes[i] + offsets[i]);
  }
  const std::vector<int64_t> symbols = {t.block_size / kNumRows, t.vector};
  return MakeThreadMap(kThreadsPerBlock, t.BlockCount(), symbols,
                       BitcastIndices(indices, dims, shape), indices, dims,
                       context);
}

// PackedTranspose's thread maps (GetInputIndexing, GetOutputIndexing):
// 128 threads in 4 groups of 32 lanes; a block's tile is read into shared
// memory rows T2 by columns (A, T1), `vector` elements per lane.
struct PackedMaps {
  int64_t blocks = 1;
  IndexingMap input = IndexingMap::Undefined();
  IndexingMap output = IndexingMap::Undefined();
};

PackedMaps PackedTransposeMaps(const PackedTransposeTiling& p,
                               const Shape& input_shape,
                               const Shape& output_shape,
                               mlir::MLIRContext* context) {
  constexpr int64_t kGroups = kThreadsPerBlock / kTileSize;
  const int64_t r = static_cast<int64_t>(p.output_dims.size());
  std::vector<int64_t> inverse(r), input_tile(r), block_counts(r);
  for (int64_t i = 0; i < r; ++i) inverse[p.permutation[i]] = i;
  for (int64_t i = 0; i < r; ++i) input_tile[i] = p.output_tile[inverse[i]];
  for (int64_t i = 0; i < r; ++i) {
    block_counts[i] = CeilDiv(p.output_dims[i], p.output_tile[i]);
  }
  PackedMaps maps;
  for (int64_t c : block_counts) maps.blocks = SaturatingMul(maps.blocks, c);
  const int64_t a = r - 3, t1_in = r - 2, t2_in = p.permutation[r - 2];
  const int64_t t1_out = inverse[r - 2], t2_out = r - 2;
  const int64_t tile_t1 = input_tile[t1_in], tile_a = input_tile[a];
  const int64_t tile_t2 = input_tile[t2_in];
  const int64_t cols = tile_a * tile_t1, rows = tile_t2;
  mlir::AffineExpr thread = mlir::getAffineDimExpr(kThreadIdX, context);
  mlir::AffineExpr lane = thread % kTileSize;
  mlir::AffineExpr group = thread.floorDiv(kTileSize);
  std::vector<mlir::AffineExpr> block_ids =
      Delinearize(mlir::getAffineDimExpr(kBlockIdX, context), block_counts);
  mlir::AffineExpr zero = mlir::getAffineConstantExpr(0, context);
  mlir::AffineExpr s0 = mlir::getAffineSymbolExpr(0, context);
  mlir::AffineExpr s1 = mlir::getAffineSymbolExpr(1, context);
  mlir::AffineExpr s2 = mlir::getAffineSymbolExpr(2, context);
  // Reads: shared-memory row loop * 4 + group, column lane * vector + s1.
  {
    mlir::AffineExpr row = s0 * kGroups + group;
    mlir::AffineExpr col = lane * p.vector + s1;
    std::vector<mlir::AffineExpr> offsets(r, zero);
    offsets[a] = col.floorDiv(tile_t1);
    offsets[t1_in] = col % tile_t1;
    offsets[t2_in] = row;
    std::vector<mlir::AffineExpr> index(r);
    for (int64_t i = 0; i < r; ++i) {
      index[i] = block_ids[inverse[i]] * input_tile[i] + offsets[i];
    }
    std::vector<mlir::AffineExpr> constrained = index;
    std::vector<int64_t> bounds = p.input_dims;
    constrained.push_back(col);
    bounds.push_back(cols);
    constrained.push_back(row);
    bounds.push_back(rows);
    maps.input = MakeThreadMap(kThreadsPerBlock, maps.blocks,
                               {CeilDiv(tile_t2, kGroups), p.vector},
                               BitcastIndices(index, p.input_dims, input_shape),
                               constrained, bounds, context);
  }
  // Writes: columns (loop * 4 + group) * vector + s1, rows lane * vector +
  // s2.
  mlir::AffineExpr col = (s0 * kGroups + group) * p.vector + s1;
  mlir::AffineExpr row = lane * p.vector + s2;
  std::vector<mlir::AffineExpr> offsets(r, zero);
  offsets[a] = col.floorDiv(tile_t1);
  offsets[t1_out] = col % tile_t1;
  offsets[t2_out] = row;
  std::vector<mlir::AffineExpr> index(r);
  for (int64_t i = 0; i < r; ++i) {
    index[i] = block_ids[i] * p.output_tile[i] + offsets[i];
  }
  std::vector<mlir::AffineExpr> constrained = index;
  std::vector<int64_t> bounds = p.output_dims;
  constrained.push_back(col);
  bounds.push_back(cols);
  constrained.push_back(row);
  bounds.push_back(rows);
  maps.output =
      MakeThreadMap(kThreadsPerBlock, maps.blocks,
                    {CeilDiv(cols, p.vector * kGroups), p.vector, p.vector},
                    BitcastIndices(index, p.output_dims, output_shape),
                    constrained, bounds, context);
  return maps;
}

absl::StatusOr<EmitterIndexing> PackedTransposeIndexing(
    const AnalyzedFusion& kernel, const EmitterChoice& choice,
    mlir::MLIRContext* context) {
  const HloInstruction* first = choice.transpose_hero;
  std::optional<PackedTransposeTiling> p = GetPackedTransposeTiling(
      choice.transpose, BitWidth(first->shape().element_type()));
  if (!p.has_value()) {
    return absl::InternalError("packed transpose without a packed tiling");
  }
  EmitterIndexing out;
  out.grid.threads[0] = kThreadsPerBlock;
  out.unroll = p->vector;
  out.note = absl::StrCat(
      "packed transpose emitter: 128 threads, output tile [",
      absl::StrJoin(p->output_tile, ", "), "] of the canonical output [",
      absl::StrJoin(p->output_dims, ", "), "], vector ", p->vector);
  for (size_t j = 0; j < choice.roots.size(); ++j) {
    const HloInstruction* hero = choice.heroes[j];
    const bool tiled = TiledTransposeDescription(*hero).has_value();
    const Shape& input =
        tiled ? hero->operand(0)->shape() : first->operand(0)->shape();
    const Shape& output = tiled ? hero->shape() : kernel.output_shapes[j];
    PackedMaps maps = PackedTransposeMaps(*p, input, output, context);
    out.grid.blocks[0] = maps.blocks;
    out.hero_anchored.push_back(tiled);
    out.heroes.push_back(tiled ? hero : nullptr);
    out.thread_to_outputs.push_back(std::move(maps.output));
    if (tiled) {
      out.thread_to_hero_operands.push_back({std::move(maps.input)});
    } else {
      out.thread_to_hero_operands.emplace_back();
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<EmitterIndexing> TransposeIndexing(
    const AnalyzedFusion& kernel, const EmitterChoice& choice,
    const GpuDeviceDescription& device, mlir::MLIRContext* context) {
  if (choice.packed_transpose) {
    return PackedTransposeIndexing(kernel, choice, context);
  }
  const TransposeTiling t = ChooseTiling(choice, device);
  EmitterIndexing out;
  out.grid.threads[0] = kThreadsPerBlock;
  out.grid.blocks[0] = t.BlockCount();
  out.unroll = t.vector;
  out.note = absl::StrCat(
      "transpose emitter: ", kThreadsPerBlock, " threads, block sizes [",
      absl::StrJoin(t.block_sizes, ", "), "] over the normalized input [",
      absl::StrJoin(t.input, ", "), "], vector ", t.vector);
  for (size_t j = 0; j < choice.roots.size(); ++j) {
    const HloInstruction* hero = choice.heroes[j];
    const bool tiled = TiledTransposeDescription(*hero).has_value();
    out.hero_anchored.push_back(tiled);
    out.heroes.push_back(tiled ? hero : nullptr);
    if (tiled) {
      out.thread_to_outputs.push_back(
          TileMap(t, false, hero->shape(), context));
      out.thread_to_hero_operands.push_back(
          {TileMap(t, true, hero->operand(0)->shape(), context)});
    } else {
      out.thread_to_outputs.push_back(
          TileMap(t, true, kernel.output_shapes[j], context));
      out.thread_to_hero_operands.emplace_back();
    }
  }
  return out;
}

}  // namespace emitter_internal
}  // namespace xla_index
