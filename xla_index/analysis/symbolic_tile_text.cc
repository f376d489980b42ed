// The text and JSON forms of a TileReport (symbolic_tile.h).

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "xla_index/analysis/symbolic_tile.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {

namespace {

// XLA's constraints on the tile sizes, one line.
std::string XlaText(const PropagatedTile& tile) {
  if (!tile.xla.derivable) {
    return absl::StrCat("XLA derives no tile: ", tile.xla.reason);
  }
  return absl::StrCat(
      "XLA tile-size constraints: ", tile.xla.constraints.ToString(),
      tile.xla_satisfied ? " (met by the sizes)" : " (not met by the sizes)");
}

std::string TileToText(const PropagatedTile& tile, const std::string& indent) {
  if (!tile.tileable) {
    return absl::StrCat(
        indent, "cannot tile: ",
        absl::StrReplaceAll(tile.reason, {{"\n", "\n" + indent + "  "}}), "\n",
        indent, XlaText(tile), "\n");
  }
  std::string text = absl::StrCat(
      indent, "offsets ", AffineMapToString(tile.tile.offsets.GetAffineMap()),
      ", sizes (", absl::StrJoin(tile.tile.sizes, ", "), "), strides (",
      absl::StrJoin(tile.tile.strides, ", "), ")\n");
  if (!tile.constraints.empty()) {
    // With masks, the ids are those of the tiles keeping some element.
    absl::StrAppend(&text, indent,
                    tile.masks.empty() ? "exact for " : "read by the tiles ",
                    absl::StrJoin(tile.constraints, ", "), "\n");
  }
  for (const TileMask& mask : tile.masks) {
    absl::StrAppend(&text, indent, "masked: keeps dim ", mask.dimension, " in ",
                    mask.kept.ToString(), " (the tile runs past an edge)\n");
  }
  absl::StrAppend(&text, indent, XlaText(tile), "\n");
  return text;
}

std::string TileToJson(const PropagatedTile& tile) {
  std::vector<std::string> constraints;
  for (const std::string& c : tile.constraints) {
    constraints.push_back(JsonQuote(c));
  }
  std::vector<std::string> masks;
  for (const TileMask& mask : tile.masks) {
    masks.push_back(absl::StrCat("{\"dimension\": ", mask.dimension,
                                 ", \"lo\": ", mask.kept.lower,
                                 ", \"hi\": ", mask.kept.upper, "}"));
  }
  return absl::StrCat(
      "{\"tileable\": ", tile.tileable ? "true" : "false",
      ", \"reason\": ", JsonQuote(tile.reason), ", \"offsets\": ",
      tile.tileable ? IndexingMapToJson(tile.tile.offsets) : "null",
      ", \"sizes\": [", absl::StrJoin(tile.tile.sizes, ", "),
      "], \"strides\": [", absl::StrJoin(tile.tile.strides, ", "),
      "], \"constraints\": [", absl::StrJoin(constraints, ", "),
      "], \"needs_masking\": ", tile.masks.empty() ? "false" : "true",
      ", \"masks\": [", absl::StrJoin(masks, ", "),
      "], \"xla\": {\"derivable\": ", tile.xla.derivable ? "true" : "false",
      ", \"reason\": ", JsonQuote(tile.xla.reason),
      ", \"constraints\": ", tile.xla.constraints.ToJson(),
      ", \"satisfied\": ", tile.xla_satisfied ? "true" : "false", "}}");
}

// A shape as printed: for a map given as such, only its index ranges
// ("[16,32]") or, for the operand, its rank.
std::string ShapeText(const Shape& shape, bool from_map, bool operand) {
  if (!from_map) return shape.ToString();
  if (operand) return absl::StrCat("rank ", shape.rank());
  return absl::StrCat("indices [", absl::StrJoin(shape.dimensions(), ","), "]");
}

std::string TensorTilesToJson(const TensorTiles& t, bool with_operand,
                              bool from_map) {
  std::string json = "{";
  if (with_operand) absl::StrAppend(&json, "\"operand\": ", t.operand, ", ");
  absl::StrAppend(&json, "\"name\": ", JsonQuote(t.name), ", \"shape\": ",
                  JsonQuote(ShapeText(t.shape, from_map, with_operand)),
                  ", \"tiles\": [");
  for (size_t i = 0; i < t.tiles.size(); ++i) {
    absl::StrAppend(&json, i ? ", " : "", TileToJson(t.tiles[i]));
  }
  absl::StrAppend(&json, "]}");
  return json;
}

}  // namespace

