#ifndef XLA_INDEX_ANALYSIS_FUSION_OPERANDS_H_
#define XLA_INDEX_ANALYSIS_FUSION_OPERANDS_H_

// What the analysis layer analyzes in a module: the root of the entry
// computation as one kernel, with its output shape and, for every input
// ("operand"), its shape (with its layout) and the output-to-input maps.
//
//  - A fusion root is analyzed through its fused computation; operand K is
//    operand K of the fusion instruction.
//  - Any other root (a bare instruction list, as the seeds write fusions) is
//    composed back to the entry computation's parameters; operand K is
//    parameter number K.
//
// A tuple-shaped root (a multi-output fusion) is analyzed for output 0.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "hlo/instruction.h"
#include "hlo/module.h"
#include "hlo/shape.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/instruction_indexing.h"

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
  /// Output-to-input maps from an output element to the elements of this
  /// operand it reads (empty when the output does not read it).
  IndexingMapSet maps;
};

/// The kernel: the entry root seen as a fusion.
struct AnalyzedFusion {
  const HloInstruction* root = nullptr;
  /// The computation whose instructions are composed (the fused
  /// computation, or the entry computation).
  const HloComputation* computation = nullptr;
  /// Shape of the analyzed output (tuple element 0 for a tuple root).
  Shape output_shape;
  std::vector<FusionOperand> operands;
};

/// The analyzed fusion of `module` (see the file comment). InvalidArgument
/// when the module has no entry root or its output is not an array.
absl::StatusOr<AnalyzedFusion> AnalyzeFusionOperands(
    const HloModule& module, mlir::MLIRContext* context);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_FUSION_OPERANDS_H_
