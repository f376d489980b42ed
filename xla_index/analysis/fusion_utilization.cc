#include "xla_index/analysis/fusion_utilization.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/operand_utilization.h"

namespace xla_index {
namespace {

// Calls `visit(point)` for every point of the box (row-major order), or
// returns false without visiting when the box has more than `limit` points.
template <typename Visit>
bool ForEachPoint(const std::vector<Interval>& box, int64_t limit,
                  Visit visit) {
  int64_t size = 1;
  for (Interval b : box) {
    if (b.IsEmpty()) return true;
    int64_t n = b.NumElements();
    if (n == Interval::kMax || __builtin_mul_overflow(size, n, &size) ||
        size > limit) {
      return false;
    }
  }
  std::vector<int64_t> point(box.size());
  for (size_t i = 0; i < box.size(); ++i) point[i] = box[i].lower;
  while (true) {
    visit(point);
    int64_t i = static_cast<int64_t>(box.size()) - 1;
    for (; i >= 0; --i) {
      if (++point[i] <= box[i].upper) break;
      point[i] = box[i].lower;
    }
    if (i < 0) return true;
  }
}

void CollectVariables(mlir::AffineExpr expr, std::vector<int64_t>& dims,
                      std::vector<int64_t>& symbols) {
  expr.walk([&](mlir::AffineExpr e) {
    if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(e)) {
      dims.push_back(d.getPosition());
    } else if (auto s = mlir::dyn_cast<mlir::AffineSymbolExpr>(e)) {
      symbols.push_back(s.getPosition());
    }
  });
  std::sort(dims.begin(), dims.end());
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  std::sort(symbols.begin(), symbols.end());
  symbols.erase(std::unique(symbols.begin(), symbols.end()), symbols.end());
}

int64_t Saturate(int64_t a, int64_t b, bool& overflow) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) {
    overflow = true;
    return Interval::kMax;
  }
  return r;
}

// Distinct elements read and (point, element) pairs of one map whose
// results use pairwise disjoint variables and that has no constraints and
// no runtime variables; nullopt when the map is not of that form or a
// result's variables span more than `limit` points.
//
// With result k depending only on its dims D_k and symbols S_k, the image
// is the product of the per-result value sets V_k, and for a domain point d
// the elements it reads are the product of the sets V_k(d restricted to
// D_k). So |image| = prod |V_k| and the pairs are
// prod_k (sum over d_k of |V_k(d_k)|) * prod over unused dims of their size.
std::optional<std::pair<int64_t, int64_t>> CountSeparable(
    const IndexingMap& map, absl::Span<const int64_t> operand_dims,
    int64_t limit) {
  if (map.GetConstraintsCount() != 0 || map.GetRuntimeVarsCount() != 0) {
    return std::nullopt;
  }
  const int64_t rank = map.GetResultCount();
  std::vector<bool> dim_used(map.GetDimensionCount(), false);
  std::vector<bool> symbol_used(map.GetSymbolCount(), false);
  int64_t elements = 1, pairs = 1;
  bool overflow = false;
  for (int64_t k = 0; k < rank; ++k) {
    mlir::AffineExpr expr = map.GetAffineMap().getResult(k);
    std::vector<int64_t> dims, symbols;
    CollectVariables(expr, dims, symbols);
    for (int64_t d : dims) {
      if (dim_used[d]) return std::nullopt;
      dim_used[d] = true;
    }
    for (int64_t s : symbols) {
      if (symbol_used[s]) return std::nullopt;
      symbol_used[s] = true;
    }
    // A bare variable (the common case: elementwise, transpose, broadcast,
    // reduce) takes each value of its interval inside the operand once, so
    // it is counted without enumerating it.
    if (dims.size() + symbols.size() == 1 &&
        (mlir::isa<mlir::AffineDimExpr>(expr) ||
         mlir::isa<mlir::AffineSymbolExpr>(expr))) {
      Interval bound = dims.empty() ? map.GetSymbolBound(symbols[0])
                                    : map.GetDimBound(dims[0]);
      Interval inside = bound.Intersect({0, operand_dims[k] - 1});
      int64_t n = inside.IsEmpty() ? 0 : inside.NumElements();
      elements = Saturate(elements, n, overflow);
      pairs = Saturate(pairs, n, overflow);
      continue;
    }
    // Points of (D_k, S_k), symbols innermost: consecutive points with the
    // same dims form one d_k's group.
    std::vector<Interval> box;
    for (int64_t d : dims) box.push_back(map.GetDimBound(d));
    for (int64_t s : symbols) box.push_back(map.GetSymbolBound(s));
    std::vector<int64_t> all_dims(map.GetDimensionCount(), 0);
    std::vector<int64_t> all_symbols(map.GetSymbolCount(), 0);
    absl::flat_hash_set<int64_t> values, group;
    std::vector<int64_t> group_key;
    int64_t group_sum = 0;
    bool fits = ForEachPoint(box, limit, [&](const std::vector<int64_t>& p) {
      std::vector<int64_t> key(p.begin(), p.begin() + dims.size());
      if (key != group_key) {
        group_sum += group.size();
        group.clear();
        group_key = key;
      }
      for (size_t i = 0; i < dims.size(); ++i) all_dims[dims[i]] = p[i];
      for (size_t i = 0; i < symbols.size(); ++i) {
        all_symbols[symbols[i]] = p[dims.size() + i];
      }
      std::optional<int64_t> v =
          EvaluateAffineExpr(expr, all_dims, all_symbols);
      if (v && *v >= 0 && *v < operand_dims[k]) {
        values.insert(*v);
        group.insert(*v);
      }
    });
    if (!fits) return std::nullopt;
    group_sum += group.size();
    elements = Saturate(elements, values.size(), overflow);
    pairs = Saturate(pairs, group_sum, overflow);
  }
  for (int64_t d = 0; d < map.GetDimensionCount(); ++d) {
    if (!dim_used[d]) {
      pairs = Saturate(pairs, map.GetDimBound(d).NumElements(), overflow);
    }
  }
  if (overflow) return std::nullopt;
  return std::make_pair(elements, pairs);
}

