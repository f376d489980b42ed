#ifndef XLA_INDEX_SPARSE_COO_TEXT_H_
#define XLA_INDEX_SPARSE_COO_TEXT_H_

// Reading the coordinate (COO) text of `xla-index sparse --coo=FILE`: lines
// "i j ... value", and the "AxBxC" shape syntax of --shape.

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "sparse/storage.h"

namespace xla_index::sparse {

/// Parses coordinate lines "i j ... value" (whitespace separated, `rank`
/// integer coordinates then a number; blank lines and lines starting with
/// '#' or '%' are skipped). The shape is `shape` when not empty (every
/// coordinate must lie inside it), else the smallest one holding every
/// coordinate (max + 1 per dimension). Errors name `file_name:line:column`.
absl::StatusOr<CooTensor> ParseCooText(absl::string_view text, int64_t rank,
                                       const std::vector<int64_t>& shape,
                                       absl::string_view file_name);

/// Parses a shape "AxBxC" (e.g. "20x30"; sizes >= 1).
absl::StatusOr<std::vector<int64_t>> ParseShape(absl::string_view text);

}  // namespace xla_index::sparse

#endif  // XLA_INDEX_SPARSE_COO_TEXT_H_
