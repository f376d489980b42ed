#ifndef XLA_INDEX_HLO_EVALUATOR_H_
#define XLA_INDEX_HLO_EVALUATOR_H_

// A reference interpreter for HLO on small literals, written straight from
// the operation-semantics seed (003) and with no use of indexing maps, so
// that it can serve as the independent oracle for the indexing rules.
//
// With tracing, each output element also records the set of input elements
// that the definition of that element (XLA's operation-semantics
// documentation) reads: for an instruction, the
// elements of its operands; for a computation (a fusion), the elements of
// its parameters, through every instruction in between. Where an op picks
// between inputs the trace follows the data: a pad output reads the padding
// value only at padding positions, a dynamic-update-slice output reads the
// update inside the updated window and the operand outside it, and a
// concatenate output reads one operand. (XLA's indexing maps may claim more,
// e.g. the padding value for every output element: oracle tests compare
// "traced within map" there and equality where maps are exact.)

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlo/literal.h"
#include "hlo/module.h"

namespace xla_index {

/// An element of an input: operand (or parameter) number, the tuple element
/// (0 for arrays) and the row-major linear index within it.
struct ElementId {
  int64_t operand = 0;
  int64_t tuple_index = 0;
  int64_t linear_index = 0;

  bool operator==(const ElementId& o) const {
    return operand == o.operand && tuple_index == o.tuple_index &&
           linear_index == o.linear_index;
  }
  bool operator<(const ElementId& o) const {
    if (operand != o.operand) return operand < o.operand;
    if (tuple_index != o.tuple_index) return tuple_index < o.tuple_index;
    return linear_index < o.linear_index;
  }
};

/// Sorted, without duplicates.
using ReadSet = std::vector<ElementId>;

/// A value with, for output tuple element t and linear index i,
/// reads[t][i] = the input elements that output element reads (an array
/// result has a single t = 0).
struct TracedValue {
  Literal value;
  std::vector<std::vector<ReadSet>> reads;
};

/// Largest array the evaluator creates; larger ones are an error, not an
/// out-of-memory.
inline constexpr int64_t kMaxEvaluatedElements = int64_t{1} << 22;

/// Evaluates one instruction on the given operand values (one literal per
/// operand, of the operands' shapes). Fusion, call, reduce, map, sort,
/// scatter and reduce-window evaluate their called computations.
absl::StatusOr<Literal> EvaluateInstruction(const HloInstruction& instruction,
                                            absl::Span<const Literal> operands);

/// EvaluateInstruction plus reads: ElementId::operand is the operand
/// number. For fusion and call the reads go through the called computation
/// down to its parameters (= the operands).
absl::StatusOr<TracedValue> TraceInstruction(
    const HloInstruction& instruction, absl::Span<const Literal> operands);

/// Evaluates `computation` on one literal per parameter (by number).
absl::StatusOr<Literal> EvaluateComputation(
    const HloComputation& computation, absl::Span<const Literal> arguments);

/// EvaluateComputation plus, for each element of the root, the parameter
/// elements it depends on (ElementId::operand = parameter number).
absl::StatusOr<TracedValue> TraceComputation(
    const HloComputation& computation, absl::Span<const Literal> arguments);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_EVALUATOR_H_
