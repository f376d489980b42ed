#include "xla_index/analysis/coalescing.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "layout/shape_layout.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/analysis/emitter_choice.h"
#include "xla_index/analysis/emitter_indexing.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/analysis/warp_iteration_sample.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

constexpr int64_t kTransactionSizes[] = {32, 64, 128};

// The offsets the warp's threads [first, last] of block `block` read
// through `thread_to_offset`, and how many threads read anything.
// `unroll_symbol` is the position of the unroll element among the symbols;
// the other range variables sit at their lower bound (iteration 0), runtime
// variables at the lower bound of their feasible values.
std::pair<std::vector<int64_t>, int64_t> WarpOffsets(
    const IndexingMap& thread_to_offset, int64_t unroll_symbol, int64_t first,
    int64_t last, int64_t block) {
  std::vector<int64_t> offsets;
  int64_t active = 0;
  const std::vector<Interval> bounds = thread_to_offset.GetSymbolBounds();
  std::vector<int64_t> symbols;
  for (Interval b : bounds) symbols.push_back(b.lower);
  // Without range variables every thread evaluates the map once.
  const Interval unroll =
      unroll_symbol < 0 ? Interval{0, 0} : bounds[unroll_symbol];
  for (int64_t thread = first; thread <= last; ++thread) {
    std::vector<int64_t> dims(kLaunchGridDims, 0);
    dims[kThreadIdX] = thread;
    dims[kBlockIdX] = block;
    bool reads = false;
    for (int64_t u = unroll.lower; u <= unroll.upper; ++u) {
      if (unroll_symbol >= 0) symbols[unroll_symbol] = u;
      if (!thread_to_offset.ConstraintsSatisfied(dims, symbols)) continue;
      std::optional<std::vector<int64_t>> offset =
          thread_to_offset.Evaluate(dims, symbols);
      if (!offset || offset->size() != 1) continue;
      offsets.push_back((*offset)[0]);
      reads = true;
    }
    if (reads) ++active;
  }
  return {offsets, active};
}

// The distinct values of `offsets` as sorted maximal runs of consecutive
// integers.
std::vector<Interval> RunsOf(absl::Span<const int64_t> offsets) {
  std::vector<int64_t> sorted(offsets.begin(), offsets.end());
  std::sort(sorted.begin(), sorted.end());
  std::vector<Interval> runs;
  for (int64_t o : sorted) {
    if (!runs.empty() && runs.back().upper >= SaturatingSub(o, 1)) {
      runs.back().upper = std::max(runs.back().upper, o);
    } else {
      runs.push_back(Interval::Point(o));
    }
  }
  return runs;
}

// The last range variable with more than one value, or -1.
int64_t InnermostVaryingRangeVar(const IndexingMap& map) {
  const std::vector<Interval>& ranges = map.GetRangeVarBounds();
  for (int64_t s = static_cast<int64_t>(ranges.size()) - 1; s >= 0; --s) {
    if (ranges[s].upper > ranges[s].lower) return s;
  }
  return -1;
}

std::string FormatEfficiency(double efficiency) {
  return absl::StrFormat("%.4g", efficiency);
}

std::string Indent(const std::string& text, const std::string& prefix) {
  return prefix + absl::StrReplaceAll(text, {{"\n", "\n" + prefix}});
}

// Refuses warps whose analysis would evaluate more than
// kMaxWarpEvaluations points per read (warp_size threads x unroll
// elements), before any work is done.
absl::Status CheckWarpWork(const CoalescingOptions& options) {
  if (options.warp_size < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("warp size must be at least 1, got ", options.warp_size));
  }
  if (options.unroll < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("unroll factor must be at least 1, got ", options.unroll));
  }
  std::optional<int64_t> work = CheckedMul(options.warp_size, options.unroll);
  if (!work || *work > kMaxWarpEvaluations) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unroll ", options.unroll, " x warp size ", options.warp_size,
        " is more than the ", kMaxWarpEvaluations,
        " element evaluations per operand read this analysis does; use a "
        "smaller unroll factor"));
  }
  return absl::OkStatus();
}

