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

/// What JAX writes that the default text does not; each is off by default,
/// so that the benchmarked text stays the same.
struct JaxDumpStyle {
  /// `HloModule jit_train_step:` (a colon after the name), as JAX's
  /// pre-optimization dumps begin, instead of the header with attributes.
  bool colon_header = false;
  /// The stack-frame tables (FileNames, FunctionNames, FileLocations,
  /// StackFrames) between the header and the first computation.
  bool stack_frames = false;
  /// Scalar broadcasts written without `dimensions={}`.
  bool scalar_broadcast_without_dimensions = false;
};

/// A module whose entry and while-body computations hold about
/// `instruction_count` instructions in all (fused computations included).
/// Deterministic: the same count and style give the same text. With
/// every JaxDumpStyle option on, it is the same module as with none except
/// for the header's attributes.
std::string MakeDumpStyleModule(int64_t instruction_count,
                                const JaxDumpStyle& style = {});

}  // namespace xla_index

#endif  // XLA_INDEX_BENCH_HLO_DUMP_STYLE_MODULE_H_
