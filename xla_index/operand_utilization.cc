#include "xla_index/operand_utilization.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/core/interval.h"
#include "xla_index/output_to_input_indexing.h"

namespace xla_index {
namespace {

// The range of `expr` over the box of dims and symbols, by interval
// arithmetic (an over-approximation).
Interval RangeOf(mlir::AffineExpr expr, const std::vector<Interval>& dims,
                 const std::vector<Interval>& symbols) {
  switch (expr.getKind()) {
    case mlir::AffineExprKind::Constant: {
      int64_t v = mlir::cast<mlir::AffineConstantExpr>(expr).getValue();
      return Interval::Point(v);
    }
    case mlir::AffineExprKind::DimId:
      return dims[mlir::cast<mlir::AffineDimExpr>(expr).getPosition()];
    case mlir::AffineExprKind::SymbolId:
      return symbols[mlir::cast<mlir::AffineSymbolExpr>(expr).getPosition()];
    default:
      break;
  }
  auto binary = mlir::cast<mlir::AffineBinaryOpExpr>(expr);
  Interval lhs = RangeOf(binary.getLHS(), dims, symbols);
  Interval rhs = RangeOf(binary.getRHS(), dims, symbols);
  switch (expr.getKind()) {
    case mlir::AffineExprKind::Add:
      return lhs + rhs;
    case mlir::AffineExprKind::Mul:
      return lhs * rhs;
    case mlir::AffineExprKind::FloorDiv:
      return FloorDiv(lhs, rhs);
    case mlir::AffineExprKind::CeilDiv:
      return CeilDiv(lhs, rhs);
    case mlir::AffineExprKind::Mod:
      return Mod(lhs, rhs);
    default:
      return Interval::Unbounded();
  }
}

int64_t Product(absl::Span<const int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

// The number of points of the map's dims x symbols box.
std::optional<int64_t> BoxSize(const IndexingMap& map) {
  int64_t n = 1;
  auto times = [&n](Interval b) {
    if (b.IsEmpty()) {
      n = 0;
      return true;
    }
    int64_t k = b.NumElements();
    if (k == Interval::kMax || __builtin_mul_overflow(n, k, &n)) return false;
    return true;
  };
  for (Interval b : map.GetDimBounds()) {
    if (!times(b)) return std::nullopt;
  }
  for (int64_t s = 0; s < map.GetSymbolCount(); ++s) {
    if (!times(map.GetSymbolBound(s))) return std::nullopt;
  }
  return n;
}

// Adds the in-bounds results of `map` to `read`, point by point.
void EnumerateReads(const IndexingMap& map,
                    absl::Span<const int64_t> operand_dims,
                    absl::flat_hash_set<int64_t>& read) {
  const int64_t num_dims = map.GetDimensionCount();
  const int64_t num_vars = num_dims + map.GetSymbolCount();
  std::vector<Interval> box = map.GetDimBounds();
  for (int64_t s = 0; s < map.GetSymbolCount(); ++s) {
    box.push_back(map.GetSymbolBound(s));
  }
  std::vector<int64_t> point(num_vars);
  for (int64_t i = 0; i < num_vars; ++i) point[i] = box[i].lower;
  absl::Span<const int64_t> all(point);
  while (true) {
    absl::Span<const int64_t> dims = all.subspan(0, num_dims);
    absl::Span<const int64_t> symbols = all.subspan(num_dims);
    if (map.ConstraintsSatisfied(dims, symbols)) {
      std::optional<std::vector<int64_t>> results = map.Evaluate(dims, symbols);
      if (results && results->size() == operand_dims.size()) {
        int64_t linear = 0;
        bool inside = true;
        for (size_t k = 0; k < operand_dims.size(); ++k) {
          int64_t r = (*results)[k];
          if (r < 0 || r >= operand_dims[k]) inside = false;
          linear = linear * operand_dims[k] + r;
        }
        if (inside) read.insert(linear);
      }
    }
    int64_t i = num_vars - 1;
    for (; i >= 0; --i) {
      if (++point[i] <= box[i].upper) break;
      point[i] = box[i].lower;
    }
    if (i < 0) break;
  }
}

// Elements of the operand inside the box of the map's result ranges.
int64_t BoundingBoxCount(const IndexingMap& map,
                         absl::Span<const int64_t> operand_dims) {
  if (map.IsUndefined()) return Product(operand_dims);
  if (map.IsKnownEmpty()) return 0;
  std::vector<Interval> symbols;
  for (int64_t s = 0; s < map.GetSymbolCount(); ++s) {
    symbols.push_back(map.GetSymbolBound(s));
  }
  int64_t count = 1;
  for (size_t k = 0; k < operand_dims.size(); ++k) {
    Interval range =
        RangeOf(map.GetAffineMap().getResult(k), map.GetDimBounds(), symbols)
            .Intersect({0, operand_dims[k] - 1});
    count *= range.IsEmpty() ? 0 : range.NumElements();
  }
  return count;
}

}  // namespace

OperandUtilization ComputeOperandUtilization(
    const IndexingMapSet& maps, absl::Span<const int64_t> operand_dims,
    int64_t max_points) {
  OperandUtilization result;
  result.element_count = Product(operand_dims);
  int64_t total = 0;
  bool enumerable = true;
  for (const IndexingMap& map : maps) {
    if (map.IsUndefined() ||
        (!map.IsKnownEmpty() &&
         map.GetResultCount() != static_cast<int64_t>(operand_dims.size()))) {
      enumerable = false;
      break;
    }
    if (map.IsKnownEmpty()) continue;
    std::optional<int64_t> size = BoxSize(map);
    if (!size || __builtin_add_overflow(total, *size, &total) ||
        total > max_points) {
      enumerable = false;
      break;
    }
  }
  if (enumerable) {
    absl::flat_hash_set<int64_t> read;
    for (const IndexingMap& map : maps) {
      if (!map.IsKnownEmpty()) EnumerateReads(map, operand_dims, read);
    }
    result.elements_read = static_cast<int64_t>(read.size());
    return result;
  }
  result.exact = false;
  int64_t bound = 0;
  for (const IndexingMap& map : maps) {
    int64_t box =
        map.IsUndefined() || map.GetResultCount() !=
                                 static_cast<int64_t>(operand_dims.size())
            ? result.element_count
            : BoundingBoxCount(map, operand_dims);
    bound = std::min(result.element_count, bound + box);
  }
  result.elements_read = bound;
  return result;
}

std::vector<OperandUtilization> ComputeOperandUtilization(
    const HloInstruction& instruction, mlir::MLIRContext* context,
    int64_t max_points) {
  const Shape& shape = instruction.shape();
  int64_t outputs =
      shape.IsTuple() ? static_cast<int64_t>(shape.tuple_shapes().size()) : 1;
  std::vector<IndexingMapSet> maps(instruction.operand_count());
  for (int64_t out = 0; out < outputs; ++out) {
    HloInstructionIndexing indexing =
        ComputeOutputToInputIndexing(&instruction, out, context);
    for (size_t k = 0; k < indexing.indexing_maps.size() && k < maps.size();
         ++k) {
      maps[k].InsertAll(indexing.indexing_maps[k]);
    }
  }
  std::vector<OperandUtilization> result;
  for (int64_t k = 0; k < instruction.operand_count(); ++k) {
    const Shape& operand = instruction.operand(k)->shape();
    if (!operand.IsArray()) {
      result.push_back({0, 0, false});
      continue;
    }
    result.push_back(
        ComputeOperandUtilization(maps[k], operand.dimensions(), max_points));
  }
  return result;
}

}  // namespace xla_index
