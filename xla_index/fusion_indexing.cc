#include "xla_index/fusion_indexing.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

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

// The value that operand `k` of `user` reads: a get-tuple-element reads one
// element of its tuple operand.
Value OperandValue(const HloInstruction* user, int64_t k) {
  if (user->opcode() == HloOpcode::kGetTupleElement) {
    return {user->operand(k), user->tuple_index()};
  }
  return {user->operand(k), 0};
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

// The most distinct maps one value may collect. Some graphs double the
// access patterns at every level (a tower of concatenated slices of the
// same value); past this bound the value's maps collapse to UNDEFINED, so
// the analysis stays linear instead of exponential on such inputs.
constexpr int64_t kMaxMapsPerValue = 512;

void InsertBounded(IndexingMapSet& set, IndexingMap map) {
  if (set.size() == 1 && set[0].IsUndefined()) return;
  set.Insert(std::move(map));
  if (set.size() > kMaxMapsPerValue) set = {IndexingMap::Undefined()};
}

IndexingMap Compose(const IndexingMap& first, const IndexingMap& second) {
  IndexingMap composed = ComposeIndexingMaps(first, second);
  SimplifyAndRemoveUnusedSymbols(composed);
  return composed;
}

// The walk behind ComputeGroupedOutputToInputIndexing: the maps from the
// target to each instruction are handed to `done(instruction, maps)` once
// all its users have been processed, and then released, so that a long
// fusion holds only the maps of its frontier.
template <typename Done>
void WalkOutputToInput(const HloComputation& computation,
                       const HloInstruction* target, int64_t output_id,
                       mlir::MLIRContext* context, Done done) {
  absl::flat_hash_map<Value, IndexingMapSet> maps;
  // A tuple target: output k is its operand k.
  Value start{target, output_id};
  if (target->opcode() == HloOpcode::kTuple) {
    if (output_id < 0 || output_id >= target->operand_count()) return;
    done(target, IndexingMapSet{CreateIdentityMap(
                     target->operand(output_id)->shape(), context)});
    start = {target->operand(output_id), 0};
  }
  const Shape* start_shape = OutputShape(start.first, start.second);
  if (start_shape == nullptr || !start_shape->IsArray()) {
    done(start.first, IndexingMapSet{IndexingMap::Undefined()});
    return;
  }
  maps[start].Insert(CreateIdentityMap(*start_shape, context));

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
      if (instruction->operand_count() > 0) {
        HloInstructionIndexing rule =
            ComputeOutputToInputIndexing(instruction, out, context);
        const int64_t operands = std::min<int64_t>(
            rule.indexing_maps.size(), instruction->operand_count());
        for (int64_t k = 0; k < operands; ++k) {
          if (rule.indexing_maps[k].empty()) continue;
          IndexingMapSet& operand_maps = maps[OperandValue(instruction, k)];
          for (const IndexingMap& consumer : consumer_maps) {
            for (const IndexingMap& producer : rule.indexing_maps[k]) {
              InsertBounded(operand_maps, Compose(consumer, producer));
            }
          }
        }
      }
      if (OutputCount(instruction) == 1) {
        all_outputs = std::move(consumer_maps);
      } else {
        all_outputs.InsertAll(consumer_maps);
      }
    }
    if (!all_outputs.empty()) done(instruction, std::move(all_outputs));
  }
}

}  // namespace

GroupedIndexingMaps ComputeGroupedOutputToInputIndexing(
    const HloComputation& computation, const HloInstruction* target,
    int64_t output_id, mlir::MLIRContext* context) {
  GroupedIndexingMaps grouped;
  WalkOutputToInput(
      computation, target, output_id, context,
      [&](const HloInstruction* instruction, IndexingMapSet maps) {
        grouped[instruction].InsertAll(maps);
      });
  return grouped;
}

HloInstructionIndexing ComputeComputationOutputToInputIndexing(
    const HloComputation& computation, const HloInstruction* target,
    int64_t output_id, mlir::MLIRContext* context) {
  const int64_t parameter_count =
      static_cast<int64_t>(computation.parameters().size());
  HloInstructionIndexing indexing;
  indexing.indexing_maps.resize(parameter_count);
  WalkOutputToInput(
      computation, target, output_id, context,
      [&](const HloInstruction* instruction, IndexingMapSet maps) {
        if (instruction->opcode() != HloOpcode::kParameter) return;
        int64_t number = instruction->parameter_number();
        if (number < 0 || number >= parameter_count) return;
        indexing.indexing_maps[number].InsertAll(maps);
      });
  return indexing;
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

HloInstructionIndexing ComputeInputToOutputIndexingThroughComputation(
    const HloComputation& computation, const HloInstruction* source,
    const HloInstruction* target, mlir::MLIRContext* context) {
  HloInstructionIndexing result;
  result.indexing_maps.resize(OutputCount(target));
  absl::flat_hash_map<Value, IndexingMapSet> maps;
  for (int64_t out = 0; out < OutputCount(source); ++out) {
    const Shape* shape = OutputShape(source, out);
    maps[Value{source, out}].Insert(shape->IsArray()
                                        ? CreateIdentityMap(*shape, context)
                                        : IndexingMap::Undefined());
  }
  std::vector<HloInstruction*> post_order = computation.PostOrder();
  bool after_source = false;
  for (const HloInstruction* instruction : post_order) {
    if (instruction == source) {
      after_source = true;
      continue;
    }
    if (!after_source) continue;
    for (int64_t k = 0; k < instruction->operand_count(); ++k) {
      auto found = maps.find(OperandValue(instruction, k));
      if (found == maps.end()) continue;
      IndexingMapSet source_maps = found->second;
      if (instruction->opcode() == HloOpcode::kGetTupleElement) {
        // The element's maps pass through unchanged.
        maps[Value{instruction, 0}].InsertAll(source_maps);
        continue;
      }
      HloInstructionIndexing rule =
          ComputeInputToOutputIndexing(instruction, k, context);
      for (int64_t out = 0;
           out < static_cast<int64_t>(rule.indexing_maps.size()); ++out) {
        if (rule.indexing_maps[out].empty()) continue;
        IndexingMapSet& out_maps = maps[Value{instruction, out}];
        for (const IndexingMap& first : source_maps) {
          for (const IndexingMap& second : rule.indexing_maps[out]) {
            InsertBounded(out_maps, Compose(first, second));
          }
        }
      }
    }
  }
  for (int64_t out = 0; out < OutputCount(target); ++out) {
    auto found = maps.find(Value{target, out});
    if (found != maps.end()) result.indexing_maps[out] = found->second;
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
