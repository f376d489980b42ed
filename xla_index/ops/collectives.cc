// Collectives: all-gather, all-reduce, all-to-all, collective-permute and
// reduce-scatter, both directions, from XLA's operation-semantics
// documentation. Each map comes with a replica-id map (IndexingMapSet): the
// position, in the running replica's group, of the replica the element is
// read from (output to input) or sent to (input to output). The two share
// their variables. Two kinds of symbol appear besides the element's:
//   - a range variable over the group, [0, n - 1], where the element is
//     read from (or sent to) every replica of the group (all-reduce,
//     reduce-scatter);
//   - a runtime variable for the running replica's own position in its
//     group, where the element index depends on it (reduce-scatter's
//     chunk, the pieces of all-gather and all-to-all). Its `hlo:` line
//     names the collective ("replica position in the groups of 'NAME'").
//
// all-gather, XLA's indexing-analysis example (2 replicas, dimensions={1}):
//   ag = f32[10,256] all-gather(f32[10,128] p0), dimensions={1},
//        replica_groups={{0,1}}
//   output to input: (d0, d1) -> (d0, d1 mod 128)
//          replica id: (d0, d1) -> (d1 floordiv 128)
//   input to output: (d0, d1)[s0, s1] -> (d0, d1 + s1 * 128)
//          replica id: (d0, d1)[s0, s1] -> (s0)
//          s0 in [0, 1] (every replica receives it), s1 the running
//          replica's position (its piece lands at s1 * 128).
// all-reduce: the element at the same index on every replica of the group,
//   (d0, d1)[s0] -> (d0, d1), replica id (s0), s0 in [0, n - 1]; both
//   directions.
// reduce-scatter (dimensions={d}, operand size N, output size N / n):
//   output to input: d_d + rt * (N / n) on every replica of the group
//     (replica id s0), rt the running replica's position;
//   input to output: d_d mod (N / n), on the replica at position
//     d_d floordiv (N / n).
// all-to-all (array form, dimensions={d}, pieces of c = N / n): output
//   piece k comes from replica k's piece rt; an operand piece k goes to
//   replica k as its piece rt. Both directions:
//     (... d_d ...)[rt] -> (... d_d mod c + rt * c ...),
//     replica id d_d floordiv c.
// collective-permute: the same index, on the running replica's source
//   (output to input) or target (input to output) in source_target_pairs,
//   a runtime variable: its group is every replica, so the position is the
//   replica id. (A replica that is no target receives zeros and reads
//   nothing; one that is no source sends nothing.)
//
//
// The group size (GetCollectiveGroupSize, hlo/replica_groups.h) follows
// XLA's group modes: replica_groups={} is every replica of the module's
// replica_count (with a channel_id: every partition for all-to-all and
// collective-permute; every replica of every partition for the others
// unless use_global_device_ids=true, which needs explicit groups).
//
// The asynchronous forms (XLA's syntax):
//   s = (f32[10,128], f32[10,256]) all-gather-start(p0), dimensions={1}, ...
//   d = f32[10,256] all-gather-done(s)
// output 1 of the start is the collective's result, with the maps above;
// output 0 is the operand itself (the identity, on the running replica);
// collective-permute-start's contexts (u32[] elements) read nothing;
// all-reduce-start returns the result itself (the all-reduce maps). A done
// is the identity on its result, and fusion composition reads element 1
// of its start (so the done's composed maps are the collective's).
//
// Not defined, UNDEFINED with a reason: replica_groups={} where the group
// size does not follow from the shapes and the HLO has no HloModule header
// (a snippet: the replica count is not stated), the tuple form of
// all-to-all (which operand is read depends on the running replica),
// malformed replica_groups or source_target_pairs, a -start of several
// operands (XLA nests them in tuples, which a flat output id cannot name).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "hlo/replica_groups.h"
#include "hlo/shape.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/ops/op_rules.h"
#include "xla_index/ops/rule_helpers.h"

