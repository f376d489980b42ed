#ifndef XLA_INDEX_LAYOUT_LAYOUT_SVG_H_
#define XLA_INDEX_LAYOUT_LAYOUT_SVG_H_

// A picture of a tiled layout in the style of the figures of XLA's tiled-layout
// documentation, for `xla-index layout SHAPE --svg FILE`:
//
//  - left, the logical array (rank 0 to 2; rank 1 is one row), extended by
//    the first tile's padding; each cell shows its position in memory, is
//    coloured by the first-level tile it belongs to, padding is white;
//    thick black lines separate first-level tiles and red lines
//    second-level ones (the 2x1 boxes in figure 2);
//  - right, memory in order, rows as wide as the first tile's volume (the
//    most minor dimension when untiled); each cell shows the logical index
//    stored there, padding cells are white and empty.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "layout/tiled_layout.h"

namespace xla_index {

/// The SVG document. InvalidArgument for rank > 2 or more than
/// `max_cells` memory positions (the picture would be unreadable).
absl::StatusOr<std::string> RenderLayoutSvg(const TiledLayout& layout,
                                            int64_t max_cells = 4096);

/// Which memory positions a piece of code reads, over the layout's memory
/// order (the right panel above, without labels, cells of `cell` units):
/// positions in `highlight` (in elements, ascending) are painted with
/// `color`, the first list over the second where both hold a position (e.g.
/// one warp's reads over its block's); other positions keep their
/// first-level tile colour, padding stays white. Only the memory rows from
/// the first to the last highlighted position are drawn, with one row more
/// above and below, at most `max_cells` positions from the first (a caption
/// says which). Positions outside the layout's memory are ignored.
struct MemoryHighlight {
  std::vector<int64_t> positions;
  std::string color;
  std::string label;
};
std::string RenderMemoryAccessSvg(const TiledLayout& layout,
                                  const std::vector<MemoryHighlight>& layers,
                                  int64_t max_cells = 2048, int cell = 10);

}  // namespace xla_index

#endif  // XLA_INDEX_LAYOUT_LAYOUT_SVG_H_
