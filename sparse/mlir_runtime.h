#ifndef XLA_INDEX_SPARSE_MLIR_RUNTIME_H_
#define XLA_INDEX_SPARSE_MLIR_RUNTIME_H_

// Test oracle and benchmark baseline: the storage arrays that MLIR's sparse
// runtime library (SparseTensorStorage::newFromCOO) builds from a COO tensor.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "sparse/encoding.h"
#include "sparse/storage.h"

namespace xla_index::sparse {

/// The arrays that MLIR's own sparse runtime library
/// (mlir::sparse_tensor::SparseTensorStorage in libmlir_c_runner_utils)
/// builds from a COO tensor, widened to 64 bits. Used as an independent
/// oracle and as the baseline of the assembly benchmark.
struct MlirRuntimeArrays {
  std::vector<std::vector<uint64_t>> positions;    // per level
  std::vector<std::vector<uint64_t>> coordinates;  // per level (SoA)
  std::vector<double> values;
};

/// Whether MLIR's runtime can assemble this encoding: no symbols and no
/// batch levels (the runtime treats batch as a sparse level and asserts).
/// n:m levels are supported, but the runtime does not pad a block with fewer
/// than n nonzeros, so callers compare only blocks that are full.
bool MlirRuntimeSupports(const SparseEncoding& encoding);

/// Level coordinates of `coo` under the encoding (nnz x lvl_rank), the input
/// the runtime's newFromCOO takes.
std::vector<uint64_t> LevelCoordinates(const SparseEncoding& encoding,
                                       const CooTensor& coo);

/// Assembles with MLIR's runtime (positions and coordinates as uint64_t,
/// values as double): SparseTensorCOO<double> filled with the level
/// coordinates, then SparseTensorStorage<uint64_t, uint64_t,
/// double>::newFromCOO. The input must be valid (in bounds, unique for
/// unique encodings): the runtime only asserts.
absl::StatusOr<MlirRuntimeArrays> AssembleWithMlirRuntime(
    const SparseEncoding& encoding, const CooTensor& coo);

/// The runtime's part only, for timing: `level_coordinates` (nnz x
/// lvl_rank, from LevelCoordinates) and `values` go into a
/// SparseTensorCOO<double>, which newFromCOO sorts and assembles.
MlirRuntimeArrays AssembleLevelCooWithMlirRuntime(
    const SparseEncoding& encoding, const std::vector<int64_t>& dim_sizes,
    const std::vector<int64_t>& level_sizes,
    const std::vector<uint64_t>& level_coordinates,
    const std::vector<double>& values);

}  // namespace xla_index::sparse

#endif  // XLA_INDEX_SPARSE_MLIR_RUNTIME_H_
