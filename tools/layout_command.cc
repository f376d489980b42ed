#include "tools/layout_command.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "layout/layout_description.h"
#include "mlir/IR/MLIRContext.h"
#include "tools/file_io.h"

namespace xla_index {

absl::Status RunLayoutCommand(const CommandLine& command_line,
                              std::ostream& out, std::ostream& err) {
  const std::string& shape = command_line.positional[0];
  std::optional<std::vector<int64_t>> index;
  if (std::optional<std::string> text = command_line.Get("index")) {
    absl::StatusOr<std::vector<int64_t>> parsed = ParseIndexList(*text);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--index: ", parsed.status().message()));
    }
    index = *std::move(parsed);
  }
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<LayoutDescription> description =
      DescribeLayout(shape, index, &context);
  if (!description.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("SHAPE:", description.status().message()));
  }
  if (std::optional<std::string> svg_path = command_line.Get("svg")) {
    XI_ASSIGN_OR_RETURN(std::string svg, LayoutSvg(shape));
    XI_RETURN_IF_ERROR(WriteOutputFile(*svg_path, svg));
  }
  out << (command_line.Has("json") ? LayoutDescriptionToJson(*description)
                                   : LayoutDescriptionToText(*description));
  return absl::OkStatus();
}

}  // namespace xla_index
