#ifndef XLA_INDEX_OUTPUT_TO_INPUT_INDEXING_H_
#define XLA_INDEX_OUTPUT_TO_INPUT_INDEXING_H_

// Output-to-input indexing of single HLO instructions: for an element of one
// output, which elements of each operand does the instruction read?
//
// One function per op below; each header comment gives the seed's worked
// example. All maps are simplified and have no unused symbols. Ops without a
// rule, and instructions whose attributes do not fit their operands, give
// UNDEFINED maps for every operand (never a crash).

#include <cstdint>

#include "hlo/instruction.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/instruction_indexing.h"

namespace xla_index {

/// For output `output_id` of `instruction` (0 unless it returns a tuple),
/// `indexing_maps[k]` are the maps from an output element to the elements of
/// operand k that it reads. Fusions and calls are analyzed through their
/// called computation (see fusion_indexing.h). Parameters, constants and iota
/// have no operands (an empty list).
HloInstructionIndexing ComputeOutputToInputIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);

// ---- The per-op rules (exposed for tests and for composed rules). ----

/// Elementwise ops (unary, binary, compare, select, clamp, convert, map,
/// ...): the identity for every operand; a scalar operand (clamp bounds,
/// select predicate) is read at `()`.
///   p0 = f32[10, 20] parameter(0)
///   p1 = f32[10, 20] parameter(1)
///   add = f32[10, 20] add(p0, p1)
///   operand 0 and 1:  (d0, d1) -> (d0, d1), d0 in [0, 9], d1 in [0, 19]
HloInstructionIndexing ComputeOutputToInputElementwiseIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Broadcast drops the new dimensions: operand dim i is output dim
/// dimensions[i].
///   bc0 = f32[10, 20, 30] broadcast(f32[20] p0), dimensions={1}
///   (d0, d1, d2) -> (d1), d0 in [0, 9], d1 in [0, 19], d2 in [0, 29]
HloInstructionIndexing ComputeOutputToInputBroadcastIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Dynamic-slice: operand index = output index + offset, where each offset
/// is a runtime variable read from its scalar operand, with feasible values
/// [0, operand_dim - slice_size] (the clamping rule keeps the slice in
/// bounds). The offset operands are read at `()`.
///   ds = s32[1,2,32] dynamic-slice(s32[2,2,258] src, of1, of2, of3),
///        dynamic_slice_sizes={1, 2, 32}
///   src: (d0, d1, d2)[s0, s1, s2] -> (d0 + s0, d1 + s1, d2 + s2)
///        s0 in [0, 1] (hlo: of1 ..., (d0, d1, d2) -> ()), s1 in [0, 0],
///        s2 in [0, 226]
///   of1, of2, of3: (d0, d1, d2) -> ()
HloInstructionIndexing ComputeOutputToInputDynamicSliceIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Dynamic-update-slice: the operand is read at the same index (an
/// over-approximation: updated elements do not read it); the update at
/// output index - offset, offsets in [0, operand_dim - update_dim].
///   dus = s32[20,30] dynamic-update-slice(src, s32[5,10] upd, of1, of2)
///   src: (d0, d1) -> (d0, d1)
///   upd: (d0, d1)[s0, s1] -> (d0 - s0, d1 - s1), s0 in [0, 15],
///        s1 in [0, 20]
///   of1, of2: (d0, d1) -> ()
HloInstructionIndexing ComputeOutputToInputDynamicUpdateSliceIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Gather in the simplified form (XLA's gather_simplifier): indices of rank
/// 2 with index_vector_dim=1, start_index_map the identity {0, 1, ...}, no
/// collapsed slice dims, offset_dims={1, ..., rank}. Output dim 0 picks a
/// row of indices; operand dim k is read at d_{k+1} + s_k, where s_k is a
/// runtime variable read from indices[d0, k] (clamped like a dynamic-slice
/// offset to [0, operand_dim - slice_size]). Other forms are UNDEFINED.
///   gather = f32[1806,7,8,4] gather(f32[33,76,70] operand,
///            s32[1806,2] indices), offset_dims={1,2,3},
///            collapsed_slice_dims={}, start_index_map={0,1},
///            index_vector_dim=1, slice_sizes={7,8,4}
///   operand: (d0, d1, d2, d3)[s0, s1] -> (d1 + s0, d2 + s1, d3),
///            s0 in [0, 26] (indices at (d0, 0)), s1 in [0, 68] (at (d0, 1))
///   indices: (d0, d1, d2, d3)[s0] -> (d0, s0), s0 in [0, 1]
HloInstructionIndexing ComputeOutputToInputGatherIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Transpose: output dim i is operand dim dimensions[i].
///   transpose = f32[3, 6, 128, 12288] transpose(f32[3, 12288, 6, 128] p0),
///               dimensions={0, 2, 3, 1}
///   (d0, d1, d2, d3) -> (d0, d3, d1, d2)
HloInstructionIndexing ComputeOutputToInputTransposeIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Reverse: a reversed dim of size n reads n - 1 - d.
///   reverse = f32[1, 17, 9, 9] reverse(p0), dimensions={1, 2}
///   (d0, d1, d2, d3) -> (d0, -d1 + 16, -d2 + 8, d3)
HloInstructionIndexing ComputeOutputToInputReverseIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Reduce (variadic): every input reads the kept dims from the output and
/// the reduced dims (in increasing order) from range variables; every init
/// is read at `()`. All outputs have the same maps.
///   reduce = (f32[10], s32[10]) reduce(f32[256,10] p0, s32[256,10] p1,
///            p0_init, p1_init), dimensions={0}
///   inputs: (d0)[s0] -> (s0, d0), s0 in [0, 255];  inits: (d0) -> ()
HloInstructionIndexing ComputeOutputToInputReduceIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Slice: d * stride + start.
///   slice = f32[5, 3, 25] slice(f32[10, 20, 50] p0),
///           slice={[5:10:1], [3:20:7], [0:50:2]}
///   (d0, d1, d2) -> (d0 + 5, d1 * 7 + 3, d2 * 2)
HloInstructionIndexing ComputeOutputToInputSliceIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Reshape (see ComputeReshapeAffineMap for the decomposition):
///   f32[4,8] -> f32[32]:       (d0) -> (d0 floordiv 8, d0 mod 8)
///   f32[32] -> f32[4, 8]:      (d0, d1) -> (d0 * 8 + d1)
///   f32[4,8] -> f32[2, 4, 4]:  (d0, d1, d2) ->
///                              (d0 * 2 + d1 floordiv 2, d2 + (d1 mod 2) * 4)
HloInstructionIndexing ComputeOutputToInputReshapeIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Bitcast: transpose, reshape, transpose by the layouts (see
/// ComputeBitcastIndexingMap). f32[3, 6]{0, 1} -> f32[6, 3]{1, 0} is the
/// transpose (d0, d1) -> (d1, d0).
HloInstructionIndexing ComputeOutputToInputBitcastIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Concatenate: operand k covers the output slab starting at offset_k (the
/// sum of the sizes before it) along the dimension; its map subtracts the
/// offset and its domain is that slab only.
///   concat = f32[2, 33, 7] concatenate(f32[2, 5, 7] p0, f32[2, 11, 7] p1,
///            f32[2, 17, 7] p2), dimensions={1}
///   p1: (d0, d1, d2) -> (d0, d1 - 5, d2), d1 in [5, 15]
HloInstructionIndexing ComputeOutputToInputConcatenateIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Dot: output dims are batch, lhs free, rhs free (in that order); each
/// contracting pair shares one range variable.
///   dot = f32[4, 128, 64] dot(f32[4, 128, 256] p0, f32[4, 256, 64] p1),
///         lhs_batch_dims={0}, rhs_batch_dims={0},
///         lhs_contracting_dims={2}, rhs_contracting_dims={1}
///   lhs: (d0, d1, d2)[s0] -> (d0, d1, s0);  rhs: (d0, d1, d2)[s0] ->
///   (d0, s0, d2);  s0 in [0, 255]
HloInstructionIndexing ComputeOutputToInputDotIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Pad (the inverse of a strided slice): with low l and interior i, output
/// d reads (d - l) floordiv (i + 1) when (d - l) mod (i + 1) == 0; the
/// domain is the part of the output the operand covers. The padding value
/// is read at `()` everywhere (an over-approximation).
///   pad = f32[12, 16] pad(f32[4, 4] p0, p1), padding=1_4_1x4_8_0
///   p0: (d0, d1) -> ((d0 - 1) floordiv 2, d1 - 4), d0 in [1, 7],
///       d1 in [4, 7], (d0 - 1) mod 2 in [0, 0]
///   p1: (d0, d1) -> (), d0 in [0, 11], d1 in [0, 15]
HloInstructionIndexing ComputeOutputToInputPadIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Reduce-window: the window map d * stride + s * window_dilation (one range
/// variable per dim whose window is wider than 1), composed with the
/// indexing of the implicit pad (edge padding and base dilation as interior
/// padding). Inits are read at `()`.
///   reduce-window = f32[1024, 3] reduce-window(f32[1024, 514] p0, c_inf),
///                   window={size=1x512 pad=0_0x0_0}
///   p0: (d0, d1)[s0] -> (d0, d1 + s0), s0 in [0, 511]
///   c_inf: (d0, d1) -> ()
HloInstructionIndexing ComputeOutputToInputReduceWindowIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Convolution: spatial dims as in reduce-window (window = kernel spatial
/// dims, lhs_dilate = base dilation, rhs_dilate = window dilation), with the
/// kernel read at the same window range variables (reversed when
/// rhs_reversal); the input feature is a range variable shared with the
/// kernel's input feature, offset by the feature group of the output
/// feature; with batch groups the input batch is the batch group of the
/// output feature times the output batch size plus the output batch.
///   conv = f32[2,3,7,4] convolution(f32[2,5,7,8] lhs, f32[3,1,8,4] rhs),
///          window={size=3x1}, dim_labels=b01f_01io->b01f
///   lhs: (d0, d1, d2, d3)[s0, s1] -> (d0, d1 + s0, d2, s1)
///   rhs: (d0, d1, d2, d3)[s0, s1] -> (s0, 0, s1, d3)
///   s0 in [0, 2] (window), s1 in [0, 7] (input feature)
HloInstructionIndexing ComputeOutputToInputConvolutionIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Tuple: output k is operand k, read at the same index; the other operands
/// are not read for output k (empty sets).
HloInstructionIndexing ComputeOutputToInputTupleIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);

/// Get-tuple-element: the identity on the element's shape (the element of
/// the tuple operand that is read is `tuple_index`).
HloInstructionIndexing ComputeOutputToInputGetTupleElementIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// The indexing of padding: a map from the padded shape's index to the
/// operand index, `(d - low) floordiv (interior + 1)` with constraint
/// `(d - low) mod (interior + 1) in [0, 0]` and domain the covered part
/// [max(0, low), min(padded - 1, low + (size - 1) * (interior + 1))] (plain
/// `d - low` without interior padding). Shared by pad, reduce-window and
/// convolution.
struct PadDimension {
  int64_t low = 0;
  int64_t high = 0;
  int64_t interior = 0;
};
IndexingMap ComputePadIndexingMap(absl::Span<const int64_t> operand_dims,
                                  absl::Span<const PadDimension> padding,
                                  mlir::MLIRContext* context);

}  // namespace xla_index

#endif  // XLA_INDEX_OUTPUT_TO_INPUT_INDEXING_H_
