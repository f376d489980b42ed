#ifndef XLA_INDEX_INDEXING_ANALYSIS_H_
#define XLA_INDEX_INDEXING_ANALYSIS_H_

// The entry point of `xla-index analyze`: the indexing maps of one
// instruction in a module, in either direction.
//
// The per-op rules are in ops/ (one file per op family, declared in
// ops/op_rules.h), reached through the entry points of
// output_to_input_indexing.h and input_to_output_indexing.h (one dispatch
// table, op_dispatch.cc); the composition through computations is in
// fusion_indexing.h. This header picks what `analyze` reports.

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlo/instruction.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/fusion_indexing.h"
#include "xla_index/input_to_output_indexing.h"
#include "xla_index/ops/instruction_indexing.h"
#include "xla_index/output_to_input_indexing.h"

namespace xla_index {

enum class IndexingDirection { kOutputToInput, kInputToOutput };

/// "output-to-input" / "input-to-output".
absl::string_view IndexingDirectionName(IndexingDirection direction);
/// Parses the names above; InvalidArgument naming the bad value otherwise.
absl::StatusOr<IndexingDirection> ParseIndexingDirection(
    absl::string_view name);

/// What `analyze` reports for an instruction.
struct AnalyzedIndexing {
  /// What "operand K" refers to in `indexing`.
  enum class OperandKind {
    /// Operand K of the instruction (a fusion's operand K is its fused
    /// computation's parameter K).
    kInstructionOperand,
    /// Parameter number K of the instruction's computation: the instruction
    /// was composed back through the instructions it reads.
    kComputationParameter,
  };
  OperandKind operand_kind = OperandKind::kInstructionOperand;
  /// indexing_maps[K]: output-to-input, the maps from an output element to
  /// the elements of operand K; input-to-output, the maps from an element of
  /// operand K to the output elements it feeds. For tuple-shaped
  /// instructions the maps of all outputs are merged (deduplicated).
  HloInstructionIndexing indexing;
};

/// The most distinct maps one instruction may collect while `analyze`
/// composes through a computation; past it the analysis fails instead of
/// running for minutes.
inline constexpr int64_t kMaxAnalyzedMapsPerInstruction = 256;

/// How AnalyzeIndexing treats an instruction that is not a fusion.
struct AnalyzeOptions {
  /// true: compose it back through everything it reads in its computation
  /// (operand K is the computation's parameter K); false: its own per-op
  /// rule, per operand (XLA's ComputeOutputToInputIndexing), which costs
  /// milliseconds on any model.
  bool compose = true;
  /// While composing, the most distinct maps per instruction; past it
  /// AnalyzeIndexing fails with ResourceExhausted naming the instruction.
  int64_t max_maps = kMaxAnalyzedMapsPerInstruction;
};

/// The indexing `xla-index analyze` prints for `instruction`:
///  - a fusion (or call) is analyzed through its called computation, per
///    operand;
///  - an instruction that reads only parameters and constants (or nothing),
///    or any instruction when !options.compose, gets its own per-op rule,
///    per operand, so the single-op examples of XLA's indexing-analysis
///    documentation keep their operand numbers (e.g. reduce's init
///    constants);
///  - any other instruction is composed back through everything it reads in
///    its computation, and operand K is the computation's parameter K (the
///    documentation's softmax and chained-reshape examples). Each producer is
///    composed once per distinct map, so the cost is linear in the
///    computation's size.
/// `xla-index analyze` composes for the root, for a snippet (a bare
/// instruction list or computations, as the documentation writes them: text
/// that does not start with `HloModule`, see hlo/parser.h) and with
/// --compose; for `--instruction=NAME` in a full `HloModule` it reports the
/// instruction's own operand maps. Ops without a rule give UNDEFINED maps.
/// Fails only while composing, when one instruction collects more than
/// options.max_maps distinct maps, and when it composes through a computation
/// whose parameters are not numbered 0..n-1 (CheckParametersNumbered in
/// fusion_indexing.h, naming the parameter).
absl::StatusOr<AnalyzedIndexing> AnalyzeIndexing(
    const HloInstruction& instruction, IndexingDirection direction,
    const AnalyzeOptions& options, mlir::MLIRContext* context);

/// AnalyzeIndexing with options.compose and no failure: a value whose maps
/// outgrow 512 distinct maps gets UNDEFINED instead (fusion_indexing.h).
/// This never fails on a parsed module; a snippet whose parameters are not
/// numbered 0..n-1 gives every parameter one UNDEFINED map naming the
/// parameter out of place (CheckParametersNumbered).
AnalyzedIndexing AnalyzeIndexing(const HloInstruction& instruction,
                                 IndexingDirection direction,
                                 mlir::MLIRContext* context);

}  // namespace xla_index

#endif  // XLA_INDEX_INDEXING_ANALYSIS_H_