// A caller-given launch grid, checked: the loop map has one linear index
// over threads.x and blocks.x, so y and z must be 1.
absl::StatusOr<LaunchGrid> CheckGivenGrid(const LaunchGrid& grid,
                                          int64_t unroll) {
  for (int64_t i = 0; i < 3; ++i) {
    const char axis = "xyz"[i];
    if (grid.threads[i] < 1 || grid.blocks[i] < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "launch grid: threads.", std::string(1, axis), " and blocks.",
          std::string(1, axis), " must be at least 1, got ", grid.threads[i],
          " and ", grid.blocks[i]));
    }
    if (i > 0 && (grid.threads[i] != 1 || grid.blocks[i] != 1)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "launch grid: the loop map uses x only; threads.",
          std::string(1, axis), " and blocks.", std::string(1, axis),
          " must be 1, got ", grid.threads[i], " and ", grid.blocks[i]));
    }
  }
  if (!CheckedProduct({grid.blocks[0], grid.threads[0], unroll})) {
    return absl::InvalidArgumentError(absl::StrCat(
        "launch grid: ", grid.blocks[0], " blocks x ", grid.threads[0],
        " threads x unroll ", unroll, " is more than INT64_MAX elements"));
  }
  return grid;
}

// The launch for the fusion's outputs (the given grid, or the default loop
// launch), which must have one element count (the outputs of a multi-output
// loop fusion are computed by the same threads, XLA's loop emitter over one
// index shape).
absl::StatusOr<LaunchGrid> LaunchFor(const AnalyzedFusion& fusion,
                                     const CoalescingOptions& options) {
  const int64_t elements = fusion.output_shapes[0].ElementCount();
  for (size_t j = 1; j < fusion.output_shapes.size(); ++j) {
    if (fusion.output_shapes[j].ElementCount() != elements) {
      return absl::InvalidArgumentError(
          absl::StrCat("outputs of '", fusion.root->name(),
                       "' differ in element count (output 0: ",
                       fusion.output_shapes[0].ToString(), ", output ", j, ": ",
                       fusion.output_shapes[j].ToString(),
                       "); one loop launch cannot cover both"));
    }
  }
  if (options.grid.has_value()) {
    return CheckGivenGrid(*options.grid, options.unroll);
  }
  return DefaultLoopLaunchGrid(elements, options.threads_per_block,
                               options.unroll);
}

// Checks that options.block and options.warp lie in the launch grid and
// sets the warp's thread range [first_thread, last_thread].
absl::Status PlaceWarp(const CoalescingOptions& options,
                       CoalescingReport& report) {
  const LaunchGrid& grid = report.grid;
  if (options.block < 0 || options.block >= grid.blocks[0]) {
    return absl::InvalidArgumentError(
        absl::StrCat("block ", options.block, " is outside the launch grid of ",
                     grid.blocks[0], " blocks"));
  }
  std::optional<int64_t> first = CheckedMul(options.warp, options.warp_size);
  if (options.warp < 0 || !first || *first >= grid.threads[0]) {
    return absl::InvalidArgumentError(
        absl::StrCat("warp ", options.warp, " is outside a block of ",
                     grid.threads[0], " threads"));
  }
  report.first_thread = *first;
  // first < threads[0], so first + warp_size - 1 only overflows when the
  // block is smaller anyway.
  report.last_thread =
      std::min(SaturatingAdd(*first, options.warp_size), grid.threads[0]) - 1;
  return absl::OkStatus();
}

// InvalidArgument naming `read`'s operand when an element offset is
// saturated (its evaluation overflowed) or its bytes do not fit in int64.
absl::Status CheckByteOffsets(absl::Span<const int64_t> offsets,
                              const OperandCoalescing& read) {
  for (int64_t o : offsets) {
    std::optional<int64_t> next = CheckedAdd(o, 1);
    if (o != Interval::kMin && next && *next != Interval::kMax &&
        CheckedMul(o, read.bits_per_element) &&
        CheckedMul(*next, read.bits_per_element)) {
      continue;
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "operand ", read.operand, " (", read.operand_name, ", ",
        read.operand_shape.ToString(), "), map ", read.map_index,
        ": the byte offset of element ", o,
        " does not fit in int64 (the operand is too large to analyze)"));
  }
  return absl::OkStatus();
}

