#include "sparse/sparse_report.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "sparse/affine_level_maps.h"
#include "sparse/coo_text.h"
#include "sparse/encoding_indexing_maps.h"
#include "sparse/encoding_parser.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index::sparse {
namespace {

/// The shortest decimal text that reads back as the same double.
std::string FormatValue(double value) {
  char buffer[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

std::string JoinValues(const std::vector<double>& values,
                       absl::string_view separator) {
  return absl::StrJoin(values, separator, [](std::string* out, double v) {
    out->append(FormatValue(v));
  });
}

/// "positions 0 3 0 0, coordinates 0 3 0 0, values 12; 144 bytes".
std::string SizesText(const StorageSizes& sizes) {
  return absl::StrCat("positions ", absl::StrJoin(sizes.positions, " "),
                      ", coordinates ", absl::StrJoin(sizes.coordinates, " "),
                      ", values ", sizes.values, "; ", sizes.bytes, " bytes");
}

std::string SizesJson(const StorageSizes& sizes) {
  return absl::StrCat(
      "{\"positions\": [", absl::StrJoin(sizes.positions, ", "),
      "], \"coordinates\": [", absl::StrJoin(sizes.coordinates, ", "),
      "], \"values\": ", sizes.values, ", \"bytes\": ", sizes.bytes, "}");
}

std::string WidthText(int64_t width) {
  return width == 0 ? "0 (native, 64 bits)" : absl::StrCat(width, " bits");
}

}  // namespace

absl::StatusOr<SparseReport> BuildSparseReport(
    absl::string_view encoding_text, absl::string_view shape_text,
    const std::optional<std::string>& coo_text, absl::string_view coo_file_name,
    mlir::MLIRContext* context) {
  XI_ASSIGN_OR_RETURN(SparseEncoding encoding,
                      ParseSparseEncoding(encoding_text, context));
  SparseReport report;
  report.encoding = std::move(encoding);
  if (!shape_text.empty()) {
    XI_ASSIGN_OR_RETURN(std::vector<int64_t> shape, ParseShape(shape_text));
    if (static_cast<int64_t>(shape.size()) != report.encoding.dim_rank()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--shape=", shape_text, " has rank ", shape.size(),
          " but the encoding has ", report.encoding.dim_rank(), " dimensions"));
    }
    report.shape = shape;
  }
  std::optional<CooTensor> coo;
  if (coo_text.has_value()) {
    XI_ASSIGN_OR_RETURN(
        CooTensor parsed,
        ParseCooText(*coo_text, report.encoding.dim_rank(),
                     report.shape.value_or(std::vector<int64_t>()),
                     coo_file_name));
    coo = std::move(parsed);
    report.shape = coo->dim_sizes;
    report.nonzeros = coo->nnz();
  }
  if (report.shape.has_value() && report.encoding.symbol_count() == 0) {
    XI_ASSIGN_OR_RETURN(std::vector<int64_t> sizes,
                        LevelSizes(report.encoding.dim_to_lvl, *report.shape));
    report.level_sizes = sizes;
  }
  XI_ASSIGN_OR_RETURN(IndexingMap dim_to_lvl,
                      DimToLevelIndexingMap(report.encoding, report.shape));
  report.dim_to_lvl = std::move(dim_to_lvl);
  XI_ASSIGN_OR_RETURN(IndexingMap lvl_to_dim,
                      LevelToDimIndexingMap(report.encoding, report.shape));
  report.lvl_to_dim = std::move(lvl_to_dim);
  if (coo.has_value()) {
    absl::StatusOr<SparseStorage> storage =
        AssembleFromCoo(report.encoding, *coo);
    if (!storage.ok()) {
      return absl::Status(
          storage.status().code(),
          absl::StrCat(coo_file_name, ": ", storage.status().message()));
    }
    report.storage = *std::move(storage);
  }
  return report;
}

