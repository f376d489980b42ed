// gather, XLA's operation semantics ("Gather"), in the general form: any
// start_index_map, offset_dims, collapsed_slice_dims, batching dims and
// index_vector_dim (an index_vector_dim equal to the indices' rank is an
// implicit trailing dim of size 1).
//
// The output dims not in offset_dims are the batch dims G; they index the
// indices' dims other than index_vector_dim, in order. For an output index
// Out, operand dim d is read at
//   Out[offset_dims[k]]        if d is the k-th operand dim neither collapsed
//                              nor a batching dim (remapped_offset_dims),
//   G[j]                       if d = operand_batching_dims[i] and
//                              start_indices_batching_dims[i] is the j-th
//                              batch dim of the indices,
//   0                          if d is collapsed,
// plus, if d = start_index_map[k], a runtime variable s_k read from the
// indices at G with k inserted at index_vector_dim, clamped to
// [0, operand_dim - slice_size] (XLA clamps start indices so that the slice
// stays in bounds). Start indices with known values fold into the map
// (runtime_variable_folding.h).
//
// Output to input, the example of XLA's indexing-analysis documentation,
// "Gather" (XLA's simplified form):
//   gather = f32[1806,7,8,4] gather(f32[33,76,70] operand,
//            s32[1806,2] indices), offset_dims={1,2,3},
//            collapsed_slice_dims={}, start_index_map={0,1},
//            index_vector_dim=1, slice_sizes={7,8,4}
//   operand: (d0, d1, d2, d3)[s0, s1] -> (d1 + s0, d2 + s1, d3),
//            s0 in [0, 26] (indices at (d0, 0)), s1 in [0, 68] (at (d0, 1))
//   indices: (d0, d1, d2, d3)[s0] -> (d0, s0), s0 in [0, 1]
// A general one: a batching dim, a shuffled start_index_map and the index
// vector in the middle of the indices.
//   gather = f32[4,5,3] gather(f32[4,10,8] operand, s32[4,2,5] indices),
//            offset_dims={2}, collapsed_slice_dims={1},
//            operand_batching_dims={0}, start_indices_batching_dims={0},
//            start_index_map={2,1}, index_vector_dim=1, slice_sizes={1,1,3}
//   operand: (d0, d1, d2)[s0, s1] -> (d0, s1, d2 + s0),
//            s0 in [0, 5] (indices at (d0, 0, d1)),
//            s1 in [0, 9] (indices at (d0, 1, d1))
//   indices: (d0, d1, d2)[s0] -> (d0, s0, d1), s0 in [0, 1]
//
// Input to output, the indices: an element feeds every output element of
// its batch position (each output element reads its whole index vector):
//   indices: (d0, d1, d2)[s0] -> (d0, d2, s0), s0 in [0, 2]
// The operand has no input-to-output map: which output elements an operand
// element feeds depends on the indices' values (XLA has none either).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/rule_helpers.h"
#include "xla_index/ops/runtime_variable_folding.h"

