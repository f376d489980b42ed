// The parser of the indexing-map text format (ParseIndexingMap,
// ParseAffineExpr, ParseAffineMap): a hand-written lexer and a
// recursive-descent parser that builds expressions through the checked
// builder, so no folded constant wraps. The printer is indexing_map_printer.cc.

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
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
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

// A token's kind: a punctuation character (one of ( ) [ ] { } , : + - * /)
// is its own code, 0-255; the other kinds follow. One code, so that testing
// for a given punctuation is one comparison.
enum TokenKind : int {
  kArrowToken = 256,  // "->"
  kIdentifierToken,
  kIntegerToken,
  kEndToken,
};

// The current token; its text ends where the lexer stands (MapParser::pos_).
// Kept to scalars: a string_view here, written as two words and read back
// as one 16-byte copy, stalls the store-to-load forwarding.
struct Token {
  int kind = kEndToken;  // A TokenKind, or the punctuation character.
  size_t offset = 0;
};

// Character classes of the lexer, one table lookup per character.
enum : uint8_t {
  kSpaceChar = 1,       // absl::ascii_isspace
  kIdentStartChar = 2,  // a letter or '_'
  kIdentChar = 4,       // a letter, a digit, '_' or '.'
  kDigitChar = 8,
};
constexpr std::array<uint8_t, 256> MakeCharClasses() {
  std::array<uint8_t, 256> classes{};
  for (char c : {' ', '\t', '\n', '\v', '\f', '\r'}) {
    classes[static_cast<unsigned char>(c)] = kSpaceChar;
  }
  for (int c = 0; c < 256; ++c) {
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    const bool digit = c >= '0' && c <= '9';
    if (letter || c == '_') classes[c] |= kIdentStartChar;
    if (letter || digit || c == '_' || c == '.') classes[c] |= kIdentChar;
    if (digit) classes[c] |= kDigitChar;
  }
  return classes;
}
constexpr std::array<uint8_t, 256> kCharClasses = MakeCharClasses();

uint8_t CharClass(char c) {
  return kCharClasses[static_cast<unsigned char>(c)];
}

// The variables in scope (a map's header, or an access map's) and their
// expressions, each looked up in MLIR when first used. Few names (the usual
// case) are searched linearly, comparing the first 8 bytes as one word;
// beyond kLinear names a hash index is built.
class NameTable {
 public:
  struct Variable {
    bool is_dim;
    int index;
    AffineExpr expr;  // d<index> or s<index> once used; null before.
  };

  // The name of the i-th declared variable.
  absl::string_view NameAt(size_t i) const { return entries_[i].name(); }
  size_t size() const { return entries_.size(); }
  void Clear() {
    entries_.clear();
    if (!index_.empty()) index_.clear();
  }
  // Forgets the names declared after the first `n`.
  void Truncate(size_t n) {
    entries_.truncate(n);
    if (!index_.empty()) {
      index_.clear();
      if (entries_.size() > kLinear) IndexAll();
    }
  }
  // Adds a name; false when it is already declared.
  bool Add(absl::string_view name, bool is_dim, int index) {
    if (ABSL_PREDICT_FALSE(!index_.empty())) {
      if (FindIndexed(name) != nullptr) return false;
      Append(name, Prefix(name), is_dim, index);
      return true;
    }
    const uint64_t prefix = Prefix(name);
    if (FindLinear(name, prefix) != nullptr) return false;
    Append(name, prefix, is_dim, index);
    return true;
  }
  // Adds a name, or rebinds it when it is already declared.
  void Set(absl::string_view name, bool is_dim, int index) {
    if (Variable* v = Find(name)) {
      *v = {is_dim, index, AffineExpr()};
    } else {
      Append(name, Prefix(name), is_dim, index);
    }
  }
  Variable* Find(absl::string_view name) {
    if (ABSL_PREDICT_FALSE(!index_.empty())) return FindIndexed(name);
    return FindLinear(name, Prefix(name));
  }
  Variable* FindLinear(absl::string_view name, uint64_t prefix) {
    for (Entry& e : entries_) {
      if (e.prefix == prefix && e.size == name.size() &&
          (name.size() <= 8 || e.name() == name)) {
        return &e.var;
      }
    }
    return nullptr;
  }
  // The expression of a variable, looked up in MLIR on first use.
  static AffineExpr Expr(Variable& v, mlir::MLIRContext* ctx) {
    if (!v.expr) {
      v.expr = v.is_dim ? mlir::getAffineDimExpr(v.index, ctx)
                        : mlir::getAffineSymbolExpr(v.index, ctx);
    }
    return v.expr;
  }

 private:
  static constexpr size_t kLinear = 16;
  ABSL_ATTRIBUTE_NOINLINE Variable* FindIndexed(absl::string_view name) {
    auto it = index_.find(name);
    return it == index_.end() ? nullptr : &entries_[it->second].var;
  }
  struct Entry {
    uint64_t prefix;
    const char* data;
    size_t size;
    Variable var;
    absl::string_view name() const { return absl::string_view(data, size); }
  };
  // The first 8 bytes of a longer name; a shorter one whole, read as two
  // overlapping loads (the bytes are then determined by the name's length,
  // which Find compares too).
  static uint64_t Prefix(absl::string_view name) {
    const char* p = name.data();
    const size_t n = name.size();
    if (n - 2 < 2) {  // 2 or 3 bytes ("d0", "s12"), the usual names: first.
      return Load<uint16_t>(p) | uint64_t{Load<uint16_t>(p + n - 2)} << 16;
    }
    if (n >= 8) return Load<uint64_t>(p);
    if (n >= 4) {
      return Load<uint32_t>(p) | uint64_t{Load<uint32_t>(p + n - 4)} << 32;
    }
    return n == 1 ? static_cast<unsigned char>(p[0]) : 0;
  }
  template <typename T>
  static T Load(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  }
  void Append(absl::string_view name, uint64_t prefix, bool is_dim, int index) {
    // Field by field into the vector: a temporary Entry copied in would be
    // read back in 16-byte pieces right after being written in 8-byte ones.
    Entry& e = entries_.emplace_back();
    e.prefix = prefix;
    e.data = name.data();
    e.size = name.size();
    e.var.is_dim = is_dim;
    e.var.index = index;
    e.var.expr = AffineExpr();
    if (ABSL_PREDICT_FALSE(entries_.size() > kLinear)) IndexLast();
  }
  // Past kLinear names: indexes the last one, or all when there is no index
  // yet (out of line: the usual few names never get here).
  ABSL_ATTRIBUTE_NOINLINE void IndexLast() {
    if (index_.empty()) {
      IndexAll();
    } else {
      index_[entries_.back().name()] = entries_.size() - 1;
    }
  }
  void IndexAll() {
    for (size_t i = 0; i < entries_.size(); ++i) {
      index_[entries_[i].name()] = i;
    }
  }
  llvm::SmallVector<Entry, 8> entries_;
  absl::flat_hash_map<absl::string_view, size_t> index_;
};

