#include "sparse/level_type.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace xla_index::sparse {

const char* LevelFormatName(LevelFormat format) {
  switch (format) {
    case LevelFormat::kDense:
      return "dense";
    case LevelFormat::kBatch:
      return "batch";
    case LevelFormat::kCompressed:
      return "compressed";
    case LevelFormat::kLooseCompressed:
      return "loose_compressed";
    case LevelFormat::kSingleton:
      return "singleton";
    case LevelFormat::kStructured:
      return "structured";
  }
  return "?";
}

std::string LevelType::ToString() const {
  std::string text = LevelFormatName(format);
  if (format == LevelFormat::kStructured) {
    absl::StrAppend(&text, "[", n, ", ", m, "]");
  }
  // MLIR prints the properties in this fixed order, whatever the input order.
  std::vector<const char*> properties;
  if (nonunique) properties.push_back("nonunique");
  if (nonordered) properties.push_back("nonordered");
  if (soa) properties.push_back("soa");
  if (!properties.empty()) {
    absl::StrAppend(&text, "(", absl::StrJoin(properties, ", "), ")");
  }
  return text;
}

bool operator==(const LevelType& a, const LevelType& b) {
  return a.format == b.format && a.n == b.n && a.m == b.m &&
         a.nonunique == b.nonunique && a.nonordered == b.nonordered &&
         a.soa == b.soa;
}

}  // namespace xla_index::sparse
