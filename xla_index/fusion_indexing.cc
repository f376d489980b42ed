#include "xla_index/fusion_indexing.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/container/node_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "hlo/opcode.h"
#include "hlo/shape.h"
#include "xla_index/input_to_output_indexing.h"
#include "xla_index/output_to_input_indexing.h"

namespace xla_index {
namespace {

// One output of one instruction: (instruction, tuple index); the index is 0
// for array-shaped instructions.
using Value = std::pair<const HloInstruction*, int64_t>;

// The shape of output `output_id` of `instruction`, or null when it has no
// such output.
const Shape* OutputShape(const HloInstruction* instruction, int64_t output_id) {
  const Shape& shape = instruction->shape();
  if (!shape.IsTuple()) return output_id == 0 ? &shape : nullptr;
  if (output_id < 0 ||
      output_id >= static_cast<int64_t>(shape.tuple_shapes().size())) {
    return nullptr;
  }
  return &shape.tuple_shapes(output_id);
}

// The element of its tuple operand that `user` reads: get-tuple-element's
// index, or element 1 of an all-gather-start's, collective-permute-start's
// or async-start's tuple (the result) for its -done; nullopt otherwise.
std::optional<int64_t> TupleElementRead(const HloInstruction* user) {
  if (user->opcode() == HloOpcode::kGetTupleElement) {
    return user->tuple_index();
  }
  if ((user->opcode() == HloOpcode::kAllGatherDone ||
       user->opcode() == HloOpcode::kCollectivePermuteDone ||
       user->opcode() == HloOpcode::kAsyncDone) &&
      user->operand_count() == 1 && user->operand(0)->shape().IsTuple() &&
      user->operand(0)->shape().tuple_shapes().size() >= 2) {
    return 1;
  }
  return std::nullopt;
}

// True when `user` reads its tuple-shaped operand `k` as a whole (a while,
// call, conditional or a tuple of tuples): no element map passes through
// such a read, yet every element of the operand may be read.
bool ReadsWholeTuple(const HloInstruction* user, int64_t k) {
  return !TupleElementRead(user).has_value() &&
         user->operand(k)->shape().IsTuple();
}

// The values that operand `k` of `user` reads: a get-tuple-element (or an
// async -done) reads one element of its tuple operand, a whole-tuple read
// every element, any other read the operand's only output.
absl::InlinedVector<Value, 1> OperandValues(const HloInstruction* user,
                                            int64_t k) {
  const HloInstruction* operand = user->operand(k);
  if (std::optional<int64_t> element = TupleElementRead(user)) {
    return {Value{operand, *element}};
  }
  if (!ReadsWholeTuple(user, k)) return {Value{operand, 0}};
  absl::InlinedVector<Value, 1> elements;
  for (int64_t e = 0; e < OutputCount(operand); ++e) {
    elements.push_back(Value{operand, e});
  }
  return elements;
}

IndexingMap UndefinedWholeTupleRead(const HloInstruction* user, int64_t k) {
  return IndexingMap::Undefined(absl::StrCat(
      HloOpcodeName(user->opcode()), " '", user->name(), "' reads tuple '",
      user->operand(k)->name(), "' as a whole: no element map passes through"));
}

// Fusions nest (a fused computation may contain fusions); a module whose
// calls form a cycle, or nest deeper than this, gets UNDEFINED instead of
// unbounded recursion.
constexpr int kMaxCallDepth = 64;
thread_local int call_depth = 0;

class CallDepthGuard {
 public:
  CallDepthGuard() { ++call_depth; }
  ~CallDepthGuard() { --call_depth; }
  bool TooDeep() const { return call_depth > kMaxCallDepth; }
};

// Inserts `map` into `set` under `bound`. Some graphs double the access
// patterns at every level (a tower of concatenated slices of the same
// value); past bound.max_maps the set collapses to UNDEFINED, so the walk
// stays linear instead of exponential, or, when bound.fail, false is
// returned and the caller stops the walk.
bool InsertBounded(IndexingMapSet& set,
                   std::pair<IndexingMap, std::optional<IndexingMap>> entry,
                   const CompositionBound& bound) {
  if (set.size() == 1 && set[0].IsUndefined()) return true;
  set.Insert(std::move(entry.first), std::move(entry.second));
  if (set.size() <= bound.max_maps) return true;
  if (bound.fail) return false;
  set = {IndexingMap::Undefined()};
  return true;
}

absl::Status TooManyMaps(const HloInstruction* instruction,
                         const CompositionBound& bound) {
  return absl::ResourceExhaustedError(
      absl::StrCat("the maps of ", instruction->name(), " exceed ",
                   bound.max_maps, " distinct maps"));
}

// Entry i of `first` followed by entry j of `second`, replica-id maps
// carried (ComposeWithReplicaMaps; without them, the plain composition,
// which the walks do for almost every pair).
std::pair<IndexingMap, std::optional<IndexingMap>> Compose(
    const IndexingMapSet& first, int64_t i, const IndexingMapSet& second,
    int64_t j) {
  if (!first.has_replica_maps() && !second.has_replica_maps()) {
    IndexingMap composed = ComposeIndexingMaps(first[i], second[j]);
    SimplifyAndRemoveUnusedSymbols(composed);
    return {std::move(composed), std::nullopt};
  }
  return ComposeWithReplicaMaps(first[i], first.replica_map(i), second[j],
                                second.replica_map(j));
}

// Composes the consumer maps of output `out` of `instruction` with its
// output-to-input rule into the maps of its operands: C (target -> output)
// followed by P (output -> operand k) is target -> operand k. Returns the
// operand whose set outgrew a failing bound, else null.
const HloInstruction* ComposeIntoOperands(
    const HloInstruction* instruction, int64_t out,
    const IndexingMapSet& consumer_maps, const CompositionBound& bound,
    mlir::MLIRContext* context,
    absl::flat_hash_map<Value, IndexingMapSet>& maps) {
  if (instruction->operand_count() == 0) return nullptr;
  HloInstructionIndexing rule =
      ComputeOutputToInputIndexing(instruction, out, context);
  const int64_t operands = std::min<int64_t>(rule.indexing_maps.size(),
                                             instruction->operand_count());
  for (int64_t k = 0; k < operands; ++k) {
    if (rule.indexing_maps[k].empty()) continue;
    if (ReadsWholeTuple(instruction, k)) {
      // Every element of the operand may be read, by no map we know.
      for (const Value& element : OperandValues(instruction, k)) {
        if (!InsertBounded(maps[element],
                           {UndefinedWholeTupleRead(instruction, k), {}},
                           bound)) {
          return instruction->operand(k);
        }
      }
      continue;
    }
    IndexingMapSet& operand_maps = maps[OperandValues(instruction, k)[0]];
    const IndexingMapSet& producer_maps = rule.indexing_maps[k];
    for (int64_t c = 0; c < consumer_maps.size(); ++c) {
      for (int64_t p = 0; p < producer_maps.size(); ++p) {
        if (!InsertBounded(operand_maps,
                           Compose(consumer_maps, c, producer_maps, p),
                           bound)) {
          return instruction->operand(k);
        }
      }
    }
  }
  return nullptr;
}

// The walk behind ComputeGroupedOutputToInputIndexing: the maps from the
// target to each instruction are handed to `done(instruction, maps)` once
// all its users have been processed, and then released, so that a long
// fusion holds only the maps of its frontier. Each instruction is composed
// once, with the deduplicated set of all its consumers' maps, so the cost is
// linear in the computation's size times the distinct maps per value (never
// once per path). Returns the instruction whose maps outgrew a failing
// bound, else null.
template <typename Done>
const HloInstruction* WalkOutputToInput(const HloComputation& computation,
                                        const HloInstruction* target,
                                        std::optional<int64_t> output_id,
                                        const CompositionBound& bound,
                                        mlir::MLIRContext* context, Done done) {
  absl::flat_hash_map<Value, IndexingMapSet> maps;
  // Seeds: output `output_id` of the target, or all of its outputs (a
  // tuple target's output k is its operand k). A seed that is not an array
  // reads its producers by no map we know: UNDEFINED, for every element of
  // a tuple-shaped seed.
  const int64_t first = output_id.value_or(0);
  const int64_t end = output_id.has_value() ? first + 1 : OutputCount(target);
  for (int64_t out = first; out < end; ++out) {
    Value start{target, out};
    if (target->opcode() == HloOpcode::kTuple) {
      if (out < 0 || out >= target->operand_count()) continue;
      done(target, IndexingMapSet{CreateIdentityMap(
                       target->operand(out)->shape(), context)});
      start = {target->operand(out), 0};
    }
    const Shape* start_shape = OutputShape(start.first, start.second);
    if (start_shape == nullptr) continue;
    if (start_shape->IsArray()) {
      maps[start].Insert(CreateIdentityMap(*start_shape, context));
      continue;
    }
    for (int64_t e = 0; e < OutputCount(start.first); ++e) {
      maps[Value{start.first, e}].Insert(IndexingMap::Undefined(
          absl::StrCat("'", start.first->name(), "' is not an array")));
    }
  }

  std::vector<HloInstruction*> post_order = computation.PostOrder();
  for (auto it = post_order.rbegin(); it != post_order.rend(); ++it) {
    const HloInstruction* instruction = *it;
    IndexingMapSet all_outputs;
    for (int64_t out = 0; out < OutputCount(instruction); ++out) {
      auto found = maps.find(Value{instruction, out});
      if (found == maps.end()) continue;
      // All users come earlier in this order, so the set is final.
      IndexingMapSet consumer_maps = std::move(found->second);
      maps.erase(found);
      if (const HloInstruction* exceeded = ComposeIntoOperands(
              instruction, out, consumer_maps, bound, context, maps)) {
        return exceeded;
      }
      if (OutputCount(instruction) == 1) {
        all_outputs = std::move(consumer_maps);
      } else {
        all_outputs.InsertAll(consumer_maps);
      }
    }
    if (!all_outputs.empty()) done(instruction, std::move(all_outputs));
  }
  return nullptr;
}

// The instructions of `target`'s computation that it reads, itself
// included, operands before users (an iterative depth-first post-order, so
// deep chains do not exhaust the stack).
std::vector<const HloInstruction*> AncestorsInPostOrder(
    const HloInstruction* target) {
  std::vector<const HloInstruction*> order;
  absl::flat_hash_set<const HloInstruction*> visited = {target};
  // (instruction, index of the next operand to visit)
  std::vector<std::pair<const HloInstruction*, int64_t>> stack = {{target, 0}};
  while (!stack.empty()) {
    auto& [instruction, next] = stack.back();
    if (next < instruction->operand_count()) {
      const HloInstruction* operand = instruction->operand(next++);
      if (visited.insert(operand).second) stack.push_back({operand, 0});
      continue;
    }
    order.push_back(instruction);
    stack.pop_back();
  }
  return order;
}

// (output of the target, maps from one source to it), in output order.
using SparseOutputMaps = std::vector<std::pair<int64_t, IndexingMapSet>>;

// Per value, the maps from each source (by its index in the walk's source
// list) to that value. Each source's set is built independently, so the
// order of sources does not matter.
using TaggedMaps = absl::flat_hash_map<int64_t, IndexingMapSet>;
// Node-based, so that an operand's maps stay in place while its user's
// entries are added.
using ValueMaps = absl::node_hash_map<Value, TaggedMaps>;

// Forward step of WalkInputToOutput for operand `k` of `instruction`: every
// source's maps to the operand, composed with the op's input-to-output rule
// (computed once per operand, not once per source). Returns false when a set
// outgrows a failing bound.
bool ComposeIntoOutputs(const HloInstruction* instruction, int64_t k,
                        const TaggedMaps& operand_maps,
                        const CompositionBound& bound,
                        mlir::MLIRContext* context, ValueMaps& maps) {
  if (instruction->opcode() == HloOpcode::kGetTupleElement) {
    // The element's maps pass through unchanged.
    TaggedMaps& element = maps[Value{instruction, 0}];
    for (const auto& [source, set] : operand_maps)
      element[source].InsertAll(set);
    return true;
  }
  // (output, the rule's maps from operand k to it), non-empty sets only.
  SparseOutputMaps rule;
  if (instruction->opcode() == HloOpcode::kTuple &&
      instruction->shape().IsTuple() &&
      static_cast<int64_t>(instruction->shape().tuple_shapes().size()) ==
          instruction->operand_count()) {
    // Operand k is output k, by the identity (the tuple rule of ops/). The
    // rule lists all n outputs, all but one empty: n^2 for the whole tuple.
    rule.push_back({k, IndexingMapSet{CreateIdentityMap(
                           instruction->operand(k)->shape(), context)}});
  } else {
    HloInstructionIndexing dense =
        ComputeInputToOutputIndexing(instruction, k, context);
    for (int64_t out = 0;
         out < static_cast<int64_t>(dense.indexing_maps.size()); ++out) {
      if (dense.indexing_maps[out].empty()) continue;
      rule.push_back({out, std::move(dense.indexing_maps[out])});
    }
  }
  for (const auto& [out, rule_maps] : rule) {
    TaggedMaps& out_maps = maps[Value{instruction, out}];
    for (const auto& [source, source_maps] : operand_maps) {
      IndexingMapSet& set = out_maps[source];
      for (int64_t i = 0; i < source_maps.size(); ++i) {
        for (int64_t j = 0; j < rule_maps.size(); ++j) {
          if (!InsertBounded(set, Compose(source_maps, i, rule_maps, j),
                             bound)) {
            return false;
          }
        }
      }
    }
  }
  return true;
}

// Input to output from every one of `sources` to `target` in one forward
// walk over the instructions that target reads: each value carries the maps
// from each source that reaches it, so every instruction's rule is computed
// once and the cost is the sum over instructions of the sources reaching
// them, not sources x computation size. result[i][j]: maps from sources[i]
// to output j of target, listed for the outputs it reaches only. Returns the
// instruction whose maps outgrew a failing bound through `exceeded`.
std::vector<SparseOutputMaps> WalkInputToOutput(
    absl::Span<const HloInstruction* const> sources,
    const HloInstruction* target, const CompositionBound& bound,
    mlir::MLIRContext* context, const HloInstruction** exceeded) {
  ValueMaps maps;
  absl::flat_hash_set<const HloInstruction*> is_source;
  for (int64_t i = 0; i < static_cast<int64_t>(sources.size()); ++i) {
    is_source.insert(sources[i]);
    for (int64_t out = 0; out < OutputCount(sources[i]); ++out) {
      const Shape* shape = OutputShape(sources[i], out);
      maps[Value{sources[i], out}][i].Insert(
          shape->IsArray() ? CreateIdentityMap(*shape, context)
                           : IndexingMap::Undefined());
    }
  }
  // A source's own maps start at the identity (as when it is the only
  // source, whatever it reads).
  std::vector<const HloInstruction*> order = AncestorsInPostOrder(target);
  // Reads left per value: a value's maps are released after its last
  // reader, so that a long computation holds only its frontier.
  absl::flat_hash_map<Value, int64_t> reads_left;
  for (const HloInstruction* instruction : order) {
    if (is_source.contains(instruction)) continue;
    for (int64_t k = 0; k < instruction->operand_count(); ++k) {
      for (const Value& value : OperandValues(instruction, k)) {
        ++reads_left[value];
      }
    }
  }
  for (const HloInstruction* instruction : order) {
    if (is_source.contains(instruction)) continue;
    for (int64_t k = 0; k < instruction->operand_count(); ++k) {
      const TaggedMaps* operand_maps = nullptr;
      TaggedMaps whole_tuple;  // every source reaching an element: UNDEFINED
      if (ReadsWholeTuple(instruction, k)) {
        for (const Value& element : OperandValues(instruction, k)) {
          auto found = maps.find(element);
          if (found == maps.end()) continue;
          for (const auto& [source, set] : found->second) {
            whole_tuple[source] =
                IndexingMapSet{UndefinedWholeTupleRead(instruction, k)};
          }
        }
        if (!whole_tuple.empty()) operand_maps = &whole_tuple;
      } else if (auto found = maps.find(OperandValues(instruction, k)[0]);
                 found != maps.end()) {
        operand_maps = &found->second;
      }
      if (operand_maps == nullptr) continue;
      if (!ComposeIntoOutputs(instruction, k, *operand_maps, bound, context,
                              maps)) {
        *exceeded = instruction;
        return {};
      }
    }
    for (int64_t k = 0; k < instruction->operand_count(); ++k) {
      for (const Value& value : OperandValues(instruction, k)) {
        if (--reads_left[value] == 0 && value.first != target) {
          maps.erase(value);
        }
      }
    }
  }
  // Sparse per source: a tuple target has many outputs, each read by few
  // sources, and sources x outputs empty sets would be quadratic.
  std::vector<SparseOutputMaps> result(sources.size());
  for (int64_t out = 0; out < OutputCount(target); ++out) {
    auto found = maps.find(Value{target, out});
    if (found == maps.end()) continue;
    for (auto& [source, set] : found->second) {
      result[source].push_back({out, std::move(set)});
    }
  }
  return result;
}

// Per parameter of `computation`, the maps from output `output_id` of
// `target` (all outputs when nullopt) to it.
absl::StatusOr<HloInstructionIndexing> ParametersOutputToInput(
    const HloComputation& computation, const HloInstruction* target,
    std::optional<int64_t> output_id, const CompositionBound& bound,
    mlir::MLIRContext* context) {
  // Slot k holds parameter number k: a gap would drop a parameter's maps.
  absl::Status numbered = CheckParametersNumbered(computation);
  if (!numbered.ok()) return numbered;
  const int64_t parameter_count =
      static_cast<int64_t>(computation.parameters().size());
  HloInstructionIndexing indexing;
  indexing.indexing_maps.resize(parameter_count);
  const HloInstruction* exceeded = WalkOutputToInput(
      computation, target, output_id, bound, context,
      [&](const HloInstruction* instruction, IndexingMapSet maps) {
        if (instruction->opcode() != HloOpcode::kParameter) return;
        int64_t number = instruction->parameter_number();
        if (number < 0 || number >= parameter_count) return;
        indexing.indexing_maps[number].InsertAll(maps);
      });
  if (exceeded != nullptr) return TooManyMaps(exceeded, bound);
  return indexing;
}

}  // namespace

absl::Status CheckParametersNumbered(const HloComputation& computation) {
  const std::vector<HloInstruction*> parameters = computation.parameters();
  for (size_t k = 0; k < parameters.size(); ++k) {
    // parameters() is sorted by number, so the first k whose parameter is
    // not numbered k shows a gap (or a number used twice) before it.
    if (parameters[k]->parameter_number() != static_cast<int64_t>(k)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "parameter '", parameters[k]->name(), "' of '", computation.name(),
          "' is numbered ", parameters[k]->parameter_number(), ", so ", k,
          " is missing: the analysis numbers operands by parameter, which "
          "must be numbered 0 to ",
          parameters.size() - 1));
    }
  }
  return absl::OkStatus();
}

