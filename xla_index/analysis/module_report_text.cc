// ModuleReportToText and ModuleReportToJson (module_report.h).

#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "xla_index/analysis/module_report.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

std::string FormatDouble(double x) { return absl::StrFormat("%.6g", x); }

std::string Indent(const std::string& text, const std::string& prefix) {
  return prefix + absl::StrReplaceAll(text, {{"\n", "\n" + prefix}});
}

std::string Shapes(const std::vector<Shape>& shapes) {
  std::vector<std::string> parts;
  for (const Shape& shape : shapes) parts.push_back(shape.ToString());
  return absl::StrJoin(parts, ", ");
}

std::string UnusedText(const OperandReport& operand) {
  if (!operand.unused.has_value()) {
    return absl::StrCat("use unknown (", operand.unused_error, ")");
  }
  return *operand.unused ? "unused (exact)" : "used";
}

std::string UtilizationText(const OperandUtilization& u) {
  return absl::StrCat("read ", u.elements_read, " of ", u.element_count,
                      " elements (", FormatDouble(u.Fraction()), "), ",
                      FormatDouble(u.AverageReads()), " reads per element, ",
                      UtilizationMethodName(u.method),
                      u.exact ? "" : ", upper bound");
}

std::string ReadText(const OperandCoalescing& read) {
  std::string text =
      absl::StrCat("output ", read.output, " map ", read.map_index, ": ",
                   CoalescingVerdict(read));
  if (!read.analyzed) return absl::StrCat(text, " (", read.reason, ")");
  if (read.active_threads == 0) return text;
  const TransactionCount& sectors = read.access.transactions[0];
  absl::StrAppend(&text, ", efficiency ", FormatDouble(read.access.efficiency),
                  " (", sectors.count, " sectors of 32 bytes, minimum ",
                  sectors.minimum, "), ", read.access.bytes_touched,
                  " bytes in ", read.access.byte_ranges.size(),
                  " ranges; xla rule: ");
  if (!read.xla_rule.decided) {
    return absl::StrCat(text, "not decided (sample too large)");
  }
  absl::StrAppend(&text,
                  read.xla_rule.coalesced ? "coalesced" : "not coalesced", " (",
                  read.xla_rule.transactions, " x 128 B, lower bound ",
                  read.xla_rule.lower_bound, ")");
  return text;
}

void AppendKernelText(const KernelReport& kernel, std::string& text) {
  absl::StrAppend(&text, "\n", kernel.name, " (", kernel.kind, " in ",
                  kernel.computation, ")");
  if (!kernel.error.empty()) {
    absl::StrAppend(&text, ": error: ", kernel.error, "\n");
    return;
  }
  absl::StrAppend(&text, " -> ", Shapes(kernel.output_shapes), ", ",
                  FormatDouble(kernel.microseconds / 1000), " ms\n");
  if (!kernel.emitter_reason.empty()) {
    absl::StrAppend(&text, "  emitter: ", kernel.emitter, " (",
                    kernel.emitter_reason, ")\n");
  }
  if (!kernel.coalescing_error.empty()) {
    absl::StrAppend(&text, "  coalescing: error: ", kernel.coalescing_error,
                    "\n");
  } else if (kernel.library) {
    absl::StrAppend(&text, "  launch: ", kernel.launch_note, "\n");
  } else {
    absl::StrAppend(&text, "  launch: ", kernel.grid.threads[0], " threads x ",
                    kernel.grid.blocks[0], " blocks; warp: block ",
                    kernel.block, " threads ", kernel.first_thread, "..",
                    kernel.last_thread, "\n");
  }
  for (const OperandReport& operand : kernel.operands) {
    absl::StrAppend(&text, "  operand ", operand.number, " (", operand.name,
                    ", ", operand.shape.ToString(),
                    "): ", UtilizationText(operand.utilization), "; ",
                    UnusedText(operand), "\n");
    for (const IndexingMap& map : operand.maps) {
      absl::StrAppend(&text, Indent(ToString(map), "    "), "\n");
    }
    for (const OperandCoalescing& read : operand.reads) {
      absl::StrAppend(&text, "    ", ReadText(read), "\n");
    }
  }
}

const OperandCoalescing& ReadAt(const ModuleReport& report,
                                const ReadPosition& p) {
  return report.kernels[p.kernel].operands[p.operand].reads[p.read];
}

