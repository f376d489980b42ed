#ifndef XLA_INDEX_LAYOUT_LAYOUT_DESCRIPTION_H_
#define XLA_INDEX_LAYOUT_LAYOUT_DESCRIPTION_H_

// What `xla-index layout SHAPE [--index=i,j,...] [--json]` reports
// (the `xla-index layout` output, docs/ARCHITECTURE.md "JSON output"): the
// canonical shape, element count, padded element count, byte size, memory
// space, physical shape, the logical-to-physical indexing map and, with an
// index, the element's position in memory.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

/// Everything `xla-index layout` prints about one shape.
struct LayoutDescription {
  /// The shape as XLA prints it, with the default layout filled in when the
  /// input had none: "f32[3,5]{1,0:T(2,2)}".
  std::string shape;
  int64_t elements = 0;
  /// Elements plus tile padding and tail padding L(n).
  int64_t padded_elements = 0;
  /// Bytes, with E(n) packing.
  int64_t bytes = 0;
  /// The same array's size in XLA's ShapeUtil::ArraySize convention, which
  /// pads only to the first tile and counts a split dimension at its
  /// largest piece (XlaArraySizeBytes in shape_layout.h).
  int64_t xla_array_size_bytes = 0;
  /// S(n): 0 device HBM, 1 VMEM, 5 host, others device-specific.
  int64_t memory_space = 0;
  /// The tiled physical shape, most major first; memory is its row-major
  /// order.
  std::vector<int64_t> physical_shape;
  /// Logical index -> linear offset in elements.
  IndexingMap map = IndexingMap::Undefined();
  /// Linear offset -> logical index, padding excluded by constraints.
  IndexingMap inverse_map = IndexingMap::Undefined();
  /// The --index, if given, and its linear offset.
  std::optional<std::vector<int64_t>> index;
  std::optional<int64_t> linear_index;
  /// The --index element's index in the physical shape.
  std::optional<std::vector<int64_t>> physical_index;
};

/// Parses `shape_text` (an array shape in XLA's syntax) and describes its
/// layout; with `index`, also where that element lies. Errors
/// (InvalidArgument) name the position in `shape_text` as "line:column: ",
/// for syntax errors and for invalid tiles (pointing at the tile), or name
/// the offending --index entry.
absl::StatusOr<LayoutDescription> DescribeLayout(
    absl::string_view shape_text, std::optional<std::vector<int64_t>> index,
    mlir::MLIRContext* context);

/// The picture for `--svg FILE` (see layout_svg.h) of the shape in
/// `shape_text`, with the same parse and layout errors as DescribeLayout;
/// also InvalidArgument for shapes of rank > 2 or too many elements.
absl::StatusOr<std::string> LayoutSvg(absl::string_view shape_text);

/// Parses the value of --index: "2,3" -> {2, 3}; "" is the scalar index {}.
/// Spaces around entries are allowed. Errors name the entry.
absl::StatusOr<std::vector<int64_t>> ParseIndexList(absl::string_view text);

/// "0 (device HBM)", "1 (VMEM)", "5 (host)", "3 (device-specific)".
std::string MemorySpaceName(int64_t memory_space);

/// The text output, one "name: value" a line, the maps in the text format of
/// XLA's indexing-analysis documentation:
///   shape: f32[3,5]{1,0:T(2,2)}
///   elements: 15
///   padded elements: 24
///   bytes: 96
///   memory space: 0 (device HBM)
///   physical shape: [2,3,2,2]
///   logical to linear map:
///   (d0, d1) -> (...)
///   domain:
///   ...
///   linear to logical map:
///   ...
///   xla array size: 96 bytes (first tile and largest split only, as
///   XLA's ShapeUtil::ArraySize)
///   linear index of (2,3): 17
///   physical index of (2,3): (1,1,0,1)
/// Ends with a newline.
std::string LayoutDescriptionToText(const LayoutDescription& description);

/// The --json output on one line (docs/ARCHITECTURE.md, "JSON output"):
///   {"shape": "...", "elements": N, "padded_elements": N, "bytes": N,
///    "memory_space": N, "physical_shape": [...], "map": MAP,
///    "inverse_map": MAP, "xla_array_size_bytes": N[, "index": [...],
///    "linear_index": N,
///    "physical_index": [...]]}
/// MAP is IndexingMapToJson's shape. Ends with a newline.
std::string LayoutDescriptionToJson(const LayoutDescription& description);

}  // namespace xla_index

#endif  // XLA_INDEX_LAYOUT_LAYOUT_DESCRIPTION_H_
