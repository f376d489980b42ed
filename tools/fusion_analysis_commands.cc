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

}  // namespace xla_index
