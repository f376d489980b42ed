#ifndef XLA_INDEX_ANALYSIS_EMITTER_CHOICE_H_
#define XLA_INDEX_ANALYSIS_EMITTER_CHOICE_H_

// Which of XLA's GPU emitters runs a kernel, and why, as XLA HEAD decides it
// (HloFusionAnalysis's GetEmitterFusionKind and GetFusionEmitter, with the
// heroes of FindNonTrivialHero, the reduction tests of reduction_utils.cc and
// the transpose test GetDescriptionForTiledTransposeEmitter).
//
// The kernel is an AnalyzedFusion (fusion_operands.h): a fusion through its
// fused computation, a bare root composed back to its computation's
// parameters, or an unfused instruction alone, which is judged as XLA would
// wrap it in a fusion of its own (a lone reduce is a reduction fusion, a
// lone transpose a transpose fusion, ...).
//
//  - Library kernels: a dot (cuBLAS via GemmRewriter, or a Triton GEMM), a
//    convolution (cuDNN), a GEMM or cuDNN custom-call, and fusions whose
//    backend_config kind is __triton*, __cudnn$fusion or __custom_fusion.
//    They have no thread map of XLA's emitters: only utilization applies.
//  - Reduction: some root's hero is a reduce that
//    IsReductionFromOrToContiguousDimensions and (unless it is the root
//    itself) race free, and every other root is a compatible reduction or
//    has as many elements as the reduce's input. The variant follows
//    CreateReductionFusion: row (MultiRowReductionFusion::TryCreate first,
//    else RowReductionFusion), column (SmallColumnReductionFusion when the
//    minor kept size divides the warp size, else ColumnReductionFusion).
//  - Transpose: a hero transpose with a tiled description consistent over
//    all roots.
//  - Then: roots that are all dynamic-update-slices -> in-place
//    dynamic-update-slice (XLA also checks that the output buffers can be
//    shared with their operand 0; assumed here); several roots -> loop; a
//    scatter root -> scatter; sort -> sort; a concatenate hero with at most
//    4 operands (single output) -> concatenate; else loop.
//
// Deliberate simplifications (documented in docs/API.md): reshapes are
// bitcasts when both shapes have the default layout; a side output is
// "bitcast compatible" with the transpose input when it has as many
// elements.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "hlo/instruction.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/analysis/gpu_device.h"

