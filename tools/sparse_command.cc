#include "tools/sparse_command.h"

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "mlir/IR/MLIRContext.h"
#include "sparse/sparse_report.h"
#include "sparse/storage_svg.h"
#include "tools/file_io.h"

namespace xla_index {

absl::Status RunSparseCommand(const CommandLine& command_line,
                              std::ostream& out, std::ostream& err) {
  std::optional<std::string> coo_text;
  std::string coo_path = command_line.Get("coo").value_or("");
  if (!coo_path.empty()) {
    absl::StatusOr<std::string> text = ReadInputFile(coo_path);
    if (!text.ok()) return text.status();
    coo_text = *std::move(text);
  }
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<sparse::SparseReport> report = sparse::BuildSparseReport(
      command_line.positional[0], command_line.Get("shape").value_or(""),
      coo_text, coo_path, &context);
  if (!report.ok()) return report.status();
  if (std::optional<std::string> svg_path = command_line.Get("svg")) {
    absl::StatusOr<std::string> svg = sparse::SparseReportToSvg(*report);
    if (!svg.ok()) return svg.status();
    if (absl::Status s = WriteOutputFile(*svg_path, *svg); !s.ok()) return s;
  }
  out << (command_line.Has("json") ? sparse::SparseReportToJson(*report)
                                   : sparse::SparseReportToText(*report));
  return absl::OkStatus();
}

}  // namespace xla_index
