// BASELINE ONLY: see baseline_map_text_parser.h. A verbatim copy of the
// parser half of xla_index/core/indexing_map_text.cc at commit 87faf24
// (namespace changed, ParseAffineExpr/ParseAffineMap entry points dropped).

#include "bench/core/baseline_map_text_parser.h"

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"

namespace xla_index::baseline {

using mlir::AffineExpr;
using mlir::AffineMap;

namespace {

enum class TokenKind {
  kEnd,
  kIdentifier,
  kInteger,
  kPunct,  // one of ( ) [ ] { } , : + - * and "->"
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  absl::string_view text;
  size_t offset = 0;
};

class MapParser {
 public:
  MapParser(absl::string_view text, mlir::MLIRContext* ctx)
      : text_(text), ctx_(ctx) {
    Advance();
  }

  absl::StatusOr<IndexingMap> ParseMap();
  absl::StatusOr<AffineMap> ParseBareAffineMap();
  absl::StatusOr<AffineExpr> ParseStandaloneExpr(
      const std::vector<std::string>& dims,
      const std::vector<std::string>& symbols);

 private:
  struct Variable {
    bool is_dim;
    int index;
  };

  // Lexing.
  void Advance();
  void SkipSpace();
  bool AtPunct(absl::string_view p) const {
    return tok_.kind == TokenKind::kPunct && tok_.text == p;
  }
  bool AtWord(absl::string_view w) const {
    return tok_.kind == TokenKind::kIdentifier && tok_.text == w;
  }
  absl::Status Error(size_t offset, absl::string_view what) const;
  absl::Status ErrorHere(absl::string_view what) const {
    return Error(tok_.offset, absl::StrCat(what, ", found ", Describe()));
  }
  std::string Describe() const;
  absl::Status Expect(absl::string_view punct);
  absl::StatusOr<int64_t> ParseInteger();  // Optional leading '-'.

  // Grammar.
  absl::StatusOr<std::vector<std::string>> ParseNameList(
      absl::string_view open, absl::string_view close);
  absl::Status ParseHeader(std::vector<std::string>& dims,
                           std::vector<std::string>& symbols,
                           std::vector<std::string>& runtime);
  /// One whole expression (a result, a constraint, a standalone
  /// expression): ParseSum with the operator budget reset.
  absl::StatusOr<AffineExpr> ParseExpression();
  absl::StatusOr<AffineExpr> ParseSum();
  /// Counts a binary operator against kMaxOperators.
  absl::Status CountOperator();
  absl::StatusOr<AffineExpr> ParseTerm();
  absl::StatusOr<AffineExpr> ParseUnary();
  absl::StatusOr<AffineExpr> ParsePrimary();
  absl::StatusOr<std::vector<AffineExpr>> ParseResults();
  absl::StatusOr<Interval> ParseInterval();

  // The variables a map's header declares: dims, range symbols, runtime
  // symbols (declared in {...}).
  struct Header {
    std::vector<std::string> dims, symbols, runtime;
    int num_dims() const { return dims.size(); }
    int num_symbols() const { return symbols.size() + runtime.size(); }
    // The name of variable i (dims, then symbols, then runtime symbols).
    const std::string& Name(int i) const {
      if (i < num_dims()) return dims[i];
      i -= num_dims();
      return i < static_cast<int>(symbols.size()) ? symbols[i]
                                                  : runtime[i - symbols.size()];
    }
  };
  // What the "domain:" section gives: a bound per variable (dims, then
  // symbols in header order), runtime symbols and their HLO, constraints.
  struct Domain {
    Domain(int num_dims, int num_symbols, int num_range_symbols)
        : bounds(num_dims + num_symbols),
          is_runtime(num_symbols, false),
          runtime(num_symbols) {
      // Symbols declared in {...} are runtime variables.
      for (int i = num_range_symbols; i < num_symbols; ++i) {
        is_runtime[i] = true;
      }
    }
    std::vector<std::optional<Interval>> bounds;
    std::vector<bool> is_runtime;
    std::vector<RuntimeVar> runtime;
    std::vector<IndexingConstraint> constraints;
  };
  // "UNDEFINED", "KNOWN EMPTY" or "KNOWN_EMPTY"; nullopt for anything else.
  std::optional<absl::StatusOr<IndexingMap>> ParseSpecialMap();
  absl::Status ParseDomainEntry(int num_dims, Domain& domain);
  absl::Status ParseRuntimeVariable(int symbol, Domain& domain);
  absl::StatusOr<IndexingMap> BuildMap(const Header& header,
                                       const std::vector<AffineExpr>& results,
                                       Domain domain);

