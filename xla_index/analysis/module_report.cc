#include "xla_index/analysis/module_report.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/analysis/fusion_utilization.h"
#include "xla_index/core/box_points.h"
#include "xla_index/core/interval.h"
#include "xla_index/core/presburger_relation.h"

namespace xla_index {
namespace {

using Clock = std::chrono::steady_clock;

double MicrosecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start)
      .count();
}

// Ops that only move values between kernels, or read nothing.
bool IsPlumbing(HloOpcode opcode) {
  return opcode == HloOpcode::kParameter || opcode == HloOpcode::kConstant ||
         opcode == HloOpcode::kTuple || opcode == HloOpcode::kGetTupleElement;
}

bool ReadsAnArray(const HloInstruction& instruction) {
  for (int64_t k = 0; k < instruction.operand_count(); ++k) {
    if (instruction.operand(k)->shape().IsArray()) return true;
  }
  return false;
}

// The kernels of `module` (see the file comment) and whether they are
// fusions.
std::pair<std::vector<const HloInstruction*>, bool> SelectKernels(
    const HloModule& module) {
  absl::flat_hash_set<const HloComputation*> fused;
  std::vector<const HloInstruction*> fusions;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      // A call's computation (also `calls=`) is not fused: its fusions count.
      if (instruction->opcode() == HloOpcode::kFusion &&
          instruction->fused_computation() != nullptr) {
        fused.insert(instruction->fused_computation());
      }
    }
  }
  for (const auto& computation : module.computations()) {
    if (fused.contains(computation.get())) continue;
    for (const auto& instruction : computation->instructions()) {
      if (instruction->opcode() == HloOpcode::kFusion) {
        fusions.push_back(instruction.get());
      }
    }
  }
  if (!fusions.empty()) return {fusions, true};
  std::vector<const HloInstruction*> instructions;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      if (!IsPlumbing(instruction->opcode()) && ReadsAnArray(*instruction)) {
        instructions.push_back(instruction.get());
      }
    }
  }
  return {instructions, false};
}

// True when every operand is read through the identity of the output alone
// (an elementwise op on equal shapes): nothing to report.
bool OnlyIdentityMaps(const AnalyzedFusion& fusion,
                      mlir::MLIRContext* context) {
  const IndexingMap identity =
      CreateIdentityMap(fusion.output_shape.dimensions(), context);
  for (const FusionOperand& operand : fusion.operands) {
    for (const IndexingMap& map : operand.maps) {
      if (!(map == identity)) return false;
    }
  }
  return true;
}

// True when `map` reads no element, decided exactly; see the file comment.
absl::StatusOr<bool> ReadsNothing(const IndexingMap& map) {
  if (map.IsKnownEmpty()) return true;
  if (map.IsUndefined()) return false;  // may read anything
  if (map.GetConstraintsCount() == 0) {
    bool empty_bound = false;
    for (const Interval& b : map.GetDimBounds()) empty_bound |= b.IsEmpty();
    for (const Interval& b : map.GetSymbolBounds()) empty_bound |= b.IsEmpty();
    if (!empty_bound) return false;
  }
  return IsExactlyEmpty(map);
}

void DecideUnused(OperandReport& operand) {
  operand.unused = true;
  for (const IndexingMap& map : operand.maps) {
    absl::StatusOr<bool> nothing = ReadsNothing(map);
    if (!nothing.ok()) {
      operand.unused = std::nullopt;
      operand.unused_error = std::string(nothing.status().message());
      return;
    }
    if (!*nothing) {
      operand.unused = false;
      return;
    }
  }
}