// One read: operand `operand` through `map`, output `output`'s map number
// `map_index`, analyzed at the report's warp.
absl::StatusOr<OperandCoalescing> AnalyzeRead(
    const FusionOperand& operand, size_t output, int64_t map_index,
    const IndexingMap& map, const IndexingMap& thread_to_output,
    const CoalescingReport& report) {
  OperandCoalescing read;
  read.operand = operand.number;
  read.operand_name = operand.name;
  read.operand_shape = operand.shape;
  read.output = static_cast<int64_t>(output);
  read.map_index = map_index;
  if (map.IsUndefined()) {
    read.analyzed = false;
    read.reason = "no indexing rule (UNDEFINED map)";
    return read;
  }
  if (!operand.shape.IsArray()) {
    read.analyzed = false;
    read.reason = "operand is not an array";
    return read;
  }
  read.bits_per_element = BitsPerElement(operand.shape);
  if (map.IsKnownEmpty()) {
    read.access = SummarizeWarpAccess({}, read.bits_per_element);
    return read;
  }
  IndexingMap thread_to_operand =
      ComposeThreadToInputIndexing(thread_to_output, map);
  absl::StatusOr<IndexingMap> thread_to_offset =
      ComposeWithPhysicalLayout(thread_to_operand, operand.shape);
  if (!thread_to_offset.ok()) {
    read.analyzed = false;
    read.reason = std::string(thread_to_offset.status().message());
    return read;
  }
  read.thread_to_offset = *std::move(thread_to_offset);
  std::vector<int64_t> offsets;
  // XLA's sample, as runs of consecutive distinct offsets.
  WarpIterationSample xla_sample;
  if (!read.thread_to_offset.IsKnownEmpty()) {
    // Symbols (ComposeIndexingMaps' order): the layout map's range
    // variables (none today), the operand map's, then the thread map's
    // (the unroll or vector element last), then runtime variables: the
    // innermost element is the last range variable.
    const int64_t innermost = read.thread_to_offset.GetRangeVarsCount() - 1;
    auto [warp_offsets, active] =
        WarpOffsets(read.thread_to_offset, innermost, report.first_thread,
                    report.last_thread, report.options.block);
    offsets = std::move(warp_offsets);
    read.active_threads = active;
    // XLA's sample folds range variables of one value away first
    // (Simplify, RemoveUnusedSymbols), so the one it varies is the
    // innermost with more than one value (e.g. the reduced dimension read
    // by a loop emitter without unrolling), over its whole range.
    const int64_t varied = InnermostVaryingRangeVar(read.thread_to_offset);
    if (varied != innermost && varied >= 0) {
      xla_sample = SampleWarpOverIterations(
          read.thread_to_offset, varied, report.first_thread,
          report.last_thread, report.options.block,
          report.options.max_sample_points);
    } else {
      for (const Interval& run : RunsOf(offsets)) {
        ++xla_sample.run_lengths[run.upper - run.lower + 1];
      }
      if (!offsets.empty()) {
        xla_sample.span = {*std::min_element(offsets.begin(), offsets.end()),
                           *std::max_element(offsets.begin(), offsets.end())};
      }
      xla_sample.points_evaluated = static_cast<int64_t>(offsets.size());
    }
  }
  XI_RETURN_IF_ERROR(CheckByteOffsets(offsets, read));
  if (xla_sample.span.IsFeasible()) {
    XI_RETURN_IF_ERROR(
        CheckByteOffsets({xla_sample.span.lower, xla_sample.span.upper}, read));
  }
  read.access = SummarizeWarpAccess(offsets, read.bits_per_element);
  if (xla_sample.decided) {
    read.xla_rule = SummarizeXlaTransactionRuleOfRunLengths(
        xla_sample.run_lengths, read.bits_per_element);
  } else {
    read.xla_rule.decided = false;
    read.xla_rule.coalesced = false;
  }
  read.xla_rule.points_evaluated = xla_sample.points_evaluated;
  return read;
}

// Appends to `report` every read of `operand` that output `output`'s maps
// give (one per map, in map order), each through that output's thread map.
absl::Status AppendOperandReads(const FusionOperand& operand, size_t output,
                                CoalescingReport& report) {
  const IndexingMapSet& maps = operand.maps_by_output[output];
  for (int64_t i = 0; i < maps.size(); ++i) {
    XI_ASSIGN_OR_RETURN(OperandCoalescing read,
                        AnalyzeRead(operand, output, i, maps[i],
                                    report.thread_to_outputs[output], report));
    report.operands.push_back(std::move(read));
  }
  return absl::OkStatus();
}

