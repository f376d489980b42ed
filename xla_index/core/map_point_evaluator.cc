#include "xla_index/core/map_point_evaluator.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

using Int = MapPointEvaluator::Int;

constexpr Int kInt128Min =
    static_cast<Int>(static_cast<unsigned __int128>(1) << 127);

absl::Status NotAffine(mlir::AffineExpr expr, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("'", AffineExprToString(expr), "' ", why,
                   ": the map is not affine with constant divisors"));
}

/// The constant of `expr`, when it is one.
bool ConstantOf(mlir::AffineExpr expr, int64_t& value) {
  auto constant = mlir::dyn_cast<mlir::AffineConstantExpr>(expr);
  if (!constant) return false;
  value = constant.getValue();
  return true;
}

Int FloorDiv(Int a, Int b) {
  Int q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}

Int CeilDiv(Int a, Int b) {
  Int q = a / b;
  if (a % b != 0 && ((a < 0) == (b < 0))) ++q;
  return q;
}

}  // namespace

absl::Status MapPointEvaluator::Compile(mlir::AffineExpr expr, int64_t num_dims,
                                        Program& program) {
  switch (expr.getKind()) {
    case mlir::AffineExprKind::Constant:
      program.push_back(
          {Op::kConstant,
           mlir::cast<mlir::AffineConstantExpr>(expr).getValue()});
      return absl::OkStatus();
    case mlir::AffineExprKind::DimId:
      program.push_back(
          {Op::kVariable, mlir::cast<mlir::AffineDimExpr>(expr).getPosition()});
      return absl::OkStatus();
    case mlir::AffineExprKind::SymbolId:
      program.push_back(
          {Op::kVariable,
           num_dims + mlir::cast<mlir::AffineSymbolExpr>(expr).getPosition()});
      return absl::OkStatus();
    default:
      break;
  }
  auto binary = mlir::cast<mlir::AffineBinaryOpExpr>(expr);
  int64_t constant = 0;
  const bool rhs_constant = ConstantOf(binary.getRHS(), constant);
  Op op;
  switch (expr.getKind()) {
    case mlir::AffineExprKind::Add:
      op = Op::kAdd;
      break;
    case mlir::AffineExprKind::Mul:
      if (!rhs_constant &&
          !mlir::isa<mlir::AffineConstantExpr>(binary.getLHS())) {
        return NotAffine(expr, "multiplies two variables");
      }
      op = Op::kMul;
      break;
    case mlir::AffineExprKind::FloorDiv:
    case mlir::AffineExprKind::CeilDiv:
      if (!rhs_constant) return NotAffine(expr, "divides by a non-constant");
      if (constant == 0) return NotAffine(expr, "divides by zero");
      op = expr.getKind() == mlir::AffineExprKind::FloorDiv ? Op::kFloorDiv
                                                            : Op::kCeilDiv;
      break;
    case mlir::AffineExprKind::Mod:
      if (!rhs_constant) return NotAffine(expr, "divides by a non-constant");
      if (constant <= 0) {
        return NotAffine(expr, "takes a modulo by a non-positive value");
      }
      op = Op::kMod;
      break;
    default:
      return NotAffine(expr, "is not an affine operation");
  }
  XI_RETURN_IF_ERROR(Compile(binary.getLHS(), num_dims, program));
  XI_RETURN_IF_ERROR(Compile(binary.getRHS(), num_dims, program));
  program.push_back({op, 0});
  return absl::OkStatus();
}

absl::StatusOr<MapPointEvaluator> MapPointEvaluator::Create(
    const IndexingMap& map) {
  if (map.IsUndefined() || map.IsKnownEmpty()) {
    return absl::InvalidArgumentError(
        "an UNDEFINED or KNOWN EMPTY map has no expressions to evaluate");
  }
  MapPointEvaluator evaluator;
  const int64_t num_dims = map.GetDimensionCount();
  for (mlir::AffineExpr result : map.GetAffineMap().getResults()) {
    evaluator.results_.emplace_back();
    XI_RETURN_IF_ERROR(Compile(result, num_dims, evaluator.results_.back()));
  }
  for (const IndexingConstraint& constraint : map.GetConstraints()) {
    Constraint compiled{
        {}, constraint.interval.lower, constraint.interval.upper};
    XI_RETURN_IF_ERROR(Compile(constraint.expr, num_dims, compiled.program));
    evaluator.constraints_.push_back(std::move(compiled));
  }
  return evaluator;
}

MapPointEvaluator::Outcome MapPointEvaluator::Run(
    const Program& program, absl::Span<const int64_t> point, Int& value) const {
  stack_.clear();
  for (const Instruction& instruction : program) {
    if (instruction.op == Op::kConstant) {
      stack_.push_back(instruction.operand);
      continue;
    }
    if (instruction.op == Op::kVariable) {
      stack_.push_back(point[instruction.operand]);
      continue;
    }
    const Int rhs = stack_.back();
    stack_.pop_back();
    Int& lhs = stack_.back();
    switch (instruction.op) {
      case Op::kAdd:
        if (__builtin_add_overflow(lhs, rhs, &lhs)) return Outcome::kTooBig;
        break;
      case Op::kMul:
        if (__builtin_mul_overflow(lhs, rhs, &lhs)) return Outcome::kTooBig;
        break;
      case Op::kFloorDiv:
        // The divisor is an int64 constant: only INT128_MIN / -1 overflows.
        if (rhs == -1 && lhs == kInt128Min) return Outcome::kTooBig;
        lhs = FloorDiv(lhs, rhs);
        break;
      case Op::kCeilDiv:
        if (rhs == -1 && lhs == kInt128Min) return Outcome::kTooBig;
        lhs = CeilDiv(lhs, rhs);
        break;
      case Op::kMod: {
        Int m = lhs % rhs;
        if (m < 0) m += rhs;
        lhs = m;
        break;
      }
      default:
        break;
    }
  }
  value = stack_.back();
  return Outcome::kOk;
}

MapPointEvaluator::Outcome MapPointEvaluator::ConstraintsHold(
    absl::Span<const int64_t> point, bool& holds) const {
  holds = true;
  for (const Constraint& constraint : constraints_) {
    Int value;
    if (Run(constraint.program, point, value) != Outcome::kOk) {
      return Outcome::kTooBig;
    }
    if (value < constraint.lower || value > constraint.upper) {
      holds = false;
      return Outcome::kOk;
    }
  }
  return Outcome::kOk;
}

MapPointEvaluator::Outcome MapPointEvaluator::Results(
    absl::Span<const int64_t> point, std::vector<Int>& results) const {
  results.resize(results_.size());
  for (size_t i = 0; i < results_.size(); ++i) {
    if (Run(results_[i], point, results[i]) != Outcome::kOk) {
      return Outcome::kTooBig;
    }
  }
  return Outcome::kOk;
}

absl::StatusOr<Int> MapPointEvaluator::EvaluateExpr(
    mlir::AffineExpr expr, absl::Span<const int64_t> point, int64_t num_dims) {
  MapPointEvaluator evaluator;
  Program program;
  XI_RETURN_IF_ERROR(Compile(expr, num_dims, program));
  Int value;
  if (evaluator.Run(program, point, value) != Outcome::kOk) {
    return absl::OutOfRangeError(
        absl::StrCat("'", AffineExprToString(expr),
                     "' has an intermediate value beyond 128 bits"));
  }
  return value;
}

}  // namespace xla_index
