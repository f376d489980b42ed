#include "sparse/storage_svg.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "sparse/affine_level_maps.h"
#include "sparse/storage.h"

namespace xla_index::sparse {
namespace {

constexpr int kCell = 28;         // Pixel size of one matrix cell or array box.
constexpr int kMargin = 20;       // Space around and between the two panels.
constexpr int kLabelWidth = 130;  // Room for "coordinates[1]" before a row.
constexpr int kBoxesPerRow = 16;  // Array boxes per line before wrapping.
constexpr int64_t kMaxCells = 64;
constexpr int64_t kMaxEntries = 4096;

std::string FormatNumber(double value) {
  char buffer[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

void Text(std::string& svg, int x, int y, absl::string_view text,
          absl::string_view anchor = "middle") {
  absl::StrAppend(&svg, "  <text x=\"", x, "\" y=\"", y, "\" text-anchor=\"",
                  anchor, "\">", text, "</text>\n");
}

void Box(std::string& svg, int x, int y, absl::string_view fill) {
  absl::StrAppend(&svg, "  <rect x=\"", x, "\" y=\"", y, "\" width=\"", kCell,
                  "\" height=\"", kCell, "\" fill=\"", fill,
                  "\" stroke=\"#888\"/>\n");
}

void Line(std::string& svg, int x1, int y1, int x2, int y2) {
  absl::StrAppend(&svg, "  <line x1=\"", x1, "\" y1=\"", y1, "\" x2=\"", x2,
                  "\" y2=\"", y2, "\" stroke=\"black\" stroke-width=\"2\"/>\n");
}

/// Draws `entries` as labelled rows of boxes starting at (x, y); returns the
/// y below the last row.
int ArrayRows(std::string& svg, int x, int y, absl::string_view label,
              const std::vector<std::string>& entries, absl::string_view fill) {
  Text(svg, x, y + kCell * 2 / 3, label, "start");
  if (entries.empty()) return y + kCell + kMargin / 2;
  for (size_t k = 0; k < entries.size(); ++k) {
    const int bx = x + kLabelWidth + (k % kBoxesPerRow) * kCell;
    const int by = y + (k / kBoxesPerRow) * kCell;
    Box(svg, bx, by, fill);
    Text(svg, bx + kCell / 2, by + kCell * 2 / 3, entries[k]);
  }
  const int rows = (entries.size() + kBoxesPerRow - 1) / kBoxesPerRow;
  return y + rows * kCell + kMargin / 2;
}

std::vector<std::string> ToStrings(const std::vector<uint64_t>& values) {
  std::vector<std::string> strings;
  for (uint64_t v : values) strings.push_back(absl::StrCat(v));
  return strings;
}

}  // namespace

absl::StatusOr<std::string> SparseReportToSvg(const SparseReport& report) {
  if (!report.storage.has_value() || !report.shape.has_value()) {
    return absl::InvalidArgumentError(
        "the storage drawing needs the tensor's elements (--coo)");
  }
  const SparseEncoding& encoding = report.encoding;
  const SparseStorage& storage = *report.storage;
  if (encoding.dim_rank() != 2) {
    return absl::UnimplementedError(absl::StrCat(
        "the storage drawing shows matrices; this tensor has rank ",
        encoding.dim_rank()));
  }
  const int64_t rows = (*report.shape)[0], cols = (*report.shape)[1];
  if (rows > kMaxCells || cols > kMaxCells ||
      static_cast<int64_t>(storage.values.size()) > kMaxEntries) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "a ", rows, "x", cols, " matrix with ", storage.values.size(),
        " stored values is too large to draw (at most ", kMaxCells, "x",
        kMaxCells, " and ", kMaxEntries, " values)"));
  }
  XI_ASSIGN_OR_RETURN(std::vector<double> dense,
                      StorageToDense(encoding, storage));

  std::string body;
  // Left panel: the matrix.
  const int grid_x = kMargin, grid_y = kMargin + kCell;
  Text(body, grid_x, kMargin + kCell / 2,
       absl::StrCat("tensor ", rows, "x", cols), "start");
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      const double value = (dense)[i * cols + j];
      const int x = grid_x + j * kCell, y = grid_y + i * kCell;
      Box(body, x, y, value != 0 ? "#cde4ff" : "white");
      Text(body, x + kCell / 2, y + kCell * 2 / 3,
           value != 0 ? FormatNumber(value) : ".");
    }
  }
  // Block boundaries of a block map (BSR), drawn over the cells.
  if (IsBlockMap(encoding.dim_to_lvl)) {
    std::vector<int64_t> blocks = BlockSizes(encoding.dim_to_lvl);
    for (int64_t i = 0; blocks[0] > 0 && i <= rows; i += blocks[0]) {
      Line(body, grid_x, grid_y + i * kCell, grid_x + cols * kCell,
           grid_y + i * kCell);
    }
    for (int64_t j = 0; blocks[1] > 0 && j <= cols; j += blocks[1]) {
      Line(body, grid_x + j * kCell, grid_y, grid_x + j * kCell,
           grid_y + rows * kCell);
    }
  }
  // Right panel: the arrays, as the "Stored as" of MLIR's SparseTensor dialect
  // documentation lists them.
  const int arrays_x = grid_x + cols * kCell + 2 * kMargin;
  int y = kMargin;
  Text(body, arrays_x, y + kCell / 2, "stored as", "start");
  y += kCell;
  for (int64_t l = 0; l < encoding.lvl_rank(); ++l) {
    const LevelType& type = encoding.level_types[l];
    if (type.HasPositions()) {
      y = ArrayRows(body, arrays_x, y, absl::StrCat("positions[", l, "]"),
                    ToStrings(storage.levels[l].positions.ToVector()),
                    "#fff2cc");
    }
    if (type.HasCoordinates()) {
      y = ArrayRows(body, arrays_x, y, absl::StrCat("coordinates[", l, "]"),
                    ToStrings(storage.levels[l].coordinates.ToVector()),
                    "#e2f0d9");
    }
  }
  std::vector<std::string> values;
  for (double v : storage.values) values.push_back(FormatNumber(v));
  y = ArrayRows(body, arrays_x, y, "values", values, "#cde4ff");

  const int width = arrays_x + kLabelWidth + kBoxesPerRow * kCell + kMargin;
  const int height = std::max<int>(y, grid_y + rows * kCell) + kMargin;
  return absl::StrCat("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"",
                      width, "\" height=\"", height,
                      "\" font-family=\"monospace\" font-size=\"12\">\n", body,
                      "</svg>\n");
}

}  // namespace xla_index::sparse
