#ifndef XLA_INDEX_CORE_NAIVE_MAPS_H_
#define XLA_INDEX_CORE_NAIVE_MAPS_H_

// Indexing maps in the unsimplified form a generic rule writes (reshapes as
// linearize then delinearize), for the simplifier's tests and benchmarks.

#include <cstdint>
#include <vector>

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

/// Output-to-input map of a reshape from `in` to `out` as a generic rule
/// writes it before simplification: linearize the output index, delinearize
/// it into the input (`(L floordiv stride_j) mod in_j`). Input for the
/// simplifier's tests and benchmarks.
inline IndexingMap NaiveReshapeMap(const std::vector<int64_t>& out,
                                   const std::vector<int64_t>& in,
                                   mlir::MLIRContext* context) {
  mlir::AffineExpr linear = mlir::getAffineConstantExpr(0, context);
  int64_t stride = 1;
  for (int i = static_cast<int>(out.size()) - 1; i >= 0; --i) {
    linear = linear + mlir::getAffineDimExpr(i, context) * stride;
    stride *= out[i];
  }
  std::vector<mlir::AffineExpr> results(in.size());
  stride = 1;
  for (int j = static_cast<int>(in.size()) - 1; j >= 0; --j) {
    results[j] = linear.floorDiv(stride);
    if (j > 0) results[j] = results[j] % in[j];
    stride *= in[j];
  }
  return IndexingMap::FromTensorSizes(
      mlir::AffineMap::get(out.size(), 0, results, context), out, {});
}

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_NAIVE_MAPS_H_
