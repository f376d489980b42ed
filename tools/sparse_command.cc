#include "tools/sparse_command.h"

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
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
    XI_ASSIGN_OR_RETURN(int64_t max_bytes, MaxInputBytes(command_line));
    absl::StatusOr<std::string> text = ReadInputFile(coo_path, max_bytes);
    if (!text.ok()) {
      return absl::Status(text.status().code(),
                          absl::StrCat("--coo: ", text.status().message()));
    }
    coo_text = *std::move(text);
  }
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  XI_ASSIGN_OR_RETURN(
      sparse::SparseReport report,
      sparse::BuildSparseReport(command_line.positional[0],
                                command_line.Get("shape").value_or(""),
                                coo_text, coo_path, &context));
  if (std::optional<std::string> svg_path = command_line.Get("svg")) {
    XI_ASSIGN_OR_RETURN(std::string svg, sparse::SparseReportToSvg(report));
    XI_RETURN_IF_ERROR(WriteOutputFile(*svg_path, svg));
  }
  out << (command_line.Has("json") ? sparse::SparseReportToJson(report)
                                   : sparse::SparseReportToText(report));
  return absl::OkStatus();
}

}  // namespace xla_index
