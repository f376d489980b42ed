// reshape and bitcast: both directions, and the shape-only reshape and
// bitcast maps (shape_maps.h) they are built from.
//
// reshape, the examples of XLA's indexing-analysis documentation,
// "Reshape" (see ComputeReshapeAffineMap in shape_maps.h for the
// decomposition into minimal groups):
//   f32[4,8] -> f32[32] (collapse):
//     output to input: (d0) -> (d0 floordiv 8, d0 mod 8)
//     input to output: (d0, d1) -> (d0 * 8 + d1)
//   f32[32] -> f32[4, 8] (expand): the same two maps, swapped
//   f32[4,8] -> f32[2, 4, 4] (generic):
//     output to input: (d0, d1, d2) -> (d0 * 2 + d1 floordiv 2,
//                                        d2 + (d1 mod 2) * 4)
//     input to output: (d0, d1) -> (d0 floordiv 2,
//                                   d1 floordiv 4 + (d0 mod 2) * 2, d1 mod 4)
// Input to output is the output-to-input rule with the shapes swapped.
//
// bitcast: transpose, reshape, transpose by the layouts, as the
// documentation's "Bitcast" describes (see ComputeBitcastIndexingMap). In
// its style: f32[3, 6]{0, 1} -> f32[6, 3]{1, 0} is the transpose
// (d0, d1) -> (d1, d0); with default layouts a bitcast is a reshape.
// Input to output swaps the shapes.

#include <cassert>
#include <cstdint>
#include <optional>
#include <vector>

#include "base/checked_arithmetic.h"
#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/rule_helpers.h"
#include "xla_index/ops/shape_maps.h"

namespace xla_index {
namespace {

using mlir::AffineExpr;

// Row-major strides of `dims`: stride_k = dims[k+1] * ... * dims[n-1].
// Each is a partial element count, so it fits when the count does (the
// callers' precondition, see shape_maps.h).
std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int64_t k = static_cast<int64_t>(dims.size()) - 2; k >= 0; --k) {
    std::optional<int64_t> stride = CheckedMul(strides[k + 1], dims[k + 1]);
    assert(stride.has_value() &&
           "LinearizeIndex/DelinearizeIndex: the element count of the dims "
           "must fit in int64");
    strides[k] = stride.value_or(0);
  }
  return strides;
}

// The element count, or -1 on overflow (or a negative size). A zero size
// makes 0 whatever the others are.
int64_t Product(absl::Span<const int64_t> dims) {
  for (int64_t d : dims) {
    if (d < 0) return -1;
  }
  for (int64_t d : dims) {
    if (d == 0) return 0;
  }
  return CheckedProduct(dims).value_or(-1);
}

// Appends the input exprs of one minimal reshape group (see the header).
void AppendMinimalReshapeExprs(absl::Span<const int64_t> input_group,
                               absl::Span<const int64_t> output_group,
                               absl::Span<const AffineExpr> output_exprs,
                               std::vector<AffineExpr>& input_exprs,
                               mlir::MLIRContext* context) {
  if (input_group.size() == 1 && output_group.size() == 1) {
    input_exprs.push_back(output_exprs[0]);  // Unchanged dimension.
    return;
  }
  AffineExpr linear = LinearizeIndex(output_group, output_exprs, context);
  if (input_group.size() == 1) {
    input_exprs.push_back(linear);  // Expand.
    return;
  }
  // Collapse (one output dim: `linear` is that dim) or generic.
  for (AffineExpr e : DelinearizeIndex(input_group, linear, context)) {
    input_exprs.push_back(e);
  }
}

// Layout minor_to_major of `shape`, or the default {n-1, ..., 0}; empty
// optional when it is not a permutation of the dimensions.
std::optional<std::vector<int64_t>> MajorToMinor(const Shape& shape) {
  int64_t rank = shape.rank();
  std::vector<int64_t> major_to_minor;
  if (!shape.has_layout() || shape.layout().minor_to_major.empty()) {
    for (int64_t i = 0; i < rank; ++i) major_to_minor.push_back(i);
    return major_to_minor;
  }
  const std::vector<int64_t>& m2m = shape.layout().minor_to_major;
  if (static_cast<int64_t>(m2m.size()) != rank) return std::nullopt;
  std::vector<bool> seen(rank, false);
  for (int64_t d : m2m) {
    if (d < 0 || d >= rank || seen[d]) return std::nullopt;
    seen[d] = true;
  }
  major_to_minor.assign(m2m.rbegin(), m2m.rend());
  return major_to_minor;
}

}  // namespace

