#ifndef XLA_INDEX_TOOLS_REPORT_HTML_H_
#define XLA_INDEX_TOOLS_REPORT_HTML_H_

// The page of `xla-index report --html=FILE`: one self-contained document
// (inline CSS and SVG, no script, no network), written as XHTML so that it
// is also well-formed XML:
//
//  - a summary table (kernels, failures, reads, uncoalesced reads, unused
//    operands, utilization bounds, time), the worst uncoalesced reads with
//    links to their kernels, and a table of every kernel;
//  - per kernel (the first kMaxReportHtmlKernels of them; the page says
//    when some are left out): its launch, then per operand its maps, the
//    verdict of each read, the utilization and whether it is unused, and a
//    picture of which memory positions one warp and its block's output tile
//    read, drawn over the operand's memory order (layout/layout_svg.h).

#include <cstdint>
#include <string>

#include "xla_index/analysis/module_report.h"

namespace xla_index {

/// Kernels drawn in detail; the summary lists them all.
inline constexpr int64_t kMaxReportHtmlKernels = 200;

/// The page for `report` (made with ModuleReportOptions::record_offsets for
/// the pictures; without offsets an operand gets no picture), with the
/// `worst` worst uncoalesced reads in the summary.
std::string RenderReportHtml(const ModuleReport& report, int64_t worst = 10);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_REPORT_HTML_H_
