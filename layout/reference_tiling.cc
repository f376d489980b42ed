#include "layout/reference_tiling.h"

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "base/checked_arithmetic.h"
#include "xla_index/core/box_points.h"
#include "xla_index/core/interval.h"

namespace xla_index {
namespace {

// A row-major array of element ids.
struct Array {
  std::vector<int64_t> shape;
  std::vector<int64_t> data;
};

// The number of elements of a (small, valid) shape: the image is
// materialized, so it fits in memory and the product cannot overflow.
int64_t Product(absl::Span<const int64_t> shape) {
  return CheckedProduct(shape).value();
}

// Visits every index of `shape` in row-major order.
template <typename Visit>
void ForEachIndex(absl::Span<const int64_t> shape, Visit visit) {
  ForEachBoxPoint(ShapeBox(shape), Interval::kMax, visit);
}

int64_t Offset(absl::Span<const int64_t> shape,
               absl::Span<const int64_t> index) {
  int64_t offset = 0;
  for (size_t k = 0; k < shape.size(); ++k)
    offset = offset * shape[k] + index[k];
  return offset;
}

// out[o] = in[i] with i[permutation[k]] = o[k]: output dimension k is input
// dimension permutation[k].
Array Transpose(const Array& in, absl::Span<const int64_t> permutation) {
  Array out;
  for (int64_t dim : permutation) out.shape.push_back(in.shape[dim]);
  out.data.resize(in.data.size());
  std::vector<int64_t> in_index(in.shape.size());
  ForEachIndex(out.shape, [&](const std::vector<int64_t>& out_index) {
    for (size_t k = 0; k < permutation.size(); ++k) {
      in_index[permutation[k]] = out_index[k];
    }
    out.data[Offset(out.shape, out_index)] =
        in.data[Offset(in.shape, in_index)];
  });
  return out;
}

// Pads every dimension at the high end to `padded_shape` with -1.
Array Pad(const Array& in, absl::Span<const int64_t> padded_shape) {
  Array out;
  out.shape.assign(padded_shape.begin(), padded_shape.end());
  out.data.assign(Product(padded_shape), -1);
  ForEachIndex(in.shape, [&](const std::vector<int64_t>& index) {
    out.data[Offset(out.shape, index)] = in.data[Offset(in.shape, index)];
  });
  return out;
}

}  // namespace

std::vector<int64_t> ReferenceMemoryImage(
    absl::Span<const int64_t> dims, absl::Span<const int64_t> minor_to_major,
    absl::Span<const std::vector<int64_t>> tiles) {
  Array array;
  array.shape.assign(dims.begin(), dims.end());
  array.data.resize(Product(dims));
  for (size_t i = 0; i < array.data.size(); ++i) array.data[i] = i;

  // Physical order: most major dimension first.
  const int64_t rank = dims.size();
  std::vector<int64_t> major_to_minor(rank);
  for (int64_t k = 0; k < rank; ++k) {
    major_to_minor[k] = minor_to_major[rank - 1 - k];
  }
  array = Transpose(array, major_to_minor);

  for (const std::vector<int64_t>& tile_with_stars : tiles) {
    // A tile of higher rank than the array pads it with leading dimensions
    // of size 1 (a reshape: the data stays).
    if (tile_with_stars.size() > array.shape.size()) {
      array.shape.insert(array.shape.begin(),
                         tile_with_stars.size() - array.shape.size(), 1);
    }
    // Combining dimensions of a row-major array is a reshape: the data stays.
    std::vector<int64_t> tile;
    int64_t position = array.shape.size() - tile_with_stars.size();
    std::vector<int64_t> combined(array.shape.begin(),
                                  array.shape.begin() + position);
    int64_t pending = 1;
    for (int64_t entry : tile_with_stars) {
      pending *= array.shape[position++];
      if (entry == -1) continue;
      combined.push_back(pending);
      pending = 1;
      tile.push_back(entry);
    }
    array.shape = combined;

    // Pad to whole tiles.
    const int64_t first = array.shape.size() - tile.size();
    std::vector<int64_t> padded = array.shape;
    for (size_t k = 0; k < tile.size(); ++k) {
      padded[first + k] = (padded[first + k] + tile[k] - 1) / tile[k] * tile[k];
    }
    array = Pad(array, padded);

    // Reshape (a bitcast) each tiled dimension into (count, tile size) ...
    std::vector<int64_t> reshaped(array.shape.begin(),
                                  array.shape.begin() + first);
    for (size_t k = 0; k < tile.size(); ++k) {
      reshaped.push_back(padded[first + k] / tile[k]);
      reshaped.push_back(tile[k]);
    }
    array.shape = reshaped;

    // ... then transpose the tile sizes minor, keeping their order.
    std::vector<int64_t> permutation;
    for (int64_t k = 0; k < first; ++k) permutation.push_back(k);
    for (size_t k = 0; k < tile.size(); ++k) {
      permutation.push_back(first + 2 * k);
    }
    for (size_t k = 0; k < tile.size(); ++k) {
      permutation.push_back(first + 2 * k + 1);
    }
    array = Transpose(array, permutation);
  }
  return array.data;
}

}  // namespace xla_index
