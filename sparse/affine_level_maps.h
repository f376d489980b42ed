#ifndef XLA_INDEX_SPARSE_AFFINE_LEVEL_MAPS_H_
#define XLA_INDEX_SPARSE_AFFINE_LEVEL_MAPS_H_

// The affine side of a sparse encoding's dim-to-level map: block maps and
// their block sizes, the inferred level-to-dim inverse, and the size of every
// level for a tensor shape (MLIR's SparseTensor dialect semantics).

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "mlir/IR/AffineMap.h"

namespace xla_index::sparse {

/// True when `dim_to_lvl` is a block map: every result is `d`, `d floordiv
/// c` or `d mod c` (c > 0), each dimension has at most one floordiv and that
/// many mods with the same c, a mod comes after its floordiv, and at least
/// one dimension is blocked. (MLIR's isBlockSparsity.) Example, BSR 2x3:
///   (d0, d1) -> (d0 floordiv 2, d1 floordiv 3, d0 mod 2, d1 mod 3).
bool IsBlockMap(mlir::AffineMap dim_to_lvl);

/// The block size of every dimension of a block map (0 for an unblocked
/// dimension), e.g. {2, 3} for BSR 2x3.
std::vector<int64_t> BlockSizes(mlir::AffineMap dim_to_lvl);

/// The level-to-dimension map, inferred as MLIR does: the inverse
/// permutation for a permutation, and for a block map each blocked dimension
/// d = l_floordiv * c + l_mod (BSR 2x3: (l0, l1, l2, l3) -> (l0 * 2 + l2,
/// l1 * 3 + l3)). A null map when it cannot be inferred (maps with symbols,
/// or other shapes). Unlike MLIR 22's inverseBlockSparsity, which lists the
/// unblocked dimensions before the blocked ones whatever their positions,
/// the results here are in dimension order (MLIR's order is only right when
/// the unblocked dimensions come first).
mlir::AffineMap InferLvlToDim(mlir::AffineMap dim_to_lvl);

/// Every dimension appears in some result of the map.
bool UsesEveryDim(mlir::AffineMap map);

/// The size of every level for a tensor of shape `dim_sizes`: a level `d` has
/// d's size, `d floordiv c` has ceil(size / c) and `d mod c` has c (a
/// partial last block is padded; MLIR 22's getLvlShape says d's size mod c
/// there, e.g. 1 for 21 rows in blocks of 2); any other expression gets
/// (the maximum of the expression over the dimension box) + 1. BSR 2x3 on
/// 20x30 gives 10x10x2x3. Error when a size is not positive, the rank does
/// not match, or a level's size depends on a symbol (ELL's counting symbol
/// needs the number of slices, which the encoding does not give).
absl::StatusOr<std::vector<int64_t>> LevelSizes(
    mlir::AffineMap dim_to_lvl, absl::Span<const int64_t> dim_sizes);

/// Evaluates a symbol-free affine map at integer `point` (floordiv, ceildiv
/// and mod round as MLIR's, toward -inf / +inf / non-negative remainder).
/// The caller guarantees point.size() == map.getNumDims() and positive
/// constant divisors.
void EvaluateAffineMap(mlir::AffineMap map, absl::Span<const int64_t> point,
                       std::vector<int64_t>& result);

}  // namespace xla_index::sparse

#endif  // XLA_INDEX_SPARSE_AFFINE_LEVEL_MAPS_H_
