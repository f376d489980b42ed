// Placeholder: replaced by the interval-aware simplifier.
#include "mlir/IR/AffineMap.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

bool IndexingMap::Simplify() {
  if (IsUndefined() || IsKnownEmpty()) return false;
  mlir::AffineMap simplified = mlir::simplifyAffineMap(affine_map_);
  bool changed = simplified != affine_map_;
  affine_map_ = simplified;
  return changed;
}

}  // namespace xla_index
