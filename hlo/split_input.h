#ifndef XLA_INDEX_HLO_SPLIT_INPUT_H_
#define XLA_INDEX_HLO_SPLIT_INPUT_H_

// Files that hold several HLO modules, as XLA's and MLIR's test files do:
// the modules are separated by a line `// -----`, the marker that
// `hlo-opt --split-input-file` and `mlir-opt --split-input-file` split at.
// Each part is then parsed on its own (hlo/parser.h); its errors are moved
// to the part's lines in the whole file.

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace xla_index {

/// One part of a split file: a view into the file's text.
struct InputPart {
  absl::string_view text;
  /// The 1-based line of the file on which `text` starts.
  int64_t first_line = 1;
};

/// The parts of `text` between separator lines: lines whose text, blanks
/// around it aside, starts with `// -----`. A separator line belongs to no
/// part, and a part starts at its first line that is not blank. Parts with
/// nothing but blanks and comments (before the first separator, or after a
/// trailing one) are dropped, so the parts are the modules; a text without
/// separator is one part, even when empty.
std::vector<InputPart> SplitInputFile(absl::string_view text);

/// `status` of parsing `part` alone, its leading "line:column: " (the form
/// of hlo/parser.h's errors) moved to the line in the whole file. Other
/// statuses are returned unchanged.
absl::Status InWholeFile(const absl::Status& status, const InputPart& part);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_SPLIT_INPUT_H_