namespace xla_index {

using mlir::AffineExpr;
using mlir::AffineMap;
using mlir::getAffineConstantExpr;
using mlir::getAffineDimExpr;
using mlir::getAffineSymbolExpr;

namespace {

bool Contains(const std::vector<int64_t>& values, int64_t value) {
  return absl::c_linear_search(values, value);
}

// True when `values` has no element of `others`.
bool Disjoint(const std::vector<int64_t>& values,
              const std::vector<int64_t>& others) {
  return absl::c_none_of(values,
                         [&](int64_t v) { return Contains(others, v); });
}

// The dims of [0, n) in neither `a` nor `b`, increasing.
std::vector<int64_t> DimsExcept(int64_t n, const std::vector<int64_t>& a,
                                const std::vector<int64_t>& b = {}) {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < n; ++d) {
    if (!Contains(a, d) && !Contains(b, d)) dims.push_back(d);
  }
  return dims;
}

// The roles of a gather's dims (see the top of this file).
struct GatherDims {
  /// Output dims not in offset_dims, increasing.
  std::vector<int64_t> batch_dims;
  /// Indices dims other than index_vector_dim, increasing; output dim
  /// batch_dims[j] indexes indices dim indices_batch_dims[j].
  std::vector<int64_t> indices_batch_dims;
  /// Operand dims neither collapsed nor batching, increasing; output dim
  /// offset_dims[k] indexes operand dim remapped_offset_dims[k].
  std::vector<int64_t> remapped_offset_dims;
  /// The index vector's length (1 for an implicit index_vector_dim).
  int64_t index_vector_length = 1;
  bool implicit_index_vector = false;
};

// The batching pairs: operand_batching_dims[i] and
// start_indices_batching_dims[i] of equal sizes, slice size <= 1, disjoint
// from the collapsed and start-mapped dims and from index_vector_dim.
bool BatchingDimsFit(const HloInstruction* gather) {
  const Shape& operand = gather->operand(0)->shape();
  const Shape& indices = gather->operand(1)->shape();
  const GatherDimensionNumbers& g = gather->gather_dimension_numbers();
  if (g.operand_batching_dims.size() != g.start_indices_batching_dims.size() ||
      !IsDistinctSubset(g.operand_batching_dims, operand.rank()) ||
      !IsDistinctSubset(g.start_indices_batching_dims, indices.rank()) ||
      Contains(g.start_indices_batching_dims, g.index_vector_dim) ||
      !Disjoint(g.operand_batching_dims, g.collapsed_slice_dims) ||
      !Disjoint(g.operand_batching_dims, g.start_index_map)) {
    return false;
  }
  for (size_t i = 0; i < g.operand_batching_dims.size(); ++i) {
    const int64_t d = g.operand_batching_dims[i];
    if (operand.dimensions(d) !=
            indices.dimensions(g.start_indices_batching_dims[i]) ||
        gather->gather_slice_sizes()[d] > 1) {
      return false;
    }
  }
  return true;
}

// The roles of `gather`'s dims, or nullopt when its attributes do not fit
// its operands and output (the checks of XLA's shape inference for gather).
std::optional<GatherDims> GetGatherDims(const HloInstruction* gather) {
  if (!AllArraysWithOperands(gather, 2)) return std::nullopt;
  const Shape& out = gather->shape();
  const Shape& operand = gather->operand(0)->shape();
  const Shape& indices = gather->operand(1)->shape();
  const GatherDimensionNumbers& g = gather->gather_dimension_numbers();
  const std::vector<int64_t>& slice_sizes = gather->gather_slice_sizes();
  const int64_t rank = operand.rank();
  if (g.index_vector_dim < 0 || g.index_vector_dim > indices.rank() ||
      static_cast<int64_t>(slice_sizes.size()) != rank ||
      !IsDistinctSubset(g.collapsed_slice_dims, rank) ||
      !IsDistinctSubset(g.start_index_map, rank) ||
      !IsDistinctSubset(g.offset_dims, out.rank()) ||
      !absl::c_is_sorted(g.offset_dims) || !BatchingDimsFit(gather)) {
    return std::nullopt;
  }
  GatherDims dims;
  dims.implicit_index_vector = g.index_vector_dim == indices.rank();
  if (!dims.implicit_index_vector) {
    dims.index_vector_length = indices.dimensions(g.index_vector_dim);
  }
  dims.batch_dims = DimsExcept(out.rank(), g.offset_dims);
  dims.indices_batch_dims = DimsExcept(indices.rank(), {g.index_vector_dim});
  dims.remapped_offset_dims =
      DimsExcept(rank, g.collapsed_slice_dims, g.operand_batching_dims);
  if (static_cast<int64_t>(g.start_index_map.size()) !=
          dims.index_vector_length ||
      dims.batch_dims.size() != dims.indices_batch_dims.size() ||
      dims.remapped_offset_dims.size() != g.offset_dims.size()) {
    return std::nullopt;
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (slice_sizes[d] < 0 || slice_sizes[d] > operand.dimensions(d) ||
        (Contains(g.collapsed_slice_dims, d) && slice_sizes[d] > 1)) {
      return std::nullopt;
    }
  }
  for (size_t j = 0; j < dims.batch_dims.size(); ++j) {
    if (out.dimensions(dims.batch_dims[j]) !=
        indices.dimensions(dims.indices_batch_dims[j])) {
      return std::nullopt;
    }
  }
  for (size_t k = 0; k < g.offset_dims.size(); ++k) {
    if (out.dimensions(g.offset_dims[k]) !=
        slice_sizes[dims.remapped_offset_dims[k]]) {
      return std::nullopt;
    }
  }
  return dims;
}

// The element of the indices holding component `component` of the start
// index of output element (d...): G with `component` inserted at
// index_vector_dim (G alone for an implicit index vector).
std::vector<AffineExpr> IndicesElement(const GatherDims& dims,
                                       int64_t index_vector_dim,
                                       AffineExpr component,
                                       mlir::MLIRContext* context) {
  std::vector<AffineExpr> at;
  for (int64_t d : dims.batch_dims) at.push_back(getAffineDimExpr(d, context));
  if (!dims.implicit_index_vector) {
    at.insert(at.begin() + index_vector_dim, component);
  }
  return at;
}

// The operand map of the top of this file.
IndexingMap OperandMap(const HloInstruction* gather, const GatherDims& dims,
                       mlir::MLIRContext* context) {
  const Shape& out = gather->shape();
  const Shape& operand = gather->operand(0)->shape();
  const GatherDimensionNumbers& g = gather->gather_dimension_numbers();
  const int64_t rank = operand.rank();
  std::vector<AffineExpr> exprs(rank, getAffineConstantExpr(0, context));
  for (size_t k = 0; k < g.offset_dims.size(); ++k) {
    exprs[dims.remapped_offset_dims[k]] =
        getAffineDimExpr(g.offset_dims[k], context);
  }
  for (size_t i = 0; i < g.operand_batching_dims.size(); ++i) {
    const int64_t j = absl::c_find(dims.indices_batch_dims,
                                   g.start_indices_batching_dims[i]) -
                      dims.indices_batch_dims.begin();
    exprs[g.operand_batching_dims[i]] =
        getAffineDimExpr(dims.batch_dims[j], context);
  }
  std::vector<RuntimeVar> starts;
  for (int64_t k = 0; k < dims.index_vector_length; ++k) {
    const int64_t d = g.start_index_map[k];
    exprs[d] = exprs[d] + getAffineSymbolExpr(k, context);
    AffineMap access = AffineMap::get(
        out.rank(), 0,
        IndicesElement(dims, g.index_vector_dim,
                       getAffineConstantExpr(k, context), context),
        context);
    starts.push_back(MakeRuntimeVar(
        gather->operand(1),
        operand.dimensions(d) - gather->gather_slice_sizes()[d], access));
  }
  IndexingMap map(
      AffineMap::get(out.rank(), dims.index_vector_length, exprs, context),
      DimBounds(out.dimensions()), {}, std::move(starts));
  return FoldRuntimeVariables(std::move(map));
}

}  // namespace