namespace xla_index {
namespace {

using mlir::AffineExpr;
using mlir::getAffineDimExpr;
using mlir::getAffineSymbolExpr;

// One entry under construction: over `dims`, range variables of
// `range_sizes`, then `runtime_vars`; symbol j is range variable j for
// j < range_sizes.size(), else a runtime variable.
struct CollectiveEntry {
  absl::Span<const int64_t> dims;
  std::vector<int64_t> range_sizes;
  std::vector<RuntimeVar> runtime_vars;
  std::vector<AffineExpr> element;
  AffineExpr replica;
};

// Inserts the entry's element and replica-id maps (one joint map, split).
void InsertEntry(const CollectiveEntry& entry, mlir::MLIRContext* context,
                 IndexingMapSet& set) {
  std::vector<AffineExpr> results = entry.element;
  results.push_back(entry.replica);
  std::vector<Interval> ranges;
  for (int64_t size : entry.range_sizes) ranges.push_back({0, size - 1});
  IndexingMap joint(
      mlir::AffineMap::get(entry.dims.size(),
                           entry.range_sizes.size() + entry.runtime_vars.size(),
                           results, context),
      DimBounds(entry.dims), std::move(ranges), entry.runtime_vars);
  auto [element, replica] =
      SplitReplicaMap(joint, static_cast<int64_t>(entry.element.size()));
  set.Insert(std::move(element), std::move(replica));
}

// A runtime variable in [lo, hi] that the running replica determines,
// described by `what` (read once per map: its access map has no results).
RuntimeVar ReplicaVar(const HloInstruction* collective, absl::string_view what,
                      int64_t lo, int64_t hi, int64_t dims,
                      mlir::MLIRContext* context) {
  RuntimeVar var;
  var.feasible_values = Interval{lo, hi};
  var.hlo = collective;
  var.hlo_text = absl::StrCat(what, " '", collective->name(), "'");
  var.access = mlir::AffineMap::get(dims, 0, {}, context);
  return var;
}

RuntimeVar GroupPositionVar(const HloInstruction* collective, int64_t n,
                            int64_t dims, mlir::MLIRContext* context) {
  return ReplicaVar(collective, "replica position in the groups of", 0, n - 1,
                    dims, context);
}

// The identity exprs over `rank` dims.
std::vector<AffineExpr> IdentityExprs(int64_t rank,
                                      mlir::MLIRContext* context) {
  std::vector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d) {
    exprs.push_back(getAffineDimExpr(d, context));
  }
  return exprs;
}

// The collective's own result: the instruction's shape, or element 1 of
// an all-gather-start's or collective-permute-start's tuple (element 0 is
// the operand; shape inference checked the tuple).
const Shape& CollectiveResult(const HloInstruction* instruction) {
  const Shape& shape = instruction->shape();
  const bool start =
      instruction->opcode() == HloOpcode::kAllGatherStart ||
      instruction->opcode() == HloOpcode::kCollectivePermuteStart;
  return start && shape.IsTuple() && shape.tuple_shapes().size() >= 2
             ? shape.tuple_shapes(1)
             : shape;
}

int64_t CollectiveResultCount(const HloInstruction* instruction) {
  const Shape& result = CollectiveResult(instruction);
  return result.IsTuple() ? static_cast<int64_t>(result.tuple_shapes().size())
                          : 1;
}

// The array shape of result `k`.
const Shape& OutputShapeOf(const HloInstruction* instruction, int64_t k) {
  const Shape& shape = CollectiveResult(instruction);
  return shape.IsTuple() ? shape.tuple_shapes(k) : shape;
}

// Operands and results pair up (operand k -> result k) and are arrays.
bool OperandsPairWithOutputs(const HloInstruction* instruction) {
  const int64_t count = instruction->operand_count();
  if (count == 0 || CollectiveResultCount(instruction) != count) return false;
  if (CollectiveResult(instruction).IsTuple() != (count > 1)) return false;
  for (int64_t k = 0; k < count; ++k) {
    if (!instruction->operand(k)->shape().IsArray() ||
        !OutputShapeOf(instruction, k).IsArray()) {
      return false;
    }
  }
  return true;
}

// The group size (0: the HLO does not state it, the shapes may), or an
// error naming the instruction.
absl::StatusOr<int64_t> GroupSize(const HloInstruction* instruction) {
  XI_ASSIGN_OR_RETURN(CollectiveGroupSize size,
                      GetCollectiveGroupSize(*instruction));
  return size.size;
}

// The group size, which the index math needs: an error with the reason
// when the HLO does not state it.
absl::StatusOr<int64_t> KnownGroupSize(const HloInstruction* instruction) {
  XI_ASSIGN_OR_RETURN(CollectiveGroupSize size,
                      GetCollectiveGroupSize(*instruction));
  if (size.size == 0) return absl::InvalidArgumentError(size.unknown_reason);
  return size.size;
}

// The dimension a collective splits or concatenates along, and its group
// size n. GetSplitDimension: all-gather (`grow`: the output is n times the
// operand along it) or reduce-scatter (the operand is n times the output),
// or nullopt when the attributes do not fit.
struct SplitDimension {
  int64_t dim;
  int64_t n;
};
std::optional<SplitDimension> GetSplitDimension(
    const HloInstruction* instruction, bool grow, int64_t group_size) {
  if (!OperandsPairWithOutputs(instruction) ||
      instruction->dimensions().size() != 1) {
    return std::nullopt;
  }
  const int64_t dim = instruction->dimensions()[0];
  std::optional<int64_t> n;
  for (int64_t k = 0; k < instruction->operand_count(); ++k) {
    const Shape& in = instruction->operand(k)->shape();
    const Shape& out = OutputShapeOf(instruction, k);
    if (in.rank() != out.rank() || dim < 0 || dim >= in.rank()) {
      return std::nullopt;
    }
    for (int64_t d = 0; d < in.rank(); ++d) {
      if (d != dim && in.dimensions(d) != out.dimensions(d)) {
        return std::nullopt;
      }
    }
    const int64_t small = grow ? in.dimensions(dim) : out.dimensions(dim);
    const int64_t big = grow ? out.dimensions(dim) : in.dimensions(dim);
    if (small < 1 || big % small != 0 || (n.has_value() && *n != big / small)) {
      return std::nullopt;
    }
    n = big / small;
  }
  if (group_size != 0 && *n != group_size) return std::nullopt;
  return SplitDimension{dim, *n};
}

// The answer of a collective whose group size is not known or whose
// attributes do not fit: `count` Undefined sets with the reason.
HloInstructionIndexing Refuse(const HloInstruction* instruction, int64_t count,
                              const absl::StatusOr<int64_t>& group_size) {
  if (!group_size.ok()) {
    return HloInstructionIndexing::Undefined(count,
                                             group_size.status().message());
  }
  return HloInstructionIndexing::Undefined(
      count, AttributesDoNotFitReason(instruction));
}

// `count` empty sets, set `k` holding the entry: operand (or output) k
// pairs with output (or operand) k only.
HloInstructionIndexing OnlySet(int64_t count, int64_t k,
                               const CollectiveEntry& entry,
                               mlir::MLIRContext* context) {
  HloInstructionIndexing indexing;
  indexing.indexing_maps.resize(count);
  InsertEntry(entry, context, indexing.indexing_maps[k]);
  return indexing;
}

}  // namespace

