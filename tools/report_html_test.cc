// The report page is well-formed XML (XHTML with inline SVG), holds the
// summary, one section per kernel and a picture per read operand, and
// escapes what it prints.

#include "tools/report_html.h"

#include <cctype>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/gpu_device.h"
#include "xla_index/analysis/module_report.h"

namespace xla_index {
namespace {

// A small XML well-formedness checker: elements nest and close in order,
// attribute values are quoted, `&` starts a known or numeric entity, text
// holds no `<`; a <!DOCTYPE ...> prolog is allowed. Counts the elements by
// name. Returns "" when well-formed, else what is wrong and where.
std::string CheckXml(const std::string& text,
                     std::map<std::string, int>* counts) {
  std::vector<std::string> open;
  size_t i = 0;
  auto error = [&](absl::string_view what) {
    return absl::StrCat(what, " at offset ", i);
  };
  auto name_at = [&](size_t& j) {
    const size_t start = j;
    while (j < text.size() &&
           (std::isalnum(text[j]) || text[j] == '-' || text[j] == ':')) {
      ++j;
    }
    return text.substr(start, j - start);
  };
  bool root_seen = false;
  while (i < text.size()) {
    if (text[i] == '&') {
      const size_t semi = text.find(';', i);
      const std::string entity = text.substr(i + 1, semi - i - 1);
      if (semi == std::string::npos ||
          !(entity == "amp" || entity == "lt" || entity == "gt" ||
            entity == "quot" || entity == "apos" ||
            (entity.size() > 1 && entity[0] == '#'))) {
        return error("bad entity");
      }
      i = semi + 1;
      continue;
    }
    if (text[i] != '<') {
      if (open.empty() && !std::isspace(text[i])) return error("text outside");
      ++i;
      continue;
    }
    if (text.compare(i, 9, "<!DOCTYPE") == 0) {
      if (root_seen) return error("late DOCTYPE");
      i = text.find('>', i) + 1;
      continue;
    }
    size_t j = i + 1;
    const bool closing = j < text.size() && text[j] == '/';
    if (closing) ++j;
    const std::string name = name_at(j);
    if (name.empty()) return error("'<' without a tag name");
    if (closing) {
      if (open.empty() || open.back() != name) return error("mismatched </");
      open.pop_back();
      if (j >= text.size() || text[j] != '>') return error("bad end tag");
      i = j + 1;
      continue;
    }
    if (open.empty() && root_seen) return error("second root");
    root_seen = true;
    ++(*counts)[name];
    // Attributes: name="value" or name='value'.
    while (true) {
      while (j < text.size() && std::isspace(text[j])) ++j;
      if (j >= text.size()) return error("unterminated tag");
      if (text[j] == '>' || text.compare(j, 2, "/>") == 0) break;
      if (name_at(j).empty() || j >= text.size() || text[j] != '=') {
        return error("bad attribute");
      }
      const char quote = text[++j];
      if (quote != '"' && quote != '\'') return error("unquoted attribute");
      const size_t end = text.find(quote, j + 1);
      if (end == std::string::npos ||
          text.substr(j + 1, end - j - 1).find('<') != std::string::npos) {
        return error("bad attribute value");
      }
      j = end + 1;
    }
    if (text[j] == '>') {
      open.push_back(name);
      i = j + 1;
    } else {
      i = j + 2;
    }
  }
  if (!open.empty()) return absl::StrCat("unclosed <", open.back(), ">");
  return root_seen ? "" : "no root element";
}

TEST(CheckXmlTest, RejectsMalformedMarkup) {
  std::map<std::string, int> counts;
  EXPECT_EQ(CheckXml("<a x=\"1\"><b/>t &amp; u</a>", &counts), "");
  EXPECT_NE(CheckXml("<a><b></a></b>", &counts), "");
  EXPECT_NE(CheckXml("<a x=1></a>", &counts), "");
  EXPECT_NE(CheckXml("<a>x & y</a>", &counts), "");
  EXPECT_NE(CheckXml("<a>", &counts), "");
  EXPECT_NE(CheckXml("<a></a><b></b>", &counts), "");
}

ModuleReport ReportOf(const std::string& path, mlir::MLIRContext* context) {
  std::ifstream file(path);
  EXPECT_TRUE(file.good()) << path;
  std::stringstream text;
  text << file.rdbuf();
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text.str());
  EXPECT_TRUE(module.ok()) << module.status();
  ModuleReportOptions options;
  options.record_offsets = true;
  absl::StatusOr<ModuleReport> report =
      AnalyzeModuleReport(**module, options, context);
  EXPECT_TRUE(report.ok()) << report.status();
  return *std::move(report);
}

TEST(ReportHtmlTest, PageIsWellFormedWithOnePicturePerReadOperand) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  const ModuleReport report =
      ReportOf("xla_index/analysis/testdata/report_fusions.hlo", &context);
  const std::string html = RenderReportHtml(report);
  std::map<std::string, int> counts;
  EXPECT_EQ(CheckXml(html, &counts), "") << html;
  EXPECT_EQ(counts["html"], 1);
  EXPECT_EQ(counts["section"], static_cast<int>(report.kernels.size()));
  int pictured = 0;
  for (const KernelReport& kernel : report.kernels) {
    for (const OperandReport& operand : kernel.operands) {
      if (operand.offsets.has_value()) ++pictured;
    }
  }
  EXPECT_GT(pictured, 5);
  EXPECT_EQ(counts["svg"], pictured);
  EXPECT_TRUE(absl::StrContains(html, "id=\"summary\""));
  EXPECT_TRUE(absl::StrContains(html, "id=\"worst\""));
  // No network and no script: everything is inline.
  EXPECT_EQ(counts["script"], 0);
  EXPECT_EQ(counts["link"], 0);
  EXPECT_FALSE(absl::StrContains(html, "src="));
  // The warp's colour is drawn.
  EXPECT_TRUE(absl::StrContains(html, "fill=\"#d62728\""));
}