// The identity map over `shape`'s indices (a hero operand that is the
// kernel's operand itself).
IndexingMap IdentityMap(const Shape& shape, mlir::MLIRContext* context) {
  std::vector<int64_t> sizes(shape.dimensions().begin(),
                             shape.dimensions().end());
  return IndexingMap::FromTensorSizes(
      mlir::AffineMap::getMultiDimIdentityMap(
          static_cast<unsigned>(sizes.size()), context),
      sizes, {});
}

// The kernel operands hero operand `k` reads, each with its maps from the
// hero operand's elements: the operand itself for an instruction analyzed
// alone, else the hero operand composed back to the kernel's parameters.
absl::StatusOr<std::vector<std::pair<const FusionOperand*, IndexingMapSet>>>
HeroOperandSources(const AnalyzedFusion& fusion, const HloInstruction& hero,
                   int64_t k, mlir::MLIRContext* context) {
  std::vector<std::pair<const FusionOperand*, IndexingMapSet>> sources;
  if (fusion.computation == nullptr) {
    if (k < static_cast<int64_t>(fusion.operands.size())) {
      IndexingMapSet maps;
      maps.Insert(IdentityMap(fusion.operands[k].shape, context));
      sources.emplace_back(&fusion.operands[k], std::move(maps));
    }
    return sources;
  }
  XI_ASSIGN_OR_RETURN(AnalyzedFusion sub,
                      AnalyzeFusionOperands(*hero.operand(k), context));
  for (const FusionOperand& o : sub.operands) {
    if (o.maps.empty()) continue;
    for (const FusionOperand& kernel_operand : fusion.operands) {
      if (kernel_operand.number == o.number) {
        sources.emplace_back(&kernel_operand, o.maps);
      }
    }
  }
  return sources;
}

// The reads of output `j`, hero-anchored: through each hero operand's
// thread map, then the operands output j reads besides (an epilogue's) in
// the output's thread order.
absl::Status AddHeroAnchoredReads(const AnalyzedFusion& fusion,
                                  const EmitterIndexing& ix, size_t j,
                                  mlir::MLIRContext* context,
                                  CoalescingReport& report) {
  const HloInstruction& hero = *ix.heroes[j];
  std::vector<int64_t> reads_per_operand(fusion.operands.size(), 0);
  absl::flat_hash_set<int64_t> via_hero;
  for (int64_t k = 0; k < hero.operand_count(); ++k) {
    XI_ASSIGN_OR_RETURN(auto sources,
                        HeroOperandSources(fusion, hero, k, context));
    // An operand the emitter does not read (a dynamic-update-slice's
    // buffer, updated in place) has no read; one read at positions only the
    // data knows (a scatter's operand) has a read that is not analyzed.
    const IndexingMap& thread_map = ix.thread_to_hero_operands[j][k];
    const bool not_read = thread_map.IsUndefined() &&
                          thread_map.undefined_reason() == kNotReadByTheEmitter;
    for (const auto& [operand, maps] : sources) {
      via_hero.insert(operand->number);
      if (not_read) continue;
      if (thread_map.IsUndefined()) {
        OperandCoalescing unknown;
        unknown.operand = operand->number;
        unknown.operand_name = operand->name;
        unknown.operand_shape = operand->shape;
        unknown.output = static_cast<int64_t>(j);
        unknown.map_index =
            reads_per_operand[operand - fusion.operands.data()]++;
        unknown.analyzed = false;
        unknown.reason = thread_map.undefined_reason();
        report.operands.push_back(std::move(unknown));
        continue;
      }
      for (const IndexingMap& map : maps) {
        const size_t index = operand - fusion.operands.data();
        XI_ASSIGN_OR_RETURN(
            OperandCoalescing read,
            AnalyzeRead(*operand, j, reads_per_operand[index]++, map,
                        ix.thread_to_hero_operands[j][k], report));
        report.operands.push_back(std::move(read));
      }
    }
  }
  for (size_t o = 0; o < fusion.operands.size(); ++o) {
    const FusionOperand& operand = fusion.operands[o];
    if (via_hero.contains(operand.number)) continue;
    for (const IndexingMap& map : operand.maps_by_output[j]) {
      XI_ASSIGN_OR_RETURN(OperandCoalescing read,
                          AnalyzeRead(operand, j, reads_per_operand[o]++, map,
                                      ix.thread_to_outputs[j], report));
      report.operands.push_back(std::move(read));
    }
  }
  return absl::OkStatus();
}

