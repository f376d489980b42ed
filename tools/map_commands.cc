#include "tools/map_commands.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
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

void PrintMap(const IndexingMap& map, bool json, std::ostream& out) {
  out << (json ? IndexingMapToJson(map) : ToString(map)) << "\n";
}

}  // namespace

absl::Status RunSimplifyCommand(const CommandLine& command_line,
                                std::ostream& out, std::ostream& err) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<std::string> text =
      ArgumentOrStdin(command_line.positional[0]);
  if (!text.ok()) return text.status();
  absl::StatusOr<IndexingMap> map = ParseMapArgument(*text, "MAP", &context);
  if (!map.ok()) return map.status();
  IndexingMap simplified = *map;
  simplified.Simplify();
  bool json = command_line.Has("json");
  PrintMap(simplified, json, out);

  if (command_line.Has("timing")) {
    std::string printed;
    PrintTimings({{"parse", MedianMicroseconds([&] {
                     (void)ParseIndexingMap(*text, &context);
                   })},
                  {"simplify", MedianMicroseconds([&] {
                     IndexingMap copy = *map;
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
  absl::StatusOr<std::string> first_text =
      ArgumentOrStdin(command_line.positional[0]);
  if (!first_text.ok()) return first_text.status();
  absl::StatusOr<std::string> second_text =
      ArgumentOrStdin(command_line.positional[1]);
  if (!second_text.ok()) return second_text.status();
  absl::StatusOr<IndexingMap> first =
      ParseMapArgument(*first_text, "MAP1", &context);
  if (!first.ok()) return first.status();
  absl::StatusOr<IndexingMap> second =
      ParseMapArgument(*second_text, "MAP2", &context);
  if (!second.ok()) return second.status();
  if (!first->IsUndefined() && !second->IsUndefined() &&
      first->GetResultCount() != second->GetDimensionCount()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "MAP1 has ", first->GetResultCount(), " results but MAP2 has ",
        second->GetDimensionCount(), " dimensions; they must be equal"));
  }
  auto compose = [&] {
    IndexingMap composed = ComposeAndSimplifyIndexingMaps(*first, *second);
    composed.RemoveUnusedSymbols();
    return composed;
  };
  IndexingMap composed = compose();
  bool json = command_line.Has("json");
  PrintMap(composed, json, out);

  if (command_line.Has("timing")) {
    std::string printed;
    PrintTimings({{"parse", MedianMicroseconds([&] {
                     (void)ParseIndexingMap(*first_text, &context);
                     (void)ParseIndexingMap(*second_text, &context);
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
