#ifndef XLA_INDEX_ANALYSIS_UTILIZATION_BRUTE_FORCE_H_
#define XLA_INDEX_ANALYSIS_UTILIZATION_BRUTE_FORCE_H_

// Test-only truth for operand utilization: the counts of a set of indexing
// maps found by visiting every point of each map's dims x range variables
// box and evaluating the map there.

#include <cstdint>

#include "absl/types/span.h"
#include "xla_index/ops/instruction_indexing.h"

namespace xla_index {

struct BruteForceUtilization {
  /// The distinct in-bounds operand elements read by all maps (E).
  int64_t elements = 0;
  /// Per map, per output point: the distinct in-bounds elements read over
  /// the range variables, summed over points and maps (R).
  int64_t pairs = 0;
};

/// Counts by enumeration; elements outside [0, operand_dims[k]) are not
/// read. Known-empty maps and maps with an empty box read nothing.
BruteForceUtilization CountByBruteForce(const IndexingMapSet& maps,
                                        absl::Span<const int64_t> operand_dims);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_UTILIZATION_BRUTE_FORCE_H_
