#ifndef BENCH_CORE_BASELINE_MAP_TEXT_PARSER_H_
#define BENCH_CORE_BASELINE_MAP_TEXT_PARSER_H_

// BASELINE ONLY: a frozen copy of the map-text parser as it was before the
// parser was rewritten for speed (xla_index/core/indexing_map_text.cc at
// commit 87faf24), kept so bench/core/map_text_benchmark.cc can measure the
// current parser against it in the same run. Not used by the library; do not
// fix or extend it.

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index::baseline {

absl::StatusOr<IndexingMap> ParseIndexingMap(absl::string_view text,
                                             mlir::MLIRContext* context);

}  // namespace xla_index::baseline

#endif  // BENCH_CORE_BASELINE_MAP_TEXT_PARSER_H_
