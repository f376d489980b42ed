#ifndef XLA_INDEX_CORE_INDEXING_MAP_H_
#define XLA_INDEX_CORE_INDEXING_MAP_H_

// IndexingMap: an affine map with the intervals of its dims and symbols, its
// runtime variables and constraints (XLA's indexing map); simplification,
// composition, evaluation.

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "llvm/ADT/SmallBitVector.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/interval.h"

namespace xla_index {

/// A runtime variable: a symbol whose value is read at run time from an HLO
/// value, e.g. the offset operand of a dynamic-slice.
///
/// `access` maps the iteration space of the owning indexing map (its dims,
/// and possibly its symbols) to the element of `hlo` that holds the value;
/// for a scalar offset it is `(d0, d1, d2) -> ()`. `feasible_values` is the
/// interval the value is assumed to lie in (e.g. offsets keep a slice in
/// bounds).
///
/// The core does not know HLO: `hlo` is an opaque pointer (may be null) that
/// the per-op layer sets to its instruction, and `hlo_text` is what the text
/// format prints after "hlo: " (e.g. "of1 = s32[] parameter(1)"; empty prints
/// as "NULL").
struct RuntimeVar {
  Interval feasible_values;
  const void* hlo = nullptr;
  std::string hlo_text;
  mlir::AffineMap access;
};

/// Runtime variables compare by feasible values, hlo_text and access map; the
/// `hlo` pointer is identity only and is ignored, so a parsed map equals the
/// map it was printed from.
bool operator==(const RuntimeVar& a, const RuntimeVar& b);
inline bool operator!=(const RuntimeVar& a, const RuntimeVar& b) {
  return !(a == b);
}

/// One constraint `expr in [lower, upper]` of an indexing map.
struct IndexingConstraint {
  mlir::AffineExpr expr;
  Interval interval;
};

/// An indexing map f(d, r, rt): an mlir::AffineMap whose dimensions are the
/// dimension variables d (their intervals are the domain's box) and whose
/// symbols are the range variables r followed by the runtime variables rt,
/// together with constraints `expr in [lo, hi]` that restrict the domain.
///
/// The map relates a point d of the domain to the set of result tuples
/// { f(d, r, rt) : r, rt within their intervals and all constraints hold }.
///
/// Two special states exist: Undefined (no indexing rule is known; an empty
/// AffineMap) and KnownEmpty (the domain was proven empty, e.g. by an
/// infeasible constraint). Both propagate through composition.
///
/// Example (the slice of XLA's indexing-analysis documentation, input to
/// output):
///   (d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2)
///   domain:
///   d0 in [5, 9]
///   d1 in [3, 17]
///   d2 in [0, 48]
///   (d1 - 3) mod 7 in [0, 0]
///   d2 mod 2 in [0, 0]
class IndexingMap {
 public:
  /// A map with the given variable intervals and constraints. The sizes must
  /// match the affine map: dim_bounds.size() == getNumDims() and
  /// range_bounds.size() + runtime_vars.size() == getNumSymbols() (Verify()
  /// reports a mismatch).
  IndexingMap(mlir::AffineMap affine_map, std::vector<Interval> dim_bounds,
              std::vector<Interval> range_bounds,
              std::vector<RuntimeVar> runtime_vars,
              std::vector<IndexingConstraint> constraints = {});

  /// The common case: dims in [0, dim_sizes[i] - 1], all symbols range
  /// variables in [0, symbol_sizes[j] - 1] (sizes as in tensor shapes).
  static IndexingMap FromTensorSizes(mlir::AffineMap affine_map,
                                     absl::Span<const int64_t> dim_sizes,
                                     absl::Span<const int64_t> symbol_sizes);

  /// No indexing rule is known (prints as "UNDEFINED"). `reason` says why
  /// (e.g. "no indexing rule for opcode 'sort'"); it is carried for people
  /// only: equality and hashing ignore it, so all Undefined maps stay equal.
  static IndexingMap Undefined(std::string reason = "");
  /// The domain is empty (prints as "KNOWN EMPTY"), with the given numbers
  /// of dims, symbols (all range variables) and results (all 0); the
  /// counts must not be negative (asserted).
  static IndexingMap KnownEmpty(mlir::MLIRContext* context, int num_dims = 0,
                                int num_symbols = 0, int num_results = 0);