// AnalyzeCoalescing with a device: XLA's emitter, its launch and maps.
absl::StatusOr<CoalescingReport> AnalyzeOnEmitter(
    const AnalyzedFusion& fusion, const CoalescingOptions& options,
    mlir::MLIRContext* context) {
  const GpuDeviceDescription& device = *options.device;
  CoalescingReport report;
  report.root_name = fusion.root->name();
  report.output_shape = fusion.output_shape;
  report.output_shapes = fusion.output_shapes;
  report.options = options;
  report.device = device.name;
  XI_ASSIGN_OR_RETURN(EmitterChoice choice, ChooseEmitter(fusion, device));
  report.emitter = choice.name;
  report.emitter_reason = choice.reason;
  if (choice.kind == EmitterKind::kLibrary) {
    report.library = true;
    report.launch_note =
        "library kernel: no emitter thread map (operand utilization only)";
    return report;
  }
  LoopLaunchOverrides overrides;
  if (options.block_given)
    overrides.threads_per_block = options.threads_per_block;
  if (options.unroll_given) overrides.unroll = options.unroll;
  XI_ASSIGN_OR_RETURN(
      EmitterIndexing ix,
      ComputeEmitterIndexing(fusion, choice, device, overrides, context));
  report.grid = ix.grid;
  report.unroll = ix.unroll;
  report.options.unroll = ix.unroll;
  report.options.threads_per_block = ix.grid.threads[0];
  report.launch_note = ix.note;
  XI_RETURN_IF_ERROR(CheckWarpWork(report.options));
  XI_RETURN_IF_ERROR(PlaceWarp(options, report));
  report.thread_to_outputs = ix.thread_to_outputs;
  report.thread_to_output = report.thread_to_outputs[0];
  for (size_t j = 0; j < fusion.output_shapes.size(); ++j) {
    if (ix.hero_anchored[j]) {
      XI_RETURN_IF_ERROR(AddHeroAnchoredReads(fusion, ix, j, context, report));
      continue;
    }
    for (const FusionOperand& operand : fusion.operands) {
      XI_RETURN_IF_ERROR(AppendOperandReads(operand, j, report));
    }
  }
  return report;
}

// The offsets a warp reads, each once, ascending (threads that read the
// same element share one load).
std::vector<int64_t> SortedDistinct(absl::Span<const int64_t> offsets) {
  std::vector<int64_t> elements(offsets.begin(), offsets.end());
  std::sort(elements.begin(), elements.end());
  elements.erase(std::unique(elements.begin(), elements.end()), elements.end());
  return elements;
}

}  // namespace

WarpMemoryAccess SummarizeWarpAccess(absl::Span<const int64_t> offsets,
                                     int64_t bits_per_element) {
  WarpMemoryAccess access;
  const std::vector<int64_t> elements = SortedDistinct(offsets);
  access.distinct_elements = static_cast<int64_t>(elements.size());
  // Element o covers the bytes [floor(o * b / 8), ceil((o + 1) * b / 8)).
  // Sorted elements give sorted ranges; adjacent or overlapping ones merge
  // (two 4-bit elements share a byte).
  for (int64_t o : elements) {
    ByteRange range{
        FloorDiv(SaturatingMul(o, bits_per_element), 8),
        CeilDiv(SaturatingMul(SaturatingAdd(o, 1), bits_per_element), 8)};
    if (!access.byte_ranges.empty() &&
        access.byte_ranges.back().end >= range.begin) {
      access.byte_ranges.back().end =
          std::max(access.byte_ranges.back().end, range.end);
    } else {
      access.byte_ranges.push_back(range);
    }
  }
  for (const ByteRange& range : access.byte_ranges) {
    access.bytes_touched =
        SaturatingAdd(access.bytes_touched, range.end - range.begin);
  }
  for (int64_t size : kTransactionSizes) {
    TransactionCount count;
    count.size = size;
    count.minimum = CeilDiv(access.bytes_touched, size);
    // Segments floor(begin / T) .. floor((end - 1) / T) of each range; a
    // segment shared by consecutive ranges counts once.
    int64_t last_segment = Interval::kMin;
    for (const ByteRange& range : access.byte_ranges) {
      int64_t lo = FloorDiv(range.begin, size);
      int64_t hi = FloorDiv(range.end - 1, size);
      if (lo <= last_segment) lo = last_segment + 1;
      if (hi >= lo) count.count += hi - lo + 1;
      last_segment = std::max(last_segment, hi);
    }
    access.transactions.push_back(count);
  }
  const TransactionCount& sectors = access.transactions[0];
  access.efficiency =
      sectors.count == 0 ? 1.0
                         : static_cast<double>(sectors.minimum) / sectors.count;
  access.coalesced =
      sectors.count == sectors.minimum || access.byte_ranges.size() == 1;
  return access;
}

