#ifndef XLA_INDEX_ANALYSIS_OPERAND_UTILIZATION_H_
#define XLA_INDEX_ANALYSIS_OPERAND_UTILIZATION_H_

// The one model of operand utilization (XLA's indexing-analysis
// documentation, "Operand utilization"): when the whole output is computed,
// which fraction of an operand's elements is read, and how many times each
// read element is read on average. The per-instruction answer and the
// fusion report (fusion_utilization.h) both count with it.
//
// For an operand of N elements with output-to-input maps f_1, ..., f_m (one
// per way the output reads it):
//   elements read  E = |union over i of { f_i(d, s) : d in domain, s }|
//   reads          R = sum over i of |{ (d, f_i(d, s)) : d in domain, s }|
//                      (one read per output element and operand element it
//                      needs, per map)
//   fraction       = E / N
//   average reads  = R / E
//
// Examples (exact):
//   broadcast f32[20] -> f32[10,20,30], dims={1}: E = 20, R = 6000, 300 each.
//   slice f32[10,20,50] -> f32[5,3,25] {[5:10:1], [3:20:7], [0:50:2]}:
//     E = 375 of 10000 (0.0375), once each.
//   reduce f32[256,10] -> f32[10] over dim 0: all 2560 elements once; the
//     init scalar 10 times.
//
// How E is counted (`method`), nothing sampled:
//  - per result (exact): a map is split into groups of results that share
//    no variable, a constraint joining the group of its variables (one
//    result each for elementwise, broadcast, transpose, slice, reduce, dot,
//    reduce-window, concatenate slabs; a reshape's `d floordiv c, d mod c`
//    pair is one group, so is a pad's result with its `d mod s` constraint);
//    each group's tuples are counted over its own variables only, the image
//    being the product of the groups' sets, so large shapes stay cheap;
//  - enumeration (exact): for several maps, each map's image is listed as
//    that product of its groups' sets into one set of elements, when the
//    groups' boxes and the images together hold at most `max_points`
//    elements: the cost follows the images, not the output or the reduced
//    elements that read them (a slice of a broadcast of a reduce reads few
//    elements from a large domain); else, when a map has no such grouping,
//    the maps are enumerated point by point over the variables their
//    results and constraints use, up to `max_points` evaluations;
//  - disjoint sum (exact): several maps each counted per result whose
//    images are too large to list and pairwise disjoint, proved with the
//    Presburger library (the range sets of their relations do not
//    intersect; at most 8 maps), e.g. a concatenate's operand read through
//    several large slabs: the sum;
//  - Presburger (exact): beyond that, when the box of the results' ranges
//    holds at most kMaxPresburgerImagePoints elements, each element e of
//    that box is asked whether some domain point reads it, i.e. whether the
//    map's relation (xla_index/core/presburger_relation.h) with its results
//    fixed to e is non-empty (IsIntegerEmptyByUnitElimination);
//  - bound (exact = false): otherwise the sum of the boxes of the results'
//    ranges, an upper bound.
// Every step but the closed forms has a time budget (`time_budget`,
// kDefaultUtilizationTimeBudget per operand): enumerations look at the
// clock every 4096 points, the Presburger steps before each emptiness test
// (one test cannot be interrupted); past the budget the next step is
// tried, and the last is the bound. The kernel-level entry points
// (below, fusion_utilization.h) give all operands together
// kDefaultUtilizationTotalBudget, so a kernel of many operands that each
// need their budget still ends within seconds, its late operands bounded.
// MLIR 22's Presburger library has no exact counting of a projection's
// points (IntegerRelation::computeVolume is an over-approximation, and its
// Barvinok generating functions count polytopes without existential
// variables, which every map's image has), hence the membership test.
// The reads R are counted per result or point by point as well, else
// bounded by the box of dims x range variables (exact = false). Runtime
// variables (dynamic offsets) make the counts depend on run-time values:
// each read counts once at a representative offset, the elements read range
// over the feasible offsets, and exact is false. Counts saturate at
// INT64_MAX.

