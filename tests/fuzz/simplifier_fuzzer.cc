// Differential fuzz target for the simplifier: decodes the input bytes into a
// random indexing map, simplifies it, and checks that the simplified map
// relates exactly the same (domain point, result) pairs as the original.
// Any difference aborts.
//
// The relation of a map is { (d, f(d, s)) : d, s in their intervals and every
// constraint holds } (docs/ARCHITECTURE.md, "How correctness is
// established"); symbols are projected away, so RescaleSymbols and
// RemoveUnusedSymbols must keep it too. Results are the mathematical
// integers: the oracle evaluates with exact arithmetic
// (xla_index/core/exact_affine_eval.h), so a map whose value does not fit in
// int64 at some point must be kept exactly, and a simplification that wraps
// is caught.
//
// The oracle, by size of the box of (dims, symbols):
//   - up to kMaxBoxPoints points: every point is enumerated, before and after;
//   - larger (a variable over 10^9 values, or the whole of int64): the exact
//     Presburger relations of both maps are compared (FindDifference,
//     xla_index/core/presburger_relation.h); maps it refuses are skipped.
//
// The generator (MapBuilder) draws sums, differences, products by constants,
// floordiv / ceildiv / mod, and chains of constant products and sums
// (`(e * c1) * c2`, `(e + c1) + c2`), built either through MLIR's folding
// operators or node by node (getAffineBinaryOpExpr, no folding), so the
// simplifier's own constant folding is what is tested. In strict mode
// (XLA_INDEX_FUZZ_STRICT, below) constants, coefficients, divisors and
// bounds are also drawn near 2^62..2^63 of both signs (INT64_MIN and
// INT64_MAX included), divisors of floordiv / ceildiv may be negative, and
// the Presburger oracle is itself checked against enumeration on a sample of
// the small maps.
// The same byte string always decodes to the same map, so a crash input
// replays exactly.
//
// Also checked: Simplify is idempotent; the simplified map prints and parses
// back equal; the original's text, when the parser accepts it, parses to a
// map with the same exact relation (refusing with a Status is a valid
// outcome, a different map is not); a chain of maps composed at once
// (ComposeAndSimplifyIndexingMaps) and by substitution (ComposeIndexingMaps)
// relates the pairs of the exact composition of the enumerated relations.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/box_points.h"
#include "xla_index/core/exact_affine_eval.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/core/interval.h"
#include "xla_index/core/presburger_relation.h"

// Strict mode: values near the int64 limits, negative divisors, and the
// Presburger oracle cross-checked against enumeration. The environment
// variable XLA_INDEX_FUZZ_STRICT=0/1 overrides the compiled default; the
// libFuzzer binary defaults to 1. The replay test is compiled with 0 until
// the fixes of the bugs these checks find are merged (docs/RELIABILITY.md,
// "Open findings").
#ifndef XLA_INDEX_FUZZ_STRICT_DEFAULT
#define XLA_INDEX_FUZZ_STRICT_DEFAULT 1
#endif

