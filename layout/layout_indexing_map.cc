#include "layout/layout_indexing_map.h"

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "hlo/shape.h"
#include "layout/shape_layout.h"
#include "layout/tiled_layout.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {
namespace {

using Exprs = std::vector<mlir::AffineExpr>;

// The maps are built with MLIR's operators, which fold constants without an
// overflow check (e * c1) * c2 -> e * (c1 * c2). Here every constant they
// fold is a product of physical sizes of one tiling step (tile sizes,
// combined dimensions, strides of the row-major linearization), and
// TiledLayout::Create refuses a layout unless the product of its nonzero
// physical sizes at every step fits in int64, so no fold can wrap; a size of
// 0 makes the domain empty. SizesNearTheInt64LimitsStayExact checks maps of
// layouts at those limits against the index arithmetic.

// The physical index as expressions of the logical index `logical`: the
// same steps as TiledLayout::PhysicalIndex, on affine expressions.
Exprs ApplyLayout(const TiledLayout& layout, const Exprs& logical,
                  mlir::MLIRContext* context) {
  const absl::Span<const int64_t> minor_to_major = layout.minor_to_major();
  const size_t rank = minor_to_major.size();
  Exprs physical(rank);
  for (size_t k = 0; k < rank; ++k) {
    physical[k] = logical[minor_to_major[rank - 1 - k]];
  }
  for (const TilingStep& step : layout.steps()) {
    const int64_t position = step.position;
    if (step.kind == TilingStep::Kind::kExpand) {
      // (e_1, ..) -> (0, .., 0, e_1, ..): the added dimensions have size 1.
      physical.insert(physical.begin(),
                      step.shape_after.size() - step.shape_before.size(),
                      mlir::getAffineConstantExpr(0, context));
      continue;
    }
    if (step.kind == TilingStep::Kind::kCombine) {
      // (.., i, j, ..) -> (.., i * b + j, ..) for dims (.., a, b, ..).
      physical[position] =
          physical[position] * step.shape_before[position + 1] +
          physical[position + 1];
      physical.erase(physical.begin() + position + 1);
      continue;
    }
    // (.., e_k, ..) -> (.., e_k floordiv t_k, .., e_k mod t_k, ..).
    const size_t n = step.tile.size();
    physical.resize(position + 2 * n);
    for (size_t k = 0; k < n; ++k) {
      const mlir::AffineExpr e = physical[position + k];
      physical[position + k] = e.floorDiv(step.tile[k]);
      physical[position + n + k] = e % step.tile[k];
    }
  }
  return physical;
}

// The logical index as expressions of the physical index `physical`:
// TiledLayout::LogicalIndex's undo steps on affine expressions. Appends to
// `in_bounds` the condition that each undone index lies in the shape its
// step applies to: a position is padding exactly when one fails. Checking
// only the final logical index would not do: a later tile can pad an
// in-tile dimension, and T * t + r with a padding r >= t can land on a
// valid element.
Exprs UndoLayout(const TiledLayout& layout, Exprs physical,
                 std::vector<IndexingConstraint>& in_bounds) {
  const std::vector<TilingStep>& steps = layout.steps();
  for (size_t s = steps.size(); s-- > 0;) {
    const TilingStep& step = steps[s];
    const int64_t position = step.position;
    if (step.kind == TilingStep::Kind::kExpand) {
      // The added size-1 dimensions: any other index is padding.
      const size_t added = step.shape_after.size() - step.shape_before.size();
      for (size_t k = 0; k < added; ++k) {
        in_bounds.push_back({physical[k], Interval{0, 0}});
      }
      physical.erase(physical.begin(), physical.begin() + added);
      continue;
    }
    if (step.kind == TilingStep::Kind::kCombine) {
      // c -> (c floordiv b, c mod b) for dims (.., a, b, ..).
      const int64_t minor_size = step.shape_before[position + 1];
      const mlir::AffineExpr combined = physical[position];
      physical[position] = combined.floorDiv(minor_size);
      physical.insert(physical.begin() + position + 1, combined % minor_size);
      in_bounds.push_back(
          {physical[position], Interval{0, step.shape_before[position] - 1}});
      continue;
    }
    // (tile count index T_k, in-tile index r_k) -> T_k * t_k + r_k.
    const size_t n = step.tile.size();
    for (size_t k = 0; k < n; ++k) {
      physical[position + k] =
          physical[position + k] * step.tile[k] + physical[position + n + k];
      in_bounds.push_back({physical[position + k],
                           Interval{0, step.shape_before[position + k] - 1}});
    }
    physical.resize(position + n);
  }
  const absl::Span<const int64_t> minor_to_major = layout.minor_to_major();
  const size_t rank = minor_to_major.size();
  Exprs logical(rank);
  for (size_t k = 0; k < rank; ++k) {
    logical[minor_to_major[rank - 1 - k]] = physical[k];
  }
  return logical;
}

Exprs DimExprs(int64_t count, mlir::MLIRContext* context) {
  Exprs dims;
  for (int64_t i = 0; i < count; ++i) {
    dims.push_back(mlir::getAffineDimExpr(i, context));
  }
  return dims;
}

// Row-major position of `index` in `dims`: ((i0 * n1 + i1) * n2 + i2)...
mlir::AffineExpr Linearize(const Exprs& index, absl::Span<const int64_t> dims,
                           mlir::MLIRContext* context) {
  mlir::AffineExpr linear = mlir::getAffineConstantExpr(0, context);
  for (size_t k = 0; k < dims.size(); ++k) {
    linear = linear * dims[k] + index[k];
  }
  return linear;
}

// The row-major index in `dims` of position `linear`:
// i_k = (linear floordiv prod_{j>k} n_j) mod n_k.
Exprs Delinearize(mlir::AffineExpr linear, absl::Span<const int64_t> dims) {
  Exprs index(dims.size());
  int64_t stride = 1;
  for (size_t k = dims.size(); k-- > 0;) {
    index[k] = linear.floorDiv(stride) % dims[k];
    stride *= dims[k];  // nonzero sizes' product fits (TiledLayout::Create)
  }
  return index;
}

IndexingMap MakeMap(int64_t num_dims, const Exprs& results,
                    absl::Span<const int64_t> dim_sizes,
                    mlir::MLIRContext* context) {
  return IndexingMap::FromTensorSizes(
      mlir::AffineMap::get(num_dims, 0, results, context), dim_sizes, {});
}

// The map from `num_dims` physical variables (the physical index, or the
// linear position) to the logical element, with constraints that exclude
// padding; simplified, which drops the constraints that always hold.
IndexingMap InverseMap(const TiledLayout& layout, int64_t num_dims,
                       Exprs physical, absl::Span<const int64_t> dim_sizes,
                       mlir::MLIRContext* context) {
  std::vector<IndexingConstraint> in_bounds;
  Exprs logical = UndoLayout(layout, std::move(physical), in_bounds);
  IndexingMap map = MakeMap(num_dims, logical, dim_sizes, context);
  for (const IndexingConstraint& constraint : in_bounds) {
    map.AddConstraint(constraint.expr, constraint.interval);
  }
  map.Simplify();
  return map;
}

}  // namespace

