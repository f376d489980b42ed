#include "layout/layout_svg.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/checked_arithmetic.h"
#include "layout/tiled_layout.h"

namespace xla_index {
namespace {

constexpr int kCell = 28;     // cell side, in SVG units
constexpr int kMargin = 20;   // around and between the two panels
constexpr int kCaption = 24;  // caption height above each panel

// Light colours for the first-level tiles, cycled.
constexpr const char* kTileColors[] = {"#9ecae1", "#fdae6b", "#a1d99b",
                                       "#bcbddc", "#fdd0a2", "#c7e9c0",
                                       "#fcbba1", "#d9d9d9"};

// The logical array drawn as rows x columns: rank 2 as is, rank 1 as one
// row, rank 0 as one cell.
struct Grid {
  int64_t rows = 1;
  int64_t columns = 1;
  // Extents including the first tile's padding.
  int64_t padded_rows = 1;
  int64_t padded_columns = 1;
};

// The logical index of grid cell (row, column).
std::vector<int64_t> GridIndex(const TiledLayout& layout, int64_t row,
                               int64_t column) {
  if (layout.rank() == 2) return {row, column};
  if (layout.rank() == 1) return {column};
  return {};
}

Grid MakeGrid(const TiledLayout& layout) {
  Grid grid;
  const absl::Span<const int64_t> dims = layout.dimensions();
  if (layout.rank() == 2) {
    grid.rows = dims[0];
    grid.columns = dims[1];
  } else if (layout.rank() == 1) {
    grid.columns = dims[0];
  }
  grid.padded_rows = grid.rows;
  grid.padded_columns = grid.columns;
  // The first tile's padding is visible in the logical grid when that tile
  // neither combines dimensions: tile entry k covers physical position
  // first + k, which is logical dimension minor_to_major[rank - 1 - pos].
  const std::vector<TilingStep>& steps = layout.steps();
  if (steps.empty() || steps[0].kind != TilingStep::Kind::kTile) return grid;
  const TilingStep& tile = steps[0];
  for (size_t k = 0; k < tile.tile.size(); ++k) {
    const int64_t position = tile.position + k;
    const int64_t dim = layout.minor_to_major()[layout.rank() - 1 - position];
    const int64_t size = tile.tile[k];
    const bool is_row = layout.rank() == 2 && dim == 0;
    int64_t& extent = is_row ? grid.padded_rows : grid.padded_columns;
    extent = CeilOfRatio(extent, size) * size;
  }
  return grid;
}

// The first-level tile a logical index (possibly in the first tile's
// padding) belongs to, numbered by its physical tile-count index.
int64_t FirstTileNumber(const TiledLayout& layout,
                        absl::Span<const int64_t> index) {
  const std::vector<TilingStep>& steps = layout.steps();
  if (steps.empty()) return 0;
  // PhysicalIndex applies all steps; the first tile's counts are recovered
  // by dividing the pre-tile physical index by the first tile.
  const size_t rank = index.size();
  std::vector<int64_t> physical(rank);
  for (size_t k = 0; k < rank; ++k) {
    physical[k] = index[layout.minor_to_major()[rank - 1 - k]];
  }
  if (steps[0].kind != TilingStep::Kind::kTile) return 0;
  int64_t number = 0;
  for (size_t k = 0; k < rank; ++k) {
    int64_t count = steps[0].shape_after[k];
    int64_t value = physical[k];
    if (static_cast<int64_t>(k) >= steps[0].position) {
      value /= steps[0].tile[k - steps[0].position];
    }
    number = number * count + value;
  }
  return number;
}

std::string Color(int64_t tile_number) {
  return kTileColors[tile_number % (sizeof(kTileColors) / sizeof(char*))];
}

void AppendCell(std::string& svg, int64_t x, int64_t y, const std::string& fill,
                const std::string& label, int font_size) {
  absl::StrAppendFormat(
      &svg,
      "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
      "stroke=\"#888\" stroke-width=\"0.5\"/>\n",
      x, y, kCell, kCell, fill);
  if (!label.empty()) {
    absl::StrAppendFormat(&svg,
                          "<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
                          "text-anchor=\"middle\">%s</text>\n",
                          x + kCell / 2, y + kCell / 2 + font_size / 3,
                          font_size, label);
  }
}

// The numbers of the steps that tile (not combine), in order.
std::vector<int64_t> TileStepNumbers(const TiledLayout& layout) {
  std::vector<int64_t> numbers;
  for (size_t s = 0; s < layout.steps().size(); ++s) {
    if (layout.steps()[s].kind == TilingStep::Kind::kTile) {
      numbers.push_back(s);
    }
  }
  return numbers;
}

// A cell edge: black if it separates first-level tiles, else red if it
// separates second-level tiles, else nothing.
void AppendBoundary(std::string& svg, int64_t x1, int64_t y1, int64_t x2,
                    int64_t y2, bool first_level, bool second_level) {
  if (!first_level && !second_level) return;
  absl::StrAppendFormat(
      &svg,
      "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
      "stroke-width=\"%s\"/>\n",
      x1, y1, x2, y2, first_level ? "black" : "red", first_level ? "2" : "1.5");
}

// Tile boundaries: black between cells of different first-level tiles,
// red between cells of different second-level tiles (as the documentation's
// figure 2 outlines its 2x1 tiles), wherever those tiles fall. Two cells
// share a tile of level k when their physical indices after that tile's
// step agree outside the in-tile part.
void AppendTileBoundaries(const TiledLayout& layout, const Grid& grid,
                          int64_t grid_x, int64_t grid_y, std::string& svg) {
  const std::vector<int64_t> tile_steps = TileStepNumbers(layout);
  auto tile_of = [&](int64_t level, int64_t row, int64_t column) {
    if (level >= static_cast<int64_t>(tile_steps.size())) {
      return std::vector<int64_t>{};
    }
    const TilingStep& step = layout.steps()[tile_steps[level]];
    std::vector<int64_t> physical = layout.PartialPhysicalIndex(
        GridIndex(layout, row, column), tile_steps[level] + 1);
    physical.resize(physical.size() - step.tile.size());  // drop in-tile part
    return physical;
  };
  for (int64_t row = 0; row < grid.padded_rows; ++row) {
    for (int64_t column = 0; column < grid.padded_columns; ++column) {
      const int64_t x = grid_x + column * kCell;
      const int64_t y = grid_y + row * kCell;
      if (column + 1 < grid.padded_columns) {
        AppendBoundary(svg, x + kCell, y, x + kCell, y + kCell,
                       tile_of(0, row, column) != tile_of(0, row, column + 1),
                       tile_of(1, row, column) != tile_of(1, row, column + 1));
      }
      if (row + 1 < grid.padded_rows) {
        AppendBoundary(svg, x, y + kCell, x + kCell, y + kCell,
                       tile_of(0, row, column) != tile_of(0, row + 1, column),
                       tile_of(1, row, column) != tile_of(1, row + 1, column));
      }
    }
  }
}

// Memory rows are as wide as the first tile, so one tile is one row (the
// most minor dimension when untiled), at most 64 positions.
int64_t MemoryRowWidth(const TiledLayout& layout) {
  int64_t row_width = 1;
  if (!layout.steps().empty() &&
      layout.steps()[0].kind == TilingStep::Kind::kTile) {
    for (int64_t size : layout.steps()[0].tile) {
      row_width = SaturatingMul(row_width, size);
    }
  } else if (layout.rank() > 0) {
    row_width = layout.physical_dimensions().back();
  }
  return std::max<int64_t>(1, std::min<int64_t>(row_width, 64));
}

// The fill of memory `position`: the first layer holding it, else its
// first-level tile's colour, else (padding) white.
std::string MemoryCellFill(const TiledLayout& layout,
                           const std::vector<MemoryHighlight>& layers,
                           int64_t position) {
  for (const MemoryHighlight& layer : layers) {
    if (std::binary_search(layer.positions.begin(), layer.positions.end(),
                           position)) {
      return layer.color;
    }
  }
  if (std::optional<std::vector<int64_t>> element =
          layout.LogicalIndex(position)) {
    return Color(FirstTileNumber(layout, *element));
  }
  return "white";
}

// One path outlining `count` cells of `cell` units laid `row_width` a row:
// the horizontal lines under each row, then the vertical lines, the last
// row's as long as it is (it may be partial).
std::string CellOutlines(int64_t count, int64_t row_width, int cell) {
  const int64_t full_rows = count / row_width, last = count % row_width;
  const int64_t rows = full_rows + (last > 0 ? 1 : 0);
  std::string path;
  for (int64_t row = 0; row <= rows; ++row) {
    const int64_t width = row <= full_rows ? row_width : last;
    absl::StrAppendFormat(&path, "M0 %dh%d", row * cell, width * cell);
  }
  for (int64_t column = 0; column <= row_width; ++column) {
    const int64_t height = full_rows + (column <= last && last > 0 ? 1 : 0);
    if (height > 0) {
      absl::StrAppendFormat(&path, "M%d 0v%d", column * cell, height * cell);
    }
  }
  return absl::StrFormat(
      "<path d=\"%s\" fill=\"none\" stroke=\"#888\" stroke-width=\"0.3\"/>\n",
      path);
}

}  // namespace

std::string RenderMemoryAccessSvg(const TiledLayout& layout,
                                  const std::vector<MemoryHighlight>& layers,
                                  int64_t max_cells, int cell) {
  const int64_t positions = layout.tiled_element_count();
  const int64_t row_width = MemoryRowWidth(layout);
  int64_t first = positions, last = -1;
  for (const MemoryHighlight& layer : layers) {
    for (int64_t p : layer.positions) {
      if (p < 0 || p >= positions) continue;
      first = std::min(first, p);
      last = std::max(last, p);
    }
  }
  if (last < 0) first = last = 0;
  // One row of context above and below the highlighted rows.
  const int64_t begin = std::max<int64_t>(0, first / row_width - 1) * row_width;
  const int64_t end =
      std::min({positions, SaturatingMul(last / row_width + 2, row_width),
                SaturatingAdd(begin, std::max<int64_t>(max_cells, row_width))});
  const int64_t rows =
      std::max<int64_t>(1, CeilOfRatio(end - begin, row_width));
  const int64_t top = 2 * kCaption;
  std::string svg = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
      "font-family=\"sans-serif\">\n",
      std::max<int64_t>(row_width * cell, 360) + 2, top + rows * cell + 2);
  absl::StrAppendFormat(
      &svg,
      "<text x=\"0\" y=\"14\" font-size=\"12\">memory positions %d to %d "
      "of %d, %d a row</text>\n",
      begin, end - 1, positions, row_width);
  std::vector<std::string> legend;
  for (const MemoryHighlight& layer : layers) {
    legend.push_back(
        absl::StrFormat("<tspan fill=\"%s\">\u25a0</tspan> %s (%d)",
                        layer.color, layer.label, layer.positions.size()));
  }
  absl::StrAppendFormat(&svg,
                        "<text x=\"0\" y=\"%d\" font-size=\"12\">%s</text>\n",
                        kCaption + 14, absl::StrJoin(legend, "  "));
  absl::StrAppendFormat(&svg, "<g transform=\"translate(1, %d)\">\n", top);
  // A run of positions of one colour within a row is one rect; the cell
  // outlines are one path over them. (A rect per cell made the report's
  // pages tens of megabytes.)
  std::string run_fill;
  int64_t run_begin = begin;
  auto close_run = [&](int64_t run_end) {
    if (run_end == run_begin) return;
    absl::StrAppendFormat(
        &svg,
        "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
        (run_begin - begin) % row_width * cell,
        (run_begin - begin) / row_width * cell, (run_end - run_begin) * cell,
        cell, run_fill);
  };
  for (int64_t position = begin; position < end; ++position) {
    std::string fill = MemoryCellFill(layout, layers, position);
    if (fill != run_fill || (position - begin) % row_width == 0) {
      close_run(position);
      run_fill = std::move(fill);
      run_begin = position;
    }
  }
  close_run(end);
  svg += CellOutlines(end - begin, row_width, cell);
  svg += "</g>\n</svg>\n";
  return svg;
}

