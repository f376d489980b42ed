#include "tools/analyze_command.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "base/status_macros.h"
#include "hlo/module.h"
#include "mlir/IR/MLIRContext.h"
#include "tools/file_io.h"
#include "tools/hlo_input.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/indexing_analysis.h"
#include "xla_index/physical_layout_indexing.h"

namespace xla_index {
namespace {

// The MAP object of `map`; with a replica-id map, that map is added to it
// under "replica_id": {..., "replica_id": MAP}.
std::string MapWithReplicaToJson(const IndexingMap& map,
                                 const std::optional<IndexingMap>& replica) {
  std::string json = IndexingMapToJson(map);
  if (replica.has_value() && !json.empty() && json.back() == '}') {
    json.pop_back();
    absl::StrAppend(&json, ", \"replica_id\": ", IndexingMapToJson(*replica),
                    "}");
  }
  return json;
}

std::string ToJson(const HloInstruction& instruction,
                   IndexingDirection direction,
                   const HloInstructionIndexing& indexing) {
  std::string json = absl::StrCat(
      "{\"instruction\": ", JsonQuote(instruction.name()),
      ", \"direction\": ", JsonQuote(IndexingDirectionName(direction)),
      ", \"operands\": [");
  for (size_t k = 0; k < indexing.indexing_maps.size(); ++k) {
    absl::StrAppend(&json, k ? ", " : "", "{\"operand\": ", k, ", \"maps\": [");
    const IndexingMapSet& maps = indexing.indexing_maps[k];
    for (int64_t i = 0; i < maps.size(); ++i) {
      absl::StrAppend(&json, i ? ", " : "",
                      MapWithReplicaToJson(maps[i], maps.replica_map(i)));
    }
    absl::StrAppend(&json, "]}");
  }
  absl::StrAppend(&json, "]}");
  return json;
}

// --instruction=NAME: the entry computation's NAME first; else the one
// computation that has NAME, or COMPUTATION.NAME (FindInstruction). A NAME
// in several other computations is refused, listing them, rather than
// picking one silently.
absl::StatusOr<const HloInstruction*> ResolveInstruction(
    const HloModule& module, absl::string_view name) {
  const HloComputation* entry = module.entry_computation();
  if (entry != nullptr && entry->GetInstruction(name) != nullptr) {
    return entry->GetInstruction(name);
  }
  std::vector<std::string> holders;
  for (const auto& computation : module.computations()) {
    if (computation->GetInstruction(name) != nullptr) {
      holders.push_back(computation->name());
    }
  }
  if (holders.size() > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", name,
        "' is not in the entry computation and is ambiguous: ", "computations ",
        absl::StrJoin(holders, ", "), " have it; write COMPUTATION.", name));
  }
  return FindInstruction(module, name);
}

}  // namespace

absl::Status RunAnalyzeCommand(const CommandLine& command_line,
                               const LoadedHlo& loaded, std::ostream& out,
                               std::ostream& err) {
  const std::string& path = loaded.path;
  IndexingDirection direction = IndexingDirection::kOutputToInput;
  if (std::optional<std::string> name = command_line.Get("direction")) {
    absl::StatusOr<IndexingDirection> parsed = ParseIndexingDirection(*name);
    if (!parsed.ok()) {
      return absl::Status(
          parsed.status().code(),
          absl::StrCat("--direction: ", parsed.status().message()));
    }
    direction = *parsed;
  }
  const HloModule* module = loaded.module.get();
  const HloInstruction* instruction = nullptr;
  if (std::optional<std::string> name = command_line.Get("instruction")) {
    absl::StatusOr<const HloInstruction*> found =
        ResolveInstruction(*module, *name);
    if (!found.ok()) {
      return absl::Status(
          found.status().code(),
          absl::StrCat("--instruction: ", found.status().message()));
    }
    instruction = *found;
  } else {
    absl::StatusOr<const HloInstruction*> root = EntryRoot(*module);
    if (!root.ok()) {
      return absl::Status(root.status().code(),
                          absl::StrCat(path, ": ", root.status().message()));
    }
    instruction = *root;
  }

  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  // --instruction=NAME in a full module gets that instruction's own operand
  // maps, as XLA's ComputeOutputToInputIndexing (milliseconds on any model).
  // The root of a module, a snippet, or --compose: the composition back to
  // the computation's parameters (indexing_analysis.h), bounded in the
  // number of distinct maps.
  const bool own_operands =
      loaded.is_full_module && command_line.Has("instruction");
  AnalyzeOptions options;
  options.compose = !own_operands || command_line.Has("compose");
  absl::StatusOr<AnalyzedIndexing> result =
      AnalyzeIndexing(*instruction, direction, options, &context);
  if (!result.ok()) {
    return absl::Status(
        result.status().code(),
        absl::StrCat(path, ": ", result.status().message(),
                     loaded.is_full_module
                         ? "; analyze one instruction (--instruction=NAME) "
                           "without --compose"
                         : "; analyze a smaller snippet"));
  }
  if (command_line.Has("physical-layout")) {
    // Between the physical shapes of the output and of the operands (or
    // the computation's parameters), as XLA's use_physical_layout.
    absl::StatusOr<HloInstructionIndexing> physical =
        AnalyzedIndexingWithPhysicalLayouts(*instruction, *result, direction,
                                            &context);
    if (!physical.ok()) {
      return absl::Status(
          physical.status().code(),
          absl::StrCat(path, ": ", physical.status().message()));
    }
    result->indexing = *std::move(physical);
  }
  const HloInstructionIndexing& indexing = result->indexing;
  if (command_line.Has("json")) {
    out << ToJson(*instruction, direction, indexing) << "\n";
  } else {
    // Ends with a newline; an UNDEFINED map says why it has none.
    out << indexing.ToString("operand id", /*undefined_reasons=*/true);
  }
  return absl::OkStatus();
}

}  // namespace xla_index
