#include "tools/fusion_analysis_commands.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "mlir/IR/MLIRContext.h"
#include "tools/hlo_input.h"
#include "xla_index/analysis/coalescing.h"
#include "xla_index/analysis/fusion_utilization.h"
#include "xla_index/analysis/symbolic_tile.h"

namespace xla_index {
namespace {

/// The value of integer flag `name`, or `default_value` when absent.
absl::StatusOr<int64_t> IntegerFlag(const CommandLine& command_line,
                                    absl::string_view name,
                                    int64_t default_value) {
  std::optional<std::string> text = command_line.Get(name);
  if (!text.has_value()) return default_value;
  int64_t value;
  if (!absl::SimpleAtoi(*text, &value)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", name, ": '", *text, "' is not an integer"));
  }
  return value;
}

}  // namespace

absl::Status RunCoalescingCommand(const CommandLine& command_line,
                                  std::ostream& out, std::ostream& err) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      LoadHloModule(command_line.positional[0]);
  if (!module.ok()) return module.status();
  CoalescingOptions options;
  absl::StatusOr<int64_t> block =
      IntegerFlag(command_line, "block", options.threads_per_block);
  if (!block.ok()) return block.status();
  absl::StatusOr<int64_t> unroll =
      IntegerFlag(command_line, "unroll", options.unroll);
  if (!unroll.ok()) return unroll.status();
  options.threads_per_block = *block;
  options.unroll = *unroll;
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<CoalescingReport> report =
      AnalyzeCoalescing(**module, options, &context);
  if (!report.ok()) return report.status();
  out << (command_line.Has("json") ? CoalescingReportToJson(*report)
                                   : CoalescingReportToText(*report));
  return absl::OkStatus();
}

absl::Status RunUtilizationCommand(const CommandLine& command_line,
                                   std::ostream& out, std::ostream& err) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      LoadHloModule(command_line.positional[0]);
  if (!module.ok()) return module.status();
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<UtilizationReport> report =
      AnalyzeUtilization(**module, &context);
  if (!report.ok()) return report.status();
  out << (command_line.Has("json") ? UtilizationReportToJson(*report)
                                   : UtilizationReportToText(*report));
  return absl::OkStatus();
}

absl::Status RunTileCommand(const CommandLine& command_line, std::ostream& out,
                            std::ostream& err) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      LoadHloModule(command_line.positional[0]);
  if (!module.ok()) return module.status();
  std::optional<std::string> tile = command_line.Get("tile");
  if (!tile.has_value()) {
    return absl::InvalidArgumentError("--tile=SIZES is required, e.g. 8,128");
  }
  absl::StatusOr<std::vector<int64_t>> sizes = ParseTileSizes(*tile);
  if (!sizes.ok()) return sizes.status();  // names --tile and the column
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<TileReport> report = AnalyzeTiling(**module, *sizes, &context);
  if (!report.ok()) return report.status();
  out << (command_line.Has("json") ? TileReportToJson(*report)
                                   : TileReportToText(*report));
  return absl::OkStatus();
}

}  // namespace xla_index