std::string SparseReportToText(const SparseReport& report) {
  const SparseEncoding& encoding = report.encoding;
  std::string text =
      absl::StrCat("encoding: ", PrintSparseEncoding(encoding), "\n");
  for (const std::string& note : encoding.notes) {
    absl::StrAppend(&text, "note: ", note, "\n");
  }
  std::vector<std::string> types;
  for (const LevelType& type : encoding.level_types) {
    types.push_back(type.ToString());
  }
  absl::StrAppend(&text, "dim_rank: ", encoding.dim_rank(), "\n",
                  "lvl_rank: ", encoding.lvl_rank(), "\n",
                  "level_types: ", absl::StrJoin(types, ", "), "\n",
                  "pos_width: ", WidthText(encoding.pos_width), "\n",
                  "crd_width: ", WidthText(encoding.crd_width), "\n");
  if (report.shape.has_value()) {
    absl::StrAppend(&text, "shape: ", absl::StrJoin(*report.shape, "x"), "\n");
  }
  if (report.level_sizes.has_value()) {
    absl::StrAppend(
        &text, "level_sizes: ", absl::StrJoin(*report.level_sizes, "x"), "\n");
  }
  absl::StrAppend(&text, "dim_to_lvl:\n", ToString(report.dim_to_lvl), "\n",
                  "lvl_to_dim:\n", ToString(report.lvl_to_dim), "\n");
  if (report.level_sizes.has_value()) {
    absl::StrAppend(&text, "largest storage (no zero element): ",
                    SizesText(MaxStorageSizes(encoding, *report.level_sizes)),
                    " (8-byte values)\n");
  }
  if (!report.storage.has_value()) return text;
  const SparseStorage& storage = *report.storage;
  absl::StrAppend(&text, "storage of ", report.nonzeros, " nonzeros:\n");
  for (int64_t l = 0; l < encoding.lvl_rank(); ++l) {
    const LevelStorage& level = storage.levels[l];
    if (encoding.level_types[l].HasPositions()) {
      absl::StrAppend(&text, "positions[", l,
                      "] : ", absl::StrJoin(level.positions.ToVector(), " "),
                      "\n");
    }
    if (encoding.level_types[l].HasCoordinates()) {
      absl::StrAppend(&text, "coordinates[", l,
                      "] : ", absl::StrJoin(level.coordinates.ToVector(), " "),
                      "\n");
    }
  }
  absl::StrAppend(&text, "values : ", JoinValues(storage.values, " "), "\n");
  absl::StrAppend(&text,
                  "storage sizes: ", SizesText(SizesOf(encoding, storage)),
                  " (8-byte values)\n");
  return text;
}

std::string SparseReportToJson(const SparseReport& report) {
  const SparseEncoding& encoding = report.encoding;
  std::vector<std::string> types, notes;
  for (const LevelType& type : encoding.level_types) {
    types.push_back(JsonQuote(type.ToString()));
  }
  for (const std::string& note : encoding.notes) {
    notes.push_back(JsonQuote(note));
  }
  auto int_list = [](const std::optional<std::vector<int64_t>>& values) {
    return values.has_value()
               ? absl::StrCat("[", absl::StrJoin(*values, ", "), "]")
               : std::string("null");
  };
  std::string json = absl::StrCat(
      "{\"encoding\": ", JsonQuote(PrintSparseEncoding(encoding)),
      ", \"dim_rank\": ", encoding.dim_rank(),
      ", \"lvl_rank\": ", encoding.lvl_rank(), ", \"level_types\": [",
      absl::StrJoin(types, ", "),
      "], \"dim_to_lvl\": ", IndexingMapToJson(report.dim_to_lvl),
      ", \"lvl_to_dim\": ",
      report.lvl_to_dim.IsUndefined() ? std::string("null")
                                      : IndexingMapToJson(report.lvl_to_dim),
      ", \"pos_width\": ", encoding.pos_width,
      ", \"crd_width\": ", encoding.crd_width,
      ", \"shape\": ", int_list(report.shape),
      ", \"level_sizes\": ", int_list(report.level_sizes),
      ", \"max_storage\": ",
      report.level_sizes.has_value()
          ? SizesJson(MaxStorageSizes(encoding, *report.level_sizes))
          : std::string("null"),
      ", \"notes\": [", absl::StrJoin(notes, ", "), "]");
  if (report.storage.has_value()) {
    const SparseStorage& storage = *report.storage;
    std::vector<std::string> levels;
    for (const LevelStorage& level : storage.levels) {
      levels.push_back(absl::StrCat(
          "{\"positions\": [", absl::StrJoin(level.positions.ToVector(), ", "),
          "], \"coordinates\": [",
          absl::StrJoin(level.coordinates.ToVector(), ", "), "]}"));
    }
    absl::StrAppend(&json, ", \"levels\": [", absl::StrJoin(levels, ", "),
                    "], \"values\": [", JoinValues(storage.values, ", "),
                    "], \"storage\": ", SizesJson(SizesOf(encoding, storage)));
  }
  json += "}";
  return json;
}

}  // namespace xla_index::sparse