// ---- all-gather, reduce-scatter ----

namespace {

// all-gather (`grow`: output = n operand pieces) and reduce-scatter (operand
// = n output chunks) for operand / output k, in either direction. From the
// big side, piece d_d floordiv p of the index is that replica's, at
// d_d mod p; from the small side, the element is at d_d + rt * p on every
// replica of the group (s0), rt the running replica's position.
HloInstructionIndexing SplitDimensionIndexing(const HloInstruction* instruction,
                                              int64_t k, bool grow,
                                              bool output_to_input,
                                              mlir::MLIRContext* context) {
  absl::StatusOr<int64_t> group_size = GroupSize(instruction);
  std::optional<SplitDimension> split =
      group_size.ok() ? GetSplitDimension(instruction, grow, *group_size)
                      : std::nullopt;
  const int64_t count = output_to_input ? instruction->operand_count()
                                        : CollectiveResultCount(instruction);
  if (!split.has_value()) return Refuse(instruction, count, group_size);
  const Shape& operand = instruction->operand(k)->shape();
  const Shape& output = OutputShapeOf(instruction, k);
  const Shape& domain = output_to_input ? output : operand;
  const int64_t piece = (grow ? operand : output).dimensions(split->dim);
  CollectiveEntry entry{
      domain.dimensions(), {}, {}, IdentityExprs(domain.rank(), context), {}};
  AffineExpr d = getAffineDimExpr(split->dim, context);
  if (output_to_input == grow) {
    entry.element[split->dim] = d % piece;
    entry.replica = d.floorDiv(piece);
  } else {
    entry.range_sizes = {split->n};
    entry.runtime_vars = {
        GroupPositionVar(instruction, split->n, domain.rank(), context)};
    entry.element[split->dim] = d + getAffineSymbolExpr(1, context) * piece;
    entry.replica = getAffineSymbolExpr(0, context);
  }
  return OnlySet(count, k, entry, context);
}

}  // namespace

