// Differential fuzz target for the simplifier: decodes the input bytes into a
// random indexing map with small variable intervals, simplifies it, and
// checks by brute force that the simplified map relates exactly the same
// (domain point, result) pairs as the original. Any difference aborts.
//
// The relation of a map is { (d, f(d, s)) : d, s in their intervals and every
// constraint holds } (docs/ARCHITECTURE.md, "How correctness is established"); symbols are
// projected away, so RescaleSymbols and RemoveUnusedSymbols must keep it too.
// The same byte string always decodes to the same map, so a crash input
// replays exactly.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/core/interval.h"

namespace xla_index {
namespace {

// Reads small integers from the input; past its end every read returns 0, so
// a short input still decodes to a (small) map.
class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  // Uniform-ish in [lo, hi].
  int64_t Int(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(Byte()) % (hi - lo + 1);
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// Points a map's relation may have before the input is skipped: keeps each
// run well under a millisecond.
constexpr int64_t kMaxBoxPoints = 1 << 12;
// The simplified map may not enumerate more than this (it should never have
// a larger box than the original; if it does, that is itself reported).
constexpr int64_t kMaxSimplifiedPoints = 1 << 20;

class MapBuilder {
 public:
  MapBuilder(ByteReader& in, mlir::MLIRContext* ctx, int num_dims,
             int num_symbols)
      : in_(in), ctx_(ctx), num_dims_(num_dims), num_symbols_(num_symbols) {}

  // A random pure-affine expression of at most `depth` levels: sums of
  // variables times constants, floordiv / ceildiv / mod by small constants.
  // Divisors are mostly positive; 0 and negative ones are rare and exercise
  // the "no value" path of Evaluate.
  mlir::AffineExpr Expr(int depth) {
    int kind = depth <= 0 ? in_.Int(0, 2) : in_.Int(0, 9);
    switch (kind) {
      case 0:
        return mlir::getAffineDimExpr(in_.Int(0, num_dims_ - 1), ctx_);
      case 1:
        if (num_symbols_ > 0) {
          return mlir::getAffineSymbolExpr(in_.Int(0, num_symbols_ - 1), ctx_);
        }
        return mlir::getAffineDimExpr(in_.Int(0, num_dims_ - 1), ctx_);
      case 2:
        return mlir::getAffineConstantExpr(in_.Int(-10, 10), ctx_);
      case 3:
      case 4:
        return Expr(depth - 1) + Expr(depth - 1);
      case 5:
        return Expr(depth - 1) * in_.Int(-4, 8);
      case 6:
        return Expr(depth - 1).floorDiv(Divisor());
      case 7:
        return Expr(depth - 1).ceilDiv(Divisor());
      case 8:
        return Expr(depth - 1) % Divisor();
      default:
        return Expr(depth - 1) - Expr(depth - 1);
    }
  }

 private:
  int64_t Divisor() {
    int64_t d = in_.Int(0, 31);
    if (d == 0) return 0;
    if (d == 1) return -in_.Int(1, 4);
    return 1 + d % 9;
  }

  ByteReader& in_;
  mlir::MLIRContext* ctx_;
  int num_dims_;
  int num_symbols_;
};

IndexingMap DecodeMap(ByteReader& in, mlir::MLIRContext* ctx) {
  const int num_dims = in.Int(1, 3);
  const int num_range = in.Int(0, 2);
  const int num_runtime = in.Int(0, 4) == 0 ? 1 : 0;
  const int num_symbols = num_range + num_runtime;
  auto interval = [&in]() {
    int64_t lo = in.Int(-3, 5);
    // An empty interval now and then (1 in 16), which makes the whole map
    // empty; mostly 1 to 8 values.
    int64_t size = in.Int(0, 15) == 0 ? 0 : in.Int(1, 8);
    return Interval{lo, lo + size - 1};
  };
  std::vector<Interval> dims(num_dims);
  for (Interval& b : dims) b = interval();
  std::vector<Interval> range(num_range);
  for (Interval& b : range) b = interval();
  MapBuilder builder(in, ctx, num_dims, num_symbols);
  std::vector<RuntimeVar> runtime(num_runtime);
  for (RuntimeVar& rt : runtime) {
    rt.feasible_values = interval();
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
    int64_t lo = in.Int(-6, 6);
    constraints.push_back({e, Interval{lo, lo + in.Int(0, 6)}});
  }
  return IndexingMap(mlir::AffineMap::get(num_dims, num_symbols, results, ctx),
                     std::move(dims), std::move(range), std::move(runtime),
                     std::move(constraints));
}

// A map that reads `first`'s results: its dims are those results, with
// their ranges cut to at most 8 values (so that some compositions need a
// domain constraint and take the slow path), maybe with a range variable.
// Undefined when a result's range is unbounded.
IndexingMap DecodeNextMap(ByteReader& in, const IndexingMap& first,
                          mlir::MLIRContext* ctx) {
  std::vector<Interval> dims;
  for (mlir::AffineExpr r : first.GetAffineMap().getResults()) {
    Interval range = ComputeExpressionRange(first, r);
    if (range.IsEmpty() || range.lower == Interval::kMin ||
        range.upper == Interval::kMax) {
      return IndexingMap::Undefined();
    }
    if (range.NumElements() > 8) range.upper = range.lower + in.Int(0, 7);
    dims.push_back(range);
  }
  const int num_symbols = in.Int(0, 2) == 0 ? 1 : 0;
  std::vector<Interval> symbols(num_symbols, Interval{0, in.Int(0, 3)});
  MapBuilder builder(in, ctx, dims.size(), num_symbols);
  std::vector<mlir::AffineExpr> results;
  for (int i = in.Int(1, 2); i > 0; --i) results.push_back(builder.Expr(3));
  return IndexingMap(
      mlir::AffineMap::get(dims.size(), num_symbols, results, ctx),
      std::move(dims), std::move(symbols), {});
}

using Relation =
    std::set<std::pair<std::vector<int64_t>, std::vector<int64_t>>>;

// The relation of `map` by brute force, or nullopt when some feasible point
// has no value (a division by a non-positive constant): such maps say
// nothing about soundness and are skipped.
std::optional<Relation> Enumerate(const IndexingMap& map, int64_t max_points,
                                  bool* too_big) {
  Relation relation;
  *too_big = false;
  if (map.IsKnownEmpty()) return relation;
  std::vector<Interval> box = map.GetDimBounds();
  for (int64_t i = 0; i < map.GetSymbolCount(); ++i) {
    box.push_back(map.GetSymbolBound(i));
  }
  int64_t count = 1;
  for (Interval b : box) {
    if (b.IsEmpty()) return relation;
    count = SaturatingMul(count, b.NumElements());
  }
  if (count > max_points) {
    *too_big = true;
    return std::nullopt;
  }
  const size_t nd = map.GetDimensionCount();
  std::vector<int64_t> point(box.size());
  for (size_t i = 0; i < box.size(); ++i) point[i] = box[i].lower;
  while (true) {
    absl::Span<const int64_t> dims(point.data(), nd);
    absl::Span<const int64_t> syms(point.data() + nd, point.size() - nd);
    if (map.ConstraintsSatisfied(dims, syms)) {
      std::optional<std::vector<int64_t>> results = map.Evaluate(dims, syms);
      if (!results) return std::nullopt;
      relation.insert({std::vector<int64_t>(dims.begin(), dims.end()),
                       std::move(*results)});
    }
    int i = static_cast<int>(box.size()) - 1;
    for (; i >= 0; --i) {
      if (point[i] < box[i].upper) {
        ++point[i];
        break;
      }
      point[i] = box[i].lower;
    }
    if (i < 0) break;
  }
  return relation;
}

// True if `expr` divides (floordiv, ceildiv, mod) by a constant < 1 or by a
// non-constant.
bool HasNonPositiveDivisor(mlir::AffineExpr expr) {
  bool bad = false;
  expr.walk([&bad](mlir::AffineExpr e) {
    auto bin = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(e);
    if (!bin || e.getKind() == mlir::AffineExprKind::Mul ||
        e.getKind() == mlir::AffineExprKind::Add) {
      return;
    }
    auto rhs = mlir::dyn_cast<mlir::AffineConstantExpr>(bin.getRHS());
    if (!rhs || rhs.getValue() < 1) bad = true;
  });
  return bad;
}

// A constraint with a non-positive divisor makes ConstraintsSatisfied's
// answer a matter of convention, so such maps are skipped.
bool ConstraintsEvaluateEverywhere(const IndexingMap& map) {
  for (const IndexingConstraint& c : map.GetConstraints()) {
    if (HasNonPositiveDivisor(c.expr)) return false;
  }
  return true;
}

// The text format only has positive divisors (ParseIndexingMap rejects the
// others), so only maps without them must print and parse back.
bool HasTextForm(const IndexingMap& map) {
  for (mlir::AffineExpr e : map.GetAffineMap().getResults()) {
    if (HasNonPositiveDivisor(e)) return false;
  }
  return ConstraintsEvaluateEverywhere(map);
}

[[noreturn]] void Fail(const char* what, const IndexingMap& original,
                       const IndexingMap& transformed) {
  std::fprintf(stderr,
               "simplifier_fuzzer: %s\n--- original:\n%s\n--- after:\n%s\n",
               what, ToString(original).c_str(), ToString(transformed).c_str());
  std::abort();
}

void CheckSameRelation(const char* step, const IndexingMap& original,
                       const Relation& expected, const IndexingMap& after) {
  bool too_big = false;
  std::optional<Relation> got =
      Enumerate(after, kMaxSimplifiedPoints, &too_big);
  if (too_big) Fail(step, original, after);
  if (!got) Fail(step, original, after);
  if (*got != expected) Fail(step, original, after);
}

}  // namespace
}  // namespace xla_index

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace xla_index;  // NOLINT: the entry point is outside it
  // One context per input: uniqued expressions of earlier inputs would
  // otherwise pile up over a long campaign.
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  ByteReader in(data, size);
  IndexingMap original = DecodeMap(in, &context);
  if (!original.Verify().ok()) return 0;
  if (!ConstraintsEvaluateEverywhere(original)) return 0;
  bool too_big = false;
  std::optional<Relation> expected =
      Enumerate(original, kMaxBoxPoints, &too_big);
  if (!expected) return 0;

