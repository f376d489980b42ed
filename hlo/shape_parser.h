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
/// `allow_unbounded` admits XLA's unbounded dimension `?` (kept as
/// Shape::kUnboundedSize), which only the module parser reads.
absl::StatusOr<Shape> ParseShapeAtCursor(TextCursor& cursor,
                                         bool allow_unbounded = false);

/// True when the text at the cursor (after spaces) starts a shape: '(' or
/// an element type name followed by '['. Does not move the cursor.
bool LooksLikeShape(TextCursor& cursor);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_SHAPE_PARSER_H_