  absl::string_view text_;
  mlir::MLIRContext* ctx_;
  size_t pos_ = 0;
  Token tok_;
  absl::flat_hash_map<std::string, Variable> names_;
  int depth_ = 0;  // Parenthesis nesting, bounded against stack overflow.
  // Binary operators in the current expression. A chain like
  // d0 + d1 + ... + dN is a tree N deep, and every pass over affine
  // expressions (MLIR's and the simplifier's) recurses into it; bounding
  // the operators bounds the stack they use (4,000 terms overflowed it under
  // AddressSanitizer).
  static constexpr int kMaxOperators = 1024;
  int operators_ = 0;
};

void MapParser::SkipSpace() {
  while (pos_ < text_.size() &&
         absl::ascii_isspace(static_cast<unsigned char>(text_[pos_]))) {
    ++pos_;
  }
}

void MapParser::Advance() {
  SkipSpace();
  tok_.offset = pos_;
  if (pos_ >= text_.size()) {
    tok_.kind = TokenKind::kEnd;
    tok_.text = absl::string_view();
    return;
  }
  unsigned char c = text_[pos_];
  size_t start = pos_;
  if (absl::ascii_isalpha(c) || c == '_') {
    while (pos_ < text_.size() &&
           (absl::ascii_isalnum(static_cast<unsigned char>(text_[pos_])) ||
            text_[pos_] == '_' || text_[pos_] == '.')) {
      ++pos_;
    }
    tok_.kind = TokenKind::kIdentifier;
  } else if (absl::ascii_isdigit(c)) {
    while (pos_ < text_.size() &&
           absl::ascii_isdigit(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
    }
    tok_.kind = TokenKind::kInteger;
  } else if (c == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '>') {
    pos_ += 2;
    tok_.kind = TokenKind::kPunct;
  } else {
    ++pos_;
    tok_.kind = TokenKind::kPunct;
  }
  tok_.text = text_.substr(start, pos_ - start);
}

absl::Status MapParser::Error(size_t offset, absl::string_view what) const {
  int line = 1, column = 1;
  for (size_t i = 0; i < offset && i < text_.size(); ++i) {
    if (text_[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat(line, ":", column, ": ", what));
}

std::string MapParser::Describe() const {
  if (tok_.kind == TokenKind::kEnd) return "end of input";
  std::string shown(tok_.text.substr(0, 20));
  return absl::StrCat("'", shown, "'");
}

absl::Status MapParser::Expect(absl::string_view punct) {
  if (!AtPunct(punct)) return ErrorHere(absl::StrCat("expected '", punct, "'"));
  Advance();
  return absl::OkStatus();
}

absl::StatusOr<int64_t> MapParser::ParseInteger() {
  size_t start = tok_.offset;
  bool negative = false;
  if (AtPunct("-")) {
    negative = true;
    Advance();
  }
  if (tok_.kind != TokenKind::kInteger) return ErrorHere("expected an integer");
  // Parse as unsigned magnitude so that INT64_MIN is accepted.
  uint64_t magnitude;
  if (!absl::SimpleAtoi(tok_.text, &magnitude) ||
      magnitude > (negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1)) {
    return Error(start, "integer does not fit in 64 bits");
  }
  Advance();
  return negative ? static_cast<int64_t>(0 - magnitude)
                  : static_cast<int64_t>(magnitude);
}

absl::StatusOr<std::vector<std::string>> MapParser::ParseNameList(
    absl::string_view open, absl::string_view close) {
  std::vector<std::string> names;
  XI_RETURN_IF_ERROR(Expect(open));
  if (AtPunct(close)) {
    Advance();
    return names;
  }
  while (true) {
    if (tok_.kind != TokenKind::kIdentifier) {
      return ErrorHere("expected a variable name");
    }
    names.emplace_back(tok_.text);
    Advance();
    if (AtPunct(close)) {
      Advance();
      return names;
    }
    XI_RETURN_IF_ERROR(Expect(","));
  }
}

absl::Status MapParser::ParseHeader(std::vector<std::string>& dims,
                                    std::vector<std::string>& symbols,
                                    std::vector<std::string>& runtime) {
  size_t start = tok_.offset;
  auto d = ParseNameList("(", ")");
  if (!d.ok()) return d.status();
  dims = *std::move(d);
  if (AtPunct("[")) {
    auto s = ParseNameList("[", "]");
    if (!s.ok()) return s.status();
    symbols = *std::move(s);
  }
  if (AtPunct("{")) {
    auto r = ParseNameList("{", "}");
    if (!r.ok()) return r.status();
    runtime = *std::move(r);
  }
  names_.clear();
  auto add = [&](const std::string& name, bool is_dim, int index) {
    return names_.insert({name, Variable{is_dim, index}}).second;
  };
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!add(dims[i], true, i)) {
      return Error(start,
                   absl::StrCat("variable '", dims[i], "' declared twice"));
    }
  }
  for (size_t i = 0; i < symbols.size() + runtime.size(); ++i) {
    const std::string& name =
        i < symbols.size() ? symbols[i] : runtime[i - symbols.size()];
    if (!add(name, false, i)) {
      return Error(start, absl::StrCat("variable '", name, "' declared twice"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<AffineExpr> MapParser::ParseExpression() {
  operators_ = 0;
  return ParseSum();
}

absl::Status MapParser::CountOperator() {
  if (++operators_ > kMaxOperators) {
    return ErrorHere(
        absl::StrCat("expression has more than ", kMaxOperators, " operators"));
  }
  return absl::OkStatus();
}

absl::StatusOr<AffineExpr> MapParser::ParseSum() {
  auto lhs = ParseTerm();
  if (!lhs.ok()) return lhs;
  AffineExpr result = *lhs;
  while (AtPunct("+") || AtPunct("-")) {
    XI_RETURN_IF_ERROR(CountOperator());
    bool minus = AtPunct("-");
    Advance();
    auto rhs = ParseTerm();
    if (!rhs.ok()) return rhs;
    result = minus ? result - *rhs : result + *rhs;
  }
  return result;
}

absl::StatusOr<AffineExpr> MapParser::ParseTerm() {
  auto lhs = ParseUnary();
  if (!lhs.ok()) return lhs;
  AffineExpr result = *lhs;
  while (true) {
    mlir::AffineExprKind kind;
    if (AtPunct("*")) {
      kind = mlir::AffineExprKind::Mul;
    } else if (AtWord("floordiv")) {
      kind = mlir::AffineExprKind::FloorDiv;
    } else if (AtWord("ceildiv")) {
      kind = mlir::AffineExprKind::CeilDiv;
    } else if (AtWord("mod")) {
      kind = mlir::AffineExprKind::Mod;
    } else {
      return result;
    }
    XI_RETURN_IF_ERROR(CountOperator());
    size_t op_offset = tok_.offset;
    Advance();
    auto rhs = ParseUnary();
    if (!rhs.ok()) return rhs;
    // MLIR asserts on division or modulo by a constant zero; reject it here.
    if (kind != mlir::AffineExprKind::Mul) {
      if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(*rhs)) {
        if (c.getValue() <= 0) {
          return Error(op_offset,
                       "divisor of floordiv/ceildiv/mod must be positive");
        }
      } else {
        return Error(op_offset,
                     "divisor of floordiv/ceildiv/mod must be a constant");
      }
    } else if (!mlir::isa<mlir::AffineConstantExpr>(result) &&
               !mlir::isa<mlir::AffineConstantExpr>(*rhs)) {
      return Error(op_offset, "one side of '*' must be a constant");
    }
    result = mlir::getAffineBinaryOpExpr(kind, result, *rhs);
  }
}

absl::StatusOr<AffineExpr> MapParser::ParseUnary() {
  if (AtPunct("-")) {
    // "-9223372036854775808" is one integer: its magnitude alone does not
    // fit in int64.
    size_t save_pos = pos_;
    Token save_tok = tok_;
    Advance();
    if (tok_.kind == TokenKind::kInteger) {
      pos_ = save_pos;
      tok_ = save_tok;
      auto v = ParseInteger();
      if (!v.ok()) return v.status();
      return mlir::getAffineConstantExpr(*v, ctx_);
    }
    if (++depth_ > 200) return ErrorHere("expression nested too deeply");
    auto operand = ParseUnary();
    --depth_;
    if (!operand.ok()) return operand;
    return -*operand;
  }
  return ParsePrimary();
}

absl::StatusOr<AffineExpr> MapParser::ParsePrimary() {
  if (tok_.kind == TokenKind::kInteger) {
    auto v = ParseInteger();
    if (!v.ok()) return v.status();
    return mlir::getAffineConstantExpr(*v, ctx_);
  }
  if (tok_.kind == TokenKind::kIdentifier) {
    auto it = names_.find(std::string(tok_.text));
    if (it == names_.end()) {
      return ErrorHere("expected a declared variable, an integer or '('");
    }
    Advance();
    return it->second.is_dim
               ? mlir::getAffineDimExpr(it->second.index, ctx_)
               : mlir::getAffineSymbolExpr(it->second.index, ctx_);
  }
  if (AtPunct("(")) {
    if (++depth_ > 200) return ErrorHere("expression nested too deeply");
    Advance();
    auto inner = ParseSum();
    --depth_;
    if (!inner.ok()) return inner;
    XI_RETURN_IF_ERROR(Expect(")"));
    return inner;
  }
  return ErrorHere("expected a variable, an integer or '('");
}

absl::StatusOr<std::vector<AffineExpr>> MapParser::ParseResults() {
  std::vector<AffineExpr> results;
  XI_RETURN_IF_ERROR(Expect("("));
  if (AtPunct(")")) {
    Advance();
    return results;
  }
  while (true) {
    auto e = ParseExpression();
    if (!e.ok()) return e.status();
    results.push_back(*e);
    if (AtPunct(")")) {
      Advance();
      return results;
    }
    XI_RETURN_IF_ERROR(Expect(","));
  }
}

absl::StatusOr<Interval> MapParser::ParseInterval() {
  XI_RETURN_IF_ERROR(Expect("["));
  auto lo = ParseInteger();
  if (!lo.ok()) return lo.status();
  XI_RETURN_IF_ERROR(Expect(","));
  auto hi = ParseInteger();
  if (!hi.ok()) return hi.status();
  XI_RETURN_IF_ERROR(Expect("]"));
  return Interval{*lo, *hi};
}

absl::StatusOr<AffineMap> MapParser::ParseBareAffineMap() {
  std::vector<std::string> dims, symbols, runtime;
  XI_RETURN_IF_ERROR(ParseHeader(dims, symbols, runtime));
  XI_RETURN_IF_ERROR(Expect("->"));
  auto results = ParseResults();
  if (!results.ok()) return results.status();
  return AffineMap::get(dims.size(), symbols.size() + runtime.size(), *results,
                        ctx_);
}

absl::StatusOr<AffineExpr> MapParser::ParseStandaloneExpr(
    const std::vector<std::string>& dims,
    const std::vector<std::string>& symbols) {
  names_.clear();
  for (size_t i = 0; i < dims.size(); ++i) names_[dims[i]] = {true, (int)i};
  for (size_t i = 0; i < symbols.size(); ++i) {
    names_[symbols[i]] = {false, (int)i};
  }
  auto e = ParseExpression();
  if (!e.ok()) return e;
  if (tok_.kind != TokenKind::kEnd) return ErrorHere("expected end of input");
  return e;
}

absl::StatusOr<IndexingMap> MapParser::ParseMap() {
  if (std::optional<absl::StatusOr<IndexingMap>> special = ParseSpecialMap()) {
    return *std::move(special);
  }
  Header header;
  XI_RETURN_IF_ERROR(ParseHeader(header.dims, header.symbols, header.runtime));
  XI_RETURN_IF_ERROR(Expect("->"));
  XI_ASSIGN_OR_RETURN(std::vector<AffineExpr> results, ParseResults());
  Domain domain(header.num_dims(), header.num_symbols(), header.symbols.size());
  if (AtPunct(",")) Advance();
  if (AtWord("domain")) {
    Advance();
    XI_RETURN_IF_ERROR(Expect(":"));
    while (tok_.kind != TokenKind::kEnd) {
      if (AtPunct(",")) {
        Advance();
        continue;
      }
      XI_RETURN_IF_ERROR(ParseDomainEntry(header.num_dims(), domain));
    }
  } else if (tok_.kind != TokenKind::kEnd) {
    return ErrorHere("expected 'domain:' or end of input");
  }
  return BuildMap(header, results, std::move(domain));
}

std::optional<absl::StatusOr<IndexingMap>> MapParser::ParseSpecialMap() {
  if (AtWord("UNDEFINED")) {
    Advance();
    if (tok_.kind != TokenKind::kEnd) return ErrorHere("expected end of input");
    return IndexingMap::Undefined();
  }
  if (AtWord("KNOWN")) {
    Advance();
    if (!AtWord("EMPTY")) return ErrorHere("expected 'EMPTY'");
    Advance();
    if (tok_.kind != TokenKind::kEnd) return ErrorHere("expected end of input");
    return IndexingMap::KnownEmpty(ctx_);
  }
  if (AtWord("KNOWN_EMPTY")) {
    Advance();
    if (tok_.kind != TokenKind::kEnd) return ErrorHere("expected end of input");
    return IndexingMap::KnownEmpty(ctx_);
  }
  return std::nullopt;
}

// "x in [lo, hi]": a bound when x is a lone variable (then, for a runtime
// variable, "hlo: TEXT" and its access map), else a constraint.
absl::Status MapParser::ParseDomainEntry(int num_dims, Domain& domain) {
  size_t entry_offset = tok_.offset;
  std::optional<Variable> lone;
  if (tok_.kind == TokenKind::kIdentifier) {
    auto it = names_.find(std::string(tok_.text));
    if (it != names_.end()) {
      // Peek: the variable is lone if "in" follows.
      size_t save_pos = pos_;
      Token save_tok = tok_;
      Advance();
      if (AtWord("in")) lone = it->second;
      pos_ = save_pos;
      tok_ = save_tok;
    }
  }
  XI_ASSIGN_OR_RETURN(AffineExpr expr, ParseExpression());
  if (!AtWord("in")) return ErrorHere("expected 'in'");
  Advance();
  XI_ASSIGN_OR_RETURN(Interval interval, ParseInterval());
  if (!lone) {
    domain.constraints.push_back({expr, interval});
    return absl::OkStatus();
  }
  int slot = lone->is_dim ? lone->index : num_dims + lone->index;
  if (domain.bounds[slot]) {
    return Error(entry_offset, "variable bounded twice");
  }
  domain.bounds[slot] = interval;
  if (lone->is_dim || !AtWord("hlo")) return absl::OkStatus();
  return ParseRuntimeVariable(lone->index, domain);
}

// After "s in [lo, hi]": "hlo: TEXT" (the raw rest of the line), then
// optionally the access map, which names its own dims.
absl::Status MapParser::ParseRuntimeVariable(int symbol, Domain& domain) {
  Advance();
  if (!AtPunct(":")) return ErrorHere("expected ':' after 'hlo'");
  size_t line_end = text_.find('\n', tok_.offset);
  if (line_end == absl::string_view::npos) line_end = text_.size();
  std::string hlo(absl::StripAsciiWhitespace(
      text_.substr(tok_.offset + 1, line_end - tok_.offset - 1)));
  pos_ = line_end;
  Advance();
  domain.is_runtime[symbol] = true;
  domain.runtime[symbol].hlo_text = hlo == "NULL" ? "" : hlo;
  if (AtPunct("(")) {
    absl::flat_hash_map<std::string, Variable> saved = names_;
    absl::StatusOr<AffineMap> access = ParseBareAffineMap();
    names_ = std::move(saved);
    XI_RETURN_IF_ERROR(access.status());
    domain.runtime[symbol].access = *access;
  }
  return absl::OkStatus();
}

// Every variable needs a bound; symbols are renumbered range variables
// first, then runtime variables, each in the order given.
absl::StatusOr<IndexingMap> MapParser::BuildMap(
    const Header& header, const std::vector<AffineExpr>& results,
    Domain domain) {
  const int num_dims = header.num_dims();
  const int num_symbols = header.num_symbols();
  for (int i = 0; i < num_dims + num_symbols; ++i) {
    if (!domain.bounds[i]) {
      return Error(text_.size(),
                   absl::StrCat("no bounds for '", header.Name(i), "'"));
    }
  }
  std::vector<int> order;
  for (int i = 0; i < num_symbols; ++i) {
    if (!domain.is_runtime[i]) order.push_back(i);
  }
  for (int i = 0; i < num_symbols; ++i) {
    if (domain.is_runtime[i]) order.push_back(i);
  }
  llvm::SmallVector<AffineExpr> dim_ids, sym_replacements(num_symbols);
  for (int i = 0; i < num_dims; ++i) {
    dim_ids.push_back(mlir::getAffineDimExpr(i, ctx_));
  }
  for (int new_pos = 0; new_pos < num_symbols; ++new_pos) {
    sym_replacements[order[new_pos]] = mlir::getAffineSymbolExpr(new_pos, ctx_);
  }
  auto remap = [&](AffineExpr e) {
    return e.replaceDimsAndSymbols(dim_ids, sym_replacements);
  };
  std::vector<AffineExpr> remapped;
  for (AffineExpr e : results) remapped.push_back(remap(e));
  std::vector<Interval> dim_bounds, range_bounds;
  std::vector<RuntimeVar> runtime_vars;
  for (int i = 0; i < num_dims; ++i) dim_bounds.push_back(*domain.bounds[i]);
  for (int i : order) {
    if (!domain.is_runtime[i]) {
      range_bounds.push_back(*domain.bounds[num_dims + i]);
      continue;
    }
    RuntimeVar rt = domain.runtime[i];
    rt.feasible_values = *domain.bounds[num_dims + i];
    if (!rt.access) {
      rt.access = AffineMap::get(num_dims, 0, {}, ctx_);
    } else if (static_cast<int>(rt.access.getNumDims()) != num_dims) {
      return Error(text_.size(),
                   absl::StrCat("access map of '", header.Name(num_dims + i),
                                "' must have ", num_dims, " dims"));
    }
    runtime_vars.push_back(std::move(rt));
  }
  for (IndexingConstraint& c : domain.constraints) c.expr = remap(c.expr);
  return IndexingMap(AffineMap::get(num_dims, num_symbols, remapped, ctx_),
                     std::move(dim_bounds), std::move(range_bounds),
                     std::move(runtime_vars), std::move(domain.constraints));
}

}  // namespace

absl::StatusOr<IndexingMap> ParseIndexingMap(absl::string_view text,
                                             mlir::MLIRContext* context) {
  MapParser parser(text, context);
  return parser.ParseMap();
}

}  // namespace xla_index::baseline
