#include "hlo/shape.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/checked_arithmetic.h"

namespace xla_index {

bool Layout::HasAttributes() const {
  return !dim_level_types.empty() || !tiles.empty() ||
         tail_padding_alignment_in_elements != 1 ||
         index_primitive_type != PrimitiveType::kInvalid ||
         pointer_primitive_type != PrimitiveType::kInvalid ||
         element_size_in_bits != 0 || memory_space != 0 ||
         !split_configs.empty() || physical_shape != nullptr ||
         dynamic_shape_metadata_prefix_bytes != 0;
}

std::string Layout::ToString() const {
  // Field order follows XLA's Layout::Print so that dumps compare equal.
  std::string out = absl::StrJoin(minor_to_major, ",");
  if (!HasAttributes()) return out;
  out += ":";
  if (!dim_level_types.empty()) {
    absl::StrAppend(&out, "D(", absl::StrJoin(dim_level_types, ","), ")");
  }
  if (!tiles.empty()) {
    out += "T";
    for (const Tile& tile : tiles) {
      out += "(";
      for (size_t i = 0; i < tile.dimensions.size(); ++i) {
        if (i > 0) out += ",";
        int64_t d = tile.dimensions[i];
        if (d == Tile::kCombined) {
          out += "*";
        } else {
          absl::StrAppend(&out, d);
        }
      }
      out += ")";
    }
  }
  if (tail_padding_alignment_in_elements != 1) {
    absl::StrAppend(&out, "L(", tail_padding_alignment_in_elements, ")");
  }
  if (index_primitive_type != PrimitiveType::kInvalid) {
    absl::StrAppend(&out, "#(", PrimitiveTypeName(index_primitive_type), ")");
  }
  if (pointer_primitive_type != PrimitiveType::kInvalid) {
    absl::StrAppend(&out, "*(", PrimitiveTypeName(pointer_primitive_type), ")");
  }
  if (element_size_in_bits != 0) {
    absl::StrAppend(&out, "E(", element_size_in_bits, ")");
  }
  if (memory_space != 0) absl::StrAppend(&out, "S(", memory_space, ")");
  if (!split_configs.empty()) {
    out += "SC";
    for (const SplitConfig& config : split_configs) {
      absl::StrAppend(&out, "(", config.dimension, ":",
                      absl::StrJoin(config.split_indices, ","), ")");
    }
  }
  if (physical_shape != nullptr) {
    absl::StrAppend(&out, "P(", physical_shape->ToString(), ")");
  }
  if (dynamic_shape_metadata_prefix_bytes != 0) {
    absl::StrAppend(&out, "M(", dynamic_shape_metadata_prefix_bytes, ")");
  }
  return out;
}

bool Layout::operator==(const Layout& other) const {
  bool physical_equal =
      (physical_shape == nullptr) == (other.physical_shape == nullptr) &&
      (physical_shape == nullptr || *physical_shape == *other.physical_shape);
  return minor_to_major == other.minor_to_major &&
         dim_level_types == other.dim_level_types && tiles == other.tiles &&
         tail_padding_alignment_in_elements ==
             other.tail_padding_alignment_in_elements &&
         index_primitive_type == other.index_primitive_type &&
         pointer_primitive_type == other.pointer_primitive_type &&
         element_size_in_bits == other.element_size_in_bits &&
         memory_space == other.memory_space &&
         split_configs == other.split_configs && physical_equal &&
         dynamic_shape_metadata_prefix_bytes ==
             other.dynamic_shape_metadata_prefix_bytes;
}

Shape::Shape(PrimitiveType type, std::vector<int64_t> dimensions)
    : element_type_(type) {
  set_dimensions(std::move(dimensions));
}

Shape Shape::MakeTuple(std::vector<Shape> elements) {
  Shape shape;
  shape.element_type_ = PrimitiveType::kTuple;
  shape.tuple_shapes_ = std::move(elements);
  return shape;
}

Shape Shape::MakeToken() {
  Shape shape;
  shape.element_type_ = PrimitiveType::kToken;
  return shape;
}

void Shape::set_dimensions(std::vector<int64_t> dimensions) {
  dimensions_ = std::move(dimensions);
  dynamic_.assign(dimensions_.size(), false);
}

Layout* Shape::mutable_layout() {
  if (!layout_.has_value()) layout_.emplace();
  return &*layout_;
}

bool Shape::HasUnboundedDimension() const {
  if (IsTuple()) {
    for (const Shape& element : tuple_shapes_) {
      if (element.HasUnboundedDimension()) return true;
    }
    return false;
  }
  for (int64_t d : dimensions_) {
    if (d == kUnboundedSize) return true;
  }
  return false;
}

int64_t Shape::ElementCount() const {
  if (!IsArray()) return 0;
  if (HasUnboundedDimension()) return std::numeric_limits<int64_t>::max();
  // Saturating, so that a shape built by hand with too many elements gives
  // a count no allocation can satisfy rather than a wrapped one; parsed
  // shapes never get there (the parser refuses them).
  int64_t count = 1;
  for (int64_t d : dimensions_) count = SaturatingMul(count, d);
  return count;
}

std::string Shape::ToString(bool print_layout) const {
  if (IsTuple()) {
    std::string out = "(";
    for (size_t i = 0; i < tuple_shapes_.size(); ++i) {
      if (i > 0) out += ", ";
      out += tuple_shapes_[i].ToString(print_layout);
    }
    return out + ")";
  }
  std::string out(PrimitiveTypeName(element_type_));
  out += "[";
  for (size_t i = 0; i < dimensions_.size(); ++i) {
    if (i > 0) out += ",";
    if (dimensions_[i] == kUnboundedSize) {
      out += "?";
      continue;
    }
    if (dynamic_[i]) out += "<=";
    absl::StrAppend(&out, dimensions_[i]);
  }
  out += "]";
  if (print_layout && layout_.has_value()) {
    absl::StrAppend(&out, "{", layout_->ToString(), "}");
  }
  if (is_buffer_) return absl::StrCat("b(", out, ")");
  return out;
}

bool Shape::SameDimensions(const Shape& other) const {
  if (IsTuple() != other.IsTuple()) return false;
  if (IsTuple()) {
    if (tuple_shapes_.size() != other.tuple_shapes_.size()) return false;
    for (size_t i = 0; i < tuple_shapes_.size(); ++i) {
      if (!tuple_shapes_[i].SameDimensions(other.tuple_shapes_[i])) {
        return false;
      }
    }
    return true;
  }
  return dimensions_ == other.dimensions_ && dynamic_ == other.dynamic_;
}

bool Shape::CompatibleWith(const Shape& other) const {
  if (element_type_ != other.element_type_) return false;
  if (IsTuple()) {
    if (tuple_shapes_.size() != other.tuple_shapes_.size()) return false;
    for (size_t i = 0; i < tuple_shapes_.size(); ++i) {
      if (!tuple_shapes_[i].CompatibleWith(other.tuple_shapes_[i])) {
        return false;
      }
    }
    return true;
  }
  return dimensions_ == other.dimensions_ && dynamic_ == other.dynamic_ &&
         is_buffer_ == other.is_buffer_;
}

bool Shape::operator==(const Shape& other) const {
  return element_type_ == other.element_type_ &&
         dimensions_ == other.dimensions_ && dynamic_ == other.dynamic_ &&
         tuple_shapes_ == other.tuple_shapes_ && layout_ == other.layout_ &&
         is_buffer_ == other.is_buffer_;
}

}  // namespace xla_index
