#include "tools/map_commands.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "mlir/IR/MLIRContext.h"
#include "tools/file_io.h"
#include "tools/timing.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

/// Parses the text of the map argument called `label` ("MAP", "MAP2"); errors
/// name it, e.g. "MAP2:3:7: expected ')'".
absl::StatusOr<IndexingMap> ParseMapArgument(absl::string_view text,
                                             absl::string_view label,
                                             mlir::MLIRContext* context) {
  absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, context);
  if (!map.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(label, ":", map.status().message()));
  }
  return map;
}

/// Whether --syntax asks for XLA HEAD's one-line form ("xla-head") rather
/// than the documentation's text format ("documentation", the default).
absl::StatusOr<bool> WantsXlaHeadSyntax(const CommandLine& command_line) {
  std::optional<std::string> syntax = command_line.Get("syntax");
  if (!syntax || *syntax == "documentation") return false;
  if (*syntax == "xla-head") return true;
  return absl::InvalidArgumentError(absl::StrCat(
      "--syntax must be 'documentation' or 'xla-head', got '", *syntax, "'"));
}

/// The map as JSON or text; an UNDEFINED map with a reason prints it in
/// text too ("UNDEFINED (REASON)", operator<<), as --json does. `xla_head`
/// prints the text as ToXlaHeadString (JSON is the same either way).
void PrintMap(const IndexingMap& map, bool json, bool xla_head,
              std::ostream& out) {
  if (json) {
    out << IndexingMapToJson(map) << "\n";
  } else if (xla_head && !map.IsUndefined()) {
    out << ToXlaHeadString(map) << "\n";
  } else {
    out << map << "\n";
  }
}

}  // namespace

absl::Status RunSimplifyCommand(const CommandLine& command_line,
                                std::ostream& out, std::ostream& err) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  XI_ASSIGN_OR_RETURN(int64_t max_bytes, MaxInputBytes(command_line));
  XI_ASSIGN_OR_RETURN(bool xla_head, WantsXlaHeadSyntax(command_line));
  XI_ASSIGN_OR_RETURN(std::string text,
                      ArgumentOrStdin(command_line.positional[0], max_bytes));
  XI_ASSIGN_OR_RETURN(IndexingMap map, ParseMapArgument(text, "MAP", &context));
  IndexingMap simplified = map;
  simplified.Simplify();
  bool json = command_line.Has("json");
  PrintMap(simplified, json, xla_head, out);

  if (command_line.Has("timing")) {
    std::string printed;
    PrintTimings({{"parse", MedianMicroseconds([&] {
                     (void)ParseIndexingMap(text, &context);
                   })},
                  {"simplify", MedianMicroseconds([&] {
                     IndexingMap copy = map;
                     copy.Simplify();
                   })},
                  {"print", MedianMicroseconds([&] {
                     printed = json ? IndexingMapToJson(simplified)
                                    : ToString(simplified);
                   })}},
                 err);
  }
  return absl::OkStatus();
}

absl::Status RunComposeCommand(const CommandLine& command_line,
                               std::ostream& out, std::ostream& err) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  XI_ASSIGN_OR_RETURN(int64_t max_bytes, MaxInputBytes(command_line));
  XI_ASSIGN_OR_RETURN(bool xla_head, WantsXlaHeadSyntax(command_line));
  XI_ASSIGN_OR_RETURN(std::string first_text,
                      ArgumentOrStdin(command_line.positional[0], max_bytes));
  XI_ASSIGN_OR_RETURN(std::string second_text,
                      ArgumentOrStdin(command_line.positional[1], max_bytes));
  XI_ASSIGN_OR_RETURN(IndexingMap first,
                      ParseMapArgument(first_text, "MAP1", &context));
  XI_ASSIGN_OR_RETURN(IndexingMap second,
                      ParseMapArgument(second_text, "MAP2", &context));
  if (!first.IsUndefined() && !second.IsUndefined() &&
      first.GetResultCount() != second.GetDimensionCount()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "MAP1 has ", first.GetResultCount(), " results but MAP2 has ",
        second.GetDimensionCount(), " dimensions; they must be equal"));
  }
  auto compose = [&] {
    IndexingMap composed = ComposeAndSimplifyIndexingMaps(first, second);
    composed.RemoveUnusedSymbols();
    return composed;
  };
  IndexingMap composed = compose();
  bool json = command_line.Has("json");
  PrintMap(composed, json, xla_head, out);

  if (command_line.Has("timing")) {
    std::string printed;
    PrintTimings({{"parse", MedianMicroseconds([&] {
                     (void)ParseIndexingMap(first_text, &context);
                     (void)ParseIndexingMap(second_text, &context);
                   })},
                  {"compose", MedianMicroseconds([&] { (void)compose(); })},
                  {"print", MedianMicroseconds([&] {
                     printed = json ? IndexingMapToJson(composed)
                                    : ToString(composed);
                   })}},
                 err);
  }
  return absl::OkStatus();
}

}  // namespace xla_index