HloInstructionIndexing ComputeOutputToInputAllGatherIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context) {
  return SplitDimensionIndexing(instruction, output_id, /*grow=*/true,
                                /*output_to_input=*/true, context);
}

HloInstructionIndexing ComputeInputToOutputAllGatherIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  return SplitDimensionIndexing(instruction, input_id, /*grow=*/true,
                                /*output_to_input=*/false, context);
}

HloInstructionIndexing ComputeOutputToInputReduceScatterIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context) {
  return SplitDimensionIndexing(instruction, output_id, /*grow=*/false,
                                /*output_to_input=*/true, context);
}

HloInstructionIndexing ComputeInputToOutputReduceScatterIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  return SplitDimensionIndexing(instruction, input_id, /*grow=*/false,
                                /*output_to_input=*/false, context);
}

// ---- all-reduce ----

namespace {

// Operand k and output k have the same dims.
bool IsValidAllReduce(const HloInstruction* instruction) {
  if (!OperandsPairWithOutputs(instruction)) return false;
  for (int64_t k = 0; k < instruction->operand_count(); ++k) {
    if (!instruction->operand(k)->shape().SameDimensions(
            OutputShapeOf(instruction, k))) {
      return false;
    }
  }
  return true;
}

// Same index, every replica of the group (both directions).
HloInstructionIndexing AllReduceIndexing(const HloInstruction* instruction,
                                         int64_t k, int64_t count,
                                         mlir::MLIRContext* context) {
  absl::StatusOr<int64_t> group_size = KnownGroupSize(instruction);
  if (!group_size.ok() || !IsValidAllReduce(instruction)) {
    return Refuse(instruction, count, group_size);
  }
  const Shape& shape = instruction->operand(k)->shape();
  CollectiveEntry entry{shape.dimensions(),
                        {*group_size},
                        {},
                        IdentityExprs(shape.rank(), context),
                        getAffineSymbolExpr(0, context)};
  return OnlySet(count, k, entry, context);
}

}  // namespace

HloInstructionIndexing ComputeOutputToInputAllReduceIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context) {
  return AllReduceIndexing(instruction, output_id, instruction->operand_count(),
                           context);
}

HloInstructionIndexing ComputeInputToOutputAllReduceIndexing(
    const HloInstruction* instruction, int64_t input_id,
    mlir::MLIRContext* context) {
  return AllReduceIndexing(instruction, input_id, OutputCount(instruction),
                           context);
}

// ---- all-to-all ----

namespace {

// The array form's dimension (dimensions={d}) and group size, an error
// (the tuple form, an unknown group size) or nullopt (attributes that do
// not fit: the pieces must be whole and non-empty).
absl::StatusOr<std::optional<SplitDimension>> GetAllToAllSplit(
    const HloInstruction* instruction) {
  XI_ASSIGN_OR_RETURN(int64_t n, GroupSize(instruction));
  if (instruction->dimensions().empty() && instruction->operand_count() >= 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "all-to-all '", instruction->name(),
        "': the tuple form (no dimensions=) reads operand k on replica k, "
        "which operand depends on the running replica"));
  }
  if (!AllArraysWithOperands(instruction, 1) ||
      instruction->dimensions().size() != 1 ||
      !instruction->operand(0)->shape().SameDimensions(instruction->shape())) {
    return std::optional<SplitDimension>();
  }
  if (n == 0) return KnownGroupSize(instruction).status();
  const Shape& shape = instruction->shape();
  const int64_t dim = instruction->dimensions()[0];
  if (dim < 0 || dim >= shape.rank() || shape.dimensions(dim) < n ||
      shape.dimensions(dim) % n != 0) {
    return std::optional<SplitDimension>();
  }
  return std::optional<SplitDimension>(SplitDimension{dim, n});
}

