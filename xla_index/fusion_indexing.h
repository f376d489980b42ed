#ifndef XLA_INDEX_FUSION_INDEXING_H_
#define XLA_INDEX_FUSION_INDEXING_H_

// Indexing of fusions and other computations: the per-op maps composed
// along the data flow, simplified at every step.
//
// Output to input: start with the identity map on the target's output and
// walk the computation from users to producers (reverse post-order). For a
// consumer map C (target output -> instruction I's output) and a rule map P
// of I (I's output -> operand k of I), C followed by P is a map from the
// target output to operand k; it is simplified, its unused symbols dropped,
// and it joins operand k's duplicate-free set. Example (XLA's
// indexing-analysis documentation, "Indexing Maps for Fusion"):
//
//   f {
//     p0 = f32[1000, 1000] parameter(0)
//     transpose_p0 = f32[1000, 1000]{0, 1} transpose(p0), dimensions={1, 0}
//     ROOT a0 = f32[1000, 1000] add(p0, transpose_p0)
//   }
//   p0: (d0, d1) -> (d0, d1)  and  (d0, d1) -> (d1, d0)
//
// whereas two different transpose chains that compose to the same map give
// one map. Input to output walks the other way with the input-to-output
// rules. Both walks compose each instruction once with the deduplicated
// maps of all its consumers (output to input) or of all the sources that
// reach it (input to output), so their cost is linear in the computation's
// size times the distinct maps per value, never once per path. A value that
// collects more than 512 distinct maps (possible only when access patterns
// multiply at every level, e.g. towers of concatenated slices) gets
// UNDEFINED instead, keeping the walk linear; the CompositionBound variants
// can fail at a lower bound instead (`xla-index analyze`).

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "hlo/instruction.h"
#include "hlo/module.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/ops/instruction_indexing.h"

namespace xla_index {

/// What a composition does with a value whose distinct maps outgrow a bound.
struct CompositionBound {
  /// The most distinct maps one value (instruction output) may collect.
  int64_t max_maps = 512;
  /// Past max_maps: true, the composition fails (ResourceExhausted "the maps
  /// of NAME exceed N distinct maps"); false, the value's maps collapse to
  /// UNDEFINED and the composition goes on.
  bool fail = false;
};

/// Maps from the output of a target instruction to each instruction of the
/// computation that it reads (directly or through others), keyed by that
/// producer: the "per-producer grouping".
using GroupedIndexingMaps =
    absl::flat_hash_map<const HloInstruction*, IndexingMapSet>;

/// Output-to-input maps from output `output_id` of `target` (an instruction
/// of `computation`; for a tuple root, output k is operand k of the tuple)
/// to every instruction of `computation` it reads, the target included
/// (with the identity).
GroupedIndexingMaps ComputeGroupedOutputToInputIndexing(
    const HloComputation& computation, const HloInstruction* target,
    int64_t output_id, mlir::MLIRContext* context);

/// OK when the parameters of `computation` are numbered 0..n-1, each once
/// (a module's always are, as XLA's HloParserImpl checks; a parsed snippet
/// such as a lone `p = f32[8] parameter(1)` may not be); else
/// InvalidArgument naming the first parameter out of place.
absl::Status CheckParametersNumbered(const HloComputation& computation);

/// The same, grouped per parameter of `computation`: indexing_maps[k] are
/// the maps to parameter number k (empty when the target does not read it).
/// Parameters not numbered 0..n-1 (CheckParametersNumbered) give every
/// parameter one UNDEFINED map whose reason is that error, never a parameter
/// silently without maps.
HloInstructionIndexing ComputeComputationOutputToInputIndexing(
    const HloComputation& computation, const HloInstruction* target,
    int64_t output_id, mlir::MLIRContext* context);

/// The same under `bound`: fails when bound.fail and one instruction's
/// maps outgrow bound.max_maps, and when the parameters are not numbered
/// 0..n-1 (CheckParametersNumbered's error, naming the parameter).
absl::StatusOr<HloInstructionIndexing> ComputeComputationOutputToInputIndexing(
    const HloComputation& computation, const HloInstruction* target,
    int64_t output_id, const CompositionBound& bound,
    mlir::MLIRContext* context);

/// The union over every output of `target` (a tuple target's output k is
/// its operand k) in ONE walk: each producer is composed once with the
/// deduplicated maps all outputs bring to it. Per parameter, the same maps
/// as the union of the per-output calls above (the order within a set may
/// differ); the same errors.
absl::StatusOr<HloInstructionIndexing>
ComputeComputationAllOutputsToInputIndexing(const HloComputation& computation,
                                            const HloInstruction* target,
                                            const CompositionBound& bound,
                                            mlir::MLIRContext* context);

/// Output-to-input maps of a fusion (or call) instruction: its called
/// computation's root analyzed per parameter, which is per operand of the
/// instruction. UNDEFINED for every operand when the computation is missing.
HloInstructionIndexing ComputeOutputToInputFusionIndexing(
    const HloInstruction* fusion, int64_t output_id,
    mlir::MLIRContext* context);

/// Input-to-output maps from the output of `source` to the output(s) of
/// `target`, composed along every path of `computation` from source to
/// target: indexing_maps[j] are the maps to output j of target (one entry
/// unless target returns a tuple). Paths through an op without an exact
/// input-to-output rule give UNDEFINED.
HloInstructionIndexing ComputeInputToOutputIndexingThroughComputation(
    const HloComputation& computation, const HloInstruction* source,
    const HloInstruction* target, mlir::MLIRContext* context);

/// Input to output from every parameter of `computation` to `target` in one
/// forward walk over what target reads: result[k] is the union over target's
/// outputs j (in order) of
/// ComputeInputToOutputIndexingThroughComputation(computation, parameter k,
/// target).indexing_maps[j], at the cost of one walk, linear in the
/// computation's size (times the parameters reaching each instruction)
/// instead of parameters x size. Fails only when bound.fail and one
/// instruction's maps from one parameter outgrow bound.max_maps.
absl::StatusOr<std::vector<IndexingMapSet>> ComputeParametersToOutputIndexing(
    const HloComputation& computation, const HloInstruction* target,
    const CompositionBound& bound, mlir::MLIRContext* context);

/// Input-to-output of a fusion (or call) instruction for operand
/// `input_id`: from the corresponding parameter to the root, per output.
HloInstructionIndexing ComputeInputToOutputFusionIndexing(
    const HloInstruction* fusion, int64_t input_id, mlir::MLIRContext* context);

/// async-start (XLA's async wrapper: a tuple of the operands' tuple, the
/// called computation's result and contexts): output 1 composes through
/// the called computation as a fusion does; output 0 (a tuple) is
/// UNDEFINED, the contexts read nothing. async-done reads output 1.
HloInstructionIndexing ComputeOutputToInputAsyncStartIndexing(
    const HloInstruction* start, int64_t output_id, mlir::MLIRContext* context);
HloInstructionIndexing ComputeInputToOutputAsyncStartIndexing(
    const HloInstruction* start, int64_t input_id, mlir::MLIRContext* context);

/// The epilogue of a fusion: maps from the output of `hero` (e.g. a
/// reduction or transpose inside the fusion) to the output of `root`, through
/// the instructions between them (XLA's ComputeEpilogueInputToOutputIndexing).
/// The identity when hero == root; an empty set when root does not depend on
/// hero.
IndexingMapSet ComputeEpilogueInputToOutputIndexing(const HloInstruction* hero,
                                                    const HloInstruction* root,
                                                    mlir::MLIRContext* context);

}  // namespace xla_index

#endif  // XLA_INDEX_FUSION_INDEXING_H_
