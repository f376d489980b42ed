#ifndef XLA_INDEX_HLO_INSTRUCTION_H_
#define XLA_INDEX_HLO_INSTRUCTION_H_

// One HLO instruction: `name = shape opcode(operands), attr=value, ...`.
//
// Attributes are kept twice: as the raw text that was written (so that the
// printer gives back exactly what was read, including ones no analysis
// needs such as metadata or backend_config), and, for the attributes that
// define an op's semantics, as typed values with accessors.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlo/attributes.h"
#include "hlo/literal.h"
#include "hlo/opcode.h"
#include "hlo/shape.h"

namespace xla_index {

class HloComputation;

/// `name=value` as written after the operand list.
struct HloAttribute {
  std::string name;
  std::string value;
};

/// A computation an instruction calls, by the attribute that names it
/// (`to_apply`, `calls`, `condition`, `body`, `select`, `scatter`, ...).
/// `computation` is null only when a bare snippet names a computation it
/// does not define (XLA's documentation writes `to_apply=max` without defining
/// max).
struct CalledComputation {
  std::string role;
  std::string name;
  HloComputation* computation = nullptr;
};

class HloInstruction {
 public:
  HloInstruction(std::string name, HloOpcode opcode, std::string opcode_name)
      : name_(std::move(name)),
        opcode_(opcode),
        opcode_name_(std::move(opcode_name)) {}

  const std::string& name() const { return name_; }
  HloOpcode opcode() const { return opcode_; }
  /// The op's name as written; for kUnknown the only record of the op.
  const std::string& opcode_name() const { return opcode_name_; }
  const Shape& shape() const { return shape_; }
  void set_shape(Shape shape) { shape_ = std::move(shape); }

  int64_t operand_count() const {
    return static_cast<int64_t>(operands_.size());
  }
  HloInstruction* operand(int64_t i) const { return operands_[i]; }
  absl::Span<HloInstruction* const> operands() const { return operands_; }
  void AppendOperand(HloInstruction* operand) { operands_.push_back(operand); }
  void set_operand(int64_t i, HloInstruction* operand) {
    operands_[i] = operand;
  }

  /// 1-based line and column where the parser read the instruction; 0
  /// when it was not parsed (or is an implicit parameter).
  int64_t source_line() const { return source_line_; }
  int64_t source_column() const { return source_column_; }
  void set_source_position(int64_t line, int64_t column) {
    source_line_ = line;
    source_column_ = column;
  }

  HloComputation* parent() const { return parent_; }
  void set_parent(HloComputation* parent) { parent_ = parent; }

  /// All attributes as written, in order.
  const std::vector<HloAttribute>& attributes() const { return attributes_; }
  std::vector<HloAttribute>* mutable_attributes() { return &attributes_; }
  /// The raw value of attribute `name`, or nullopt.
  std::optional<absl::string_view> attribute(absl::string_view name) const;

  // ---- Typed attributes (filled by the parser from the raw text). ----

  /// parameter(N).
  int64_t parameter_number() const { return parameter_number_; }
  void set_parameter_number(int64_t n) { parameter_number_ = n; }
  /// constant(...).
  const Literal& literal() const { return literal_; }
  void set_literal(Literal literal) { literal_ = std::move(literal); }
  /// iota_dimension=.
  int64_t iota_dimension() const { return iota_dimension_; }
  void set_iota_dimension(int64_t d) { iota_dimension_ = d; }
  /// get-tuple-element index=.
  int64_t tuple_index() const { return tuple_index_; }
  void set_tuple_index(int64_t i) { tuple_index_ = i; }

  /// dimensions={...}: broadcast (operand dim i -> output dim
  /// dimensions[i]), transpose (permutation), reverse, reduce, concatenate
  /// (one entry), sort (one entry), map.
  const std::vector<int64_t>& dimensions() const { return dimensions_; }
  bool has_dimensions() const { return has_dimensions_; }
  void set_dimensions(std::vector<int64_t> d) {
    dimensions_ = std::move(d);
    has_dimensions_ = true;
  }
  /// concatenate / sort: the single entry of dimensions={d}.
  int64_t dimension() const { return dimensions_.empty() ? 0 : dimensions_[0]; }

  /// slice={[start:limit:stride], ...}.
  const std::vector<SliceDimension>& slice() const { return slice_; }
  void set_slice(std::vector<SliceDimension> s) { slice_ = std::move(s); }
  std::vector<int64_t> slice_starts() const;
  std::vector<int64_t> slice_limits() const;
  std::vector<int64_t> slice_strides() const;

  /// pad padding=low_high_interior x ...
  const PaddingConfig& padding_config() const { return padding_config_; }
  void set_padding_config(PaddingConfig p) { padding_config_ = std::move(p); }

  /// window={...} of reduce-window and convolution; has_window() false when
  /// none was written (then every dimension is size 1, stride 1).
  const Window& window() const { return window_; }
  bool has_window() const { return has_window_; }
  void set_window(Window w) {
    window_ = std::move(w);
    has_window_ = true;
  }

  const DotDimensionNumbers& dot_dimension_numbers() const { return dot_; }
  DotDimensionNumbers* mutable_dot_dimension_numbers() { return &dot_; }

