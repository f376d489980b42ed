#ifndef XLA_INDEX_SPARSE_MLIR_REFERENCE_H_
#define XLA_INDEX_SPARSE_MLIR_REFERENCE_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace xla_index::sparse {

/// Test oracle: parses `text` (a `#sparse_tensor.encoding<...>` attribute,
/// optionally after `#NAME =`) with MLIR's own SparseTensor dialect, in a
/// fresh MLIRContext, and returns the attribute as MLIR prints it, or
/// InvalidArgument with MLIR's diagnostic when MLIR rejects it.
absl::StatusOr<std::string> MlirPrintEncoding(absl::string_view text);

}  // namespace xla_index::sparse

#endif  // XLA_INDEX_SPARSE_MLIR_REFERENCE_H_
