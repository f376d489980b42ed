#ifndef XLA_INDEX_OPS_OP_RULES_H_
#define XLA_INDEX_OPS_OP_RULES_H_

// The indexing rules of single HLO ops. One section per op family, in
// alphabetical order; each family lives in one file, ops/<family>.cc, whose
// comments give the worked example of each direction.
//
// A section has up to three functions:
//   IsValid<Op>                  the attribute check: do the instruction's
//                                attributes fit its operands and output?
//                                (The HLO verifier rejects every instruction
//                                that fails it; the rules guard instructions
//                                built without the verifier.)
//   ComputeOutputToInput<Op>Indexing  for an element of output `output_id`,
//                                indexing_maps[k] are the elements of operand
//                                k it reads;
//   ComputeInputToOutput<Op>Indexing  for an element of operand `input_id`,
//                                indexing_maps[j] are the elements of output
//                                j it feeds.
// Both directions of an op share its attribute check; where it fails they
// give UNDEFINED (UndefinedForEachOperand / UndefinedForEachOutput), never
// a crash. All maps are simplified and have no unused symbols.
//
// The rules are called through ComputeOutputToInputIndexing and
// ComputeInputToOutputIndexing (op_dispatch.cc), which check that
// `output_id` is in [0, OutputCount(instruction)) and `input_id` in
// [0, operand_count()) and pick the rule from one table sorted by opcode;
// a rule may assume its id is in range. An op without a rule in one
// direction has none here (e.g. dynamic-update-slice has no input-to-output
// rule).
//
// The shape-only map builders the rules use (pad, reshape, bitcast,
// transpose and broadcast maps on plain sizes) are in shape_maps.h.

#include <cstdint>
#include <optional>
#include <vector>

#include "hlo/attributes.h"
#include "hlo/instruction.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/ops/instruction_indexing.h"

namespace xla_index {

/// The signature of every output-to-input rule.
using OutputToInputRule =
    HloInstructionIndexing (*)(const HloInstruction* instruction,
                               int64_t output_id, mlir::MLIRContext* context);
/// The signature of every input-to-output rule.
using InputToOutputRule =
    HloInstructionIndexing (*)(const HloInstruction* instruction,
                               int64_t input_id, mlir::MLIRContext* context);

// ---- broadcast (ops/broadcast.cc) ----
/// One array operand; `dimensions` has one entry per operand dim, distinct
/// dims of the output.
bool IsValidBroadcast(const HloInstruction* broadcast);
/// Operand dim i is output dim dimensions[i].
HloInstructionIndexing ComputeOutputToInputBroadcastIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// The new output dims become range variables.
HloInstructionIndexing ComputeInputToOutputBroadcastIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

// ---- collectives (ops/collectives.cc) ----
// Each map carries a replica-id map (IndexingMapSet): the group position of
// the replica an element is read from or sent to. replica_groups are read
// from the attribute text (hlo/replica_groups.h); the group size must agree
// with the shapes. See ops/collectives.cc for the maps of each op.
/// Output k: operand k at d_d mod piece, from replica d_d floordiv piece.
HloInstructionIndexing ComputeOutputToInputAllGatherIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// Operand k: output k at d_d + position * piece, on every replica.
HloInstructionIndexing ComputeInputToOutputAllGatherIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);
/// The same index, on every replica of the group.
HloInstructionIndexing ComputeOutputToInputAllReduceIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
HloInstructionIndexing ComputeInputToOutputAllReduceIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);
/// The array form: piece d_d floordiv c of the output is piece `position`
/// of that replica's operand (and symmetrically).
HloInstructionIndexing ComputeOutputToInputAllToAllIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
HloInstructionIndexing ComputeInputToOutputAllToAllIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);
/// The same index, on the running replica's source (or target).
HloInstructionIndexing ComputeOutputToInputCollectivePermuteIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
HloInstructionIndexing ComputeInputToOutputCollectivePermuteIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);
// The asynchronous forms: all-reduce-start is all-reduce. all-gather-start
// and collective-permute-start return (operand, result[, contexts]):
// output 1 has the synchronous op's maps, output 0 the identity on the
// operand, the contexts read nothing (one array operand only). A -done is
// the identity on its result (all-gather-done and collective-permute-done
// read element 1 of their start; fusion composition follows it).
HloInstructionIndexing ComputeOutputToInputAllGatherStartIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
HloInstructionIndexing ComputeInputToOutputAllGatherStartIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);
HloInstructionIndexing ComputeOutputToInputCollectivePermuteStartIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
HloInstructionIndexing ComputeInputToOutputCollectivePermuteStartIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);
HloInstructionIndexing ComputeOutputToInputAsyncDoneIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
HloInstructionIndexing ComputeInputToOutputAsyncDoneIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);
/// Output k: operand k at d_d + position * chunk, on every replica.
HloInstructionIndexing ComputeOutputToInputReduceScatterIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// Operand k: output k at d_d mod chunk, on replica d_d floordiv chunk.
HloInstructionIndexing ComputeInputToOutputReduceScatterIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