  const GatherDimensionNumbers& gather_dimension_numbers() const {
    return gather_;
  }
  GatherDimensionNumbers* mutable_gather_dimension_numbers() {
    return &gather_;
  }
  /// gather slice_sizes={...}.
  const std::vector<int64_t>& gather_slice_sizes() const {
    return slice_sizes_;
  }
  void set_gather_slice_sizes(std::vector<int64_t> s) {
    slice_sizes_ = std::move(s);
  }

  const ScatterDimensionNumbers& scatter_dimension_numbers() const {
    return scatter_;
  }
  ScatterDimensionNumbers* mutable_scatter_dimension_numbers() {
    return &scatter_;
  }
  bool indices_are_sorted() const { return indices_are_sorted_; }
  void set_indices_are_sorted(bool v) { indices_are_sorted_ = v; }
  bool unique_indices() const { return unique_indices_; }
  void set_unique_indices(bool v) { unique_indices_ = v; }

  const ConvolutionDimensionNumbers& convolution_dimension_numbers() const {
    return conv_;
  }
  void set_convolution_dimension_numbers(ConvolutionDimensionNumbers c) {
    conv_ = std::move(c);
    has_conv_ = true;
  }
  bool has_convolution_dimension_numbers() const { return has_conv_; }
  int64_t feature_group_count() const { return feature_group_count_; }
  void set_feature_group_count(int64_t n) { feature_group_count_ = n; }
  int64_t batch_group_count() const { return batch_group_count_; }
  void set_batch_group_count(int64_t n) { batch_group_count_ = n; }

  /// dynamic-slice dynamic_slice_sizes={...}.
  const std::vector<int64_t>& dynamic_slice_sizes() const {
    return dynamic_slice_sizes_;
  }
  void set_dynamic_slice_sizes(std::vector<int64_t> s) {
    dynamic_slice_sizes_ = std::move(s);
  }

  /// compare direction= (and type=, e.g. TOTALORDER, kept as text).
  ComparisonDirection comparison_direction() const { return direction_; }
  void set_comparison_direction(ComparisonDirection d) { direction_ = d; }

  /// sort is_stable=.
  bool is_stable() const { return is_stable_; }
  void set_is_stable(bool v) { is_stable_ = v; }

  /// reduce-precision exponent_bits= / mantissa_bits=.
  int64_t exponent_bits() const { return exponent_bits_; }
  int64_t mantissa_bits() const { return mantissa_bits_; }
  void set_exponent_bits(int64_t n) { exponent_bits_ = n; }
  void set_mantissa_bits(int64_t n) { mantissa_bits_ = n; }

  /// fusion `kind=` as written, e.g. "kLoop", "kInput", "kCustom".
  const std::string& fusion_kind() const { return fusion_kind_; }
  void set_fusion_kind(std::string kind) { fusion_kind_ = std::move(kind); }

  /// Computations this instruction calls, in attribute order.
  const std::vector<CalledComputation>& called_computations() const {
    return called_;
  }
  std::vector<CalledComputation>* mutable_called_computations() {
    return &called_;
  }
  /// The computation of attribute `role` ("to_apply", "calls", ...), or
  /// null when absent or unresolved.
  HloComputation* called_computation(absl::string_view role) const;
  /// reduce, reduce-window, map, scatter, sort, call: `to_apply=`.
  HloComputation* to_apply() const { return called_computation("to_apply"); }
  /// fusion (and call in newer XLA): `calls=`.
  HloComputation* fused_computation() const;

  /// `name = shape opcode(operand, ...), attr=value, ...` (no ROOT marker,
  /// names without '%', operands by name only).
  std::string ToString() const;

 private:
  std::string name_;
  HloOpcode opcode_;
  std::string opcode_name_;
  Shape shape_;
  std::vector<HloInstruction*> operands_;
  HloComputation* parent_ = nullptr;
  int64_t source_line_ = 0;
  int64_t source_column_ = 0;
  std::vector<HloAttribute> attributes_;

  int64_t parameter_number_ = 0;
  Literal literal_;
  int64_t iota_dimension_ = 0;
  int64_t tuple_index_ = 0;
  std::vector<int64_t> dimensions_;
  bool has_dimensions_ = false;
  std::vector<SliceDimension> slice_;
  PaddingConfig padding_config_;
  Window window_;
  bool has_window_ = false;
  DotDimensionNumbers dot_;
  GatherDimensionNumbers gather_;
  std::vector<int64_t> slice_sizes_;
  ScatterDimensionNumbers scatter_;
  bool indices_are_sorted_ = false;
  bool unique_indices_ = false;
  ConvolutionDimensionNumbers conv_;
  bool has_conv_ = false;
  int64_t feature_group_count_ = 1;
  int64_t batch_group_count_ = 1;
  std::vector<int64_t> dynamic_slice_sizes_;
  ComparisonDirection direction_ = ComparisonDirection::kEq;
  bool is_stable_ = false;
  int64_t exponent_bits_ = 0;
  int64_t mantissa_bits_ = 0;
  std::string fusion_kind_;
  std::vector<CalledComputation> called_;
};

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_INSTRUCTION_H_
