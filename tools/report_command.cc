#include "tools/report_command.h"

#include <memory>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "mlir/IR/MLIRContext.h"
#include "tools/file_io.h"
#include "tools/fusion_analysis_commands.h"
#include "tools/hlo_input.h"
#include "tools/report_html.h"
#include "xla_index/analysis/module_report.h"

namespace xla_index {

absl::Status RunReportCommand(const CommandLine& command_line,
                              const LoadedHlo& input, std::ostream& out,
                              std::ostream& err) {
  const HloModule* module = input.module.get();
  ModuleReportOptions options;
  XI_ASSIGN_OR_RETURN(options.coalescing,
                      CoalescingOptionsFromFlags(command_line));
  XI_ASSIGN_OR_RETURN(int64_t worst, command_line.GetInteger("worst", 10));
  if (worst < 0) return absl::InvalidArgumentError("--worst: must be >= 0");
  const std::optional<std::string> html_path = command_line.Get("html");
  options.record_offsets = html_path.has_value();
  XI_ASSIGN_OR_RETURN(options.utilization_time_budget,
                      UtilizationTimeLimitFromFlags(
                          command_line, options.utilization_time_budget));
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  XI_ASSIGN_OR_RETURN(ModuleReport report,
                      AnalyzeModuleReport(*module, options, &context));
  if (html_path) {
    XI_RETURN_IF_ERROR(
        WriteOutputFile(*html_path, RenderReportHtml(report, worst)));
  }
  if (command_line.Has("json")) {
    WriteModuleReportJson(report, worst, out);
    out << "\n";
  } else {
    WriteModuleReportText(report, worst, out);
  }
  if (command_line.Has("timing")) {
    err << "timing: report " << report.microseconds / 1000 << " ms ("
        << report.kernels.size() << " kernels)\n";
  }
  return absl::OkStatus();
}

}  // namespace xla_index
