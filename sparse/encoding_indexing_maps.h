#ifndef XLA_INDEX_SPARSE_ENCODING_INDEXING_MAPS_H_
#define XLA_INDEX_SPARSE_ENCODING_INDEXING_MAPS_H_

// A sparse encoding's dim-to-level and level-to-dim maps as IndexingMaps over
// a tensor shape (or over [0, INT64_MAX] without one).

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "sparse/encoding.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index::sparse {

/// The encoding's dim-to-level map as an IndexingMap over a tensor of shape
/// `dim_sizes`: dims d_i in [0, dim_sizes[i] - 1]. BSR 2x3 on 20x30:
///   (d0, d1) -> (d0 floordiv 2, d1 floordiv 3, d0 mod 2, d1 mod 3)
///   domain:
///   d0 in [0, 19]
///   d1 in [0, 29]
/// Without a shape (std::nullopt, e.g. `tensor<?x?xf64, #CSR>`), every dim is
/// in [0, INT64_MAX]. The symbols of a counting map (ELL's `c`) are range
/// variables in [0, INT64_MAX]: the encoding does not bound the count.
absl::StatusOr<IndexingMap> DimToLevelIndexingMap(
    const SparseEncoding& encoding,
    const std::optional<std::vector<int64_t>>& dim_sizes);

/// The level-to-dim map (explicit, or inferred as InferLvlToDim does) as an
/// IndexingMap over the level box l_j in [0, level_sizes[j] - 1] (see
/// LevelSizes). When a partial last block pads a level, the dimension it
/// would reach past the shape is cut off by a constraint: BSR 2x3 on 21x30
/// (levels 11x10x2x3) gives
///   (d0, d1, d2, d3) -> (d0 * 2 + d2, d1 * 3 + d3)
///   domain: d0 in [0, 10], d1 in [0, 9], d2 in [0, 1], d3 in [0, 2],
///   d0 * 2 + d2 in [0, 20]
/// Without a shape the levels are in [0, INT64_MAX]. Undefined when the
/// encoding has no inverse (maps with symbols, like ELL).
absl::StatusOr<IndexingMap> LevelToDimIndexingMap(
    const SparseEncoding& encoding,
    const std::optional<std::vector<int64_t>>& dim_sizes);

}  // namespace xla_index::sparse

#endif  // XLA_INDEX_SPARSE_ENCODING_INDEXING_MAPS_H_