// ---- concatenate (ops/concatenate.cc) ----
/// One or more array operands of the output's rank, `dimension` one of its
/// dims, the operands equal to the output in every other dim and their
/// sizes along `dimension` adding up to the output's.
bool IsValidConcatenate(const HloInstruction* concatenate);
/// Operand k covers the output slab at its offset along the dimension.
HloInstructionIndexing ComputeOutputToInputConcatenateIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// Operand k adds its offset along the dimension.
HloInstructionIndexing ComputeInputToOutputConcatenateIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

// ---- convolution (ops/convolution.cc) ----
/// The window of a convolution, one dimension per spatial dim (the whole
/// kernel at stride 1 when it has no window attribute), or nullopt when its
/// attributes do not fit its operands (see ops/convolution.cc).
std::optional<std::vector<WindowDimension>> GetConvolutionWindow(
    const HloInstruction* convolution);
/// Spatial dims as in reduce-window; features through a shared range
/// variable, offset by the feature or batch group.
HloInstructionIndexing ComputeOutputToInputConvolutionIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// The output positions whose window covers the element, for every output
/// feature of its group (input) or every output batch (kernel).
HloInstructionIndexing ComputeInputToOutputConvolutionIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

// ---- dot (ops/dot.cc) ----
/// The roles of a dot's operand dimensions. The output is batch dims (in
/// lhs_batch order), then the lhs free dims, then the rhs free dims, each in
/// increasing order (XLA's operation semantics, "DotGeneral").
struct DotDimensionRoles {
  std::vector<int64_t> lhs_free;
  std::vector<int64_t> rhs_free;
};
/// The roles of `dot`'s dimensions, or nullopt when its dimension numbers
/// do not fit its operands: repeated or out-of-range dims, unequal batch or
/// contracting counts or sizes, or an output rank other than batch + free.
std::optional<DotDimensionRoles> GetDotDimensionRoles(
    const HloInstruction* dot);
/// Batch and free dims from the output; each contracting pair shares a
/// range variable.
HloInstructionIndexing ComputeOutputToInputDotIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// The operand's batch and free dims; the other operand's free dims are
/// range variables.
HloInstructionIndexing ComputeInputToOutputDotIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

// ---- scaled-dot (ops/dot.cc) ----
// scaled-dot(lhs, rhs, lhs_scale, rhs_scale): the dot of lhs and rhs, each
// element multiplied by the scale of its block; a scale has its operand's
// rank, and scale size s along a dim of operand size n covers blocks of
// n / s elements.
/// lhs and rhs as dot; a scale read at its operand's index floordiv the
/// block size.
HloInstructionIndexing ComputeOutputToInputScaledDotIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// lhs and rhs as dot; a scale element feeds what every element of its
/// block feeds.
HloInstructionIndexing ComputeInputToOutputScaledDotIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

// ---- dynamic-slice, dynamic-update-slice (ops/dynamic_slice.cc) ----
/// An array operand of the output's rank, no smaller than the output in any
/// dim, then one scalar offset per dim.
bool IsValidDynamicSlice(const HloInstruction* dynamic_slice);
/// Output index + runtime offset (folded where its value is known,
/// runtime_variable_folding.h); the offsets are read at `()`.
HloInstructionIndexing ComputeOutputToInputDynamicSliceIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// Operand index - runtime offset, where that is inside the slice; each
/// offset feeds every output element.
HloInstructionIndexing ComputeInputToOutputDynamicSliceIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);
/// An array operand of the output's dims, an update of its rank no larger
/// than it in any dim, then one scalar offset per dim.
bool IsValidDynamicUpdateSlice(const HloInstruction* dynamic_update_slice);
/// The operand at the same index, the update at index - runtime offset.
/// (No input-to-output rule: which operand elements survive depends on the
/// offsets.)
HloInstructionIndexing ComputeOutputToInputDynamicUpdateSliceIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);

// ---- elementwise ops and map (ops/elementwise.cc) ----
/// The identity for every operand; a scalar operand is read at `()`.
HloInstructionIndexing ComputeOutputToInputElementwiseIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// The identity; a scalar operand feeds every output element.
HloInstructionIndexing ComputeInputToOutputElementwiseIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

// ---- gather (ops/gather.cc) ----
/// Two array operands; the dimension numbers and slice sizes fit them and
/// the output as XLA's shape inference for gather requires (any
/// start_index_map, collapsed and batching dims, index_vector_dim).
bool IsValidGather(const HloInstruction* gather);
/// Operand dims read at the offset dims plus a runtime start index per
/// start_index_map entry (batching dims at their batch dim); the indices
/// read at the batch position, the whole index vector.
HloInstructionIndexing ComputeOutputToInputGatherIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// The indices feed every output element of their batch position; the
/// operand is UNDEFINED (which outputs it feeds depends on index values).
HloInstructionIndexing ComputeInputToOutputGatherIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