// (point, element) pairs of any map by enumeration: for each domain point,
// the distinct in-bounds elements over its range variables. Runtime
// variables sit at the lower bound of their feasible values. nullopt when
// the dims x range variables box exceeds `limit`.
std::optional<int64_t> CountPairsByEnumeration(
    const IndexingMap& map, absl::Span<const int64_t> operand_dims,
    int64_t limit) {
  std::vector<Interval> box = map.GetDimBounds();
  const int64_t num_dims = map.GetDimensionCount();
  const int64_t num_ranges = map.GetRangeVarsCount();
  for (int64_t s = 0; s < num_ranges; ++s) box.push_back(map.GetSymbolBound(s));
  std::vector<int64_t> symbols(map.GetSymbolCount());
  for (int64_t s = num_ranges; s < map.GetSymbolCount(); ++s) {
    symbols[s] = map.GetSymbolBound(s).lower;
  }
  int64_t pairs = 0;
  std::vector<int64_t> current_dims;
  absl::flat_hash_set<std::vector<int64_t>> group;
  bool fits = ForEachPoint(box, limit, [&](const std::vector<int64_t>& p) {
    std::vector<int64_t> dims(p.begin(), p.begin() + num_dims);
    if (dims != current_dims) {
      pairs += group.size();
      group.clear();
      current_dims = dims;
    }
    for (int64_t s = 0; s < num_ranges; ++s) symbols[s] = p[num_dims + s];
    if (!map.ConstraintsSatisfied(dims, symbols)) return;
    std::optional<std::vector<int64_t>> r = map.Evaluate(dims, symbols);
    if (!r || r->size() != operand_dims.size()) return;
    for (size_t k = 0; k < r->size(); ++k) {
      if ((*r)[k] < 0 || (*r)[k] >= operand_dims[k]) return;
    }
    group.insert(*r);
  });
  if (!fits) return std::nullopt;
  return pairs + static_cast<int64_t>(group.size());
}

// Upper bound on the pairs: every point of the dims x range variables box.
int64_t BoxPairs(const IndexingMap& map) {
  bool overflow = false;
  int64_t n = 1;
  for (Interval b : map.GetDimBounds()) {
    n = Saturate(n, std::max<int64_t>(0, b.NumElements()), overflow);
  }
  for (int64_t s = 0; s < map.GetRangeVarsCount(); ++s) {
    n = Saturate(n, std::max<int64_t>(0, map.GetSymbolBound(s).NumElements()),
                 overflow);
  }
  return n;
}

std::string Indent(const std::string& text, const std::string& prefix) {
  return prefix + absl::StrReplaceAll(text, {{"\n", "\n" + prefix}});
}

std::string FormatDouble(double x) { return absl::StrFormat("%.6g", x); }

}  // namespace

double ReadCounts::Fraction() const {
  return element_count == 0
             ? 0.0
             : static_cast<double>(elements_read) / element_count;
}

double ReadCounts::AverageReads() const {
  return elements_read == 0 ? 0.0 : static_cast<double>(reads) / elements_read;
}

