#include "tools/report_html.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/utf8.h"
#include "layout/layout_svg.h"
#include "layout/shape_layout.h"
#include "layout/tiled_layout.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

constexpr char kStyle[] = R"(
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #bbb; padding: 2px 8px; text-align: left; }
th { background: #eee; }
td.num { text-align: right; }
.bad { color: #b00; font-weight: bold; }
.good { color: #070; }
.error { color: #b00; }
section.kernel { border-top: 2px solid #888; margin-top: 1.5em; }
div.operand { margin-left: 1em; }
pre { background: #f6f6f6; padding: 4px; overflow-x: auto; }
)";

// Warp reads over the block's (tile) reads.
constexpr char kWarpColor[] = "#d62728";
constexpr char kTileColor[] = "#ff9f40";

// `text` as XHTML character data or attribute value, well-formed whatever
// bytes it holds: '&', '<', '>' and '"' as entities; a byte that does not
// start well-formed UTF-8 as U+FFFD; and what XML 1.0 forbids even as a
// character reference (section 2.2, Char: controls other than tab, newline
// and carriage return; U+FFFE, U+FFFF), and DEL, as a visible stand-in: the
// control's picture U+2400 + c (U+2421 for DEL), or U+FFFD.
std::string Escape(absl::string_view text) {
  std::string out;
  while (!text.empty()) {
    char32_t c = ConsumeUtf8OrReplacement(text);
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\t':
      case '\n':
      case '\r':
        out += static_cast<char>(c);
        break;
      default:
        if (c < 0x20) c += 0x2400;
        if (c == 0x7F) c = 0x2421;
        if (c == 0xFFFE || c == 0xFFFF) c = kReplacementCharacter;
        AppendUtf8(c, out);
    }
  }
  return out;
}

std::string Number(double x) { return absl::StrFormat("%.4g", x); }

// The id of kernel `k`'s section.
std::string Anchor(size_t k) { return absl::StrCat("k", k); }

std::string Verdict(const OperandCoalescing& read) {
  const std::string verdict = CoalescingVerdict(read);
  const char* css = !read.analyzed          ? "error"
                    : read.access.coalesced ? "good"
                                            : "bad";
  return absl::StrCat("<span class=\"", css, "\">", Escape(verdict), "</span>");
}

void AppendSummary(const ModuleReport& report, int64_t worst,
                   std::string& html) {
  const ModuleReportSummary s = SummarizeModuleReport(report);
  absl::StrAppend(
      &html, "<h1>xla-index report: ", Escape(report.module_name), "</h1>\n",
      "<table id=\"summary\">\n<tr><th>",
      report.fusions ? "fusions" : "instructions (no fusions)",
      " analyzed</th><td class=\"num\">", s.kernels,
      "</td></tr>\n<tr><th>failed</th><td class=\"num\">", s.failed,
      "</td></tr>\n<tr><th>reads (analyzed)</th><td class=\"num\">", s.reads,
      " (", s.analyzed_reads, ")</td></tr>\n<tr><th>not coalesced</th>",
      "<td class=\"num\">", s.uncoalesced_reads,
      "</td></tr>\n<tr><th>unused operands (exact)</th><td class=\"num\">",
      s.unused_operands,
      "</td></tr>\n<tr><th>utilization upper bounds</th><td class=\"num\">",
      s.inexact_utilizations, "</td></tr>\n<tr><th>time</th><td class=\"num\">",
      Number(report.microseconds / 1000), " ms</td></tr>\n");
  std::vector<std::string> emitters;
  for (const auto& [name, count] : s.emitters) {
    emitters.push_back(absl::StrCat(Escape(name), " ", count));
  }
  absl::StrAppend(&html, "<tr><th>emitters</th><td>",
                  absl::StrJoin(emitters, ", "), "</td></tr>\n</table>\n");
  const std::vector<ReadPosition> uncoalesced = UncoalescedReads(report);
  if (uncoalesced.empty()) return;
  absl::StrAppend(&html,
                  "<h2>Worst reads</h2>\n<table id=\"worst\">\n<tr><th>kernel"
                  "</th><th>operand</th><th>output, map</th><th>efficiency"
                  "</th><th>bytes</th></tr>\n");
  // At most `worst` rows (none for worst <= 0).
  const size_t rows = static_cast<size_t>(
      std::clamp<int64_t>(worst, 0, static_cast<int64_t>(uncoalesced.size())));
  for (size_t i = 0; i < rows; ++i) {
    const ReadPosition& p = uncoalesced[i];
    const OperandReport& operand = report.kernels[p.kernel].operands[p.operand];
    const OperandCoalescing& read = operand.reads[p.read];
    absl::StrAppend(&html, "<tr><td><a href=\"#", Anchor(p.kernel), "\">",
                    Escape(report.kernels[p.kernel].name), "</a></td><td>",
                    operand.number, " (", Escape(operand.name), ")</td><td>",
                    read.output, ", ", read.map_index,
                    "</td><td class=\"num bad\">",
                    Number(read.access.efficiency), "</td><td class=\"num\">",
                    read.access.bytes_touched, "</td></tr>\n");
  }
  html += "</table>\n";
}

void AppendKernelTable(const ModuleReport& report, std::string& html) {
  html +=
      "<h2>Kernels</h2>\n<table id=\"kernels\">\n<tr><th>kernel</th><th>kind"
      "</th><th>emitter</th><th>computation</th><th>reads</th><th>not "
      "coalesced</th><th>time (ms)</th><th>error</th></tr>\n";
  for (size_t k = 0; k < report.kernels.size(); ++k) {
    const KernelReport& kernel = report.kernels[k];
    int64_t reads = 0, bad = 0;
    for (const OperandReport& operand : kernel.operands) {
      for (const OperandCoalescing& read : operand.reads) {
        ++reads;
        if (read.analyzed && !read.access.coalesced) ++bad;
      }
    }
    const std::string name = k < kMaxReportHtmlKernels
                                 ? absl::StrCat("<a href=\"#", Anchor(k), "\">",
                                                Escape(kernel.name), "</a>")
                                 : Escape(kernel.name);
    absl::StrAppend(
        &html, "<tr><td>", name, "</td><td>", Escape(kernel.kind),
        "</td><td class=\"emitter\" title=\"", Escape(kernel.emitter_reason),
        "\">", Escape(kernel.emitter), "</td><td>", Escape(kernel.computation),
        "</td><td class=\"num\">", reads, "</td><td class=\"num",
        bad ? " bad" : "", "\">", bad, "</td><td class=\"num\">",
        Number(kernel.microseconds / 1000), "</td><td class=\"error\">",
        Escape(kernel.error.empty() ? kernel.coalescing_error : kernel.error),
        "</td></tr>\n");
  }
  html += "</table>\n";
}

// The picture of `operand`'s reads over its memory order, or a note why
// there is none.
std::string AccessPicture(const OperandReport& operand) {
  if (!operand.offsets.has_value()) {
    return "<p>no picture: this operand has no analyzed read.</p>\n";
  }
  absl::StatusOr<TiledLayout> layout = TiledLayoutOf(operand.shape);
  if (!layout.ok()) {
    return absl::StrCat("<p>no picture: ", Escape(layout.status().message()),
                        "</p>\n");
  }
  const ReadOffsets& offsets = *operand.offsets;
  std::vector<MemoryHighlight> layers = {
      {offsets.warp, kWarpColor, "one warp"},
      {offsets.tile, kTileColor,
       offsets.tile_truncated ? "its block (too many points, not drawn)"
                              : "its block's output tile"}};
  return RenderMemoryAccessSvg(*layout, layers);
}

void AppendOperand(const OperandReport& operand, std::string& html) {
  const OperandUtilization& u = operand.utilization;
  absl::StrAppend(
      &html, "<div class=\"operand\">\n<h4>operand ", operand.number, ": ",
      Escape(operand.name), " ", Escape(operand.shape.ToString()), "</h4>\n",
      "<p>utilization: ", u.elements_read, " of ", u.element_count,
      " elements read (", Number(u.Fraction()), "), ", Number(u.AverageReads()),
      " reads each (counted: ", UtilizationMethodName(u.method), ")",
      u.exact ? "" : " (upper bound)", "; ",
      !operand.unused.has_value()
          ? absl::StrCat("use unknown: ", Escape(operand.unused_error))
      : *operand.unused ? "<span class=\"bad\">unused</span> (exact)"
                        : "used",
      "</p>\n");
  for (const IndexingMap& map : operand.maps) {
    absl::StrAppend(&html, "<pre>", Escape(ToString(map)), "</pre>\n");
  }
  if (!operand.reads.empty()) html += "<ul>\n";
  for (const OperandCoalescing& read : operand.reads) {
    absl::StrAppend(&html, "<li>output ", read.output, ", map ", read.map_index,
                    ": ", Verdict(read));
    if (!read.analyzed) {
      absl::StrAppend(&html, " (", Escape(read.reason), ")");
    } else if (read.active_threads > 0) {
      absl::StrAppend(&html, ", efficiency ", Number(read.access.efficiency),
                      ", ", read.access.bytes_touched, " bytes in ",
                      read.access.byte_ranges.size(), " ranges",
                      "; <span class=\"xla-rule\">XLA's 128-byte rule: ");
      if (read.xla_rule.decided) {
        absl::StrAppend(
            &html, read.xla_rule.coalesced ? "coalesced" : "not coalesced",
            " (", read.xla_rule.transactions, " transactions, lower bound ",
            read.xla_rule.lower_bound, ")</span>");
      } else {
        html += "not decided (sample too large)</span>";
      }
    }
    html += "</li>\n";
  }
  if (!operand.reads.empty()) html += "</ul>\n";
  html += AccessPicture(operand);
  html += "</div>\n";
}

void AppendKernel(const KernelReport& kernel, size_t k, std::string& html) {
  std::vector<std::string> shapes;
  for (const Shape& shape : kernel.output_shapes) {
    shapes.push_back(shape.ToString());
  }
  absl::StrAppend(&html, "<section class=\"kernel\" id=\"", Anchor(k),
                  "\">\n<h3>", Escape(kernel.name), " <small>(",
                  Escape(kernel.kind), " in ", Escape(kernel.computation),
                  ")</small></h3>\n");
  if (!kernel.error.empty()) {
    absl::StrAppend(&html, "<p class=\"error\">", Escape(kernel.error),
                    "</p>\n</section>\n");
    return;
  }
  absl::StrAppend(&html, "<p class=\"emitter\">emitter: <b>",
                  Escape(kernel.emitter), "</b>",
                  kernel.emitter_reason.empty()
                      ? std::string()
                      : absl::StrCat(" (", Escape(kernel.emitter_reason), ")"),
                  "</p>\n");
  absl::StrAppend(&html, "<p>output ", Escape(absl::StrJoin(shapes, ", ")),
                  "; analyzed in ", Number(kernel.microseconds / 1000),
                  " ms; ");
  if (kernel.library) {
    absl::StrAppend(&html, Escape(kernel.launch_note), "</p>\n");
  } else if (kernel.coalescing_error.empty()) {
    absl::StrAppend(&html, "launch ", kernel.grid.threads[0], " threads x ",
                    kernel.grid.blocks[0], " blocks, warp of block ",
                    kernel.block, ": threads ", kernel.first_thread, " to ",
                    kernel.last_thread, "</p>\n");
  } else {
    absl::StrAppend(&html, "<span class=\"error\">coalescing: ",
                    Escape(kernel.coalescing_error), "</span></p>\n");
  }
  for (const OperandReport& operand : kernel.operands) {
    AppendOperand(operand, html);
  }
  html += "</section>\n";
}

}  // namespace

std::string RenderReportHtml(const ModuleReport& report, int64_t worst) {
  std::string html = absl::StrCat(
      "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" "
      "lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>xla-index "
      "report: ",
      Escape(report.module_name), "</title>\n<style>", kStyle,
      "</style>\n</head>\n<body>\n");
  AppendSummary(report, worst, html);
  AppendKernelTable(report, html);
  if (static_cast<int64_t>(report.kernels.size()) > kMaxReportHtmlKernels) {
    absl::StrAppend(
        &html, "<p>Details of the first ", kMaxReportHtmlKernels,
        " kernels of ", report.kernels.size(),
        "; <code>xla-index report --json</code> has them all.</p>\n");
  }
  for (size_t k = 0; k < report.kernels.size() &&
                     static_cast<int64_t>(k) < kMaxReportHtmlKernels;
       ++k) {
    AppendKernel(report.kernels[k], k, html);
  }
  html += "</body>\n</html>\n";
  return html;
}

}  // namespace xla_index
