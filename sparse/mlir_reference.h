#ifndef XLA_INDEX_SPARSE_MLIR_REFERENCE_H_
#define XLA_INDEX_SPARSE_MLIR_REFERENCE_H_

// Test oracles from MLIR's own SparseTensor dialect: an encoding as MLIR
// parses and prints it, and what MLIR derives from it (lvlToDim, level shape).

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace xla_index::sparse {

/// Test oracle: parses `text` (a `#sparse_tensor.encoding<...>` attribute,
/// optionally after `#NAME =`) with MLIR's own SparseTensor dialect, in a
/// fresh MLIRContext, and returns the attribute as MLIR prints it, or
/// InvalidArgument with MLIR's diagnostic when MLIR rejects it.
absl::StatusOr<std::string> MlirPrintEncoding(absl::string_view text);

/// What MLIR derives from an encoding (parsed by MLIR itself): the lvlToDim
/// map it stores (inferred by mlir::sparse_tensor::inferLvlToDim unless
/// given), printed, or "" when null; and, for a static `shape`, the level
/// shape of tensor<shape x f64, #enc> (SparseTensorType::getLvlShape).
struct MlirEncodingFacts {
  std::string lvl_to_dim;
  std::vector<int64_t> level_shape;
};
absl::StatusOr<MlirEncodingFacts> MlirFactsOfEncoding(
    absl::string_view text, const std::vector<int64_t>& shape);

}  // namespace xla_index::sparse

#endif  // XLA_INDEX_SPARSE_MLIR_REFERENCE_H_
