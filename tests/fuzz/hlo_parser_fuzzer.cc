// Fuzz target for the HLO text parser (ParseHloModule) and the verifier
// (VerifyModule): any text must give a module or an error, never a crash.
// A module that parses is printed; the printed text must parse again and
// print the same (the printer writes the strict module form).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "hlo/split_input.h"
#include "hlo/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace xla_index;  // NOLINT: the entry point is outside it
  if (size > 8192) return 0;
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  // The parts of a split file are ordered views into it, each starting on
  // the line it says.
  const char* previous_end = text.data();
  for (const InputPart& part : SplitInputFile(text)) {
    const char* begin = part.text.data();
    if (begin < previous_end || begin + part.text.size() > text.end() ||
        1 + std::count(text.data(), begin, '\n') != part.first_line) {
      std::fprintf(stderr, "hlo_parser_fuzzer: part at line %lld misplaced\n",
                   static_cast<long long>(part.first_line));
      std::abort();
    }
    previous_end = begin + part.text.size();
  }
  absl::StatusOr<std::unique_ptr<HloModule>> module = ParseHloModule(text);
  if (!module.ok()) return 0;
  absl::Status verified = VerifyModule(**module);
  const std::string printed = (*module)->ToString();
  if (!verified.ok()) return 0;
  absl::StatusOr<std::unique_ptr<HloModule>> reparsed = ParseHloModule(printed);
  if (!reparsed.ok() || (*reparsed)->ToString() != printed) {
    std::fprintf(stderr,
                 "hlo_parser_fuzzer: a verified module does not print and "
                 "parse back\n--- printed:\n%s\n--- reparsed:\n%s\n",
                 printed.c_str(),
                 reparsed.ok()
                     ? (*reparsed)->ToString().c_str()
                     : std::string(reparsed.status().message()).c_str());
    std::abort();
  }
  return 0;
}