std::string UtilizationJson(const OperandUtilization& u) {
  return absl::StrCat(
      "{\"elements\": ", u.element_count,
      ", \"elements_read\": ", u.elements_read, ", \"reads\": ", u.reads,
      ", \"fraction\": ", FormatDouble(u.Fraction()),
      ", \"average_reads\": ", FormatDouble(u.AverageReads()),
      ", \"exact\": ", u.exact ? "true" : "false",
      ", \"method\": ", JsonQuote(UtilizationMethodName(u.method)), "}");
}

// The Append*Json functions append to the text of one kernel.
void AppendReadJson(const OperandCoalescing& read, std::string& json) {
  absl::StrAppend(&json, "{\"output\": ", read.output,
                  ", \"map_index\": ", read.map_index,
                  ", \"analyzed\": ", read.analyzed ? "true" : "false",
                  ", \"reason\": ", JsonQuote(read.reason),
                  ", \"verdict\": ", JsonQuote(CoalescingVerdict(read)),
                  ", \"active_threads\": ", read.active_threads);
  if (read.analyzed) {
    const TransactionCount& sectors = read.access.transactions[0];
    absl::StrAppend(
        &json, ", \"coalesced\": ", read.access.coalesced ? "true" : "false",
        ", \"efficiency\": ", FormatDouble(read.access.efficiency),
        ", \"bytes_touched\": ", read.access.bytes_touched,
        ", \"sectors\": ", sectors.count,
        ", \"minimum_sectors\": ", sectors.minimum,
        ", \"xla_rule\": {\"decided\": ",
        read.xla_rule.decided ? "true" : "false",
        ", \"coalesced\": ", read.xla_rule.coalesced ? "true" : "false",
        ", \"transactions\": ", read.xla_rule.transactions,
        ", \"lower_bound\": ", read.xla_rule.lower_bound,
        ", \"intervals\": ", read.xla_rule.intervals, "}",
        ", \"thread_to_offset\": ", JsonQuote(ToString(read.thread_to_offset)));
  }
  json += "}";
}

void AppendOperandJson(const OperandReport& operand, std::string& json) {
  absl::StrAppend(&json, "{\"operand\": ", operand.number,
                  ", \"name\": ", JsonQuote(operand.name),
                  ", \"shape\": ", JsonQuote(operand.shape.ToString()),
                  ", \"maps\": [");
  for (int64_t m = 0; m < operand.maps.size(); ++m) {
    absl::StrAppend(&json, m ? ", " : "", IndexingMapToJson(operand.maps[m]));
  }
  absl::StrAppend(&json,
                  "], \"utilization\": ", UtilizationJson(operand.utilization),
                  ", \"unused\": ",
                  !operand.unused.has_value() ? "null"
                  : *operand.unused           ? "true"
                                              : "false",
                  ", \"unused_error\": ", JsonQuote(operand.unused_error),
                  ", \"reads\": [");
  for (size_t r = 0; r < operand.reads.size(); ++r) {
    if (r) json += ", ";
    AppendReadJson(operand.reads[r], json);
  }
  json += "]}";
}

void AppendKernelJson(const KernelReport& kernel, std::string& json) {
  std::vector<std::string> shapes;
  for (const Shape& shape : kernel.output_shapes) {
    shapes.push_back(JsonQuote(shape.ToString()));
  }
  absl::StrAppend(
      &json, "{\"name\": ", JsonQuote(kernel.name),
      ", \"computation\": ", JsonQuote(kernel.computation),
      ", \"kind\": ", JsonQuote(kernel.kind),
      ", \"emitter\": ", JsonQuote(kernel.emitter),
      ", \"emitter_reason\": ", JsonQuote(kernel.emitter_reason),
      ", \"launch_note\": ", JsonQuote(kernel.launch_note),
      ", \"library\": ", kernel.library ? "true" : "false",
      ", \"output_shapes\": [", absl::StrJoin(shapes, ", "),
      "], \"error\": ", JsonQuote(kernel.error),
      ", \"coalescing_error\": ", JsonQuote(kernel.coalescing_error),
      ", \"microseconds\": ", FormatDouble(kernel.microseconds),
      ", \"launch\": {\"threads\": [", absl::StrJoin(kernel.grid.threads, ", "),
      "], \"blocks\": [", absl::StrJoin(kernel.grid.blocks, ", "),
      "]}, \"warp\": {\"block\": ", kernel.block,
      ", \"first_thread\": ", kernel.first_thread,
      ", \"last_thread\": ", kernel.last_thread, "}, \"operands\": [");
  for (size_t o = 0; o < kernel.operands.size(); ++o) {
    if (o) json += ", ";
    AppendOperandJson(kernel.operands[o], json);
  }
  json += "]}";
}

}  // namespace

