#ifndef XLA_INDEX_HLO_SHAPE_INFERENCE_H_
#define XLA_INDEX_HLO_SHAPE_INFERENCE_H_

// The result shape of an instruction from its operands' shapes and its
// attributes, following XLA's operation-semantics documentation. Along
// the way every constraint it states is checked (operand counts, ranks,
// dimension numbers in range and distinct, slice bounds, padding, gather /
// scatter / dot / convolution dimension numbers), so inference doubles as
// the per-instruction verifier.

#include "absl/status/statusor.h"
#include "hlo/instruction.h"
#include "hlo/shape.h"

namespace xla_index {

/// The shape `instruction` must have. Errors explain what is wrong, without
/// the instruction's name (callers add it). Parameters, constants, iota and
/// unknown ops have no inferred shape: their written shape is returned, or
/// an error if there is none. Layouts are not inferred.
absl::StatusOr<Shape> InferShape(const HloInstruction& instruction);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_SHAPE_INFERENCE_H_
