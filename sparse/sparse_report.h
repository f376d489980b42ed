#ifndef XLA_INDEX_SPARSE_SPARSE_REPORT_H_
#define XLA_INDEX_SPARSE_SPARSE_REPORT_H_

// What `xla-index sparse` prints: the report of an encoding (maps, level
// sizes, storage sizes, and with a COO tensor its arrays) as text and JSON.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "mlir/IR/MLIRContext.h"
#include "sparse/encoding.h"
#include "sparse/storage.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index::sparse {

/// Everything `xla-index sparse ENCODING [--shape=AxB...] [--coo=FILE]`
/// prints (docs/ARCHITECTURE.md, "JSON output").
struct SparseReport {
  SparseEncoding encoding;
  /// --shape, or the smallest shape holding the COO's coordinates.
  std::optional<std::vector<int64_t>> shape;
  /// Known when the shape is (and the map has no symbols).
  std::optional<std::vector<int64_t>> level_sizes;
  IndexingMap dim_to_lvl = IndexingMap::Undefined();
  /// Undefined when not inferable (symbols).
  IndexingMap lvl_to_dim = IndexingMap::Undefined();
  /// With --coo.
  std::optional<SparseStorage> storage;
  int64_t nonzeros = 0;
};

/// Parses and verifies `encoding_text`, reads `shape_text` ("" = none, else
/// "AxBxC"), and with `coo_text` (the contents of the --coo file, lines
/// "i j ... value", named `coo_file_name` in errors) assembles the storage.
/// Errors are InvalidArgument (or Unimplemented for assembling a counting
/// map such as ELL) with messages naming the input and position.
absl::StatusOr<SparseReport> BuildSparseReport(
    absl::string_view encoding_text, absl::string_view shape_text,
    const std::optional<std::string>& coo_text, absl::string_view coo_file_name,
    mlir::MLIRContext* context);

/// Text for people: canonical encoding, notes on older spellings, ranks,
/// level types, widths, shape and level sizes, both maps in the indexing map
/// text format, the largest storage sizes for the shape, and with a COO the
/// arrays as MLIR's SparseTensor dialect documentation prints them
/// ("positions[1] : 0 2 3") and their sizes.
std::string SparseReportToText(const SparseReport& report);

/// One line of JSON:
///   {"encoding": CANONICAL, "dim_rank": N, "lvl_rank": N,
///    "level_types": ["dense", "compressed(nonunique)", ...],
///    "dim_to_lvl": MAP, "lvl_to_dim": MAP or null, "pos_width": N,
///    "crd_width": N, "shape": [...] or null, "level_sizes": [...] or null,
///    "max_storage": SIZES or null, "notes": [...]}
/// and with a COO also "levels": [{"positions": [...], "coordinates":
/// [...]}, ...] (empty arrays for levels that store none), "values": [...],
/// "storage": SIZES. MAP is IndexingMapToJson's shape; SIZES is
/// {"positions": [per level], "coordinates": [per level], "values": N,
/// "bytes": N} (bytes at the encoding's widths, 8-byte values), for
/// max_storage the sizes when no element is zero (MaxStorageSizes).
std::string SparseReportToJson(const SparseReport& report);

}  // namespace xla_index::sparse

#endif  // XLA_INDEX_SPARSE_SPARSE_REPORT_H_