  bool IsUndefined() const { return !affine_map_; }
  /// Why the map is Undefined ("" when no reason was given, and for every
  /// map that is not Undefined).
  const std::string& undefined_reason() const { return undefined_reason_; }
  /// True when the domain is known to be empty (set by Simplify when a
  /// constraint or interval is infeasible, or by construction).
  bool IsKnownEmpty() const { return is_known_empty_; }

  mlir::AffineMap GetAffineMap() const { return affine_map_; }
  mlir::MLIRContext* GetMLIRContext() const;

  int64_t GetDimensionCount() const { return dim_bounds_.size(); }
  int64_t GetRangeVarsCount() const { return range_bounds_.size(); }
  int64_t GetRuntimeVarsCount() const { return runtime_vars_.size(); }
  int64_t GetSymbolCount() const {
    return range_bounds_.size() + runtime_vars_.size();
  }
  int64_t GetResultCount() const {
    return affine_map_ ? affine_map_.getNumResults() : 0;
  }

  const std::vector<Interval>& GetDimBounds() const { return dim_bounds_; }
  /// The interval of dim `dim`; 0 <= dim < GetDimensionCount() (asserted:
  /// an index out of range is a programmer error).
  Interval GetDimBound(int64_t dim) const {
    assert(dim >= 0 && dim < GetDimensionCount() && "dim out of range");
    return dim_bounds_[dim];
  }
  Interval& GetMutableDimBound(int64_t dim) {
    assert(dim >= 0 && dim < GetDimensionCount() && "dim out of range");
    return dim_bounds_[dim];
  }
  const std::vector<Interval>& GetRangeVarBounds() const {
    return range_bounds_;
  }
  const std::vector<RuntimeVar>& GetRuntimeVars() const {
    return runtime_vars_;
  }
  std::vector<RuntimeVar>& GetMutableRuntimeVars() { return runtime_vars_; }
  /// Interval of symbol `symbol`: a range variable for symbol <
  /// GetRangeVarsCount(), else the runtime variable's feasible values.
  /// 0 <= symbol < GetSymbolCount() (asserted).
  Interval GetSymbolBound(int64_t symbol) const;
  Interval& GetMutableSymbolBound(int64_t symbol);
  /// The intervals of all symbols, in order (range variables first).
  std::vector<Interval> GetSymbolBounds() const;
  /// True if symbol `symbol` is a runtime variable.
  bool IsRuntimeSymbol(int64_t symbol) const {
    return symbol >= GetRangeVarsCount();
  }

  /// The constraints, in insertion order (the printer sorts them).
  const std::vector<IndexingConstraint>& GetConstraints() const {
    return constraints_;
  }
  int64_t GetConstraintsCount() const { return constraints_.size(); }
  /// Adds `expr in interval`; an existing constraint on the same expression
  /// is intersected with `interval` instead of duplicated, and one on a lone
  /// dim or symbol narrows that variable's bound instead.
  void AddConstraint(mlir::AffineExpr expr, Interval interval);
  /// AddConstraint of each, in order, in time linear in their count and
  /// the existing constraints' (a map parsed from text may have millions).
  void AddConstraints(absl::Span<const IndexingConstraint> constraints);
  void ClearConstraints() { constraints_.clear(); }

  /// Simplifies the results and the constraints using the variable intervals
  /// (see affine_simplifier.h for the rewrites): tightens variable bounds
  /// from constraints, drops constraints that always hold, and turns the map
  /// into KnownEmpty when a constraint cannot hold. Does not remove
  /// variables. Returns true if anything changed. Emptiness is decided by
  /// interval reasoning, which can miss an empty domain (parity, mod
  /// conflicts); SimplifyWithExactEmptiness (presburger_relation.h) decides
  /// it exactly, at a measured cost.
  bool Simplify();

