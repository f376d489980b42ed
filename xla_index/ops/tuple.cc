// tuple and get-tuple-element: both directions (examples in the style of
// XLA's indexing-analysis documentation, which has none for them).
//
// tuple: output k is operand k, read at the same index; the other operands
// are not read for output k (empty sets), and operand k feeds no other
// output.
//   t = (f32[2, 3], f32[4]) tuple(f32[2, 3] p0, f32[4] p1)
//   output to input, output 1:  p0: {},  p1: (d0) -> (d0), d0 in [0, 3]
//   input to output, operand 0: output 0: (d0, d1) -> (d0, d1),
//                               d0 in [0, 1], d1 in [0, 2];  output 1: {}
//
// get-tuple-element: the identity on the element's shape (which element of
// the tuple is read is `tuple_index`; fusion composition follows it).
//   g = f32[4] get-tuple-element(t), index=1
//   both directions: (d0) -> (d0), d0 in [0, 3]

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "hlo/shape.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/rule_helpers.h"

namespace xla_index {
namespace {

// The map between output k and operand k: the identity on their shape
// (Undefined for a nested tuple). XLA's parser takes a tuple's written
// shape as written (HloParserImpl::ParseInstructionRhs, kTuple), so element
// k may differ from operand k; then no map is right.
IndexingMap ElementMap(const HloInstruction* tuple, int64_t k,
                       mlir::MLIRContext* context) {
  const Shape& operand = tuple->operand(k)->shape();
  const Shape& element = tuple->shape().tuple_shapes()[k];
  if (!operand.IsArray()) {
    return IndexingMap::Undefined("nested tuples are not supported");
  }
  if (!element.IsArray() || element.dimensions() != operand.dimensions()) {
    return IndexingMap::Undefined(absl::StrCat(
        "element ", k, " of tuple '", tuple->name(), "' is written ",
        element.ToString(false), " but its operand '",
        tuple->operand(k)->name(), "' is ", operand.ToString(false)));
  }
  return CreateIdentityMap(operand, context);
}

// Only the set of `id` holds a map: ElementMap of element `id`.
HloInstructionIndexing OnlyEntry(const HloInstruction* tuple, int64_t id,
                                 mlir::MLIRContext* context) {
  HloInstructionIndexing indexing;
  indexing.indexing_maps.resize(tuple->operand_count());
  indexing.indexing_maps[id].Insert(ElementMap(tuple, id, context));
  return indexing;
}

}  // namespace

bool IsValidTuple(const HloInstruction* tuple) {
  return tuple->shape().IsTuple() &&
         static_cast<int64_t>(tuple->shape().tuple_shapes().size()) ==
             tuple->operand_count();
}

HloInstructionIndexing ComputeOutputToInputTupleIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context) {
  if (!IsValidTuple(instruction))
    return AttributesDoNotFitEachOperand(instruction);
  return OnlyEntry(instruction, output_id, context);
}

HloInstructionIndexing ComputeInputToOutputTupleIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  if (!IsValidTuple(instruction))
    return AttributesDoNotFitEachOutput(instruction);
  return OnlyEntry(instruction, input_id, context);
}

HloInstructionIndexing ComputeTupleIndexingOfAllOutputs(
    const HloInstruction* instruction, mlir::MLIRContext* context) {
  if (!IsValidTuple(instruction))
    return AttributesDoNotFitEachOperand(instruction);
  HloInstructionIndexing indexing;
  indexing.indexing_maps.resize(instruction->operand_count());
  for (int64_t k = 0; k < instruction->operand_count(); ++k) {
    indexing.indexing_maps[k].Insert(ElementMap(instruction, k, context));
  }
  return indexing;
}

HloInstructionIndexing ComputeOutputToInputGetTupleElementIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  if (!instruction->shape().IsArray() || instruction->operand_count() != 1) {
    return AttributesDoNotFitEachOperand(instruction);
  }
  return OneMap(CreateIdentityMap(instruction->shape(), context));
}

HloInstructionIndexing ComputeInputToOutputGetTupleElementIndexing(
    const HloInstruction* instruction, int64_t /*input_id*/,
    mlir::MLIRContext* context) {
  if (!instruction->shape().IsArray()) {
    return AttributesDoNotFitEachOutput(instruction);
  }
  return OneMap(CreateIdentityMap(instruction->shape(), context));
}

}  // namespace xla_index
