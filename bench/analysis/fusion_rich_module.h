#ifndef XLA_INDEX_BENCH_ANALYSIS_FUSION_RICH_MODULE_H_
#define XLA_INDEX_BENCH_ANALYSIS_FUSION_RICH_MODULE_H_

// Generated optimized-HLO-style modules made almost only of fusions, each
// with a different access pattern (elementwise with a broadcast bias, a
// transpose, a strided slice, a row and a column reduction, a reshape, a
// concatenate, a pad, a dynamic-slice), for the benchmark of
// `xla-index report` (bench/analysis/report_benchmark.cc). Shapes carry
// layouts as XLA's dumps print them. The text is the project's own.

#include <cstdint>
#include <string>

namespace xla_index {

/// A module of about `instruction_count` instructions (fused computations
/// included), one fusion per about 6 of them, chained through the entry
/// computation. Deterministic.
std::string MakeFusionRichModule(int64_t instruction_count);

}  // namespace xla_index

#endif  // XLA_INDEX_BENCH_ANALYSIS_FUSION_RICH_MODULE_H_
