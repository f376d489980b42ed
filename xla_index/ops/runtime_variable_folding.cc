#include "xla_index/ops/runtime_variable_folding.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/checked_arithmetic.h"
#include "hlo/instruction.h"
#include "hlo/literal.h"
#include "hlo/primitive_type.h"
#include "hlo/shape.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/core/checked_affine_expr.h"
#include "xla_index/ops/instruction_indexing.h"
#include "xla_index/ops/op_rules.h"

namespace xla_index {
namespace {

using mlir::AffineExpr;
using mlir::AffineMap;
using mlir::MLIRContext;

// A value known at compile time: `expr` over the owning map's dims, and an
// interval holding every value it takes on the map's domain.
struct KnownValue {
  AffineExpr expr;
  Interval range;
};

// The values of an integer element type that int64 holds; nullopt for
// other types (floats are not folded: their conversions round).
std::optional<Interval> IntegerRange(PrimitiveType type) {
  const int64_t bits = BitWidth(type);
  if (IsSignedIntegral(type)) {
    if (bits >= 64) return Interval::Unbounded();
    return Interval{-(int64_t{1} << (bits - 1)),
                    (int64_t{1} << (bits - 1)) - 1};
  }
  if (IsUnsignedIntegral(type)) {
    if (bits >= 63) return Interval{0, Interval::kMax};
    return Interval{0, (int64_t{1} << bits) - 1};
  }
  return std::nullopt;
}

// The interval arithmetic of the folded ops; nullopt on int64 overflow.
std::optional<Interval> AddRanges(Interval a, Interval b) {
  std::optional<int64_t> lo = CheckedAdd(a.lower, b.lower);
  std::optional<int64_t> hi = CheckedAdd(a.upper, b.upper);
  if (!lo || !hi) return std::nullopt;
  return Interval{*lo, *hi};
}
std::optional<Interval> NegateRange(Interval a) {
  std::optional<int64_t> lo = CheckedNeg(a.upper);
  std::optional<int64_t> hi = CheckedNeg(a.lower);
  if (!lo || !hi) return std::nullopt;
  return Interval{*lo, *hi};
}
std::optional<Interval> ScaleRange(Interval a, int64_t c) {
  std::optional<int64_t> x = CheckedMul(a.lower, c);
  std::optional<int64_t> y = CheckedMul(a.upper, c);
  if (!x || !y) return std::nullopt;
  return Interval{std::min(*x, *y), std::max(*x, *y)};
}

// Caps the instructions visited for one variable: a DAG such as add(x, x)
// nested n times would otherwise take 2^n steps.
constexpr int kMaxVisitedInstructions = 64;

// Folds the value of an instruction's element at an access map, following
// its operands (see runtime_variable_folding.h for the ops).
class ValueFolder {
 public:
  ValueFolder(absl::Span<const Interval> dim_bounds, MLIRContext* context)
      : domain_(AffineMap::get(dim_bounds.size(), 0, {}, context),
                std::vector<Interval>(dim_bounds.begin(), dim_bounds.end()), {},
                {}),
        context_(context) {}

  std::optional<KnownValue> Fold(const HloInstruction* hlo, AffineMap access) {
    if (hlo == nullptr || ++visited_ > kMaxVisitedInstructions) {
      return std::nullopt;
    }
    std::optional<Interval> type_range =
        hlo->shape().IsArray() ? IntegerRange(hlo->shape().element_type())
                               : std::nullopt;
    if (!type_range) return std::nullopt;
    std::optional<KnownValue> value = FoldOp(hlo, access);
    // An HLO integer op wraps where the exact value leaves its type: such a
    // value is not the affine expression.
    if (!value || !type_range->Contains(value->range)) return std::nullopt;
    return value;
  }

 private:
  Interval RangeOf(AffineExpr expr) const {
    return ComputeExpressionRange(domain_, expr);
  }
  // The access of operand k of `hlo`: the same element, or `()` for a
  // scalar operand of an array op (clamp's bounds).
  AffineMap OperandAccess(const HloInstruction* hlo, int64_t k,
                          AffineMap access) const {
    if (hlo->operand(k)->shape().rank() == 0) {
      return AffineMap::get(access.getNumDims(), 0, {}, context_);
    }
    return access;
  }
  std::optional<KnownValue> Operand(const HloInstruction* hlo, int64_t k,
                                    AffineMap access) {
    if (k >= hlo->operand_count()) return std::nullopt;
    return Fold(hlo->operand(k), OperandAccess(hlo, k, access));
  }

