#include "sparse/width_array.h"

#include <cstdint>
#include <limits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace xla_index::sparse {
namespace {

template <typename T>
absl::StatusOr<std::vector<T>> Narrow(absl::Span<const uint64_t> values,
                                      absl::string_view what) {
  constexpr uint64_t kMax = std::numeric_limits<T>::max();
  std::vector<T> narrow(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] > kMax) {
      return absl::InvalidArgumentError(absl::StrCat(
          what, ": value ", values[i], " at index ", i, " does not fit in ",
          8 * sizeof(T), " bits (max ", kMax, ")"));
    }
    narrow[i] = static_cast<T>(values[i]);
  }
  return narrow;
}

}  // namespace

absl::StatusOr<WidthArray> WidthArray::Create(absl::Span<const uint64_t> values,
                                              int64_t width,
                                              absl::string_view what) {
  WidthArray array;
  switch (width) {
    case 8: {
      XI_ASSIGN_OR_RETURN(array.data_, Narrow<uint8_t>(values, what));
      return array;
    }
    case 16: {
      XI_ASSIGN_OR_RETURN(array.data_, Narrow<uint16_t>(values, what));
      return array;
    }
    case 32: {
      XI_ASSIGN_OR_RETURN(array.data_, Narrow<uint32_t>(values, what));
      return array;
    }
    case 0:
    case 64:
      array.data_ = std::vector<uint64_t>(values.begin(), values.end());
      return array;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(what, ": unsupported bit width ", width,
                       " (allowed: 0, 8, 16, 32, 64)"));
  }
}

absl::StatusOr<WidthArray> WidthArray::Take(std::vector<uint64_t>&& values,
                                            int64_t width,
                                            absl::string_view what) {
  if (width != 0 && width != 64) {
    return Create(absl::MakeConstSpan(values), width, what);
  }
  WidthArray array;
  array.data_ = std::move(values);
  return array;
}

int64_t WidthArray::width() const {
  return std::visit(
      [](const auto& v) -> int64_t {
        return 8 * sizeof(typename std::decay_t<decltype(v)>::value_type);
      },
      data_);
}

size_t WidthArray::size() const {
  return std::visit([](const auto& v) { return v.size(); }, data_);
}

uint64_t WidthArray::operator[](size_t index) const {
  return std::visit([index](const auto& v) -> uint64_t { return v[index]; },
                    data_);
}

std::vector<uint64_t> WidthArray::ToVector() const {
  return std::visit(
      [](const auto& v) { return std::vector<uint64_t>(v.begin(), v.end()); },
      data_);
}

}  // namespace xla_index::sparse