XlaTransactionRule SummarizeXlaTransactionRule(
    absl::Span<const int64_t> offsets, int64_t bits_per_element) {
  std::map<int64_t, int64_t> run_lengths;
  for (const Interval& run : RunsOf(offsets)) {
    ++run_lengths[SaturatingAdd(SaturatingSub(run.upper, run.lower), 1)];
  }
  return SummarizeXlaTransactionRuleOfRunLengths(run_lengths, bits_per_element);
}

XlaTransactionRule SummarizeXlaTransactionRuleOfRunLengths(
    const std::map<int64_t, int64_t>& run_lengths, int64_t bits_per_element) {
  constexpr int64_t kBytesPerTransaction = 128;
  constexpr double kIsCoalescedThreshold = 0.9;
  const int64_t bytes = std::max<int64_t>(1, CeilDiv(bits_per_element, 8));
  XlaTransactionRule rule;
  int64_t total = 0;
  for (const auto& [length, count] : run_lengths) {
    rule.intervals = SaturatingAdd(rule.intervals, count);
    rule.transactions =
        SaturatingAdd(rule.transactions,
                      SaturatingMul(count, CeilDiv(SaturatingMul(length, bytes),
                                                   kBytesPerTransaction)));
    total = SaturatingAdd(total, SaturatingMul(length, count));
  }
  rule.lower_bound = CeilDiv(SaturatingMul(total, bytes), kBytesPerTransaction);
  rule.coalesced = rule.transactions == 0 ||
                   rule.lower_bound > static_cast<double>(rule.transactions) *
                                          kIsCoalescedThreshold;
  return rule;
}

absl::StatusOr<CoalescingReport> AnalyzeCoalescing(
    const HloInstruction& instruction, const CoalescingOptions& options,
    mlir::MLIRContext* context) {
  XI_RETURN_IF_ERROR(CheckWarpWork(options));
  XI_ASSIGN_OR_RETURN(AnalyzedFusion fusion,
                      AnalyzeFusionOperands(instruction, context));
  return AnalyzeCoalescing(fusion, options, context);
}

absl::StatusOr<CoalescingReport> AnalyzeCoalescing(
    const AnalyzedFusion& fusion, const CoalescingOptions& options,
    mlir::MLIRContext* context) {
  XI_RETURN_IF_ERROR(CheckWarpWork(options));
  if (options.device.has_value()) {
    return AnalyzeOnEmitter(fusion, options, context);
  }
  CoalescingReport report;
  report.root_name = fusion.root->name();
  report.output_shape = fusion.output_shape;
  report.output_shapes = fusion.output_shapes;
  report.options = options;
  XI_ASSIGN_OR_RETURN(report.grid, LaunchFor(fusion, options));
  XI_RETURN_IF_ERROR(PlaceWarp(options, report));
  for (const Shape& output : fusion.output_shapes) {
    XI_ASSIGN_OR_RETURN(IndexingMap thread_to_output,
                        DefaultThreadIdToOutputIndexing(
                            report.grid, options.unroll, output, context));
    report.thread_to_outputs.push_back(std::move(thread_to_output));
  }
  report.thread_to_output = report.thread_to_outputs[0];
  report.unroll = options.unroll;
  for (const FusionOperand& operand : fusion.operands) {
    for (size_t j = 0; j < operand.maps_by_output.size(); ++j) {
      XI_RETURN_IF_ERROR(AppendOperandReads(operand, j, report));
    }
  }
  return report;
}

absl::StatusOr<CoalescingReport> AnalyzeCoalescing(
    const HloModule& module, const CoalescingOptions& options,
    mlir::MLIRContext* context) {
  XI_ASSIGN_OR_RETURN(const HloInstruction* root, EntryRoot(module));
  return AnalyzeCoalescing(*root, options, context);
}

