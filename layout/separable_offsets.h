#ifndef XLA_INDEX_LAYOUT_SEPARABLE_OFFSETS_H_
#define XLA_INDEX_LAYOUT_SEPARABLE_OFFSETS_H_

// A fast tiled linear index for layouts without combined dimensions.
//
// Without `*`, every step of the tiling maps each dimension to dimensions
// that depend on that one dimension only (e -> e floordiv t, e mod t), so
// every physical dimension is a function of a single logical dimension and
// the linear index, a weighted sum of physical indices, splits into one term
// per logical dimension:
//
//   offset(e_0, ..., e_{r-1}) = g_0(e_0) + ... + g_{r-1}(e_{r-1}),
//   g_i(v) = offset(v * unit_i)   (each term is 0 at 0: 0 floordiv t = 0).
//
// Tabulating g_i turns the index into r table loads and adds. XLA's
// tiled-layout documentation, figure 1, F32[3,5]{1,0:T(2,2)}: g_0 = {0, 2, 12},
// g_1 = {0, 1, 4, 5, 8}, element (2,3) -> 12 + 5 = 17.

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "layout/tiled_layout.h"

namespace xla_index {

class SeparableOffsets {
 public:
  /// The tables of `layout`, or nullopt when the layout combines dimensions
  /// (the index does not split) or the tables would hold more than
  /// `max_entries` entries in total (the sum of the dimension sizes).
  static std::optional<SeparableOffsets> Create(const TiledLayout& layout,
                                                int64_t max_entries = 1 << 20);

  /// Equal to TiledLayout::LinearIndex(index); index must be in bounds.
  int64_t LinearIndex(absl::Span<const int64_t> index) const {
    int64_t offset = 0;
    for (size_t i = 0; i < index.size(); ++i) {
      offset += table_[first_entry_[i] + index[i]];
    }
    return offset;
  }

 private:
  SeparableOffsets() = default;

  /// g_i(v) is table_[first_entry_[i] + v].
  std::vector<int64_t> table_;
  std::vector<int64_t> first_entry_;
};

}  // namespace xla_index

#endif  // XLA_INDEX_LAYOUT_SEPARABLE_OFFSETS_H_
