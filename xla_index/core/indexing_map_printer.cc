// The printer of the indexing-map text format (ToString, the JSON form,
// AffineExprToString): MLIR's affine syntax with XLA's domain lines. The
// parser is indexing_map_parser.cc.

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/base/optimization.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "base/utf8.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/core/checked_affine_expr.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {

using mlir::AffineExpr;
using mlir::AffineMap;

namespace {

// Prints like MLIR's AsmPrinter (printAffineExprInternal), with one
// difference: a `+` whose right operand is itself a `+` is parenthesized.
// MLIR prints Add(a, Add(b, c)) as "a + b + c", which reads back as
// Add(Add(a, b), c), a different expression; MLIR's own constructors produce
// such right-nested sums (e.g. from `(d1 * 4 + d2) floordiv 4`), so without
// the parentheses printing then parsing would not give back an equal map.
// Left-deep sums, which the simplifier and XLA's indexing-analysis
// documentation use, print as in MLIR.
//
// `floordiv` is the spelling of floordiv: MLIR's " floordiv ", or XLA HEAD's
// " / " (its SymbolicExpr printer, GetBinaryOpString in
// symbolic_map_serialization.cc). The other operators are spelled alike.
enum class Binding { kWeak, kStrong };

constexpr absl::string_view kMlirFloorDiv = " floordiv ";
constexpr absl::string_view kXlaHeadFloorDiv = " / ";

void PrintExpr(AffineExpr expr, Binding enclosing, std::string& out,
               absl::string_view floordiv = kMlirFloorDiv) {
  switch (expr.getKind()) {
    case mlir::AffineExprKind::SymbolId:
      absl::StrAppend(&out, "s",
                      mlir::cast<mlir::AffineSymbolExpr>(expr).getPosition());
      return;
    case mlir::AffineExprKind::DimId:
      absl::StrAppend(&out, "d",
                      mlir::cast<mlir::AffineDimExpr>(expr).getPosition());
      return;
    case mlir::AffineExprKind::Constant:
      absl::StrAppend(&out,
                      mlir::cast<mlir::AffineConstantExpr>(expr).getValue());
      return;
    default:
      break;
  }
  auto binary = mlir::cast<mlir::AffineBinaryOpExpr>(expr);
  AffineExpr lhs = binary.getLHS(), rhs = binary.getRHS();
  const bool parens = enclosing == Binding::kStrong;
  if (parens) out += "(";
  if (expr.getKind() != mlir::AffineExprKind::Add) {
    auto rhs_const = mlir::dyn_cast<mlir::AffineConstantExpr>(rhs);
    if (expr.getKind() == mlir::AffineExprKind::Mul && rhs_const &&
        rhs_const.getValue() == -1) {
      out += "-";
      PrintExpr(lhs, Binding::kStrong, out, floordiv);
    } else {
      PrintExpr(lhs, Binding::kStrong, out, floordiv);
      switch (expr.getKind()) {
        case mlir::AffineExprKind::Mul:
          out += " * ";
          break;
        case mlir::AffineExprKind::FloorDiv:
          out.append(floordiv.data(), floordiv.size());
          break;
        case mlir::AffineExprKind::CeilDiv:
          out += " ceildiv ";
          break;
        default:
          out += " mod ";
      }
      PrintExpr(rhs, Binding::kStrong, out, floordiv);
    }
    if (parens) out += ")";
    return;
  }
  // a + b * -1 -> "a - b"; a + b * -k -> "a - b * k"; a + -k -> "a - k".
  if (auto product = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(rhs);
      product && product.getKind() == mlir::AffineExprKind::Mul) {
    if (auto factor =
            mlir::dyn_cast<mlir::AffineConstantExpr>(product.getRHS())) {
      int64_t k = factor.getValue();
      if (k == -1) {
        PrintExpr(lhs, Binding::kWeak, out, floordiv);
        out += " - ";
        PrintExpr(product.getLHS(),
                  product.getLHS().getKind() == mlir::AffineExprKind::Add
                      ? Binding::kStrong
                      : Binding::kWeak,
                  out, floordiv);
        if (parens) out += ")";
        return;
      }
      if (k < -1 && k != Interval::kMin) {
        PrintExpr(lhs, Binding::kWeak, out, floordiv);
        out += " - ";
        PrintExpr(product.getLHS(), Binding::kStrong, out, floordiv);
        absl::StrAppend(&out, " * ", -k);
        if (parens) out += ")";
        return;
      }
    }
  }
  if (auto constant = mlir::dyn_cast<mlir::AffineConstantExpr>(rhs);
      constant && constant.getValue() < 0 &&
      constant.getValue() != Interval::kMin) {
    PrintExpr(lhs, Binding::kWeak, out, floordiv);
    absl::StrAppend(&out, " - ", -constant.getValue());
    if (parens) out += ")";
    return;
  }
  PrintExpr(lhs, Binding::kWeak, out, floordiv);
  out += " + ";
  PrintExpr(rhs,
            rhs.getKind() == mlir::AffineExprKind::Add ? Binding::kStrong
                                                       : Binding::kWeak,
            out, floordiv);
  if (parens) out += ")";
}

}  // namespace

