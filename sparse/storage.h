#ifndef XLA_INDEX_SPARSE_STORAGE_H_
#define XLA_INDEX_SPARSE_STORAGE_H_

// Sparse tensor storage: a COO tensor, the per-level positions and
// coordinates arrays of an encoding, their assembly from COO
// (AssembleFromCoo) and back, and storage sizes for a shape.

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "sparse/encoding.h"
#include "sparse/width_array.h"

namespace xla_index::sparse {

/// A tensor in coordinate form: element k has dimension coordinates
/// coordinates[k * rank .. k * rank + rank - 1] and value values[k].
struct CooTensor {
  std::vector<int64_t> dim_sizes;
  std::vector<int64_t> coordinates;
  std::vector<double> values;

  int64_t rank() const { return dim_sizes.size(); }
  int64_t nnz() const { return values.size(); }
};

/// The overhead arrays of one level, TACO style (empty when the format has
/// none):
///  - compressed: positions has one entry per parent entry plus one;
///    the parent p's children are coordinates[positions[p] ..
///    positions[p + 1] - 1].
///  - loose_compressed: positions holds a (lo, hi) pair per parent entry
///    (2 * parents entries); children are coordinates[lo .. hi - 1].
///  - singleton, structured[n, m]: coordinates only, one per entry.
///  - dense, batch: nothing; entry = parent * size + coordinate.
/// Coordinates are kept per level (structure of arrays); AosCoordinates()
/// gives the interleaved buffer of an array-of-structs COO segment.
struct LevelStorage {
  WidthArray positions;
  WidthArray coordinates;
};

/// The storage of a sparse tensor: sizes, the arrays of every level and the
/// values (one per entry of the last level; entries that dense or n:m levels
/// add for absent elements hold 0).
struct SparseStorage {
  std::vector<int64_t> dim_sizes;
  std::vector<int64_t> level_sizes;
  std::vector<LevelStorage> levels;
  std::vector<double> values;
};

/// The most entries (values, or ranges of one level) that assembly and
/// decoding build; more is ResourceExhausted instead of a failed allocation.
inline constexpr uint64_t kMaxStorageEntries = uint64_t{1} << 27;

/// Assembles the storage of `coo` under `encoding` (which must verify).
/// Elements are mapped to level coordinates by dim_to_lvl and sorted
/// lexicographically (a sorted order is also a valid order for nonordered
/// levels). Duplicate coordinates are kept as separate entries when some
/// level is nonunique, and are an error otherwise. Errors (InvalidArgument,
/// naming the element): a coordinate outside the shape, the shape's rank, a
/// singleton level whose parent entry holds more than one element, an n:m
/// block with more than n nonzeros, an encoding with symbols (ELL's counting
/// needs more than the map), and a position or coordinate that does not fit
/// posWidth / crdWidth.
absl::StatusOr<SparseStorage> AssembleFromCoo(const SparseEncoding& encoding,
                                              const CooTensor& coo);

/// The elements stored in `storage`, in storage order, mapped back to
/// dimension coordinates by the inferred (or explicit) lvl_to_dim. Entries
/// whose value is 0 are dropped unless `keep_zeros`. Checks the arrays
/// (lengths, monotone positions, coordinates within level sizes) and reports
/// corrupt storage as InvalidArgument, so storage built by hand is safe.
absl::StatusOr<CooTensor> StorageToCoo(const SparseEncoding& encoding,
                                       const SparseStorage& storage,
                                       bool keep_zeros = false);

/// The dense row-major array of the tensor (duplicates add up).
absl::StatusOr<std::vector<double>> StorageToDense(
    const SparseEncoding& encoding, const SparseStorage& storage);

/// For a level that starts a COO segment (a (loose) compressed level followed
/// by singleton levels without soa), the array-of-structs coordinates buffer
/// that MLIR's codegen uses: for each entry, its coordinates at `level` and
/// every following singleton level of the segment, interleaved. Otherwise the
/// level's own coordinates. 0 <= level < encoding.lvl_rank() (asserted: a
/// programmer error); a storage without that level, or whose segment levels
/// hold different numbers of coordinates (storage built by hand), is
/// InvalidArgument.
absl::StatusOr<std::vector<uint64_t>> AosCoordinates(
    const SparseEncoding& encoding, const SparseStorage& storage, int level);

/// True when `level` starts an array-of-structs COO segment (see above).
bool StartsAosSegment(const SparseEncoding& encoding, int level);

/// Array lengths of a storage: per level, the number of positions and of
/// coordinates; the number of values; and the bytes at the encoding's
/// widths with 8-byte values.
struct StorageSizes {
  std::vector<int64_t> positions;
  std::vector<int64_t> coordinates;
  int64_t values = 0;
  int64_t bytes = 0;
};

/// The sizes of the largest storage of a tensor with these level sizes: the
/// one where every element is nonzero (so every level is as full as it can
/// be; a nonunique level then holds one entry per element below it, an n:m
/// level n per block). Saturates at INT64_MAX. `level_sizes` has one
/// nonnegative size per level (asserted: level sizes come from the
/// encoding, so a wrong count is a programmer error).
StorageSizes MaxStorageSizes(const SparseEncoding& encoding,
                             const std::vector<int64_t>& level_sizes);

/// The sizes of an assembled storage.
StorageSizes SizesOf(const SparseEncoding& encoding,
                     const SparseStorage& storage);

/// Bytes the storage takes: positions and coordinates at their widths, plus
/// `value_bytes` per value.
int64_t StorageBytes(const SparseStorage& storage, int64_t value_bytes = 8);

}  // namespace xla_index::sparse

#endif  // XLA_INDEX_SPARSE_STORAGE_H_
