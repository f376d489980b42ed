#include "sparse/encoding_parser.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "xla_index/core/checked_affine_expr.h"

namespace xla_index::sparse {
namespace {

enum class TokenKind {
  kIdentifier,  // letters, digits, '_', '.', '$' (e.g. sparse_tensor.encoding)
  kInteger,
  kPunct,  // one of # < > { } ( ) [ ] , : = + - * ? or the arrow "->"
  // The raw text of an explicitVal / implicitVal value, for MLIR's
  // attribute parser: up to the next ',' or '}' outside brackets.
  kValue,
  kEnd,
};

struct Token {
  TokenKind kind;
  std::string text;
  int line;
  int column;
};

std::string Where(const Token& token) {
  return absl::StrCat(token.line, ":", token.column);
}

std::string Describe(const Token& token) {
  if (token.kind == TokenKind::kEnd) return "end of input";
  return absl::StrCat("'", token.text, "'");
}

bool IsStoredValueKey(absl::string_view word) {
  return word == "explicitVal" || word == "implicitVal";
}

// The length of the stored value starting at `begin`: up to the first ',',
// '}' or unmatched closing bracket outside <...>, (...), [...] and quotes
// (a complex value `#complex.number<:f32 1.0, 0.0>` holds a ','), without
// trailing spaces.
size_t StoredValueLength(absl::string_view text, size_t begin) {
  int depth = 0;
  bool quoted = false;
  size_t end = begin;
  for (; end < text.size(); ++end) {
    const char c = text[end];
    if (quoted) {
      if (c == '\\') {
        ++end;
      } else if (c == '"') {
        quoted = false;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
    } else if (c == '<' || c == '(' || c == '[') {
      ++depth;
    } else if (c == '>' || c == ')' || c == ']') {
      if (depth == 0) break;
      --depth;
    } else if (depth == 0 && (c == ',' || c == '}')) {
      break;
    }
  }
  end = std::min(end, text.size());
  while (end > begin &&
         std::isspace(static_cast<unsigned char>(text[end - 1]))) {
    --end;
  }
  return end - begin;
}

absl::StatusOr<std::vector<Token>> Tokenize(absl::string_view text) {
  std::vector<Token> tokens;
  int line = 1;
  int column = 1;
  size_t i = 0;
  auto advance = [&](size_t count) {
    for (size_t k = 0; k < count; ++k) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
      ++i;
    }
  };
  while (i < text.size()) {
    char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      advance(1);
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') advance(1);
      continue;
    }
    Token token{TokenKind::kPunct, "", line, column};
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t end = i;
      while (end < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[end])) ||
              text[end] == '_' || text[end] == '.' || text[end] == '$')) {
        ++end;
      }
      token.kind = TokenKind::kIdentifier;
      token.text = std::string(text.substr(i, end - i));
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t end = i;
      while (end < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[end]))) {
        ++end;
      }
      token.kind = TokenKind::kInteger;
      token.text = std::string(text.substr(i, end - i));
    } else if (c == '#' &&
               (i + 1 == text.size() ||
                !(std::isalpha(static_cast<unsigned char>(text[i + 1])) ||
                  text[i + 1] == '_'))) {
      // As in MLIR's lexer, '#' and the attribute name are one word.
      return absl::InvalidArgumentError(
          absl::StrCat(line, ":", column,
                       ": expected an attribute or alias name right after "
                       "'#'"));
    } else if (c == '-' && i + 1 < text.size() && text[i + 1] == '>') {
      token.text = "->";
    } else if (absl::string_view("#<>{}()[],:=+-*?").find(c) !=
               absl::string_view::npos) {
      token.text = std::string(1, c);
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          line, ":", column, ": unexpected character '",
          std::isprint(static_cast<unsigned char>(c))
              ? std::string(1, c)
              : absl::StrCat("\\x", absl::Hex(static_cast<unsigned char>(c))),
          "'"));
    }
    advance(token.text.size());
    const bool value_follows =
        token.kind == TokenKind::kIdentifier && IsStoredValueKey(token.text);
    tokens.push_back(std::move(token));
    if (!value_follows) continue;
    // `explicitVal = VALUE`: MLIR's attribute syntax (floats, hex, complex
    // numbers, typed literals) is left to MLIR's attribute parser.
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
      advance(1);
    if (i >= text.size() || text[i] != '=') continue;
    tokens.push_back({TokenKind::kPunct, "=", line, column});
    advance(1);
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
      advance(1);
    const size_t length = StoredValueLength(text, i);
    if (length == 0) continue;
    tokens.push_back(
        {TokenKind::kValue, std::string(text.substr(i, length)), line, column});
    advance(length);
  }
  tokens.push_back({TokenKind::kEnd, "", line, column});
  return tokens;
}

/// Which variables an affine expression may name: identifier -> expression.
using Scope = absl::flat_hash_map<std::string, mlir::AffineExpr>;

