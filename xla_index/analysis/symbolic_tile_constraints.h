#ifndef XLA_INDEX_ANALYSIS_SYMBOLIC_TILE_CONSTRAINTS_H_
#define XLA_INDEX_ANALYSIS_SYMBOLIC_TILE_CONSTRAINTS_H_

// The constraints XLA puts on tile sizes when it derives a symbolic tile
// (XLA's SymbolicTile::FromIndexingMap, ExtractSizeAndStride and
// ConstraintExpression in xla/codegen/tiling/). XLA's tile sizes are
// symbols: the output-to-operand map's dimension d_i stands for the tile
// size along output dimension i, in [1, n_i]. A tile is only valid for the
// sizes that satisfy the constraints, a disjunction of conjunctions of
// `expr in [lo, hi]` over the sizes:
//
// - `d mod c` (a reshape keeping the last c elements of a row) needs the
//   size to divide c or c to divide the size:
//     c mod d in [0, 0] || d mod c in [0, 0]
//   (with d replaced by ceil(d / k) = (d + k - 1) floordiv k for
//   `(d floordiv k) mod c`);
// - a sum of strided terms (a reshape merging dimensions), sorted by
//   decreasing stride, must capture them as (1*, partial?, full*, 1*): some
//   leading sizes 1, then at most one partial size, then sizes equal to
//   their dimension, then sizes 1. Each choice is one conjunction.
//
// XLA gives up (no symbolic tile) when the map has a constraint that is not
// an upper bound on one of its results, or an expression outside these
// forms; the reason says which. Expressions print in this project's map
// syntax (`floordiv` where XLA writes `/`); the constraint text is ordered
// as XLA's ConstraintExpression::Print orders it (sorted conjuncts joined
// by " && ", sorted conjunctions joined by " || ").

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/interval.h"

namespace xla_index {

/// `expr in interval`, expr over the tile sizes d_i.
struct TileSizeConstraint {
  mlir::AffineExpr expr;
  Interval interval;
};

/// XLA's ConstraintExpression: a disjunction of conjunctions. With no
/// conjunction it is "always satisfied" or "unsatisfiable".
class TileSizeConstraints {
 public:
  static TileSizeConstraints AlwaysSatisfied() { return TileSizeConstraints(); }
  static TileSizeConstraints Unsatisfiable();
  static TileSizeConstraints Of(TileSizeConstraint constraint);

  /// Distributes: every conjunction of `a` with every one of `b`; two
  /// constraints on one expression intersect, and an empty intersection
  /// drops that conjunction.
  friend TileSizeConstraints operator&&(const TileSizeConstraints& a,
                                        const TileSizeConstraints& b);
  friend TileSizeConstraints operator||(const TileSizeConstraints& a,
                                        const TileSizeConstraints& b);

  /// Drops constraints on constants that hold, conjunctions with one that
  /// fails, and repeated conjunctions (XLA's ConstraintExpression::Simplify).
  void Simplify();

  bool IsAlwaysSatisfied() const {
    return satisfiable_ && conjunctions_.empty();
  }
  bool IsSatisfiable() const { return satisfiable_; }
  /// Whether tile sizes `sizes` (one per d_i) satisfy some conjunction.
  bool IsSatisfiedBy(absl::Span<const int64_t> sizes) const;
  const std::vector<std::vector<TileSizeConstraint>>& conjunctions() const {
    return conjunctions_;
  }

  /// "always satisfied", "unsatisfiable", or e.g.
  /// "6 mod d0 in [0, 0] || d0 mod 6 in [0, 0]".
  std::string ToString() const;
  /// {"text": T, "conjunctions": [[{"expr": E, "lo": L, "hi": H}, ...], ...]}
  std::string ToJson() const;

 private:
  bool satisfiable_ = true;
  std::vector<std::vector<TileSizeConstraint>> conjunctions_;
};

/// XLA's answer for one output-to-operand map: whether it derives a
/// symbolic tile, why not, and the constraints on the tile sizes.
struct XlaTileSizeConstraints {
  bool derivable = false;
  std::string reason;
  TileSizeConstraints constraints;
};

/// Follows SymbolicTile::FromIndexingMap on `output_to_operand` (dims =
/// output indices, so tile sizes d_i in [1, upper_i + 1]).
XlaTileSizeConstraints DeriveXlaTileSizeConstraints(
    const IndexingMap& output_to_operand);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_SYMBOLIC_TILE_CONSTRAINTS_H_
