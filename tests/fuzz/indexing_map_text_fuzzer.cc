// Fuzz target for the indexing-map text parser (ParseIndexingMap): any text
// must give a map or an error, never a crash. A map that parses must print
// and parse back to an equal map (docs/ARCHITECTURE.md, "The map text format": printing then parsing gives
// back an equal map"), and simplifying it must not crash either.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace xla_index;  // NOLINT: the entry point is outside it
  // Deep or long inputs only slow the search down; the hostile-input golden
  // test covers 10,000-deep nesting.
  if (size > 4096) return 0;
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, &context);
  if (!map.ok()) return 0;
  const std::string printed = ToString(*map);
  absl::StatusOr<IndexingMap> reparsed = ParseIndexingMap(printed, &context);
  if (!reparsed.ok() || *reparsed != *map) {
    std::fprintf(stderr,
                 "indexing_map_text_fuzzer: print/parse round trip differs\n"
                 "--- printed:\n%s\n--- reparsed:\n%s\n",
                 printed.c_str(),
                 reparsed.ok()
                     ? ToString(*reparsed).c_str()
                     : std::string(reparsed.status().message()).c_str());
    std::abort();
  }
  (void)IndexingMapToJson(*map);
  if (map->Verify().ok()) {
    IndexingMap simplified = *map;
    simplified.Simplify();
    (void)ToString(simplified);
  }
  return 0;
}
