// Fuzz target for the shape parser (ParseShape) and the layout code on top
// of it (DescribeLayout: tiles, sizes, the logical-to-linear indexing map).
// Any text must give a result or an error, never a crash. Also checked:
//  - a parsed shape prints and parses back to an equal shape;
//  - for a valid layout, the logical-to-linear map evaluated at an index
//    gives the element's linear position computed by the layout itself.
//
// Input: the shape text, optionally followed by a line with an index
// ("2,3"); without one the first element's index (all zeros) is used.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlo/shape.h"
#include "layout/layout_description.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace xla_index;  // NOLINT: the entry point is outside it
  if (size > 4096) return 0;
  absl::string_view input(reinterpret_cast<const char*>(data), size);
  absl::string_view shape_text = input;
  std::optional<absl::string_view> index_text;
  if (size_t nl = input.find('\n'); nl != absl::string_view::npos) {
    shape_text = input.substr(0, nl);
    index_text = input.substr(nl + 1);
  }

  absl::StatusOr<Shape> shape = ParseShape(shape_text);
  if (!shape.ok()) return 0;
  const std::string printed = shape->ToString();
  absl::StatusOr<Shape> reparsed = ParseShape(printed);
  if (!reparsed.ok() || *reparsed != *shape) {
    std::fprintf(stderr,
                 "shape_layout_fuzzer: print/parse round trip differs\n"
                 "--- printed: %s\n--- reparsed: %s\n",
                 printed.c_str(),
                 reparsed.ok()
                     ? reparsed->ToString().c_str()
                     : std::string(reparsed.status().message()).c_str());
    std::abort();
  }
  if (!shape->IsArray()) return 0;

  std::vector<int64_t> index(shape->dimensions().size(), 0);
  if (index_text) {
    absl::StatusOr<std::vector<int64_t>> parsed = ParseIndexList(*index_text);
    if (!parsed.ok()) return 0;
    index = *parsed;
  }
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<LayoutDescription> description =
      DescribeLayout(shape_text, index, &context);
  if (!description.ok()) return 0;
  (void)LayoutDescriptionToText(*description);
  (void)LayoutDescriptionToJson(*description);
  if (description->linear_index && description->map.GetSymbolCount() == 0 &&
      !description->map.IsUndefined() && !description->map.IsKnownEmpty()) {
    std::optional<std::vector<int64_t>> linear =
        description->map.Evaluate(index, {});
    if (!linear || linear->size() != 1 ||
        (*linear)[0] != *description->linear_index) {
      std::fprintf(stderr,
                   "shape_layout_fuzzer: the logical-to-linear map disagrees "
                   "with the layout's linear index %lld\n",
                   static_cast<long long>(*description->linear_index));
      std::abort();
    }
  }
  return 0;
}
