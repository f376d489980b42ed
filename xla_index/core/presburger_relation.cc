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
#include "base/status_macros.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DynamicAPInt.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "mlir/Analysis/Presburger/PresburgerRelation.h"
#include "mlir/Analysis/Presburger/PresburgerSpace.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

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

/// The exact value of a 128-bit integer: high * 2^64 + low.
DynamicAPInt ToDynamic(__int128 value) {
  const DynamicAPInt two32(int64_t{1} << 32);
  const auto low = static_cast<uint64_t>(value);
  const auto high = static_cast<int64_t>(value >> 64);
  return DynamicAPInt(high) * two32 * two32 +
         DynamicAPInt(static_cast<int64_t>(low >> 32)) * two32 +
         DynamicAPInt(static_cast<int64_t>(low & 0xffffffffu));
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

  /// The builder of the relation of `map`'s domain alone (no result
  /// columns), to which AddInequality adds rows.
  static RelationBuilder ForDomain(const IndexingMap& map) {
    return RelationBuilder(map, /*num_results=*/0);
  }

  /// Adds the bounds and constraints (and, when the builder has result
  /// columns, the results).
  absl::Status AddMap() {
    AddVariableBounds();
    XI_RETURN_IF_ERROR(AddConstraints());
    return AddResults();
  }

  /// Adds sum_k terms[k].second * terms[k].first + constant >= 0, the
  /// expressions over the map's dims and symbols.
  absl::Status AddInequality(const AffineInequality& inequality) {
    LinearForm form;
    form.constant = ToDynamic(inequality.constant);
    for (const auto& [expr, coefficient] : inequality.terms) {
      XI_ASSIGN_OR_RETURN(LinearForm term, Linearize(expr));
      form = AddScaled(form, term, DynamicAPInt(coefficient));
    }
    relation_.addInequality(ToRow(form));
    return absl::OkStatus();
  }

  IntegerRelation& relation() { return relation_; }

  absl::StatusOr<IntegerRelation> Build() && {
    XI_RETURN_IF_ERROR(AddMap());
    return std::move(relation_);
  }

 private:
  RelationBuilder(const IndexingMap& map, unsigned num_results)
      : map_(map),
        num_dims_(map.GetDimensionCount()),
        num_results_(num_results),
        relation_(PresburgerSpace::getRelationSpace(
            num_dims_, num_results_, /*numSymbols=*/0,
            /*numLocals=*/map.GetSymbolCount())) {}

  /// [lo, hi] of column `column`: a dim's or symbol's interval, a division
  /// local's range derived from its dividend's; a result column has none.
  struct Range {
    DynamicAPInt lo, hi;
  };

  /// The range of `form` over the ranges of its columns (exact, no
  /// overflow: DynamicAPInt).
  Range RangeOf(const LinearForm& form) const {
    Range range{form.constant, form.constant};
    for (size_t i = 0; i < form.coefficients.size(); ++i) {
      const DynamicAPInt& c = form.coefficients[i];
      if (c == 0 || i >= column_ranges_.size()) continue;
      const Range& v = column_ranges_[i];
      range.lo += c > 0 ? c * v.lo : c * v.hi;
      range.hi += c > 0 ? c * v.hi : c * v.lo;
    }
    return range;
  }

  void SetRange(unsigned column, Range range) {
    if (column_ranges_.size() <= column) column_ranges_.resize(column + 1);
    column_ranges_[column] = std::move(range);
  }

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
      SetRange(column,
               {DynamicAPInt(interval.lower), DynamicAPInt(interval.upper)});
    };
    for (unsigned d = 0; d < num_dims_; ++d) bound(d, map_.GetDimBound(d));
    for (unsigned s = 0; s < map_.GetSymbolCount(); ++s) {
      bound(SymbolColumn(s), map_.GetSymbolBound(s));
    }
  }

  /// `e in [lo, hi]`: the equality e - lo == 0 when lo == hi, else the pair
  /// e - lo >= 0 and hi - e >= 0 (see NeedsSlackLocal for when the pair
  /// bounds a new local instead).
  absl::Status AddConstraints() {
    for (const IndexingConstraint& constraint : map_.GetConstraints()) {
      XI_ASSIGN_OR_RETURN(LinearForm form, Linearize(constraint.expr));
      Interval interval = constraint.interval;
      form.constant -= interval.lower;  // lo <= e <= hi  <=>  0 <= e - lo <= w
      DynamicAPInt width = DynamicAPInt(interval.upper) - interval.lower;
      if (width == 0) {
        relation_.addEquality(ToRow(form));
        continue;
      }
      if (NeedsSlackLocal(form, width)) {
        // t = e - lo as an equality (t has coefficient 1, so MLIR reads it
        // as exact), then 0 <= t <= w.
        unsigned slack_column = relation_.appendVar(VarKind::Local);
        SetRange(slack_column, {DynamicAPInt(0), width});
        LinearForm slack = Unit(slack_column);
        relation_.addEquality(ToRow(AddScaled(form, slack, DynamicAPInt(-1))));
        form = slack;
      }
      relation_.addInequality(ToRow(form));
      LinearForm below = Scale(form, DynamicAPInt(-1));
      below.constant += width;
      relation_.addInequality(ToRow(below));
    }
    return absl::OkStatus();
  }

  /// True when the pair 0 <= e' <= w, with e' = e - lo, would look to MLIR
  /// like the definition of a division: some local has a coefficient c with
  /// w < |c| - 1. IntegerRelation::getLocalReprs accepts bounds tighter than
  /// a division's 0 <= e' <= |c| - 1 as its definition, and
  /// PresburgerRelation::subtract then adds such a pair to the minuend and
  /// never subtracts its complement, which loses points (seen with MLIR 22).
  bool NeedsSlackLocal(const LinearForm& form,
                       const DynamicAPInt& width) const {
    for (size_t i = SymbolColumn(0); i < form.coefficients.size(); ++i) {
      if (abs(form.coefficients[i]) > width + 1) return true;
    }
    return false;
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
  /// When e's range lies in one interval [k*c, k*c + c - 1] (a divisor
  /// larger than the range), floor(e / c) is the constant k and no local is
  /// added: the relation stays as small as the map's meaning, whatever the
  /// divisor's size or the depth of nested divisions.
  LinearForm FloorDivLocal(const LinearForm& dividend, DynamicAPInt divisor) {
    LinearForm positive = dividend;
    if (divisor < 0) {
      positive = Scale(dividend, DynamicAPInt(-1));
      divisor = -divisor;
    }
    Range range = RangeOf(positive);
    Range quotient{floorDiv(range.lo, divisor), floorDiv(range.hi, divisor)};
    if (quotient.lo == quotient.hi) {
      LinearForm constant;
      constant.constant = quotient.lo;
      return constant;
    }
    unsigned column = relation_.addLocalFloorDiv(ToRow(positive), divisor);
    SetRange(column, std::move(quotient));
    return Unit(column);
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
  // Range of every column by position (see RangeOf); result columns get
  // [0, 0] and never appear in a form.
  std::vector<Range> column_ranges_;
};

absl::StatusOr<LinearForm> RelationBuilder::Linearize(AffineExpr expr) {
  if (auto it = memo_.find(expr); it != memo_.end()) return it->second;
  LinearForm form;
  switch (expr.getKind()) {
    case AffineExprKind::Constant:
      form.constant =
          DynamicAPInt(mlir::cast<mlir::AffineConstantExpr>(expr).getValue());
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

/// Bounds lo <= x_v <= hi of each variable from the rows that name only v,
/// and the rows that name several; nullopt when some variable has no lower
/// or no upper bound (then the caller asks MLIR).
struct BoxAndRows {
  std::vector<DynamicAPInt> lo, hi;
  std::vector<Row> others;
};
std::optional<BoxAndRows> SplitIntoBox(const IntegerRelation& relation) {
  const unsigned n = relation.getNumVars();
  std::vector<std::optional<DynamicAPInt>> lo(n), hi(n);
  BoxAndRows split;
  for (unsigned i = 0; i < relation.getNumInequalities(); ++i) {
    llvm::ArrayRef<DynamicAPInt> row = relation.getInequality(i);
    int only = -1;
    int named = 0;
    for (unsigned v = 0; v < n; ++v) {
      if (row[v] != 0) {
        only = static_cast<int>(v);
        ++named;
      }
    }
    if (named != 1) {
      split.others.emplace_back(row);
      continue;
    }
    // c*x + k >= 0: x >= ceil(-k / c) for c > 0, x <= floor(k / -c) else.
    const DynamicAPInt& c = row[only];
    if (c > 0) {
      DynamicAPInt bound = ceilDiv(-row.back(), c);
      if (!lo[only] || bound > *lo[only]) lo[only] = bound;
    } else {
      DynamicAPInt bound = floorDiv(row.back(), -c);
      if (!hi[only] || bound < *hi[only]) hi[only] = bound;
    }
  }
  for (unsigned v = 0; v < n; ++v) {
    if (!lo[v] || !hi[v]) return std::nullopt;
    split.lo.push_back(*lo[v]);
    split.hi.push_back(*hi[v]);
  }
  return split;
}

/// The sample of a relation without equalities that is a box and at most
/// one more inequality a . x + k >= 0, decided directly: the box is empty
/// when some lo > hi, and otherwise the corner that maximizes a . x is in
/// the set iff any point is. nullopt-of-nullopt: not of this shape.
std::optional<std::optional<Row>> SampleOfBoxAndOneRow(
    const IntegerRelation& relation) {
  if (relation.getNumEqualities() != 0) return std::nullopt;
  std::optional<BoxAndRows> split = SplitIntoBox(relation);
  if (!split || split->others.size() > 1) return std::nullopt;
  const unsigned n = relation.getNumVars();
  for (unsigned v = 0; v < n; ++v) {
    if (split->lo[v] > split->hi[v]) return std::optional<Row>();
  }
  Row corner(split->lo.begin(), split->lo.end());
  if (split->others.empty()) return std::optional<Row>(corner);
  const Row& row = split->others.front();
  DynamicAPInt value = row.back();
  for (unsigned v = 0; v < n; ++v) {
    if (row[v] > 0) corner[v] = split->hi[v];
    value += row[v] * corner[v];
  }
  if (value < 0) return std::optional<Row>();
  return std::optional<Row>(corner);
}

/// IntegerRelation::findIntegerSample after eliminating, one at a time,
/// every variable x with coefficient c = +-1 in an equality row
/// c*x + rest == 0: x = -c * rest is substituted into every other row
/// (exact over the integers because |c| = 1) and x is computed back from
/// the sample. A chain d_i - d_{i+1} == 1 of n dimensions thus leaves one
/// variable instead of a search in n dimensions (generalized basis
/// reduction), and a map's result columns disappear the same way. A box
/// with at most one more inequality is then decided directly
/// (SampleOfBoxAndOneRow).
std::optional<Row> SampleByUnitElimination(const IntegerRelation& relation) {
  IntegerRelation reduced = relation;
  std::vector<unsigned> columns(relation.getNumVars());
  for (unsigned k = 0; k < columns.size(); ++k) columns[k] = k;
  struct Definition {
    unsigned column;
    Row row;  // over the original columns, then the constant
  };
  std::vector<Definition> definitions;
  auto eliminate = [&](unsigned e, unsigned v) {
    const Row eq(reduced.getEquality(e));
    const DynamicAPInt& c = eq[v];
    const unsigned cols = reduced.getNumCols();
    for (unsigned i = 0; i < reduced.getNumEqualities(); ++i) {
      if (i == e || reduced.atEq(i, v) == 0) continue;
      const DynamicAPInt factor = reduced.atEq(i, v) * c;
      for (unsigned j = 0; j < cols; ++j) reduced.atEq(i, j) -= factor * eq[j];
    }
    for (unsigned i = 0; i < reduced.getNumInequalities(); ++i) {
      if (reduced.atIneq(i, v) == 0) continue;
      const DynamicAPInt factor = reduced.atIneq(i, v) * c;
      for (unsigned j = 0; j < cols; ++j) {
        reduced.atIneq(i, j) -= factor * eq[j];
      }
    }
    Definition definition{columns[v], Row(relation.getNumCols())};
    for (unsigned j = 0; j + 1 < cols; ++j) {
      definition.row[columns[j]] = eq[j];
    }
    definition.row.back() = eq.back();
    definitions.push_back(std::move(definition));
    reduced.removeEquality(e);
    reduced.removeVar(v);
    columns.erase(columns.begin() + v);
  };
  for (bool found = true; found;) {
    found = false;
    for (unsigned e = 0; e < reduced.getNumEqualities() && !found; ++e) {
      for (unsigned v = 0; v < reduced.getNumVars() && !found; ++v) {
        if (abs(reduced.atEq(e, v)) == 1) {
          eliminate(e, v);
          found = true;
        }
      }
    }
  }
  std::optional<std::optional<Row>> direct = SampleOfBoxAndOneRow(reduced);
  std::optional<Row> sample =
      direct.has_value() ? *direct : reduced.findIntegerSample();
  if (!sample.has_value()) return std::nullopt;
  Row full(relation.getNumVars());
  for (unsigned k = 0; k < columns.size(); ++k) full[columns[k]] = (*sample)[k];
  for (auto it = definitions.rbegin(); it != definitions.rend(); ++it) {
    // c*x + rest == 0 with c = +-1: x = -c * rest.
    DynamicAPInt rest = it->row.back();
    for (unsigned j = 0; j < full.size(); ++j) {
      if (j != it->column) rest += it->row[j] * full[j];
    }
    full[it->column] = -it->row[it->column] * rest;
  }
  return full;
}

/// `relation` with its first `num_symbols` locals (the map's symbols) moved
/// to the end of the range: { (d, r, s) : R'(d, r, s) }, whose remaining
/// locals are all divisions.
IntegerRelation SymbolsAsRange(const IntegerRelation& relation,
                               unsigned num_symbols) {
  IntegerRelation moved = relation;
  moved.convertVarKind(VarKind::Local, 0, num_symbols, VarKind::Range);
  return moved;
}

/// `relation` with every equality row e == 0 replaced by the rows e >= 0 and
/// -e >= 0 (the same set). PresburgerRelation::subtract ends with
/// PresburgerRelation::simplify on its result, whose Gaussian elimination
/// (IntegerRelation::gaussianEliminate) scales a row without updating the
/// columns left of the pivot column that no equality uses, which changes the
/// set (seen with MLIR 22: `-d0 + d1 + 4q + 2 >= 0` reduced by
/// `-2d1 - r0 - s0 - 3q' - 2 == 0` kept -d0 where it needed -2d0). The
/// result's rows are the minuend's and inequalities the subtraction adds, so
/// a minuend without equality rows gives it nothing to eliminate.
IntegerRelation WithoutEqualityRows(const IntegerRelation& relation) {
  IntegerRelation rewritten = relation;
  for (unsigned i = 0, e = relation.getNumEqualities(); i < e; ++i) {
    Row row(relation.getEquality(i));
    rewritten.addInequality(row);
    for (DynamicAPInt& c : row) c = -c;
    rewritten.addInequality(row);
  }
  rewritten.removeEqualityRange(0, relation.getNumEqualities());
  return rewritten;
}

/// `disjunct` with every pair of inequalities that MLIR would read as the
/// definition of a division local although it is tighter, rewritten into a
/// true division and a bound on a slack local. A pair
///   e - c*q >= 0,  -e + c*q + w >= 0   (c >= 2, 0 <= w < c - 1)
/// says e mod c <= w for q = floor(e / c); IntegerRelation::getLocalReprs
/// accepts it as q's definition, and PresburgerRelation::subtract adds a
/// definition to the minuend instead of subtracting it, so the points with
/// e mod c > w are lost: the difference misses them and two different maps
/// look equal (computeReprWithOnlyDivLocals builds such pairs from an
/// existential symbol: r0 = 2*s1 + 1 becomes 2q <= r0 - 1 <= 2q). The
/// rewrite keeps e - c*q >= 0, widens the other to -e + c*q + c - 1 >= 0
/// (a true definition), and adds t == e - c*q, w - t >= 0: the same set,
/// whose bound on t the subtraction complements. A pair may name several
/// locals (computeReprWithOnlyDivLocals leaves r1 - 2*q0 - 5*q1 in [0, 0]
/// with q0 defined elsewhere): it is tight for every local whose
/// coefficient's magnitude exceeds w + 1, so q is the local of the largest
/// one (widened, the pair is then tight for none). A pair with w = 0 becomes
/// the equality e == c*q instead: a local with coefficient 1 in it (r0 +
/// 9*q0 - q1 - 1 in [0, 0]) is then still defined by it.
IntegerRelation WithTrueDivisionDefinitions(const IntegerRelation& disjunct) {
  struct Tight {
    unsigned lower, upper;
    DynamicAPInt c, w;
  };
  llvm::SmallVector<Tight, 4> tight;
  const unsigned first_local = disjunct.getVarKindOffset(VarKind::Local);
  const unsigned num_cols = disjunct.getNumCols();
  const unsigned num_ineqs = disjunct.getNumInequalities();
  llvm::SmallVector<bool, 16> used(num_ineqs, false);
  for (unsigned lo = 0; lo < num_ineqs; ++lo) {
    if (used[lo]) continue;
    llvm::ArrayRef<DynamicAPInt> a = disjunct.getInequality(lo);
    // q: the local with the largest coefficient magnitude c. Widened to
    // [0, c - 1], the pair is then no tight definition of a local with a
    // smaller coefficient either (w = c - 1 is not below theirs).
    unsigned q = num_cols;
    DynamicAPInt c(0);
    for (unsigned k = first_local; k + 1 < num_cols; ++k) {
      if (abs(a[k]) > c) {
        q = k;
        c = abs(a[k]);
      }
    }
    // Each pair is seen from both rows: this one when q's coefficient is -c.
    if (c < 2 || a[q] != -c) continue;
    for (unsigned up = 0; up < num_ineqs; ++up) {
      if (up == lo || used[up]) continue;
      llvm::ArrayRef<DynamicAPInt> b = disjunct.getInequality(up);
      bool opposite = true;
      for (unsigned k = 0; k + 1 < num_cols && opposite; ++k) {
        opposite = a[k] == -b[k];
      }
      const DynamicAPInt w = a.back() + b.back();
      if (!opposite || w < 0 || w >= c - 1) continue;
      tight.push_back({lo, up, c, w});
      used[lo] = used[up] = true;
      break;
    }
  }
  if (tight.empty()) return disjunct;
  IntegerRelation out = disjunct;
  // A pair with w = 0 is the equality e == c*q: kept as one, it is q's
  // definition by an equality, which the subtraction complements.
  size_t slacks = 0;
  for (const Tight& t : tight) slacks += t.w != 0;
  const unsigned first_slack = out.appendVar(VarKind::Local, slacks);
  llvm::SmallVector<Row, 4> lowers;
  llvm::SmallVector<unsigned, 8> removed;
  for (const Tight& t : tight) {
    lowers.emplace_back(out.getInequality(t.lower));
    removed.push_back(t.upper);
    if (t.w == 0) removed.push_back(t.lower);
  }
  std::sort(removed.rbegin(), removed.rend());
  for (unsigned row : removed) out.removeInequality(row);
  unsigned slack = first_slack;
  for (size_t i = 0; i < tight.size(); ++i) {
    const Row& a = lowers[i];
    if (tight[i].w == 0) {
      out.addEquality(a);
      continue;
    }
    Row definition(a.size()), slack_eq(a.size()), slack_bound(a.size());
    for (size_t k = 0; k < a.size(); ++k) {
      definition[k] = -a[k];
      slack_eq[k] = -a[k];
    }
    definition.back() += tight[i].c - 1;
    slack_eq[slack] = 1;  // t - (e - c*q) == 0
    slack_bound[slack] = -1;
    slack_bound.back() = tight[i].w;  // w - t >= 0
    out.addInequality(definition);
    out.addEquality(slack_eq);
    out.addInequality(slack_bound);
    ++slack;
  }
  return out;
}

/// PresburgerRelation::subtract splits the minuend once per constraint of
/// each subtrahend disjunct and recurses into the next disjunct, so its work
/// grows as the product of the disjuncts' constraint counts. Beyond this
/// many pieces the exact check is refused rather than run for minutes.
constexpr double kMaxSubtractionPieces = 4096;

/// B as the subtrahend of (d, r, s) sets: its existential symbols rewritten
/// into division locals (PresburgerRelation::computeReprWithOnlyDivLocals,
/// by a parametric lexicographic minimum over them; a union when the
/// symbols enter divisions), then `extra_range` unconstrained range columns
/// appended for the minuend's symbols. ResourceExhausted when the
/// subtraction would exceed kMaxSubtractionPieces.
absl::StatusOr<PresburgerRelation> Subtrahend(const IntegerRelation& other,
                                              unsigned extra_range) {
  PresburgerRelation subtrahend(other);
  if (!subtrahend.hasOnlyDivLocals()) {
    subtrahend = subtrahend.computeReprWithOnlyDivLocals().coalesce();
  }
  PresburgerRelation rewritten =
      PresburgerRelation::getEmpty(subtrahend.getSpace());
  for (const IntegerRelation& disjunct : subtrahend.getAllDisjuncts()) {
    rewritten.unionInPlace(WithTrueDivisionDefinitions(disjunct));
  }
  subtrahend = std::move(rewritten);
  if (subtrahend.getNumDisjuncts() > 1) {
    double pieces = 1;
    for (const IntegerRelation& disjunct : subtrahend.getAllDisjuncts()) {
      pieces *=
          disjunct.getNumInequalities() + 2.0 * disjunct.getNumEqualities();
    }
    if (pieces > kMaxSubtractionPieces) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "Presburger subtraction: eliminating the symbols of one map "
          "leaves a union of ",
          subtrahend.getNumDisjuncts(),
          " pieces over its dimensions and results; subtracting it would "
          "take about ",
          pieces, " steps (the budget is ", kMaxSubtractionPieces, ")"));
    }
  }
  subtrahend.insertVarInPlace(VarKind::Range, other.getNumRangeVars(),
                              extra_range);
  return subtrahend;
}

