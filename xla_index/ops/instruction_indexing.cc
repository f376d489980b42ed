#include "xla_index/ops/instruction_indexing.h"

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "hlo/instruction.h"
#include "hlo/shape.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {

const std::optional<IndexingMap> IndexingMapSet::kNoReplicaMap;

bool IndexingMapSet::Insert(IndexingMap map,
                            std::optional<IndexingMap> replica_map) {
  size_t hash = absl::HashOf(map);
  if (replica_map.has_value()) hash = absl::HashOf(hash, *replica_map);
  for (size_t i = 0; i < maps_.size(); ++i) {
    if (hashes_[i] == hash && maps_[i] == map &&
        this->replica_map(i) == replica_map) {
      return false;
    }
  }
  if (replica_map.has_value() || !replica_maps_.empty()) {
    replica_maps_.resize(maps_.size());  // nullopt for the earlier entries
    replica_maps_.push_back(std::move(replica_map));
  }
  maps_.push_back(std::move(map));
  hashes_.push_back(hash);
  return true;
}

IndexingMap JoinReplicaMap(const IndexingMap& map,
                           const std::optional<IndexingMap>& replica_map) {
  if (!replica_map.has_value()) return map;
  if (map.IsUndefined()) return map;
  if (replica_map->IsUndefined()) return *replica_map;
  if (map.IsKnownEmpty() || replica_map->IsKnownEmpty()) {
    return IndexingMap::KnownEmpty(
        map.GetMLIRContext(), map.GetDimensionCount(), map.GetSymbolCount(),
        map.GetResultCount() + 1);
  }
  assert(map.GetDimensionCount() == replica_map->GetDimensionCount() &&
         map.GetSymbolCount() == replica_map->GetSymbolCount() &&
         "a replica-id map shares the variables of its element map");
  mlir::AffineMap affine = map.GetAffineMap();
  llvm::SmallVector<mlir::AffineExpr> results(affine.getResults());
  results.push_back(replica_map->GetAffineMap().getResult(0));
  return IndexingMap(
      mlir::AffineMap::get(affine.getNumDims(), affine.getNumSymbols(), results,
                           affine.getContext()),
      map.GetDimBounds(), map.GetRangeVarBounds(), map.GetRuntimeVars(),
      map.GetConstraints());
}

namespace {

// `joint` restricted to the results [begin, end).
IndexingMap WithResults(const IndexingMap& joint, int64_t begin, int64_t end) {
  if (joint.IsUndefined()) return joint;
  mlir::AffineMap affine = joint.GetAffineMap();
  if (joint.IsKnownEmpty()) {
    return IndexingMap::KnownEmpty(affine.getContext(), affine.getNumDims(),
                                   affine.getNumSymbols(), end - begin);
  }
  return IndexingMap(
      mlir::AffineMap::get(affine.getNumDims(), affine.getNumSymbols(),
                           affine.getResults().slice(begin, end - begin),
                           affine.getContext()),
      joint.GetDimBounds(), joint.GetRangeVarBounds(), joint.GetRuntimeVars(),
      joint.GetConstraints());
}

// `map` with one more dimension, in `bound`, passed through as one more
// result: (d, x) -> (map(d), x). Composing a joint map with it carries the
// joint map's replica result through `map`.
IndexingMap WithPassThroughDim(const IndexingMap& map, Interval bound) {
  mlir::AffineMap affine = map.GetAffineMap();
  mlir::MLIRContext* context = affine.getContext();
  const unsigned dims = affine.getNumDims();
  llvm::SmallVector<mlir::AffineExpr> results(affine.getResults());
  results.push_back(mlir::getAffineDimExpr(dims, context));
  std::vector<Interval> dim_bounds = map.GetDimBounds();
  dim_bounds.push_back(bound);
  std::vector<RuntimeVar> runtime_vars = map.GetRuntimeVars();
  for (RuntimeVar& var : runtime_vars) {
    if (!var.access) continue;
    var.access = mlir::AffineMap::get(dims + 1, var.access.getNumSymbols(),
                                      var.access.getResults(), context);
  }
  return IndexingMap(
      mlir::AffineMap::get(dims + 1, affine.getNumSymbols(), results, context),
      std::move(dim_bounds), map.GetRangeVarBounds(), std::move(runtime_vars),
      map.GetConstraints());
}

}  // namespace