std::string AffineExprToString(AffineExpr expr) {
  std::string out;
  PrintExpr(expr, Binding::kWeak, out);
  return out;
}

std::string AffineMapToString(AffineMap map) {
  if (!map) return "<<NULL AFFINE MAP>>";
  std::string out = "(";
  for (unsigned i = 0; i < map.getNumDims(); ++i) {
    absl::StrAppend(&out, i == 0 ? "" : ", ", "d", i);
  }
  out += ")";
  if (map.getNumSymbols() > 0) {
    out += "[";
    for (unsigned i = 0; i < map.getNumSymbols(); ++i) {
      absl::StrAppend(&out, i == 0 ? "" : ", ", "s", i);
    }
    out += "]";
  }
  out += " -> (";
  for (unsigned i = 0; i < map.getNumResults(); ++i) {
    if (i > 0) out += ", ";
    PrintExpr(map.getResult(i), Binding::kWeak, out);
  }
  out += ")";
  return out;
}

namespace {

// Empty-result access map over `num_dims` dims, used for runtime variables
// that have none.
AffineMap DefaultAccess(int num_dims, mlir::MLIRContext* ctx) {
  return AffineMap::get(num_dims, 0, {}, ctx);
}

std::vector<std::pair<std::string, Interval>> SortedConstraints(
    const IndexingMap& map) {
  std::vector<std::pair<std::string, Interval>> out;
  for (const IndexingConstraint& c : map.GetConstraints()) {
    out.push_back({AffineExprToString(c.expr), c.interval});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    return std::make_pair(a.second.lower, a.second.upper) <
           std::make_pair(b.second.lower, b.second.upper);
  });
  return out;
}

std::string AccessToString(const IndexingMap& map, const RuntimeVar& rt) {
  return AffineMapToString(
      rt.access ? rt.access
                : DefaultAccess(map.GetDimensionCount(), map.GetMLIRContext()));
}

}  // namespace

std::string ToString(const IndexingMap& map) {
  if (map.IsUndefined()) return "UNDEFINED";
  if (map.IsKnownEmpty()) return "KNOWN EMPTY";
  std::string out = AffineMapToString(map.GetAffineMap());
  absl::StrAppend(&out, "\ndomain:");
  for (int64_t i = 0; i < map.GetDimensionCount(); ++i) {
    absl::StrAppend(&out, "\nd", i, " in ", map.GetDimBound(i).ToString());
  }
  for (int64_t i = 0; i < map.GetSymbolCount(); ++i) {
    absl::StrAppend(&out, "\ns", i, " in ", map.GetSymbolBound(i).ToString());
    if (map.IsRuntimeSymbol(i)) {
      const RuntimeVar& rt = map.GetRuntimeVars()[i - map.GetRangeVarsCount()];
      absl::StrAppend(&out,
                      "\n  hlo: ", rt.hlo_text.empty() ? "NULL" : rt.hlo_text,
                      "\n  ", AccessToString(map, rt));
    }
  }
  for (const auto& [expr, interval] : SortedConstraints(map)) {
    absl::StrAppend(&out, "\n", expr, " in ", interval.ToString());
  }
  return out;
}

std::string ToXlaHeadString(const IndexingMap& map) {
  if (map.IsUndefined()) return "UNDEFINED";
  if (map.IsKnownEmpty()) return "KNOWN EMPTY";
  auto expr_text = [](AffineExpr e) {
    std::string text;
    PrintExpr(e, Binding::kWeak, text, kXlaHeadFloorDiv);
    return text;
  };
  const int64_t num_dims = map.GetDimensionCount();
  const int64_t num_range = map.GetRangeVarsCount();
  const int64_t num_symbols = map.GetSymbolCount();
  std::string out = "(";
  for (int64_t i = 0; i < num_dims; ++i) {
    absl::StrAppend(&out, i == 0 ? "" : ", ", "d", i);
  }
  out += ")";
  // Range variables in [...], runtime variables in {...}; both are symbols
  // s<N>, numbered in that order, as XLA numbers them.
  for (int64_t i = 0; i < num_symbols; ++i) {
    const bool first_range = i == 0;
    const bool first_runtime = i == num_range;
    if (first_range && num_range > 0) out += "[";
    if (first_runtime) out += num_range > 0 ? "]{" : "{";
    if (!first_range && !first_runtime) out += ", ";
    absl::StrAppend(&out, "s", i);
  }
  if (num_symbols > 0) out += num_symbols > num_range ? "}" : "]";
  out += " -> (";
  for (unsigned i = 0; i < map.GetAffineMap().getNumResults(); ++i) {
    absl::StrAppend(&out, i == 0 ? "" : ", ",
                    expr_text(map.GetAffineMap().getResult(i)));
  }
  out += ")";
  if (num_dims + num_symbols == 0) return out;
  out += ", domain: ";
  for (int64_t i = 0; i < num_dims; ++i) {
    absl::StrAppend(&out, i == 0 ? "" : ", ", "d", i, " in ",
                    map.GetDimBound(i).ToString());
  }
  for (int64_t i = 0; i < num_symbols; ++i) {
    absl::StrAppend(&out, num_dims + i == 0 ? "" : ", ", "s", i, " in ",
                    map.GetSymbolBound(i).ToString());
  }
  // Constraints sorted by their text, as XLA's ToString(IndexingMap) sorts.
  std::vector<std::string> constraints;
  for (const IndexingConstraint& c : map.GetConstraints()) {
    constraints.push_back(
        absl::StrCat(expr_text(c.expr), " in ", c.interval.ToString()));
  }
  std::sort(constraints.begin(), constraints.end());
  for (const std::string& c : constraints) absl::StrAppend(&out, ", ", c);
  return out;
}