GroupedIndexingMaps ComputeGroupedOutputToInputIndexing(
    const HloComputation& computation, const HloInstruction* target,
    int64_t output_id, mlir::MLIRContext* context) {
  GroupedIndexingMaps grouped;
  WalkOutputToInput(
      computation, target, output_id, CompositionBound{}, context,
      [&](const HloInstruction* instruction, IndexingMapSet maps) {
        grouped[instruction].InsertAll(maps);
      });
  return grouped;
}

absl::StatusOr<HloInstructionIndexing> ComputeComputationOutputToInputIndexing(
    const HloComputation& computation, const HloInstruction* target,
    int64_t output_id, const CompositionBound& bound,
    mlir::MLIRContext* context) {
  return ParametersOutputToInput(computation, target, output_id, bound,
                                 context);
}

absl::StatusOr<HloInstructionIndexing>
ComputeComputationAllOutputsToInputIndexing(const HloComputation& computation,
                                            const HloInstruction* target,
                                            const CompositionBound& bound,
                                            mlir::MLIRContext* context) {
  return ParametersOutputToInput(computation, target, std::nullopt, bound,
                                 context);
}

HloInstructionIndexing ComputeComputationOutputToInputIndexing(
    const HloComputation& computation, const HloInstruction* target,
    int64_t output_id, mlir::MLIRContext* context) {
  // The default bound collapses instead of failing; only parameters not
  // numbered 0..n-1 fail, and then no parameter gets a map it can trust.
  absl::StatusOr<HloInstructionIndexing> indexing =
      ComputeComputationOutputToInputIndexing(computation, target, output_id,
                                              CompositionBound{}, context);
  if (indexing.ok()) return *std::move(indexing);
  HloInstructionIndexing undefined;
  undefined.indexing_maps.resize(computation.parameters().size());
  for (IndexingMapSet& maps : undefined.indexing_maps) {
    maps.Insert(
        IndexingMap::Undefined(std::string(indexing.status().message())));
  }
  return undefined;
}