std::pair<IndexingMap, IndexingMap> SplitReplicaMap(const IndexingMap& joint,
                                                    int64_t element_results) {
  return {WithResults(joint, 0, element_results),
          WithResults(joint, element_results, element_results + 1)};
}

std::pair<IndexingMap, std::optional<IndexingMap>> ComposeWithReplicaMaps(
    const IndexingMap& first, const std::optional<IndexingMap>& first_replica,
    const IndexingMap& second,
    const std::optional<IndexingMap>& second_replica) {
  if (!first_replica.has_value() && !second_replica.has_value()) {
    IndexingMap composed = ComposeIndexingMaps(first, second);
    SimplifyAndRemoveUnusedSymbols(composed);
    return {std::move(composed), std::nullopt};
  }
  if (first_replica.has_value() && second_replica.has_value()) {
    IndexingMap undefined = IndexingMap::Undefined(
        "a collective reads the result of a collective: the element comes "
        "from a replica of a replica, not one group position");
    return {undefined, undefined};
  }
  IndexingMap joint = IndexingMap::Undefined();
  int64_t element_results = second.GetResultCount();
  if (second_replica.has_value()) {
    joint = ComposeIndexingMaps(first, JoinReplicaMap(second, second_replica));
  } else if (first.IsUndefined() || first_replica->IsUndefined() ||
             second.IsUndefined()) {
    joint = first.IsUndefined()            ? first
            : first_replica->IsUndefined() ? *first_replica
                                           : second;
  } else {
    IndexingMap first_joint = JoinReplicaMap(first, first_replica);
    Interval bound = ComputeExpressionRange(
        first_joint, first_replica->GetAffineMap().getResult(0));
    joint = ComposeIndexingMaps(first_joint, WithPassThroughDim(second, bound));
  }
  SimplifyAndRemoveUnusedSymbols(joint);
  auto [element, replica] = SplitReplicaMap(joint, element_results);
  return {std::move(element), std::move(replica)};
}

HloInstructionIndexing HloInstructionIndexing::FromIndexingMaps(
    absl::Span<const IndexingMap> maps) {
  HloInstructionIndexing indexing;
  indexing.indexing_maps.resize(maps.size());
  for (size_t i = 0; i < maps.size(); ++i) {
    indexing.indexing_maps[i].Insert(maps[i]);
  }
  return indexing;
}

HloInstructionIndexing HloInstructionIndexing::Undefined(
    int64_t count, absl::string_view reason) {
  HloInstructionIndexing indexing;
  indexing.indexing_maps.resize(count);
  for (IndexingMapSet& set : indexing.indexing_maps) {
    set.Insert(IndexingMap::Undefined(std::string(reason)));
  }
  return indexing;
}

void HloInstructionIndexing::Simplify() {
  for (IndexingMapSet& set : indexing_maps) {
    IndexingMapSet simplified;
    for (int64_t i = 0; i < set.size(); ++i) {
      // A replica-id map is simplified together with its element map, so
      // that the two keep the same variables.
      const std::optional<IndexingMap>& replica = set.replica_map(i);
      IndexingMap joint = JoinReplicaMap(set[i], replica);
      SimplifyAndRemoveUnusedSymbols(joint);
      if (!replica.has_value()) {
        simplified.Insert(std::move(joint));
        continue;
      }
      auto [element, replica_id] =
          SplitReplicaMap(joint, set[i].GetResultCount());
      simplified.Insert(std::move(element), std::move(replica_id));
    }
    set = std::move(simplified);
  }
}