IndexingMap LogicalToPhysicalShapeMap(const TiledLayout& layout,
                                      mlir::MLIRContext* context) {
  Exprs physical =
      ApplyLayout(layout, DimExprs(layout.rank(), context), context);
  IndexingMap map =
      MakeMap(layout.rank(), physical, layout.dimensions(), context);
  map.Simplify();
  return map;
}

IndexingMap LogicalToLinearMap(const TiledLayout& layout,
                               mlir::MLIRContext* context) {
  Exprs physical =
      ApplyLayout(layout, DimExprs(layout.rank(), context), context);
  IndexingMap map =
      MakeMap(layout.rank(),
              {Linearize(physical, layout.physical_dimensions(), context)},
              layout.dimensions(), context);
  map.Simplify();
  return map;
}

IndexingMap PhysicalShapeToLogicalMap(const TiledLayout& layout,
                                      mlir::MLIRContext* context) {
  const absl::Span<const int64_t> physical_dims = layout.physical_dimensions();
  return InverseMap(layout, physical_dims.size(),
                    DimExprs(physical_dims.size(), context), physical_dims,
                    context);
}

IndexingMap LinearToLogicalMap(const TiledLayout& layout,
                               mlir::MLIRContext* context) {
  Exprs physical = Delinearize(mlir::getAffineDimExpr(0, context),
                               layout.physical_dimensions());
  return InverseMap(layout, 1, std::move(physical),
                    {layout.tiled_element_count()}, context);
}

absl::StatusOr<IndexingMap> LogicalToLinearMap(const Shape& shape,
                                               mlir::MLIRContext* context) {
  XI_ASSIGN_OR_RETURN(TiledLayout layout, TiledLayoutOf(shape));
  return LogicalToLinearMap(layout, context);
}

absl::StatusOr<IndexingMap> ComposeWithLayout(
    const IndexingMap& operand_indexing, const Shape& operand_shape) {
  if (operand_indexing.IsUndefined()) return operand_indexing;
  if (operand_indexing.GetResultCount() != operand_shape.rank()) {
    return absl::InvalidArgumentError(
        absl::StrCat("an indexing map with ", operand_indexing.GetResultCount(),
                     " results cannot index ", operand_shape.ToString(),
                     " of rank ", operand_shape.rank()));
  }
  XI_ASSIGN_OR_RETURN(
      IndexingMap layout_map,
      LogicalToLinearMap(operand_shape, operand_indexing.GetMLIRContext()));
  IndexingMap composed = ComposeIndexingMaps(operand_indexing, layout_map);
  composed.Simplify();
  return composed;
}

}  // namespace xla_index
