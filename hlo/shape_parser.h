#ifndef XLA_INDEX_HLO_SHAPE_PARSER_H_
#define XLA_INDEX_HLO_SHAPE_PARSER_H_

// The shape grammar, usable in the middle of a larger text (the module
// parser reads result and operand shapes with it). The public entry for a
// whole string is ParseShape in hlo/shape.h.

#include <memory>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlo/shape.h"
#include "hlo/text_cursor.h"

namespace xla_index {

/// Reads one shape at the cursor:
///   shape  := '(' [shape (',' shape)*] ')' | type '[' dims ']' ['{' layout
///   '}'] dims   := [['<='] int (',' ['<='] int)*] layout := [int (',' int)*]
///   [':' (D(..) | T(..)(..).. | L(n) | #(type) |
///             *(type) | E(n) | S(n) | SC(d:i,..).. | P(shape) | M(n))*]
/// On error the cursor position is unspecified.
/// `module_syntax` is for shapes in module text: XLA's unbounded dimension
/// `?` is read (kept as Shape::kUnboundedSize) and an array whose size in
/// bytes overflows int64 is refused.
absl::StatusOr<Shape> ParseShapeAtCursor(TextCursor& cursor,
                                         bool module_syntax = false);

/// True when the text at the cursor (after spaces) starts a shape: '(' or
/// an element type name followed by '['. Does not move the cursor.
bool LooksLikeShape(TextCursor& cursor);

/// Reads the shapes of one module text, parsing each distinct spelling once:
/// a module repeats a handful of shapes (`f32[256,1024]{1,0}`) thousands of
/// times, and every instruction written with the same spelling shares one
/// Shape. Reading a spelling seen before costs a scan and a hash lookup.
/// The text must outlive the interner (its keys view the text).
class ShapeInterner {
 public:
  /// The shape at the cursor, as ParseShapeAtCursor(cursor, true) reads it.
  absl::StatusOr<std::shared_ptr<const Shape>> Parse(TextCursor& cursor);
  /// Parse when a shape follows (LooksLikeShape), else null with the
  /// cursor left in place.
  absl::StatusOr<std::shared_ptr<const Shape>> ParseIfShape(TextCursor& cursor);

 private:
  // The shape read earlier from the spelling at `start`, moving the cursor
  // past it; null when there is none.
  std::shared_ptr<const Shape> Lookup(TextCursor& cursor, const char* start);

  absl::flat_hash_map<absl::string_view, std::shared_ptr<const Shape>>
      by_spelling_;
};

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_SHAPE_PARSER_H_
