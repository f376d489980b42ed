#include "tools/instruction_flags.h"

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "xla_index/analysis/fusion_operands.h"

namespace xla_index {

absl::Status ForFlag(absl::string_view flag, const absl::Status& status) {
  return absl::Status(status.code(),
                      absl::StrCat("--", flag, ": ", status.message()));
}

absl::StatusOr<const HloInstruction*> AnalyzedInstruction(
    const HloModule& module, const CommandLine& command_line) {
  if (std::optional<std::string> name = command_line.Get("instruction")) {
    absl::StatusOr<const HloInstruction*> found =
        FindInstruction(module, *name);
    if (!found.ok()) return ForFlag("instruction", found.status());
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

}  // namespace xla_index
