#include "xla_index/analysis/symbolic_tile_brute_force.h"

#include <map>
#include <optional>
#include <utility>

#include "gtest/gtest.h"
#include "hlo/evaluator.h"
#include "hlo/literal.h"

namespace xla_index {
namespace {

std::vector<int64_t> Delinearize(int64_t linear,
                                 absl::Span<const int64_t> dims) {
  std::vector<int64_t> index(dims.size());
  for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
    index[d] = linear % dims[d];
    linear /= dims[d];
  }
  return index;
}

int64_t Linearize(absl::Span<const int64_t> index,
                  absl::Span<const int64_t> dims) {
  int64_t linear = 0;
  for (size_t d = 0; d < dims.size(); ++d) linear = linear * dims[d] + index[d];
  return linear;
}

int64_t Product(absl::Span<const int64_t> values) {
  int64_t product = 1;
  for (int64_t v : values) product *= v;
  return product;
}

// The output elements of tile `tile_ids` (sizes clamped to the dims).
std::vector<std::vector<int64_t>> TileOutputs(absl::Span<const int64_t> dims,
                                              absl::Span<const int64_t> sizes,
                                              absl::Span<const int64_t> ids) {
  std::vector<int64_t> clamped;
  for (size_t d = 0; d < dims.size(); ++d) {
    clamped.push_back(std::min(sizes[d], dims[d]));
  }
  std::vector<std::vector<int64_t>> outputs;
  for (int64_t i = 0; i < Product(clamped); ++i) {
    std::vector<int64_t> out = Delinearize(i, clamped);
    for (size_t d = 0; d < out.size(); ++d) out[d] += ids[d] * clamped[d];
    outputs.push_back(out);
  }
  return outputs;
}

}  // namespace

std::vector<std::vector<int64_t>> FullTileIds(absl::Span<const int64_t> dims,
                                              absl::Span<const int64_t> sizes) {
  std::vector<int64_t> per_dim;
  for (size_t d = 0; d < dims.size(); ++d) {
    per_dim.push_back(dims[d] / std::min(sizes[d], dims[d]));
  }
  std::vector<std::vector<int64_t>> ids;
  for (int64_t t = 0; t < Product(per_dim); ++t) {
    ids.push_back(Delinearize(t, per_dim));
  }
  return ids;
}

ElementSet TileElementSet(const PropagatedTile& tile,
                          absl::Span<const int64_t> tile_ids) {
  ElementSet elements;
  // Runtime values at 0: what zero-filled arguments give.
  std::vector<int64_t> runtime(tile.tile.offsets.GetSymbolCount(), 0);
  if (!tile.tile.offsets.ConstraintsSatisfied(tile_ids, runtime)) {
    return elements;
  }
  std::optional<std::vector<int64_t>> offsets =
      tile.tile.offsets.Evaluate(tile_ids, runtime);
  EXPECT_TRUE(offsets.has_value());
  if (!offsets) return elements;
  for (int64_t i = 0; i < Product(tile.tile.sizes); ++i) {
    std::vector<int64_t> local = Delinearize(i, tile.tile.sizes);
    std::vector<int64_t> index(local.size());
    for (size_t d = 0; d < local.size(); ++d) {
      index[d] = (*offsets)[d] + local[d] * tile.tile.strides[d];
    }
    bool kept = true;
    for (const TileMask& mask : tile.masks) {
      kept = kept && mask.kept.Contains(index[mask.dimension]);
    }
    if (kept) elements.insert(index);
  }
  return elements;
}

