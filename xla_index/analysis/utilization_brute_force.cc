#include "xla_index/analysis/utilization_brute_force.h"

#include <optional>
#include <set>
#include <vector>

#include "xla_index/core/box_points.h"
#include "xla_index/core/interval.h"

namespace xla_index {

BruteForceUtilization CountByBruteForce(
    const IndexingMapSet& maps, absl::Span<const int64_t> operand_dims) {
  std::set<std::vector<int64_t>> all;
  BruteForceUtilization counts;
  for (const IndexingMap& map : maps) {
    if (map.IsKnownEmpty()) continue;
    std::vector<Interval> dims = map.GetDimBounds();
    std::vector<Interval> symbols = map.GetSymbolBounds();
    const std::optional<int64_t> dim_points = CountBoxPoints(dims);
    const std::optional<int64_t> symbol_points = CountBoxPoints(symbols);
    if (!dim_points || !symbol_points || *dim_points == 0 ||
        *symbol_points == 0) {
      continue;
    }
    std::vector<int64_t> d(dims.size()), s(symbols.size());
    for (size_t i = 0; i < dims.size(); ++i) d[i] = dims[i].lower;
    do {
      std::set<std::vector<int64_t>> read;
      for (size_t i = 0; i < symbols.size(); ++i) s[i] = symbols[i].lower;
      do {
        if (!map.ConstraintsSatisfied(d, s)) continue;
        std::vector<int64_t> r = *map.Evaluate(d, s);
        bool inside = true;
        for (size_t k = 0; k < r.size(); ++k) {
          inside &= r[k] >= 0 && r[k] < operand_dims[k];
        }
        if (inside) read.insert(r);
      } while (NextBoxPoint(symbols, s));
      counts.pairs += read.size();
      all.insert(read.begin(), read.end());
    } while (NextBoxPoint(dims, d));
  }
  counts.elements = static_cast<int64_t>(all.size());
  return counts;
}

}  // namespace xla_index
