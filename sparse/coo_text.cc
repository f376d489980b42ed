#include "sparse/coo_text.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace xla_index::sparse {

absl::StatusOr<std::vector<int64_t>> ParseShape(absl::string_view text) {
  std::vector<int64_t> shape;
  size_t column = 1;
  for (absl::string_view part : absl::StrSplit(text, 'x')) {
    int64_t size;
    if (!absl::SimpleAtoi(part, &size) || size < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape '", text, "' column ", column,
                       ": expected a size >= 1, found '", part, "'"));
    }
    shape.push_back(size);
    column += part.size() + 1;
  }
  return shape;
}

absl::StatusOr<CooTensor> ParseCooText(absl::string_view text, int64_t rank,
                                       const std::vector<int64_t>& shape,
                                       absl::string_view file_name) {
  if (!shape.empty() && static_cast<int64_t>(shape.size()) != rank) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the shape ", absl::StrJoin(shape, "x"), " has rank ", shape.size(),
        " but the encoding has ", rank, " dimensions"));
  }
  CooTensor coo;
  std::vector<int64_t> max_coordinate(rank, -1);
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    // Tokens with their 1-based columns.
    std::vector<std::pair<absl::string_view, size_t>> tokens;
    for (size_t i = 0; i < line.size();) {
      if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
        ++i;
        continue;
      }
      size_t end = i;
      while (end < line.size() && line[end] != ' ' && line[end] != '\t' &&
             line[end] != '\r') {
        ++end;
      }
      tokens.push_back({line.substr(i, end - i), i + 1});
      i = end;
    }
    if (tokens.empty() || tokens[0].first[0] == '#' ||
        tokens[0].first[0] == '%') {
      continue;
    }
    auto where = [&](size_t column) {
      return absl::StrCat(file_name, ":", line_number, ":", column, ": ");
    };
    if (static_cast<int64_t>(tokens.size()) != rank + 1) {
      return absl::InvalidArgumentError(
          absl::StrCat(where(1), "expected ", rank + 1, " numbers (", rank,
                       " coordinates and a value), found ", tokens.size()));
    }
    for (int64_t d = 0; d < rank; ++d) {
      int64_t coordinate;
      if (!absl::SimpleAtoi(tokens[d].first, &coordinate)) {
        return absl::InvalidArgumentError(absl::StrCat(where(tokens[d].second),
                                                       "expected an integer "
                                                       "coordinate, found '",
                                                       tokens[d].first, "'"));
      }
      if (coordinate < 0 || (!shape.empty() && coordinate >= shape[d])) {
        return absl::InvalidArgumentError(absl::StrCat(
            where(tokens[d].second), "coordinate ", coordinate,
            " of dimension ", d, " is outside ",
            shape.empty() ? std::string("[0, inf)")
                          : absl::StrCat("[0, ", shape[d] - 1, "]")));
      }
      max_coordinate[d] = std::max(max_coordinate[d], coordinate);
      coo.coordinates.push_back(coordinate);
    }
    double value;
    if (!absl::SimpleAtod(tokens[rank].first, &value) ||
        !std::isfinite(value)) {
      return absl::InvalidArgumentError(absl::StrCat(where(tokens[rank].second),
                                                     "expected a finite value, "
                                                     "found '",
                                                     tokens[rank].first, "'"));
    }
    coo.values.push_back(value);
  }
  if (!shape.empty()) {
    coo.dim_sizes = shape;
  } else {
    for (int64_t d = 0; d < rank; ++d) {
      coo.dim_sizes.push_back(std::max<int64_t>(1, max_coordinate[d] + 1));
    }
  }
  return coo;
}

}  // namespace xla_index::sparse