using Variable = NameTable::Variable;

// A parsed subexpression. A constant is kept as its value until it becomes
// an operand of a node: folding it with another constant (d0 - 5 is
// d0 + 5 * -1) is then computed here, checked, as the checked builder
// computes it, without looking up 5, -1 and -5 in MLIR. Anything else is an
// MLIR expression.
struct Value {
  enum State : uint8_t {
    kNumber,       // The constant `number`; `expr` is it once looked up.
    kVariable,     // A dimension or a symbol (`variable` == `expr`).
    kScaled,       // `variable` * `number`, a node, number not 0 or 1.
    kBuilt,        // Built: whether it is a constant is not known yet.
    kNonConstant,  // Built, and not a constant.
  };
  // Only the fields a state uses are set (a Value is built per operand; a
  // default-initialized one is written whole before it is read).
  static Value Number(int64_t v) {
    Value value;
    value.state = kNumber;
    value.number = v;
    value.expr = AffineExpr();
    return value;
  }
  static Value Built(AffineExpr e) {
    Value value;
    value.state = kBuilt;
    value.number = 0;
    value.expr = e;
    return value;
  }
  // What a sum may assume of a variable or scaled variable.
  CheckedAffineSum::Term Facts() const {
    CheckedAffineSum::Term facts;
    if (state == kVariable || state == kScaled) {
      facts.simple = true;
      facts.variable = variable;
      facts.is_dim = is_dim;
      facts.position = position;
      facts.scaled = state == kScaled;
    }
    return facts;
  }
  State state;
  bool is_dim;        // kVariable, kScaled: the variable's kind
  unsigned position;  // and position.
  int64_t number;
  AffineExpr expr;
  AffineExpr variable;
};
using ExprList = llvm::SmallVector<AffineExpr, 8>;

class MapParser {
 public:
  MapParser(absl::string_view text, mlir::MLIRContext* ctx)
      : text_(text),
        data_(text.data()),
        end_(text.data() + text.size()),
        ctx_(ctx),
        builder_(ctx) {
    Advance();
  }

  absl::StatusOr<IndexingMap> ParseMap();
  absl::StatusOr<AffineMap> ParseBareAffineMap();
  absl::StatusOr<AffineExpr> ParseStandaloneExpr(
      const std::vector<std::string>& dims,
      const std::vector<std::string>& symbols);

 private:
  // Lexing.
  void Advance();
  bool AtPunct(char p) const {
    return tok_.kind == static_cast<unsigned char>(p);
  }
  bool AtArrow() const { return tok_.kind == kArrowToken; }
  absl::string_view TokText() const {
    return absl::string_view(text_.data() + tok_.offset, pos_ - tok_.offset);
  }
  bool AtWord(absl::string_view w) const {
    return tok_.kind == kIdentifierToken && TokText() == w;
  }
  // Errors are built out of line, so that the paths that do not fail stay
  // small.
  ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD absl::Status Error(
      size_t offset, absl::string_view what) const;
  ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD absl::Status ErrorHere(
      absl::string_view what) const;
  ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD absl::Status ExpectError(
      char punct) const;
  absl::Status CheckDivisor(mlir::AffineExprKind kind, int64_t divisor,
                            size_t offset) const;
  std::string Describe() const;
  absl::Status Expect(char punct) {
    if (ABSL_PREDICT_FALSE(!AtPunct(punct))) return ExpectError(punct);
    Advance();
    return absl::OkStatus();
  }
  absl::Status ExpectArrow();
  /// A checked builder's error, at `offset`.
  ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD absl::Status LocatedError(
      const absl::Status& status, size_t offset) const;
  absl::StatusOr<int64_t> ParseInteger();  // Optional leading '-'.
  /// The integer token's value, negated when `negative`; `start` is where
  /// the integer (its '-') begins.
  absl::StatusOr<int64_t> IntegerValue(bool negative, size_t start);

  // Grammar.
  // The variables a map's header declares, in names_ in this order: dims,
  // range symbols, runtime symbols (declared in {...}).
  struct Header {
    int dims = 0, symbols = 0, runtime = 0;
    int num_dims() const { return dims; }
    int num_symbols() const { return symbols + runtime; }
  };
  /// "(a, b)", "[...]" or "{...}": adds each name to names_ (variable number
  /// `first` on) and counts them in `count`; the first name declared before
  /// goes to `duplicate` (reported once the whole header has parsed).
  absl::Status ParseNameList(char open, char close, bool is_dim, int first,
                             int& count,
                             std::optional<absl::string_view>& duplicate);
  /// ParseNameList at `open` when the list is written plainly (names and
  /// commas, optional spaces) read straight from the text: true, and the
  /// parser past `close`; false, and nothing consumed or declared, when the
  /// text there is anything else (then the tokens name the error).
  bool ScanNameList(char close, bool is_dim, int first, int& count,
                    std::optional<absl::string_view>& duplicate);
  absl::Status ParseHeader(Header& header);
  /// AffineMap::get(num_dims, num_symbols, {}): the last one is kept (a
  /// map's runtime variables have the same empty access map).
  AffineMap EmptyMap(int num_dims, int num_symbols);
  /// One whole expression (a result, a constraint, a standalone
  /// expression): ParseSum with the operator budget reset; false with the
  /// error in error_.
  bool ParseExpression(AffineExpr& out);

