#ifndef XLA_INDEX_ANALYSIS_FUSION_UTILIZATION_H_
#define XLA_INDEX_ANALYSIS_FUSION_UTILIZATION_H_

// Operand utilization of a fusion (seed 000, "operand utilization"): when
// the whole output is computed, which fraction of each operand's elements
// is read, and how many times each read element is read on average.
//
// For operand k with output-to-input maps f_1, ..., f_m (one per way the
// fusion reads it):
//   elements read  = |union over i of { f_i(d, s) : d in domain, s in range }|
//   reads          = sum over i of |{ (d, f_i(d, s)) : d in domain, s }|
//                    (one read per output element and operand element it
//                    needs, per map)
//   fraction       = elements read / elements of the operand
//   average reads  = reads / elements read
//
// Examples (exact):
//   broadcast f32[20] -> f32[10,20,30], dims={1}: every element, 300 times.
//   slice f32[10,20,50] -> f32[5,3,25] {[5:10:1], [3:20:7], [0:50:2]}:
//     375 of 10000 elements (0.0375), once each.
//   reduce f32[256,10] -> f32[10] over dim 0: all 2560 elements, once each;
//     the init scalar 10 times.
//
// Counting is exact. A map whose results each use their own variables and
// that has no constraints (elementwise, broadcast, transpose, slice, reduce,
// dot, reduce-window, concatenate slabs, ...) is counted one result at a
// time, so large shapes stay cheap; other maps are enumerated point by point
// up to a limit, beyond which the counts are upper bounds (exact = false).
// Runtime variables (dynamic offsets) make the counts depend on run-time
// values: each read counts once at a representative offset, the elements
// read range over the feasible offsets, and exact is false.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlo/module.h"
#include "hlo/shape.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/instruction_indexing.h"

namespace xla_index {

/// Read counts of one operand through a set of maps.
struct ReadCounts {
  int64_t element_count = 0;
  int64_t elements_read = 0;
  int64_t reads = 0;
  bool exact = true;
  /// elements_read / element_count (0 for an empty operand).
  double Fraction() const;
  /// reads / elements_read (0 when nothing is read).
  double AverageReads() const;
};

/// Counts for an operand of dims `operand_dims` read through `maps` (see the
/// file comment); `max_points` bounds the point-by-point enumeration.
ReadCounts CountOperandReads(const IndexingMapSet& maps,
                             absl::Span<const int64_t> operand_dims,
                             int64_t max_points = int64_t{1} << 22);

struct FusionOperandUtilization {
  int64_t operand = 0;
  std::string name;
  Shape shape;
  ReadCounts counts;
  /// The output-to-input maps the counts come from.
  IndexingMapSet maps;
};

struct UtilizationReport {
  std::string root_name;
  Shape output_shape;
  int64_t output_elements = 0;
  std::vector<FusionOperandUtilization> operands;
};

/// Utilization of every operand of `module`'s root analyzed as a fusion
/// (fusion_operands.h). InvalidArgument when the root is not an array.
absl::StatusOr<UtilizationReport> AnalyzeUtilization(
    const HloModule& module, mlir::MLIRContext* context,
    int64_t max_points = int64_t{1} << 22);

/// Per operand: "operand K (NAME, SHAPE): read E of N elements (F), R reads,
/// A per element read [, upper bound]" then its maps.
std::string UtilizationReportToText(const UtilizationReport& report);

/// One line: {"root": NAME, "output_shape": S, "output_elements": N,
///  "operands": [{"operand": K, "name": N, "shape": S, "elements": N,
///  "elements_read": E, "reads": R, "fraction": F, "average_reads": A,
///  "exact": true, "maps": [MAP, ...]}, ...]}.
std::string UtilizationReportToJson(const UtilizationReport& report);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_FUSION_UTILIZATION_H_