// Both directions: index d_d mod c + rt * c, replica d_d floordiv c.
HloInstructionIndexing AllToAllIndexing(const HloInstruction* instruction,
                                        int64_t count,
                                        mlir::MLIRContext* context) {
  absl::StatusOr<std::optional<SplitDimension>> split =
      GetAllToAllSplit(instruction);
  if (!split.ok()) {
    return HloInstructionIndexing::Undefined(count, split.status().message());
  }
  if (!split->has_value()) {
    return HloInstructionIndexing::Undefined(
        count, AttributesDoNotFitReason(instruction));
  }
  const Shape& shape = instruction->shape();
  const int64_t dim = (*split)->dim, n = (*split)->n;
  const int64_t piece = shape.dimensions(dim) / n;
  AffineExpr d = getAffineDimExpr(dim, context);
  CollectiveEntry entry{
      shape.dimensions(),
      {},
      {GroupPositionVar(instruction, n, shape.rank(), context)},
      IdentityExprs(shape.rank(), context),
      d.floorDiv(piece)};
  entry.element[dim] = d % piece + getAffineSymbolExpr(0, context) * piece;
  return OnlySet(count, 0, entry, context);
}

}  // namespace

HloInstructionIndexing ComputeOutputToInputAllToAllIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  return AllToAllIndexing(instruction, instruction->operand_count(), context);
}

HloInstructionIndexing ComputeInputToOutputAllToAllIndexing(
    const HloInstruction* instruction, int64_t /*input_id*/,
    mlir::MLIRContext* context) {
  return AllToAllIndexing(instruction, OutputCount(instruction), context);
}

// ---- collective-permute ----

namespace {

// Same index, on the running replica's source (`to_source`) or target: a
// runtime variable over the pairs' sources or targets.
HloInstructionIndexing CollectivePermuteIndexing(
    const HloInstruction* instruction, bool to_source,
    mlir::MLIRContext* context) {
  std::optional<absl::string_view> text =
      instruction->attribute("source_target_pairs");
  const Shape& shape = CollectiveResult(instruction);
  if (instruction->operand_count() != 1 ||
      !instruction->operand(0)->shape().IsArray() || !shape.IsArray() ||
      !instruction->operand(0)->shape().SameDimensions(shape)) {
    return AttributesDoNotFitEachOperand(instruction);
  }
  absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> pairs =
      ParseSourceTargetPairs(text.value_or("{}"));
  if (!pairs.ok()) {
    return HloInstructionIndexing::Undefined(
        1, absl::StrCat("collective-permute '", instruction->name(),
                        "': source_target_pairs: ", pairs.status().message()));
  }
  // No pairs: every output is zeros, nothing is read or sent.
  if (pairs->empty()) {
    HloInstructionIndexing none;
    none.indexing_maps.resize(1);
    return none;
  }
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (const auto& [source, target] : *pairs) {
    lo = std::min(lo, to_source ? source : target);
    hi = std::max(hi, to_source ? source : target);
  }
  CollectiveEntry entry{
      shape.dimensions(),
      {},
      {ReplicaVar(instruction,
                  to_source ? "source replica of the running replica in"
                            : "target replica of the running replica in",
                  lo, hi, shape.rank(), context)},
      IdentityExprs(shape.rank(), context),
      getAffineSymbolExpr(0, context)};
  return OnlySet(1, 0, entry, context);
}

}  // namespace

HloInstructionIndexing ComputeOutputToInputCollectivePermuteIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  return CollectivePermuteIndexing(instruction, /*to_source=*/true, context);
}

HloInstructionIndexing ComputeInputToOutputCollectivePermuteIndexing(
    const HloInstruction* instruction, int64_t /*input_id*/,
    mlir::MLIRContext* context) {
  return CollectivePermuteIndexing(instruction, /*to_source=*/false, context);
}

// ---- asynchronous forms ----