ElementSet MapReads(const IndexingMap& map, absl::Span<const int64_t> sizes,
                    absl::Span<const int64_t> tile_ids) {
  std::vector<int64_t> dims;
  for (const Interval& b : map.GetDimBounds()) dims.push_back(b.upper + 1);
  std::vector<int64_t> ranges;
  for (const Interval& b : map.GetRangeVarBounds()) {
    ranges.push_back(b.NumElements());
  }
  ElementSet reads;
  for (const std::vector<int64_t>& out : TileOutputs(dims, sizes, tile_ids)) {
    for (int64_t r = 0; r < Product(ranges); ++r) {
      std::vector<int64_t> symbols = Delinearize(r, ranges);
      for (size_t s = 0; s < symbols.size(); ++s) {
        symbols[s] += map.GetRangeVarBounds()[s].lower;
      }
      if (!map.ConstraintsSatisfied(out, symbols)) continue;
      std::optional<std::vector<int64_t>> index = map.Evaluate(out, symbols);
      EXPECT_TRUE(index.has_value());
      if (index) reads.insert(*index);
    }
  }
  return reads;
}

bool IsStridedBox(const ElementSet& elements) {
  if (elements.empty()) return true;
  const size_t rank = elements.begin()->size();
  std::vector<std::set<int64_t>> values(rank);
  for (const std::vector<int64_t>& e : elements) {
    for (size_t d = 0; d < rank; ++d) values[d].insert(e[d]);
  }
  size_t count = 1;
  for (const std::set<int64_t>& v : values) {
    count *= v.size();
    if (v.size() < 3) continue;
    // An arithmetic progression: every step the same.
    int64_t step = *std::next(v.begin()) - *v.begin();
    for (auto it = std::next(v.begin()); it != v.end(); ++it) {
      if (*it - *std::prev(it) != step) return false;
    }
  }
  return count == elements.size();
}

void ExpectTilesMatchMap(const IndexingMap& map, const TileReport& report) {
  ASSERT_EQ(report.operands.size(), 1u);
  const TensorTiles& operand = report.operands[0];
  for (const std::vector<int64_t>& ids :
       FullTileIds(report.output_shape.dimensions(), report.tile_sizes)) {
    ElementSet got;
    for (const PropagatedTile& tile : operand.tiles) {
      ASSERT_TRUE(tile.tileable) << tile.reason;
      ElementSet part = TileElementSet(tile, ids);
      got.insert(part.begin(), part.end());
    }
    EXPECT_EQ(got, MapReads(map, report.tile_sizes, ids))
        << "tile " << ids.size();
  }
}

std::vector<bool> ExpectTilesMatchTrace(const HloModule& module,
                                        const TileReport& report) {
  std::vector<bool> not_a_box(report.operands.size(), false);
  const HloComputation& entry = *module.entry_computation();
  std::vector<Literal> arguments;
  for (size_t k = 0; k < entry.parameters().size(); ++k) {
    arguments.emplace_back(entry.parameter(k)->shape());
  }
  absl::StatusOr<TracedValue> traced =
      entry.root()->opcode() == HloOpcode::kFusion
          ? TraceInstruction(*entry.root(), arguments)
          : TraceComputation(entry, arguments);
  EXPECT_TRUE(traced.ok()) << traced.status();
  if (!traced.ok()) return not_a_box;
  absl::Span<const int64_t> out_dims = report.output_shape.dimensions();
  for (size_t k = 0; k < report.operands.size(); ++k) {
    const TensorTiles& operand = report.operands[k];
    bool tileable = true;
    for (const PropagatedTile& tile : operand.tiles) {
      tileable = tileable && tile.tileable;
    }
    for (const std::vector<int64_t>& ids :
         FullTileIds(out_dims, report.tile_sizes)) {
      ElementSet expected;
      for (const std::vector<int64_t>& out :
           TileOutputs(out_dims, report.tile_sizes, ids)) {
        for (const ElementId& id : traced->reads[0][Linearize(out, out_dims)]) {
          if (id.operand != operand.operand) continue;
          expected.insert(
              Delinearize(id.linear_index, operand.shape.dimensions()));
        }
      }
      if (!IsStridedBox(expected)) not_a_box[k] = true;
      if (!tileable) continue;
      ElementSet got;
      for (const PropagatedTile& tile : operand.tiles) {
        ElementSet part = TileElementSet(tile, ids);
        got.insert(part.begin(), part.end());
      }
      EXPECT_EQ(got, expected) << operand.name << " at tile " << ids[0];
    }
  }
  return not_a_box;
}

}  // namespace xla_index