namespace {

void AppendJsonEscape(char32_t c, std::string& out) {
  static const char kHex[] = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(c >> shift) & 15];
}

}  // namespace

// RFC 8259: a string holds any code point, with '"', '\\' and U+0000..U+001F
// escaped, in UTF-8 (section 8.1). Names and attributes of an HLO text may
// hold any bytes: each byte that does not start a well-formed UTF-8 sequence
// becomes U+FFFD. DEL, U+2028 and U+2029 are escaped as well, so that the
// string can also be pasted into JavaScript or printed on a terminal.
std::string JsonQuote(absl::string_view s) {
  std::string out = "\"";
  while (!s.empty()) {
    char32_t c = ConsumeUtf8OrReplacement(s);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7F || c == 0x2028 || c == 0x2029 ||
            c == kReplacementCharacter) {
          AppendJsonEscape(c, out);
        } else {
          AppendUtf8(c, out);
        }
    }
  }
  out += "\"";
  return out;
}

std::ostream& operator<<(std::ostream& out, const IndexingMap& map) {
  out << ToString(map);
  if (map.IsUndefined() && !map.undefined_reason().empty()) {
    out << " (" << map.undefined_reason() << ")";
  }
  return out;
}

std::string IndexingMapToJson(const IndexingMap& map) {
  std::string out = absl::StrCat("{\"text\": ", JsonQuote(ToString(map)));
  bool special = map.IsUndefined() || map.IsKnownEmpty();
  absl::StrAppend(
      &out, ", \"map\": ",
      JsonQuote(special ? "" : AffineMapToString(map.GetAffineMap())));
  std::vector<std::string> items;
  if (!special) {
    for (int64_t i = 0; i < map.GetDimensionCount(); ++i) {
      Interval b = map.GetDimBound(i);
      items.push_back(absl::StrCat("{\"name\": \"d", i, "\", \"lo\": ", b.lower,
                                   ", \"hi\": ", b.upper, "}"));
    }
  }
  absl::StrAppend(&out, ", \"dims\": [", absl::StrJoin(items, ", "), "]");
  items.clear();
  if (!special) {
    for (int64_t i = 0; i < map.GetSymbolCount(); ++i) {
      Interval b = map.GetSymbolBound(i);
      std::string item = absl::StrCat(
          "{\"name\": \"s", i, "\", \"lo\": ", b.lower, ", \"hi\": ", b.upper);
      if (map.IsRuntimeSymbol(i)) {
        const RuntimeVar& rt =
            map.GetRuntimeVars()[i - map.GetRangeVarsCount()];
        absl::StrAppend(&item, ", \"kind\": \"runtime\", \"hlo\": ",
                        rt.hlo_text.empty() ? "null" : JsonQuote(rt.hlo_text),
                        ", \"access\": ", JsonQuote(AccessToString(map, rt)),
                        "}");
      } else {
        absl::StrAppend(&item, ", \"kind\": \"range\"}");
      }
      items.push_back(std::move(item));
    }
  }
  absl::StrAppend(&out, ", \"symbols\": [", absl::StrJoin(items, ", "), "]");
  items.clear();
  if (!special) {
    for (const auto& [expr, interval] : SortedConstraints(map)) {
      items.push_back(absl::StrCat("{\"expr\": ", JsonQuote(expr),
                                   ", \"lo\": ", interval.lower,
                                   ", \"hi\": ", interval.upper, "}"));
    }
  }
  absl::StrAppend(&out, ", \"constraints\": [", absl::StrJoin(items, ", "),
                  "]");
  absl::StrAppend(&out,
                  ", \"undefined\": ", map.IsUndefined() ? "true" : "false");
  if (map.IsUndefined() && !map.undefined_reason().empty()) {
    absl::StrAppend(
        &out, ", \"undefined_reason\": ", JsonQuote(map.undefined_reason()));
  }
  absl::StrAppend(
      &out, ", \"known_empty\": ", map.IsKnownEmpty() ? "true" : "false", "}");
  return out;
}
}  // namespace xla_index