HloInstructionIndexing ComputeOutputToInputFusionIndexing(
    const HloInstruction* fusion, int64_t output_id,
    mlir::MLIRContext* context) {
  CallDepthGuard guard;
  const HloComputation* called = fusion->fused_computation();
  if (called == nullptr || called->root() == nullptr || guard.TooDeep()) {
    return UndefinedForEachOperand(fusion);
  }
  HloInstructionIndexing indexing = ComputeComputationOutputToInputIndexing(
      *called, called->root(), output_id, context);
  // A parameter number without a matching operand cannot be mapped.
  indexing.indexing_maps.resize(fusion->operand_count());
  return indexing;
}

// async-start (operands' tuple, result, contexts...): output 1 is the called
// computation's result, composed as a fusion's; element 0 is a tuple (no
// element map) and the contexts read nothing.
// Element 1 of an async-start's tuple is its called computation's result.
// XLA's parser lets operands bind later (an async-update passes the rest),
// so only the operands given are mapped, each to the parameter of its
// number, which must then have its dimensions.
bool ResultIsTheCalledRoot(const HloInstruction* start) {
  const HloComputation* called = start->fused_computation();
  const Shape& shape = start->shape();
  if (called == nullptr || called->root() == nullptr || !shape.IsTuple() ||
      shape.tuple_shapes().size() < 2 || !shape.tuple_shapes(1).IsArray() ||
      !shape.tuple_shapes(1).SameDimensions(called->root()->shape())) {
    return false;
  }
  for (int64_t k = 0; k < start->operand_count(); ++k) {
    const HloInstruction* parameter = called->parameter(k);
    if (parameter == nullptr ||
        !parameter->shape().SameDimensions(start->operand(k)->shape())) {
      return false;
    }
  }
  return true;
}

