#include "xla_index/core/presburger_relation.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DynamicAPInt.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "mlir/Analysis/Presburger/PresburgerRelation.h"
#include "mlir/Analysis/Presburger/PresburgerSpace.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/core/status_macros.h"

namespace xla_index {
namespace {

using ::llvm::DynamicAPInt;
using ::mlir::AffineExpr;
using ::mlir::AffineExprKind;
using ::mlir::presburger::BoundType;
using ::mlir::presburger::IntegerRelation;
using ::mlir::presburger::PresburgerRelation;
using ::mlir::presburger::PresburgerSpace;
using ::mlir::presburger::VarKind;
using Row = llvm::SmallVector<DynamicAPInt, 8>;

/// sum_v coefficients[v] * x_v + constant over the relation's variables by
/// column position; a missing trailing coefficient is 0. Locals are only
/// ever appended, so a form built before a local was added stays valid.
struct LinearForm {
  Row coefficients;
  DynamicAPInt constant;

  bool IsConstant() const {
    return std::all_of(coefficients.begin(), coefficients.end(),
                       [](const DynamicAPInt& c) { return c == 0; });
  }
};

LinearForm Unit(unsigned column) {
  LinearForm form;
  form.coefficients.resize(column + 1);
  form.coefficients[column] = 1;
  return form;
}

/// a + k * b, coefficient by coefficient.
LinearForm AddScaled(const LinearForm& a, const LinearForm& b,
                     const DynamicAPInt& k) {
  LinearForm sum = a;
  if (sum.coefficients.size() < b.coefficients.size()) {
    sum.coefficients.resize(b.coefficients.size());
  }
  for (size_t i = 0; i < b.coefficients.size(); ++i) {
    sum.coefficients[i] += k * b.coefficients[i];
  }
  sum.constant += k * b.constant;
  return sum;
}

LinearForm Scale(const LinearForm& a, const DynamicAPInt& k) {
  return AddScaled(LinearForm(), a, k);
}

absl::Status NotAffine(AffineExpr expr, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(
      "'", AffineExprToString(expr), "' ", why,
      ": the map is not affine with constant divisors, so it has no "
      "Presburger relation"));
}

/// Builds the IntegerRelation of one map (see IndexingMapToRelation). Every
/// step adds constraints of the form `row . (vars, 1) >= 0` or `== 0`, the
/// convention of IntegerRelation::addInequality / addEquality.
class RelationBuilder {
 public:
  explicit RelationBuilder(const IndexingMap& map)
      : map_(map),
        num_dims_(map.GetDimensionCount()),
        num_results_(map.GetResultCount()),
        relation_(PresburgerSpace::getRelationSpace(
            num_dims_, num_results_, /*numSymbols=*/0,
            /*numLocals=*/map.GetSymbolCount())) {}

  absl::StatusOr<IntegerRelation> Build() && {
    AddVariableBounds();
    XI_RETURN_IF_ERROR(AddConstraints());
    XI_RETURN_IF_ERROR(AddResults());
    return std::move(relation_);
  }

 private:
  unsigned SymbolColumn(unsigned symbol) const {
    return num_dims_ + num_results_ + symbol;
  }

  /// The form as a full row: one coefficient per current column, then the
  /// constant.
  Row ToRow(const LinearForm& form) const {
    Row row(relation_.getNumCols());
    for (size_t i = 0; i < form.coefficients.size(); ++i) {
      row[i] = form.coefficients[i];
    }
    row.back() = form.constant;
    return row;
  }

  /// lo <= x <= hi for every dim and symbol x (symbols are the first locals,
  /// so they are existentially quantified over their intervals).
  void AddVariableBounds() {
    auto bound = [&](unsigned column, Interval interval) {
      relation_.addBound(BoundType::LB, column, interval.lower);
      relation_.addBound(BoundType::UB, column, interval.upper);
    };
    for (unsigned d = 0; d < num_dims_; ++d) bound(d, map_.GetDimBound(d));
    for (unsigned s = 0; s < map_.GetSymbolCount(); ++s) {
      bound(SymbolColumn(s), map_.GetSymbolBound(s));
    }
  }

  /// `e in [lo, hi]` is the pair e - lo >= 0 and hi - e >= 0.
  absl::Status AddConstraints() {
    for (const IndexingConstraint& constraint : map_.GetConstraints()) {
      XI_ASSIGN_OR_RETURN(LinearForm form, Linearize(constraint.expr));
      LinearForm above = form;
      above.constant -= constraint.interval.lower;
      relation_.addInequality(ToRow(above));
      LinearForm below = Scale(form, DynamicAPInt(-1));
      below.constant += constraint.interval.upper;
      relation_.addInequality(ToRow(below));
    }
    return absl::OkStatus();
  }

  /// Result i is the equality f_i(d, s, q) - r_i == 0.
  absl::Status AddResults() {
    mlir::AffineMap affine_map = map_.GetAffineMap();
    for (unsigned i = 0; i < num_results_; ++i) {
      XI_ASSIGN_OR_RETURN(LinearForm form, Linearize(affine_map.getResult(i)));
      relation_.addEquality(
          ToRow(AddScaled(form, Unit(num_dims_ + i), DynamicAPInt(-1))));
    }
    return absl::OkStatus();
  }