  // The expression grammar returns false on an error, which it leaves in
  // error_, and its value through `out`: no StatusOr<Value> is built and
  // copied per operand.
  bool Fail(absl::Status status) {
    error_ = std::move(status);
    return false;
  }
  bool ParseSum(Value& out);
  /// Counts a binary operator against kMaxOperators.
  bool CountOperator() {
    if (ABSL_PREDICT_FALSE(++operators_ > kMaxOperators)) {
      return Fail(TooManyOperators());
    }
    return true;
  }
  ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD absl::Status TooManyOperators()
      const;
  bool ParseTerm(Value& out);
  /// ParseUnary, with a declared variable (the most common operand) read
  /// without ParseUnary's frame.
  ABSL_ATTRIBUTE_ALWAYS_INLINE bool ParseOperand(Value& out) {
    if (tok_.kind == kIdentifierToken) {
      if (Variable* v = names_->Find(TokText())) {
        TakeVariable(*v, out);
        return true;
      }
    }
    return ParseUnary(out);
  }
  /// out = the variable `v` (the current token), and the parser past it.
  void TakeVariable(Variable& v, Value& out) {
    Advance();
    out.state = Value::kVariable;
    out.number = 0;
    out.is_dim = v.is_dim;
    out.position = v.index;
    out.expr = out.variable = NameTable::Expr(v, ctx_);
  }
  bool ParseUnary(Value& out);
  bool ParsePrimary(Value& out);
  /// The error at an undeclared identifier: XLA's SymbolicExpr `min(` and
  /// `max(` (SymbolicExprParserImpl::ParseBinaryFunction) have no affine
  /// counterpart; any other name is not declared.
  ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD absl::Status UndeclaredNameError()
      const;
  /// Whether `v` is a constant (then v.number is its value).
  static bool IsConstant(Value& v) {
    if (v.state == Value::kNumber) return true;
    return v.state == Value::kBuilt && BuiltIsConstant(v);
  }
  static bool BuiltIsConstant(Value& v);
  /// v's expression, looking a constant up in MLIR if it is not yet.
  AffineExpr Materialize(Value& v);
  /// out = `lhs kind rhs` (kind Mul, FloorDiv, CeilDiv or Mod), as Build.
  /// `out` may be `lhs`: the operands are read before `out` is written.
  bool Apply(mlir::AffineExprKind kind, Value& lhs, Value& rhs, size_t offset,
             Value& out);
  /// v = v * -1, as Build.
  bool Negate(Value& v, size_t offset);
  /// out = `expr` when it was built, else fails with its error at `offset`.
  bool Take(absl::StatusOr<AffineExpr> expr, size_t offset, Value& out) {
    if (ABSL_PREDICT_FALSE(!expr.ok())) {
      return Fail(LocatedError(expr.status(), offset));
    }
    out = Value::Built(*expr);
    return true;
  }
  absl::Status ParseResults(ExprList& results);
  absl::StatusOr<Interval> ParseInterval();
  /// "[lo, hi]" read straight from the text when it is written plainly
  /// (optional spaces, '-' right before the digits, values that fit), and
  /// the parser advanced past it; nullopt, and nothing consumed, otherwise
  /// (then ParseInterval reads it token by token and names the error).
  std::optional<Interval> ScanInterval();
  /// At a declared variable's name: " in [lo, hi]" read straight from the
  /// text (as ScanInterval reads it) and the parser advanced past it; false,
  /// and nothing consumed, when the text there is anything else.
  bool ScanLoneBound(int64_t& lo, int64_t& hi);

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
    llvm::SmallVector<std::optional<Interval>, 12> bounds;
    llvm::SmallVector<bool, 4> is_runtime;
    llvm::SmallVector<RuntimeVar, 2> runtime;
    llvm::SmallVector<IndexingConstraint, 4> constraints;
  };
  // "UNDEFINED", "KNOWN EMPTY" or "KNOWN_EMPTY"; nullopt for anything else.
  std::optional<absl::StatusOr<IndexingMap>> ParseSpecialMap();
  absl::Status ParseDomainEntry(int num_dims, Domain& domain);
  /// A domain entry that is not a declared variable's plain bound.
  ABSL_ATTRIBUTE_NOINLINE absl::Status ParseOtherDomainEntry(int num_dims,
                                                             Domain& domain);
  /// The bound of the lone variable `v` (its entry at `entry_offset`).
  absl::Status SetBound(const Variable& v, Interval bound, size_t entry_offset,
                        int num_dims, Domain& domain);
  ABSL_ATTRIBUTE_NOINLINE absl::Status ParseRuntimeVariable(int symbol,
                                                            Domain& domain);
  absl::StatusOr<IndexingMap> BuildMap(const Header& header,
                                       llvm::ArrayRef<AffineExpr> results,
                                       Domain& domain);

  absl::string_view text_;
  const char* const data_;  // text_'s bounds, for the lexer.
  const char* const end_;
  mlir::MLIRContext* ctx_;
  size_t pos_ = 0;
  Token tok_;
  // Declared names (views into the text or the caller's names).
  NameTable* names_ = &map_names_;
  NameTable map_names_;
  NameTable access_names_;  // A runtime variable's access map's names.
  // Every expression of the parse is built through here: constants once
  // per value, a repeated operation (the same term in several results, a
  // constraint on a result) once.
  CheckedAffineBuilder builder_;
  int depth_ = 0;  // Parenthesis nesting, bounded against stack overflow.
  // Binary operators in the current expression. A chain like
  // d0 + d1 + ... + dN is a tree N deep, and every pass over affine
  // expressions (MLIR's and the simplifier's) recurses into it; bounding
  // the operators bounds the stack they use (4,000 terms overflowed it under
  // AddressSanitizer).
  static constexpr int kMaxOperators = 1024;
  int operators_ = 0;
  absl::Status error_;   // The expression grammar's error.
  AffineMap empty_map_;  // EmptyMap's last map.
};