/// A point (d, r, s) of { (d, r, s) : A'(d, r, s) and not B(d, r) }, where
/// A' is `in` with its symbols as range columns, or nullopt when A is a
/// subset of B. With the symbols moved, the minuend's locals are all
/// divisions, and the sample names the symbols.
absl::StatusOr<std::optional<Row>> SampleDifference(
    const IntegerRelation& in, unsigned in_symbols,
    const IntegerRelation& other) {
  XI_ASSIGN_OR_RETURN(PresburgerRelation subtrahend,
                      Subtrahend(other, in_symbols));
  PresburgerRelation minuend(
      WithoutEqualityRows(SymbolsAsRange(in, in_symbols)));
  PresburgerRelation difference = minuend.subtract(subtrahend);
  Row sample;
  if (!difference.findIntegerSample(sample)) return std::nullopt;
  return sample;
}

/// The witness from a SampleDifference sample (d, r, s, locals...),
/// checked independently of the subtraction: (d, r, s) satisfies `in`'s
/// constraints for some division values (containsPointNoLocal), and no
/// symbol values put (d, r) in `other`.
absl::StatusOr<RelationPoint> CheckedWitness(
    const IntegerRelation& in, unsigned in_symbols,
    const IntegerRelation& other, llvm::ArrayRef<DynamicAPInt> sample) {
  unsigned pair_size = in.getNumDomainVars() + in.getNumRangeVars();
  if (!SymbolsAsRange(in, in_symbols)
           .containsPointNoLocal(sample.take_front(pair_size + in_symbols))
           .has_value() ||
      other.containsPointNoLocal(sample.take_front(pair_size)).has_value()) {
    return absl::InternalError(
        "the Presburger set difference gave a pair that is not a witness");
  }
  RelationPoint point;
  unsigned num_dims = in.getNumDomainVars();
  unsigned num_results = in.getNumRangeVars();
  XI_ASSIGN_OR_RETURN(point.dims, Slice(sample, 0, num_dims, "dimension"));
  XI_ASSIGN_OR_RETURN(point.results,
                      Slice(sample, num_dims, num_results, "result"));
  XI_ASSIGN_OR_RETURN(point.symbols,
                      Slice(sample, pair_size, in_symbols, "symbol"));
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
    // The symbols are kept as locals so that they are where
    // IndexingMapToRelation's contract puts them.
    return IntegerRelation::getEmpty(PresburgerSpace::getRelationSpace(
        map.GetDimensionCount(), map.GetResultCount(), /*numSymbols=*/0,
        map.GetSymbolCount()));
  }
  return RelationBuilder(map).Build();
}

