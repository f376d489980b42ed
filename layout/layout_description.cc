#include "layout/layout_description.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "base/status_macros.h"
#include "hlo/shape.h"
#include "layout/layout_indexing_map.h"
#include "layout/layout_sizes.h"
#include "layout/layout_svg.h"
#include "layout/shape_layout.h"
#include "layout/tiled_layout.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

// The offset in `text` of the '(' that opens tile `tile_number` of the
// layout. After the ':' inside the layout braces, a tile is a
// parenthesized group at nesting depth 0 that follows a 'T' or directly
// follows another tile ("T(8,128)(2,1)" and "T(8,128)T(2,1)" both list two
// tiles); groups of other attributes (S(1), P(shape), ...) are skipped.
// nullopt when the text does not have that form (then no position is
// given).
std::optional<size_t> FindTile(absl::string_view text, int64_t tile_number) {
  const size_t brace = text.find('{');
  if (brace == absl::string_view::npos) return std::nullopt;
  const size_t colon = text.find(':', brace);
  if (colon == absl::string_view::npos) return std::nullopt;
  int depth = 0;
  int64_t tiles_seen = 0;
  bool group_is_tile = false;  // the current (or last closed) group
  for (size_t i = colon + 1; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '(') {
      if (depth == 0) {
        const char before = text[i - 1];
        group_is_tile = before == 'T' || (before == ')' && group_is_tile);
        if (group_is_tile && tiles_seen++ == tile_number) return i;
      }
      ++depth;
    } else if (c == ')') {
      --depth;
    } else if (depth == 0) {
      if (c == '}') break;
      group_is_tile = false;
    }
  }
  return std::nullopt;
}

// "line:column: " of `offset` in `text` (both 1-based), as the shape parser
// writes positions.
std::string Position(absl::string_view text, size_t offset) {
  int64_t line = 1, column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return absl::StrCat(line, ":", column, ": ");
}

// Prefixes a layout error with the position of the tile it is about.
absl::Status WithTilePosition(absl::string_view text, absl::Status status) {
  std::optional<int64_t> tile_number = ErrorTileNumber(status);
  if (!tile_number) return status;
  std::optional<size_t> offset = FindTile(text, *tile_number);
  if (!offset) return status;
  return absl::InvalidArgumentError(
      absl::StrCat(Position(text, *offset), status.message()));
}

std::string IndexToString(absl::Span<const int64_t> index) {
  return absl::StrCat("(", absl::StrJoin(index, ","), ")");
}

}  // namespace

absl::StatusOr<std::vector<int64_t>> ParseIndexList(absl::string_view text) {
  std::vector<int64_t> index;
  if (absl::StripAsciiWhitespace(text).empty()) return index;
  int64_t entry_number = 0;
  for (absl::string_view entry : absl::StrSplit(text, ',')) {
    int64_t value;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(entry), &value)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--index=", text, ": entry ", entry_number, " '", entry,
                       "' is not an integer"));
    }
    index.push_back(value);
    ++entry_number;
  }
  return index;
}

std::string MemorySpaceName(int64_t memory_space) {
  switch (memory_space) {
    case 0:
      return "0 (device HBM)";
    case 1:
      return "1 (VMEM)";
    case 5:
      return "5 (host)";
    default:
      return absl::StrCat(memory_space, " (device-specific)");
  }
}

// The validated layout of the array shape in `shape_text`, with errors
// positioned in the text.
absl::StatusOr<TiledLayout> ParseTiledLayout(absl::string_view shape_text,
                                             Shape* shape_out) {
  XI_ASSIGN_OR_RETURN(Shape parsed, ParseShape(shape_text));
  if (!parsed.IsArray()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a memory layout needs an array shape, not ", parsed.ToString()));
  }
  // XLA writes scalars without braces (`f32[]`); other shapes get their
  // default layout spelled out, so the canonical text shows the order.
  *shape_out = parsed.rank() == 0 ? std::move(parsed)
                                  : WithDefaultLayout(std::move(parsed));
  absl::StatusOr<TiledLayout> layout = TiledLayoutOf(*shape_out);
  if (!layout.ok()) return WithTilePosition(shape_text, layout.status());
  return layout;
}