namespace xla_index {
namespace {

constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();

bool Strict() {
  static const bool strict = [] {
    const char* env = std::getenv("XLA_INDEX_FUZZ_STRICT");
    if (env == nullptr || *env == '\0') {
      return XLA_INDEX_FUZZ_STRICT_DEFAULT != 0;
    }
    return *env != '0';
  }();
  return strict;
}

// Reads small integers from the input; past its end every read returns 0, so
// a short input still decodes to a (small) map.
class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  // Uniform-ish in [lo, hi] (hi - lo < 256).
  int64_t Int(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(Byte()) % (hi - lo + 1);
  }
  // True one time in n.
  bool OneIn(int n) { return Int(0, n - 1) == 0; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// Values at the edge of int64: powers of two near 2^62 and 2^63, their
// neighbours and both limits. Sums and products of two of them overflow.
int64_t ExtremeValue(ByteReader& in) {
  static constexpr int64_t kValues[] = {int64_t{1} << 62,
                                        (int64_t{1} << 62) - 1,
                                        (int64_t{1} << 62) + 1,
                                        int64_t{3} << 61,
                                        kI64Max,
                                        kI64Max - 1,
                                        kI64Min,
                                        kI64Min + 1,
                                        -(int64_t{1} << 62),
                                        int64_t{1} << 61,
                                        int64_t{1} << 32,
                                        int64_t{1} << 31,
                                        (int64_t{1} << 32) + 1,
                                        -(int64_t{3} << 61),
                                        kI64Max / 3,
                                        kI64Min / 3};
  constexpr int kCount = sizeof(kValues) / sizeof(kValues[0]);
  return kValues[in.Int(0, kCount - 1)];
}

// A small constant in [lo, hi], or (in strict mode, 1 in 8) one near the
// int64 limits.
int64_t Constant(ByteReader& in, int64_t lo, int64_t hi) {
  if (Strict() && in.OneIn(8)) return ExtremeValue(in);
  return in.Int(lo, hi);
}

// An interval of the domain: mostly 1 to 8 small values, 1 in 16 empty; with
// strict mode also a few values at either int64 limit, and large intervals
// (10^9 values, 2^40, the whole of int64) that only the exact Presburger check
// can cover.
Interval DrawInterval(ByteReader& in) {
  switch (in.Int(0, 31)) {
    case 0:
      return {0, 999999999};
    case 1:
      return {-(int64_t{1} << 40), int64_t{1} << 40};
    case 2:
      if (Strict()) return {kI64Max - in.Int(0, 7), kI64Max};
      break;
    case 3:
      if (Strict()) return {kI64Min, kI64Min + in.Int(0, 7)};
      break;
    case 4:
      if (Strict()) return {kI64Min, kI64Max};
      break;
    default:
      break;
  }
  int64_t lo = in.Int(-3, 5);
  int64_t size = in.OneIn(16) ? 0 : in.Int(1, 8);
  return Interval{lo, lo + size - 1};
}

bool IsConstant(mlir::AffineExpr e, int64_t value) {
  auto constant = mlir::dyn_cast<mlir::AffineConstantExpr>(e);
  return constant && constant.getValue() == value;
}
bool HoldsInt64Min(mlir::AffineExpr e) {
  bool found = false;
  e.walk([&](mlir::AffineExpr sub) {
    found |= IsConstant(sub, std::numeric_limits<int64_t>::min());
  });
  return found;
}

class MapBuilder {
 public:
  // `fold`: build through MLIR's operators (which fold constants as they
  // go), else node by node with getAffineBinaryOpExpr (no folding at all).
  MapBuilder(ByteReader& in, mlir::MLIRContext* ctx, int num_dims,
             int num_symbols, bool fold)
      : in_(in),
        ctx_(ctx),
        num_dims_(num_dims),
        num_symbols_(num_symbols),
        fold_(fold) {}

  // A random pure-affine expression of at most `depth` levels.
  mlir::AffineExpr Expr(int depth) {
    int kind = depth <= 0 ? in_.Int(0, 2) : in_.Int(0, 11);
    switch (kind) {
      case 0:
        return mlir::getAffineDimExpr(in_.Int(0, num_dims_ - 1), ctx_);
      case 1:
        if (num_symbols_ > 0) {
          return mlir::getAffineSymbolExpr(in_.Int(0, num_symbols_ - 1), ctx_);
        }
        return mlir::getAffineDimExpr(in_.Int(0, num_dims_ - 1), ctx_);
      case 2:
        return Const(Constant(in_, -10, 10));
      case 3:
      case 4:
        return Bin(mlir::AffineExprKind::Add, Expr(depth - 1), Expr(depth - 1));
      case 5:
        return Bin(mlir::AffineExprKind::Mul, Expr(depth - 1),
                   Const(Constant(in_, -4, 8)));
      case 6:
        return Bin(mlir::AffineExprKind::FloorDiv, Expr(depth - 1),
                   Const(Divisor(/*mod=*/false)));
      case 7:
        return Bin(mlir::AffineExprKind::CeilDiv, Expr(depth - 1),
                   Const(Divisor(/*mod=*/false)));
      case 8:
        return Bin(mlir::AffineExprKind::Mod, Expr(depth - 1),
                   Const(Divisor(/*mod=*/true)));
      case 9:
        return Chain(Expr(depth - 1));
      default:  // a - b as MLIR writes it: a + b * -1
        return Bin(mlir::AffineExprKind::Add, Expr(depth - 1),
                   Bin(mlir::AffineExprKind::Mul, Expr(depth - 1), Const(-1)));
    }
  }

 private:
  mlir::AffineExpr Const(int64_t c) {
    return mlir::getAffineConstantExpr(c, ctx_);
  }

  mlir::AffineExpr Bin(mlir::AffineExprKind kind, mlir::AffineExpr lhs,
                       mlir::AffineExpr rhs) {
    // MLIR's own folds of a division by -1 compute INT64_MIN % -1 (SIGFPE)
    // for a numerator holding INT64_MIN; the library refuses such maps
    // (F25), and MLIR cannot build them: divide by -2 instead.
    if (kind != mlir::AffineExprKind::Add &&
        kind != mlir::AffineExprKind::Mul && IsConstant(rhs, -1) &&
        HoldsInt64Min(lhs)) {
      rhs = mlir::getAffineConstantExpr(-2, rhs.getContext());
    }
    if (!fold_) return mlir::getAffineBinaryOpExpr(kind, lhs, rhs);
    switch (kind) {
      case mlir::AffineExprKind::Add:
        return lhs + rhs;
      case mlir::AffineExprKind::Mul:
        return lhs * rhs;
      case mlir::AffineExprKind::FloorDiv:
        return lhs.floorDiv(rhs);
      case mlir::AffineExprKind::CeilDiv:
        return lhs.ceilDiv(rhs);
      default:
        return lhs % rhs;
    }
  }

  // `e` then two or three constant products or sums in a row, each a node of
  // its own: `((e * c1) * c2) + c3`. The constants are often extreme, so
  // folding them needs checked arithmetic (issue: 64 chained `* 2` folded
  // to 0).
  mlir::AffineExpr Chain(mlir::AffineExpr e) {
    for (int n = in_.Int(2, 3); n > 0; --n) {
      e = in_.OneIn(2)
              ? Bin(mlir::AffineExprKind::Mul, e, Const(Constant(in_, -3, 4)))
              : Bin(mlir::AffineExprKind::Add, e, Const(Constant(in_, -9, 9)));
    }
    return e;
  }

  // Mostly small positive; 0 now and then (no value: such maps are
  // skipped); in strict mode also large (2^62, INT64_MAX) and, for floordiv
  // and ceildiv, negative (-1 .. -4, -2^62, INT64_MIN). A negative modulus
  // has no value in MLIR's semantics and is drawn rarely.
  int64_t Divisor(bool mod) {
    int64_t d = in_.Int(0, 31);
    if (d == 0) return 0;
    if (d == 1) return mod && in_.Int(0, 3) != 0 ? 2 : -in_.Int(1, 4);
    if (Strict()) {
      if (d == 2) return mod ? in_.Int(2, 9) : -in_.Int(1, 4);
      if (d == 3) {
        int64_t v = ExtremeValue(in_);
        if (mod && v < 0) return v == kI64Min ? kI64Max : -v;
        return v;
      }
    }
    return 1 + d % 9;
  }

  ByteReader& in_;
  mlir::MLIRContext* ctx_;
  int num_dims_;
  int num_symbols_;
  bool fold_;
};

IndexingMap DecodeMap(ByteReader& in, mlir::MLIRContext* ctx) {
  const int num_dims = in.Int(1, 3);
  const int num_range = in.Int(0, 2);
  const int num_runtime = in.OneIn(5) ? 1 : 0;
  const int num_symbols = num_range + num_runtime;
  const bool fold = in.OneIn(2);
  std::vector<Interval> dims(num_dims);
  for (Interval& b : dims) b = DrawInterval(in);
  std::vector<Interval> range(num_range);
  for (Interval& b : range) b = DrawInterval(in);
  MapBuilder builder(in, ctx, num_dims, num_symbols, fold);
  std::vector<RuntimeVar> runtime(num_runtime);
  for (RuntimeVar& rt : runtime) {
    rt.feasible_values = DrawInterval(in);
    rt.hlo_text = "of = s32[] parameter(1)";
    rt.access = mlir::AffineMap::get(num_dims, 0, {}, ctx);
  }
  const int num_results = in.Int(1, 3);
  std::vector<mlir::AffineExpr> results;
  for (int i = 0; i < num_results; ++i) results.push_back(builder.Expr(3));
  std::vector<IndexingConstraint> constraints;
  const int num_constraints = in.Int(0, 2);
  for (int i = 0; i < num_constraints; ++i) {
    mlir::AffineExpr e = builder.Expr(2);
    int64_t lo = Constant(in, -6, 6);
    int64_t width = in.Int(0, 6);
    constraints.push_back(
        {e, Interval{lo, lo > kI64Max - width ? kI64Max : lo + width}});
  }
  return IndexingMap(mlir::AffineMap::get(num_dims, num_symbols, results, ctx),
                     std::move(dims), std::move(range), std::move(runtime),
                     std::move(constraints));
}

using exact::Enumeration;
using exact::Relation;

// Points a map's box may have to be enumerated: keeps each run well under a
// millisecond.
constexpr int64_t kMaxBoxPoints = 1 << 12;
// The simplified map may not enumerate more than this (it should never have
// a larger box than the original; if it does, that is itself reported).
constexpr int64_t kMaxSimplifiedPoints = 1 << 20;
// One small map in this many also has its Presburger verdicts checked
// against enumeration (strict mode).
constexpr int kCrossCheckOneIn = 8;

bool Verbose() {
  // XLA_INDEX_FUZZ_VERBOSE=1 shows what an input decodes to (for reading a
  // crash input, or checking that the decoder makes interesting maps).
  static const bool verbose = std::getenv("XLA_INDEX_FUZZ_VERBOSE") != nullptr;
  return verbose;
}

[[noreturn]] void Fail(const std::string& what, const IndexingMap& original,
                       const IndexingMap& transformed) {
  std::fprintf(
      stderr, "simplifier_fuzzer: %s\n--- original:\n%s\n--- after:\n%s\n",
      what.c_str(), ToString(original).c_str(), ToString(transformed).c_str());
  std::abort();
}

// `after` must relate exactly the pairs of `expected` (the enumerated
// relation of `original`).
void CheckSameRelation(const char* step, const IndexingMap& original,
                       const Relation& expected, const IndexingMap& after) {
  if (absl::Status valid = after.Verify(); !valid.ok()) {
    Fail(std::string(step) +
             " (the map does not verify: " + std::string(valid.message()) + ")",
         original, after);
  }
  Enumeration got = exact::Enumerate(after, kMaxSimplifiedPoints);
  switch (got.kind) {
    case Enumeration::kTooBig:
      Fail(std::string(step) + " (the box grew too large to enumerate)",
           original, after);
    case Enumeration::kUndefined:
    case Enumeration::kBeyondInt128:
      Fail(std::string(step) + " (a point has no exact value)", original,
           after);
    case Enumeration::kDone:
      break;
  }
  std::string diff = exact::FirstDifference(expected, got.relation);
  if (!diff.empty()) {
    Fail(std::string(step) + ": " + diff + " (first: original, second: after)",
         original, after);
  }
}

// Where the time goes: XLA_INDEX_FUZZ_STATS=1 prints, at exit, how many
// inputs took each path and the time spent in the Presburger checks.
struct Stats {
  int64_t inputs = 0;
  int64_t enumerated = 0;     // checked by enumeration
  int64_t large = 0;          // too large to enumerate
  int64_t exact_checks = 0;   // FindDifference calls
  int64_t exact_refused = 0;  // ... that returned an error
  int64_t cross_checked = 0;  // small maps whose Presburger verdicts were
                              // compared with enumeration
  double seconds = 0;
  double exact_seconds = 0;
  ~Stats() {
    if (std::getenv("XLA_INDEX_FUZZ_STATS") == nullptr || inputs == 0) return;
    std::fprintf(stderr,
                 "simplifier_fuzzer stats: %lld inputs in %.3f s CPU (%.1f us "
                 "each): %lld enumerated, %lld too large; %lld Presburger "
                 "checks (%lld refused) took %.3f s (%.1f us each); %lld "
                 "small maps cross-checked\n",
                 static_cast<long long>(inputs), seconds,
                 1e6 * seconds / inputs, static_cast<long long>(enumerated),
                 static_cast<long long>(large),
                 static_cast<long long>(exact_checks),
                 static_cast<long long>(exact_refused), exact_seconds,
                 exact_checks ? 1e6 * exact_seconds / exact_checks : 0.0,
                 static_cast<long long>(cross_checked));
  }
};
Stats& GetStats() {
  static Stats stats;
  return stats;
}

// CPU time of this thread, in seconds: the machine running the fuzzer is
// usually shared, so wall time would measure the neighbours.
double CpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

absl::StatusOr<std::optional<MapDifference>> TimedFindDifference(
    const IndexingMap& a, const IndexingMap& b) {
  const double start = CpuSeconds();
  absl::StatusOr<std::optional<MapDifference>> diff = FindDifference(a, b);
  GetStats().exact_seconds += CpuSeconds() - start;
  ++GetStats().exact_checks;
  if (!diff.ok()) ++GetStats().exact_refused;
  return diff;
}

// The exact check where enumeration is too large: the Presburger relations
// of `original` and `after` must be equal. Maps the conversion refuses (a
// modulo by a negative constant, a division by zero) or whose difference is
// too costly (ResourceExhausted) are not checked.
void CheckSameRelationExactly(const char* step, const IndexingMap& original,
                              const IndexingMap& after) {
  absl::StatusOr<std::optional<MapDifference>> diff =
      TimedFindDifference(original, after);
  if (!diff.ok() || !diff->has_value()) return;
  const RelationPoint& p = (*diff)->point;
  std::string witness = std::string(step) + ": only the " +
                        ((*diff)->in_map == 0 ? "original" : "result") +
                        " relates (";
  for (size_t i = 0; i < p.dims.size(); ++i) {
    witness += (i ? ", " : "") + std::to_string(p.dims[i]);
  }
  witness += ") -> (";
  for (size_t i = 0; i < p.results.size(); ++i) {
    witness += (i ? ", " : "") + std::to_string(p.results[i]);
  }
  Fail(witness + ") (Presburger)", original, after);
}

// `map` with 1 added to its first result, as a node of its own (MLIR's `+`
// would fold it into a constant that may wrap).
IndexingMap WithFirstResultPlusOne(const IndexingMap& map) {
  mlir::AffineMap affine = map.GetAffineMap();
  std::vector<mlir::AffineExpr> results(affine.getResults().begin(),
                                        affine.getResults().end());
  results[0] = mlir::getAffineBinaryOpExpr(
      mlir::AffineExprKind::Add, results[0],
      mlir::getAffineConstantExpr(1, affine.getContext()));
  return IndexingMap(
      mlir::AffineMap::get(affine.getNumDims(), affine.getNumSymbols(), results,
                           affine.getContext()),
      map.GetDimBounds(), map.GetRangeVarBounds(), map.GetRuntimeVars(),
      map.GetConstraints());
}

// The Presburger oracle checked against enumeration on a map both can
// decide: `simplified` relates the pairs of `original` (enumeration said
// so), so FindDifference must find none; and moving the first result by one
// changes a nonempty relation (a finite set is not invariant under a
// shift), so FindDifference must find a pair. Errors are not checked.
void CrossCheckPresburger(const IndexingMap& original, const Relation& relation,
                          const IndexingMap& simplified) {
  ++GetStats().cross_checked;
  absl::StatusOr<std::optional<MapDifference>> same =
      TimedFindDifference(original, simplified);
  if (same.ok() && same->has_value()) {
    Fail("FindDifference finds a pair that enumeration does not", original,
         simplified);
  }
  if (relation.empty() || simplified.IsKnownEmpty() ||
      simplified.GetAffineMap().getNumResults() == 0) {
    return;
  }
  IndexingMap shifted = WithFirstResultPlusOne(simplified);
  absl::StatusOr<std::optional<MapDifference>> differ =
      TimedFindDifference(original, shifted);
  if (differ.ok() && !differ->has_value()) {
    Fail("FindDifference misses the change of the first result by one",
         original, shifted);
  }
}

// True if `expr` divides by 0 or takes a modulo by a non-positive constant
// (no value), or divides by a non-constant. Outside strict mode, a negative
// divisor of floordiv / ceildiv counts as such too: those maps are skipped,
// as before negative divisors were supported.
bool HasUndefinedDivision(mlir::AffineExpr expr) {
  bool bad = false;
  expr.walk([&bad](mlir::AffineExpr e) {
    auto bin = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(e);
    if (!bin || e.getKind() == mlir::AffineExprKind::Mul ||
        e.getKind() == mlir::AffineExprKind::Add) {
      return;
    }
    auto rhs = mlir::dyn_cast<mlir::AffineConstantExpr>(bin.getRHS());
    if (!rhs || rhs.getValue() == 0 ||
        (rhs.getValue() < 0 &&
         (!Strict() || e.getKind() == mlir::AffineExprKind::Mod))) {
      bad = true;
    }
  });
  return bad;
}

bool EveryDivisionDefined(const IndexingMap& map) {
  for (mlir::AffineExpr e : map.GetAffineMap().getResults()) {
    if (HasUndefinedDivision(e)) return false;
  }
  for (const IndexingConstraint& c : map.GetConstraints()) {
    if (HasUndefinedDivision(c.expr)) return false;
  }
  return true;
}

// The original's text must parse to the same relation, or be refused. A
// parser that folds `d0 + MAX + 1` with wrapping int64 gives another map.
void CheckTextOfOriginal(const IndexingMap& original, const Relation& expected,
                         mlir::MLIRContext* ctx) {
  absl::StatusOr<IndexingMap> parsed =
      ParseIndexingMap(ToString(original), ctx);
  if (!parsed.ok() || !parsed->Verify().ok()) return;
  CheckSameRelation("ParseIndexingMap(ToString(map)) changed the relation",
                    original, expected, *parsed);
}

// True when every constant of `map`'s expressions is below 2^31 in
// magnitude and every divisor is positive: the maps the text format must
// print and read back. Others (negative divisors, constants that MLIR cannot
// fold without overflow) may be refused by the parser instead.
bool IsOrdinary(const IndexingMap& map) {
  bool ordinary = true;
  auto visit = [&ordinary](mlir::AffineExpr e) {
    if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(e)) {
      if (c.getValue() > (int64_t{1} << 31) ||
          c.getValue() < -(int64_t{1} << 31)) {
        ordinary = false;
      }
    } else if (auto bin = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(e)) {
      auto rhs = mlir::dyn_cast<mlir::AffineConstantExpr>(bin.getRHS());
      if (e.getKind() != mlir::AffineExprKind::Add &&
          e.getKind() != mlir::AffineExprKind::Mul &&
          (!rhs || rhs.getValue() < 1)) {
        ordinary = false;
      }
    }
  };
  for (mlir::AffineExpr e : map.GetAffineMap().getResults()) e.walk(visit);
  for (const IndexingConstraint& c : map.GetConstraints()) c.expr.walk(visit);
  return ordinary;
}

// Printing the simplified map and parsing it gives back an equal map; a map
// that is not IsOrdinary may be refused instead.
void CheckRoundTrip(const IndexingMap& original, const IndexingMap& simplified,
                    mlir::MLIRContext* ctx) {
  absl::StatusOr<IndexingMap> reparsed =
      ParseIndexingMap(ToString(simplified), ctx);
  if (!reparsed.ok() && !IsOrdinary(simplified)) return;
  if (!reparsed.ok() || *reparsed != simplified) {
    std::fprintf(stderr, "reparse: %s\n",
                 reparsed.ok()
                     ? ToString(*reparsed).c_str()
                     : std::string(reparsed.status().message()).c_str());
    Fail("print/parse round trip differs", original, simplified);
  }
}

// The exact composition of `relation` (pairs (d, r)) with `next` (whose dims
// read r): { (d, z) : (d, r) in relation, r in next's domain, z in next(r) }.
// nullopt when next has no value at some point it is evaluated at.
std::optional<Relation> ComposeRelations(const Relation& relation,
                                         const IndexingMap& next) {
  Relation out;
  for (const auto& [d, r] : relation) {
    std::vector<int64_t> at;
    for (size_t i = 0; i < r.size(); ++i) {
      Interval b = next.GetDimBound(i);
      if (r[i] < b.lower || r[i] > b.upper) break;
      at.push_back(static_cast<int64_t>(r[i]));
    }
    if (at.size() != r.size()) continue;
    // Enumerates next's symbols only (their box is small by construction).
    bool undefined = false;
    ForEachBoxPoint(next.GetSymbolBounds(), kMaxBoxPoints,
                    [&](const std::vector<int64_t>& symbols) {
                      exact::PointValue value =
                          exact::EvaluateAt(next, at, symbols);
                      if (value.kind != exact::Value::kValue) {
                        undefined = true;
                      } else if (value.holds) {
                        out.insert({d, std::move(value.results)});
                      }
                    });
    if (undefined) return std::nullopt;
  }
  return out;
}

// A map that reads the results of `relation`: its dims range over the
// results' exact ranges, cut to at most 8 values (so that some compositions
// need a domain constraint and take the slow path), maybe with a range
// variable. Undefined when the relation is empty or a result does not fit
// int64.
IndexingMap DecodeNextMap(ByteReader& in, const Relation& relation,
                          int num_results, mlir::MLIRContext* ctx) {
  if (relation.empty()) return IndexingMap::Undefined();
  std::vector<Interval> dims;
  for (int i = 0; i < num_results; ++i) {
    exact::Int lo = relation.begin()->second[i], hi = lo;
    for (const auto& p : relation) {
      lo = std::min(lo, p.second[i]);
      hi = std::max(hi, p.second[i]);
    }
    if (lo < kI64Min || hi > kI64Max) return IndexingMap::Undefined();
    Interval range{static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
    if (hi - lo >= 8) range.upper = range.lower + in.Int(0, 7);
    dims.push_back(range);
  }
  const int num_symbols = in.OneIn(3) ? 1 : 0;
  std::vector<Interval> symbols(num_symbols, Interval{0, in.Int(0, 3)});
  MapBuilder builder(in, ctx, dims.size(), num_symbols, in.OneIn(2));
  std::vector<mlir::AffineExpr> results;
  for (int i = in.Int(1, 2); i > 0; --i) results.push_back(builder.Expr(3));
  // The affine map first: the arguments of a call are evaluated in any order,
  // and `dims` is moved from by one of them.
  mlir::AffineMap affine_map =
      mlir::AffineMap::get(dims.size(), num_symbols, results, ctx);
  return IndexingMap(affine_map, std::move(dims), std::move(symbols), {});
}

// A chain of up to three maps, each reading the previous one's results,
// composed and simplified at once (linear forms carried from map to map,
// divisions memoized) and by MLIR's substitution (ComposeIndexingMaps, no
// simplification): both must relate the pairs of the exact composition.
void CheckComposition(ByteReader& in, const IndexingMap& original,
                      const Relation& relation, mlir::MLIRContext* ctx) {
  if (original.IsKnownEmpty()) return;
  std::vector<IndexingMap> chain = {original};
  Relation expected = relation;
  IndexingMap substituted = original;
  for (int k = in.Int(1, 2); k > 0; --k) {
    IndexingMap next = DecodeNextMap(
        in, expected, chain.back().GetAffineMap().getNumResults(), ctx);
    if (next.IsUndefined() || !next.Verify().ok() ||
        !EveryDivisionDefined(next)) {
      break;
    }
    std::optional<Relation> composed = ComposeRelations(expected, next);
    if (!composed) break;
    expected = std::move(*composed);
    substituted = ComposeIndexingMaps(substituted, next);
    chain.push_back(std::move(next));
  }
  if (chain.size() < 2) return;
  std::string maps;
  for (size_t i = 1; i < chain.size(); ++i) {
    maps += "\n--- map " + std::to_string(i + 1) + " of the chain:\n" +
            ToString(chain[i]);
  }
  if (Verbose()) std::fprintf(stderr, "--- chain:%s\n", maps.c_str());
  // A composition that cannot be represented exactly (a folded constant
  // beyond int64) is UNDEFINED: refused, which is allowed; a defined one
  // must be exact.
  if (!substituted.IsUndefined()) {
    CheckSameRelation(
        ("ComposeIndexingMaps changed the relation" + maps).c_str(), original,
        expected, substituted);
  }
  IndexingMap composed = ComposeAndSimplifyIndexingMaps(chain);
  if (!composed.IsUndefined()) {
    CheckSameRelation(
        ("ComposeAndSimplifyIndexingMaps changed the relation" + maps).c_str(),
        original, expected, composed);
  }
}

// The number of floordiv, ceildiv and mod nodes of `map`'s expressions.
int CountDivisions(const IndexingMap& map) {
  int count = 0;
  auto visit = [&count](mlir::AffineExpr e) {
    if (e.getKind() == mlir::AffineExprKind::FloorDiv ||
        e.getKind() == mlir::AffineExprKind::CeilDiv ||
        e.getKind() == mlir::AffineExprKind::Mod) {
      ++count;
    }
  };
  for (mlir::AffineExpr e : map.GetAffineMap().getResults()) e.walk(visit);
  for (const IndexingConstraint& c : map.GetConstraints()) c.expr.walk(visit);
  return count;
}

// Each division is a local variable of the Presburger relation, and the cost
// of subtracting relations grows quickly with them: maps with more are not
// checked exactly (most checks take well under a millisecond, but one with
// three divisions on each side did not finish in a minute).
constexpr int kMaxExactDivisions = 4;

// The largest magnitude of a constant of `map`'s expressions (saturated).
int64_t LargestConstant(const IndexingMap& map) {
  int64_t largest = 0;
  auto visit = [&largest](mlir::AffineExpr e) {
    if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(e)) {
      largest = std::max(
          largest, c.getValue() == kI64Min ? kI64Max : std::abs(c.getValue()));
    }
  };
  for (mlir::AffineExpr e : map.GetAffineMap().getResults()) e.walk(visit);
  for (const IndexingConstraint& c : map.GetConstraints()) c.expr.walk(visit);
  return largest;
}

// Whether a floordiv, ceildiv or mod of `map` divides an expression of a
// symbol: such a division becomes a local variable over an existential one,
// which is what makes subtracting relations slow.
bool DividesSymbols(const IndexingMap& map) {
  bool found = false;
  auto visit = [&found](mlir::AffineExpr e) {
    auto bin = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(e);
    if (!bin || e.getKind() == mlir::AffineExprKind::Add ||
        e.getKind() == mlir::AffineExprKind::Mul) {
      return;
    }
    bin.getLHS().walk([&found](mlir::AffineExpr sub) {
      if (mlir::isa<mlir::AffineSymbolExpr>(sub)) found = true;
    });
  };
  for (mlir::AffineExpr e : map.GetAffineMap().getResults()) e.walk(visit);
  for (const IndexingConstraint& c : map.GetConstraints()) c.expr.walk(visit);
  return found;
}

// The largest magnitude of a bound of `map`'s variables and constraints.
int64_t LargestBound(const IndexingMap& map) {
  int64_t largest = 0;
  auto visit = [&largest](Interval b) {
    for (int64_t v : {b.lower, b.upper}) {
      largest = std::max(largest, v == kI64Min ? kI64Max : std::abs(v));
    }
  };
  for (Interval b : map.GetDimBounds()) visit(b);
  for (Interval b : map.GetSymbolBounds()) visit(b);
  for (const IndexingConstraint& c : map.GetConstraints()) visit(c.interval);
  return largest;
}

// Whether FindDifference(a, b) is expected to be quick: few divisions, none
// of a symbol, no constant beyond 2^16, no bound beyond 2^40, and none
// beyond 2^32 when there is a division. Maps with a symbol inside a
// division, or larger numbers, took from 10 s to minutes (docs/RELIABILITY.md,
// finding P2); a single division of a dim beside a 2^40 range took 6 to
// over 15 s in MLIR's integer sampling (its numbers outgrow 64 bits). They
// are covered by enumeration on small boxes only.
bool ExactCheckIsCheap(const IndexingMap& a, const IndexingMap& b) {
  constexpr int64_t kMaxExactConstant = int64_t{1} << 16;
  const int divisions = CountDivisions(a) + CountDivisions(b);
  const int64_t max_bound =
      divisions == 0 ? int64_t{1} << 40 : int64_t{1} << 32;
  return divisions <= kMaxExactDivisions && !DividesSymbols(a) &&
         !DividesSymbols(b) && LargestConstant(a) <= kMaxExactConstant &&
         LargestConstant(b) <= kMaxExactConstant &&
         LargestBound(a) <= max_bound && LargestBound(b) <= max_bound;
}

// The checks of a map whose box is too large to enumerate: Presburger
// equality of the original and each transformed map.
void CheckLargeMap(const IndexingMap& original) {
  IndexingMap simplified = original;
  simplified.Simplify();
  if (Verbose()) {
    std::fprintf(stderr, "--- too many points:\n%s\n--- simplified:\n%s\n",
                 ToString(original).c_str(), ToString(simplified).c_str());
  }
  if (!ExactCheckIsCheap(original, simplified)) return;
  CheckSameRelationExactly("Simplify changed the relation", original,
                           simplified);
  IndexingMap rescaled = simplified;
  rescaled.RescaleSymbols();
  rescaled.Simplify();
  rescaled.RemoveUnusedSymbols();
  if (rescaled == simplified) return;
  CheckSameRelationExactly(
      "RescaleSymbols/RemoveUnusedSymbols changed the relation", original,
      rescaled);
}

}  // namespace
}  // namespace xla_index

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace xla_index;  // NOLINT: the entry point is outside it
  // One context per input: uniqued expressions of earlier inputs would
  // otherwise pile up over a long campaign.
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  struct Timer {
    double start = CpuSeconds();
    ~Timer() {
      ++GetStats().inputs;
      GetStats().seconds += CpuSeconds() - start;
    }
  } timer;
  ByteReader in(data, size);
  IndexingMap original = DecodeMap(in, &context);
  if (!original.Verify().ok() || !EveryDivisionDefined(original)) return 0;
  Enumeration expected = exact::Enumerate(original, kMaxBoxPoints);
  if (expected.kind == Enumeration::kTooBig) {
    ++GetStats().large;
    CheckLargeMap(original);
    return 0;
  }
  // A point with no value (division by zero) or beyond __int128 says nothing
  // about soundness.
  if (expected.kind != Enumeration::kDone) return 0;

  IndexingMap simplified = original;
  simplified.Simplify();
  if (Verbose()) {
    std::fprintf(stderr, "--- %zu pairs:\n%s\n--- simplified:\n%s\n",
                 expected.relation.size(), ToString(original).c_str(),
                 ToString(simplified).c_str());
  }
  ++GetStats().enumerated;
  CheckSameRelation("Simplify changed the relation", original,
                    expected.relation, simplified);
  if (Strict() && in.OneIn(kCrossCheckOneIn) &&
      ExactCheckIsCheap(original, simplified)) {
    CrossCheckPresburger(original, expected.relation, simplified);
  }

  // Simplifying twice changes nothing.
  IndexingMap twice = simplified;
  twice.Simplify();
  if (twice != simplified) {
    std::fprintf(stderr, "twice:\n%s\n", ToString(twice).c_str());
    Fail("Simplify is not idempotent", original, simplified);
  }

  CheckRoundTrip(original, simplified, &context);
  CheckTextOfOriginal(original, expected.relation, &context);

  IndexingMap rescaled = simplified;
  rescaled.RescaleSymbols();
  rescaled.Simplify();
  CheckSameRelation("RescaleSymbols changed the relation", original,
                    expected.relation, rescaled);
  rescaled.RemoveUnusedSymbols();
  CheckSameRelation("RemoveUnusedSymbols changed the relation", original,
                    expected.relation, rescaled);

  CheckComposition(in, original, expected.relation, &context);
  return 0;
}
