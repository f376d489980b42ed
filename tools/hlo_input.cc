#include "tools/hlo_input.h"

#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "base/status_macros.h"
#include "hlo/instruction.h"
#include "hlo/parser.h"
#include "hlo/text_cursor.h"
#include "tools/file_io.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {

absl::StatusOr<HloFile> ReadHloFile(absl::string_view path, int64_t max_bytes) {
  HloFile file;
  file.path = std::string(path);
  XI_ASSIGN_OR_RETURN(file.text, ReadInputFile(path, max_bytes));
  file.parts = SplitInputFile(file.text);
  return file;
}

absl::Status CheckParameterNumbers(const HloModule& module) {
  for (const auto& computation : module.computations()) {
    const std::vector<HloInstruction*> parameters = computation->parameters();
    const int64_t count = static_cast<int64_t>(parameters.size());
    // parameters() is sorted by number and the parser refuses a number used
    // twice, so the numbers are 0..count-1 exactly when the last is
    // count-1 (and the first is not negative).
    if (count == 0 || (parameters.front()->parameter_number() >= 0 &&
                       parameters.back()->parameter_number() == count - 1)) {
      continue;
    }
    // Implicit parameters are numbered after every written one, so the
    // written parameter with the largest number is out of range: point
    // at it.
    const HloInstruction* located = parameters.back();
    for (const HloInstruction* parameter : parameters) {
      if (parameter->source_line() > 0) located = parameter;
    }
    int64_t missing = 0;
    while (missing < count &&
           parameters[missing]->parameter_number() == missing) {
      ++missing;
    }
    return absl::InvalidArgumentError(absl::StrCat(
        located->source_line(), ":", located->source_column(),
        ": parameter number ", located->parameter_number(), " of '",
        computation->name(), "' leaves parameter ", missing,
        " undefined: the commands number a snippet's operands by parameter, "
        "so its ",
        count, count == 1 ? " parameter" : " parameters",
        " must be numbered 0 to ", count - 1, ", as in a module"));
  }
  return absl::OkStatus();
}

absl::StatusOr<LoadedHlo> LoadHloPart(const HloFile& file, size_t index) {
  const InputPart& part = file.parts.at(index);
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(part.text);
  if (module.ok()) {
    absl::Status numbered = CheckParameterNumbers(**module);
    if (!numbered.ok()) module = numbered;
  }
  if (!module.ok()) {
    const absl::Status in_file = InWholeFile(module.status(), part);
    return absl::Status(in_file.code(),
                        absl::StrCat(file.path, ":", in_file.message()));
  }
  LoadedHlo loaded;
  loaded.module = *std::move(module);
  loaded.path = file.path;
  // The parser's own test: after spaces and comments, the word HloModule.
  TextCursor cursor(part.text);
  loaded.is_full_module = cursor.TryConsumeWord("HloModule");
  return loaded;
}

namespace {

absl::Status RunOnPart(const HloFile& file, size_t index,
                       const CommandLine& command_line, HloCommand command,
                       std::ostream& out, std::ostream& err) {
  XI_ASSIGN_OR_RETURN(LoadedHlo loaded, LoadHloPart(file, index));
  return command(command_line, loaded, out, err);
}

// Module `index` of several: a header line (text) or one JSON line around
// the command's output.
absl::Status RunOnOneOfSeveral(absl::string_view name, const HloFile& file,
                               size_t index, const CommandLine& command_line,
                               HloCommand command, std::ostream& out,
                               std::ostream& err) {
  const InputPart& part = file.parts[index];
  if (!command_line.Has("json")) {
    out << "// ----- module " << index + 1 << " of " << file.parts.size()
        << ", line " << part.first_line << "\n";
    absl::Status status =
        RunOnPart(file, index, command_line, command, out, err);
    if (!status.ok())
      err << "xla-index " << name << ": "
          << Abbreviated(status.message(), kMaxMessageBytes) << "\n";
    return status;
  }
  std::ostringstream result;
  absl::Status status =
      RunOnPart(file, index, command_line, command, result, err);
  out << "{\"module\": " << index + 1 << ", \"line\": " << part.first_line;
  if (status.ok()) {
    out << ", \"result\": " << absl::StripTrailingAsciiWhitespace(result.str())
        << "}\n";
  } else {
    out << ", \"error\": "
        << JsonQuote(Abbreviated(status.message(), kMaxMessageBytes)) << "}\n";
    err << "xla-index " << name << ": "
        << Abbreviated(status.message(), kMaxMessageBytes) << "\n";
  }
  return status;
}

}  // namespace

absl::Status RunOnHloModules(absl::string_view name,
                             const CommandLine& command_line,
                             HloCommand command, std::ostream& out,
                             std::ostream& err) {
  XI_ASSIGN_OR_RETURN(int64_t max_bytes, MaxInputBytes(command_line));
  XI_ASSIGN_OR_RETURN(HloFile file,
                      ReadHloFile(command_line.positional[0], max_bytes));
  return RunOnHloFile(name, command_line, file, command, out, err);
}

absl::Status RunOnHloFile(absl::string_view name,
                          const CommandLine& command_line, const HloFile& file,
                          HloCommand command, std::ostream& out,
                          std::ostream& err) {
  const int64_t count = file.parts.size();
  XI_ASSIGN_OR_RETURN(int64_t chosen, command_line.GetInteger("module", 0));
  if (command_line.Has("module") && (chosen < 1 || chosen > count)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--module: ", chosen, " is not a module of ", file.path,
        ", which holds ", count, count == 1 ? " module" : " modules",
        " (separated by `// -----` lines)"));
  }
  if (chosen != 0)
    return RunOnPart(file, chosen - 1, command_line, command, out, err);
  if (count == 1) return RunOnPart(file, 0, command_line, command, out, err);
  if (command_line.Has("html")) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--html writes the page of one module; ", file.path, " holds ", count,
        " modules (separated by `// -----` lines): choose one with "
        "--module=K"));
  }
  int64_t failed = 0;
  for (int64_t index = 0; index < count; ++index) {
    if (!RunOnOneOfSeveral(name, file, index, command_line, command, out, err)
             .ok()) {
      ++failed;
    }
  }
  if (failed == 0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(failed, " of ", count, " modules failed (above)"));
}

}  // namespace xla_index