std::string CoalescingVerdict(const OperandCoalescing& read) {
  if (!read.analyzed) return "not analyzed";
  if (read.active_threads == 0) return "not read by this warp";
  return read.access.coalesced ? "coalesced" : "not coalesced";
}

std::string CoalescingReportToText(const CoalescingReport& report) {
  const LaunchGrid& g = report.grid;
  // One output reads as before; a multi-output root lists its outputs and
  // one thread map per output, and says which output each read serves.
  const bool multi_output = report.thread_to_outputs.size() > 1;
  std::vector<std::string> shapes;
  for (const Shape& shape : report.output_shapes) {
    shapes.push_back(shape.ToString());
  }
  std::string text = absl::StrCat("root: ", report.root_name,
                                  multi_output ? "\noutputs: " : "\noutput: ",
                                  multi_output ? absl::StrJoin(shapes, ", ")
                                               : report.output_shape.ToString(),
                                  "\n");
  if (!report.device.empty()) {
    absl::StrAppend(&text, "device: ",
                    report.options.device.has_value()
                        ? GpuDeviceToString(*report.options.device)
                        : report.device,
                    "\nemitter: ", report.emitter, " (", report.emitter_reason,
                    ")\nlaunch note: ", report.launch_note, "\n");
  }
  if (report.library) return text;
  absl::StrAppend(&text, "launch: threads (", absl::StrJoin(g.threads, ", "),
                  "), blocks (", absl::StrJoin(g.blocks, ", "), "), unroll ",
                  report.unroll, "\nwarp: block ", report.options.block,
                  ", warp ", report.options.warp, ", threads ",
                  report.first_thread, "..", report.last_thread, "\n");
  for (size_t j = 0; j < report.thread_to_outputs.size(); ++j) {
    absl::StrAppend(&text, "thread -> output",
                    multi_output ? absl::StrCat(" ", j) : "", ":\n",
                    Indent(ToString(report.thread_to_outputs[j]), "  "), "\n");
  }
  for (const OperandCoalescing& read : report.operands) {
    absl::StrAppend(
        &text, "operand ", read.operand, " (", read.operand_name, ", ",
        read.operand_shape.ToString(), "), ",
        multi_output ? absl::StrCat("output ", read.output, ", ") : "", "map ",
        read.map_index, ":\n");
    if (!read.analyzed) {
      absl::StrAppend(&text, "  not analyzed: ", read.reason, "\n");
      continue;
    }
    const WarpMemoryAccess& a = read.access;
    absl::StrAppend(&text, "  thread -> offset:\n",
                    Indent(ToString(read.thread_to_offset), "    "), "\n");
    std::vector<std::string> ranges;
    for (const ByteRange& r : a.byte_ranges) {
      ranges.push_back(absl::StrCat("[", r.begin, ", ", r.end, ")"));
    }
    // Long lists (a transpose touches 32 ranges) are shortened for people;
    // --json has them all.
    if (ranges.size() > 8) {
      ranges.resize(8);
      ranges.push_back("...");
    }
    absl::StrAppend(&text, "  active threads: ", read.active_threads,
                    ", elements: ", a.distinct_elements, " of ",
                    read.bits_per_element, " bits\n",
                    "  bytes touched: ", a.bytes_touched, " in ",
                    a.byte_ranges.size(),
                    " contiguous range(s): ", absl::StrJoin(ranges, " "),
                    "\n  transactions:");
    for (const TransactionCount& t : a.transactions) {
      absl::StrAppend(&text, " ", t.size, "B ", t.count, " (min ", t.minimum,
                      ")");
    }
    const XlaTransactionRule& x = read.xla_rule;
    absl::StrAppend(&text, "\n  efficiency: ", FormatEfficiency(a.efficiency),
                    "\n  verdict: ", CoalescingVerdict(read),
                    "\n  xla 128-byte rule: ");
    if (!x.decided) {
      absl::StrAppend(&text, "not decided (the sample needs more than ",
                      report.options.max_sample_points, " evaluations)\n");
      continue;
    }
    absl::StrAppend(&text, x.intervals, " interval(s), ", x.transactions,
                    " transaction(s), lower bound ", x.lower_bound, ": ",
                    x.coalesced ? "coalesced" : "not coalesced", "\n");
  }
  return text;
}