class EncodingParser {
 public:
  EncodingParser(std::vector<Token> tokens, mlir::MLIRContext* context)
      : tokens_(std::move(tokens)), context_(context) {}

  absl::StatusOr<SparseEncoding> Parse();

 private:
  const Token& Peek(int ahead = 0) const {
    size_t index = std::min(pos_ + ahead, tokens_.size() - 1);
    return tokens_[index];
  }
  const Token& Next() {
    const Token& token = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return token;
  }
  bool IsPunct(absl::string_view text, int ahead = 0) const {
    return Peek(ahead).kind == TokenKind::kPunct && Peek(ahead).text == text;
  }
  bool IsIdentifier(absl::string_view text) const {
    return Peek().kind == TokenKind::kIdentifier && Peek().text == text;
  }
  bool ConsumePunct(absl::string_view text) {
    if (!IsPunct(text)) return false;
    Next();
    return true;
  }
  absl::Status Error(const Token& token, absl::string_view message) const {
    return absl::InvalidArgumentError(
        absl::StrCat(Where(token), ": ", message));
  }
  // `built`, or its error at `op`: MLIR's own operators fold constants with
  // int64 wrap-around (i * 2^62 * 4 would become i * 0); the checked ones
  // refuse an expression they cannot build exactly.
  absl::StatusOr<mlir::AffineExpr> Exact(
      const Token& op, absl::StatusOr<mlir::AffineExpr> built) const {
    if (built.ok()) return built;
    return Error(op, absl::StrCat("the expression cannot be represented "
                                  "exactly: ",
                                  built.status().message()));
  }
  absl::Status ExpectPunct(absl::string_view text, absl::string_view context) {
    if (ConsumePunct(text)) return absl::OkStatus();
    return Error(Peek(), absl::StrCat("expected '", text, "' ", context,
                                      ", found ", Describe(Peek())));
  }
  absl::StatusOr<Token> ExpectIdentifier(absl::string_view what) {
    if (Peek().kind != TokenKind::kIdentifier) {
      return Error(Peek(), absl::StrCat("expected ", what, ", found ",
                                        Describe(Peek())));
    }
    return Next();
  }
  absl::StatusOr<int64_t> ParseInteger(absl::string_view what);
  absl::Status ParseFields(SparseEncoding& encoding);
  absl::Status ParseField(const Token& key, SparseEncoding& encoding);
  absl::StatusOr<mlir::Attribute> ParseStoredValue(const Token& key);
  void TranslateLegacyCrdWidth(SparseEncoding& encoding) const;
  void AddMeaninglessValueNotes(SparseEncoding& encoding) const;
  absl::StatusOr<std::optional<int64_t>> ParseSliceValue();

  // Names a new variable, rejecting a name already used in this map.
  absl::Status DeclareName(const Token& token, absl::string_view kind);

  absl::Status ParseMap(SparseEncoding& encoding);
  absl::Status ParseSymbols();
  absl::Status ParseLevelDeclarations();
  absl::Status ParseDimensions(SparseEncoding& encoding);
  absl::Status ParseLevels(SparseEncoding& encoding);
  absl::StatusOr<LevelType> ParseLevelType(SparseEncoding& encoding);
  absl::StatusOr<DimSlice> ParseSlice();

  // Affine expressions, with MLIR's precedence: '+'/'-' < '*', 'floordiv',
  // 'ceildiv', 'mod' < unary '-' < atoms; all binary operators are left
  // associative.
  /// One whole expression (a level expression, a dimension binding):
  /// ParseExpr with the operator budget reset.
  absl::StatusOr<mlir::AffineExpr> ParseExpression(const Scope& scope);
  absl::StatusOr<mlir::AffineExpr> ParseExpr(const Scope& scope);
  /// Counts the binary operator `op` against kMaxOperators.
  absl::Status CountOperator(const Token& op);
  absl::StatusOr<mlir::AffineExpr> ParseTerm(const Scope& scope);
  absl::StatusOr<mlir::AffineExpr> ParseUnary(const Scope& scope);
  absl::StatusOr<mlir::AffineExpr> ParseUnaryNested(const Scope& scope);
  absl::StatusOr<mlir::AffineExpr> ParseAtom(const Scope& scope);

  static constexpr int kMaxNesting = 256;
  int depth_ = 0;
  // Binary operators in the current expression. A chain `i floordiv 2 +
  // i floordiv 3 + ...` is a tree as deep as it is long, and MLIR's
  // expression builders and printer recurse into it: 100,000 terms (1.9
  // MB of text) overflowed the stack, and each '+' costs the length of the
  // sum so far. The same bound as the indexing-map text parser's.
  static constexpr int kMaxOperators = 1024;
  int operators_ = 0;

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  mlir::MLIRContext* context_;

