#include "tools/exact_commands.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "mlir/IR/MLIRContext.h"
#include "tools/command_line.h"
#include "tools/file_io.h"
#include "tools/timing.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/core/presburger_relation.h"

namespace xla_index {
namespace {

// Exit statuses of `equal` and `empty`, as diff and cmp use them.
constexpr int kYes = 0;
constexpr int kNo = 1;
constexpr int kTrouble = 2;

/// The map argument `argument` ("-" is standard input); errors name
/// `label`, e.g. "MAP2:3:7: expected ')'".
absl::StatusOr<IndexingMap> ReadMapArgument(const std::string& argument,
                                            absl::string_view label,
                                            mlir::MLIRContext* context) {
  XI_ASSIGN_OR_RETURN(std::string text, ArgumentOrStdin(argument));
  absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, context);
  if (!map.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(label, ":", map.status().message()));
  }
  return map;
}

/// "d0 = 1, d1 = 2" for prefix "d".
std::string NamedValues(absl::string_view prefix,
                        const std::vector<int64_t>& values) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < values.size(); ++i) {
    parts.push_back(absl::StrCat(prefix, i, " = ", values[i]));
  }
  return absl::StrJoin(parts, ", ");
}

/// The text lines of a point: dims, symbols (when the map has any) and
/// results, each indented.
std::string PointText(const RelationPoint& point,
                      absl::string_view symbols_label) {
  std::string text = absl::StrCat("  ", NamedValues("d", point.dims), "\n");
  if (!point.symbols.empty()) {
    absl::StrAppend(&text, "  ", symbols_label, ": ",
                    NamedValues("s", point.symbols), "\n");
  }
  absl::StrAppend(&text, "  results: (", absl::StrJoin(point.results, ", "),
                  ")\n");
  return text;
}

/// `"dims": [..], "symbols": [..], "results": [..]`.
std::string PointJson(const RelationPoint& point) {
  return absl::StrCat("\"dims\": [", absl::StrJoin(point.dims, ", "),
                      "], \"symbols\": [", absl::StrJoin(point.symbols, ", "),
                      "], \"results\": [", absl::StrJoin(point.results, ", "),
                      "]");
}

/// The answer of `equal` on `out`; returns the exit status.
int PrintEquality(const std::optional<MapDifference>& difference, bool json,
                  std::ostream& out) {
  if (!difference.has_value()) {
    out << (json ? "{\"equal\": true, \"witness\": null}" : "equal") << "\n";
    return kYes;
  }
  std::string in = difference->in_map == 0 ? "MAP1" : "MAP2";
  std::string not_in = difference->in_map == 0 ? "MAP2" : "MAP1";
  if (json) {
    out << "{\"equal\": false, \"witness\": {\"in\": \"" << in
        << "\", \"not_in\": \"" << not_in << "\", "
        << PointJson(difference->point) << "}}\n";
  } else {
    out << "not equal: " << in << " relates this pair and " << not_in
        << " does not\n"
        << PointText(difference->point, absl::StrCat("symbols of ", in));
  }
  return kNo;
}

/// The answer of `empty` on `out`; returns the exit status.
int PrintEmptiness(const std::optional<RelationPoint>& point, bool json,
                   std::ostream& out) {
  if (!point.has_value()) {
    out << (json ? "{\"empty\": true, \"witness\": null}" : "empty") << "\n";
    return kYes;
  }
  if (json) {
    out << "{\"empty\": false, \"witness\": {" << PointJson(*point) << "}}\n";
  } else {
    out << "not empty: this point meets every bound and constraint\n"
        << PointText(*point, "symbols");
  }
  return kNo;
}

absl::StatusOr<int> RunEqual(const CommandLine& command_line, std::ostream& out,
                             std::ostream& err) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  XI_ASSIGN_OR_RETURN(
      IndexingMap first,
      ReadMapArgument(command_line.positional[0], "MAP1", &context));
  XI_ASSIGN_OR_RETURN(
      IndexingMap second,
      ReadMapArgument(command_line.positional[1], "MAP2", &context));
  XI_ASSIGN_OR_RETURN(std::optional<MapDifference> difference,
                      FindDifference(first, second));
  int status = PrintEquality(difference, command_line.Has("json"), out);
  if (command_line.Has("timing")) {
    PrintTimings({{"equal", MedianMicroseconds(
                                [&] { (void)FindDifference(first, second); })}},
                 err);
  }
  return status;
}

absl::StatusOr<int> RunEmpty(const CommandLine& command_line, std::ostream& out,
                             std::ostream& err) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  XI_ASSIGN_OR_RETURN(
      IndexingMap map,
      ReadMapArgument(command_line.positional[0], "MAP", &context));
  XI_ASSIGN_OR_RETURN(std::optional<RelationPoint> point,
                      FindRelationPoint(map));
  int status = PrintEmptiness(point, command_line.Has("json"), out);
  if (command_line.Has("timing")) {
    PrintTimings(
        {{"empty", MedianMicroseconds([&] { (void)FindRelationPoint(map); })}},
        err);
  }
  return status;
}

}  // namespace

bool IsExactCommand(absl::string_view name) {
  return name == "equal" || name == "empty";
}

int RunExactCommand(absl::string_view name, absl::Span<const std::string> args,
                    std::ostream& out, std::ostream& err) {
  bool equal = name == "equal";
  absl::StatusOr<CommandLine> command_line =
      ParseCommandLine(args, {"json", "timing"});
  absl::StatusOr<int> answer = kTrouble;
  if (!command_line.ok()) {
    answer = command_line.status();
  } else {
    if (command_line->positional.size() != (equal ? 2u : 1u)) {
      answer = absl::InvalidArgumentError(
          equal ? "usage: xla-index equal MAP1 MAP2 [--json] [--timing]"
                : "usage: xla-index empty MAP [--json] [--timing]");
    } else {
      answer = equal ? RunEqual(*command_line, out, err)
                     : RunEmpty(*command_line, out, err);
    }
  }
  out.flush();
  if (!answer.ok()) {
    err << "xla-index " << name << ": " << answer.status().message() << "\n";
    return kTrouble;
  }
  return *answer;
}

}  // namespace xla_index