  /// Removes symbols that appear neither in the results nor in constraints
  /// (a constraint that only involves unused symbols is removed with them
  /// when it is satisfiable). Returns the bit vector of removed symbols,
  /// indexed by the old symbol positions.
  llvm::SmallBitVector RemoveUnusedSymbols();
  /// As RemoveUnusedSymbols, for dimensions. Returns the removed dims.
  llvm::SmallBitVector RemoveUnusedDimensions();

  /// For a range variable s with a constraint `s mod k in [r, r]`, substitutes
  /// s := s' * k + r, with s' in [ceil((lo - r) / k), floor((hi - r) / k)],
  /// and drops the constraint, then simplifies the map. Returns true if any
  /// symbol was rescaled.
  bool RescaleSymbols();

  /// The map whose dims are this map's dims followed by all its symbols (in
  /// order, with their intervals); the new map has no symbols.
  IndexingMap ConvertSymbolsToDimensions() const;

  /// The map with the single result `result_index` (same variables and
  /// constraints); 0 <= result_index < GetResultCount() (asserted).
  IndexingMap GetSubMap(int64_t result_index) const;

  /// True when every dim and symbol value is in its interval and every
  /// constraint holds at the point, by the constraint's exact value (int64
  /// arithmetic, and __int128 when some intermediate value leaves int64).
  bool ConstraintsSatisfied(absl::Span<const int64_t> dims,
                            absl::Span<const int64_t> symbols) const;
  /// The results at the point (no domain check); nullopt when a division or
  /// modulo by a non-positive value is evaluated.
  std::optional<std::vector<int64_t>> Evaluate(
      absl::Span<const int64_t> dims, absl::Span<const int64_t> symbols) const;

  /// Checks the internal consistency: variable counts match the affine map,
  /// constraints and access maps only use existing variables.
  absl::Status Verify() const;

  /// Marks the map known-empty, dropping its constraints and setting its
  /// results to 0 (keeps variable counts).
  void ResetToKnownEmpty();

  friend bool operator==(const IndexingMap& a, const IndexingMap& b);
  friend class IndexingMapSimplifier;
  template <typename H>
  friend H AbslHashValue(H h, const IndexingMap& map);

 private:
  /// RescaleSymbols' substitution symbol := symbol * k + r in the results,
  /// the constraints (but the one at index `skip`) and the access maps;
  /// nothing changes when a folded constant does not fit in int64.
  absl::Status SubstituteScaledSymbol(int64_t symbol, int64_t k, int64_t r,
                                      size_t skip);