void WriteModuleReportText(const ModuleReport& report, int64_t worst,
                           std::ostream& out) {
  const ModuleReportSummary s = SummarizeModuleReport(report);
  std::string text = absl::StrCat(
      "module ", report.module_name, ": ", s.kernels,
      report.fusions ? (s.kernels == 1 ? " fusion" : " fusions")
                     : (s.kernels == 1 ? " instruction (no fusions)"
                                       : " instructions (no fusions)"),
      " analyzed (", s.failed, " failed) in ",
      FormatDouble(report.microseconds / 1000), " ms\n", "reads: ", s.reads,
      " (", s.analyzed_reads, " analyzed), ", s.uncoalesced_reads,
      " not coalesced; unused operands: ", s.unused_operands,
      "; utilization upper bounds: ", s.inexact_utilizations, "\n");
  std::vector<std::string> emitters;
  for (const auto& [name, count] : s.emitters) {
    emitters.push_back(absl::StrCat(name, " ", count));
  }
  absl::StrAppend(&text, "emitters: ", absl::StrJoin(emitters, ", "), "\n");
  const std::vector<ReadPosition> uncoalesced = UncoalescedReads(report);
  if (!uncoalesced.empty()) absl::StrAppend(&text, "worst reads:\n");
  for (size_t i = 0; i < uncoalesced.size() && i < worst; ++i) {
    const ReadPosition& p = uncoalesced[i];
    const OperandReport& operand = report.kernels[p.kernel].operands[p.operand];
    absl::StrAppend(&text, "  ", report.kernels[p.kernel].name, " operand ",
                    operand.number, " (", operand.name, "), ",
                    ReadText(ReadAt(report, p)), "\n");
  }
  // Kernel by kernel, as WriteModuleReportJson.
  for (const KernelReport& kernel : report.kernels) {
    AppendKernelText(kernel, text);
    out << text;
    text.clear();
  }
  out << text;
}

std::string ModuleReportToText(const ModuleReport& report, int64_t worst) {
  std::ostringstream out;
  WriteModuleReportText(report, worst, out);
  return std::move(out).str();
}

void WriteModuleReportJson(const ModuleReport& report, int64_t worst,
                           std::ostream& out) {
  const ModuleReportSummary s = SummarizeModuleReport(report);
  std::string json = absl::StrCat(
      "{\"module\": ", JsonQuote(report.module_name), ", \"kernels_are\": ",
      report.fusions ? "\"fusions\"" : "\"instructions\"",
      ", \"microseconds\": ", FormatDouble(report.microseconds),
      ", \"summary\": {\"kernels\": ", s.kernels, ", \"failed\": ", s.failed,
      ", \"reads\": ", s.reads, ", \"analyzed_reads\": ", s.analyzed_reads,
      ", \"uncoalesced_reads\": ", s.uncoalesced_reads,
      ", \"unused_operands\": ", s.unused_operands,
      ", \"inexact_utilizations\": ", s.inexact_utilizations, ", \"worst\": [");
  const std::vector<ReadPosition> uncoalesced = UncoalescedReads(report);
  for (size_t i = 0; i < uncoalesced.size() && i < worst; ++i) {
    const ReadPosition& p = uncoalesced[i];
    const OperandCoalescing& read = ReadAt(report, p);
    absl::StrAppend(
        &json, i ? ", " : "",
        "{\"kernel\": ", JsonQuote(report.kernels[p.kernel].name),
        ", \"operand\": ", read.operand, ", \"output\": ", read.output,
        ", \"map_index\": ", read.map_index,
        ", \"efficiency\": ", FormatDouble(read.access.efficiency), "}");
  }
  absl::StrAppend(&json, "], \"emitters\": {");
  for (size_t e = 0; e < s.emitters.size(); ++e) {
    absl::StrAppend(&json, e ? ", " : "", JsonQuote(s.emitters[e].first), ": ",
                    s.emitters[e].second);
  }
  absl::StrAppend(&json, "}}, \"kernels\": [");
  // Kernel by kernel: the whole text of a large module's report would be
  // held, twice while it grows.
  for (size_t k = 0; k < report.kernels.size(); ++k) {
    if (k) json += ", ";
    AppendKernelJson(report.kernels[k], json);
    out << json;
    json.clear();
  }
  out << json << "]}";
}

std::string ModuleReportToJson(const ModuleReport& report, int64_t worst) {
  std::ostringstream out;
  WriteModuleReportJson(report, worst, out);
  return std::move(out).str();
}

}  // namespace xla_index
