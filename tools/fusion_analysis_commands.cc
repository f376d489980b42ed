#include "tools/fusion_analysis_commands.h"

#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "base/status_macros.h"
#include "hlo/module.h"
#include "mlir/IR/MLIRContext.h"
#include "tools/file_io.h"
#include "tools/hlo_input.h"
#include "tools/instruction_flags.h"
#include "xla_index/analysis/coalescing.h"
#include "xla_index/analysis/fusion_utilization.h"
#include "xla_index/analysis/gpu_device.h"
#include "xla_index/analysis/read_coalesced_heuristic.h"

namespace xla_index {
namespace {

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
  // Range errors name the flag (the analysis would refuse the same values
  // without saying which flag gave them).
  XI_ASSIGN_OR_RETURN(
      options.threads_per_block,
      command_line.GetIntegerInRange("block", options.threads_per_block, 1,
                                     std::numeric_limits<int64_t>::max()));
  XI_ASSIGN_OR_RETURN(
      options.unroll,
      command_line.GetIntegerInRange("unroll", options.unroll, 1,
                                     kMaxWarpEvaluations / options.warp_size));
  // The sample keeps a progression (24 bytes) per evaluation: 2^24 of
  // them take 400 MB, a bound the command line may not pass.
  XI_ASSIGN_OR_RETURN(
      options.max_sample_points,
      command_line.GetIntegerInRange("sample-points", options.max_sample_points,
                                     1, int64_t{1} << 24));
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

absl::StatusOr<absl::Duration> UtilizationTimeLimitFromFlags(
    const CommandLine& command_line, absl::Duration default_limit) {
  if (!command_line.Has("time-limit")) return default_limit;
  XI_ASSIGN_OR_RETURN(int64_t seconds, command_line.GetIntegerInRange(
                                           "time-limit", 0, 0, 86400));
  return absl::Seconds(seconds);
}

absl::Status RunUtilizationCommand(const CommandLine& command_line,
                                   const LoadedHlo& input, std::ostream& out,
                                   std::ostream& err) {
  const HloModule* module = input.module.get();
  XI_ASSIGN_OR_RETURN(const HloInstruction* instruction,
                      AnalyzedInstruction(*module, command_line));
  XI_ASSIGN_OR_RETURN(absl::Duration time_limit,
                      UtilizationTimeLimitFromFlags(
                          command_line, kDefaultUtilizationTotalBudget));
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  XI_ASSIGN_OR_RETURN(
      UtilizationReport report,
      AnalyzeUtilization(*instruction, &context, kDefaultUtilizationPointLimit,
                         time_limit));
  out << (command_line.Has("json") ? UtilizationReportToJson(report)
                                   : UtilizationReportToText(report));
  return absl::OkStatus();
}

}  // namespace xla_index
