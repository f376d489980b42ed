#include "layout/separable_offsets.h"

#include <cstdint>
#include <optional>
#include <vector>

#include "layout/tiled_layout.h"

namespace xla_index {

std::optional<SeparableOffsets> SeparableOffsets::Create(
    const TiledLayout& layout, int64_t max_entries) {
  for (const TilingStep& step : layout.steps()) {
    if (step.kind == TilingStep::Kind::kCombine) return std::nullopt;
  }
  int64_t entries = 0;
  for (int64_t size : layout.dimensions()) {
    entries += size;
    if (entries > max_entries) return std::nullopt;
  }
  SeparableOffsets offsets;
  offsets.table_.reserve(entries);
  std::vector<int64_t> unit(layout.rank(), 0);
  for (int64_t i = 0; i < layout.rank(); ++i) {
    offsets.first_entry_.push_back(offsets.table_.size());
    for (int64_t v = 0; v < layout.dimensions()[i]; ++v) {
      unit[i] = v;
      offsets.table_.push_back(layout.LinearIndex(unit));
    }
    unit[i] = 0;
  }
  return offsets;
}

}  // namespace xla_index
