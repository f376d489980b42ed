// Differential fuzz target for `equal` and `empty`
// (xla_index/core/exact_map_questions.h): decodes the input bytes into two
// small indexing maps of the same shape, asks DecideEquality and
// DecideEmptiness, and checks every answer against brute force
// (exact::Enumerate, xla_index/core/exact_affine_eval.h, an evaluator
// independent of the enumeration method's). A wrong answer, a witness that
// is not a pair of the map it names (or is a pair of the other), or an
// error other than an exhausted budget aborts.
//
// The maps have 0-3 dims, 0-3 range variables (some unused), sometimes a
// runtime variable, 1-2 results and 0-3 constraints; expressions draw sums,
// differences, products by constants, and floordiv / ceildiv / mod by small,
// negative and large constants; about one interval in 32 is empty and one
// map in 16 is KNOWN EMPTY. The second map is the first simplified (usually
// equal), the first with one result moved by a constant or one bound
// changed (usually different), or another map of the same shape.
//
// Each pair is asked twice: with the default budget (small boxes are
// enumerated) and with enumeration turned off, so that sampling, the
// direct method and FindDomainPointWith answer too; for maps whose symbols
// enter their results or constraints the second run is left to the
// Presburger subtraction's own tests (it can take minutes on a few maps).
// The same bytes always decode to the same maps, so a finding replays.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/exact_affine_eval.h"
#include "xla_index/core/exact_map_questions.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

