#include "xla_index/ops/rule_helpers.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/checked_arithmetic.h"
#include "hlo/shape.h"
#include "llvm/ADT/ArrayRef.h"
#include "mlir/IR/AffineMap.h"

namespace xla_index {

bool AllArrays(const HloInstruction* instruction) {
  if (!instruction->shape().IsArray()) return false;
  for (const HloInstruction* operand : instruction->operands()) {
    if (!operand->shape().IsArray()) return false;
  }
  return true;
}

bool AllArraysWithOperands(const HloInstruction* instruction,
                           int64_t operand_count) {
  return instruction->operand_count() == operand_count &&
         AllArrays(instruction);
}

bool HasInputsAndInits(const HloInstruction* instruction) {
  const int64_t count = instruction->operand_count() / 2;
  if (instruction->operand_count() % 2 != 0 || count == 0) return false;
  const Shape& in = instruction->operand(0)->shape();
  if (!in.IsArray()) return false;
  for (int64_t k = 0; k < 2 * count; ++k) {
    const Shape& s = instruction->operand(k)->shape();
    if (!s.IsArray() || (k < count ? !s.SameDimensions(in) : !s.IsScalar())) {
      return false;
    }
  }
  return true;
}

bool IsDistinctSubset(absl::Span<const int64_t> dims, int64_t n) {
  std::vector<bool> seen(n, false);
  for (int64_t d : dims) {
    if (d < 0 || d >= n || seen[d]) return false;
    seen[d] = true;
  }
  return true;
}

bool IsPermutation(absl::Span<const int64_t> dims, int64_t n) {
  return static_cast<int64_t>(dims.size()) == n && IsDistinctSubset(dims, n);
}

std::optional<int64_t> CheckedMulAdd(int64_t a, int64_t b, int64_t c) {
  std::optional<int64_t> product = CheckedMul(a, b);
  if (!product.has_value()) return std::nullopt;
  return CheckedAdd(*product, c);
}

absl::StatusOr<int64_t> FitsInInt64(std::optional<int64_t> value,
                                    absl::string_view what,
                                    absl::string_view where) {
  if (value.has_value()) return *value;
  return absl::OutOfRangeError(
      absl::StrCat(what, " of ", where, " does not fit in int64"));
}

IndexingMap MapOrUndefined(const HloInstruction* instruction,
                           absl::StatusOr<IndexingMap> map) {
  if (map.ok()) return *std::move(map);
  return IndexingMap::Undefined(
      absl::StrCat(HloOpcodeName(instruction->opcode()), " '",
                   instruction->name(), "': ", map.status().message()));
}

mlir::AffineExpr UnstrideIndex(mlir::AffineExpr shifted, int64_t step,
                               std::vector<IndexingConstraint>& constraints) {
  if (step == 1) return shifted;
  constraints.push_back({shifted % step, Interval::Point(0)});
  return shifted.floorDiv(step);
}

IndexingMap MakeMap(absl::Span<const int64_t> dims,
                    absl::Span<const int64_t> symbol_sizes,
                    absl::Span<const mlir::AffineExpr> exprs,
                    mlir::MLIRContext* context) {
  return IndexingMap::FromTensorSizes(
      mlir::AffineMap::get(
          dims.size(), symbol_sizes.size(),
          llvm::ArrayRef<mlir::AffineExpr>(exprs.data(), exprs.size()),
          context),
      dims, symbol_sizes);
}

IndexingMap MakeConstrainedMap(absl::Span<const int64_t> dims,
                               absl::Span<const int64_t> symbol_sizes,
                               absl::Span<const mlir::AffineExpr> exprs,
                               absl::Span<const IndexingConstraint> constraints,
                               mlir::MLIRContext* context) {
  IndexingMap map = MakeMap(dims, symbol_sizes, exprs, context);
  for (const IndexingConstraint& c : constraints) {
    map.AddConstraint(c.expr, c.interval);
  }
  SimplifyAndRemoveUnusedSymbols(map);
  return map;
}

IndexingMap ScalarReadMap(absl::Span<const int64_t> dims,
                          mlir::MLIRContext* context) {
  return IndexingMap::FromTensorSizes(
      mlir::AffineMap::get(dims.size(), 0, {}, context), dims, {});
}

IndexingMap ScalarFeedsAllMap(absl::Span<const int64_t> dims,
                              mlir::MLIRContext* context) {
  std::vector<mlir::AffineExpr> exprs;
  for (size_t i = 0; i < dims.size(); ++i) {
    exprs.push_back(mlir::getAffineSymbolExpr(i, context));
  }
  return MakeMap({}, dims, exprs, context);
}

std::vector<Interval> DimBounds(absl::Span<const int64_t> dims) {
  std::vector<Interval> bounds;
  for (int64_t size : dims) bounds.push_back({0, size - 1});
  return bounds;
}

HloInstructionIndexing OneMap(IndexingMap map) {
  return HloInstructionIndexing::FromIndexingMaps({std::move(map)});
}

HloInstructionIndexing SameMapForEachOutput(const HloInstruction* instruction,
                                            const IndexingMap& map) {
  HloInstructionIndexing indexing;
  indexing.indexing_maps.resize(OutputCount(instruction));
  for (IndexingMapSet& set : indexing.indexing_maps) set.Insert(map);
  return indexing;
}

}  // namespace xla_index