  std::optional<KnownValue> FoldOp(const HloInstruction* hlo,
                                   AffineMap access) {
    switch (hlo->opcode()) {
      case HloOpcode::kConstant:
        return FoldConstant(hlo, access);
      case HloOpcode::kIota:
        return FoldIota(hlo, access);
      case HloOpcode::kBroadcast:
        return FoldThrough(ComputeOutputToInputBroadcastIndexing, hlo, access);
      case HloOpcode::kReshape:
        return FoldThrough(ComputeOutputToInputReshapeIndexing, hlo, access);
      case HloOpcode::kBitcast:
        return FoldThrough(ComputeOutputToInputBitcastIndexing, hlo, access);
      case HloOpcode::kTranspose:
        return FoldThrough(ComputeOutputToInputTransposeIndexing, hlo, access);
      case HloOpcode::kReverse:
        return FoldThrough(ComputeOutputToInputReverseIndexing, hlo, access);
      case HloOpcode::kSlice:
        return FoldThrough(ComputeOutputToInputSliceIndexing, hlo, access);
      case HloOpcode::kConvert:
        return hlo->operand_count() == 1 ? Operand(hlo, 0, access)
                                         : std::nullopt;
      case HloOpcode::kClamp:
        return FoldClamp(hlo, access);
      default:
        return FoldArithmetic(hlo, access);
    }
  }

  // Element access(d) of a constant: the access must be one index.
  std::optional<KnownValue> FoldConstant(const HloInstruction* hlo,
                                         AffineMap access) {
    const Literal& literal = hlo->literal();
    const Shape& shape = hlo->shape();
    if (!literal.has_values() || access.getNumResults() != shape.rank()) {
      return std::nullopt;
    }
    std::vector<int64_t> index;
    for (AffineExpr e : access.getResults()) {
      Interval at = RangeOf(e);
      if (!at.IsPoint()) return std::nullopt;
      index.push_back(at.lower);
    }
    for (int64_t k = 0; k < shape.rank(); ++k) {
      if (index[k] < 0 || index[k] >= shape.dimensions(k)) {
        return std::nullopt;
      }
    }
    int64_t value = literal.GetInt(LinearIndex(shape.dimensions(), index));
    return KnownValue{mlir::getAffineConstantExpr(value, context_),
                      Interval::Point(value)};
  }

  // An iota's element is its index along iota_dimension.
  std::optional<KnownValue> FoldIota(const HloInstruction* hlo,
                                     AffineMap access) {
    const int64_t dim = hlo->iota_dimension();
    if (dim < 0 || dim >= access.getNumResults()) return std::nullopt;
    AffineExpr expr = access.getResult(dim);
    return KnownValue{expr, RangeOf(expr)};
  }

  // An indexing op: the operand element its own output-to-input rule names
  // (one map without symbols or constraints), composed with the access.
  std::optional<KnownValue> FoldThrough(OutputToInputRule rule,
                                        const HloInstruction* hlo,
                                        AffineMap access) {
    if (hlo->operand_count() != 1) return std::nullopt;
    HloInstructionIndexing indexing = rule(hlo, 0, context_);
    if (indexing.indexing_maps.empty() ||
        indexing.indexing_maps[0].size() != 1) {
      return std::nullopt;
    }
    const IndexingMap& map = indexing.indexing_maps[0][0];
    if (map.IsUndefined() || map.IsKnownEmpty() || map.GetSymbolCount() != 0 ||
        map.GetConstraintsCount() != 0 ||
        map.GetDimensionCount() != access.getNumResults()) {
      return std::nullopt;
    }
    // map after access, built checked (a folded coefficient that leaves
    // int64 keeps the runtime variable).
    absl::StatusOr<AffineMap> composed = CheckedReplaceDimsAndSymbols(
        map.GetAffineMap(), access.getResults(), {}, access.getNumDims(),
        access.getNumSymbols());
    if (!composed.ok()) return std::nullopt;
    return Fold(hlo->operand(0), *composed);
  }