#include <cstdint>
#include <vector>

#include "absl/time/time.h"
#include "absl/types/span.h"
#include "hlo/instruction.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/ops/instruction_indexing.h"

namespace xla_index {

/// Default bound on point-by-point evaluations per operand.
inline constexpr int64_t kDefaultUtilizationPointLimit = int64_t{1} << 22;

/// Wall time for deciding the elements of one operand one by one with the
/// Presburger library; past it the count is a bound (exact = false).
inline constexpr absl::Duration kDefaultUtilizationTimeBudget =
    absl::Seconds(2);

/// Wall time for the counts of all operands of one instruction or kernel
/// together: each operand gets NextOperandTimeBudget of what is left.
inline constexpr absl::Duration kDefaultUtilizationTotalBudget =
    absl::Seconds(5);

/// Most elements of a result box whose membership in the image is decided
/// one by one with the Presburger library (see the file comment).
inline constexpr int64_t kMaxPresburgerImagePoints = 4096;

/// How the elements read were counted (see the file comment).
enum class UtilizationMethod {
  kPerResult,
  kDisjointSum,
  kEnumeration,
  kPresburger,
  kBound,
};

/// "per result", "disjoint sum", "enumeration", "presburger", "bound".
const char* UtilizationMethodName(UtilizationMethod method);

/// Utilization of one operand (see the file comment).
struct OperandUtilization {
  /// N: elements of the operand.
  int64_t element_count = 0;
  /// E: distinct elements read (an upper bound when !exact).
  int64_t elements_read = 0;
  /// R: (output element, operand element) pairs summed over the maps.
  int64_t reads = 0;
  /// False when a count is an upper bound or depends on runtime values.
  bool exact = true;
  /// How `elements_read` was counted.
  UtilizationMethod method = UtilizationMethod::kPerResult;
  /// Integer-emptiness tests made with the Presburger library for this
  /// count (the disjointness proof, the element-by-element membership
  /// test): the cost that grows with the elements of a result box.
  int64_t presburger_checks = 0;
  /// Points evaluated by this count's enumerations (group boxes, domains):
  /// the cost that grows with the variables enumerated.
  int64_t points_enumerated = 0;

  /// E / N (0 for an empty operand).
  double Fraction() const;
  /// R / E (0 when nothing is read).
  double AverageReads() const;
};

/// The budget of the next operand's count when every count must end by
/// `end` and `operands_left` counts (this one included) remain: an even
/// share of what is left, but at least kDefaultUtilizationTimeBudget, and
/// at most what is left (zero once `end` has passed: then only the closed
/// forms and enumerations of fewer than 4096 points answer exactly, the
/// rest is bounded). So one hard operand of a kernel may take the whole
/// total, and many take 2 s each until it runs out. With `operands_left`
/// 0 (not known, as for a module's kernels): 2 s, or what is left.
absl::Duration NextOperandTimeBudget(absl::Time end, int64_t operands_left = 0);

/// The utilization of an operand of dims `operand_dims` read through `maps`
/// (all from the same output domain); `max_points` bounds the point-by-point
/// enumerations and `time_budget` the time of all steps but the closed
/// forms (see the file comment).
OperandUtilization ComputeOperandUtilization(
    const IndexingMapSet& maps, absl::Span<const int64_t> operand_dims,
    int64_t max_points = kDefaultUtilizationPointLimit,
    absl::Duration time_budget = kDefaultUtilizationTimeBudget);

/// The utilization of every operand of `instruction` (fusions through their
/// computation), from its output-to-input maps of all outputs (every element
/// of a tuple-shaped result). A non-array operand gets {0, 0, 0, inexact}.
/// All operands together get `total_time_budget` (NextOperandTimeBudget).
std::vector<OperandUtilization> ComputeOperandUtilization(
    const HloInstruction& instruction, mlir::MLIRContext* context,
    int64_t max_points = kDefaultUtilizationPointLimit,
    absl::Duration total_time_budget = kDefaultUtilizationTotalBudget);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_OPERAND_UTILIZATION_H_
