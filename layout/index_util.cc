#include "layout/index_util.h"

#include <cstdint>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "base/checked_arithmetic.h"

namespace xla_index {

absl::Status ValidateMinorToMajor(int64_t rank,
                                  absl::Span<const int64_t> minor_to_major) {
  if (static_cast<int64_t>(minor_to_major.size()) != rank) {
    return absl::InvalidArgumentError(absl::StrCat(
        "minor_to_major {", absl::StrJoin(minor_to_major, ","), "} has ",
        minor_to_major.size(), " entries but the shape has rank ", rank));
  }
  std::vector<bool> seen(rank, false);
  for (int64_t k = 0; k < rank; ++k) {
    const int64_t dim = minor_to_major[k];
    if (dim < 0 || dim >= rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("minor_to_major {", absl::StrJoin(minor_to_major, ","),
                       "} is not a permutation: entry ", k, " is ", dim,
                       ", outside [0, ", rank - 1, "]"));
    }
    if (seen[dim]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "minor_to_major {", absl::StrJoin(minor_to_major, ","),
          "} is not a permutation: dimension ", dim, " repeats at entry ", k));
    }
    seen[dim] = true;
  }
  return absl::OkStatus();
}

absl::Status ValidateDimensions(absl::Span<const int64_t> dims) {
  // The product of the nonzero sizes must fit: with a zero size the element
  // count is 0, but index arithmetic still uses strides over the others.
  int64_t count = 1;
  bool has_zero = false;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("dimension ", i, " has negative size ", dims[i]));
    }
    if (dims[i] == 0) {
      has_zero = true;
      continue;
    }
    std::optional<int64_t> product = CheckedMul(count, dims[i]);
    if (!product) {
      return absl::InvalidArgumentError(
          absl::StrCat(has_zero || absl::c_linear_search(dims.subspan(i), 0)
                           ? "the product of the nonzero sizes of ["
                           : "element count of [",
                       absl::StrJoin(dims, ","), "] overflows int64"));
    }
    count = *product;
  }
  return absl::OkStatus();
}

absl::Status ValidateIndex(absl::Span<const int64_t> dims,
                           absl::Span<const int64_t> index) {
  if (index.size() != dims.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "index (", absl::StrJoin(index, ","), ") has ", index.size(),
        " entries but the shape has rank ", dims.size()));
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    if (index[i] < 0 || index[i] >= dims[i]) {
      return absl::InvalidArgumentError(
          absl::StrCat("index (", absl::StrJoin(index, ","), "): entry ", i,
                       " is ", index[i], ", outside [0, ", dims[i] - 1, "]"));
    }
  }
  return absl::OkStatus();
}

std::vector<int64_t> MajorToMinorDimensions(
    absl::Span<const int64_t> dims, absl::Span<const int64_t> minor_to_major) {
  std::vector<int64_t> result(dims.size());
  const size_t rank = dims.size();
  for (size_t k = 0; k < rank; ++k) {
    result[k] = dims[minor_to_major[rank - 1 - k]];
  }
  return result;
}

int64_t RowMajorLinearIndex(absl::Span<const int64_t> dims,
                            absl::Span<const int64_t> index) {
  // Horner's scheme: ((i0 * d1 + i1) * d2 + i2) ...
  int64_t linear = 0;
  for (size_t k = 0; k < dims.size(); ++k) {
    linear = linear * dims[k] + index[k];
  }
  return linear;
}

std::vector<int64_t> RowMajorMultiIndex(absl::Span<const int64_t> dims,
                                        int64_t linear) {
  std::vector<int64_t> index(dims.size());
  for (size_t k = dims.size(); k-- > 0;) {
    index[k] = linear % dims[k];
    linear /= dims[k];
  }
  return index;
}

int64_t MultidimensionalIndexToLinearIndex(
    absl::Span<const int64_t> dims, absl::Span<const int64_t> minor_to_major,
    absl::Span<const int64_t> index) {
  // Horner's scheme from the most major dimension down.
  int64_t linear = 0;
  for (size_t k = minor_to_major.size(); k-- > 0;) {
    const int64_t dim = minor_to_major[k];
    linear = linear * dims[dim] + index[dim];
  }
  return linear;
}

std::vector<int64_t> LinearIndexToMultidimensionalIndex(
    absl::Span<const int64_t> dims, absl::Span<const int64_t> minor_to_major,
    int64_t linear) {
  std::vector<int64_t> index(dims.size());
  for (int64_t dim : minor_to_major) {
    index[dim] = linear % dims[dim];
    linear /= dims[dim];
  }
  return index;
}

}  // namespace xla_index
