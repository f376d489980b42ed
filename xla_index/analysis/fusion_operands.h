#ifndef XLA_INDEX_ANALYSIS_FUSION_OPERANDS_H_
#define XLA_INDEX_ANALYSIS_FUSION_OPERANDS_H_

// What the analysis layer analyzes: one instruction as one kernel, with its
// output shapes and, for every input ("operand"), its shape (with its
// layout) and the output-to-input maps.
//
//  - A fusion instruction is analyzed through its fused computation;
//    operand K is operand K of the fusion instruction.
//  - Any other instruction (e.g. the root of a bare instruction list, as
//    XLA's indexing-analysis documentation writes fusions, or an instruction
//    inside a fused computation) is composed back to the parameters of the
//    computation that holds it; operand K is parameter number K.
//
// A tuple-shaped instruction (a multi-output fusion) has one output per
// tuple element; every output is analyzed, and each operand keeps its maps
// per output.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlo/instruction.h"
#include "hlo/module.h"
#include "hlo/shape.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/ops/instruction_indexing.h"

namespace xla_index {

/// One input of the analyzed kernel.
struct FusionOperand {
  /// Operand number of the fusion, or parameter number.
  int64_t number = 0;
  /// Name of the instruction that produces it (the fusion's operand, or the
  /// parameter).
  std::string name;
  /// Its shape with its layout (DefaultLayout when none is written; a layout
  /// written on the fused parameter is used when the operand has none).
  Shape shape;
  /// Output-to-input maps from an element of output j to the elements of
  /// this operand it reads: maps_by_output[j] (empty when output j does not
  /// read it).
  std::vector<IndexingMapSet> maps_by_output;
  /// The union over the outputs of maps_by_output (one set of reads when
  /// all outputs are computed together, as a multi-output loop fusion
  /// does).
  IndexingMapSet maps;
};

/// The kernel: one instruction seen as a fusion.
struct AnalyzedFusion {
  /// The analyzed instruction (the fusion, or the root of the composition).
  const HloInstruction* root = nullptr;
  /// The computation whose instructions are composed (the fused
  /// computation, or the computation holding `root`).
  const HloComputation* computation = nullptr;
  /// Shapes of the outputs, with layouts: the tuple elements of a tuple
  /// root, else the root's shape alone. Every one is an array.
  std::vector<Shape> output_shapes;
  /// output_shapes[0].
  Shape output_shape;
  std::vector<FusionOperand> operands;
};

/// The analyzed fusion of `instruction` (see the file comment).
/// InvalidArgument naming the instruction when it is not in a computation,
/// has no outputs, or an output is not an array or has more than INT64_MAX
/// elements, or an output or a read operand has an unbounded dynamic
/// dimension `?` (no size to count); ResourceExhausted when operands x outputs exceeds 2^20 (each
/// operand keeps a map set per output).
absl::StatusOr<AnalyzedFusion> AnalyzeFusionOperands(
    const HloInstruction& instruction, mlir::MLIRContext* context);

/// The same for the root of `module`'s entry computation. InvalidArgument
/// when the module has no entry root.
absl::StatusOr<AnalyzedFusion> AnalyzeFusionOperands(
    const HloModule& module, mlir::MLIRContext* context);

/// `instruction` alone as the kernel, nothing composed: operand K is the
/// instruction's operand K (its layout, else the default), read through the
/// instruction's own rule (a fusion through its fused computation, as
/// above). What a per-instruction report of an unfused module analyzes.
/// Errors as AnalyzeFusionOperands.
absl::StatusOr<AnalyzedFusion> AnalyzeInstructionOperands(
    const HloInstruction& instruction, mlir::MLIRContext* context);

/// The instruction called `name` in `module`: looked up in the entry
/// computation first, then in the others in module order; when no
/// instruction has that name, `name` is read as COMPUTATION.INSTRUCTION (split
/// at any dot, as computation names may hold dots too). NotFound naming
/// `name` otherwise.
absl::StatusOr<const HloInstruction*> FindInstruction(const HloModule& module,
                                                      absl::string_view name);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_FUSION_OPERANDS_H_
