#ifndef XLA_INDEX_HLO_INSTRUCTION_H_
#define XLA_INDEX_HLO_INSTRUCTION_H_

// One HLO instruction: `name = shape opcode(operands), attr=value, ...`.
//
// Attributes are kept twice: as the raw text that was written (so that the
// printer gives back exactly what was read, including ones no analysis
// needs such as metadata or backend_config), and, for the attributes that
// define an op's semantics, as typed values with accessors.

#include <cstdint>
#include <memory>
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
  const Shape& shape() const;
  void set_shape(Shape shape);
  /// Shares `shape` (not null) with other instructions.
  void set_shape(std::shared_ptr<const Shape> shape);

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
  const Literal& literal() const;
  void set_literal(Literal literal);
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
  const std::vector<SliceDimension>& slice() const { return op().slice; }
  void set_slice(std::vector<SliceDimension> s) {
    mutable_op().slice = std::move(s);
  }
  std::vector<int64_t> slice_starts() const;
  std::vector<int64_t> slice_limits() const;
  std::vector<int64_t> slice_strides() const;

  /// pad padding=low_high_interior x ...
  const PaddingConfig& padding_config() const { return op().padding_config; }
  void set_padding_config(PaddingConfig p) {
    mutable_op().padding_config = std::move(p);
  }

  /// window={...} of reduce-window and convolution; has_window() false when
  /// none was written (then every dimension is size 1, stride 1).
  const Window& window() const { return op().window; }
  bool has_window() const { return op().has_window; }
  void set_window(Window w) {
    mutable_op().window = std::move(w);
    mutable_op().has_window = true;
  }

  const DotDimensionNumbers& dot_dimension_numbers() const { return op().dot; }
  DotDimensionNumbers* mutable_dot_dimension_numbers() {
    return &mutable_op().dot;
  }

  const GatherDimensionNumbers& gather_dimension_numbers() const {
    return op().gather;
  }
  GatherDimensionNumbers* mutable_gather_dimension_numbers() {
    return &mutable_op().gather;
  }
  /// gather slice_sizes={...}.
  const std::vector<int64_t>& gather_slice_sizes() const {
    return op().slice_sizes;
  }
  void set_gather_slice_sizes(std::vector<int64_t> s) {
    mutable_op().slice_sizes = std::move(s);
  }

  const ScatterDimensionNumbers& scatter_dimension_numbers() const {
    return op().scatter;
  }
  ScatterDimensionNumbers* mutable_scatter_dimension_numbers() {
    return &mutable_op().scatter;
  }
  bool indices_are_sorted() const { return op().indices_are_sorted; }
  void set_indices_are_sorted(bool v) { mutable_op().indices_are_sorted = v; }
  bool unique_indices() const { return op().unique_indices; }
  void set_unique_indices(bool v) { mutable_op().unique_indices = v; }

  const ConvolutionDimensionNumbers& convolution_dimension_numbers() const {
    return op().conv;
  }
  void set_convolution_dimension_numbers(ConvolutionDimensionNumbers c) {
    mutable_op().conv = std::move(c);
    mutable_op().has_conv = true;
  }
  bool has_convolution_dimension_numbers() const { return op().has_conv; }
  int64_t feature_group_count() const { return op().feature_group_count; }
  void set_feature_group_count(int64_t n) {
    mutable_op().feature_group_count = n;
  }
  int64_t batch_group_count() const { return op().batch_group_count; }
  void set_batch_group_count(int64_t n) { mutable_op().batch_group_count = n; }

  /// dynamic-slice dynamic_slice_sizes={...}.
  const std::vector<int64_t>& dynamic_slice_sizes() const {
    return op().dynamic_slice_sizes;
  }
  void set_dynamic_slice_sizes(std::vector<int64_t> s) {
    mutable_op().dynamic_slice_sizes = std::move(s);
  }

  /// compare direction= (and type=, e.g. TOTALORDER, kept as text).
  ComparisonDirection comparison_direction() const { return direction_; }
  void set_comparison_direction(ComparisonDirection d) { direction_ = d; }

  /// sort is_stable=.
  bool is_stable() const { return op().is_stable; }
  void set_is_stable(bool v) { mutable_op().is_stable = v; }

  /// reduce-precision exponent_bits= / mantissa_bits=.
  int64_t exponent_bits() const { return op().exponent_bits; }
  int64_t mantissa_bits() const { return op().mantissa_bits; }
  void set_exponent_bits(int64_t n) { mutable_op().exponent_bits = n; }
  void set_mantissa_bits(int64_t n) { mutable_op().mantissa_bits = n; }

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
  friend class HloComputation;  // RenameInstruction keeps its name index.
  // The typed attributes of the less common ops (slice, pad, windows, dot,
  // gather, scatter, convolution, ...). They are allocated on first set, so
  // that an instruction of a large module costs about 250 bytes rather than
  // 1.5 KB; the getters read a shared default when none was set.
  struct OpAttributes {
    std::vector<SliceDimension> slice;
    PaddingConfig padding_config;
    Window window;
    bool has_window = false;
    DotDimensionNumbers dot;
    GatherDimensionNumbers gather;
    std::vector<int64_t> slice_sizes;
    ScatterDimensionNumbers scatter;
    bool indices_are_sorted = false;
    bool unique_indices = false;
    ConvolutionDimensionNumbers conv;
    bool has_conv = false;
    int64_t feature_group_count = 1;
    int64_t batch_group_count = 1;
    std::vector<int64_t> dynamic_slice_sizes;
    bool is_stable = false;
    int64_t exponent_bits = 0;
    int64_t mantissa_bits = 0;
  };
  const OpAttributes& op() const;
  OpAttributes& mutable_op();

  std::string name_;
  HloOpcode opcode_;
  ComparisonDirection direction_ = ComparisonDirection::kEq;
  bool has_dimensions_ = false;
  std::string opcode_name_;
  // Shared: a module repeats a few shapes many times, and the parser gives
  // every instruction with the same written shape the same object.
  std::shared_ptr<const Shape> shape_;
  std::vector<HloInstruction*> operands_;
  HloComputation* parent_ = nullptr;
  int64_t source_line_ = 0;
  int64_t source_column_ = 0;
  std::vector<HloAttribute> attributes_;

  int64_t parameter_number_ = 0;
  int64_t iota_dimension_ = 0;
  int64_t tuple_index_ = 0;
  std::vector<int64_t> dimensions_;
  std::string fusion_kind_;
  std::vector<CalledComputation> called_;
  std::unique_ptr<Literal> literal_;
  std::unique_ptr<OpAttributes> op_attributes_;
};

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_INSTRUCTION_H_