void MapParser::Advance() {
  const char* const data = data_;
  const char* const end = end_;
  const char* p = data + pos_;
  // The first character's class is read once: it ends the run of spaces
  // and says what the token is.
  uint8_t first;
  while (true) {
    if (p == end) {
      tok_.offset = pos_ = p - data;
      tok_.kind = kEndToken;
      return;
    }
    first = CharClass(*p);
    if (!(first & kSpaceChar)) break;
    ++p;
  }
  tok_.offset = p - data;
  if (first & kIdentStartChar) {
    do {
      ++p;
    } while (p != end && (CharClass(*p) & kIdentChar));
    tok_.kind = kIdentifierToken;
  } else if (first & kDigitChar) {
    do {
      ++p;
    } while (p != end && (CharClass(*p) & kDigitChar));
    tok_.kind = kIntegerToken;
  } else if (*p == '-' && end - p >= 2 && p[1] == '>') {
    p += 2;
    tok_.kind = kArrowToken;
  } else {
    tok_.kind = static_cast<unsigned char>(*p);
    ++p;
  }
  pos_ = p - data;
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

absl::Status MapParser::ErrorHere(absl::string_view what) const {
  return Error(tok_.offset, absl::StrCat(what, ", found ", Describe()));
}

absl::Status MapParser::ExpectError(char punct) const {
  return ErrorHere(
      absl::StrCat("expected '", absl::string_view(&punct, 1), "'"));
}

std::string MapParser::Describe() const {
  if (tok_.kind == kEndToken) return "end of input";
  // Control bytes (a NUL, say) are shown escaped, as hlo/'s errors do.
  return absl::StrCat("'", absl::CHexEscape(TokText().substr(0, 20)), "'");
}

absl::Status MapParser::ExpectArrow() {
  if (!AtArrow()) return ErrorHere("expected '->'");
  Advance();
  return absl::OkStatus();
}

absl::Status MapParser::LocatedError(const absl::Status& status,
                                     size_t offset) const {
  return Error(offset, absl::StrCat("the map cannot be represented exactly: ",
                                    status.message()));
}

absl::StatusOr<int64_t> MapParser::ParseInteger() {
  size_t start = tok_.offset;
  bool negative = false;
  if (AtPunct('-')) {
    negative = true;
    Advance();
  }
  return IntegerValue(negative, start);
}

// The value of `digits` (decimal digits only), negated when `negative`, or
// nullopt when it does not fit in int64 (-2^63 does).
std::optional<int64_t> DecimalValue(absl::string_view digits, bool negative) {
  // The unsigned magnitude, so that INT64_MIN is accepted. 18 digits always
  // fit in 63 bits.
  uint64_t magnitude = 0;
  if (digits.size() <= 18) {
    for (char c : digits) magnitude = magnitude * 10 + (c - '0');
  } else {
    for (char c : digits) {
      if (__builtin_mul_overflow(magnitude, 10, &magnitude) ||
          __builtin_add_overflow(magnitude, c - '0', &magnitude)) {
        return std::nullopt;
      }
    }
    if (magnitude > (negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1)) {
      return std::nullopt;
    }
  }
  return negative ? static_cast<int64_t>(0 - magnitude)
                  : static_cast<int64_t>(magnitude);
}

absl::StatusOr<int64_t> MapParser::IntegerValue(bool negative, size_t start) {
  if (tok_.kind != kIntegerToken) return ErrorHere("expected an integer");
  std::optional<int64_t> value = DecimalValue(TokText(), negative);
  if (!value) return Error(start, "integer does not fit in 64 bits");
  Advance();
  return *value;
}

absl::Status MapParser::ParseNameList(
    char open, char close, bool is_dim, int first, int& count,
    std::optional<absl::string_view>& duplicate) {
  if (AtPunct(open) && ScanNameList(close, is_dim, first, count, duplicate)) {
    return absl::OkStatus();
  }
  XI_RETURN_IF_ERROR(Expect(open));
  if (AtPunct(close)) {
    Advance();
    return absl::OkStatus();
  }
  while (true) {
    if (tok_.kind != kIdentifierToken) {
      return ErrorHere("expected a variable name");
    }
    absl::string_view name = TokText();
    if (!names_->Add(name, is_dim, first + count) && !duplicate) {
      duplicate = name;
    }
    ++count;
    Advance();
    if (AtPunct(close)) {
      Advance();
      return absl::OkStatus();
    }
    XI_RETURN_IF_ERROR(Expect(','));
  }
}

// Spaces from p on.
inline const char* SkipSpaces(const char* p, const char* end) {
  while (p != end && (CharClass(*p) & kSpaceChar)) ++p;
  return p;
}

bool MapParser::ScanNameList(char close, bool is_dim, int first, int& count,
                             std::optional<absl::string_view>& duplicate) {
  const char* const begin = text_.data();
  const char* const end = begin + text_.size();
  const size_t declared = names_->size();
  const int counted = count;
  const std::optional<absl::string_view> duplicated = duplicate;
  const char* p = SkipSpaces(begin + pos_, end);  // pos_ is after `open`.
  bool closed = p != end && *p == close;
  while (!closed) {
    if (p == end || !(CharClass(*p) & kIdentStartChar)) break;
    const char* name = p;
    do {
      ++p;
    } while (p != end && (CharClass(*p) & kIdentChar));
    const absl::string_view text(name, p - name);
    if (!names_->Add(text, is_dim, first + count) && !duplicate) {
      duplicate = text;
    }
    ++count;
    p = SkipSpaces(p, end);
    if (p == end) break;
    if (*p == close) {
      closed = true;
    } else if (*p == ',') {
      p = SkipSpaces(p + 1, end);
    } else {
      break;
    }
  }
  if (!closed) {
    names_->Truncate(declared);
    count = counted;
    duplicate = duplicated;
    return false;
  }
  pos_ = p + 1 - begin;
  Advance();
  return true;
}

// Names are declared into names_ as the lists are read; a name declared
// twice is reported after the whole header has parsed, as the first one in
// the order dims, symbols, runtime symbols.
absl::Status MapParser::ParseHeader(Header& header) {
  size_t start = tok_.offset;
  names_->Clear();
  std::optional<absl::string_view> duplicate;
  XI_RETURN_IF_ERROR(ParseNameList('(', ')', true, 0, header.dims, duplicate));
  if (AtPunct('[')) {
    XI_RETURN_IF_ERROR(
        ParseNameList('[', ']', false, 0, header.symbols, duplicate));
  }
  if (AtPunct('{')) {
    XI_RETURN_IF_ERROR(ParseNameList('{', '}', false, header.symbols,
                                     header.runtime, duplicate));
  }
  if (duplicate) {
    return Error(start,
                 absl::StrCat("variable '", *duplicate, "' declared twice"));
  }
  return absl::OkStatus();
}

AffineMap MapParser::EmptyMap(int num_dims, int num_symbols) {
  if (!empty_map_ || static_cast<int>(empty_map_.getNumDims()) != num_dims ||
      static_cast<int>(empty_map_.getNumSymbols()) != num_symbols) {
    empty_map_ = AffineMap::get(num_dims, num_symbols, {}, ctx_);
  }
  return empty_map_;
}

bool MapParser::ParseExpression(AffineExpr& out) {
  operators_ = 0;
  Value v;
  if (!ParseSum(v)) return false;
  out = Materialize(v);
  return true;
}

absl::Status MapParser::TooManyOperators() const {
  return ErrorHere(
      absl::StrCat("expression has more than ", kMaxOperators, " operators"));
}

bool MapParser::BuiltIsConstant(Value& v) {
  if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(v.expr)) {
    v.state = Value::kNumber;
    v.number = c.getValue();
    return true;
  }
  v.state = Value::kNonConstant;
  return false;
}

