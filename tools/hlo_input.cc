#include "tools/hlo_input.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlo/parser.h"
#include "tools/file_io.h"
#include "xla_index/core/status_macros.h"

namespace xla_index {

absl::StatusOr<std::unique_ptr<HloModule>> LoadHloModule(absl::string_view path,
                                                         int64_t max_bytes) {
  XI_ASSIGN_OR_RETURN(std::string text, ReadInputFile(path, max_bytes));
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  if (!module.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ":", module.status().message()));
  }
  return module;
}

}  // namespace xla_index