std::string CoalescingReportToJson(const CoalescingReport& report) {
  const LaunchGrid& g = report.grid;
  std::string json = absl::StrCat(
      "{\"root\": ", JsonQuote(report.root_name),
      ", \"output_shape\": ", JsonQuote(report.output_shape.ToString()),
      ", \"launch\": {\"threads\": [", absl::StrJoin(g.threads, ", "),
      "], \"blocks\": [", absl::StrJoin(g.blocks, ", "),
      "], \"unroll\": ", report.unroll,
      "}, \"warp\": {\"block\": ", report.options.block,
      ", \"warp\": ", report.options.warp,
      ", \"first_thread\": ", report.first_thread,
      ", \"last_thread\": ", report.last_thread,
      "}, \"device\": ", JsonQuote(report.device),
      ", \"emitter\": ", JsonQuote(report.emitter),
      ", \"emitter_reason\": ", JsonQuote(report.emitter_reason),
      ", \"launch_note\": ", JsonQuote(report.launch_note),
      ", \"library\": ", report.library ? "true" : "false",
      ", \"thread_to_output\": ", IndexingMapToJson(report.thread_to_output),
      ", \"output_shapes\": [");
  for (size_t j = 0; j < report.output_shapes.size(); ++j) {
    absl::StrAppend(&json, j ? ", " : "",
                    JsonQuote(report.output_shapes[j].ToString()));
  }
  absl::StrAppend(&json, "], \"thread_to_outputs\": [");
  for (size_t j = 0; j < report.thread_to_outputs.size(); ++j) {
    absl::StrAppend(&json, j ? ", " : "",
                    IndexingMapToJson(report.thread_to_outputs[j]));
  }
  absl::StrAppend(&json, "], \"operands\": [");
  for (size_t i = 0; i < report.operands.size(); ++i) {
    const OperandCoalescing& read = report.operands[i];
    const WarpMemoryAccess& a = read.access;
    absl::StrAppend(
        &json, i ? ", " : "", "{\"operand\": ", read.operand,
        ", \"name\": ", JsonQuote(read.operand_name),
        ", \"shape\": ", JsonQuote(read.operand_shape.ToString()),
        ", \"output\": ", read.output, ", \"map_index\": ", read.map_index,
        ", \"analyzed\": ", read.analyzed ? "true" : "false",
        ", \"reason\": ", JsonQuote(read.reason),
        ", \"thread_to_offset\": ", IndexingMapToJson(read.thread_to_offset),
        ", \"bits_per_element\": ", read.bits_per_element,
        ", \"active_threads\": ", read.active_threads,
        ", \"distinct_elements\": ", a.distinct_elements,
        ", \"bytes_touched\": ", a.bytes_touched, ", \"byte_ranges\": [");
    for (size_t r = 0; r < a.byte_ranges.size(); ++r) {
      absl::StrAppend(&json, r ? ", " : "", "[", a.byte_ranges[r].begin, ", ",
                      a.byte_ranges[r].end, "]");
    }
    absl::StrAppend(&json, "], \"transactions\": [");
    for (size_t t = 0; t < a.transactions.size(); ++t) {
      absl::StrAppend(&json, t ? ", " : "",
                      "{\"size\": ", a.transactions[t].size,
                      ", \"count\": ", a.transactions[t].count,
                      ", \"minimum\": ", a.transactions[t].minimum, "}");
    }
    absl::StrAppend(
        &json, "], \"efficiency\": ", FormatEfficiency(a.efficiency),
        ", \"coalesced\": ", a.coalesced ? "true" : "false",
        ", \"verdict\": ", JsonQuote(CoalescingVerdict(read)),
        ", \"xla_rule\": {\"decided\": ",
        read.xla_rule.decided ? "true" : "false",
        ", \"points_evaluated\": ", read.xla_rule.points_evaluated,
        ", \"intervals\": ", read.xla_rule.intervals,
        ", \"transactions\": ", read.xla_rule.transactions,
        ", \"lower_bound\": ", read.xla_rule.lower_bound,
        ", \"coalesced\": ", read.xla_rule.coalesced ? "true" : "false", "}}");
  }
  absl::StrAppend(&json, "]}");
  return json;
}

}  // namespace xla_index