bool IsValidGather(const HloInstruction* gather) {
  return GetGatherDims(gather).has_value();
}

HloInstructionIndexing ComputeOutputToInputGatherIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  std::optional<GatherDims> dims = GetGatherDims(instruction);
  if (!dims) return AttributesDoNotFitEachOperand(instruction);
  const GatherDimensionNumbers& g = instruction->gather_dimension_numbers();
  const Shape& out = instruction->shape();
  // The indices: the whole index vector at G (a range variable over it).
  std::vector<int64_t> vector_sizes;
  if (!dims->implicit_index_vector) {
    vector_sizes.push_back(dims->index_vector_length);
  }
  IndexingMap indices_map =
      MakeMap(out.dimensions(), vector_sizes,
              IndicesElement(*dims, g.index_vector_dim,
                             getAffineSymbolExpr(0, context), context),
              context);
  return HloInstructionIndexing::FromIndexingMaps(
      {OperandMap(instruction, *dims, context), indices_map});
}

HloInstructionIndexing ComputeInputToOutputGatherIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  std::optional<GatherDims> dims = GetGatherDims(instruction);
  if (!dims) return AttributesDoNotFitEachOutput(instruction);
  if (input_id == 0) {
    return UndefinedForEachOutput(
        instruction,
        absl::StrCat("gather '", instruction->name(),
                     "': the output elements an operand element feeds "
                     "depend on the values of the start indices"));
  }
  // The indices: element (i...) feeds the output elements whose batch dims
  // are i without index_vector_dim, at every offset.
  const Shape& out = instruction->shape();
  const GatherDimensionNumbers& g = instruction->gather_dimension_numbers();
  std::vector<AffineExpr> exprs(out.rank());
  for (size_t j = 0; j < dims->batch_dims.size(); ++j) {
    exprs[dims->batch_dims[j]] =
        getAffineDimExpr(dims->indices_batch_dims[j], context);
  }
  std::vector<int64_t> offset_sizes;
  for (int64_t d : g.offset_dims) {
    exprs[d] = getAffineSymbolExpr(offset_sizes.size(), context);
    offset_sizes.push_back(out.dimensions(d));
  }
  return OneMap(MakeMap(instruction->operand(1)->shape().dimensions(),
                        offset_sizes, exprs, context));
}

}  // namespace xla_index