AffineExpr MapParser::Materialize(Value& v) {
  if (!v.expr) v.expr = builder_.Constant(v.number);
  return v.expr;
}

bool MapParser::Apply(mlir::AffineExprKind kind, Value& lhs, Value& rhs,
                      size_t offset, Value& out) {
  // Two constants fold to a constant, as CheckedAffineBinaryOp folds them;
  // a product that does not fit and a divisor < 1 go through the builder,
  // which names the error or does what MLIR does.
  if (IsConstant(lhs) && IsConstant(rhs)) {
    const int64_t a = lhs.number, k = rhs.number;
    std::optional<int64_t> folded;
    switch (kind) {
      case mlir::AffineExprKind::Mul:
        folded = CheckedMul(a, k);
        break;
      case mlir::AffineExprKind::FloorDiv:
        if (k >= 1) folded = FloorDiv(a, k);
        break;
      case mlir::AffineExprKind::CeilDiv:
        if (k >= 1) folded = CeilDiv(a, k);
        break;
      default:
        if (k >= 1) folded = FloorMod(a, k);
        break;
    }
    if (folded) {
      out = Value::Number(*folded);
      return true;
    }
  }
  // A dimension or symbol times or by a constant (k * x is built as
  // x * k).
  Value* variable = lhs.state == Value::kVariable ? &lhs : nullptr;
  Value* constant = &rhs;
  if (!variable && kind == mlir::AffineExprKind::Mul &&
      rhs.state == Value::kVariable) {
    variable = &rhs;
    constant = &lhs;
  }
  if (variable && IsConstant(*constant)) {
    const int64_t k = constant->number;
    const Value x = *variable;
    if (!Take(builder_.VariableOp(kind, x.expr, k), offset, out)) return false;
    if (kind == mlir::AffineExprKind::Mul && k != 0 && k != 1) {
      // VariableOp built the node x * k.
      out.state = Value::kScaled;
      out.variable = x.expr;
      out.is_dim = x.is_dim;
      out.position = x.position;
      out.number = k;
    }
    return true;
  }
  return Take(builder_.BinaryOp(kind, Materialize(lhs), Materialize(rhs)),
              offset, out);
}

bool MapParser::Negate(Value& v, size_t offset) {
  if (IsConstant(v) && v.number != std::numeric_limits<int64_t>::min()) {
    v = Value::Number(-v.number);
    return true;
  }
  Value minus_one = Value::Number(-1);
  return Apply(mlir::AffineExprKind::Mul, v, minus_one, offset, v);
}

bool MapParser::ParseSum(Value& out) {
  Value& first = out;
  if (!ParseTerm(first)) return false;
  // A lone term is the sum: the left fold of one term is that term.
  if (!AtPunct('+') && !AtPunct('-')) return true;
  // While every term is a constant the sum is their checked total (the
  // fold of constants); the first other term starts the checked sum.
  std::optional<CheckedAffineSum> sum;
  if (!IsConstant(first)) sum.emplace(first.expr, &builder_, first.Facts());
  int64_t total = first.number;
  size_t op_offset = tok_.offset;
  Value term;
  while (AtPunct('+') || AtPunct('-')) {
    if (!CountOperator()) return false;
    bool minus = AtPunct('-');
    op_offset = tok_.offset;
    Advance();
    if (!ParseTerm(term)) return false;
    if (minus && !Negate(term, op_offset)) return false;
    const bool constant = IsConstant(term);
    if (!sum && constant) {
      if (std::optional<int64_t> t = CheckedAdd(total, term.number)) {
        total = *t;
        continue;
      }
      Value so_far = Value::Number(total);  // The builder names the error.
      return Take(builder_.BinaryOp(mlir::AffineExprKind::Add,
                                    Materialize(so_far), Materialize(term)),
                  op_offset, out);
    }
    if (!sum) sum.emplace(builder_.Constant(total), &builder_);
    absl::Status added = constant ? sum->AddConstant(term.number)
                                  : sum->Add(term.expr, term.Facts());
    if (ABSL_PREDICT_FALSE(!added.ok())) {
      return Fail(LocatedError(added, op_offset));
    }
  }
  if (!sum) {
    out = Value::Number(total);
    return true;
  }
  return Take(sum->Finish(), op_offset, out);
}

// The operators of a term, all of one precedence and left-associative:
// MLIR's `*`, `floordiv`, `ceildiv`, `mod`, and XLA's SymbolicExpr spellings
// (xla/hlo/analysis/symbolic_map_serialization.cc,
// SymbolicExprParserImpl::ParseTerm): `/` and `floorDiv` for floordiv (floor
// rounding, llvm::divideFloorSigned in SymbolicExpr::Evaluate, as MLIR's
// floordiv), `ceilDiv` for ceildiv.
bool MapParser::ParseTerm(Value& out) {
  Value& result = out;
  if (!ParseOperand(result)) return false;
  Value rhs;
  while (true) {
    mlir::AffineExprKind kind;
    if (AtPunct('*')) {
      kind = mlir::AffineExprKind::Mul;
    } else if (AtPunct('/')) {
      kind = mlir::AffineExprKind::FloorDiv;
    } else if (tok_.kind != kIdentifierToken) {
      return true;
    } else if (TokText() == "floordiv") {
      kind = mlir::AffineExprKind::FloorDiv;
    } else if (TokText() == "ceildiv") {
      kind = mlir::AffineExprKind::CeilDiv;
    } else if (TokText() == "mod") {
      kind = mlir::AffineExprKind::Mod;
    } else if (TokText() == "floorDiv") {
      kind = mlir::AffineExprKind::FloorDiv;
    } else if (TokText() == "ceilDiv") {
      kind = mlir::AffineExprKind::CeilDiv;
    } else {
      return true;
    }
    if (!CountOperator()) return false;
    size_t op_offset = tok_.offset;
    Advance();
    if (!ParseOperand(rhs)) return false;
    if (kind != mlir::AffineExprKind::Mul) {
      if (!IsConstant(rhs)) {
        return Fail(Error(
            op_offset, "divisor of floordiv/ceildiv/mod must be a constant"));
      }
      absl::Status divisor = CheckDivisor(kind, rhs.number, op_offset);
      if (!divisor.ok()) return Fail(std::move(divisor));
    } else if (!IsConstant(result) && !IsConstant(rhs)) {
      return Fail(Error(op_offset, "one side of '*' must be a constant"));
    }
    if (!Apply(kind, result, rhs, op_offset, result)) return false;
  }
}

