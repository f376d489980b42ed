#ifndef XLA_INDEX_TOOLS_HLO_INPUT_H_
#define XLA_INDEX_TOOLS_HLO_INPUT_H_

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlo/module.h"
#include "tools/file_io.h"

namespace xla_index {

/// Reads (at most `max_bytes`, tools/file_io.h), parses and verifies the HLO
/// in file `path` ("-" is standard input). Errors are "PATH:line:column:
/// what", as compilers print them.
absl::StatusOr<std::unique_ptr<HloModule>> LoadHloModule(
    absl::string_view path, int64_t max_bytes = kDefaultMaxInputBytes);

/// Parsed HLO and the form it was written in.
struct LoadedHlo {
  std::unique_ptr<HloModule> module;
  /// True for a full module (the text starts with `HloModule`, as XLA dumps
  /// it); false for a snippet, a bare computation or instruction list as
  /// XLA's indexing-analysis documentation writes them (hlo/parser.h).
  bool is_full_module = false;
};

/// LoadHloModule, also telling a full module from a snippet.
absl::StatusOr<LoadedHlo> LoadHlo(absl::string_view path,
                                  int64_t max_bytes = kDefaultMaxInputBytes);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_HLO_INPUT_H_
