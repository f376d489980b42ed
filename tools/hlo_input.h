#ifndef XLA_INDEX_TOOLS_HLO_INPUT_H_
#define XLA_INDEX_TOOLS_HLO_INPUT_H_

// Loading the HLO input of a subcommand: one file read once, split into its
// modules, each parsed as a module, a computation or a list of
// instructions, and the subcommand run on each.

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlo/module.h"
#include "hlo/split_input.h"
#include "tools/command_line.h"
#include "tools/file_io.h"

namespace xla_index {

/// Parsed HLO and the form it was written in.
struct LoadedHlo {
  std::unique_ptr<HloModule> module;
  /// True for a full module (the text starts with `HloModule`, as XLA dumps
  /// it); false for a snippet, a bare computation or instruction list as
  /// XLA's indexing-analysis documentation writes them (hlo/parser.h).
  bool is_full_module = false;
  /// The file it was read from, for messages.
  std::string path;
};

/// The text of an HLO file, read once, and its modules: several when the
/// file separates them with `// -----` lines (hlo/split_input.h), as XLA's
/// test files do.
struct HloFile {
  std::string path;
  std::string text;
  std::vector<InputPart> parts;
};

/// Reads (at most `max_bytes`, tools/file_io.h) file `path` ("-" is
/// standard input) and splits it into modules.
absl::StatusOr<HloFile> ReadHloFile(absl::string_view path,
                                    int64_t max_bytes = kDefaultMaxInputBytes);

/// OK when every computation of `module` numbers its parameters 0..n-1.
/// A module is held to that by the parser; a snippet may quote
/// `parameter(1)` alone (hlo/parser.h), but every command numbers the
/// operands of a snippet by parameter (xla_index/analysis/fusion_operands.h),
/// and a gap would leave a parameter without maps in one command and with
/// them in another. So a snippet with a gap is refused as a module is:
/// InvalidArgument "line:column: parameter number K of 'C' leaves parameter
/// M undefined: ..." at the written parameter with the largest number.
absl::Status CheckParameterNumbers(const HloModule& module);

/// Parses and verifies module `index` (from 0) of `file`, then checks its
/// parameter numbers (CheckParameterNumbers). Errors are
/// "PATH:line:column: what", the line counted in the whole file, as
/// compilers print them.
absl::StatusOr<LoadedHlo> LoadHloPart(const HloFile& file, size_t index);

/// A subcommand that works on one module (analyze, coalescing, ...).
using HloCommand = absl::Status (*)(const CommandLine& command_line,
                                    const LoadedHlo& input, std::ostream& out,
                                    std::ostream& err);

/// Runs `command` on the module of FILE.hlo (positional 0, read within
/// --max-input-bytes). On a file of several modules it runs on the one
/// --module=K names (from 1), else on each in turn: in text, each output
/// after a line `// ----- module K of N, line L`; with --json, one line
/// {"module": K, "line": L, "result": ...} (or "error": "...") per module.
/// A module that fails does not stop the others: its error is printed on
/// `err` as "xla-index NAME: ..." and the status counts the failures.
/// --html (one output file) needs --module there.
absl::Status RunOnHloModules(absl::string_view name,
                             const CommandLine& command_line,
                             HloCommand command, std::ostream& out,
                             std::ostream& err);

/// RunOnHloModules on a file already read (standard input cannot be read
/// twice, e.g. after a look at whether it holds HLO).
absl::Status RunOnHloFile(absl::string_view name,
                          const CommandLine& command_line, const HloFile& file,
                          HloCommand command, std::ostream& out,
                          std::ostream& err);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_HLO_INPUT_H_