// MLIR asserts on division or modulo by a constant zero. floordiv and
// ceildiv by a negative constant are MLIR's (x floordiv -c = (-x) floordiv
// c); INT64_MIN has no negation. MLIR's affine mod is defined for a positive
// right-hand side only (its lowering refuses the others).
absl::Status MapParser::CheckDivisor(mlir::AffineExprKind kind, int64_t divisor,
                                     size_t offset) const {
  const bool is_mod = kind == mlir::AffineExprKind::Mod;
  if (divisor == 0) {
    return Error(offset, is_mod ? "mod by zero" : "division by zero");
  }
  if (divisor > 0) return absl::OkStatus();
  if (is_mod) {
    return Error(offset,
                 "mod by a negative constant is not supported: MLIR's affine "
                 "mod requires a positive divisor");
  }
  if (divisor == std::numeric_limits<int64_t>::min()) {
    return Error(offset,
                 "divisor -9223372036854775808 cannot be negated in int64");
  }
  return absl::OkStatus();
}

bool MapParser::ParseUnary(Value& out) {
  if (AtPunct('-')) {
    // "-9223372036854775808" is one integer: its magnitude alone does not
    // fit in int64.
    size_t minus_offset = tok_.offset;
    Advance();
    if (tok_.kind == kIntegerToken) {
      absl::StatusOr<int64_t> v = IntegerValue(true, minus_offset);
      if (!v.ok()) return Fail(v.status());
      out = Value::Number(*v);
      return true;
    }
    if (++depth_ > 200) return Fail(ErrorHere("expression nested too deeply"));
    const bool parsed = ParseUnary(out);
    --depth_;
    return parsed && Negate(out, minus_offset);
  }
  return ParsePrimary(out);
}

bool MapParser::ParsePrimary(Value& out) {
  if (tok_.kind == kIntegerToken) {
    const char* digit = text_.data() + tok_.offset;
    const char* const end = text_.data() + pos_;
    if (end - digit <= 18) {  // Fits in int64 (as DecimalValue reads it).
      int64_t value = 0;
      for (; digit != end; ++digit) value = value * 10 + (*digit - '0');
      Advance();
      out = Value::Number(value);
      return true;
    }
    absl::StatusOr<int64_t> v = IntegerValue(false, tok_.offset);
    if (!v.ok()) return Fail(v.status());
    out = Value::Number(*v);
    return true;
  }
  if (tok_.kind == kIdentifierToken) {
    Variable* v = names_->Find(TokText());
    if (v == nullptr) {
      return Fail(UndeclaredNameError());
    }
    TakeVariable(*v, out);
    return true;
  }
  if (AtPunct('(')) {
    if (++depth_ > 200) return Fail(ErrorHere("expression nested too deeply"));
    Advance();
    const bool parsed = ParseSum(out);
    --depth_;
    if (!parsed) return false;
    absl::Status closed = Expect(')');
    if (!closed.ok()) return Fail(std::move(closed));
    return true;
  }
  return Fail(ErrorHere("expected a variable, an integer or '('"));
}

absl::Status MapParser::UndeclaredNameError() const {
  const absl::string_view word = TokText();
  const char* const end = text_.data() + text_.size();
  const char* next = SkipSpaces(text_.data() + pos_, end);
  if ((word == "min" || word == "max") && next != end && *next == '(') {
    return Error(tok_.offset,
                 absl::StrCat("'", word,
                              "(...)' (XLA's SymbolicExpr min/max) cannot be "
                              "represented: an affine expression has no ",
                              word));
  }
  return ErrorHere("expected a declared variable, an integer or '('");
}

absl::Status MapParser::ParseResults(ExprList& results) {
  XI_RETURN_IF_ERROR(Expect('('));
  if (AtPunct(')')) {
    Advance();
    return absl::OkStatus();
  }
  while (true) {
    AffineExpr e;
    if (!ParseExpression(e)) return std::move(error_);
    results.push_back(e);
    if (AtPunct(')')) {
      Advance();
      return absl::OkStatus();
    }
    XI_RETURN_IF_ERROR(Expect(','));
  }
}

absl::StatusOr<Interval> MapParser::ParseInterval() {
  if (std::optional<Interval> quick = ScanInterval()) return *quick;
  XI_RETURN_IF_ERROR(Expect('['));
  XI_ASSIGN_OR_RETURN(int64_t lo, ParseInteger());
  XI_RETURN_IF_ERROR(Expect(','));
  XI_ASSIGN_OR_RETURN(int64_t hi, ParseInteger());
  XI_RETURN_IF_ERROR(Expect(']'));
  return Interval{lo, hi};
}

// Reads "  -123  " from p: spaces, '-' right before the digits, at most 18
// digits (so the value fits), spaces; null when the text there is anything
// else (a digit run followed by a letter is two tokens).
inline const char* ScanInteger(const char* p, const char* end, int64_t* value) {
  while (p != end && (CharClass(*p) & kSpaceChar)) ++p;
  const bool negative = p != end && *p == '-';
  if (negative) ++p;
  const char* const digits = p;
  uint64_t magnitude = 0;
  for (; p != end; ++p) {
    const unsigned digit = static_cast<unsigned char>(*p) - unsigned{'0'};
    if (digit > 9) break;
    magnitude = magnitude * 10 + digit;
  }
  // 1 to 18 digits (0 wraps to the largest size_t).
  if (static_cast<size_t>(p - digits) - 1 >= 18) return nullptr;
  if (p != end && (CharClass(*p) & kIdentChar)) return nullptr;
  while (p != end && (CharClass(*p) & kSpaceChar)) ++p;
  *value = negative ? -static_cast<int64_t>(magnitude)
                    : static_cast<int64_t>(magnitude);
  return p;
}

// Reads "lo, hi]" from p (just after '['), as ScanInteger reads each
// bound; the position after ']', or null. The bounds come back as scalars:
// an Interval written field by field and copied whole right after stalls
// the store-to-load forwarding.
inline const char* ScanBounds(const char* p, const char* end, int64_t* lo,
                              int64_t* hi) {
  p = ScanInteger(p, end, lo);
  if (p == nullptr || p == end || *p != ',') return nullptr;
  p = ScanInteger(p + 1, end, hi);
  if (p == nullptr || p == end || *p != ']') return nullptr;
  return p + 1;
}