/// Draws small integers from the input bytes (0 once they run out).
class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  /// An integer in [lo, hi].
  int Draw(int lo, int hi) {
    const int byte = pos_ < size_ ? data_[pos_++] : 0;
    return lo + byte % (hi - lo + 1);
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

/// The shape shared by both maps of a pair.
struct Shape {
  int dims, symbols, runtime, results;
};

std::string Expr(ByteReader& in, const std::vector<std::string>& vars,
                 int depth) {
  if (depth == 0 || in.Draw(0, 3) == 0) {
    if (vars.empty() || in.Draw(0, 4) == 0) {
      return absl::StrCat(in.Draw(-5, 5));
    }
    return vars[in.Draw(0, vars.size() - 1)];
  }
  static constexpr int64_t kDivisors[] = {2,  3,  4,      5,      7,
                                          -2, -3, 100000, 1000003};
  static constexpr int64_t kModuli[] = {2, 3, 4, 6, 7, 16, 1000003};
  std::string lhs = Expr(in, vars, depth - 1);
  switch (in.Draw(0, 6)) {
    case 0:
    case 1:
      return absl::StrCat("(", lhs, " + ", Expr(in, vars, depth - 1), ")");
    case 2:
      return absl::StrCat("(", lhs, " - ", Expr(in, vars, depth - 1), ")");
    case 3:
      return absl::StrCat("(", lhs, ") * ", in.Draw(-4, 4));
    case 4:
      return absl::StrCat("(", lhs, ") floordiv ", kDivisors[in.Draw(0, 8)]);
    case 5:
      return absl::StrCat("(", lhs, ") ceildiv ", kDivisors[in.Draw(0, 8)]);
    default:
      return absl::StrCat("(", lhs, ") mod ", kModuli[in.Draw(0, 6)]);
  }
}

/// `shift` is added to the first result (0: none).
std::string MapText(ByteReader& in, const Shape& shape, int shift) {
  if (in.Draw(0, 15) == 0) return "KNOWN EMPTY";
  std::vector<std::string> d, s, rt, vars;
  for (int i = 0; i < shape.dims; ++i) d.push_back(absl::StrCat("d", i));
  for (int i = 0; i < shape.symbols; ++i) s.push_back(absl::StrCat("s", i));
  for (int i = 0; i < shape.runtime; ++i) rt.push_back(absl::StrCat("rt", i));
  vars = d;
  vars.insert(vars.end(), s.begin(), s.end());
  vars.insert(vars.end(), rt.begin(), rt.end());
  std::vector<std::string> results;
  for (int i = 0; i < shape.results; ++i) results.push_back(Expr(in, vars, 3));
  if (shift != 0) absl::StrAppend(&results[0], " + ", shift);
  std::string text = absl::StrCat("(", absl::StrJoin(d, ", "), ")");
  if (!s.empty()) absl::StrAppend(&text, "[", absl::StrJoin(s, ", "), "]");
  if (!rt.empty()) absl::StrAppend(&text, "{", absl::StrJoin(rt, ", "), "}");
  absl::StrAppend(&text, " -> (", absl::StrJoin(results, ", "), ")");
  std::vector<std::string> domain;
  for (const std::string& v : vars) {
    const int lo = in.Draw(-4, 4);
    const int width = in.Draw(0, 31) == 0 ? -1 : in.Draw(0, 4);
    domain.push_back(absl::StrCat(v, " in [", lo, ", ", lo + width, "]"));
  }
  for (int c = in.Draw(0, 3); c > 0; --c) {
    const int lo = in.Draw(-6, 6);
    domain.push_back(absl::StrCat(Expr(in, vars, 2), " in [", lo, ", ",
                                  lo + in.Draw(0, 5), "]"));
  }
  if (!domain.empty()) {
    absl::StrAppend(&text, ", domain: ", absl::StrJoin(domain, ", "));
  }
  return text;
}

bool UsesSymbols(const IndexingMap& map) {
  if (map.IsKnownEmpty()) return false;
  bool uses = false;
  auto look = [&](mlir::AffineExpr expr) {
    expr.walk([&](mlir::AffineExpr e) {
      uses |= mlir::isa<mlir::AffineSymbolExpr>(e);
    });
  };
  for (mlir::AffineExpr r : map.GetAffineMap().getResults()) look(r);
  for (const IndexingConstraint& c : map.GetConstraints()) look(c.expr);
  return uses;
}

[[noreturn]] void Fail(const char* what, const IndexingMap& a,
                       const IndexingMap& b, const std::string& detail) {
  std::fprintf(stderr,
               "exact_questions_fuzzer: %s\nMAP1: %s\nMAP2: %s\n%s\n", what,
               ToString(a).c_str(), ToString(b).c_str(), detail.c_str());
  std::abort();
}

bool InRelation(const exact::Relation& relation, const RelationPoint& point) {
  return relation.count({point.dims,
                         std::vector<exact::Int>(point.results.begin(),
                                                 point.results.end())}) > 0;
}

/// The pair comes from the point's own symbols in `map`.
bool RelatesWithSymbols(const IndexingMap& map, const RelationPoint& point) {
  if (map.IsKnownEmpty()) return false;
  for (size_t i = 0; i < point.symbols.size(); ++i) {
    if (!map.GetSymbolBound(i).Contains(point.symbols[i])) return false;
  }
  exact::PointValue value = exact::EvaluateAt(map, point.dims, point.symbols);
  return value.kind == exact::Value::kValue && value.holds &&
         value.results == std::vector<exact::Int>(point.results.begin(),
                                                  point.results.end());
}

void CheckEquality(const IndexingMap& a, const IndexingMap& b,
                   const exact::Relation& ta, const exact::Relation& tb,
                   const ExactBudget& budget) {
  absl::StatusOr<EqualityAnswer> answer = DecideEquality(a, b, budget);
  if (!answer.ok()) {
    // Different counts are refused unless a relation is empty; a budget
    // may run out; nothing else is expected of these maps.
    const bool counts_differ =
        !a.IsKnownEmpty() && !b.IsKnownEmpty() &&
        (a.GetDimensionCount() != b.GetDimensionCount() ||
         a.GetResultCount() != b.GetResultCount());
    if (absl::IsResourceExhausted(answer.status()) || counts_differ) return;
    Fail("DecideEquality failed", a, b, std::string(answer.status().message()));
  }
  if (answer->difference.has_value() == (ta == tb)) {
    Fail("DecideEquality gives the wrong answer", a, b,
         absl::StrCat("method: ", ExactMethodName(answer->method), "\n",
                      exact::FirstDifference(ta, tb)));
  }
  if (!answer->difference) return;
  const MapDifference& d = *answer->difference;
  const bool a_side = d.in_map == 0;
  if (!InRelation(a_side ? ta : tb, d.point) ||
      InRelation(a_side ? tb : ta, d.point) ||
      !RelatesWithSymbols(a_side ? a : b, d.point)) {
    Fail("DecideEquality gives a wrong witness", a, b,
         absl::StrCat("method: ", ExactMethodName(answer->method)));
  }
}

void CheckEmptiness(const IndexingMap& a, const exact::Relation& ta,
                    const ExactBudget& budget) {
  absl::StatusOr<EmptinessAnswer> answer = DecideEmptiness(a, budget);
  if (!answer.ok()) {
    if (absl::IsResourceExhausted(answer.status())) return;
    Fail("DecideEmptiness failed", a, a, std::string(answer.status().message()));
  }
  if (answer->point.has_value() == ta.empty()) {
    Fail("DecideEmptiness gives the wrong answer", a, a,
         ExactMethodName(answer->method));
  }
  if (answer->point && !RelatesWithSymbols(a, *answer->point)) {
    Fail("DecideEmptiness gives a wrong witness", a, a,
         ExactMethodName(answer->method));
  }
}

}  // namespace
}  // namespace xla_index

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace xla_index;  // NOLINT: the fuzz entry point
  ByteReader in(data, size);
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  const Shape shape{in.Draw(0, 3), in.Draw(0, 3),
                    in.Draw(0, 3) == 0 ? 1 : 0, in.Draw(1, 2)};
  absl::StatusOr<IndexingMap> a =
      ParseIndexingMap(MapText(in, shape, 0), &context);
  if (!a.ok()) return 0;  // e.g. a divisor that folded to zero
  absl::StatusOr<IndexingMap> b = *a;
  switch (in.Draw(0, 3)) {
    case 0:
      b->Simplify();
      break;
    case 1: {
      // The same bytes again: the same first map, with a shifted result.
      ByteReader again(data, size);
      for (int skipped = 0; skipped < 4; ++skipped) again.Draw(0, 3);
      b = ParseIndexingMap(MapText(again, shape, in.Draw(1, 3)), &context);
      break;
    }
    default:
      b = ParseIndexingMap(MapText(in, shape, 0), &context);
  }
  if (!b.ok() || b->IsUndefined()) return 0;
  exact::Enumeration ta = exact::Enumerate(*a, 1 << 14);
  exact::Enumeration tb = exact::Enumerate(*b, 1 << 14);
  if (ta.kind != exact::Enumeration::kDone ||
      tb.kind != exact::Enumeration::kDone) {
    return 0;
  }
  ExactBudget no_enumeration;
  no_enumeration.max_enumerated_points = 0;
  no_enumeration.max_fallback_points = 1 << 12;
  CheckEquality(*a, *b, ta.relation, tb.relation, ExactBudget());
  CheckEmptiness(*a, ta.relation, ExactBudget());
  CheckEmptiness(*a, ta.relation, no_enumeration);
  if (!UsesSymbols(*a) && !UsesSymbols(*b)) {
    CheckEquality(*a, *b, ta.relation, tb.relation, no_enumeration);
  }
  return 0;
}
