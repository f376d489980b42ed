#include "sparse/encoding_indexing_maps.h"

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "sparse/affine_level_maps.h"
#include "xla_index/core/interval.h"

namespace xla_index::sparse {
namespace {

std::vector<Interval> BoxOfSizes(const std::vector<int64_t>& sizes) {
  std::vector<Interval> box;
  for (int64_t size : sizes) box.push_back({0, size - 1});
  return box;
}

std::vector<Interval> UnknownBox(int64_t rank) {
  return std::vector<Interval>(rank, Interval{0, Interval::kMax});
}

}  // namespace

absl::StatusOr<IndexingMap> DimToLevelIndexingMap(
    const SparseEncoding& encoding,
    const std::optional<std::vector<int64_t>>& dim_sizes) {
  std::vector<Interval> dims = UnknownBox(encoding.dim_rank());
  if (dim_sizes.has_value()) {
    if (static_cast<int64_t>(dim_sizes->size()) != encoding.dim_rank()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the shape has ", dim_sizes->size(),
          " dimensions but the encoding has ", encoding.dim_rank()));
    }
    for (int64_t size : *dim_sizes) {
      if (size < 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("dimension size ", size, " must be >= 1"));
      }
    }
    dims = BoxOfSizes(*dim_sizes);
  }
  return IndexingMap(encoding.dim_to_lvl, std::move(dims),
                     UnknownBox(encoding.symbol_count()), {});
}

absl::StatusOr<IndexingMap> LevelToDimIndexingMap(
    const SparseEncoding& encoding,
    const std::optional<std::vector<int64_t>>& dim_sizes) {
  mlir::AffineMap lvl_to_dim = encoding.lvl_to_dim
                                   ? encoding.lvl_to_dim
                                   : InferLvlToDim(encoding.dim_to_lvl);
  if (!lvl_to_dim) return IndexingMap::Undefined();
  if (!dim_sizes.has_value()) {
    return IndexingMap(lvl_to_dim, UnknownBox(encoding.lvl_rank()), {}, {});
  }
  XI_ASSIGN_OR_RETURN(std::vector<int64_t> level_sizes,
                      LevelSizes(encoding.dim_to_lvl, *dim_sizes));
  IndexingMap map(lvl_to_dim, BoxOfSizes(level_sizes), {}, {});
  // Inferred inverses are sums of levels with positive factors, so each
  // dimension is largest at the box's upper corner.
  std::vector<int64_t> corner, reached;
  for (int64_t size : level_sizes) corner.push_back(size - 1);
  EvaluateAffineMap(lvl_to_dim, corner, reached);
  for (size_t d = 0; d < reached.size(); ++d) {
    if (reached[d] > (*dim_sizes)[d] - 1) {
      map.AddConstraint(lvl_to_dim.getResult(d), {0, (*dim_sizes)[d] - 1});
    }
  }
  return map;
}

}  // namespace xla_index::sparse
