#include "hlo/instruction.h"

#include <cassert>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hlo/module.h"

namespace xla_index {

absl::string_view ComparisonDirectionName(ComparisonDirection direction) {
  switch (direction) {
    case ComparisonDirection::kEq:
      return "EQ";
    case ComparisonDirection::kNe:
      return "NE";
    case ComparisonDirection::kGe:
      return "GE";
    case ComparisonDirection::kGt:
      return "GT";
    case ComparisonDirection::kLe:
      return "LE";
    case ComparisonDirection::kLt:
      return "LT";
  }
  return "EQ";
}

const Shape& HloInstruction::shape() const {
  static const Shape* const kNoShape = new Shape();
  return shape_ != nullptr ? *shape_ : *kNoShape;
}

void HloInstruction::set_shape(Shape shape) {
  shape_ = std::make_shared<const Shape>(std::move(shape));
}

void HloInstruction::set_shape(std::shared_ptr<const Shape> shape) {
  assert(shape != nullptr && "set_shape needs a shape");
  shape_ = std::move(shape);
}

const Literal& HloInstruction::literal() const {
  static const Literal* const kNoLiteral = new Literal();
  return literal_ != nullptr ? *literal_ : *kNoLiteral;
}

void HloInstruction::set_literal(Literal literal) {
  literal_ = std::make_unique<Literal>(std::move(literal));
}

const HloInstruction::OpAttributes& HloInstruction::op() const {
  static const OpAttributes* const kDefaults = new OpAttributes();
  return op_attributes_ != nullptr ? *op_attributes_ : *kDefaults;
}

HloInstruction::OpAttributes& HloInstruction::mutable_op() {
  if (op_attributes_ == nullptr) {
    op_attributes_ = std::make_unique<OpAttributes>();
  }
  return *op_attributes_;
}

std::optional<absl::string_view> HloInstruction::attribute(
    absl::string_view name) const {
  for (const HloAttribute& attribute : attributes_) {
    if (attribute.name == name) return absl::string_view(attribute.value);
  }
  return std::nullopt;
}

std::vector<int64_t> HloInstruction::slice_starts() const {
  std::vector<int64_t> out;
  for (const SliceDimension& d : slice()) out.push_back(d.start);
  return out;
}

std::vector<int64_t> HloInstruction::slice_limits() const {
  std::vector<int64_t> out;
  for (const SliceDimension& d : slice()) out.push_back(d.limit);
  return out;
}

std::vector<int64_t> HloInstruction::slice_strides() const {
  std::vector<int64_t> out;
  for (const SliceDimension& d : slice()) out.push_back(d.stride);
  return out;
}

HloComputation* HloInstruction::called_computation(
    absl::string_view role) const {
  for (const CalledComputation& called : called_) {
    if (called.role == role) return called.computation;
  }
  return nullptr;
}

HloComputation* HloInstruction::fused_computation() const {
  if (HloComputation* calls = called_computation("calls")) return calls;
  if (opcode_ == HloOpcode::kCall) return to_apply();
  return nullptr;
}

std::string HloInstruction::ToString() const {
  std::string out =
      absl::StrCat(name_, " = ", shape().ToString(), " ", opcode_name_, "(");
  if (opcode_ == HloOpcode::kParameter) {
    absl::StrAppend(&out, parameter_number_);
  } else if (opcode_ == HloOpcode::kConstant) {
    out += literal().ToString();
  } else {
    for (size_t i = 0; i < operands_.size(); ++i) {
      if (i > 0) out += ", ";
      out += operands_[i]->name();
    }
  }
  out += ")";
  for (const HloAttribute& attribute : attributes_) {
    absl::StrAppend(&out, ", ", attribute.name, "=", attribute.value);
  }
  return out;
}

}  // namespace xla_index