  IndexingMap simplified = original;
  simplified.Simplify();
  // XLA_INDEX_FUZZ_VERBOSE=1 shows what an input decodes to (for reading a
  // crash input, or checking that the decoder makes interesting maps).
  static const bool verbose = std::getenv("XLA_INDEX_FUZZ_VERBOSE") != nullptr;
  if (verbose) {
    std::fprintf(stderr, "--- %zu points:\n%s\n--- simplified:\n%s\n",
                 expected->size(), ToString(original).c_str(),
                 ToString(simplified).c_str());
  }
  CheckSameRelation("Simplify changed the relation", original, *expected,
                    simplified);

  // Simplifying twice changes nothing.
  IndexingMap twice = simplified;
  twice.Simplify();
  if (twice != simplified) {
    std::fprintf(stderr, "twice:\n%s\n", ToString(twice).c_str());
    Fail("Simplify is not idempotent", original, simplified);
  }

  // Printing and parsing gives back an equal map.
  absl::StatusOr<IndexingMap> reparsed =
      ParseIndexingMap(ToString(simplified), &context);
  if (HasTextForm(original) && (!reparsed.ok() || *reparsed != simplified)) {
    std::fprintf(stderr, "reparse: %s\n",
                 reparsed.ok()
                     ? ToString(*reparsed).c_str()
                     : std::string(reparsed.status().message()).c_str());
    Fail("print/parse round trip differs", original, simplified);
  }

