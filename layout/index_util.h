#ifndef XLA_INDEX_LAYOUT_INDEX_UTIL_H_
#define XLA_INDEX_LAYOUT_INDEX_UTIL_H_

// Conversions between a multi-dimensional index and the linear position of
// the element in a dense (untiled) buffer, for any dimension order, as XLA's
// IndexUtil does (XLA's shapes-and-layout documentation, "Indexing into
// arrays").
//
// `minor_to_major` lists the logical dimensions from the one that varies
// fastest in memory to the one that varies slowest: {1, 0} is row-major for
// rank 2, {0, 1} column-major. For dims (A, B) = (2, 3) and elements
//   a b c
//   d e f
// {0, 1} stores "a d b e c f" and {1, 0} stores "a b c d e f".

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace xla_index {

/// OK when `minor_to_major` is a permutation of {0, ..., rank - 1};
/// otherwise InvalidArgument naming the offending entry and its position.
absl::Status ValidateMinorToMajor(int64_t rank,
                                  absl::Span<const int64_t> minor_to_major);

/// OK when every dimension size is >= 0 and the product of the nonzero sizes
/// fits in int64_t (index arithmetic uses strides over them even when the
/// element count is 0).
absl::Status ValidateDimensions(absl::Span<const int64_t> dims);

/// OK when index has one entry per dimension and 0 <= index[i] < dims[i].
absl::Status ValidateIndex(absl::Span<const int64_t> dims,
                           absl::Span<const int64_t> index);

/// The logical dimension sizes in physical order, most major first:
/// result[k] = dims[minor_to_major[rank - 1 - k]].
std::vector<int64_t> MajorToMinorDimensions(
    absl::Span<const int64_t> dims, absl::Span<const int64_t> minor_to_major);

/// Row-major linear index of `index` in a shape `dims` (dims[0] most major):
///   sum_k index[k] * prod_{j > k} dims[j].
/// Preconditions: index is in bounds and the product fits in int64_t.
int64_t RowMajorLinearIndex(absl::Span<const int64_t> dims,
                            absl::Span<const int64_t> index);

/// Inverse of RowMajorLinearIndex: the index whose row-major position in
/// `dims` is `linear` (0 <= linear < prod dims).
std::vector<int64_t> RowMajorMultiIndex(absl::Span<const int64_t> dims,
                                        int64_t linear);

/// Linear position of `index` in a dense buffer laid out by `minor_to_major`:
///   sum_k index[m2m[k]] * prod_{j < k} dims[m2m[j]].
/// Preconditions: minor_to_major is valid, index in bounds, no overflow
/// (checked by ValidateMinorToMajor, ValidateIndex, ValidateDimensions).
int64_t MultidimensionalIndexToLinearIndex(
    absl::Span<const int64_t> dims, absl::Span<const int64_t> minor_to_major,
    absl::Span<const int64_t> index);

/// Inverse of MultidimensionalIndexToLinearIndex for
/// 0 <= linear < prod dims.
std::vector<int64_t> LinearIndexToMultidimensionalIndex(
    absl::Span<const int64_t> dims, absl::Span<const int64_t> minor_to_major,
    int64_t linear);

}  // namespace xla_index

#endif  // XLA_INDEX_LAYOUT_INDEX_UTIL_H_
