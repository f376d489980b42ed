#ifndef XLA_INDEX_SPARSE_STORAGE_SVG_H_
#define XLA_INDEX_SPARSE_STORAGE_SVG_H_

// An SVG picture of a 2-D sparse tensor beside its storage arrays
// (`xla-index sparse --svg=FILE`).

#include <string>

#include "absl/status/statusor.h"
#include "sparse/sparse_report.h"

namespace xla_index::sparse {

/// An SVG picture of a matrix and its storage, like the 2x2 block
/// drawing: on the left the tensor with its nonzeros ('.' for zeros) and,
/// for block maps, the block boundaries; on the right the arrays of every
/// level (positions[l], coordinates[l]) and the values, one box per entry.
/// Needs a report with storage (a --coo file) of a 2-D tensor; errors
/// otherwise (Unimplemented for other ranks, InvalidArgument without
/// storage, ResourceExhausted past 64x64 cells or 4096 stored entries).
absl::StatusOr<std::string> SparseReportToSvg(const SparseReport& report);

}  // namespace xla_index::sparse

#endif  // XLA_INDEX_SPARSE_STORAGE_SVG_H_
