#ifndef XLA_INDEX_ANALYSIS_MODULE_REPORT_H_
#define XLA_INDEX_ANALYSIS_MODULE_REPORT_H_

// A whole module at a glance: every fusion analyzed on its own, in one pass
// over the module (`xla-index report`).
//
// The kernels are the module's fusion instructions, in every computation
// that is not itself a fused computation, in module order. A module without
// fusions (pre-optimization HLO) is reported per instruction instead: every
// instruction of every computation that reads an array, except those whose
// maps are all the identity (elementwise ops on equal shapes) and the
// plumbing ops (tuple, get-tuple-element, parameter, constant). Nothing is
// composed across kernels: a fusion is its fused computation
// (fusion_operands.h, AnalyzeFusionOperands), an instruction is its own rule
// (AnalyzeInstructionOperands), so the cost is linear in the module's size.
//
// Per kernel: the emitter XLA runs it on when options.coalescing.device
// is set (the CLI always sets one), and per operand: the simplified
// output-to-input maps (the union over the outputs), the coalescing of
// every read the emitter makes, on its launch (coalescing.h, one warp; a
// library kernel makes none), the utilization (operand_utilization.h)
// and whether the operand is unused, decided exactly: a map without
// constraints whose bounds are non-empty reads something; any other map is
// asked IsExactlyEmpty (xla_index/core/presburger_relation.h), so a map the
// simplifier could not prove empty but that is (e.g. the interior of a
// pad's edge) counts as unused. A kernel that cannot be analyzed (an output
// that is not an array, an op without a rule that breaks coalescing, ...)
// keeps its error in the report; the other kernels go on.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "hlo/module.h"
#include "hlo/shape.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/coalescing.h"
#include "xla_index/analysis/gpu_launch_grid.h"
#include "xla_index/analysis/operand_utilization.h"
#include "xla_index/ops/instruction_indexing.h"

namespace xla_index {

struct ModuleReportOptions {
  /// The launch of every kernel: the default loop grid of its output
  /// (threads_per_block, unroll) and the analyzed warp.
  CoalescingOptions coalescing;
  /// Point-by-point evaluations per operand for the utilization counts.
  /// Lower than the utilization command's limit (2^22) so that no fusion
  /// of a large module costs more than about 0.1 s; past it the counts
  /// stay exact when the Presburger membership test applies, else they are
  /// upper bounds (operand_utilization.h says which).
  int64_t utilization_points = int64_t{1} << 18;
  /// Wall time for the utilization counts of all kernels together: each
  /// operand gets NextOperandTimeBudget of what is left (at most
  /// kDefaultUtilizationTimeBudget), so a module of many hard kernels ends
  /// within about this time, its late counts upper bounds (exact = false).
  absl::Duration utilization_time_budget = absl::Seconds(10);
  /// Also record the memory offsets that one warp and one output tile read
  /// (ReadOffsets below), for pictures; off by default (costs time).
  bool record_offsets = false;
  /// Most (thread, loop iteration) points evaluated for one tile's offsets.
  int64_t max_tile_points = int64_t{1} << 16;
};

/// The memory offsets (in elements, in the operand's layout order) read
/// through one map, each listed once, ascending.
struct ReadOffsets {
  /// The analyzed warp (block `block`, threads first..last of the report)
  /// at the first loop iteration, as the coalescing analysis sees it.
  std::vector<int64_t> warp;
  /// The output tile of the warp's block: every thread of the block, every
  /// unroll element and every loop iteration (range variable). Runtime
  /// variables sit at their lower bound.
  std::vector<int64_t> tile;
  /// True when the tile had more than max_tile_points points: `tile` is
  /// empty then.
  bool tile_truncated = false;
};

struct OperandReport {
  int64_t number = 0;
  std::string name;
  Shape shape;
  /// Simplified output-to-input maps, the union over the outputs.
  IndexingMapSet maps;
  OperandUtilization utilization;
  /// This operand's reads (one per output and map), from the coalescing
  /// analysis; empty when coalescing failed for the kernel.
  std::vector<OperandCoalescing> reads;
  /// True when no map reads an element (decided exactly, see the file
  /// comment); nullopt when a map is beyond the exact check, with why.
  std::optional<bool> unused = false;
  std::string unused_error;
  /// For reads[0], when ModuleReportOptions::record_offsets.
  std::optional<ReadOffsets> offsets;
};

struct KernelReport {
  std::string name;
  std::string computation;
  /// "fusion" with the fusion kind ("fusion kLoop"), or the opcode.
  std::string kind;
  std::vector<Shape> output_shapes;
  /// Non-empty when the kernel could not be analyzed; nothing else is set.
  std::string error;
  /// Non-empty when the coalescing analysis failed (the rest is set).
  std::string coalescing_error;
  /// The emitter XLA runs the kernel on, why, and how its launch was
  /// chosen (coalescing.h; "loop" and empty without a device). A library
  /// kernel (dot, convolution, ...) has no reads: utilization only.
  std::string emitter = "loop";
  std::string emitter_reason;
  std::string launch_note;
  bool library = false;
  LaunchGrid grid;
  int64_t block = 0;
  int64_t first_thread = 0;
  int64_t last_thread = 0;
  std::vector<OperandReport> operands;
  /// Wall time of this kernel's analysis.
  double microseconds = 0;
};

struct ModuleReport {
  std::string module_name;
  /// True when the kernels are fusions, false for per-instruction kernels.
  bool fusions = true;
  std::vector<KernelReport> kernels;
  ModuleReportOptions options;
  double microseconds = 0;
};

/// One analyzed read that is not coalesced: kernels[kernel].operands[
/// operand].reads[read].
struct ReadPosition {
  size_t kernel = 0;
  size_t operand = 0;
  size_t read = 0;
};

/// The module's report (see the file comment). Errors of single kernels are
/// kept in them; InvalidArgument only for bad options.
absl::StatusOr<ModuleReport> AnalyzeModuleReport(
    const HloModule& module, const ModuleReportOptions& options,
    mlir::MLIRContext* context);

/// The analyzed reads that are not coalesced, worst (lowest efficiency)
/// first; ties in module order.
std::vector<ReadPosition> UncoalescedReads(const ModuleReport& report);

/// Totals of the summary.
struct ModuleReportSummary {
  int64_t kernels = 0;
  int64_t failed = 0;
  int64_t reads = 0;
  int64_t analyzed_reads = 0;
  int64_t uncoalesced_reads = 0;
  int64_t unused_operands = 0;
  int64_t inexact_utilizations = 0;
  /// Kernels per emitter name, in order of first appearance.
  std::vector<std::pair<std::string, int64_t>> emitters;
};
ModuleReportSummary SummarizeModuleReport(const ModuleReport& report);

/// Text for people: the summary (with the worst `worst` uncoalesced reads),
/// then per kernel its operands' maps, verdicts, utilization and time.
std::string ModuleReportToText(const ModuleReport& report, int64_t worst = 10);
/// The same, written to `out` kernel by kernel.
void WriteModuleReportText(const ModuleReport& report, int64_t worst,
                           std::ostream& out);

/// One line of JSON (without a newline); the shape is in
/// docs/ARCHITECTURE.md ("JSON output").
std::string ModuleReportToJson(const ModuleReport& report, int64_t worst = 10);
/// The same, written to `out` kernel by kernel: memory for one kernel's
/// text, not the whole report's.
void WriteModuleReportJson(const ModuleReport& report, int64_t worst,
                           std::ostream& out);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_MODULE_REPORT_H_