std::string AsyncStartReason(const HloInstruction* start) {
  return absl::StrCat("async-start '", start->name(),
                      "' must return (operands, result, ...) with the array "
                      "result of its called computation, each operand with "
                      "the dimensions of its parameter");
}

HloInstructionIndexing ComputeOutputToInputAsyncStartIndexing(
    const HloInstruction* start, int64_t output_id,
    mlir::MLIRContext* context) {
  if (!ResultIsTheCalledRoot(start)) {
    return UndefinedForEachOperand(start, AsyncStartReason(start));
  }
  if (output_id == 1) {
    return ComputeOutputToInputFusionIndexing(start, 0, context);
  }
  if (output_id == 0) {
    return UndefinedForEachOperand(
        start, absl::StrCat("output 0 of async-start '", start->name(),
                            "' is the tuple of its operands"));
  }
  HloInstructionIndexing indexing;
  indexing.indexing_maps.resize(start->operand_count());
  return indexing;
}

HloInstructionIndexing ComputeInputToOutputAsyncStartIndexing(
    const HloInstruction* start, int64_t input_id, mlir::MLIRContext* context) {
  if (!ResultIsTheCalledRoot(start)) {
    return UndefinedForEachOutput(start, AsyncStartReason(start));
  }
  HloInstructionIndexing result =
      ComputeInputToOutputFusionIndexing(start, input_id, context);
  HloInstructionIndexing indexing;
  indexing.indexing_maps.resize(OutputCount(start));
  indexing.indexing_maps[0].Insert(IndexingMap::Undefined(
      absl::StrCat("output 0 of async-start '", start->name(),
                   "' is the tuple of its operands")));
  indexing.indexing_maps[1] = std::move(result.indexing_maps[0]);
  return indexing;
}