AffineExpr LinearizeIndex(absl::Span<const int64_t> dims,
                          absl::Span<const AffineExpr> exprs,
                          mlir::MLIRContext* context) {
  std::vector<int64_t> strides = RowMajorStrides(dims);
  AffineExpr linear;
  for (size_t k = 0; k < dims.size(); ++k) {
    AffineExpr term = strides[k] == 1 ? exprs[k] : exprs[k] * strides[k];
    linear = linear ? linear + term : term;
  }
  return linear ? linear : mlir::getAffineConstantExpr(0, context);
}

std::vector<AffineExpr> DelinearizeIndex(absl::Span<const int64_t> dims,
                                         AffineExpr linear,
                                         mlir::MLIRContext* context) {
  std::vector<int64_t> strides = RowMajorStrides(dims);
  std::vector<AffineExpr> multi_index;
  for (size_t k = 0; k < dims.size(); ++k) {
    // The index is below prod(dims), so component 0 needs no `mod`.
    AffineExpr remainder = k == 0 ? linear : linear % strides[k - 1];
    multi_index.push_back(strides[k] == 1 ? remainder
                                          : remainder.floorDiv(strides[k]));
  }
  return multi_index;
}

mlir::AffineMap ComputeReshapeAffineMap(absl::Span<const int64_t> input_dims,
                                        absl::Span<const int64_t> output_dims,
                                        mlir::MLIRContext* context) {
  const size_t in_rank = input_dims.size(), out_rank = output_dims.size();
  std::vector<AffineExpr> input_exprs;
  // Zero elements (or an element count that overflows, which callers
  // reject): every index maps to 0.
  if (Product(input_dims) <= 0 || Product(output_dims) <= 0) {
    input_exprs.assign(in_rank, mlir::getAffineConstantExpr(0, context));
    return mlir::AffineMap::get(out_rank, 0, input_exprs, context);
  }
  size_t i = 0, j = 0;
  while (i < in_rank || j < out_rank) {
    // Grow one group from one dimension of each side until both sides
    // hold the same number of elements.
    size_t i0 = i, j0 = j;
    int64_t in_count = 1, out_count = 1;
    if (i < in_rank) in_count *= input_dims[i++];
    if (j < out_rank) out_count *= output_dims[j++];
    while (in_count != out_count) {
      if (in_count < out_count && i < in_rank) {
        in_count *= input_dims[i++];
      } else if (out_count < in_count && j < out_rank) {
        out_count *= output_dims[j++];
      } else {
        break;  // Unequal element counts; callers rule this out.
      }
    }
    // Size-1 dimensions after the group belong to it.
    while (i < in_rank && input_dims[i] == 1) ++i;
    while (j < out_rank && output_dims[j] == 1) ++j;
    std::vector<AffineExpr> group_exprs;
    for (size_t k = j0; k < j; ++k) {
      group_exprs.push_back(mlir::getAffineDimExpr(k, context));
    }
    absl::Span<const int64_t> in_group = input_dims.subspan(i0, i - i0);
    absl::Span<const int64_t> out_group = output_dims.subspan(j0, j - j0);
    if (in_group.empty()) continue;  // Only size-1 output dims.
    if (out_group.empty()) {
      // Only size-1 input dims: they are read at index 0.
      for (size_t k = 0; k < in_group.size(); ++k) {
        input_exprs.push_back(mlir::getAffineConstantExpr(0, context));
      }
      continue;
    }
    AppendMinimalReshapeExprs(in_group, out_group, group_exprs, input_exprs,
                              context);
  }
  return mlir::AffineMap::get(out_rank, 0, input_exprs, context);
}

IndexingMap ComputeReshapeIndexingMap(absl::Span<const int64_t> input_dims,
                                      absl::Span<const int64_t> output_dims,
                                      mlir::MLIRContext* context) {
  if (Product(input_dims) < 0 || Product(output_dims) < 0) {
    return IndexingMap::Undefined(
        "reshape: an element count does not fit in int64");
  }
  if (Product(input_dims) != Product(output_dims)) {
    return IndexingMap::Undefined(
        "reshape: the element counts of the operand and the output differ");
  }
  IndexingMap map = IndexingMap::FromTensorSizes(
      ComputeReshapeAffineMap(input_dims, output_dims, context), output_dims,
      {});
  SimplifyAndRemoveUnusedSymbols(map);
  return map;
}