std::optional<Interval> MapParser::ScanInterval() {
  if (!AtPunct('[')) return std::nullopt;
  const char* const begin = text_.data();
  int64_t lo, hi;
  const char* p = ScanBounds(begin + pos_, begin + text_.size(), &lo, &hi);
  if (p == nullptr) return std::nullopt;
  pos_ = p - begin;
  Advance();
  return Interval{lo, hi};
}

bool MapParser::ScanLoneBound(int64_t& lo, int64_t& hi) {
  // pos_ is just after the variable's name.
  const char* const begin = text_.data();
  const char* const end = begin + text_.size();
  const char* p = begin + pos_;
  while (p < end && (CharClass(*p) & kSpaceChar)) ++p;
  if (end - p < 2 || p[0] != 'i' || p[1] != 'n') return false;
  p += 2;
  if (p < end && (CharClass(*p) & kIdentChar)) return false;  // "int", ...
  while (p < end && (CharClass(*p) & kSpaceChar)) ++p;
  if (p == end || *p != '[') return false;
  p = ScanBounds(p + 1, end, &lo, &hi);
  if (p == nullptr) return false;
  pos_ = p - begin;
  Advance();
  return true;
}

absl::StatusOr<AffineMap> MapParser::ParseBareAffineMap() {
  Header header;
  XI_RETURN_IF_ERROR(ParseHeader(header));
  XI_RETURN_IF_ERROR(ExpectArrow());
  ExprList results;
  XI_RETURN_IF_ERROR(ParseResults(results));
  if (results.empty()) return EmptyMap(header.num_dims(), header.num_symbols());
  return AffineMap::get(header.num_dims(), header.num_symbols(), results, ctx_);
}

absl::StatusOr<AffineExpr> MapParser::ParseStandaloneExpr(
    const std::vector<std::string>& dims,
    const std::vector<std::string>& symbols) {
  // A name given twice means its last position.
  names_->Clear();
  for (size_t i = 0; i < dims.size(); ++i) names_->Set(dims[i], true, i);
  for (size_t i = 0; i < symbols.size(); ++i) {
    names_->Set(symbols[i], false, i);
  }
  AffineExpr e;
  if (!ParseExpression(e)) return std::move(error_);
  if (tok_.kind != kEndToken) return ErrorHere("expected end of input");
  return e;
}

absl::StatusOr<IndexingMap> MapParser::ParseMap() {
  if (std::optional<absl::StatusOr<IndexingMap>> special = ParseSpecialMap()) {
    return *std::move(special);
  }
  Header header;
  XI_RETURN_IF_ERROR(ParseHeader(header));
  XI_RETURN_IF_ERROR(ExpectArrow());
  ExprList results;
  XI_RETURN_IF_ERROR(ParseResults(results));
  Domain domain(header.num_dims(), header.num_symbols(), header.symbols);
  // Entries are separated by newlines (the printed form) or by commas (XLA's
  // one-line form); a comma must be followed by an entry.
  const bool one_line = AtPunct(',');
  if (one_line) Advance();
  if (AtWord("domain")) {
    Advance();
    XI_RETURN_IF_ERROR(Expect(':'));
    while (tok_.kind != kEndToken) {
      XI_RETURN_IF_ERROR(ParseDomainEntry(header.num_dims(), domain));
      if (AtPunct(',')) {
        Advance();
        if (tok_.kind == kEndToken) {
          return ErrorHere("expected a domain entry after ','");
        }
      }
    }
  } else if (one_line) {
    return ErrorHere("expected 'domain:' after ','");
  } else if (tok_.kind != kEndToken) {
    return ErrorHere("expected 'domain:' or end of input");
  }
  return BuildMap(header, results, domain);
}

std::optional<absl::StatusOr<IndexingMap>> MapParser::ParseSpecialMap() {
  if (AtWord("UNDEFINED")) {
    Advance();
    if (tok_.kind != kEndToken) return ErrorHere("expected end of input");
    return IndexingMap::Undefined();
  }
  if (AtWord("KNOWN")) {
    Advance();
    if (!AtWord("EMPTY")) return ErrorHere("expected 'EMPTY'");
    Advance();
    if (tok_.kind != kEndToken) return ErrorHere("expected end of input");
    return IndexingMap::KnownEmpty(ctx_);
  }
  if (AtWord("KNOWN_EMPTY")) {
    Advance();
    if (tok_.kind != kEndToken) return ErrorHere("expected end of input");
    return IndexingMap::KnownEmpty(ctx_);
  }
  return std::nullopt;
}

// "x in [lo, hi]": a bound when x is a lone variable (then, for a runtime
// variable, "hlo: TEXT" and its access map), else a constraint. A declared
// variable's plain "in [lo, hi]" is read straight from the text.
absl::Status MapParser::ParseDomainEntry(int num_dims, Domain& domain) {
  if (tok_.kind == kIdentifierToken) {
    if (Variable* v = names_->Find(TokText())) {
      const size_t entry_offset = tok_.offset;
      int64_t lo, hi;
      if (ScanLoneBound(lo, hi)) {
        // A dimension's first bound needs none of SetBound's checks.
        if (v->is_dim && !domain.bounds[v->index]) {
          domain.bounds[v->index] = Interval{lo, hi};
          return absl::OkStatus();
        }
        return SetBound(*v, Interval{lo, hi}, entry_offset, num_dims, domain);
      }
    }
  }
  return ParseOtherDomainEntry(num_dims, domain);
}

absl::Status MapParser::ParseOtherDomainEntry(int num_dims, Domain& domain) {
  size_t entry_offset = tok_.offset;
  std::optional<Variable> lone;
  if (tok_.kind == kIdentifierToken) {
    if (Variable* v = names_->Find(TokText())) {
      // The variable is lone if "in" follows; then its expression (the
      // variable itself, which cannot fail to parse) is not needed.
      size_t save_pos = pos_;
      Token save_tok = tok_;
      Advance();
      if (AtWord("in")) {
        lone = *v;
      } else {
        pos_ = save_pos;
        tok_ = save_tok;
      }
    }
  }
  AffineExpr expr;
  if (!lone) {
    if (!ParseExpression(expr)) return std::move(error_);
    if (!AtWord("in")) return ErrorHere("expected 'in'");
  }
  Advance();
  XI_ASSIGN_OR_RETURN(Interval interval, ParseInterval());
  if (!lone) {
    domain.constraints.push_back({expr, interval});
    return absl::OkStatus();
  }
  return SetBound(*lone, interval, entry_offset, num_dims, domain);
}