// ---- pad (ops/pad.cc) ----
/// An array operand and a scalar padding value; one padding config per
/// operand dim, with interior >= 0, padding each dim to the output's size.
bool IsValidPad(const HloInstruction* pad);
/// (d - low) floordiv (interior + 1) on the covered elements; the padding
/// value at `()`.
HloInstructionIndexing ComputeOutputToInputPadIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// d * (interior + 1) + low; the padding value feeds every output element.
HloInstructionIndexing ComputeInputToOutputPadIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

// ---- reduce (ops/reduce.cc) ----
/// N >= 1 array inputs of equal dims, then N scalar init values;
/// `dimensions` lists distinct dims of the inputs.
bool IsValidReduce(const HloInstruction* reduce);
/// Kept dims from the output, reduced dims as range variables; inits at
/// `()`.
HloInstructionIndexing ComputeOutputToInputReduceIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// An input element feeds the output at its kept dims; an init feeds every
/// output element.
HloInstructionIndexing ComputeInputToOutputReduceIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

// ---- reduce-window (ops/reduce_window.cc) ----
/// The window of a reduce-window, one dimension per input dim (size-1
/// windows when it has no window attribute), or nullopt when its attributes
/// do not fit its operands (see ops/reduce_window.cc).
std::optional<std::vector<WindowDimension>> GetReduceWindowWindow(
    const HloInstruction* reduce_window);
/// d * stride + s * window_dilation through the implicit pad; inits at
/// `()`.
HloInstructionIndexing ComputeOutputToInputReduceWindowIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// The outputs whose window covers the element; inits feed every output.
HloInstructionIndexing ComputeInputToOutputReduceWindowIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

// ---- reshape, bitcast (ops/reshape.cc) ----
/// Row-major delinearize(linearize(index)), split into minimal groups.
HloInstructionIndexing ComputeOutputToInputReshapeIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// The output-to-input rule with the shapes swapped.
HloInstructionIndexing ComputeInputToOutputReshapeIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);
/// Transpose, reshape, transpose by the layouts.
HloInstructionIndexing ComputeOutputToInputBitcastIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// The output-to-input rule with the shapes swapped.
HloInstructionIndexing ComputeInputToOutputBitcastIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

// ---- reverse (ops/reverse.cc) ----
/// One array operand of the output's rank; `dimensions` lists distinct
/// dims of it.
bool IsValidReverse(const HloInstruction* reverse);
/// A reversed dim of size n reads n - 1 - d.
HloInstructionIndexing ComputeOutputToInputReverseIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// Its own inverse.
HloInstructionIndexing ComputeInputToOutputReverseIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

// ---- slice (ops/slice.cc) ----
/// One array operand of the output's rank, one range per dim, each with
/// stride >= 1.
bool IsValidSlice(const HloInstruction* slice);
/// d * stride + start.
HloInstructionIndexing ComputeOutputToInputSliceIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// (d - start) floordiv stride on the elements the slice reads.
HloInstructionIndexing ComputeInputToOutputSliceIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

// ---- transpose (ops/transpose.cc) ----
/// One array operand of the output's rank; `dimensions` is a permutation of
/// its dims.
bool IsValidTranspose(const HloInstruction* transpose);
/// Output dim i is operand dim dimensions[i].
HloInstructionIndexing ComputeOutputToInputTransposeIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// The inverse permutation.
HloInstructionIndexing ComputeInputToOutputTransposeIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

// ---- tuple, get-tuple-element (ops/tuple.cc) ----
/// A tuple shape with one element per operand.
bool IsValidTuple(const HloInstruction* tuple);
/// Output k is operand k at the same index; other operands are not read.
HloInstructionIndexing ComputeOutputToInputTupleIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// Operand k feeds output k at the same index, and no other output.
HloInstructionIndexing ComputeInputToOutputTupleIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);
/// Both directions with the outputs merged, per operand k the map between
/// operand k and output k: what merging the two rules above over every
/// output gives, built in time linear in the tuple's width (the merge is
/// quadratic, as each output's rule has a set per operand).
HloInstructionIndexing ComputeTupleIndexingOfAllOutputs(
    const HloInstruction* instruction, mlir::MLIRContext* context);
/// The identity on the element's (array) shape.
HloInstructionIndexing ComputeOutputToInputGetTupleElementIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context);
/// The identity on the element's (array) shape.
HloInstructionIndexing ComputeInputToOutputGetTupleElementIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context);

}  // namespace xla_index

#endif  // XLA_INDEX_OPS_OP_RULES_H_
