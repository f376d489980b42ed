#ifndef XLA_INDEX_INPUT_TO_OUTPUT_INDEXING_H_
#define XLA_INDEX_INPUT_TO_OUTPUT_INDEXING_H_

// Input-to-output indexing of single HLO instructions: for an element of one
// operand, which output elements does it feed? Only ops whose answer is an
// exact indexing map have a rule; the others give UNDEFINED.

#include <cstdint>

#include "hlo/instruction.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/instruction_indexing.h"

namespace xla_index {

/// For operand `input_id` of `instruction`, indexing_maps[j] are the maps
/// from an element of that operand to the elements of output j it feeds
/// (one entry for array-shaped instructions). Fusions and calls go through
/// their called computation.
HloInstructionIndexing ComputeInputToOutputIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

// ---- The per-op rules (the seed's examples in each comment). ----

/// Elementwise: the identity; a scalar operand feeds every output element,
/// `()[s0, ..., sn-1] -> (s0, ..., sn-1)`.
HloInstructionIndexing ComputeInputToOutputElementwiseIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

/// Broadcast: the new dimensions become range variables.
///   bc0 = f32[10, 20, 30] broadcast(f32[20] p0), dimensions={1}
///   (d0)[s0, s1] -> (s0, d0, s1), d0 in [0, 19], s0 in [0, 9], s1 in [0, 29]
HloInstructionIndexing ComputeInputToOutputBroadcastIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Concatenate: operand k adds its offset along the dimension.
///   p1 (f32[2, 11, 7], offset 5): (d0, d1, d2) -> (d0, d1 + 5, d2)
HloInstructionIndexing ComputeInputToOutputConcatenateIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

/// Reduce: an input element feeds the output at its kept dims; an init
/// value feeds every output element.
///   inputs of reduce(f32[256,10], ..., dimensions={0}): (d0, d1) -> (d1)
///   inits: ()[s0] -> (s0), s0 in [0, 9]
HloInstructionIndexing ComputeInputToOutputReduceIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

/// Reshape: the output-to-input rule with the shapes swapped.
///   f32[4,8] -> f32[32]: (d0, d1) -> (d0 * 8 + d1)
HloInstructionIndexing ComputeInputToOutputReshapeIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Reverse: its own inverse, (d0, d1, d2, d3) -> (d0, -d1 + 16, -d2 + 8, d3).
HloInstructionIndexing ComputeInputToOutputReverseIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Slice: (d - start) floordiv stride on the read elements only: the domain
/// is [start, start + (size - 1) * stride] with (d - start) mod stride = 0.
///   slice={[5:10:1], [3:20:7], [0:50:2]} of f32[10, 20, 50]:
///   (d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2),
///   d0 in [5, 9], d1 in [3, 17], d2 in [0, 48], (d1 - 3) mod 7 in [0, 0],
///   d2 mod 2 in [0, 0]
HloInstructionIndexing ComputeInputToOutputSliceIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Transpose: operand dim dimensions[i] is output dim i.
///   f32[3, 12288, 6, 128] -> dimensions={0, 2, 3, 1}:
///   (d0, d1, d2, d3) -> (d0, d2, d3, d1)
HloInstructionIndexing ComputeInputToOutputTransposeIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Bitcast: the output-to-input rule with the shapes swapped.
HloInstructionIndexing ComputeInputToOutputBitcastIndexing(
    const HloInstruction* instruction, mlir::MLIRContext* context);

/// Dot: an lhs element feeds the outputs at its batch and free dims, for
/// every rhs free index (range variables); likewise for rhs.
///   dot(f32[4, 128, 256] p0, f32[4, 256, 64] p1), batch {0}/{0},
///   contracting {2}/{1}:
///   p0: (d0, d1, d2)[s0] -> (d0, d1, s0), s0 in [0, 63]
///   p1: (d0, d1, d2)[s0] -> (d0, s0, d2), s0 in [0, 127]
HloInstructionIndexing ComputeInputToOutputDotIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

/// Pad: operand index d goes to d * (interior + 1) + low (elements removed
/// by negative edge padding are outside the domain); the padding value
/// feeds every output element, `()[s...] -> (s...)` (over-approximation).
HloInstructionIndexing ComputeInputToOutputPadIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

/// Reduce-window: operand element e (per dim) feeds the outputs o whose
/// window covers it, o * stride + s * window_dilation - low = e *
/// base_dilation for a window position s: one range variable per dim with
/// a window wider than 1,
///   (d)[s] -> ((d * base_dilation + low - s * window_dilation) floordiv
///   stride), constraint (...) mod stride in [0, 0] and the quotient within
///   the output;
/// the init values feed every output element, `()[s...] -> (s...)`.
///   reduce-window(f32[8] p0, c), window={size=3 stride=2}:
///   p0: (d0)[s0] -> ((d0 - s0) floordiv 2), (d0 - s0) mod 2 in [0, 0],
///       d0 - s0 in [0, 4], d0 in [0, 6] (element 7 is in no window)
HloInstructionIndexing ComputeInputToOutputReduceWindowIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

/// Convolution: an input element feeds, like reduce-window, the output
/// spatial positions whose window covers it (one range variable per window
/// position), and every output feature of its feature (or batch) group (a
/// range variable); a kernel element feeds every output batch (a range
/// variable) at its output feature, at the output positions whose window
/// holds it at an existing input element (a range variable per input
/// spatial index). UNDEFINED when both feature and batch groups are used.
///   conv(f32[2,5,8] lhs, f32[3,8,4] rhs), window={size=3},
///   dim_labels=b0f_0io->b0f:
///   lhs: (d0, d1, d2)[s0, s1] -> (d0, d1 - s0, s1), d1 - s0 in [0, 2],
///        s0 in [0, 2], s1 in [0, 3]
HloInstructionIndexing ComputeInputToOutputConvolutionIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

/// Dynamic-slice: operand element d feeds output d - s, where s is the
/// runtime offset (as in the output-to-input rule, feasible values [0,
/// operand_dim - slice_size]), when that lies in the slice; each offset
/// feeds every output element, `()[s...] -> (s...)`.
///   ds = f32[2] dynamic-slice(f32[8] p0, s32[] o), dynamic_slice_sizes={2}
///   p0: (d0)[s0] -> (d0 - s0), s0 in [0, 6] (hlo: o), d0 - s0 in [0, 1]
HloInstructionIndexing ComputeInputToOutputDynamicSliceIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

/// Tuple: operand k is output k (identity); it feeds no other output.
HloInstructionIndexing ComputeInputToOutputTupleIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

}  // namespace xla_index

#endif  // XLA_INDEX_INPUT_TO_OUTPUT_INDEXING_H_