  IndexingMap rescaled = simplified;
  rescaled.RescaleSymbols();
  rescaled.Simplify();
  CheckSameRelation("RescaleSymbols changed the relation", original, *expected,
                    rescaled);
  if (verbose) {
    std::fprintf(stderr, "--- rescaled:\n%s\n", ToString(rescaled).c_str());
  }
  rescaled.RemoveUnusedSymbols();
  CheckSameRelation("RemoveUnusedSymbols changed the relation", original,
                    *expected, rescaled);

  // A chain of up to three maps, each reading the previous one's results,
  // composed and simplified at once (linear forms carried from map to map,
  // divisions memoized) relates the same pairs as MLIR's substitution of
  // the maps into each other (ComposeIndexingMaps, no simplification).
  if (original.IsKnownEmpty() || !HasTextForm(original)) return 0;
  std::vector<IndexingMap> chain = {original};
  IndexingMap substituted = original;
  for (int k = in.Int(1, 2); k > 0; --k) {
    IndexingMap next = DecodeNextMap(in, substituted, &context);
    if (next.IsUndefined() || !HasTextForm(next)) break;
    substituted = ComposeIndexingMaps(substituted, next);
    chain.push_back(std::move(next));
  }
  if (chain.size() < 2) return 0;
  std::optional<Relation> composed_expected =
      Enumerate(substituted, kMaxBoxPoints, &too_big);
  if (!composed_expected) return 0;
  IndexingMap composed = ComposeAndSimplifyIndexingMaps(chain);
  if (verbose) {
    std::fprintf(stderr, "--- chain of %zu composed:\n%s\n", chain.size(),
                 ToString(composed).c_str());
  }
  CheckSameRelation("ComposeAndSimplifyIndexingMaps changed the relation",
                    substituted, *composed_expected, composed);
  return 0;
}