// The offsets `read.thread_to_offset` gives for threads [first, last] of
// block `block`: every unroll element (the last range variable), the other
// range variables over their bounds when `all_iterations`, else at their
// lower bound; runtime variables at their lower bound. nullopt beyond
// `limit` points.
std::optional<std::vector<int64_t>> OffsetsOf(const OperandCoalescing& read,
                                              int64_t block, int64_t first,
                                              int64_t last, bool all_iterations,
                                              int64_t limit) {
  const IndexingMap& map = read.thread_to_offset;
  if (map.IsUndefined() || map.IsKnownEmpty() || map.GetResultCount() != 1) {
    return std::vector<int64_t>{};
  }
  std::vector<Interval> box(kLaunchGridDims, Interval{0, 0});
  box[kThreadIdX] = {first, last};
  box[kBlockIdX] = {block, block};
  const int64_t ranges = map.GetRangeVarsCount();
  for (int64_t s = 0; s < map.GetSymbolCount(); ++s) {
    Interval bound = map.GetSymbolBound(s);
    const bool unroll = s == ranges - 1;
    box.push_back(unroll || (all_iterations && s < ranges)
                      ? bound
                      : Interval{bound.lower, bound.lower});
  }
  std::vector<int64_t> offsets;
  const bool fits =
      ForEachBoxPoint(box, limit, [&](const std::vector<int64_t>& point) {
        absl::Span<const int64_t> all(point);
        absl::Span<const int64_t> dims = all.subspan(0, kLaunchGridDims);
        absl::Span<const int64_t> symbols = all.subspan(kLaunchGridDims);
        if (!map.ConstraintsSatisfied(dims, symbols)) return;
        std::optional<std::vector<int64_t>> r = map.Evaluate(dims, symbols);
        if (r && r->size() == 1) offsets.push_back((*r)[0]);
      });
  if (!fits) return std::nullopt;
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  return offsets;
}

ReadOffsets RecordOffsets(const OperandCoalescing& read,
                          const KernelReport& kernel,
                          const ModuleReportOptions& options) {
  ReadOffsets offsets;
  offsets.warp = OffsetsOf(read, kernel.block, kernel.first_thread,
                           kernel.last_thread, false, options.max_tile_points)
                     .value_or(std::vector<int64_t>{});
  std::optional<std::vector<int64_t>> tile =
      OffsetsOf(read, kernel.block, 0, kernel.grid.threads[0] - 1, true,
                options.max_tile_points);
  offsets.tile_truncated = !tile.has_value();
  if (tile) offsets.tile = *std::move(tile);
  return offsets;
}

// The operands of `fusion` with their maps, utilization (all counts of the
// module ending by `utilization_end`) and emptiness.
std::vector<OperandReport> ReportOperands(const AnalyzedFusion& fusion,
                                          const ModuleReportOptions& options,
                                          absl::Time utilization_end) {
  std::vector<OperandReport> operands;
  for (const FusionOperand& operand : fusion.operands) {
    OperandReport report;
    report.number = operand.number;
    report.name = operand.name;
    report.shape = operand.shape;
    report.maps = operand.maps;
    report.utilization =
        ComputeFusionOperandUtilization(operand, options.utilization_points,
                                        NextOperandTimeBudget(utilization_end));
    DecideUnused(report);
    operands.push_back(std::move(report));
  }
  return operands;
}

// Adds the coalescing of every read of `fusion` to `kernel`.
void AddCoalescing(const AnalyzedFusion& fusion,
                   const ModuleReportOptions& options,
                   mlir::MLIRContext* context, KernelReport& kernel) {
  absl::StatusOr<CoalescingReport> coalescing =
      AnalyzeCoalescing(fusion, options.coalescing, context);
  if (!coalescing.ok()) {
    kernel.coalescing_error = std::string(coalescing.status().message());
    return;
  }
  kernel.emitter = coalescing->emitter;
  kernel.emitter_reason = coalescing->emitter_reason;
  kernel.launch_note = coalescing->launch_note;
  kernel.library = coalescing->library;
  kernel.grid = coalescing->grid;
  kernel.block = coalescing->options.block;
  kernel.first_thread = coalescing->first_thread;
  kernel.last_thread = coalescing->last_thread;
  for (OperandCoalescing& read : coalescing->operands) {
    for (OperandReport& operand : kernel.operands) {
      if (operand.number == read.operand) {
        operand.reads.push_back(std::move(read));
        break;
      }
    }
  }
  if (!options.record_offsets) return;
  for (OperandReport& operand : kernel.operands) {
    if (!operand.reads.empty() && operand.reads[0].analyzed) {
      operand.offsets = RecordOffsets(operand.reads[0], kernel, options);
    }
  }
}

