#include "tools/tile_command.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "base/status_macros.h"
#include "hlo/module.h"
#include "hlo/split_input.h"
#include "mlir/IR/MLIRContext.h"
#include "tools/file_io.h"
#include "tools/hlo_input.h"
#include "tools/instruction_flags.h"
#include "xla_index/analysis/symbolic_tile.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

// Whether `text` is an indexing map rather than HLO: HLO never starts with
// '(' (it starts with HloModule, a name, or ENTRY).
bool LooksLikeMap(absl::string_view text) {
  absl::string_view stripped = absl::StripLeadingAsciiWhitespace(text);
  return absl::StartsWith(stripped, "(") ||
         absl::StartsWith(stripped, "UNDEFINED") ||
         absl::StartsWith(stripped, "KNOWN EMPTY");
}

// The ranks of `instruction`'s outputs (tuple elements for a tuple).
std::vector<int64_t> OutputRanks(const HloInstruction& instruction) {
  const Shape& shape = instruction.shape();
  std::vector<int64_t> ranks;
  if (!shape.IsTuple()) {
    if (shape.IsArray()) ranks.push_back(shape.rank());
    return ranks;
  }
  for (const Shape& element : shape.tuple_shapes()) {
    if (element.IsArray()) ranks.push_back(element.rank());
  }
  return ranks;
}

absl::StatusOr<std::vector<int64_t>> TileSizesFlag(
    const CommandLine& command_line) {
  std::optional<std::string> tile = command_line.Get("tile");
  if (!tile.has_value()) {
    return absl::InvalidArgumentError(
        "--tile=SIZES is required, e.g. 8,128 (--tile= for a rank-0 output)");
  }
  absl::StatusOr<std::vector<int64_t>> sizes = ParseTileSizes(*tile);
  if (!sizes.ok()) return ForFlag("tile", sizes.status());
  return sizes;
}

TileOptions Options(const CommandLine& command_line) {
  TileOptions options;
  options.strict = command_line.Has("strict");
  return options;
}

void Print(const CommandLine& command_line, const TileReport& report,
           std::ostream& out) {
  out << (command_line.Has("json") ? TileReportToJson(report) + "\n"
                                   : TileReportToText(report));
}

absl::Status RunTileOnMap(const CommandLine& command_line,
                          absl::string_view text, std::ostream& out) {
  XI_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, TileSizesFlag(command_line));
  if (command_line.Has("instruction") || command_line.Has("module")) {
    return absl::InvalidArgumentError(
        "--instruction and --module name parts of HLO; MAP is an indexing "
        "map");
  }
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context);
  if (!map.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("MAP:", map.status().message()));
  }
  if (map->GetDimensionCount() != static_cast<int64_t>(sizes.size())) {
    return absl::InvalidArgumentError(
        absl::StrCat("--tile: ", sizes.size(), " tile sizes for a map of ",
                     map->GetDimensionCount(), " dimensions"));
  }
  absl::StatusOr<TileReport> report =
      AnalyzeMapTiling(*map, sizes, Options(command_line));
  if (!report.ok()) {
    return absl::Status(report.status().code(),
                        absl::StrCat("MAP: ", report.status().message()));
  }
  Print(command_line, *report, out);
  return absl::OkStatus();
}

}  // namespace

absl::Status RunTileOnHlo(const CommandLine& command_line,
                          const LoadedHlo& input, std::ostream& out,
                          std::ostream& err) {
  XI_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, TileSizesFlag(command_line));
  XI_ASSIGN_OR_RETURN(const HloInstruction* instruction,
                      AnalyzedInstruction(*input.module, command_line));
  // A wrong number of sizes is the flag's fault: say so before analyzing.
  for (int64_t rank : OutputRanks(*instruction)) {
    if (rank != static_cast<int64_t>(sizes.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("--tile: ", sizes.size(), " tile sizes for an output ",
                       "of rank ", rank));
    }
  }
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  XI_ASSIGN_OR_RETURN(
      TileReport report,
      AnalyzeTiling(*instruction, sizes, &context, Options(command_line)));
  Print(command_line, report, out);
  return absl::OkStatus();
}

absl::Status RunTileCommand(const CommandLine& command_line, std::ostream& out,
                            std::ostream& err) {
  const std::string& argument = command_line.positional[0];
  // A map written on the command line.
  if (LooksLikeMap(argument)) return RunTileOnMap(command_line, argument, out);
  XI_ASSIGN_OR_RETURN(int64_t max_bytes, MaxInputBytes(command_line));
  HloFile file;
  file.path = argument;
  XI_ASSIGN_OR_RETURN(file.text, ReadInputFile(argument, max_bytes));
  if (LooksLikeMap(file.text))
    return RunTileOnMap(command_line, file.text, out);
  file.parts = SplitInputFile(file.text);
  return RunOnHloFile("tile", command_line, file, RunTileOnHlo, out, err);
}

}  // namespace xla_index