namespace {

using CollectiveRule = HloInstructionIndexing (*)(const HloInstruction*,
                                                  int64_t, mlir::MLIRContext*);

// Why a -start has no maps: XLA nests several operands in element 0 and
// several results in element 1, which a flat output id cannot name.
std::string StartReason(const HloInstruction* instruction) {
  return absl::StrCat(HloOpcodeName(instruction->opcode()), " '",
                      instruction->name(),
                      "': its tuple must be (operand, result, ...) of one "
                      "array operand");
}

// A -start of one array operand whose tuple's element 0 is that operand
// and element 1 an array result.
bool IsSimpleStart(const HloInstruction* instruction) {
  const Shape& shape = instruction->shape();
  return instruction->operand_count() == 1 && shape.IsTuple() &&
         shape.tuple_shapes().size() >= 2 &&
         instruction->operand(0)->shape().IsArray() &&
         shape.tuple_shapes(0).IsArray() && shape.tuple_shapes(1).IsArray() &&
         shape.tuple_shapes(0).SameDimensions(instruction->operand(0)->shape());
}

// Output 1 is the collective's result (`rule`, the synchronous rule);
// output 0 is the operand buffer itself, read at the same index on the
// running replica; the contexts (outputs 2...) read nothing.
HloInstructionIndexing StartOutputToInput(const HloInstruction* instruction,
                                          int64_t output_id,
                                          CollectiveRule rule,
                                          mlir::MLIRContext* context) {
  if (!IsSimpleStart(instruction)) {
    return UndefinedForEachOperand(instruction, StartReason(instruction));
  }
  if (output_id == 1) return rule(instruction, 0, context);
  HloInstructionIndexing indexing;
  indexing.indexing_maps.resize(1);
  if (output_id == 0) {
    indexing.indexing_maps[0].Insert(
        CreateIdentityMap(instruction->operand(0)->shape(), context));
  }
  return indexing;
}

HloInstructionIndexing StartInputToOutput(const HloInstruction* instruction,
                                          CollectiveRule rule,
                                          mlir::MLIRContext* context) {
  if (!IsSimpleStart(instruction)) {
    return UndefinedForEachOutput(instruction, StartReason(instruction));
  }
  HloInstructionIndexing result = rule(instruction, 0, context);
  HloInstructionIndexing indexing;
  indexing.indexing_maps.resize(OutputCount(instruction));
  indexing.indexing_maps[0].Insert(
      CreateIdentityMap(instruction->operand(0)->shape(), context));
  indexing.indexing_maps[1] = std::move(result.indexing_maps[0]);
  return indexing;
}

// The identity of a -done on its (array) result, which must be its
// start's result: element 1 of the start's tuple (all-reduce-start: the
// start itself).
HloInstructionIndexing DoneIndexing(const HloInstruction* done,
                                    mlir::MLIRContext* context) {
  const Shape* result = nullptr;
  if (done->operand_count() == 1) {
    result = &done->operand(0)->shape();
    if (done->opcode() != HloOpcode::kAllReduceDone) {
      result = result->IsTuple() && result->tuple_shapes().size() >= 2
                   ? &result->tuple_shapes(1)
                   : nullptr;
    }
  }
  if (result == nullptr || !done->shape().IsArray() ||
      !done->shape().SameDimensions(*result)) {
    return HloInstructionIndexing::Undefined(
        1, absl::StrCat(HloOpcodeName(done->opcode()), " '", done->name(),
                        "': only the done of one array result, its start's, "
                        "has a map"));
  }
  return OneMap(CreateIdentityMap(done->shape(), context));
}

}  // namespace

HloInstructionIndexing ComputeOutputToInputAllGatherStartIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context) {
  return StartOutputToInput(instruction, output_id,
                            ComputeOutputToInputAllGatherIndexing, context);
}

HloInstructionIndexing ComputeInputToOutputAllGatherStartIndexing(
    const HloInstruction* instruction, int64_t /*input_id*/,
    mlir::MLIRContext* context) {
  return StartInputToOutput(instruction, ComputeInputToOutputAllGatherIndexing,
                            context);
}

HloInstructionIndexing ComputeOutputToInputCollectivePermuteStartIndexing(
    const HloInstruction* instruction, int64_t output_id,
    mlir::MLIRContext* context) {
  return StartOutputToInput(instruction, output_id,
                            ComputeOutputToInputCollectivePermuteIndexing,
                            context);
}

HloInstructionIndexing ComputeInputToOutputCollectivePermuteStartIndexing(
    const HloInstruction* instruction, int64_t /*input_id*/,
    mlir::MLIRContext* context) {
  return StartInputToOutput(
      instruction, ComputeInputToOutputCollectivePermuteIndexing, context);
}

HloInstructionIndexing ComputeOutputToInputAsyncDoneIndexing(
    const HloInstruction* instruction, int64_t /*output_id*/,
    mlir::MLIRContext* context) {
  return DoneIndexing(instruction, context);
}

HloInstructionIndexing ComputeInputToOutputAsyncDoneIndexing(
    const HloInstruction* instruction, int64_t /*input_id*/,
    mlir::MLIRContext* context) {
  return DoneIndexing(instruction, context);
}

}  // namespace xla_index