std::string HloInstructionIndexing::ToString(const std::string& label,
                                             bool undefined_reasons) const {
  std::string out;
  for (size_t k = 0; k < indexing_maps.size(); ++k) {
    absl::StrAppend(&out, label, " = ", k, "\n");
    const IndexingMapSet& set = indexing_maps[k];
    for (int64_t i = 0; i < set.size(); ++i) {
      absl::StrAppend(&out, xla_index::ToString(set[i]));
      if (undefined_reasons && set[i].IsUndefined() &&
          !set[i].undefined_reason().empty()) {
        absl::StrAppend(&out, " (", set[i].undefined_reason(), ")");
      }
      absl::StrAppend(&out, "\n");
      if (const std::optional<IndexingMap>& replica = set.replica_map(i)) {
        absl::StrAppend(&out, "replica id:\n", xla_index::ToString(*replica),
                        "\n");
      }
    }
  }
  return out;
}

std::ostream& operator<<(std::ostream& out,
                         const HloInstructionIndexing& indexing) {
  return out << indexing.ToString();
}

int64_t OutputCount(const HloInstruction* instruction) {
  const Shape& shape = instruction->shape();
  return shape.IsTuple() ? static_cast<int64_t>(shape.tuple_shapes().size())
                         : 1;
}

HloInstructionIndexing UndefinedForEachOperand(
    const HloInstruction* instruction, absl::string_view reason) {
  return HloInstructionIndexing::Undefined(instruction->operand_count(),
                                           reason);
}

HloInstructionIndexing UndefinedForEachOutput(const HloInstruction* instruction,
                                              absl::string_view reason) {
  return HloInstructionIndexing::Undefined(OutputCount(instruction), reason);
}

std::string AttributesDoNotFitReason(const HloInstruction* instruction) {
  return absl::StrCat(HloOpcodeName(instruction->opcode()), " '",
                      instruction->name(),
                      "': attributes do not fit the operands");
}

HloInstructionIndexing AttributesDoNotFitEachOperand(
    const HloInstruction* instruction) {
  return UndefinedForEachOperand(instruction,
                                 AttributesDoNotFitReason(instruction));
}

HloInstructionIndexing AttributesDoNotFitEachOutput(
    const HloInstruction* instruction) {
  return UndefinedForEachOutput(instruction,
                                AttributesDoNotFitReason(instruction));
}

IndexingMap CreateIdentityMap(absl::Span<const int64_t> dims,
                              mlir::MLIRContext* context) {
  mlir::AffineMap map = mlir::AffineMap::getMultiDimIdentityMap(
      static_cast<unsigned>(dims.size()), context);
  return IndexingMap::FromTensorSizes(map, dims, {});
}

IndexingMap CreateIdentityMap(const Shape& shape, mlir::MLIRContext* context) {
  return CreateIdentityMap(shape.dimensions(), context);
}

void SimplifyAndRemoveUnusedSymbols(IndexingMap& map) {
  if (map.IsUndefined()) return;
  map.Simplify();
  if (map.IsKnownEmpty()) return;
  map.RemoveUnusedSymbols();
}

std::string RuntimeVarHloText(const HloInstruction& instruction) {
  std::string text = instruction.ToString();
  const Shape& shape = instruction.shape();
  if (!shape.IsArray() || shape.rank() == 0 || shape.has_layout()) {
    return text;
  }
  Shape with_layout = shape;
  Layout layout;
  for (int64_t d = shape.rank() - 1; d >= 0; --d) {
    layout.minor_to_major.push_back(d);
  }
  with_layout.set_layout(layout);
  // ToString starts with "name = shape": print the shape with its layout.
  std::string prefix = instruction.name() + " = " + shape.ToString();
  if (text.compare(0, prefix.size(), prefix) != 0) return text;
  return instruction.name() + " = " + with_layout.ToString() +
         text.substr(prefix.size());
}

RuntimeVar MakeRuntimeVar(const HloInstruction* source, int64_t max_value,
                          mlir::AffineMap access) {
  RuntimeVar var;
  var.feasible_values = Interval{0, max_value};
  var.hlo = source;
  var.hlo_text = RuntimeVarHloText(*source);
  var.access = access;
  return var;
}

}  // namespace xla_index
