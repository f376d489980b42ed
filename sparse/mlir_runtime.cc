#include "sparse/mlir_runtime.h"

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "mlir/Dialect/SparseTensor/IR/Enums.h"
#include "mlir/ExecutionEngine/SparseTensor/COO.h"
#include "mlir/ExecutionEngine/SparseTensor/Storage.h"
#include "sparse/affine_level_maps.h"

namespace xla_index::sparse {
namespace {

namespace rt = ::mlir::sparse_tensor;

rt::LevelType ToRuntimeLevelType(const LevelType& type) {
  rt::LevelFormat format = rt::LevelFormat::Dense;
  switch (type.format) {
    case LevelFormat::kDense:
      format = rt::LevelFormat::Dense;
      break;
    case LevelFormat::kBatch:
      format = rt::LevelFormat::Batch;
      break;
    case LevelFormat::kCompressed:
      format = rt::LevelFormat::Compressed;
      break;
    case LevelFormat::kLooseCompressed:
      format = rt::LevelFormat::LooseCompressed;
      break;
    case LevelFormat::kSingleton:
      format = rt::LevelFormat::Singleton;
      break;
    case LevelFormat::kStructured:
      format = rt::LevelFormat::NOutOfM;
      break;
  }
  std::vector<rt::LevelPropNonDefault> properties;
  if (type.nonunique) properties.push_back(rt::LevelPropNonDefault::Nonunique);
  if (type.nonordered) {
    properties.push_back(rt::LevelPropNonDefault::Nonordered);
  }
  if (type.soa) properties.push_back(rt::LevelPropNonDefault::SoA);
  // The verifier guarantees a valid combination, so the optional is set.
  return *rt::buildLevelType(format, properties, type.n, type.m);
}

}  // namespace

bool MlirRuntimeSupports(const SparseEncoding& encoding) {
  if (encoding.symbol_count() > 0) return false;
  for (const LevelType& type : encoding.level_types) {
    if (type.format == LevelFormat::kBatch) return false;
  }
  return true;
}

std::vector<uint64_t> LevelCoordinates(const SparseEncoding& encoding,
                                       const CooTensor& coo) {
  const int64_t dim_rank = coo.rank();
  const int64_t lvl_rank = encoding.lvl_rank();
  std::vector<uint64_t> levels(coo.nnz() * lvl_rank);
  std::vector<int64_t> result;
  for (int64_t k = 0; k < coo.nnz(); ++k) {
    EvaluateAffineMap(
        encoding.dim_to_lvl,
        absl::MakeConstSpan(&coo.coordinates[k * dim_rank], dim_rank), result);
    std::copy(result.begin(), result.end(), &levels[k * lvl_rank]);
  }
  return levels;
}

absl::StatusOr<MlirRuntimeArrays> AssembleWithMlirRuntime(
    const SparseEncoding& encoding, const CooTensor& coo) {
  if (!MlirRuntimeSupports(encoding)) {
    return absl::UnimplementedError(
        "MLIR's sparse runtime does not support this encoding");
  }
  XI_ASSIGN_OR_RETURN(std::vector<int64_t> level_sizes,
                      LevelSizes(encoding.dim_to_lvl, coo.dim_sizes));
  return AssembleLevelCooWithMlirRuntime(encoding, coo.dim_sizes, level_sizes,
                                         LevelCoordinates(encoding, coo),
                                         coo.values);
}

MlirRuntimeArrays AssembleLevelCooWithMlirRuntime(
    const SparseEncoding& encoding, const std::vector<int64_t>& dim_sizes_in,
    const std::vector<int64_t>& level_sizes,
    const std::vector<uint64_t>& level_coordinates,
    const std::vector<double>& values) {
  const uint64_t dim_rank = dim_sizes_in.size();
  const uint64_t lvl_rank = encoding.lvl_rank();
  std::vector<uint64_t> dim_sizes(dim_sizes_in.begin(), dim_sizes_in.end());
  std::vector<uint64_t> lvl_sizes(level_sizes.begin(), level_sizes.end());
  std::vector<rt::LevelType> lvl_types;
  for (const LevelType& type : encoding.level_types) {
    lvl_types.push_back(ToRuntimeLevelType(type));
  }
  // The maps are only stored by newFromCOO (the COO is given in level
  // coordinates already); identity-like arrays keep MapRef well formed.
  std::vector<uint64_t> dim2lvl(lvl_rank), lvl2dim(dim_rank);
  for (uint64_t l = 0; l < lvl_rank; ++l) dim2lvl[l] = l % dim_rank;
  for (uint64_t d = 0; d < dim_rank; ++d) lvl2dim[d] = d;

  const size_t nnz = values.size();
  rt::SparseTensorCOO<double> lvl_coo(lvl_sizes, nnz);
  std::vector<uint64_t> point(lvl_rank);
  for (size_t k = 0; k < nnz; ++k) {
    std::copy_n(&level_coordinates[k * lvl_rank], lvl_rank, point.begin());
    lvl_coo.add(point, values[k]);
  }
  std::unique_ptr<rt::SparseTensorStorage<uint64_t, uint64_t, double>> tensor(
      rt::SparseTensorStorage<uint64_t, uint64_t, double>::newFromCOO(
          dim_rank, dim_sizes.data(), lvl_rank, lvl_sizes.data(),
          lvl_types.data(), dim2lvl.data(), lvl2dim.data(), &lvl_coo));
  MlirRuntimeArrays arrays;
  for (uint64_t l = 0; l < lvl_rank; ++l) {
    std::vector<uint64_t>* positions = nullptr;
    std::vector<uint64_t>* coordinates = nullptr;
    tensor->getPositions(&positions, l);
    tensor->getCoordinates(&coordinates, l);
    arrays.positions.push_back(std::move(*positions));
    arrays.coordinates.push_back(std::move(*coordinates));
  }
  std::vector<double>* stored = nullptr;
  tensor->getValues(&stored);
  arrays.values = std::move(*stored);
  return arrays;
}

}  // namespace xla_index::sparse