// Past kMaxReportHtmlKernels kernels the summary lists them all and the
// page says that only the first are drawn.
TEST(ReportHtmlTest, DrawsTheFirstKernelsAndSaysSo) {
  std::string text =
      "HloModule many\nf {\n  a = f32[4]{0} parameter(0)\n"
      "  ROOT n = f32[4]{0} negate(a)\n}\nENTRY e {\n"
      "  x0 = f32[4]{0} parameter(0)\n";
  const int kernels = kMaxReportHtmlKernels + 3;
  for (int k = 0; k < kernels; ++k) {
    absl::StrAppend(&text, "  ", k + 1 == kernels ? "ROOT " : "", "x", k + 1,
                    " = f32[4]{0} fusion(x", k, "), kind=kLoop, calls=f\n");
  }
  text += "}\n";
  absl::StatusOr<std::unique_ptr<HloModule>> module = ParseHloModule(text);
  ASSERT_TRUE(module.ok()) << module.status();
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<ModuleReport> report =
      AnalyzeModuleReport(**module, ModuleReportOptions(), &context);
  ASSERT_TRUE(report.ok()) << report.status();
  const std::string html = RenderReportHtml(*report);
  std::map<std::string, int> counts;
  EXPECT_EQ(CheckXml(html, &counts), "");
  EXPECT_EQ(counts["section"], kMaxReportHtmlKernels);
  // One row per kernel in the kernel table, plus its header.
  EXPECT_GE(counts["tr"], kernels + 1);
  EXPECT_TRUE(absl::StrContains(
      html, absl::StrCat("Details of the first ", kMaxReportHtmlKernels,
                         " kernels of ", kernels)));
}

TEST(ReportHtmlTest, EscapesNamesAndErrors) {
  absl::StatusOr<std::unique_ptr<HloModule>> module = ParseHloModule(R"(
HloModule m
fused {
  a = f32[8]{0} parameter(0)
  ROOT t = token[] after-all()
}
ENTRY e {
  p = f32[8]{0} parameter(0)
  ROOT f = token[] fusion(p), kind=kLoop, calls=fused
})");
  ASSERT_TRUE(module.ok()) << module.status();
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<ModuleReport> report =
      AnalyzeModuleReport(**module, ModuleReportOptions(), &context);
  ASSERT_TRUE(report.ok()) << report.status();
  report->module_name = "a<b>&\"c\"";
  const std::string html = RenderReportHtml(*report);
  std::map<std::string, int> counts;
  EXPECT_EQ(CheckXml(html, &counts), "") << html;
  EXPECT_TRUE(absl::StrContains(html, "a&lt;b&gt;&amp;&quot;c&quot;"));
  EXPECT_TRUE(absl::StrContains(html, "class=\"error\""));
}

// On the emitters (a device set, as the CLI does): every kernel's section
// names its emitter, the kernel table has an emitter column, and a library
// kernel (a dot) says that it has no emitter reads.
TEST(ReportHtmlTest, ShowsTheEmitterOfEveryKernel) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  std::ifstream file("xla_index/analysis/testdata/jax_style_mlp_block.hlo");
  ASSERT_TRUE(file.good());
  std::stringstream text;
  text << file.rdbuf();
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text.str());
  ASSERT_TRUE(module.ok()) << module.status();
  ModuleReportOptions options;
  options.record_offsets = true;
  options.coalescing.device = DefaultGpuDevice();
  absl::StatusOr<ModuleReport> report =
      AnalyzeModuleReport(**module, options, &context);
  ASSERT_TRUE(report.ok()) << report.status();
  const std::string html = RenderReportHtml(*report);
  std::map<std::string, int> counts;
  EXPECT_EQ(CheckXml(html, &counts), "") << html;
  EXPECT_TRUE(absl::StrContains(html, "<th>emitter</th>"));
  EXPECT_TRUE(absl::StrContains(html, "<tr><th>emitters</th><td>loop "));
  for (const KernelReport& kernel : report->kernels) {
    EXPECT_TRUE(absl::StrContains(
        html, absl::StrCat("<p class=\"emitter\">emitter: <b>", kernel.emitter,
                           "</b>")))
        << kernel.name << " " << kernel.emitter;
  }
  EXPECT_TRUE(absl::StrContains(html, "<b>library (cuBLAS)</b>"));
  EXPECT_TRUE(absl::StrContains(html, "<b>reduction (row)</b>"));
  EXPECT_TRUE(absl::StrContains(html, "library kernel: no emitter thread map"));
  // Every analyzed read shows XLA's verdict beside the sector efficiency.
  int64_t analyzed = 0;
  for (const KernelReport& kernel : report->kernels) {
    for (const OperandReport& operand : kernel.operands) {
      for (const OperandCoalescing& read : operand.reads) {
        if (read.analyzed && read.active_threads > 0) ++analyzed;
      }
    }
  }
  int64_t rules = 0;
  for (size_t at = html.find("XLA's 128-byte rule: "); at != std::string::npos;
       at = html.find("XLA's 128-byte rule: ", at + 1)) {
    ++rules;
  }
  EXPECT_GT(analyzed, 0);
  EXPECT_EQ(rules, analyzed);
}

}  // namespace
}  // namespace xla_index
