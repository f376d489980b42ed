#include "xla_index/analysis/coalescing.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "layout/shape_layout.h"
#include "xla_index/analysis/fusion_operands.h"
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
  const int64_t num_symbols = thread_to_offset.GetSymbolCount();
  std::vector<int64_t> symbols(num_symbols);
  for (int64_t s = 0; s < num_symbols; ++s) {
    symbols[s] = thread_to_offset.GetSymbolBound(s).lower;
  }
  Interval unroll = thread_to_offset.GetSymbolBound(unroll_symbol);
  for (int64_t thread = first; thread <= last; ++thread) {
    std::vector<int64_t> dims(kLaunchGridDims, 0);
    dims[kThreadIdX] = thread;
    dims[kBlockIdX] = block;
    bool reads = false;
    for (int64_t u = unroll.lower; u <= unroll.upper; ++u) {
      symbols[unroll_symbol] = u;
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

std::string FormatEfficiency(double efficiency) {
  return absl::StrFormat("%.4g", efficiency);
}

std::string Indent(const std::string& text, const std::string& prefix) {
  return prefix + absl::StrReplaceAll(text, {{"\n", "\n" + prefix}});
}

}  // namespace

WarpMemoryAccess SummarizeWarpAccess(absl::Span<const int64_t> offsets,
                                     int64_t bits_per_element) {
  WarpMemoryAccess access;
  std::vector<int64_t> elements(offsets.begin(), offsets.end());
  std::sort(elements.begin(), elements.end());
  elements.erase(std::unique(elements.begin(), elements.end()), elements.end());
  access.distinct_elements = static_cast<int64_t>(elements.size());
  // Element o covers the bytes [floor(o * b / 8), ceil((o + 1) * b / 8)).
  // Sorted elements give sorted ranges; adjacent or overlapping ones merge
  // (two 4-bit elements share a byte).
  for (int64_t o : elements) {
    ByteRange range{FloorDiv(o * bits_per_element, 8),
                    CeilDiv((o + 1) * bits_per_element, 8)};
    if (!access.byte_ranges.empty() &&
        access.byte_ranges.back().end >= range.begin) {
      access.byte_ranges.back().end =
          std::max(access.byte_ranges.back().end, range.end);
    } else {
      access.byte_ranges.push_back(range);
    }
  }
  for (const ByteRange& range : access.byte_ranges) {
    access.bytes_touched += range.end - range.begin;
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

absl::StatusOr<CoalescingReport> AnalyzeCoalescing(
    const HloModule& module, const CoalescingOptions& options,
    mlir::MLIRContext* context) {
  if (options.warp_size < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("warp size must be at least 1, got ", options.warp_size));
  }
  absl::StatusOr<AnalyzedFusion> fusion =
      AnalyzeFusionOperands(module, context);
  if (!fusion.ok()) return fusion.status();
  CoalescingReport report;
  report.root_name = fusion->root->name();
  report.output_shape = fusion->output_shape;
  report.options = options;
  absl::StatusOr<LaunchGrid> grid =
      DefaultLoopLaunchGrid(fusion->output_shape.ElementCount(),
                            options.threads_per_block, options.unroll);
  if (!grid.ok()) return grid.status();
  report.grid = *grid;
  if (options.block < 0 || options.block >= grid->blocks[0]) {
    return absl::InvalidArgumentError(
        absl::StrCat("block ", options.block, " is outside the launch grid of ",
                     grid->blocks[0], " blocks"));
  }
  report.first_thread = options.warp * options.warp_size;
  if (options.warp < 0 || report.first_thread >= grid->threads[0]) {
    return absl::InvalidArgumentError(
        absl::StrCat("warp ", options.warp, " is outside a block of ",
                     grid->threads[0], " threads"));
  }
  report.last_thread =
      std::min(report.first_thread + options.warp_size, grid->threads[0]) - 1;
  absl::StatusOr<IndexingMap> thread_to_output =
      DefaultThreadIdToOutputIndexing(*grid, options.unroll,
                                      fusion->output_shape, context);
  if (!thread_to_output.ok()) return thread_to_output.status();
  report.thread_to_output = *thread_to_output;

  for (const FusionOperand& operand : fusion->operands) {
    for (int64_t i = 0; i < operand.maps.size(); ++i) {
      const IndexingMap& map = operand.maps[i];
      OperandCoalescing read;
      read.operand = operand.number;
      read.operand_name = operand.name;
      read.operand_shape = operand.shape;
      read.map_index = i;
      if (map.IsUndefined()) {
        read.analyzed = false;
        read.reason = "no indexing rule (UNDEFINED map)";
        report.operands.push_back(std::move(read));
        continue;
      }
      if (!operand.shape.IsArray()) {
        read.analyzed = false;
        read.reason = "operand is not an array";
        report.operands.push_back(std::move(read));
        continue;
      }
      read.bits_per_element = BitsPerElement(operand.shape);
      if (map.IsKnownEmpty()) {
        read.access = SummarizeWarpAccess({}, read.bits_per_element);
        report.operands.push_back(std::move(read));
        continue;
      }
      IndexingMap thread_to_operand =
          ComposeThreadToInputIndexing(*thread_to_output, map);
      absl::StatusOr<IndexingMap> thread_to_offset =
          ComposeWithPhysicalLayout(thread_to_operand, operand.shape);
      if (!thread_to_offset.ok()) {
        read.analyzed = false;
        read.reason = std::string(thread_to_offset.status().message());
        report.operands.push_back(std::move(read));
        continue;
      }
      read.thread_to_offset = *thread_to_offset;
      std::vector<int64_t> offsets;
      if (!read.thread_to_offset.IsKnownEmpty()) {
        // Symbols (ComposeIndexingMaps' order): the layout map's range
        // variables (none today), the operand map's, then the unroll
        // element, then runtime variables.
        const int64_t layout_ranges =
            read.thread_to_offset.GetRangeVarsCount() -
            thread_to_operand.GetRangeVarsCount();
        auto [warp_offsets, active] = WarpOffsets(
            read.thread_to_offset, layout_ranges + map.GetRangeVarsCount(),
            report.first_thread, report.last_thread, options.block);
        offsets = std::move(warp_offsets);
        read.active_threads = active;
      }
      read.access = SummarizeWarpAccess(offsets, read.bits_per_element);
      report.operands.push_back(std::move(read));
    }
  }
  return report;
}

std::string CoalescingVerdict(const OperandCoalescing& read) {
  if (!read.analyzed) return "not analyzed";
  if (read.active_threads == 0) return "not read by this warp";
  return read.access.coalesced ? "coalesced" : "not coalesced";
}

std::string CoalescingReportToText(const CoalescingReport& report) {
  const LaunchGrid& g = report.grid;
  std::string text = absl::StrCat(
      "root: ", report.root_name, "\noutput: ", report.output_shape.ToString(),
      "\nlaunch: threads (", absl::StrJoin(g.threads, ", "), "), blocks (",
      absl::StrJoin(g.blocks, ", "), "), unroll ", report.options.unroll,
      "\nwarp: block ", report.options.block, ", warp ", report.options.warp,
      ", threads ", report.first_thread, "..", report.last_thread,
      "\nthread -> output:\n", Indent(ToString(report.thread_to_output), "  "),
      "\n");
  for (const OperandCoalescing& read : report.operands) {
    absl::StrAppend(&text, "operand ", read.operand, " (", read.operand_name,
                    ", ", read.operand_shape.ToString(), "), map ",
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
    absl::StrAppend(&text, "\n  efficiency: ", FormatEfficiency(a.efficiency),
                    "\n  verdict: ", CoalescingVerdict(read), "\n");
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
      "], \"unroll\": ", report.options.unroll,
      "}, \"warp\": {\"block\": ", report.options.block,
      ", \"warp\": ", report.options.warp,
      ", \"first_thread\": ", report.first_thread,
      ", \"last_thread\": ", report.last_thread,
      "}, \"thread_to_output\": ", IndexingMapToJson(report.thread_to_output),
      ", \"operands\": [");
  for (size_t i = 0; i < report.operands.size(); ++i) {
    const OperandCoalescing& read = report.operands[i];
    const WarpMemoryAccess& a = read.access;
    absl::StrAppend(
        &json, i ? ", " : "", "{\"operand\": ", read.operand,
        ", \"name\": ", JsonQuote(read.operand_name),
        ", \"shape\": ", JsonQuote(read.operand_shape.ToString()),
        ", \"map_index\": ", read.map_index,
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
    absl::StrAppend(&json,
                    "], \"efficiency\": ", FormatEfficiency(a.efficiency),
                    ", \"coalesced\": ", a.coalesced ? "true" : "false",
                    ", \"verdict\": ", JsonQuote(CoalescingVerdict(read)), "}");
  }
  absl::StrAppend(&json, "]}");
  return json;
}

}  // namespace xla_index