// The report of one kernel; nullopt for an unfused instruction whose maps
// are all the identity.
std::optional<KernelReport> AnalyzeKernel(const HloInstruction& instruction,
                                          bool fusion_kernels,
                                          const ModuleReportOptions& options,
                                          absl::Time utilization_end,
                                          mlir::MLIRContext* context) {
  const Clock::time_point start = Clock::now();
  KernelReport kernel;
  kernel.name = instruction.name();
  kernel.computation =
      instruction.parent() ? instruction.parent()->name() : std::string();
  kernel.kind = std::string(instruction.opcode_name());
  if (!instruction.fusion_kind().empty()) {
    absl::StrAppend(&kernel.kind, " ", instruction.fusion_kind());
  }
  absl::StatusOr<AnalyzedFusion> fusion =
      AnalyzeInstructionOperands(instruction, context);
  if (!fusion.ok()) {
    kernel.error = std::string(fusion.status().message());
    kernel.microseconds = MicrosecondsSince(start);
    return kernel;
  }
  if (!fusion_kernels && OnlyIdentityMaps(*fusion, context)) {
    return std::nullopt;
  }
  kernel.output_shapes = fusion->output_shapes;
  kernel.operands = ReportOperands(*fusion, options, utilization_end);
  AddCoalescing(*fusion, options, context, kernel);
  kernel.microseconds = MicrosecondsSince(start);
  return kernel;
}

}  // namespace

absl::StatusOr<ModuleReport> AnalyzeModuleReport(
    const HloModule& module, const ModuleReportOptions& options,
    mlir::MLIRContext* context) {
  if (options.max_tile_points < 1 || options.utilization_points < 1) {
    return absl::InvalidArgumentError(
        "the report's point limits must be at least 1");
  }
  const Clock::time_point start = Clock::now();
  ModuleReport report;
  report.module_name = module.name();
  report.options = options;
  auto [kernels, fusions] = SelectKernels(module);
  const absl::Time utilization_end =
      absl::Now() + options.utilization_time_budget;
  report.fusions = fusions;
  for (const HloInstruction* instruction : kernels) {
    if (std::optional<KernelReport> kernel = AnalyzeKernel(
            *instruction, fusions, options, utilization_end, context)) {
      report.kernels.push_back(*std::move(kernel));
    }
  }
  report.microseconds = MicrosecondsSince(start);
  return report;
}

std::vector<ReadPosition> UncoalescedReads(const ModuleReport& report) {
  std::vector<ReadPosition> positions;
  for (size_t k = 0; k < report.kernels.size(); ++k) {
    const KernelReport& kernel = report.kernels[k];
    for (size_t o = 0; o < kernel.operands.size(); ++o) {
      const std::vector<OperandCoalescing>& reads = kernel.operands[o].reads;
      for (size_t r = 0; r < reads.size(); ++r) {
        if (reads[r].analyzed && reads[r].active_threads > 0 &&
            !reads[r].access.coalesced) {
          positions.push_back({k, o, r});
        }
      }
    }
  }
  auto efficiency = [&](const ReadPosition& p) {
    return report.kernels[p.kernel]
        .operands[p.operand]
        .reads[p.read]
        .access.efficiency;
  };
  std::stable_sort(positions.begin(), positions.end(),
                   [&](const ReadPosition& a, const ReadPosition& b) {
                     return efficiency(a) < efficiency(b);
                   });
  return positions;
}

ModuleReportSummary SummarizeModuleReport(const ModuleReport& report) {
  ModuleReportSummary summary;
  summary.kernels = report.kernels.size();
  for (const KernelReport& kernel : report.kernels) {
    if (!kernel.error.empty()) ++summary.failed;
    auto it = std::find_if(
        summary.emitters.begin(), summary.emitters.end(),
        [&](const auto& entry) { return entry.first == kernel.emitter; });
    if (it == summary.emitters.end()) {
      summary.emitters.emplace_back(kernel.emitter, 1);
    } else {
      ++it->second;
    }
    for (const OperandReport& operand : kernel.operands) {
      if (operand.unused.value_or(false)) ++summary.unused_operands;
      if (!operand.utilization.exact) ++summary.inexact_utilizations;
      for (const OperandCoalescing& read : operand.reads) {
        ++summary.reads;
        if (read.analyzed) ++summary.analyzed_reads;
      }
    }
  }
  summary.uncoalesced_reads = UncoalescedReads(report).size();
  return summary;
}

}  // namespace xla_index