ReadCounts CountOperandReads(const IndexingMapSet& maps,
                             absl::Span<const int64_t> operand_dims,
                             int64_t max_points) {
  ReadCounts counts;
  counts.element_count = 1;
  bool overflow = false;
  for (int64_t n : operand_dims) {
    counts.element_count = Saturate(counts.element_count, n, overflow);
  }
  const int64_t rank = static_cast<int64_t>(operand_dims.size());
  // Elements read, when known without enumerating the union: one
  // separable map, or any separable map that reads every element.
  std::optional<int64_t> known_elements;
  for (const IndexingMap& map : maps) {
    if (map.IsKnownEmpty()) continue;
    if (map.IsUndefined() || map.GetResultCount() != rank) {
      // No rule: every element may be read; count each once, as a bound.
      counts.exact = false;
      counts.reads = std::max(counts.reads, counts.element_count);
      continue;
    }
    if (map.GetRuntimeVarsCount() != 0) counts.exact = false;
    if (std::optional<std::pair<int64_t, int64_t>> separable =
            CountSeparable(map, operand_dims, max_points)) {
      counts.reads += separable->second;
      if (maps.size() == 1 || separable->first == counts.element_count) {
        known_elements = separable->first;
      }
      continue;
    }
    if (std::optional<int64_t> pairs =
            CountPairsByEnumeration(map, operand_dims, max_points)) {
      counts.reads += *pairs;
      continue;
    }
    counts.exact = false;
    counts.reads += BoxPairs(map);
  }
  if (known_elements) {
    counts.elements_read = *known_elements;
  } else {
    // The union over several maps (or one that is not separable): the
    // per-op layer's point-by-point count, or its bound.
    OperandUtilization union_count =
        ComputeOperandUtilization(maps, operand_dims, max_points);
    counts.elements_read = union_count.elements_read;
    if (!union_count.exact) counts.exact = false;
  }
  return counts;
}

absl::StatusOr<UtilizationReport> AnalyzeUtilization(const HloModule& module,
                                                     mlir::MLIRContext* context,
                                                     int64_t max_points) {
  absl::StatusOr<AnalyzedFusion> fusion =
      AnalyzeFusionOperands(module, context);
  if (!fusion.ok()) return fusion.status();
  UtilizationReport report;
  report.root_name = fusion->root->name();
  report.output_shape = fusion->output_shape;
  report.output_elements = fusion->output_shape.ElementCount();
  for (const FusionOperand& operand : fusion->operands) {
    FusionOperandUtilization u;
    u.operand = operand.number;
    u.name = operand.name;
    u.shape = operand.shape;
    u.maps = operand.maps;
    if (operand.shape.IsArray()) {
      u.counts = CountOperandReads(operand.maps, operand.shape.dimensions(),
                                   max_points);
    } else {
      u.counts.exact = false;
    }
    report.operands.push_back(std::move(u));
  }
  return report;
}

std::string UtilizationReportToText(const UtilizationReport& report) {
  std::string text = absl::StrCat("root: ", report.root_name,
                                  "\noutput: ", report.output_shape.ToString(),
                                  " (", report.output_elements, " elements)\n");
  for (const FusionOperandUtilization& u : report.operands) {
    const ReadCounts& c = u.counts;
    absl::StrAppend(&text, "operand ", u.operand, " (", u.name, ", ",
                    u.shape.ToString(), "): read ", c.elements_read, " of ",
                    c.element_count, " elements (", FormatDouble(c.Fraction()),
                    "), ", c.reads, " reads, ", FormatDouble(c.AverageReads()),
                    " per element read", c.exact ? "" : " [upper bound]", "\n");
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
      ", \"output_elements\": ", report.output_elements, ", \"operands\": [");
  for (size_t i = 0; i < report.operands.size(); ++i) {
    const FusionOperandUtilization& u = report.operands[i];
    const ReadCounts& c = u.counts;
    absl::StrAppend(
        &json, i ? ", " : "", "{\"operand\": ", u.operand,
        ", \"name\": ", JsonQuote(u.name),
        ", \"shape\": ", JsonQuote(u.shape.ToString()),
        ", \"elements\": ", c.element_count,
        ", \"elements_read\": ", c.elements_read, ", \"reads\": ", c.reads,
        ", \"fraction\": ", FormatDouble(c.Fraction()),
        ", \"average_reads\": ", FormatDouble(c.AverageReads()),
        ", \"exact\": ", c.exact ? "true" : "false", ", \"maps\": [");
    for (int64_t m = 0; m < u.maps.size(); ++m) {
      absl::StrAppend(&json, m ? ", " : "", IndexingMapToJson(u.maps[m]));
    }
    absl::StrAppend(&json, "]}");
  }
  absl::StrAppend(&json, "]}");
  return json;
}

}  // namespace xla_index
