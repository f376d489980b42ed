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
#include "xla_index/analysis/gpu_device.h"
#include "xla_index/analysis/read_coalesced_heuristic.h"

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

// The instruction named by --FLAG, with the flag in any error.
absl::StatusOr<const HloInstruction*> NamedInstruction(
    const HloModule& module, const CommandLine& command_line,
    absl::string_view flag) {
  std::optional<std::string> name = command_line.Get(std::string(flag));
  if (!name.has_value() || name->empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, "=NAME needs an instruction name"));
  }
  absl::StatusOr<const HloInstruction*> found = FindInstruction(module, *name);
  if (!found.ok()) return ForFlag(flag, found.status());
  return *found;
}

// `coalescing FILE --producer=NAME [--consumer=NAME]`: XLA's
// IsReadCoalescedHeuristic for the producer (fused into the consumer).
absl::Status RunProducerConsumerQuery(const CommandLine& command_line,
                                      const HloModule& module,
                                      const GpuDeviceDescription& device,
                                      mlir::MLIRContext* context,
                                      std::ostream& out) {
  XI_ASSIGN_OR_RETURN(const HloInstruction* producer,
                      NamedInstruction(module, command_line, "producer"));
  const HloInstruction* consumer = nullptr;
  if (command_line.Has("consumer")) {
    XI_ASSIGN_OR_RETURN(consumer,
                        NamedInstruction(module, command_line, "consumer"));
  }
  XI_ASSIGN_OR_RETURN(
      ProducerConsumerCoalescing answer,
      AnalyzeProducerConsumerCoalescing(*producer, consumer, device, context));
  out << (command_line.Has("json") ? ProducerConsumerCoalescingToJson(answer)
                                   : ProducerConsumerCoalescingToText(answer));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CoalescingOptions> CoalescingOptionsFromFlags(
    const CommandLine& command_line) {
  CoalescingOptions options;
  XI_ASSIGN_OR_RETURN(
      options.threads_per_block,
      command_line.GetInteger("block", options.threads_per_block));
  XI_ASSIGN_OR_RETURN(options.unroll,
                      command_line.GetInteger("unroll", options.unroll));
  options.block_given = command_line.Has("block");
  options.unroll_given = command_line.Has("unroll");
  if (std::optional<std::string> name = command_line.Get("device")) {
    absl::StatusOr<GpuDeviceDescription> device = FindGpuDevice(*name);
    if (!device.ok()) return ForFlag("device", device.status());
    options.device = *device;
  } else {
    options.device = DefaultGpuDevice();
  }
  return options;
}

absl::Status RunCoalescingCommand(const CommandLine& command_line,
                                  const LoadedHlo& input, std::ostream& out,
                                  std::ostream& err) {
  const HloModule* module = input.module.get();
  XI_ASSIGN_OR_RETURN(const HloInstruction* instruction,
                      AnalyzedInstruction(*module, command_line));
  XI_ASSIGN_OR_RETURN(CoalescingOptions options,
                      CoalescingOptionsFromFlags(command_line));
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  if (command_line.Has("producer") || command_line.Has("consumer")) {
    return RunProducerConsumerQuery(command_line, *module, *options.device,
                                    &context, out);
  }
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