absl::StatusOr<bool> IsExactlyEmpty(const IndexingMap& map) {
  XI_ASSIGN_OR_RETURN(IntegerRelation relation, IndexingMapToRelation(map));
  return !SampleByUnitElimination(relation).has_value();
}

bool IsIntegerEmptyByUnitElimination(const IntegerRelation& relation) {
  return !SampleByUnitElimination(relation).has_value();
}

absl::StatusOr<std::optional<RelationPoint>> FindDomainPointWith(
    const IndexingMap& map, absl::Span<const AffineInequality> extra) {
  if (map.IsUndefined()) {
    return absl::InvalidArgumentError(
        "an UNDEFINED map has no relation (no indexing rule is known)");
  }
  XI_RETURN_IF_ERROR(map.Verify());
  if (map.IsKnownEmpty()) return std::nullopt;
  RelationBuilder builder = RelationBuilder::ForDomain(map);
  XI_RETURN_IF_ERROR(builder.AddMap());
  for (const AffineInequality& inequality : extra) {
    XI_RETURN_IF_ERROR(builder.AddInequality(inequality));
  }
  std::optional<Row> sample = SampleByUnitElimination(builder.relation());
  if (!sample.has_value()) return std::nullopt;
  // Columns: the dims, then the symbols as the first locals.
  RelationPoint point;
  const unsigned num_dims = map.GetDimensionCount();
  XI_ASSIGN_OR_RETURN(point.dims, Slice(*sample, 0, num_dims, "dimension"));
  XI_ASSIGN_OR_RETURN(point.symbols,
                      Slice(*sample, num_dims, map.GetSymbolCount(), "symbol"));
  return point;
}