absl::StatusOr<std::string> LayoutSvg(absl::string_view shape_text) {
  Shape shape;
  XI_ASSIGN_OR_RETURN(TiledLayout layout, ParseTiledLayout(shape_text, &shape));
  return RenderLayoutSvg(layout);
}

absl::StatusOr<LayoutDescription> DescribeLayout(
    absl::string_view shape_text, std::optional<std::vector<int64_t>> index,
    mlir::MLIRContext* context) {
  Shape shape;
  XI_ASSIGN_OR_RETURN(TiledLayout layout, ParseTiledLayout(shape_text, &shape));
  XI_ASSIGN_OR_RETURN(LayoutSizes sizes, ShapeLayoutSizes(shape));

  LayoutDescription description;
  description.shape = shape.ToString();
  description.elements = sizes.elements;
  description.padded_elements = sizes.padded_elements;
  description.bytes = sizes.bytes;
  description.xla_array_size_bytes = sizes.xla_array_size_bytes;
  description.memory_space =
      shape.has_layout() ? shape.layout().memory_space : 0;
  const absl::Span<const int64_t> physical = layout.physical_dimensions();
  description.physical_shape.assign(physical.begin(), physical.end());
  description.map = LogicalToLinearMap(layout, context);
  description.inverse_map = LinearToLogicalMap(layout, context);
  if (index) {
    absl::StatusOr<int64_t> linear = layout.CheckedLinearIndex(*index);
    if (!linear.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--index: ", linear.status().message(), " of ", description.shape));
    }
    description.index = std::move(index);
    description.linear_index = *linear;
    description.physical_index = layout.PhysicalIndex(*description.index);
  }
  return description;
}

std::string LayoutDescriptionToText(const LayoutDescription& description) {
  std::string text = absl::StrCat(
      "shape: ", description.shape, "\n",                      //
      "elements: ", description.elements, "\n",                //
      "padded elements: ", description.padded_elements, "\n",  //
      "bytes: ", description.bytes, "\n",                      //
      "memory space: ", MemorySpaceName(description.memory_space), "\n",
      "physical shape: [", absl::StrJoin(description.physical_shape, ","),
      "]\n",                                                        //
      "logical to linear map:\n", ToString(description.map), "\n",  //
      "linear to logical map:\n", ToString(description.inverse_map), "\n",
      "xla array size: ", description.xla_array_size_bytes,
      " bytes (first tile and largest split only, as XLA's "
      "ShapeUtil::ArraySize)\n");
  if (description.linear_index) {
    absl::StrAppend(&text, "linear index of ",
                    IndexToString(*description.index), ": ",
                    *description.linear_index, "\n", "physical index of ",
                    IndexToString(*description.index), ": ",
                    IndexToString(*description.physical_index), "\n");
  }
  return text;
}

std::string LayoutDescriptionToJson(const LayoutDescription& description) {
  std::string json = absl::StrCat(
      "{\"shape\": ", JsonQuote(description.shape),
      ", \"elements\": ", description.elements,
      ", \"padded_elements\": ", description.padded_elements,
      ", \"bytes\": ", description.bytes,
      ", \"memory_space\": ", description.memory_space,
      ", \"physical_shape\": [",
      absl::StrJoin(description.physical_shape, ", "),
      "], \"map\": ", IndexingMapToJson(description.map),
      ", \"inverse_map\": ", IndexingMapToJson(description.inverse_map),
      ", \"xla_array_size_bytes\": ", description.xla_array_size_bytes);
  if (description.linear_index) {
    absl::StrAppend(&json, ", \"index\": [",
                    absl::StrJoin(*description.index, ", "),
                    "], \"linear_index\": ", *description.linear_index,
                    ", \"physical_index\": [",
                    absl::StrJoin(*description.physical_index, ", "), "]");
  }
  return json + "}\n";
}

}  // namespace xla_index
