#ifndef XLA_INDEX_OPERAND_UTILIZATION_H_
#define XLA_INDEX_OPERAND_UTILIZATION_H_

// Operand utilization from indexing maps: how many elements of an operand
// are read to produce the whole output (seed 000, "operand utilization").

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "hlo/instruction.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/instruction_indexing.h"

namespace xla_index {

struct OperandUtilization {
  /// Distinct operand elements named by the maps over their domains
  /// (runtime variables range over their feasible values), or an upper
  /// bound when `exact` is false.
  int64_t elements_read = 0;
  /// Elements of the operand.
  int64_t element_count = 0;
  /// True when elements_read was counted point by point.
  bool exact = true;

  /// elements_read / element_count (0 for an empty operand).
  double Fraction() const {
    return element_count == 0
               ? 0.0
               : static_cast<double>(elements_read) / element_count;
  }
};

/// Counts the elements of an operand of dims `operand_dims` that `maps`
/// read, enumerating each map's domain and symbols when that takes at most
/// `max_points` evaluations in total. Otherwise, and for Undefined maps, it
/// bounds the count by the per-map boxes of result ranges (clipped to the
/// operand), capped at the element count, with exact = false.
OperandUtilization ComputeOperandUtilization(
    const IndexingMapSet& maps, absl::Span<const int64_t> operand_dims,
    int64_t max_points = int64_t{1} << 22);

/// The utilization of every operand of `instruction` (fusions through their
/// computation), from its output-to-input maps of all outputs.
std::vector<OperandUtilization> ComputeOperandUtilization(
    const HloInstruction& instruction, mlir::MLIRContext* context,
    int64_t max_points = int64_t{1} << 22);

}  // namespace xla_index

#endif  // XLA_INDEX_OPERAND_UTILIZATION_H_