absl::StatusOr<std::string> RenderLayoutSvg(const TiledLayout& layout,
                                            int64_t max_cells) {
  if (layout.rank() > 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("--svg draws arrays of rank 0 to 2; this one has rank ",
                     layout.rank()));
  }
  const int64_t positions = layout.tiled_element_count();
  const Grid grid = MakeGrid(layout);
  if (positions > max_cells ||
      grid.padded_rows * grid.padded_columns > max_cells) {
    return absl::InvalidArgumentError(
        absl::StrCat("--svg draws at most ", max_cells,
                     " cells; this layout "
                     "has ",
                     positions, " memory positions"));
  }

  const int64_t row_width = MemoryRowWidth(layout);
  const int64_t memory_rows =
      CeilOfRatio(std::max<int64_t>(positions, 1), row_width);

  const int64_t grid_x = kMargin;
  const int64_t grid_y = kMargin + kCaption;
  const int64_t memory_x = grid_x + grid.padded_columns * kCell + 2 * kMargin;
  const int64_t memory_y = grid_y;
  const int64_t width = memory_x + row_width * kCell + kMargin;
  const int64_t height =
      grid_y + std::max(grid.padded_rows, memory_rows) * kCell + kMargin;

  std::string svg = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
      "font-family=\"sans-serif\">\n",
      width, height);
  absl::StrAppendFormat(&svg,
                        "<text x=\"%d\" y=\"%d\" font-size=\"13\">logical "
                        "(cell: memory position)</text>\n",
                        grid_x, kMargin + 12);
  absl::StrAppendFormat(&svg,
                        "<text x=\"%d\" y=\"%d\" font-size=\"13\">memory "
                        "(cell: logical index)</text>\n",
                        memory_x, kMargin + 12);

  // Left: the logical grid with the first tile's padding.
  for (int64_t row = 0; row < grid.padded_rows; ++row) {
    for (int64_t column = 0; column < grid.padded_columns; ++column) {
      const std::vector<int64_t> index = GridIndex(layout, row, column);
      const bool padding = row >= grid.rows || column >= grid.columns;
      // The arithmetic extends to the first tile's padding: those cells are
      // moved by the same pad-reshape-transpose as the elements.
      const int64_t position = layout.LinearIndex(index);
      AppendCell(svg, grid_x + column * kCell, grid_y + row * kCell,
                 padding ? "white" : Color(FirstTileNumber(layout, index)),
                 absl::StrCat(position), 11);
    }
  }
  AppendTileBoundaries(layout, grid, grid_x, grid_y, svg);
  absl::StrAppendFormat(&svg,
                        "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                        "fill=\"none\" stroke=\"black\" stroke-width=\"2\"/>\n",
                        grid_x, grid_y, grid.padded_columns * kCell,
                        grid.padded_rows * kCell);

  // Right: memory in order.
  for (int64_t position = 0; position < positions; ++position) {
    const int64_t x = memory_x + (position % row_width) * kCell;
    const int64_t y = memory_y + (position / row_width) * kCell;
    std::optional<std::vector<int64_t>> element = layout.LogicalIndex(position);
    if (!element) {
      AppendCell(svg, x, y, "white", "", 9);
      continue;
    }
    AppendCell(svg, x, y, Color(FirstTileNumber(layout, *element)),
               absl::StrJoin(*element, ","), 9);
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace xla_index
