#ifndef XLA_INDEX_ANALYSIS_FUSION_UTILIZATION_H_
#define XLA_INDEX_ANALYSIS_FUSION_UTILIZATION_H_

// The operand-utilization report of a fusion: for every input of the
// analyzed kernel (fusion_operands.h), the counts of the one utilization
// model (operand_utilization.h, after XLA's indexing-analysis
// documentation, "Operand utilization") and the maps they come from.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "hlo/instruction.h"
#include "hlo/module.h"
#include "hlo/shape.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/analysis/operand_utilization.h"
#include "xla_index/ops/instruction_indexing.h"

namespace xla_index {

struct FusionOperandUtilization {
  int64_t operand = 0;
  std::string name;
  Shape shape;
  OperandUtilization counts;
  /// The output-to-input maps the counts come from.
  IndexingMapSet maps;
};

struct UtilizationReport {
  std::string root_name;
  /// Output 0, and all outputs (one unless the root is a tuple).
  Shape output_shape;
  std::vector<Shape> output_shapes;
  /// Elements of all outputs together (saturating).
  int64_t output_elements = 0;
  std::vector<FusionOperandUtilization> operands;
};

/// The counts of one operand of an analyzed kernel over all its outputs'
/// maps (FusionOperand::maps), within `time_budget` (operand_utilization.h);
/// a non-array operand gets zero counts, not exact.
OperandUtilization ComputeFusionOperandUtilization(
    const FusionOperand& operand,
    int64_t max_points = kDefaultUtilizationPointLimit,
    absl::Duration time_budget = kDefaultUtilizationTimeBudget);

/// Utilization of every operand of `instruction` analyzed as a fusion
/// (fusion_operands.h) when all its outputs are computed: an operand's maps
/// are the union over the outputs. All operands' counts together take
/// about `total_time_budget` at most (each gets NextOperandTimeBudget of
/// what is left; counts past it are bounds with exact = false).
/// InvalidArgument when an output is not an array.
absl::StatusOr<UtilizationReport> AnalyzeUtilization(
    const HloInstruction& instruction, mlir::MLIRContext* context,
    int64_t max_points = kDefaultUtilizationPointLimit,
    absl::Duration total_time_budget = kDefaultUtilizationTotalBudget);

/// The same for the root of `module`'s entry computation.
absl::StatusOr<UtilizationReport> AnalyzeUtilization(
    const HloModule& module, mlir::MLIRContext* context,
    int64_t max_points = kDefaultUtilizationPointLimit,
    absl::Duration total_time_budget = kDefaultUtilizationTotalBudget);

/// Per operand: "operand K (NAME, SHAPE): read E of N elements (F), R reads,
/// A per element read (METHOD) [, upper bound]" then its maps.
std::string UtilizationReportToText(const UtilizationReport& report);

/// One line: {"root": NAME, "output_shape": S, "output_elements": N,
///  "output_shapes": [S, ...], "operands": [{"operand": K, "name": N, "shape":
///  S, "elements": N, "elements_read": E, "reads": R, "fraction": F,
///  "average_reads": A, "exact": true, "method": "per result"|"disjoint
///  sum"|"enumeration"| "presburger"|"bound", "maps": [MAP, ...]}, ...]}.
std::string UtilizationReportToJson(const UtilizationReport& report);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_FUSION_UTILIZATION_H_
