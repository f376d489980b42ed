#ifndef XLA_INDEX_BENCH_HLO_DUMP_STYLE_MODULE_H_
#define XLA_INDEX_BENCH_HLO_DUMP_STYLE_MODULE_H_

// Generated HLO modules in the style of the optimized dumps XLA writes for
// real models (what JAX and XLA's GPU passes print): every instruction has a
// layout and long metadata with source file and line, fusions carry
// backend_config JSON with nested quotes and scheduling frontend
// attributes, parameters of a training step alias outputs, a tuple-shaped
// while loop runs the layers, and custom-calls use api_version=. The text is
// the project's own; only its style follows real dumps.

#include <cstdint>
#include <string>

namespace xla_index {

/// A module whose entry and while-body computations hold about
/// `instruction_count` instructions in all (fused computations included).
/// Deterministic: the same count gives the same text.
std::string MakeDumpStyleModule(int64_t instruction_count);

}  // namespace xla_index

#endif  // XLA_INDEX_BENCH_HLO_DUMP_STYLE_MODULE_H_