absl::StatusOr<bool> SimplifyWithExactEmptiness(IndexingMap& map) {
  bool changed = map.Simplify();
  if (map.IsUndefined() || map.IsKnownEmpty() ||
      map.GetConstraintsCount() == 0) {
    return changed;
  }
  // Emptiness is a property of the domain alone: the relation is built
  // without the results, whose equality rows and division locals would only
  // add columns to the integer-emptiness search.
  IndexingMap domain(
      mlir::AffineMap::get(map.GetDimensionCount(), map.GetSymbolCount(), {},
                           map.GetMLIRContext()),
      map.GetDimBounds(), map.GetRangeVarBounds(), map.GetRuntimeVars(),
      map.GetConstraints());
  XI_ASSIGN_OR_RETURN(bool empty, IsExactlyEmpty(domain));
  if (!empty) return changed;
  map.ResetToKnownEmpty();
  return true;
}

absl::StatusOr<std::optional<RelationPoint>> FindRelationPoint(
    const IndexingMap& map) {
  XI_ASSIGN_OR_RETURN(IntegerRelation relation, IndexingMapToRelation(map));
  std::optional<Row> sample = SampleByUnitElimination(relation);
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
  // Maps equal as objects of the text format relate the same pairs.
  if (a == b) return std::nullopt;
  // A \ B is empty iff A is a subset of B; the relations are equal iff
  // both differences are empty.
  for (int side = 0; side < 2; ++side) {
    const IntegerRelation& in = side == 0 ? relation_a : relation_b;
    const IntegerRelation& other = side == 0 ? relation_b : relation_a;
    unsigned in_symbols = (side == 0 ? a : b).GetSymbolCount();
    XI_ASSIGN_OR_RETURN(std::optional<Row> sample,
                        SampleDifference(in, in_symbols, other));
    if (!sample.has_value()) continue;
    XI_ASSIGN_OR_RETURN(RelationPoint point,
                        CheckedWitness(in, in_symbols, other, *sample));
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
