#include "xla_index/analysis/fusion_utilization.h"

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

std::string Indent(const std::string& text, const std::string& prefix) {
  return prefix + absl::StrReplaceAll(text, {{"\n", "\n" + prefix}});
}

std::string FormatDouble(double x) { return absl::StrFormat("%.6g", x); }

}  // namespace

OperandUtilization ComputeFusionOperandUtilization(const FusionOperand& operand,
                                                   int64_t max_points,
                                                   absl::Duration time_budget) {
  if (operand.shape.IsArray()) {
    return ComputeOperandUtilization(operand.maps, operand.shape.dimensions(),
                                     max_points, time_budget);
  }
  OperandUtilization none;
  none.exact = false;
  none.method = UtilizationMethod::kBound;
  return none;
}

absl::StatusOr<UtilizationReport> AnalyzeUtilization(
    const HloInstruction& instruction, mlir::MLIRContext* context,
    int64_t max_points, absl::Duration total_time_budget) {
  const absl::Time end = absl::Now() + total_time_budget;
  XI_ASSIGN_OR_RETURN(AnalyzedFusion fusion,
                      AnalyzeFusionOperands(instruction, context));
  UtilizationReport report;
  report.root_name = fusion.root->name();
  report.output_shape = fusion.output_shape;
  report.output_shapes = fusion.output_shapes;
  for (const Shape& output : fusion.output_shapes) {
    report.output_elements =
        SaturatingAdd(report.output_elements, output.ElementCount());
  }
  int64_t operands_left = fusion.operands.size();
  for (const FusionOperand& operand : fusion.operands) {
    FusionOperandUtilization u;
    u.operand = operand.number;
    u.name = operand.name;
    u.shape = operand.shape;
    u.maps = operand.maps;
    u.counts = ComputeFusionOperandUtilization(
        operand, max_points, NextOperandTimeBudget(end, operands_left--));
    report.operands.push_back(std::move(u));
  }
  return report;
}

absl::StatusOr<UtilizationReport> AnalyzeUtilization(
    const HloModule& module, mlir::MLIRContext* context, int64_t max_points,
    absl::Duration total_time_budget) {
  XI_ASSIGN_OR_RETURN(const HloInstruction* root, EntryRoot(module));
  return AnalyzeUtilization(*root, context, max_points, total_time_budget);
}

std::string UtilizationReportToText(const UtilizationReport& report) {
  std::vector<std::string> shapes;
  for (const Shape& shape : report.output_shapes) {
    shapes.push_back(shape.ToString());
  }
  std::string text =
      absl::StrCat("root: ", report.root_name,
                   shapes.size() > 1 ? "\noutputs: " : "\noutput: ",
                   shapes.size() > 1 ? absl::StrJoin(shapes, ", ")
                                     : report.output_shape.ToString(),
                   " (", report.output_elements, " elements)\n");
  for (const FusionOperandUtilization& u : report.operands) {
    const OperandUtilization& c = u.counts;
    absl::StrAppend(&text, "operand ", u.operand, " (", u.name, ", ",
                    u.shape.ToString(), "): read ", c.elements_read, " of ",
                    c.element_count, " elements (", FormatDouble(c.Fraction()),
                    "), ", c.reads, " reads, ", FormatDouble(c.AverageReads()),
                    " per element read (", UtilizationMethodName(c.method), ")",
                    c.exact ? "" : " [upper bound]", "\n");
    if (u.maps.empty()) absl::StrAppend(&text, "  not read\n");
    for (const IndexingMap& map : u.maps) {
      absl::StrAppend(&text, Indent(ToString(map), "  "), "\n");
    }
  }
  return text;
}

std::string UtilizationReportToJson(const UtilizationReport& report) {
  std::string json = absl::StrCat(
      "{\"root\": ", JsonQuote(report.root_name),
      ", \"output_shape\": ", JsonQuote(report.output_shape.ToString()),
      ", \"output_elements\": ", report.output_elements,
      ", \"output_shapes\": [");
  for (size_t j = 0; j < report.output_shapes.size(); ++j) {
    absl::StrAppend(&json, j ? ", " : "",
                    JsonQuote(report.output_shapes[j].ToString()));
  }
  absl::StrAppend(&json, "], \"operands\": [");
  for (size_t i = 0; i < report.operands.size(); ++i) {
    const FusionOperandUtilization& u = report.operands[i];
    const OperandUtilization& c = u.counts;
    absl::StrAppend(
        &json, i ? ", " : "", "{\"operand\": ", u.operand,
        ", \"name\": ", JsonQuote(u.name),
        ", \"shape\": ", JsonQuote(u.shape.ToString()),
        ", \"elements\": ", c.element_count,
        ", \"elements_read\": ", c.elements_read, ", \"reads\": ", c.reads,
        ", \"fraction\": ", FormatDouble(c.Fraction()),
        ", \"average_reads\": ", FormatDouble(c.AverageReads()),
        ", \"exact\": ", c.exact ? "true" : "false",
        ", \"method\": ", JsonQuote(UtilizationMethodName(c.method)),
        ", \"maps\": [");
    for (int64_t m = 0; m < u.maps.size(); ++m) {
      absl::StrAppend(&json, m ? ", " : "", IndexingMapToJson(u.maps[m]));
    }
    absl::StrAppend(&json, "]}");
  }
  absl::StrAppend(&json, "]}");
  return json;
}

}  // namespace xla_index