// The walk follows target's operands, which are in its computation.
HloInstructionIndexing ComputeInputToOutputIndexingThroughComputation(
    const HloComputation& /*computation*/, const HloInstruction* source,
    const HloInstruction* target, mlir::MLIRContext* context) {
  const HloInstruction* exceeded = nullptr;
  std::vector<SparseOutputMaps> walked = WalkInputToOutput(
      {source}, target, CompositionBound{}, context, &exceeded);
  HloInstructionIndexing result;
  result.indexing_maps.resize(OutputCount(target));
  for (auto& [out, set] : walked[0]) result.indexing_maps[out] = std::move(set);
  return result;
}

absl::StatusOr<std::vector<IndexingMapSet>> ComputeParametersToOutputIndexing(
    const HloComputation& computation, const HloInstruction* target,
    const CompositionBound& bound, mlir::MLIRContext* context) {
  // Slot k holds parameter number k: a gap would drop a parameter's maps.
  absl::Status numbered = CheckParametersNumbered(computation);
  if (!numbered.ok()) return numbered;
  std::vector<HloInstruction*> parameters = computation.parameters();
  std::vector<const HloInstruction*> sources(parameters.size(), nullptr);
  for (const HloInstruction* parameter : parameters) {
    int64_t number = parameter->parameter_number();
    if (number < 0 || number >= static_cast<int64_t>(sources.size())) continue;
    sources[number] = parameter;
  }
  std::vector<const HloInstruction*> present;
  std::vector<int64_t> numbers;
  for (int64_t k = 0; k < static_cast<int64_t>(sources.size()); ++k) {
    if (sources[k] == nullptr) continue;
    present.push_back(sources[k]);
    numbers.push_back(k);
  }
  const HloInstruction* exceeded = nullptr;
  std::vector<SparseOutputMaps> walked =
      WalkInputToOutput(present, target, bound, context, &exceeded);
  if (exceeded != nullptr) return TooManyMaps(exceeded, bound);
  std::vector<IndexingMapSet> result(sources.size());
  for (size_t i = 0; i < numbers.size(); ++i) {
    for (const auto& [out, set] : walked[i]) result[numbers[i]].InsertAll(set);
  }
  return result;
}

