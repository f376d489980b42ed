#include "tools/hlo_input.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlo/parser.h"
#include "hlo/text_cursor.h"
#include "tools/file_io.h"
#include "xla_index/core/status_macros.h"

namespace xla_index {

namespace {

absl::StatusOr<std::unique_ptr<HloModule>> Parse(absl::string_view path,
                                                 absl::string_view text) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  if (!module.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ":", module.status().message()));
  }
  return module;
}

}  // namespace

absl::StatusOr<std::unique_ptr<HloModule>> LoadHloModule(absl::string_view path,
                                                         int64_t max_bytes) {
  XI_ASSIGN_OR_RETURN(std::string text, ReadInputFile(path, max_bytes));
  return Parse(path, text);
}

absl::StatusOr<LoadedHlo> LoadHlo(absl::string_view path, int64_t max_bytes) {
  XI_ASSIGN_OR_RETURN(std::string text, ReadInputFile(path, max_bytes));
  LoadedHlo loaded;
  XI_ASSIGN_OR_RETURN(loaded.module, Parse(path, text));
  // The parser's own test: after spaces and comments, the word HloModule.
  TextCursor cursor(text);
  loaded.is_full_module = cursor.TryConsumeWord("HloModule");
  return loaded;
}

}  // namespace xla_index
