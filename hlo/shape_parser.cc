#include "hlo/shape_parser.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "hlo/primitive_type.h"
#include "hlo/shape.h"
#include "hlo/text_cursor.h"

namespace xla_index {
namespace {

// Deep tuples are legal but a hostile input must not overflow the stack.
constexpr int kMaxTupleNesting = 64;
// Literals and printers recurse once per dimension; real ranks are small.
constexpr size_t kMaxRank = 256;

absl::StatusOr<PrimitiveType> ParseElementType(TextCursor& cursor) {
  cursor.SkipSpace();
  const char* start = cursor.pos();
  absl::string_view word = cursor.ParseWord();
  std::optional<PrimitiveType> type = PrimitiveTypeFromName(word);
  if (!type.has_value()) {
    cursor.set_pos(start);
    return cursor.ErrorAt(
        start, absl::StrCat("expected an element type (f32, bf16, s32, ...), "
                            "found ",
                            DescribeNext(cursor)));
  }
  return *type;
}

absl::StatusOr<int64_t> ParsePositiveInLayout(TextCursor& cursor,
                                              absl::string_view what) {
  cursor.SkipSpace();
  const char* start = cursor.pos();
  XI_ASSIGN_OR_RETURN(int64_t value, cursor.ParseInt(what));
  if (value < 0) {
    return cursor.ErrorAt(start, absl::StrCat(what, " must not be negative"));
  }
  return value;
}

// Reads `(n)` after a one-letter layout attribute.
absl::StatusOr<int64_t> ParseParenthesizedInt(TextCursor& cursor,
                                              absl::string_view what) {
  XI_RETURN_IF_ERROR(cursor.Expect('(', absl::StrCat("after ", what)));
  XI_ASSIGN_OR_RETURN(int64_t value, ParsePositiveInLayout(cursor, what));
  XI_RETURN_IF_ERROR(cursor.Expect(')', absl::StrCat("to close ", what)));
  return value;
}

absl::StatusOr<Tile> ParseTile(TextCursor& cursor) {
  Tile tile;
  XI_RETURN_IF_ERROR(cursor.Expect('(', "to open a tile"));
  if (cursor.TryConsume(')')) return tile;
  do {
    if (cursor.TryConsume('*')) {
      tile.dimensions.push_back(Tile::kCombined);
      continue;
    }
    cursor.SkipSpace();
    const char* start = cursor.pos();
    XI_ASSIGN_OR_RETURN(int64_t size, cursor.ParseInt("tile size"));
    if (size <= 0) {
      return cursor.ErrorAt(start, "tile sizes must be positive (or '*')");
    }
    tile.dimensions.push_back(size);
  } while (cursor.TryConsume(','));
  XI_RETURN_IF_ERROR(cursor.Expect(')', "or ',' in tile"));
  return tile;
}

// A level type other than dense (D) makes a layout sparse.
bool HasSparseLevel(const Layout& layout) {
  for (const std::string& level : layout.dim_level_types) {
    if (level.empty() || level[0] != 'D') return true;
  }
  return false;
}

absl::Status ParseLayoutAttributes(TextCursor& cursor, Layout& layout,
                                   int depth);

absl::StatusOr<Layout> ParseLayout(TextCursor& cursor, int64_t rank,
                                   int depth) {
  Layout layout;
  cursor.SkipSpace();
  const char* start = cursor.pos();
  if (cursor.Peek() != ':' && cursor.Peek() != '}') {
    do {
      XI_ASSIGN_OR_RETURN(int64_t dim, ParsePositiveInLayout(
                                           cursor, "minor_to_major dimension"));
      layout.minor_to_major.push_back(dim);
    } while (cursor.TryConsume(','));
  }
  // minor_to_major must be a permutation of 0..rank-1.
  std::vector<bool> seen(rank, false);
  bool valid = static_cast<int64_t>(layout.minor_to_major.size()) == rank;
  for (int64_t d : layout.minor_to_major) {
    if (!valid || d >= rank || seen[d]) {
      valid = false;
      break;
    }
    seen[d] = true;
  }
  if (!valid) {
    return cursor.ErrorAt(
        start, absl::StrCat("layout minor_to_major must be a permutation of "
                            "the ",
                            rank, " dimension numbers"));
  }
  if (cursor.TryConsume(':')) {
    XI_RETURN_IF_ERROR(ParseLayoutAttributes(cursor, layout, depth));
  }
  return layout;
}

absl::StatusOr<Shape> ParseShapeImpl(TextCursor& cursor, int depth,
                                     bool module_syntax = false);

// The size of the array must be representable: its element count fits in
// int64 and, in module text (`check_bytes`), so does its size in bytes (one
// byte at least per element, sub-byte types unpacked), as XLA's shape
// validation requires, so no later stage computes with a wrapped size. A
// shape read alone (ParseShape) is left to the layout code, which checks
// its size in bits with the layout's element size.
absl::Status CheckArraySize(TextCursor& cursor, const char* start,
                            PrimitiveType type, absl::Span<const int64_t> dims,
                            bool check_bytes) {
  // An unbounded `?` dimension has no size to count.
  std::vector<int64_t> sizes;
  for (int64_t d : dims) {
    if (d != Shape::kUnboundedSize) sizes.push_back(d);
  }
  std::optional<int64_t> count = CheckedProduct(sizes);
  if (!count.has_value()) {
    return cursor.ErrorAt(start, "shape has more elements than fit in 64 bits");
  }
  if (!check_bytes) return absl::OkStatus();
  if (!CheckedMul(*count, std::max<int64_t>(1, ByteSize(type))).has_value()) {
    return cursor.ErrorAt(
        start, absl::StrCat(*count, " elements of ", BitWidth(type),
                            " bits overflow int64 as a size in bytes"));
  }
  return absl::OkStatus();
}

bool IsPlainSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

// Whether the '{' at `brace`, which follows an array's dimensions after
// spaces, opens a layout rather than something else: a computation body in
// `(p: f32[]) -> f32[] {`, a literal in `literal=s32[2] {1, 2}`. It does
// when it holds what a layout starts with (a dimension number, ':' or '}')
// on one line, without '=' or '{', and either has no space up to its '}'
// (as XLA prints layouts) or, written with spaces as in `f32[2, 3] {1, 0}`,
// is followed by a word (the opcode), which no literal is.
bool SpacedBraceOpensLayout(const char* brace, const char* end) {
  if (brace >= end || *brace != '{') return false;
  const char* p = brace + 1;
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  if (p >= end || !((*p >= '0' && *p <= '9') || *p == ':' || *p == '}')) {
    return false;
  }
  bool spaced = p != brace + 1;
  for (; p < end && *p != '}'; ++p) {
    if (*p == '{' || *p == '=' || *p == '\n' || *p == '"') return false;
    spaced = spaced || IsPlainSpace(*p);
  }
  if (p >= end) return false;
  if (!spaced) return true;
  for (++p; p < end && (*p == ' ' || *p == '\t'); ++p) {
  }
  return p < end && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'));
}

// A layout follows the dimensions: `f32[2,3]{1,0}`, also after spaces
// (`f32[2,3] {1,0}`) when SpacedBraceOpensLayout.
bool LayoutFollows(TextCursor& cursor) {
  if (cursor.PeekRaw() == '{') return true;
  const char* start = cursor.pos();
  cursor.SkipSpace();
  const char* brace = cursor.pos();
  cursor.set_pos(start);
  return SpacedBraceOpensLayout(brace, cursor.end());
}

// Where the shape spelled at `p` ends, found by a scan without parsing, or
// null when the scan cannot be sure: `(...)` and `b(...)` end at the
// matching ')', an array `type[...]` at its ']' or at the first '}' of the
// layout that follows (as LayoutFollows decides). A comment between the
// dimensions and a possible layout makes it unsure. When the scan is wrong
// (a '}' nested in a layout, say), the parse ends elsewhere and the
// spelling is simply not interned.
const char* ShapeSpellingEnd(const char* p, const char* end) {
  if (p < end && (*p == '(' || (*p == 'b' && p + 1 < end && p[1] == '('))) {
    int64_t depth = 0;
    for (const char* q = p; q < end; ++q) {
      if (*q == '(') ++depth;
      if (*q == ')' && --depth == 0) return q + 1;
    }
    return nullptr;
  }
  const char* q = p;
  while (q < end && TextCursor::IsNameChar(*q)) ++q;
  if (q == p || q >= end || *q != '[') return nullptr;
  while (q < end && *q != ']') ++q;
  if (q >= end) return nullptr;
  const char* after = ++q;
  while (q < end && IsPlainSpace(*q)) ++q;
  bool layout =
      q == after ? (q < end && *q == '{') : SpacedBraceOpensLayout(q, end);
  if (!layout) {
    bool comment = q + 1 < end && q[0] == '/' && (q[1] == '/' || q[1] == '*');
    return comment ? nullptr : after;
  }
  while (q < end && *q != '}') ++q;
  return q < end ? q + 1 : nullptr;
}

absl::Status ParseLayoutAttributes(TextCursor& cursor, Layout& layout,
                                   int depth) {
  while (true) {
    char c = cursor.Peek();
    const char* start = cursor.pos();
    if (c == '}' || c == '\0') return absl::OkStatus();
    if (cursor.TryConsume("SC")) {
      if (cursor.Peek() != '(') {
        return cursor.Error("expected '(' after SC");
      }
      while (cursor.TryConsume('(')) {
        SplitConfig config;
        XI_ASSIGN_OR_RETURN(int64_t dim,
                            ParsePositiveInLayout(cursor, "split dimension"));
        config.dimension = dim;
        XI_RETURN_IF_ERROR(cursor.Expect(':', "in split config"));
        do {
          XI_ASSIGN_OR_RETURN(int64_t index,
                              ParsePositiveInLayout(cursor, "split index"));
          config.split_indices.push_back(index);
        } while (cursor.TryConsume(','));
        XI_RETURN_IF_ERROR(cursor.Expect(')', "to close split config"));
        layout.split_configs.push_back(std::move(config));
      }
    } else if (cursor.TryConsume('D')) {
      XI_RETURN_IF_ERROR(cursor.Expect('(', "after D"));
      if (!cursor.TryConsume(')')) {
        do {
          cursor.SkipSpace();
          const char* level_start = cursor.pos();
          std::string level(cursor.ParseWord());
          if (level != "D" && level != "C" && level != "S" && level != "H") {
            return cursor.ErrorAt(level_start,
                                  "expected a level type D, C, S or H");
          }
          while (cursor.PeekRaw() == '+' || cursor.PeekRaw() == '~') {
            level += cursor.PeekRaw();
            cursor.set_pos(cursor.pos() + 1);
          }
          layout.dim_level_types.push_back(std::move(level));
        } while (cursor.TryConsume(','));
        XI_RETURN_IF_ERROR(cursor.Expect(')', "to close D(...)"));
      }
    } else if (cursor.TryConsume('T')) {
      if (cursor.Peek() != '(') return cursor.Error("expected '(' after T");
      while (cursor.Peek() == '(') {
        XI_ASSIGN_OR_RETURN(Tile tile, ParseTile(cursor));
        layout.tiles.push_back(std::move(tile));
      }
    } else if (cursor.TryConsume('L')) {
      XI_ASSIGN_OR_RETURN(int64_t n, ParseParenthesizedInt(
                                         cursor, "L(tail padding alignment)"));
      if (n == 0) return cursor.ErrorAt(start, "L(n) needs n >= 1");
      layout.tail_padding_alignment_in_elements = n;
    } else if (cursor.TryConsume('E')) {
      XI_ASSIGN_OR_RETURN(
          int64_t n, ParseParenthesizedInt(cursor, "E(element size in bits)"));
      layout.element_size_in_bits = n;
    } else if (cursor.TryConsume('S')) {
      XI_ASSIGN_OR_RETURN(int64_t n,
                          ParseParenthesizedInt(cursor, "S(memory space)"));
      layout.memory_space = n;
    } else if (cursor.TryConsume('M')) {
      XI_ASSIGN_OR_RETURN(
          int64_t n,
          ParseParenthesizedInt(cursor, "M(dynamic shape metadata bytes)"));
      layout.dynamic_shape_metadata_prefix_bytes = n;
    } else if (c == '#' || c == '*') {
      cursor.set_pos(cursor.pos() + 1);
      XI_RETURN_IF_ERROR(cursor.Expect('(', "after # or *"));
      XI_ASSIGN_OR_RETURN(PrimitiveType type, ParseElementType(cursor));
      XI_RETURN_IF_ERROR(cursor.Expect(')', "to close the type"));
      (c == '#' ? layout.index_primitive_type : layout.pointer_primitive_type) =
          type;
    } else if (cursor.TryConsume('P')) {
      XI_RETURN_IF_ERROR(cursor.Expect('(', "after P"));
      XI_ASSIGN_OR_RETURN(Shape physical, ParseShapeImpl(cursor, depth + 1));
      XI_RETURN_IF_ERROR(cursor.Expect(')', "to close P(shape)"));
      layout.physical_shape = std::make_shared<const Shape>(physical);
    } else {
      return cursor.Error(absl::StrCat(
          "expected a layout attribute (T, L, E, S, D, SC, P, M, #, *) or "
          "'}', found ",
          DescribeNext(cursor)));
    }
  }
}

absl::StatusOr<Shape> ParseShapeImpl(TextCursor& cursor, int depth,
                                     bool module_syntax) {
  if (depth > kMaxTupleNesting) {
    return cursor.Error("shape nesting is too deep");
  }
  cursor.SkipSpace();
  const char* start = cursor.pos();
  if (cursor.TryConsume('(')) {
    std::vector<Shape> elements;
    if (!cursor.TryConsume(')')) {
      do {
        XI_ASSIGN_OR_RETURN(Shape element,
                            ParseShapeImpl(cursor, depth + 1, module_syntax));
        elements.push_back(std::move(element));
      } while (cursor.TryConsume(','));
      XI_RETURN_IF_ERROR(cursor.Expect(')', "or ',' in tuple shape"));
    }
    return Shape::MakeTuple(std::move(elements));
  }
  if (cursor.TryConsume("b(")) {
    // `b(f32[8])`: XLA's buffer shape, which holds one array.
    XI_ASSIGN_OR_RETURN(Shape array,
                        ParseShapeImpl(cursor, depth + 1, module_syntax));
    if (!array.IsArray() || array.is_buffer()) {
      return cursor.ErrorAt(start, "a buffer shape b(...) holds an array");
    }
    XI_RETURN_IF_ERROR(cursor.Expect(')', "to close the buffer shape"));
    array.set_buffer(true);
    return array;
  }
  XI_ASSIGN_OR_RETURN(PrimitiveType type, ParseElementType(cursor));
  XI_RETURN_IF_ERROR(cursor.Expect('[', "after the element type"));
  std::vector<int64_t> dims;
  std::vector<bool> dynamic;
  if (!cursor.TryConsume(']')) {
    do {
      cursor.SkipSpace();
      const char* dim_start = cursor.pos();
      bool is_dynamic = cursor.TryConsume("<=");
      if (cursor.Peek() == '?') {
        if (is_dynamic || !module_syntax) {
          return cursor.Error(
              "unbounded dynamic dimensions '?' are not "
              "supported");
        }
        cursor.TryConsume('?');
        dims.push_back(Shape::kUnboundedSize);
        dynamic.push_back(true);
      } else {
        cursor.SkipSpace();
        if (cursor.PeekRaw() == '-') {
          return cursor.ErrorAt(dim_start,
                                "dimension sizes must not be negative");
        }
        XI_ASSIGN_OR_RETURN(int64_t size, cursor.ParseInt("dimension size"));
        dims.push_back(size);
        dynamic.push_back(is_dynamic);
      }
      if (dims.size() > kMaxRank) {
        return cursor.ErrorAt(start, absl::StrCat("shape has more than ",
                                                  kMaxRank, " dimensions"));
      }
    } while (cursor.TryConsume(','));
    XI_RETURN_IF_ERROR(cursor.Expect(']', "or ',' in dimension list"));
  }
  if (type == PrimitiveType::kToken || type == PrimitiveType::kOpaque) {
    if (!dims.empty()) {
      return cursor.ErrorAt(start,
                            "token and opaque shapes have no "
                            "dimensions");
    }
    Shape shape;
    shape = type == PrimitiveType::kToken ? Shape::MakeToken() : Shape();
    if (type == PrimitiveType::kOpaque) {
      shape.set_element_type(PrimitiveType::kOpaque);
    }
    return shape;
  }
  XI_RETURN_IF_ERROR(CheckArraySize(cursor, start, type, dims, module_syntax));
  Shape shape(type, std::move(dims));
  for (size_t i = 0; i < dynamic.size(); ++i) {
    shape.set_dynamic_dimension(i, dynamic[i]);
  }
  if (LayoutFollows(cursor)) {
    cursor.SkipSpace();
    cursor.set_pos(cursor.pos() + 1);
    XI_ASSIGN_OR_RETURN(Layout layout,
                        ParseLayout(cursor, shape.rank(), depth));
    XI_RETURN_IF_ERROR(cursor.Expect('}', "to close the layout"));
    if (module_syntax && layout.physical_shape != nullptr &&
        !HasSparseLevel(layout)) {
      // LayoutUtil::ValidateLayoutForShape, which XLA's parser runs: only
      // a sparse layout has a physical shape. (ParseShape leaves this to
      // the layout library, which names every such attribute.)
      return cursor.ErrorAt(start,
                            "the layout has a physical shape P(...) but is "
                            "not for a sparse array");
    }
    shape.set_layout(std::move(layout));
  }
  return shape;
}

}  // namespace

absl::StatusOr<Shape> ParseShapeAtCursor(TextCursor& cursor,
                                         bool module_syntax) {
  return ParseShapeImpl(cursor, 0, module_syntax);
}

bool LooksLikeShape(TextCursor& cursor) {
  cursor.SkipSpace();
  const char* start = cursor.pos();
  if (cursor.PeekRaw() == '(') return true;
  absl::string_view word = cursor.ParseWord();
  if (word == "b" && cursor.PeekRaw() == '(') {
    cursor.set_pos(start);
    return true;
  }
  // XLA's lexer skips spaces between tokens, and element type names are
  // reserved words there, so `s32 [4,2]` is a shape too.
  bool result = !word.empty() && PrimitiveTypeFromName(word).has_value() &&
                (cursor.PeekRaw() == '[' || cursor.Peek() == '[');
  cursor.set_pos(start);
  return result;
}

std::shared_ptr<const Shape> ShapeInterner::Lookup(TextCursor& cursor,
                                                   const char* start) {
  const char* spelling_end = ShapeSpellingEnd(start, cursor.end());
  if (spelling_end == nullptr) return nullptr;
  auto it = by_spelling_.find(absl::string_view(start, spelling_end - start));
  if (it == by_spelling_.end()) return nullptr;
  cursor.set_pos(spelling_end);
  return it->second;
}

absl::StatusOr<std::shared_ptr<const Shape>> ShapeInterner::Parse(
    TextCursor& cursor) {
  cursor.SkipSpace();
  const char* start = cursor.pos();
  if (std::shared_ptr<const Shape> seen = Lookup(cursor, start)) return seen;
  XI_ASSIGN_OR_RETURN(Shape parsed, ParseShapeAtCursor(cursor, true));
  auto shape = std::make_shared<const Shape>(std::move(parsed));
  // Parsing depends only on the spelling and on the layout decision the
  // scan makes the same way, so an exact match may be reused.
  if (ShapeSpellingEnd(start, cursor.end()) == cursor.pos()) {
    by_spelling_.emplace(absl::string_view(start, cursor.pos() - start), shape);
  }
  return shape;
}

absl::StatusOr<std::shared_ptr<const Shape>> ShapeInterner::ParseIfShape(
    TextCursor& cursor) {
  cursor.SkipSpace();
  if (std::shared_ptr<const Shape> seen = Lookup(cursor, cursor.pos())) {
    return seen;
  }
  if (!LooksLikeShape(cursor)) return std::shared_ptr<const Shape>();
  return Parse(cursor);
}

absl::StatusOr<Shape> ParseShape(absl::string_view text) {
  TextCursor cursor(text);
  XI_ASSIGN_OR_RETURN(Shape shape, ParseShapeAtCursor(cursor));
  if (!cursor.AtEnd()) {
    return cursor.Error(
        absl::StrCat("unexpected ", DescribeNext(cursor), " after the shape"));
  }
  return shape;
}

}  // namespace xla_index
