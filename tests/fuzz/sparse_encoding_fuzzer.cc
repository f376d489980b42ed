// Fuzz target for the #sparse_tensor.encoding parser and verifier
// (ParseSparseEncoding) and the level indexing maps built from an encoding:
// any text must give an encoding or an error, never a crash. A verified
// encoding must print (as MLIR prints it) to text that parses back and prints
// the same, and on a small shape (sizes taken from the input's first bytes)
// the level-to-dim map must take every level point of the dim-to-level map
// back to the dim point it came from.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "mlir/IR/MLIRContext.h"
#include "sparse/encoding.h"
#include "sparse/encoding_indexing_maps.h"
#include "sparse/encoding_parser.h"
#include "xla_index/core/indexing_map.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace xla_index;  // NOLINT: the entry point is outside it
  if (size > 4096) return 0;
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<sparse::SparseEncoding> unverified =
      sparse::ParseSparseEncodingUnverified(text, &context);
  if (!unverified.ok()) return 0;
  absl::Status verified = sparse::VerifySparseEncoding(*unverified);
  if (!verified.ok()) return 0;
  const std::string printed = sparse::PrintSparseEncoding(*unverified);
  absl::StatusOr<sparse::SparseEncoding> reparsed =
      sparse::ParseSparseEncoding(printed, &context);
  if (!reparsed.ok() || sparse::PrintSparseEncoding(*reparsed) != printed) {
    std::fprintf(stderr,
                 "sparse_encoding_fuzzer: a verified encoding does not print "
                 "and parse back\n--- printed: %s\n--- reparsed: %s\n",
                 printed.c_str(),
                 reparsed.ok()
                     ? sparse::PrintSparseEncoding(*reparsed).c_str()
                     : std::string(reparsed.status().message()).c_str());
    std::abort();
  }

  // Without a shape: every dim in [0, INT64_MAX]; must not crash.
  (void)sparse::DimToLevelIndexingMap(*unverified, std::nullopt);
  (void)sparse::LevelToDimIndexingMap(*unverified, std::nullopt);

  // A small shape: dim i has 1 + (byte i of the input mod 12) elements.
  std::vector<int64_t> sizes;
  int64_t points = 1;
  for (int64_t i = 0; i < unverified->dim_rank(); ++i) {
    sizes.push_back(1 + data[i % size] % 12);
    points *= sizes.back();
    if (points > 4096) return 0;
  }
  absl::StatusOr<IndexingMap> to_lvl =
      sparse::DimToLevelIndexingMap(*unverified, sizes);
  absl::StatusOr<IndexingMap> to_dim =
      sparse::LevelToDimIndexingMap(*unverified, sizes);
  if (!to_lvl.ok() || !to_dim.ok() || to_lvl->GetSymbolCount() != 0 ||
      to_dim->IsUndefined() || to_dim->GetSymbolCount() != 0) {
    return 0;
  }
  std::vector<int64_t> dim(sizes.size(), 0);
  for (int64_t n = 0; n < points; ++n) {
    std::optional<std::vector<int64_t>> lvl = to_lvl->Evaluate(dim, {});
    std::optional<std::vector<int64_t>> back =
        lvl ? to_dim->Evaluate(*lvl, {}) : std::nullopt;
    if (!lvl || !back || *back != dim ||
        !to_dim->ConstraintsSatisfied(*lvl, {})) {
      std::fprintf(stderr,
                   "sparse_encoding_fuzzer: level maps of %s do not invert "
                   "each other at a dim point\n",
                   printed.c_str());
      std::abort();
    }
    for (size_t k = dim.size(); k-- > 0;) {  // next point, odometer
      if (++dim[k] < sizes[k]) break;
      dim[k] = 0;
    }
  }
  return 0;
}