  /// floor(e / c) for c != 0 as a new local q. For c > 0,
  /// IntegerRelation::addLocalFloorDiv adds c*q <= e <= c*q + c - 1. For
  /// c < 0, floor(e / c) = floor(-e / -c): the same with -e and -c, which is
  /// the floordiv of MLIR's affine expressions (rounding toward -infinity).
  LinearForm FloorDivLocal(const LinearForm& dividend, DynamicAPInt divisor) {
    LinearForm positive = dividend;
    if (divisor < 0) {
      positive = Scale(dividend, DynamicAPInt(-1));
      divisor = -divisor;
    }
    return Unit(relation_.addLocalFloorDiv(ToRow(positive), divisor));
  }

  absl::StatusOr<LinearForm> Linearize(AffineExpr expr);
  absl::StatusOr<LinearForm> LinearizeBinary(mlir::AffineBinaryOpExpr expr);

  const IndexingMap& map_;
  unsigned num_dims_;
  unsigned num_results_;
  IntegerRelation relation_;
  // MLIR uniques expressions, so a repeated `e floordiv c` (e.g. in a result
  // and in a constraint) reuses one local.
  llvm::DenseMap<AffineExpr, LinearForm> memo_;
};

absl::StatusOr<LinearForm> RelationBuilder::Linearize(AffineExpr expr) {
  if (auto it = memo_.find(expr); it != memo_.end()) return it->second;
  LinearForm form;
  switch (expr.getKind()) {
    case AffineExprKind::Constant:
      form.constant = mlir::cast<mlir::AffineConstantExpr>(expr).getValue();
      break;
    case AffineExprKind::DimId:
      form = Unit(mlir::cast<mlir::AffineDimExpr>(expr).getPosition());
      break;
    case AffineExprKind::SymbolId:
      form = Unit(
          SymbolColumn(mlir::cast<mlir::AffineSymbolExpr>(expr).getPosition()));
      break;
    default: {
      XI_ASSIGN_OR_RETURN(
          form, LinearizeBinary(mlir::cast<mlir::AffineBinaryOpExpr>(expr)));
    }
  }
  memo_[expr] = form;
  return form;
}

/// e1 + e2 and e * k are linear; e floordiv c, e ceildiv c and e mod c add a
/// local: ceil(e / c) = -floor(-e / c) and e mod c = e - c * floor(e / c).
absl::StatusOr<LinearForm> RelationBuilder::LinearizeBinary(
    mlir::AffineBinaryOpExpr expr) {
  XI_ASSIGN_OR_RETURN(LinearForm lhs, Linearize(expr.getLHS()));
  XI_ASSIGN_OR_RETURN(LinearForm rhs, Linearize(expr.getRHS()));
  AffineExprKind kind = expr.getKind();
  if (kind == AffineExprKind::Add) return AddScaled(lhs, rhs, DynamicAPInt(1));
  if (kind == AffineExprKind::Mul) {
    if (rhs.IsConstant()) return Scale(lhs, rhs.constant);
    if (lhs.IsConstant()) return Scale(rhs, lhs.constant);
    return NotAffine(expr, "multiplies two variables");
  }
  if (!rhs.IsConstant()) return NotAffine(expr, "divides by a non-constant");
  const DynamicAPInt& c = rhs.constant;
  if (c == 0) return NotAffine(expr, "divides by zero");
  switch (kind) {
    case AffineExprKind::FloorDiv:
      return FloorDivLocal(lhs, c);
    case AffineExprKind::CeilDiv:
      return Scale(FloorDivLocal(Scale(lhs, DynamicAPInt(-1)), c),
                   DynamicAPInt(-1));
    case AffineExprKind::Mod:
      // MLIR defines `mod` for a positive right-hand side only.
      if (c < 0) return NotAffine(expr, "takes a modulo by a negative value");
      return AddScaled(lhs, FloorDivLocal(lhs, c), -c);
    default:
      return NotAffine(expr, "is not an affine operation");
  }
}

/// The value as int64, or OutOfRange naming `what`.
absl::StatusOr<int64_t> ToInt64(const DynamicAPInt& value,
                                absl::string_view what) {
  if (value < std::numeric_limits<int64_t>::min() ||
      value > std::numeric_limits<int64_t>::max()) {
    return absl::OutOfRangeError(
        absl::StrCat("a ", what, " of the point does not fit in int64"));
  }
  return static_cast<int64_t>(value);
}

/// values[begin, begin + count) as int64.
absl::StatusOr<std::vector<int64_t>> Slice(llvm::ArrayRef<DynamicAPInt> values,
                                           unsigned begin, unsigned count,
                                           absl::string_view what) {
  std::vector<int64_t> out;
  out.reserve(count);
  for (unsigned i = begin; i < begin + count; ++i) {
    XI_ASSIGN_OR_RETURN(int64_t v, ToInt64(values[i], what));
    out.push_back(v);
  }
  return out;
}

/// The RelationPoint of `map` whose dims and results are the first columns
/// of `non_locals`; the symbol values are found by
/// IntegerRelation::containsPointNoLocal on the map's own relation, whose
/// first locals are the symbols.
absl::StatusOr<RelationPoint> PointWithSymbols(
    const IndexingMap& map, const IntegerRelation& relation,
    llvm::ArrayRef<DynamicAPInt> non_locals) {
  unsigned num_dims = map.GetDimensionCount();
  unsigned num_results = map.GetResultCount();
  std::optional<Row> locals = relation.containsPointNoLocal(
      non_locals.take_front(num_dims + num_results));
  if (!locals.has_value()) {
    return absl::InternalError("the witness is not in the map's relation");
  }
  RelationPoint point;
  XI_ASSIGN_OR_RETURN(point.dims, Slice(non_locals, 0, num_dims, "dimension"));
  XI_ASSIGN_OR_RETURN(point.results,
                      Slice(non_locals, num_dims, num_results, "result"));
  XI_ASSIGN_OR_RETURN(point.symbols,
                      Slice(*locals, 0, map.GetSymbolCount(), "symbol"));
  return point;
}

}  // namespace