absl::Status MapParser::SetBound(const Variable& v, Interval bound,
                                 size_t entry_offset, int num_dims,
                                 Domain& domain) {
  int slot = v.is_dim ? v.index : num_dims + v.index;
  if (domain.bounds[slot]) {
    return Error(entry_offset, "variable bounded twice");
  }
  domain.bounds[slot] = bound;
  if (ABSL_PREDICT_TRUE(v.is_dim || !AtWord("hlo"))) return absl::OkStatus();
  return ParseRuntimeVariable(v.index, domain);
}

// After "s in [lo, hi]": "hlo: TEXT" (the raw rest of the line), then
// optionally the access map, which names its own dims.
absl::Status MapParser::ParseRuntimeVariable(int symbol, Domain& domain) {
  Advance();
  if (!AtPunct(':')) return ErrorHere("expected ':' after 'hlo'");
  size_t line_end = text_.find('\n', tok_.offset);
  if (line_end == absl::string_view::npos) line_end = text_.size();
  absl::string_view hlo = absl::StripAsciiWhitespace(
      text_.substr(tok_.offset + 1, line_end - tok_.offset - 1));
  pos_ = line_end;
  Advance();
  domain.is_runtime[symbol] = true;
  domain.runtime[symbol].hlo_text = hlo == "NULL" ? "" : std::string(hlo);
  if (AtPunct('(')) {
    names_ = &access_names_;
    absl::StatusOr<AffineMap> access = ParseBareAffineMap();
    names_ = &map_names_;
    XI_RETURN_IF_ERROR(access.status());
    domain.runtime[symbol].access = *access;
  }
  return absl::OkStatus();
}

// Every variable needs a bound; symbols are renumbered range variables
// first, then runtime variables, each in the order given.
absl::StatusOr<IndexingMap> MapParser::BuildMap(
    const Header& header, llvm::ArrayRef<AffineExpr> results, Domain& domain) {
  const int num_dims = header.num_dims();
  const int num_symbols = header.num_symbols();
  for (int i = 0; i < num_dims + num_symbols; ++i) {
    if (!domain.bounds[i]) {
      return Error(text_.size(),
                   absl::StrCat("no bounds for '", names_->NameAt(i), "'"));
    }
  }
  llvm::SmallVector<int, 8> order;
  for (int i = 0; i < num_symbols; ++i) {
    if (!domain.is_runtime[i]) order.push_back(i);
  }
  for (int i = 0; i < num_symbols; ++i) {
    if (domain.is_runtime[i]) order.push_back(i);
  }
  // Renumbering symbols reorders some sums (MLIR sorts s1 + s0), so it
  // rebuilds through the checked builder; nothing to do when no runtime
  // variable precedes a range variable.
  const bool identity = std::is_sorted(order.begin(), order.end());
  llvm::SmallVector<AffineExpr> dim_ids, sym_replacements;
  if (!identity) {
    sym_replacements.resize(num_symbols);
    for (int i = 0; i < num_dims; ++i) {
      dim_ids.push_back(mlir::getAffineDimExpr(i, ctx_));
    }
    for (int new_pos = 0; new_pos < num_symbols; ++new_pos) {
      sym_replacements[order[new_pos]] =
          mlir::getAffineSymbolExpr(new_pos, ctx_);
    }
  }
  auto remap = [&](AffineExpr e) -> absl::StatusOr<AffineExpr> {
    if (identity) return e;
    absl::StatusOr<AffineExpr> r =
        CheckedReplaceDimsAndSymbols(e, dim_ids, sym_replacements);
    if (!r.ok()) return Error(text_.size(), r.status().message());
    return r;
  };
  ExprList remapped;
  if (!identity) {
    for (AffineExpr e : results) {
      XI_ASSIGN_OR_RETURN(AffineExpr r, remap(e));
      remapped.push_back(r);
    }
  }
  std::vector<Interval> dim_bounds, range_bounds;
  std::vector<RuntimeVar> runtime_vars;
  const int num_runtime =
      std::count(domain.is_runtime.begin(), domain.is_runtime.end(), true);
  range_bounds.reserve(num_symbols - num_runtime);
  runtime_vars.reserve(num_runtime);
  dim_bounds.reserve(num_dims);
  for (int i = 0; i < num_dims; ++i) dim_bounds.push_back(*domain.bounds[i]);
  for (int i : order) {
    if (!domain.is_runtime[i]) {
      range_bounds.push_back(*domain.bounds[num_dims + i]);
      continue;
    }
    RuntimeVar rt = std::move(domain.runtime[i]);
    rt.feasible_values = *domain.bounds[num_dims + i];
    if (!rt.access) {
      rt.access = EmptyMap(num_dims, 0);
    } else if (static_cast<int>(rt.access.getNumDims()) != num_dims) {
      return Error(text_.size(),
                   absl::StrCat("access map of '", names_->NameAt(num_dims + i),
                                "' must have ", num_dims, " dims"));
    } else if (static_cast<int>(rt.access.getNumSymbols()) > num_symbols) {
      return Error(text_.size(),
                   absl::StrCat("access map of '", names_->NameAt(num_dims + i),
                                "' declares ", rt.access.getNumSymbols(),
                                " symbols but the map has ", num_symbols));
    }
    runtime_vars.push_back(std::move(rt));
  }
  for (IndexingConstraint& c : domain.constraints) {
    XI_ASSIGN_OR_RETURN(c.expr, remap(c.expr));
  }
  IndexingMap map(AffineMap::get(num_dims, num_symbols,
                                 identity ? results : remapped, ctx_),
                  std::move(dim_bounds), std::move(range_bounds),
                  std::move(runtime_vars), {});
  map.AddConstraints(domain.constraints);
  return map;
}

}  // namespace

absl::StatusOr<IndexingMap> ParseIndexingMap(absl::string_view text,
                                             mlir::MLIRContext* context) {
  MapParser parser(text, context);
  return parser.ParseMap();
}

absl::StatusOr<AffineExpr> ParseAffineExpr(
    absl::string_view text, const std::vector<std::string>& dim_names,
    const std::vector<std::string>& symbol_names, mlir::MLIRContext* context) {
  MapParser parser(text, context);
  return parser.ParseStandaloneExpr(dim_names, symbol_names);
}

absl::StatusOr<AffineMap> ParseAffineMap(absl::string_view text,
                                         mlir::MLIRContext* context) {
  MapParser parser(text, context);
  auto map = parser.ParseBareAffineMap();
  return map;
}

}  // namespace xla_index
