#include "xla_index/instruction_indexing.h"

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

bool IndexingMapSet::Insert(IndexingMap map) {
  size_t hash = absl::HashOf(map);
  for (size_t i = 0; i < maps_.size(); ++i) {
    if (hashes_[i] == hash && maps_[i] == map) return false;
  }
  maps_.push_back(std::move(map));
  hashes_.push_back(hash);
  return true;
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
    for (IndexingMap map : set) {
      SimplifyAndRemoveUnusedSymbols(map);
      simplified.Insert(std::move(map));
    }
    set = std::move(simplified);
  }
}

std::string HloInstructionIndexing::ToString(const std::string& label) const {
  std::string out;
  for (size_t k = 0; k < indexing_maps.size(); ++k) {
    absl::StrAppend(&out, label, " = ", k, "\n");
    for (const IndexingMap& map : indexing_maps[k]) {
      absl::StrAppend(&out, xla_index::ToString(map), "\n");
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