absl::StatusOr<IntegerRelation> IndexingMapToRelation(const IndexingMap& map) {
  if (map.IsUndefined()) {
    return absl::InvalidArgumentError(
        "an UNDEFINED map has no relation (no indexing rule is known)");
  }
  XI_RETURN_IF_ERROR(map.Verify());
  if (map.IsKnownEmpty()) {
    return IntegerRelation::getEmpty(PresburgerSpace::getRelationSpace(
        map.GetDimensionCount(), map.GetResultCount()));
  }
  return RelationBuilder(map).Build();
}

absl::StatusOr<bool> IsExactlyEmpty(const IndexingMap& map) {
  XI_ASSIGN_OR_RETURN(IntegerRelation relation, IndexingMapToRelation(map));
  return relation.isIntegerEmpty();
}

absl::StatusOr<std::optional<RelationPoint>> FindRelationPoint(
    const IndexingMap& map) {
  XI_ASSIGN_OR_RETURN(IntegerRelation relation, IndexingMapToRelation(map));
  std::optional<Row> sample = relation.findIntegerSample();
  if (!sample.has_value()) return std::nullopt;
  // The sample has every column: dims, results, then the symbols as the
  // first locals.
  RelationPoint point;
  unsigned num_dims = map.GetDimensionCount();
  unsigned num_results = map.GetResultCount();
  XI_ASSIGN_OR_RETURN(point.dims, Slice(*sample, 0, num_dims, "dimension"));
  XI_ASSIGN_OR_RETURN(point.results,
                      Slice(*sample, num_dims, num_results, "result"));
  XI_ASSIGN_OR_RETURN(point.symbols, Slice(*sample, num_dims + num_results,
                                           map.GetSymbolCount(), "symbol"));
  return point;
}

absl::StatusOr<std::optional<MapDifference>> FindDifference(
    const IndexingMap& a, const IndexingMap& b) {
  XI_ASSIGN_OR_RETURN(IntegerRelation relation_a, IndexingMapToRelation(a));
  XI_ASSIGN_OR_RETURN(IntegerRelation relation_b, IndexingMapToRelation(b));
  if (a.GetDimensionCount() != b.GetDimensionCount() ||
      a.GetResultCount() != b.GetResultCount()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the maps have ", a.GetDimensionCount(), " and ", b.GetDimensionCount(),
        " dimensions, ", a.GetResultCount(), " and ", b.GetResultCount(),
        " results; only maps with the same counts relate "
        "the same kind of pairs"));
  }
  // A \ B (PresburgerRelation::subtract) is empty iff A is a subset of B;
  // the relations are equal iff both differences are empty. subtract turns
  // B's symbol locals into division locals itself
  // (PresburgerRelation::computeReprWithOnlyDivLocals).
  for (int side = 0; side < 2; ++side) {
    const IndexingMap& in_map = side == 0 ? a : b;
    const IntegerRelation& in = side == 0 ? relation_a : relation_b;
    const IntegerRelation& other = side == 0 ? relation_b : relation_a;
    PresburgerRelation difference =
        PresburgerRelation(in).subtract(PresburgerRelation(other));
    Row sample;
    if (!difference.findIntegerSample(sample)) continue;
    XI_ASSIGN_OR_RETURN(RelationPoint point,
                        PointWithSymbols(in_map, in, sample));
    return MapDifference{side, std::move(point)};
  }
  return std::nullopt;
}

absl::StatusOr<bool> AreExactlyEqual(const IndexingMap& a,
                                     const IndexingMap& b) {
  XI_ASSIGN_OR_RETURN(std::optional<MapDifference> difference,
                      FindDifference(a, b));
  return !difference.has_value();
}

}  // namespace xla_index