  mlir::AffineMap affine_map_;
  std::vector<Interval> dim_bounds_;
  std::vector<Interval> range_bounds_;
  std::vector<RuntimeVar> runtime_vars_;
  std::vector<IndexingConstraint> constraints_;
  bool is_known_empty_ = false;
  std::string undefined_reason_;  // only set on Undefined maps
};

/// Maps are equal when they have the same affine map (MLIR uniquing makes
/// this structural equality), variable intervals, runtime variables and the
/// same set of constraints (in any order). All KnownEmpty maps are equal, and
/// all Undefined maps are equal.
bool operator==(const IndexingMap& a, const IndexingMap& b);
inline bool operator!=(const IndexingMap& a, const IndexingMap& b) {
  return !(a == b);
}

/// Order-independent hash of the constraint set, for AbslHashValue.
size_t HashConstraints(const std::vector<IndexingConstraint>& constraints);
size_t HashAffineMap(mlir::AffineMap map);

template <typename H>
H AbslHashValue(H h, const IndexingMap& map) {
  if (map.IsKnownEmpty() || map.IsUndefined()) {
    return H::combine(std::move(h), map.IsKnownEmpty(), map.IsUndefined());
  }
  h = H::combine(std::move(h), HashAffineMap(map.affine_map_));
  for (Interval b : map.dim_bounds_) h = H::combine(std::move(h), b);
  for (Interval b : map.range_bounds_) h = H::combine(std::move(h), b);
  for (const RuntimeVar& rt : map.runtime_vars_) {
    h = H::combine(std::move(h), rt.feasible_values, rt.hlo_text,
                   HashAffineMap(rt.access));
  }
  return H::combine(std::move(h), HashConstraints(map.constraints_));
}

/// The composition `second` after `first`: first maps A -> B, second maps
/// B -> C; the result maps A -> C with first's dims, and symbols ordered
/// [range vars of second, range vars of first, runtime vars of second,
/// runtime vars of first] (as XLA orders them). Constraints of both maps are
/// kept (second's rewritten in terms of first's results), and each result of
/// `first` gets the constraint `result in second.dim_bound`. The result is
/// not simplified: call Simplify(). Undefined or KnownEmpty inputs give
/// Undefined (the first Undefined input, with its reason) / KnownEmpty.
///
/// Exactness at the int64 limits: a map denotes the exact integer values of
/// its expressions. Substituting `first`'s results into `second` folds
/// constants and coefficients (MLIR's folds, checked: checked_affine_expr.h);
/// when one does not fit in int64 the result is Undefined with the reason,
/// never a wrapped constant. An expression whose constants fit but whose
/// value at some domain point does not (d0 * 5 at d0 = INT64_MIN) is kept
/// exactly as it is, here and by Simplify (which leaves alone what it
/// cannot rewrite without leaving int64).
IndexingMap ComposeIndexingMaps(const IndexingMap& first,
                                const IndexingMap& second);

/// ComposeIndexingMaps(first, second) followed by Simplify(), with a fast
/// path (no intermediate MLIR expressions) when neither map has
/// constraints and every result of `first` stays inside `second`'s domain.
IndexingMap ComposeAndSimplifyIndexingMaps(const IndexingMap& first,
                                           const IndexingMap& second);

/// The chain composed in order (chain[0] first, then chain[1] after it, ...)
/// and simplified: the same map as folding the pairwise
/// ComposeAndSimplifyIndexingMaps over it (chain[0] alone is simplified). When
/// no map has constraints or runtime variables, the intermediate maps are never
/// built: each step's results go to the next as the simplifier's linear forms,
/// and MLIR expressions are made once, for the final results. Undefined for an
/// empty chain.
IndexingMap ComposeAndSimplifyIndexingMaps(absl::Span<const IndexingMap> chain);

/// The range of `expr` (over `map`'s dims and symbols) on the map's domain
/// box, from the simplifier's interval analysis (constraints whose
/// expression is a subexpression of `expr` tighten it). Unbounded for an
/// undefined or known-empty map.
Interval ComputeExpressionRange(const IndexingMap& map, mlir::AffineExpr expr);

/// `expr` simplified under `map`'s variable intervals and constraints, as
/// Simplify() simplifies the map's results.
mlir::AffineExpr SimplifyAffineExpr(const IndexingMap& map,
                                    mlir::AffineExpr expr);

/// Value of `expr` at the point; nullopt on division or modulo by a value
/// < 1 (floordiv/ceildiv by a negative value are evaluated exactly).
std::optional<int64_t> EvaluateAffineExpr(mlir::AffineExpr expr,
                                          absl::Span<const int64_t> dims,
                                          absl::Span<const int64_t> symbols);

/// One element of a map's relation: a domain point and one of its results.
struct IndexingPoint {
  std::vector<int64_t> dims;
  std::vector<int64_t> results;
  friend bool operator<(const IndexingPoint& a, const IndexingPoint& b) {
    return std::tie(a.dims, a.results) < std::tie(b.dims, b.results);
  }
  friend bool operator==(const IndexingPoint& a, const IndexingPoint& b) {
    return a.dims == b.dims && a.results == b.results;
  }
};

/// The relation of the map as a sorted, duplicate-free list of (dims,
/// results) pairs, by brute force over all dims and symbols in their
/// intervals that satisfy the constraints. Fails when the search space
/// exceeds `max_points` (or a bound is unbounded). For tests and small
/// tensors.
absl::StatusOr<std::vector<IndexingPoint>> EnumerateImage(
    const IndexingMap& map, int64_t max_points = 1 << 20);

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_INDEXING_MAP_H_
