#include "tools/fusion_analysis_commands.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "hlo/module.h"
#include "mlir/IR/MLIRContext.h"
#include "tools/file_io.h"
#include "tools/hlo_input.h"
#include "xla_index/analysis/coalescing.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/analysis/fusion_utilization.h"
#include "xla_index/analysis/symbolic_tile.h"

namespace xla_index {
namespace {

// The analyzed instruction: --instruction=NAME (or COMPUTATION.NAME), else
// the entry computation's root.
absl::StatusOr<const HloInstruction*> AnalyzedInstruction(
    const HloModule& module, const CommandLine& command_line) {
  if (std::optional<std::string> name = command_line.Get("instruction")) {
    absl::StatusOr<const HloInstruction*> found =
        FindInstruction(module, *name);
    if (!found.ok()) {
      return absl::Status(
          found.status().code(),
          absl::StrCat("--instruction: ", found.status().message()));
    }
    return *found;
  }
  absl::StatusOr<const HloInstruction*> root = EntryRoot(module);
  if (!root.ok()) {
    return absl::Status(root.status().code(),
                        absl::StrCat(command_line.positional[0], ": ",
                                     root.status().message()));
  }
  return *root;
}

// `status` with its message prefixed by "--FLAG: ".
absl::Status ForFlag(absl::string_view flag, const absl::Status& status) {
  return absl::Status(status.code(),
                      absl::StrCat("--", flag, ": ", status.message()));
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

}  // namespace

absl::Status RunCoalescingCommand(const CommandLine& command_line,
                                  const LoadedHlo& input, std::ostream& out,
                                  std::ostream& err) {
  const HloModule* module = input.module.get();
  XI_ASSIGN_OR_RETURN(const HloInstruction* instruction,
                      AnalyzedInstruction(*module, command_line));
  CoalescingOptions options;
  XI_ASSIGN_OR_RETURN(
      options.threads_per_block,
      command_line.GetInteger("block", options.threads_per_block));
  XI_ASSIGN_OR_RETURN(options.unroll,
                      command_line.GetInteger("unroll", options.unroll));
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  XI_ASSIGN_OR_RETURN(CoalescingReport report,
                      AnalyzeCoalescing(*instruction, options, &context));
  out << (command_line.Has("json") ? CoalescingReportToJson(report)
                                   : CoalescingReportToText(report));
  return absl::OkStatus();
}

absl::Status RunUtilizationCommand(const CommandLine& command_line,
                                   const LoadedHlo& input, std::ostream& out,
                                   std::ostream& err) {
  const HloModule* module = input.module.get();
  XI_ASSIGN_OR_RETURN(const HloInstruction* instruction,
                      AnalyzedInstruction(*module, command_line));
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  XI_ASSIGN_OR_RETURN(UtilizationReport report,
                      AnalyzeUtilization(*instruction, &context));
  out << (command_line.Has("json") ? UtilizationReportToJson(report)
                                   : UtilizationReportToText(report));
  return absl::OkStatus();
}

absl::Status RunTileCommand(const CommandLine& command_line,
                            const LoadedHlo& input, std::ostream& out,
                            std::ostream& err) {
  const HloModule* module = input.module.get();
  std::optional<std::string> tile = command_line.Get("tile");
  if (!tile.has_value()) {
    return absl::InvalidArgumentError("--tile=SIZES is required, e.g. 8,128");
  }
  absl::StatusOr<std::vector<int64_t>> sizes = ParseTileSizes(*tile);
  if (!sizes.ok()) return ForFlag("tile", sizes.status());
  XI_ASSIGN_OR_RETURN(const HloInstruction* instruction,
                      AnalyzedInstruction(*module, command_line));
  // A wrong number of sizes is the flag's fault: say so before analyzing.
  for (int64_t rank : OutputRanks(*instruction)) {
    if (rank != static_cast<int64_t>(sizes->size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("--tile: ", sizes->size(), " tile sizes for an output ",
                       "of rank ", rank));
    }
  }
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  XI_ASSIGN_OR_RETURN(TileReport report,
                      AnalyzeTiling(*instruction, *sizes, &context));
  out << (command_line.Has("json") ? TileReportToJson(report)
                                   : TileReportToText(report));
  return absl::OkStatus();
}

}  // namespace xla_index