  // clamp(lo, x, hi) = min(max(x, lo), hi) with constant bounds: x where it
  // stays inside them, a bound where x is entirely beyond it.
  std::optional<KnownValue> FoldClamp(const HloInstruction* hlo,
                                      AffineMap access) {
    std::optional<KnownValue> lo = Operand(hlo, 0, access);
    std::optional<KnownValue> hi = Operand(hlo, 2, access);
    if (!lo || !hi || !lo->range.IsPoint() || !hi->range.IsPoint()) {
      return std::nullopt;
    }
    std::optional<KnownValue> x = Operand(hlo, 1, access);
    if (!x) return std::nullopt;
    const int64_t l = lo->range.lower, h = hi->range.lower;
    if (x->range.IsPoint() || x->range.upper <= l || x->range.lower >= h) {
      // Constant after clamping: evaluate at any value of x's range (all
      // clamp to the same value in the last two cases).
      const int64_t v = std::min(std::max(x->range.lower, l), h);
      if (std::min(std::max(x->range.upper, l), h) != v) return std::nullopt;
      return KnownValue{mlir::getAffineConstantExpr(v, context_),
                        Interval::Point(v)};
    }
    if (l <= x->range.lower && x->range.upper <= h) return x;
    return std::nullopt;
  }

  // negate, add, subtract, multiply by a constant, divide a non-negative
  // value by a positive constant (HLO's division rounds toward zero, which
  // is floordiv there).
  std::optional<KnownValue> FoldArithmetic(const HloInstruction* hlo,
                                           AffineMap access) {
    const HloOpcode op = hlo->opcode();
    if (op == HloOpcode::kNegate) {
      std::optional<KnownValue> a = Operand(hlo, 0, access);
      if (!a) return std::nullopt;
      std::optional<Interval> range = NegateRange(a->range);
      if (!range) return std::nullopt;
      return Known(CheckedAffineNeg(a->expr), *range);
    }
    if (op != HloOpcode::kAdd && op != HloOpcode::kSubtract &&
        op != HloOpcode::kMultiply && op != HloOpcode::kDivide) {
      return std::nullopt;
    }
    std::optional<KnownValue> a = Operand(hlo, 0, access);
    if (!a) return std::nullopt;
    std::optional<KnownValue> b = Operand(hlo, 1, access);
    if (!b) return std::nullopt;
    switch (op) {
      case HloOpcode::kAdd:
        return Sum(*a, *b);
      case HloOpcode::kSubtract: {
        std::optional<Interval> neg = NegateRange(b->range);
        if (!neg) return std::nullopt;
        absl::StatusOr<AffineExpr> negated = CheckedAffineNeg(b->expr);
        if (!negated.ok()) return std::nullopt;
        return Sum(*a, KnownValue{*negated, *neg});
      }
      case HloOpcode::kMultiply:
        if (b->range.IsPoint()) return Scale(*a, b->range.lower);
        if (a->range.IsPoint()) return Scale(*b, a->range.lower);
        return std::nullopt;
      default: {  // kDivide
        const int64_t c = b->range.lower;
        if (!b->range.IsPoint() || c <= 0 || a->range.lower < 0) {
          return std::nullopt;
        }
        return Known(
            CheckedAffineBinaryOp(mlir::AffineExprKind::FloorDiv, a->expr,
                                  mlir::getAffineConstantExpr(c, context_)),
            Interval{a->range.lower / c, a->range.upper / c});
      }
    }
  }
  std::optional<KnownValue> Sum(const KnownValue& a, const KnownValue& b) {
    std::optional<Interval> range = AddRanges(a.range, b.range);
    if (!range) return std::nullopt;
    return Known(CheckedAffineAdd(a.expr, b.expr), *range);
  }
  std::optional<KnownValue> Scale(const KnownValue& a, int64_t c) {
    std::optional<Interval> range = ScaleRange(a.range, c);
    if (!range) return std::nullopt;
    return Known(
        CheckedAffineMul(a.expr, mlir::getAffineConstantExpr(c, context_)),
        *range);
  }
  // The value `expr` with `range`, or nothing when the expression could not
  // be built exactly (MLIR's operators would wrap a folded constant).
  static std::optional<KnownValue> Known(absl::StatusOr<AffineExpr> expr,
                                         Interval range) {
    if (!expr.ok()) return std::nullopt;
    return KnownValue{*expr, range};
  }

