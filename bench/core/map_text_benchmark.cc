// Map-text parsing: ParseIndexingMap against the baseline parser (a frozen
// copy of the parser before its rewrite, bench/core/baseline_map_text_parser.h)
// on the same texts in the same run. docs/PERFORMANCE.md (map text) records
// the ratios.
//
//   bazel run -c opt //bench/core:map_text_benchmark

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bench/core/baseline_map_text_parser.h"
#include "bench/core/mlir_node_floor.h"
#include "benchmark/benchmark.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/core/xla_simplifier_cases.h"

namespace xla_index {
namespace {

mlir::MLIRContext* Context() {
  static auto* context =
      new mlir::MLIRContext(mlir::MLIRContext::Threading::DISABLED);
  return context;
}

// Maps as XLA's indexing-analysis documentation prints them (multi-line
// form), and XLA's one-line form.
const std::vector<std::string>& DocumentationMaps() {
  static const auto* maps = new std::vector<std::string>{
      "(d0, d1) -> (d0, d1)\ndomain:\nd0 in [0, 9]\nd1 in [0, 19]",
      "(d0)[s0, s1] -> (s0, d0, s1)\ndomain:\nd0 in [0, 19]\ns0 in [0, 9]\n"
      "s1 in [0, 29]",
      "(d0, d1, d2)[s0, s1, s2] -> (d0 + s0, d1 + s1, d2 + s2)\ndomain:\n"
      "d0 in [0, 0]\nd1 in [0, 1]\nd2 in [0, 31]\ns0 in [0, 1]\n"
      "  hlo: of1 = s32[] parameter(1)\n  (d0, d1, d2) -> ()\n"
      "s1 in [0, 0]\n  hlo: of2 = s32[] parameter(2)\n  (d0, d1, d2) -> ()\n"
      "s2 in [0, 226]\n  hlo: of3 = s32[] parameter(3)\n  (d0, d1, d2) -> ()",
      "(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2)\n"
      "domain:\nd0 in [5, 9]\nd1 in [3, 17]\nd2 in [0, 48]\n"
      "(d1 - 3) mod 7 in [0, 0]\nd2 mod 2 in [0, 0]",
      "(d0, d1) -> ((d0 * 128 + d1) floordiv 256, ((d0 * 128 + d1) floordiv "
      "64) mod 4, (d0 * 128 + d1) mod 64)\ndomain:\nd0 in [0, 3]\n"
      "d1 in [0, 127]",
      "(d0, d1, d2, d3)[s0] -> (d0 * 6 + d1 * 2 + d2 floordiv 2 + s0, "
      "(d3 - 3) floordiv 7)\ndomain:\nd0 in [0, 3]\nd1 in [0, 2]\n"
      "d2 in [0, 3]\nd3 in [3, 17]\ns0 in [0, 5]\n(d3 - 3) mod 7 in [0, 0]",
      "(d0, d1)[s0]{rt0} -> (d0 + rt0, s0 * 4 - d1), domain: d0 in [0, 9], "
      "d1 in [0, 3], s0 in [0, 7], rt0 in [0, 3], d0 + s0 in [0, 15]",
  };
  return *maps;
}

// A large map: `results` results of `terms` terms each (mixed div/mod), with
// as many constraints.
std::string LargeMap(int results, int terms) {
  const int dims = 8;
  std::string header = "(";
  for (int d = 0; d < dims; ++d)
    absl::StrAppend(&header, d ? ", " : "", "d", d);
  header += ")[s0, s1] -> (";
  std::string body, domain = "\ndomain:";
  for (int r = 0; r < results; ++r) {
    std::string e;
    for (int t = 0; t < terms; ++t) {
      int d = (r + t) % dims;
      switch (t % 4) {
        case 0:
          absl::StrAppend(&e, t ? " + " : "", "d", d, " * ", t + 3);
          break;
        case 1:
          absl::StrAppend(&e, " + (d", d, " + s0) floordiv ", t + 1);
          break;
        case 2:
          absl::StrAppend(&e, " - (d", d, " * 2 + s1) mod ", t + 5);
          break;
        default:
          absl::StrAppend(&e, " + ", t * 7);
          break;
      }
    }
    absl::StrAppend(&body, r ? ", " : "", e);
    if (r % 4 == 0)
      absl::StrAppend(&domain, "\n", e, " in [0, ", 1000 + r, "]");
  }
  std::string out = header + body + ")";
  absl::StrAppend(&out, "\ndomain:");
  for (int d = 0; d < dims; ++d)
    absl::StrAppend(&out, "\nd", d, " in [0, ", 10 + d, "]");
  absl::StrAppend(&out, "\ns0 in [0, 3]\ns1 in [-4, 4]");
  out += domain.substr(8);
  return out;
}

template <typename Parse>
void ParseAll(benchmark::State& state, const std::vector<std::string>& texts,
              Parse parse) {
  for (const std::string& text : texts) {
    if (!parse(text, Context()).ok()) {
      state.SkipWithError(absl::StrCat("does not parse: ", text).c_str());
      return;
    }
  }
  int64_t bytes = 0;
  for (auto _ : state) {
    for (const std::string& text : texts) {
      benchmark::DoNotOptimize(parse(text, Context()));
      bytes += text.size();
    }
  }
  state.SetBytesProcessed(bytes);
}

const std::vector<std::string>& LargeMaps() {
  static const auto* maps =
      new std::vector<std::string>{LargeMap(16, 8), LargeMap(64, 32)};
  return *maps;
}

void BM_ParseDocumentationMaps(benchmark::State& state) {
  ParseAll(state, DocumentationMaps(), ParseIndexingMap);
}
void BM_BaselineParseDocumentationMaps(benchmark::State& state) {
  ParseAll(state, DocumentationMaps(), baseline::ParseIndexingMap);
}
void BM_ParseLargeMaps(benchmark::State& state) {
  ParseAll(state, LargeMaps(), ParseIndexingMap);
}
void BM_BaselineParseLargeMaps(benchmark::State& state) {
  ParseAll(state, LargeMaps(), baseline::ParseIndexingMap);
}
// The texts of XLA's simplifier test kinds (xla_simplifier_cases.h) that
// both parsers read (the baseline refuses a negative divisor).
const std::vector<std::string>& XlaCaseTexts() {
  static const auto* texts = [] {
    auto* out = new std::vector<std::string>;
    for (const xla_simplifier_cases::Case& c : xla_simplifier_cases::kCases) {
      if (baseline::ParseIndexingMap(c.input, Context()).ok()) {
        out->push_back(c.input);
      }
    }
    return out;
  }();
  return *texts;
}
void BM_ParseXlaCases(benchmark::State& state) {
  ParseAll(state, XlaCaseTexts(), ParseIndexingMap);
}
void BM_BaselineParseXlaCases(benchmark::State& state) {
  ParseAll(state, XlaCaseTexts(), baseline::ParseIndexingMap);
}

// FLOOR, not a parser: the MLIR calls any parser producing the 38 maps of
// xla_simplifier_cases.h as mlir::AffineMap must make (each map's distinct
// nodes, results and constraints, and its AffineMap::get; see
// mlir_node_floor.h), replayed on nodes that exist. The parse of the same
// 38 texts (all of them, unlike BM_ParseXlaCases) is BM_ParseAllXlaCases.
const MlirNodeFloor& XlaCasesFloor() {
  static const auto* floor = [] {
    auto* out = new MlirNodeFloor;
    for (const xla_simplifier_cases::Case& c : xla_simplifier_cases::kCases) {
      absl::StatusOr<IndexingMap> map = ParseIndexingMap(c.input, Context());
      if (!map.ok()) continue;  // BM_ParseAllXlaCases reports it.
      out->AddIndexingMap(*map, {});
    }
    return out;
  }();
  return *floor;
}
void BM_MlirNodeFloorOfXlaCases(benchmark::State& state) {
  TimeReplay(state, XlaCasesFloor(), "parsed maps");
}
void BM_ParseAllXlaCases(benchmark::State& state) {
  std::vector<std::string> texts;
  for (const xla_simplifier_cases::Case& c : xla_simplifier_cases::kCases) {
    texts.push_back(c.input);
  }
  ParseAll(state, texts, ParseIndexingMap);
}

BENCHMARK(BM_ParseDocumentationMaps);
BENCHMARK(BM_BaselineParseDocumentationMaps);
BENCHMARK(BM_ParseLargeMaps);
BENCHMARK(BM_BaselineParseLargeMaps);
BENCHMARK(BM_ParseXlaCases);
BENCHMARK(BM_BaselineParseXlaCases);
// Fixed iteration counts, for instruction counts under callgrind.
BENCHMARK(BM_ParseXlaCases)->Name("BM_ParseXlaCases/fixed")->Iterations(200);
BENCHMARK(BM_BaselineParseXlaCases)
    ->Name("BM_BaselineParseXlaCases/fixed")
    ->Iterations(200);
BENCHMARK(BM_ParseAllXlaCases);
BENCHMARK(BM_MlirNodeFloorOfXlaCases);
BENCHMARK(BM_ParseAllXlaCases)
    ->Name("BM_ParseAllXlaCases/fixed")
    ->Iterations(200);
BENCHMARK(BM_MlirNodeFloorOfXlaCases)
    ->Name("BM_MlirNodeFloorOfXlaCases/fixed")
    ->Iterations(200);

}  // namespace
}  // namespace xla_index