namespace xla_index {

enum class EmitterKind {
  kLoop,
  kTranspose,
  kReduction,
  kConcatenate,
  kInPlaceDynamicUpdateSlice,
  kScatter,
  kSort,
  kLibrary,
};

enum class ReductionVariant { kRow, kMultiRow, kColumn, kSmallColumn };

/// XLA's ReductionDimensions: a row reduction [major reduced, kept, minor
/// reduced] or a column reduction [major kept, reduced, minor kept], from the
/// reduce's input in its physical (layout) order.
struct ReductionShape {
  bool is_row = true;
  std::array<int64_t, 3> dims = {1, 1, 1};
};

/// A transpose normalized as ShapeUtil::GetNormalizedLogicalTransposeShape
/// does after layout normalization: over physical dimensions, size-1
/// dimensions dropped, runs of dimensions that stay adjacent merged. Output
/// dimension i is input dimension permutation[i].
struct NormalizedTranspose {
  std::vector<int64_t> output_dims;
  std::vector<int64_t> permutation;
  /// The input dimensions: input_dims[permutation[i]] = output_dims[i].
  std::vector<int64_t> input_dims;
};

/// The packed transpose of XLA's PackedTransposeDescription and
/// GetPackedTransposeTileSizes: the normalized transpose with size-1 A
/// (third-to-last) and B (last) dimensions added, canonical rank r >= 4:
/// input dimensions A = r - 3, T1 = r - 2, B = r - 1, T2 = permutation[r - 2];
/// output dimension T2 = r - 2. `output_tile` is the block's output tile,
/// `vector` = 32 / element bits (elements per shared-memory bank).
struct PackedTransposeTiling {
  std::vector<int64_t> output_dims;
  std::vector<int64_t> permutation;
  std::vector<int64_t> input_dims;
  std::vector<int64_t> output_tile;
  int64_t vector = 1;
};

/// The packed tiling of `t` for elements of `bits` bits, or nullopt when
/// XLA cannot emit it packed (elements of 32 bits or more, too few rows or
/// columns of shared memory, shapes it does not support).
std::optional<PackedTransposeTiling> GetPackedTransposeTiling(
    const NormalizedTranspose& t, int64_t bits);

struct EmitterChoice {
  EmitterKind kind = EmitterKind::kLoop;
  /// Short name: "loop", "reduction (row)", "transpose", "library (cuBLAS)".
  std::string name;
  /// Why, in words, naming the hero and XLA's test that decided.
  std::string reason;
  /// The kernel's roots (tuple operands of a tuple root) and their heroes.
  std::vector<const HloInstruction*> roots;
  std::vector<const HloInstruction*> heroes;
  /// Reduction: the first real reduction hero, its shape and variant.
  const HloInstruction* reduction_hero = nullptr;
  ReductionShape reduction;
  ReductionVariant reduction_variant = ReductionVariant::kRow;
  /// MultiRowReductionFusion::TryCreate's vector size (multi-row only).
  int64_t multi_row_vector_size = 1;
  /// Transpose: the first transpose hero and its normalized form.
  const HloInstruction* transpose_hero = nullptr;
  NormalizedTranspose transpose;
  /// XLA runs it as a PackedTranspose (small elements).
  bool packed_transpose = false;
  /// XLA's input_output_info: the smallest element width in bits of the
  /// kernel's array operands (INT64_MAX when there are none) and outputs.
  int64_t smallest_input_bits = 0;
  int64_t smallest_output_bits = 0;
  /// Some hero reads a complex operand (XLA does not vectorize those).
  bool complex_hero_operand = false;
};

/// The emitter of `kernel` on `device` (see the file comment).
absl::StatusOr<EmitterChoice> ChooseEmitter(const AnalyzedFusion& kernel,
                                            const GpuDeviceDescription& device);

/// "loop", "transpose", "reduction", ...
std::string EmitterKindName(EmitterKind kind);

/// XLA's GetReductionKindAndContiguousComponents for `reduce` (a kReduce).
ReductionShape GetReductionShape(const HloInstruction& reduce);

/// XLA's IsReductionFromOrToContiguousDimensions.
bool IsReductionFromOrToContiguousDimensions(
    const HloInstruction& reduce, const GpuDeviceDescription& device);

/// XLA's ReductionIsRaceFree.
bool ReductionIsRaceFree(const ReductionShape& reduction,
                         const GpuDeviceDescription& device);

/// The normalized transpose when XLA's tiled transpose emitter takes
/// `transpose` as a hero (GetDescriptionForTiledTransposeEmitter), else
/// nullopt.
std::optional<NormalizedTranspose> TiledTransposeDescription(
    const HloInstruction& transpose);

/// The normalized form of a transpose, or of a copy that changes the
/// layout, over physical (layout-ordered) dimensions: what XLA's layout
/// normalization leaves of it (a transpose of default-layout shapes).
/// nullopt for other instructions.
std::optional<NormalizedTranspose> NormalizeTranspose(
    const HloInstruction& transpose);

/// XLA's TransposesMinorDimension: a transpose (or a fusion containing one)
/// that moves the most minor non-trivial dimension, or a copy that changes
/// it.
bool TransposesMinorDimension(const HloInstruction& instruction);

/// XLA's IsInputFusibleReduction: a reduce from or to contiguous dimensions,
/// or a fusion with a real reduction hero.
bool IsInputFusibleReduction(const HloInstruction& instruction,
                             const GpuDeviceDescription& device);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_EMITTER_CHOICE_H_