HloInstructionIndexing ComputeInputToOutputFusionIndexing(
    const HloInstruction* fusion, int64_t input_id,
    mlir::MLIRContext* context) {
  CallDepthGuard guard;
  const HloComputation* called = fusion->fused_computation();
  const HloInstruction* parameter =
      called == nullptr ? nullptr : called->parameter(input_id);
  if (parameter == nullptr || called->root() == nullptr || guard.TooDeep()) {
    return UndefinedForEachOutput(fusion);
  }
  const HloInstruction* root = called->root();
  if (root->opcode() != HloOpcode::kTuple) {
    return ComputeInputToOutputIndexingThroughComputation(*called, parameter,
                                                          root, context);
  }
  // A multi-output fusion: output k is operand k of the root tuple.
  HloInstructionIndexing indexing;
  for (const HloInstruction* output : root->operands()) {
    HloInstructionIndexing one = ComputeInputToOutputIndexingThroughComputation(
        *called, parameter, output, context);
    indexing.indexing_maps.push_back(
        one.indexing_maps.empty() ? IndexingMapSet{} : one.indexing_maps[0]);
  }
  return indexing;
}

IndexingMapSet ComputeEpilogueInputToOutputIndexing(
    const HloInstruction* hero, const HloInstruction* root,
    mlir::MLIRContext* context) {
  if (hero == root) {
    const Shape* shape = OutputShape(hero, 0);
    return {shape != nullptr && shape->IsArray()
                ? CreateIdentityMap(*shape, context)
                : IndexingMap::Undefined()};
  }
  const HloComputation* computation = root->parent();
  if (computation == nullptr || hero->parent() != computation) return {};
  HloInstructionIndexing indexing =
      ComputeInputToOutputIndexingThroughComputation(*computation, hero, root,
                                                     context);
  IndexingMapSet maps;
  for (const IndexingMapSet& set : indexing.indexing_maps) maps.InsertAll(set);
  return maps;
}

}  // namespace xla_index
