#ifndef XLA_INDEX_ANALYSIS_SYMBOLIC_TILE_BRUTE_FORCE_H_
#define XLA_INDEX_ANALYSIS_SYMBOLIC_TILE_BRUTE_FORCE_H_

// Test-only truth for symbolic tiles: for every full output tile, the
// operand elements it really reads (from the reference evaluator's trace of
// an HLO module, or by evaluating an indexing map point by point) against
// the elements of the propagated tiles (offsets at the tile ids, then
// offset + i * stride, minus the masked ones).

#include <cstdint>
#include <set>
#include <vector>

#include "absl/types/span.h"
#include "hlo/module.h"
#include "xla_index/analysis/symbolic_tile.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

using ElementSet = std::set<std::vector<int64_t>>;

/// The ids of every full tile of an output of `dims` cut into `sizes`.
std::vector<std::vector<int64_t>> FullTileIds(absl::Span<const int64_t> dims,
                                              absl::Span<const int64_t> sizes);

/// The elements tile `tile_ids` reads through `tile`: none when the tile's
/// constraints fail at these ids, else offset + i * stride for i < size in
/// each dimension, keeping only those inside every mask. Runtime values
/// are taken as 0, what the zero-filled arguments of the trace give.
ElementSet TileElementSet(const PropagatedTile& tile,
                          absl::Span<const int64_t> tile_ids);

/// The elements `map` (output -> operand) gives for the output elements of
/// tile `tile_ids`, over all range-variable values that meet its
/// constraints. The map must have no runtime variables.
ElementSet MapReads(const IndexingMap& map, absl::Span<const int64_t> sizes,
                    absl::Span<const int64_t> tile_ids);

/// Whether `elements` is exactly a strided box: per dimension an arithmetic
/// progression, all combinations present.
bool IsStridedBox(const ElementSet& elements);

/// For every full tile, the union of operand 0's tiles in `report` (from
/// AnalyzeMapTiling) must equal MapReads. Every tile must be tileable.
void ExpectTilesMatchMap(const IndexingMap& map, const TileReport& report);

/// For every full tile and every operand of the entry root in `report`
/// whose tiles are all tileable, the union of its tiles must equal the
/// elements the reference evaluator traces. Returns, per operand, whether
/// some full tile reads a set that is not a strided box (so a refusal is
/// right).
std::vector<bool> ExpectTilesMatchTrace(const HloModule& module,
                                        const TileReport& report);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_SYMBOLIC_TILE_BRUTE_FORCE_H_