std::string TileReportToText(const TileReport& report) {
  std::string text;
  if (report.output_tiles.size() > 1) {
    // A tuple root: each output's own tile, by output number.
    std::vector<std::string> shapes;
    for (const Shape& shape : report.output_shapes) {
      shapes.push_back(shape.ToString());
    }
    text = absl::StrCat("root: ", report.root_name,
                        "\noutputs: ", absl::StrJoin(shapes, ", "), ", tile (",
                        absl::StrJoin(report.tile_sizes, ", "), ")\n");
    for (size_t j = 0; j < report.output_tiles.size(); ++j) {
      absl::StrAppend(&text, "  output ", j, ":\n",
                      TileToText(report.output_tiles[j], "    "));
    }
  } else {
    text = absl::StrCat("root: ", report.root_name, "\noutput: ",
                        ShapeText(report.output_shape, report.from_map, false),
                        ", tile (", absl::StrJoin(report.tile_sizes, ", "),
                        ")\n", TileToText(report.output_tile, "  "));
  }
  for (const TensorTiles& t : report.operands) {
    absl::StrAppend(&text, "operand ", t.operand, " (", t.name, ", ",
                    ShapeText(t.shape, report.from_map, true), "):\n");
    if (t.tiles.empty()) absl::StrAppend(&text, "  not read\n");
    for (const PropagatedTile& tile : t.tiles) {
      absl::StrAppend(&text, TileToText(tile, "  "));
    }
  }
  if (!report.from_map) absl::StrAppend(&text, "instructions:\n");
  for (const TensorTiles& t : report.instructions) {
    absl::StrAppend(&text, "  ", t.name, " (", t.shape.ToString(), "):\n");
    for (const PropagatedTile& tile : t.tiles) {
      absl::StrAppend(&text, TileToText(tile, "    "));
    }
  }
  absl::StrAppend(&text, report.tileable ? "tileable\n" : "cannot tile\n");
  return text;
}

std::string TileReportToJson(const TileReport& report) {
  std::string json = absl::StrCat(
      "{\"root\": ", JsonQuote(report.root_name), ", \"output_shape\": ",
      JsonQuote(ShapeText(report.output_shape, report.from_map, false)),
      ", \"tile_sizes\": [", absl::StrJoin(report.tile_sizes, ", "),
      "], \"tileable\": ", report.tileable ? "true" : "false",
      ", \"output_tile\": ", TileToJson(report.output_tile),
      ", \"output_shapes\": [");
  for (size_t j = 0; j < report.output_shapes.size(); ++j) {
    absl::StrAppend(
        &json, j ? ", " : "",
        JsonQuote(ShapeText(report.output_shapes[j], report.from_map, false)));
  }
  absl::StrAppend(&json, "], \"output_tiles\": [");
  for (size_t j = 0; j < report.output_tiles.size(); ++j) {
    absl::StrAppend(&json, j ? ", " : "", TileToJson(report.output_tiles[j]));
  }
  absl::StrAppend(&json, "], \"operands\": [");
  for (size_t i = 0; i < report.operands.size(); ++i) {
    absl::StrAppend(
        &json, i ? ", " : "",
        TensorTilesToJson(report.operands[i], true, report.from_map));
  }
  absl::StrAppend(&json, "], \"instructions\": [");
  for (size_t i = 0; i < report.instructions.size(); ++i) {
    absl::StrAppend(
        &json, i ? ", " : "",
        TensorTilesToJson(report.instructions[i], false, report.from_map));
  }
  absl::StrAppend(&json, "]}");
  return json;
}

}  // namespace xla_index
