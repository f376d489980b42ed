#ifndef XLA_INDEX_HLO_SHAPE_PARSER_H_
#define XLA_INDEX_HLO_SHAPE_PARSER_H_

// The shape grammar, usable in the middle of a larger text (the module
// parser reads result and operand shapes with it). The public entry for a
// whole string is ParseShape in hlo/shape.h.

#include "absl/status/statusor.h"
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

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_SHAPE_PARSER_H_