  IndexingMap domain_;
  MLIRContext* context_;
  int visited_ = 0;
};

}  // namespace

std::optional<AffineExpr> FoldRuntimeVariable(
    const RuntimeVar& var, absl::Span<const Interval> dim_bounds) {
  const Interval feasible = var.feasible_values;
  const AffineMap access = var.access;
  if (var.hlo == nullptr || !access || access.getNumSymbols() != 0 ||
      access.getNumDims() != dim_bounds.size() || feasible.IsEmpty()) {
    return std::nullopt;
  }
  // Dims of a single value are that value: the access stays constant where
  // it can (a constant operand is read at a constant index), and no
  // coefficient of a dim without range grows unchecked.
  MLIRContext* context = access.getContext();
  llvm::SmallVector<AffineExpr> dims;
  for (size_t d = 0; d < dim_bounds.size(); ++d) {
    dims.push_back(
        dim_bounds[d].IsPoint()
            ? mlir::getAffineConstantExpr(dim_bounds[d].lower, context)
            : mlir::getAffineDimExpr(d, context));
  }
  absl::StatusOr<AffineMap> pinned =
      CheckedReplaceDimsAndSymbols(access, dims, {}, dims.size(), 0);
  if (!pinned.ok()) return std::nullopt;
  ValueFolder folder(dim_bounds, context);
  std::optional<KnownValue> value =
      folder.Fold(static_cast<const HloInstruction*>(var.hlo), *pinned);
  if (!value) return std::nullopt;
  if (feasible.Contains(value->range)) return value->expr;
  if (value->range.IsPoint()) {
    return mlir::getAffineConstantExpr(
        std::clamp(value->range.lower, feasible.lower, feasible.upper),
        context);
  }
  return std::nullopt;
}

IndexingMap FoldRuntimeVariables(IndexingMap map) {
  if (map.IsUndefined() || map.IsKnownEmpty()) return map;
  const std::vector<RuntimeVar>& vars = map.GetRuntimeVars();
  for (const RuntimeVar& var : vars) {
    if (var.access && var.access.getNumSymbols() != 0) return map;
  }
  MLIRContext* context = map.GetMLIRContext();
  const int64_t ranges = map.GetRangeVarsCount();
  llvm::SmallVector<AffineExpr> symbols;
  for (int64_t s = 0; s < ranges; ++s) {
    symbols.push_back(mlir::getAffineSymbolExpr(s, context));
  }
  std::vector<RuntimeVar> kept;
  for (const RuntimeVar& var : vars) {
    std::optional<AffineExpr> value =
        FoldRuntimeVariable(var, map.GetDimBounds());
    if (value) {
      symbols.push_back(*value);
    } else {
      symbols.push_back(
          mlir::getAffineSymbolExpr(ranges + kept.size(), context));
      kept.push_back(var);
    }
  }
  if (kept.size() == vars.size()) return map;
  const int64_t num_dims = map.GetDimensionCount();
  const int64_t num_symbols = ranges + kept.size();
  llvm::SmallVector<AffineExpr> dims;
  for (int64_t d = 0; d < num_dims; ++d) {
    dims.push_back(mlir::getAffineDimExpr(d, context));
  }
  // Substituted checked: a folded coefficient that leaves int64 keeps the
  // runtime variables.
  std::vector<IndexingConstraint> constraints;
  for (const IndexingConstraint& c : map.GetConstraints()) {
    absl::StatusOr<AffineExpr> expr =
        CheckedReplaceDimsAndSymbols(c.expr, dims, symbols);
    if (!expr.ok()) return map;
    constraints.push_back({*expr, c.interval});
  }
  absl::StatusOr<AffineMap> results = CheckedReplaceDimsAndSymbols(
      map.GetAffineMap(), dims, symbols, num_dims, num_symbols);
  if (!results.ok()) return map;
  IndexingMap folded(*results, map.GetDimBounds(), map.GetRangeVarBounds(),
                     std::move(kept), std::move(constraints));
  SimplifyAndRemoveUnusedSymbols(folded);
  return folded;
}

}  // namespace xla_index