IndexingMap ComputeBitcastIndexingMap(const Shape& input, const Shape& output,
                                      mlir::MLIRContext* context) {
  if (!input.IsArray() || !output.IsArray() ||
      Product(input.dimensions()) != Product(output.dimensions()) ||
      Product(input.dimensions()) < 0) {
    return IndexingMap::Undefined(
        "bitcast: the operand and the output are not arrays of equal element "
        "count");
  }
  if ((input.has_layout() && !input.layout().tiles.empty()) ||
      (output.has_layout() && !output.layout().tiles.empty())) {
    return IndexingMap::Undefined("bitcast: tiled layouts are not supported");
  }
  std::optional<std::vector<int64_t>> in_order = MajorToMinor(input);
  std::optional<std::vector<int64_t>> out_order = MajorToMinor(output);
  if (!in_order || !out_order) {
    return IndexingMap::Undefined("bitcast: a layout is not a permutation");
  }

  // Output logical -> output physical: physical dim k is logical dim
  // out_order[k].
  std::vector<int64_t> out_physical_dims;
  std::vector<AffineExpr> to_physical;
  for (int64_t d : *out_order) {
    out_physical_dims.push_back(output.dimensions(d));
    to_physical.push_back(mlir::getAffineDimExpr(d, context));
  }
  IndexingMap out_transpose = IndexingMap::FromTensorSizes(
      mlir::AffineMap::get(output.rank(), 0, to_physical, context),
      output.dimensions(), {});

  std::vector<int64_t> in_physical_dims;
  for (int64_t d : *in_order) in_physical_dims.push_back(input.dimensions(d));
  IndexingMap reshape = IndexingMap::FromTensorSizes(
      ComputeReshapeAffineMap(in_physical_dims, out_physical_dims, context),
      out_physical_dims, {});

  // Input physical -> input logical: logical dim in_order[k] is physical k.
  std::vector<AffineExpr> to_logical(input.rank());
  for (int64_t k = 0; k < input.rank(); ++k) {
    to_logical[(*in_order)[k]] = mlir::getAffineDimExpr(k, context);
  }
  IndexingMap in_transpose = IndexingMap::FromTensorSizes(
      mlir::AffineMap::get(input.rank(), 0, to_logical, context),
      in_physical_dims, {});

  IndexingMap map = ComposeIndexingMaps(
      ComposeIndexingMaps(out_transpose, reshape), in_transpose);
  SimplifyAndRemoveUnusedSymbols(map);
  return map;
}

HloInstructionIndexing ComputeOutputToInputReshapeIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  if (!AllArraysWithOperands(instruction, 1)) {
    return AttributesDoNotFitEachOperand(instruction);
  }
  return OneMap(
      ComputeReshapeIndexingMap(instruction->operand(0)->shape().dimensions(),
                                instruction->shape().dimensions(), context));
}

HloInstructionIndexing ComputeInputToOutputReshapeIndexing(
    const HloInstruction* instruction, int64_t /*input_id*/,
    mlir::MLIRContext* context) {
  if (!AllArraysWithOperands(instruction, 1)) {
    return AttributesDoNotFitEachOutput(instruction);
  }
  return OneMap(ComputeReshapeIndexingMap(
      instruction->shape().dimensions(),
      instruction->operand(0)->shape().dimensions(), context));
}

HloInstructionIndexing ComputeOutputToInputBitcastIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  if (!AllArraysWithOperands(instruction, 1)) {
    return AttributesDoNotFitEachOperand(instruction);
  }
  return OneMap(ComputeBitcastIndexingMap(instruction->operand(0)->shape(),
                                          instruction->shape(), context));
}

HloInstructionIndexing ComputeInputToOutputBitcastIndexing(
    const HloInstruction* instruction, int64_t /*input_id*/,
    mlir::MLIRContext* context) {
  if (!AllArraysWithOperands(instruction, 1)) {
    return AttributesDoNotFitEachOutput(instruction);
  }
  return OneMap(ComputeBitcastIndexingMap(
      instruction->shape(), instruction->operand(0)->shape(), context));
}

}  // namespace xla_index
