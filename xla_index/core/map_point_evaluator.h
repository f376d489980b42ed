#ifndef XLA_INDEX_CORE_MAP_POINT_EVALUATOR_H_
#define XLA_INDEX_CORE_MAP_POINT_EVALUATOR_H_

// Exact evaluation of an indexing map at many points, for the enumeration
// method of the exact questions (exact_map_questions.h): the map's results
// and constraint expressions are compiled once into postfix programs and
// run with __int128 values, so neither int64 overflow nor saturation can
// change an answer. The semantics are those of MLIR's affine expressions
// over the integers (floordiv / ceildiv round toward -inf / +inf, mod is in
// [0, c) for c > 0), the same as the Presburger relation's.

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

class MapPointEvaluator {
 public:
  using Int = __int128;

  /// Compiles `map` (not UNDEFINED, not KNOWN EMPTY). InvalidArgument, as
  /// IndexingMapToRelation (presburger_relation.h) refuses the same maps:
  /// a product of two variables, a division or modulo by a non-constant, a
  /// division by zero, a modulo by a non-positive constant.
  static absl::StatusOr<MapPointEvaluator> Create(const IndexingMap& map);

  /// The outcome of one evaluation.
  enum class Outcome {
    kOk,
    kTooBig,  // an intermediate value does not fit in __int128
  };

  /// Whether every constraint holds at `point` (the dims, then the
  /// symbols). kTooBig leaves `holds` unspecified.
  Outcome ConstraintsHold(absl::Span<const int64_t> point, bool& holds) const;

  /// The results at `point` into `results` (resized to the result count).
  Outcome Results(absl::Span<const int64_t> point,
                  std::vector<Int>& results) const;

  /// The value of one expression of the map (a result or a constraint, or
  /// any other expression over the map's variables) compiled on the fly.
  static absl::StatusOr<Int> EvaluateExpr(mlir::AffineExpr expr,
                                          absl::Span<const int64_t> point,
                                          int64_t num_dims);

 private:
  enum class Op : uint8_t {
    kConstant,
    kVariable,
    kAdd,
    kMul,
    kFloorDiv,
    kCeilDiv,
    kMod
  };
  struct Instruction {
    Op op;
    int64_t operand;  // the constant, or the variable's index in the point
  };
  using Program = std::vector<Instruction>;
  struct Constraint {
    Program program;
    int64_t lower, upper;
  };

  static absl::Status Compile(mlir::AffineExpr expr, int64_t num_dims,
                              Program& program);
  Outcome Run(const Program& program, absl::Span<const int64_t> point,
              Int& value) const;

  std::vector<Program> results_;
  std::vector<Constraint> constraints_;
  mutable std::vector<Int> stack_;
};

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_MAP_POINT_EVALUATOR_H_