  // Variables of the map being parsed.
  std::vector<std::string> symbol_names_;
  std::vector<Token> declared_levels_;  // `{l0, l1}` forward declarations.
  absl::flat_hash_set<std::string> used_names_;
  Scope dim_scope_;    // dims + symbols (for level expressions)
  Scope level_scope_;  // declared levels + symbols (for dim bindings)
  std::vector<std::optional<mlir::AffineExpr>> dim_bindings_;
  std::vector<Token> dim_tokens_;

  // Where the last posWidth / crdWidth value was written.
  Token pos_width_token_{}, crd_width_token_{};
  bool has_map_ = false;
};

absl::StatusOr<int64_t> EncodingParser::ParseInteger(absl::string_view what) {
  const Token& token = Peek();
  if (token.kind != TokenKind::kInteger) {
    return Error(token,
                 absl::StrCat("expected ", what, ", found ", Describe(token)));
  }
  int64_t value;
  if (!absl::SimpleAtoi(token.text, &value)) {
    return Error(
        token, absl::StrCat(what, " ", token.text, " does not fit in 64 bits"));
  }
  Next();
  return value;
}

absl::Status EncodingParser::DeclareName(const Token& token,
                                         absl::string_view kind) {
  if (token.text == "floordiv" || token.text == "ceildiv" ||
      token.text == "mod") {
    return Error(token, absl::StrCat("'", token.text,
                                     "' is a keyword and cannot name a ", kind,
                                     " variable"));
  }
  if (!used_names_.insert(token.text).second) {
    return Error(token, absl::StrCat("redefinition of variable '", token.text,
                                     "' (as a ", kind, " variable)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<SparseEncoding> EncodingParser::Parse() {
  // Optional alias: `#NAME =`.
  if (IsPunct("#") && Peek(1).kind == TokenKind::kIdentifier &&
      Peek(1).text != "sparse_tensor.encoding" &&
      Peek(2).kind == TokenKind::kPunct && Peek(2).text == "=") {
    Next();
    Next();
    Next();
  }
  if (!IsPunct("#") || Peek(1).kind != TokenKind::kIdentifier ||
      Peek(1).text != "sparse_tensor.encoding") {
    return Error(Peek(), absl::StrCat("expected '#sparse_tensor.encoding', "
                                      "found ",
                                      Describe(Peek())));
  }
  Next();
  const Token name = Next();
  // As MLIR's lexer, the '<' of a dialect attribute's body follows its name
  // with no space: `#sparse_tensor.encoding <{` is the bare attribute
  // followed by junk.
  if (IsPunct("<") &&
      (Peek().line != name.line ||
       Peek().column != name.column + static_cast<int>(name.text.size()))) {
    return Error(Peek(),
                 "unexpected space before the '<' of "
                 "'#sparse_tensor.encoding<' (MLIR reads the "
                 "attribute name and the '<' as one word)");
  }
  XI_RETURN_IF_ERROR(ExpectPunct("<", "after '#sparse_tensor.encoding'"));
  XI_RETURN_IF_ERROR(ExpectPunct("{", "to open the encoding's fields"));
  SparseEncoding encoding;
  XI_RETURN_IF_ERROR(ParseFields(encoding));
  XI_RETURN_IF_ERROR(ExpectPunct("}", "to close the encoding's fields"));
  XI_RETURN_IF_ERROR(ExpectPunct(">", "to close '#sparse_tensor.encoding<'"));
  if (Peek().kind != TokenKind::kEnd) {
    return Error(Peek(), absl::StrCat("unexpected ", Describe(Peek()),
                                      " after the encoding"));
  }
  if (!has_map_) {
    return Error(Peek(), "expected a 'map' field (the dim-to-level map)");
  }
  TranslateLegacyCrdWidth(encoding);
  AddMeaninglessValueNotes(encoding);
  return encoding;
}

// Legacy sub-byte coordinate width (the 2:4 example of MLIR's SparseTensor
// dialect documentation, "crdWidth = 2"): stored at 8 bits when every level
// with coordinates is structured[n, m] with m <= 2^width.
void EncodingParser::TranslateLegacyCrdWidth(SparseEncoding& encoding) const {
  if (encoding.crd_width == 1 || encoding.crd_width == 2 ||
      encoding.crd_width == 4) {
    bool all_fit = true;
    bool any_coordinates = false;
    for (const LevelType& type : encoding.level_types) {
      if (!type.HasCoordinates()) continue;
      any_coordinates = true;
      if (type.format != LevelFormat::kStructured ||
          type.m > (int64_t{1} << encoding.crd_width)) {
        all_fit = false;
      }
    }
    if (any_coordinates && all_fit) {
      encoding.notes.push_back(absl::StrCat(
          Where(crd_width_token_), ": crdWidth = ", encoding.crd_width,
          " is the old sub-byte spelling for n:m coordinates; stored as "
          "crdWidth = 8"));
      encoding.crd_width = 8;
    }
  }
}

// What MLIR accepts in an encoding but cannot mean anything, said in the
// notes: structured[0, m] stores no entry of a block, structured[m, m] is a
// dense level spelled as n:m, and a nonzero implicitVal is refused by MLIR
// on every tensor type that uses the encoding ("implicit value must be
// zero"): the implicit entries of a sparse tensor are its zeros.
void EncodingParser::AddMeaninglessValueNotes(SparseEncoding& encoding) const {
  for (size_t l = 0; l < encoding.level_types.size(); ++l) {
    const LevelType& type = encoding.level_types[l];
    if (type.format != LevelFormat::kStructured) continue;
    const std::string name =
        absl::StrCat("level ", l, " (", type.ToString(), ")");
    if (type.n == 0) {
      encoding.notes.push_back(absl::StrCat(
          name,
          ": n = 0 stores no entry of a block; MLIR accepts it, but "
          "every value would be dropped"));
    } else if (type.n == type.m) {
      encoding.notes.push_back(absl::StrCat(
          name,
          ": n = m stores every entry of a block; MLIR accepts it, but "
          "it is a dense level spelled as n:m"));
    }
  }
  if (encoding.implicit_val && !IsZeroValue(encoding.implicit_val)) {
    encoding.notes.push_back(absl::StrCat(
        "implicitVal = ", AttributeToString(encoding.implicit_val),
        " is not zero: MLIR accepts it in the encoding but rejects every "
        "tensor type using it (implicit value must be zero)"));
  }
}

// The fields between '{' and '}'. As MLIR's parser, a repeated posWidth,
// crdWidth, explicitVal or implicitVal keeps its last value (only the last
// is verified); a repeated map is refused (MLIR appends the second map's
// level types and then fails on the level-rank mismatch).
absl::Status EncodingParser::ParseFields(SparseEncoding& encoding) {
  if (IsPunct("}")) return absl::OkStatus();
  while (true) {
    XI_ASSIGN_OR_RETURN(Token key, ExpectIdentifier("a field name"));
    XI_RETURN_IF_ERROR(
        ExpectPunct("=", absl::StrCat("after '", key.text, "'")));
    XI_RETURN_IF_ERROR(ParseField(key, encoding));
    // A trailing comma before '}' is accepted, as MLIR does.
    if (ConsumePunct(",") && !IsPunct("}")) continue;
    return absl::OkStatus();
  }
}

absl::Status EncodingParser::ParseField(const Token& key,
                                        SparseEncoding& encoding) {
  if (key.text == "map") {
    if (has_map_) {
      return Error(key, "duplicate field 'map'");
    }
    has_map_ = true;
    return ParseMap(encoding);
  }
  if (key.text == "posWidth" || key.text == "crdWidth") {
    Token value_token = Peek();
    XI_ASSIGN_OR_RETURN(int64_t width,
                        ParseInteger(absl::StrCat(key.text, " value")));
    if (key.text == "posWidth") {
      encoding.pos_width = width;
      pos_width_token_ = value_token;
    } else {
      encoding.crd_width = width;
      crd_width_token_ = value_token;
    }
    return absl::OkStatus();
  }
  if (IsStoredValueKey(key.text)) {
    XI_ASSIGN_OR_RETURN(mlir::Attribute value, ParseStoredValue(key));
    (key.text == "explicitVal" ? encoding.explicit_val
                               : encoding.implicit_val) = value;
    return absl::OkStatus();
  }
  return Error(key, absl::StrCat("unexpected key: '", key.text,
                                 "' (expected map, posWidth, crdWidth, "
                                 "explicitVal or implicitVal)"));
}

// MLIR's own attribute parser reads the value, so every literal MLIR
// accepts (1, 2.5, 0x7FC00000 : f32, true, #complex.number<...>) parses,
// types and later prints exactly as mlir-opt does; it must be numeric.
absl::StatusOr<mlir::Attribute> EncodingParser::ParseStoredValue(
    const Token& key) {
  if (Peek().kind != TokenKind::kValue) {
    return Error(Peek(), absl::StrCat("expected a value for ", key.text,
                                      ", found ", Describe(Peek())));
  }
  const Token value = Next();
  context_->getOrLoadDialect<mlir::complex::ComplexDialect>();
  std::string message;
  mlir::ScopedDiagnosticHandler handler(
      context_, [&message](mlir::Diagnostic& diagnostic) {
        if (message.empty()) message = diagnostic.str();
        return mlir::success();
      });
  size_t read = 0;
  mlir::Attribute attribute =
      mlir::parseAttribute(value.text, context_, mlir::Type(), &read);
  if (!attribute) {
    return Error(
        value, absl::StrCat(key.text, " value '", value.text, "': ", message));
  }
  if (read < value.text.size()) {
    Token rest = value;
    rest.column += read;
    return Error(rest, absl::StrCat("unexpected '", value.text.substr(read),
                                    "' after the ", key.text,
                                    " value; expected ',' or '}'"));
  }
  if (!llvm::isa<mlir::IntegerAttr, mlir::FloatAttr, mlir::complex::NumberAttr>(
          attribute)) {
    return Error(value,
                 absl::StrCat("expected a numeric value for ", key.text));
  }
  return attribute;
}

absl::Status EncodingParser::ParseSymbols() {
  // '[' already seen.
  Next();
  if (ConsumePunct("]")) return absl::OkStatus();
  while (true) {
    XI_ASSIGN_OR_RETURN(Token name, ExpectIdentifier("a symbol name"));
    XI_RETURN_IF_ERROR(DeclareName(name, "symbol"));
    mlir::AffineExpr symbol =
        mlir::getAffineSymbolExpr(symbol_names_.size(), context_);
    symbol_names_.push_back(name.text);
    dim_scope_[name.text] = symbol;
    level_scope_[name.text] = symbol;
    if (ConsumePunct(",")) continue;
    return ExpectPunct("]", "to close the symbol list");
  }
}

absl::Status EncodingParser::ParseLevelDeclarations() {
  // '{' already seen.
  const Token open = Next();
  if (IsPunct("}")) {
    return Error(open, "expected at least one level variable in '{...}'");
  }
  while (true) {
    XI_ASSIGN_OR_RETURN(Token name, ExpectIdentifier("a level variable name"));
    XI_RETURN_IF_ERROR(DeclareName(name, "level"));
    level_scope_[name.text] =
        mlir::getAffineDimExpr(declared_levels_.size(), context_);
    declared_levels_.push_back(name);
    if (ConsumePunct(",")) continue;
    return ExpectPunct("}", "to close the level variable declarations");
  }
}

absl::StatusOr<std::optional<int64_t>> EncodingParser::ParseSliceValue() {
  if (ConsumePunct("?")) return std::optional<int64_t>();
  bool negative = ConsumePunct("-");
  XI_ASSIGN_OR_RETURN(int64_t value, ParseInteger("a slice value or '?'"));
  return std::optional<int64_t>(negative ? -value : value);
}

absl::StatusOr<DimSlice> EncodingParser::ParseSlice() {
  if (!IsPunct("#") || Peek(1).text != "sparse_tensor") {
    return Error(Peek(), absl::StrCat("expected a dimension slice "
                                      "'#sparse_tensor<slice(...)>', found ",
                                      Describe(Peek())));
  }
  Next();
  Next();
  XI_RETURN_IF_ERROR(ExpectPunct("<", "after '#sparse_tensor'"));
  if (!IsIdentifier("slice")) {
    return Error(Peek(),
                 absl::StrCat("expected 'slice', found ", Describe(Peek())));
  }
  Next();
  XI_RETURN_IF_ERROR(ExpectPunct("(", "after 'slice'"));
  DimSlice slice;
  std::optional<int64_t>* fields[] = {&slice.offset, &slice.size,
                                      &slice.stride};
  for (int k = 0; k < 3; ++k) {
    if (k > 0) {
      XI_RETURN_IF_ERROR(
          ExpectPunct(",", "between slice offset, size and stride"));
    }
    XI_ASSIGN_OR_RETURN(std::optional<int64_t> value, ParseSliceValue());
    *fields[k] = value;
  }
  XI_RETURN_IF_ERROR(ExpectPunct(")", "after the slice's stride"));
  XI_RETURN_IF_ERROR(ExpectPunct(">", "to close '#sparse_tensor<'"));
  return slice;
}

absl::Status EncodingParser::ParseDimensions(SparseEncoding& encoding) {
  XI_RETURN_IF_ERROR(ExpectPunct("(", "to open the dimension list"));
  bool any_slice = false;
  std::vector<std::optional<DimSlice>> slices;
  const Token open = Peek();
  if (IsPunct(")")) {
    return Error(open, "expected at least one dimension variable");
  }
  while (true) {
    XI_ASSIGN_OR_RETURN(Token name,
                        ExpectIdentifier("a dimension variable name"));
    XI_RETURN_IF_ERROR(DeclareName(name, "dimension"));
    dim_scope_[name.text] =
        mlir::getAffineDimExpr(dim_tokens_.size(), context_);
    dim_tokens_.push_back(name);
    std::optional<mlir::AffineExpr> binding;
    if (ConsumePunct("=")) {
      if (declared_levels_.empty()) {
        return Error(name,
                     absl::StrCat("dimension '", name.text,
                                  "' has a binding but no level variables "
                                  "were declared with '{l0, ...}'"));
      }
      XI_ASSIGN_OR_RETURN(mlir::AffineExpr expr, ParseExpression(level_scope_));
      binding = expr;
    }
    dim_bindings_.push_back(binding);
    std::optional<DimSlice> slice;
    if (ConsumePunct(":")) {
      XI_ASSIGN_OR_RETURN(DimSlice parsed, ParseSlice());
      slice = parsed;
      any_slice = true;
    }
    slices.push_back(slice);
    if (ConsumePunct(",")) continue;
    break;
  }
  XI_RETURN_IF_ERROR(ExpectPunct(")", "to close the dimension list"));
  if (any_slice) {
    for (size_t d = 0; d < slices.size(); ++d) {
      if (!slices[d].has_value()) {
        return Error(dim_tokens_[d],
                     absl::StrCat("dimension '", dim_tokens_[d].text,
                                  "' has no slice but others do: slices go "
                                  "on every dimension or none"));
      }
      encoding.dim_slices.push_back(*slices[d]);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<LevelType> EncodingParser::ParseLevelType(
    SparseEncoding& encoding) {
  XI_ASSIGN_OR_RETURN(Token name, ExpectIdentifier("a level type"));
  LevelType type;
  const std::string& word = name.text;
  int64_t legacy_n = 0, legacy_m = 0;
  if (word == "dense") {
    type.format = LevelFormat::kDense;
  } else if (word == "batch") {
    type.format = LevelFormat::kBatch;
  } else if (word == "compressed") {
    type.format = LevelFormat::kCompressed;
  } else if (word == "loose_compressed") {
    type.format = LevelFormat::kLooseCompressed;
  } else if (word == "singleton") {
    type.format = LevelFormat::kSingleton;
  } else if (word == "structured") {
    type.format = LevelFormat::kStructured;
  } else if (word.size() > 5 && word.substr(0, 5) == "block" &&
             word.find('_') != std::string::npos &&
             absl::SimpleAtoi(word.substr(5, word.find('_') - 5), &legacy_n) &&
             absl::SimpleAtoi(word.substr(word.find('_') + 1), &legacy_m)) {
    type = LevelType::Structured(legacy_n, legacy_m);
    encoding.notes.push_back(absl::StrCat(Where(name), ": `", word,
                                          "` is the old spelling of `",
                                          type.ToString(), "`"));
  } else {
    return Error(name, absl::StrCat("unknown level format '", word,
                                    "' (expected dense, batch, compressed, "
                                    "loose_compressed, singleton or "
                                    "structured[n, m])"));
  }
  if (type.format == LevelFormat::kStructured && word == "structured") {
    XI_RETURN_IF_ERROR(
        ExpectPunct("[", "after 'structured' (structured[n, m])"));
    XI_ASSIGN_OR_RETURN(int64_t n, ParseInteger("n of structured[n, m]"));
    XI_RETURN_IF_ERROR(ExpectPunct(",", "between n and m of structured[n, m]"));
    XI_ASSIGN_OR_RETURN(int64_t m, ParseInteger("m of structured[n, m]"));
    XI_RETURN_IF_ERROR(ExpectPunct("]", "to close structured[n, m]"));
    type.n = n;
    type.m = m;
  }
  if (ConsumePunct("(")) {
    while (true) {
      XI_ASSIGN_OR_RETURN(Token property, ExpectIdentifier("a level property"));
      const std::string& p = property.text;
      bool* flag = nullptr;
      if (p == "nonunique") {
        flag = &type.nonunique;
      } else if (p == "nonordered") {
        flag = &type.nonordered;
      } else if (p == "soa") {
        flag = &type.soa;
      } else if (p == "high" && type.format == LevelFormat::kCompressed) {
        type.format = LevelFormat::kLooseCompressed;
        encoding.notes.push_back(absl::StrCat(
            Where(property),
            ": the `high` property is the old spelling of loose_compressed "
            "(compressed with (lo, hi) position pairs)"));
      } else {
        return Error(property,
                     absl::StrCat("unknown level property '", p,
                                  "' (expected nonunique, nonordered or soa)"));
      }
      if (flag != nullptr) {
        if (*flag) {
          return Error(property,
                       absl::StrCat("duplicate level property '", p, "'"));
        }
        *flag = true;
      }
      if (ConsumePunct(",")) continue;
      break;
    }
    XI_RETURN_IF_ERROR(ExpectPunct(")", "to close the level properties"));
  }
  // Dense-like and n:m levels are always unique and ordered (MLIR encodes
  // no property bits for them).
  if ((type.IsDenseLike() || type.format == LevelFormat::kStructured) &&
      (type.nonunique || type.nonordered || type.soa)) {
    return Error(name,
                 absl::StrCat("level format '", LevelFormatName(type.format),
                              "' takes no properties (it is always "
                              "unique and ordered)"));
  }
  return type;
}

absl::Status EncodingParser::ParseLevels(SparseEncoding& encoding) {
  XI_RETURN_IF_ERROR(ExpectPunct("(", "to open the level list"));
  std::vector<mlir::AffineExpr> level_exprs;
  if (IsPunct(")")) {
    return Error(Peek(), "expected at least one level");
  }
  while (true) {
    const Token start = Peek();
    size_t level = level_exprs.size();
    // Optional `l =` binding: an identifier followed by '='.
    if (Peek().kind == TokenKind::kIdentifier && IsPunct("=", 1)) {
      Token name = Next();
      Next();
      if (!declared_levels_.empty()) {
        if (level >= declared_levels_.size()) {
          return Error(name,
                       absl::StrCat("level ", level,
                                    " has no declared level variable "
                                    "(only ",
                                    declared_levels_.size(), " in '{...}')"));
        }
        if (declared_levels_[level].text != name.text) {
          return Error(name,
                       absl::StrCat("level ", level, " binds '", name.text,
                                    "' but the declaration "
                                    "order requires '",
                                    declared_levels_[level].text, "'"));
        }
      } else {
        // As in MLIR, a level binding names a forward-declared variable.
        return Error(name,
                     absl::StrCat("use of undeclared identifier '", name.text,
                                  "': a level variable must be "
                                  "declared first, as in '{",
                                  name.text, ", ...} (...) -> (...)'"));
      }
    } else if (!declared_levels_.empty()) {
      return Error(start, absl::StrCat("level ", level,
                                       " must bind its declared variable: '",
                                       declared_levels_.size() > level
                                           ? declared_levels_[level].text
                                           : "?",
                                       " = ...'"));
    }
    XI_ASSIGN_OR_RETURN(mlir::AffineExpr expr, ParseExpression(dim_scope_));
    XI_RETURN_IF_ERROR(
        ExpectPunct(":", "between a level expression and its type"));
    XI_ASSIGN_OR_RETURN(LevelType type, ParseLevelType(encoding));
    level_exprs.push_back(expr);
    encoding.level_types.push_back(type);
    if (ConsumePunct(",")) continue;
    break;
  }
  XI_RETURN_IF_ERROR(ExpectPunct(")", "to close the level list"));
  if (!declared_levels_.empty() &&
      declared_levels_.size() != level_exprs.size()) {
    return Error(declared_levels_.back(),
                 absl::StrCat("level-rank mismatch: ", declared_levels_.size(),
                              " level variables declared but ",
                              level_exprs.size(), " levels given"));
  }
  encoding.dim_to_lvl = mlir::AffineMap::get(
      dim_tokens_.size(), symbol_names_.size(), level_exprs, context_);
  return absl::OkStatus();
}

absl::Status EncodingParser::ParseMap(SparseEncoding& encoding) {
  if (IsPunct("[")) {
    XI_RETURN_IF_ERROR(ParseSymbols());
  }
  if (IsPunct("{")) {
    XI_RETURN_IF_ERROR(ParseLevelDeclarations());
  }
  XI_RETURN_IF_ERROR(ParseDimensions(encoding));
  XI_RETURN_IF_ERROR(
      ExpectPunct("->", "between the dimensions and the levels"));
  XI_RETURN_IF_ERROR(ParseLevels(encoding));
  // Dimension bindings form the explicit lvl-to-dim map: all or none.
  size_t bound = 0;
  for (const auto& binding : dim_bindings_) bound += binding.has_value();
  if (bound != 0 && bound != dim_bindings_.size()) {
    for (size_t d = 0; d < dim_bindings_.size(); ++d) {
      if (!dim_bindings_[d].has_value()) {
        return Error(dim_tokens_[d],
                     absl::StrCat("dimension '", dim_tokens_[d].text,
                                  "' has no binding '", dim_tokens_[d].text,
                                  " = ...' while others do"));
      }
    }
  }
  if (bound != 0) {
    std::vector<mlir::AffineExpr> exprs;
    for (const auto& binding : dim_bindings_) exprs.push_back(*binding);
    encoding.lvl_to_dim = mlir::AffineMap::get(
        encoding.level_types.size(), symbol_names_.size(), exprs, context_);
  }
  return absl::OkStatus();
}

absl::StatusOr<mlir::AffineExpr> EncodingParser::ParseExpression(
    const Scope& scope) {
  operators_ = 0;
  return ParseExpr(scope);
}

absl::Status EncodingParser::CountOperator(const Token& op) {
  if (++operators_ > kMaxOperators) {
    return Error(op, absl::StrCat("expression has more than ", kMaxOperators,
                                  " operators"));
  }
  return absl::OkStatus();
}

absl::StatusOr<mlir::AffineExpr> EncodingParser::ParseExpr(const Scope& scope) {
  absl::StatusOr<mlir::AffineExpr> lhs = ParseTerm(scope);
  if (!lhs.ok()) return lhs;
  mlir::AffineExpr result = *lhs;
  while (IsPunct("+") || IsPunct("-")) {
    XI_RETURN_IF_ERROR(CountOperator(Peek()));
    const Token op = Next();
    absl::StatusOr<mlir::AffineExpr> rhs = ParseTerm(scope);
    if (!rhs.ok()) return rhs;
    XI_ASSIGN_OR_RETURN(
        result, Exact(op, op.text == "-" ? CheckedAffineSub(result, *rhs)
                                         : CheckedAffineAdd(result, *rhs)));
  }
  return result;
}

absl::StatusOr<mlir::AffineExpr> EncodingParser::ParseTerm(const Scope& scope) {
  absl::StatusOr<mlir::AffineExpr> lhs = ParseUnary(scope);
  if (!lhs.ok()) return lhs;
  mlir::AffineExpr result = *lhs;
  while (true) {
    const Token op = Peek();
    bool multiply = IsPunct("*");
    bool divide =
        op.kind == TokenKind::kIdentifier &&
        (op.text == "floordiv" || op.text == "ceildiv" || op.text == "mod");
    if (!multiply && !divide) return result;
    XI_RETURN_IF_ERROR(CountOperator(op));
    Next();
    absl::StatusOr<mlir::AffineExpr> rhs = ParseUnary(scope);
    if (!rhs.ok()) return rhs;
    // MLIR's affine parser rules: a product needs a constant or symbolic
    // factor, a divisor must be constant or symbolic.
    if (multiply) {
      if (!result.isSymbolicOrConstant() && !rhs->isSymbolicOrConstant()) {
        return Error(op,
                     "non-affine expression: at least one of the multiply "
                     "operands has to be either a constant or symbolic");
      }
      XI_ASSIGN_OR_RETURN(result, Exact(op, CheckedAffineMul(result, *rhs)));
      continue;
    }
    if (!rhs->isSymbolicOrConstant()) {
      return Error(
          op, absl::StrCat("non-affine expression: right operand of ", op.text,
                           " has to be either a constant or "
                           "symbolic"));
    }
    if (auto constant = llvm::dyn_cast<mlir::AffineConstantExpr>(*rhs);
        constant && constant.getValue() <= 0) {
      return Error(op, absl::StrCat(op.text, " by ", constant.getValue(),
                                    ": the divisor must be positive"));
    }
    const mlir::AffineExprKind kind =
        op.text == "floordiv"  ? mlir::AffineExprKind::FloorDiv
        : op.text == "ceildiv" ? mlir::AffineExprKind::CeilDiv
                               : mlir::AffineExprKind::Mod;
    XI_ASSIGN_OR_RETURN(result,
                        Exact(op, CheckedAffineBinaryOp(kind, result, *rhs)));
  }
}

absl::StatusOr<mlir::AffineExpr> EncodingParser::ParseUnary(
    const Scope& scope) {
  // Unary minus and parentheses recurse; bound the depth so that hostile
  // input is an error, not a stack overflow.
  if (depth_ >= kMaxNesting) {
    return Error(Peek(), absl::StrCat("expression nested deeper than ",
                                      kMaxNesting, " levels"));
  }
  ++depth_;
  absl::StatusOr<mlir::AffineExpr> result = ParseUnaryNested(scope);
  --depth_;
  return result;
}

absl::StatusOr<mlir::AffineExpr> EncodingParser::ParseUnaryNested(
    const Scope& scope) {
  if (IsPunct("-")) {
    const Token minus = Next();
    absl::StatusOr<mlir::AffineExpr> operand = ParseUnary(scope);
    if (!operand.ok()) return operand;
    return Exact(minus, CheckedAffineNeg(*operand));
  }
  return ParseAtom(scope);
}

absl::StatusOr<mlir::AffineExpr> EncodingParser::ParseAtom(const Scope& scope) {
  const Token token = Peek();
  if (token.kind == TokenKind::kInteger) {
    XI_ASSIGN_OR_RETURN(int64_t value, ParseInteger("an integer"));
    return mlir::getAffineConstantExpr(value, context_);
  }
  if (token.kind == TokenKind::kIdentifier) {
    Next();
    auto it = scope.find(token.text);
    if (it == scope.end()) {
      std::string hint;
      if (dim_scope_.contains(token.text)) {
        hint = " (a dimension cannot appear in a dimension binding)";
      } else if (level_scope_.contains(token.text) ||
                 used_names_.contains(token.text)) {
        hint = " (a level variable cannot appear in a level expression)";
      }
      return Error(token, absl::StrCat("use of undeclared identifier '",
                                       token.text, "'", hint));
    }
    return it->second;
  }
  if (ConsumePunct("(")) {
    absl::StatusOr<mlir::AffineExpr> inner = ParseExpr(scope);
    if (!inner.ok()) return inner;
    XI_RETURN_IF_ERROR(ExpectPunct(")", "to close a parenthesized expression"));
    return inner;
  }
  return Error(token, absl::StrCat("expected an affine expression, found ",
                                   Describe(token)));
}

}  // namespace

absl::StatusOr<SparseEncoding> ParseSparseEncodingUnverified(
    absl::string_view text, mlir::MLIRContext* context) {
  XI_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(text));
  EncodingParser parser(std::move(tokens), context);
  return parser.Parse();
}

absl::StatusOr<SparseEncoding> ParseSparseEncoding(absl::string_view text,
                                                   mlir::MLIRContext* context) {
  XI_ASSIGN_OR_RETURN(SparseEncoding encoding,
                      ParseSparseEncodingUnverified(text, context));
  XI_RETURN_IF_ERROR(VerifySparseEncoding(encoding));
  return encoding;
}

}  // namespace xla_index::sparse
