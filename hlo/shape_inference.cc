#include "hlo/shape_inference.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "hlo/module.h"

namespace xla_index {
namespace {

using Dims = std::vector<int64_t>;

absl::Status Invalid(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

std::string ListText(absl::Span<const int64_t> values) {
  return absl::StrCat("{", absl::StrJoin(values, ","), "}");
}

absl::Status CheckOperandCount(const HloInstruction& inst, int64_t expected) {
  if (inst.operand_count() != expected) {
    return Invalid(absl::StrCat(inst.opcode_name(), " expects ", expected,
                                " operand(s), got ", inst.operand_count()));
  }
  return absl::OkStatus();
}

absl::Status CheckArrayOperands(const HloInstruction& inst) {
  for (int64_t i = 0; i < inst.operand_count(); ++i) {
    if (!inst.operand(i)->shape().IsArray()) {
      return Invalid(absl::StrCat("operand ", i, " ('", inst.operand(i)->name(),
                                  "') must be an array, not ",
                                  inst.operand(i)->shape().ToString()));
    }
  }
  return absl::OkStatus();
}

// Dimension numbers `values` (named `what`) must lie in [0, rank) and be
// distinct; when `sorted`, also strictly increasing.
absl::Status CheckDimensionNumbers(absl::Span<const int64_t> values,
                                   int64_t rank, absl::string_view what,
                                   bool sorted = false) {
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < values.size(); ++i) {
    int64_t d = values[i];
    if (d < 0 || d >= rank) {
      return Invalid(absl::StrCat(what, " ", ListText(values), " has ", d,
                                  ", expected a dimension in [0, ", rank, ")"));
    }
    if (seen[d]) {
      return Invalid(absl::StrCat(what, " ", ListText(values), " repeats ", d));
    }
    if (sorted && i > 0 && values[i - 1] > d) {
      return Invalid(
          absl::StrCat(what, " ", ListText(values), " must be sorted"));
    }
    seen[d] = true;
  }
  return absl::OkStatus();
}

// Attributes come from user text and may be as large as int64 allows, so
// every size computed from them uses the checked helpers, and an overflow is
// reported as bad input rather than wrapped.
absl::StatusOr<int64_t> SizeOrOverflow(std::optional<int64_t> size) {
  if (!size.has_value()) {
    return Invalid("a size computed from the attributes overflows int64");
  }
  return *size;
}

absl::StatusOr<int64_t> Add(int64_t a, int64_t b) {
  return SizeOrOverflow(CheckedAdd(a, b));
}

absl::StatusOr<int64_t> Mul(int64_t a, int64_t b) {
  return SizeOrOverflow(CheckedMul(a, b));
}

bool Contains(absl::Span<const int64_t> values, int64_t v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// The written element type when one was written, else `fallback`.
PrimitiveType WrittenTypeOr(const HloInstruction& inst,
                            PrimitiveType fallback) {
  return inst.shape().IsArray() ? inst.shape().element_type() : fallback;
}

absl::StatusOr<Shape> WrittenShape(const HloInstruction& inst) {
  if (inst.shape().element_type() == PrimitiveType::kInvalid) {
    return Invalid(
        absl::StrCat(inst.opcode_name(), " needs a written result shape"));
  }
  return inst.shape();
}

// bitcast-convert from B to B' bits (XLA's operation-semantics
// documentation): for B > B' a new minor dimension of size B/B' appears; for
// B < B' the last dimension must be B'/B and is dropped.
absl::StatusOr<Shape> InferBitcastConvert(const HloInstruction& inst) {
  if (inst.shape().element_type() == PrimitiveType::kInvalid) {
    return Invalid("bitcast-convert needs a written result shape");
  }
  const Shape& in = inst.operand(0)->shape();
  PrimitiveType to = inst.shape().element_type();
  int64_t from_bits = BitWidth(in.element_type());
  int64_t to_bits = BitWidth(to);
  if (!in.IsArray() || !inst.shape().IsArray() || from_bits == 0 ||
      to_bits == 0) {
    return Invalid(
        absl::StrCat("bitcast-convert converts an array to an array "
                     "of sized elements, not ",
                     in.ToString(false), " to ", inst.shape().ToString(false)));
  }
  Dims dims(in.dimensions().begin(), in.dimensions().end());
  if (from_bits > to_bits) {
    dims.push_back(from_bits / to_bits);
  } else if (from_bits < to_bits) {
    if (dims.empty() || dims.back() * from_bits != to_bits) {
      return Invalid(absl::StrCat(
          "bitcast-convert from ", PrimitiveTypeName(in.element_type()), " to ",
          PrimitiveTypeName(to), " needs a last dimension of size ",
          to_bits / from_bits));
    }
    dims.pop_back();
  }
  return Shape(to, dims);
}

// One operand: the result has the operand's dimensions; only the element
// type may change (pred for is-finite, the real part's type for real/imag of
// a complex, the written type for convert).
absl::StatusOr<Shape> InferElementwiseUnary(const HloInstruction& inst) {
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 1));
  const Shape& in = inst.operand(0)->shape();
  Shape out = in;
  out.clear_layout();
  switch (inst.opcode()) {
    case HloOpcode::kIsFinite:
      if (!IsFloatingPoint(in.element_type())) {
        return Invalid("is-finite needs a floating-point operand");
      }
      out.set_element_type(PrimitiveType::kPred);
      break;
    case HloOpcode::kAbs:  // |x| of a complex x is real.
    case HloOpcode::kReal:
    case HloOpcode::kImag:
      if (in.element_type() == PrimitiveType::kC64) {
        out.set_element_type(PrimitiveType::kF32);
      } else if (in.element_type() == PrimitiveType::kC128) {
        out.set_element_type(PrimitiveType::kF64);
      }
      break;
    case HloOpcode::kConvert:
      if (inst.shape().element_type() == PrimitiveType::kInvalid) {
        return Invalid("convert needs a written result shape (its type)");
      }
      out.set_element_type(inst.shape().element_type());
      break;
    case HloOpcode::kBitcastConvert:
      return InferBitcastConvert(inst);
    case HloOpcode::kNot:
      if (IsFloatingPoint(in.element_type()) || IsComplex(in.element_type())) {
        return Invalid("not needs a pred or integer operand");
      }
      break;
    default:
      break;
  }
  return out;
}

// Two operands of the same dimensions and element type (XLA's verifier does
// not broadcast implicitly); compare yields pred and complex(f32, f32) c64.
absl::StatusOr<Shape> InferElementwiseBinary(const HloInstruction& inst) {
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 2));
  const Shape& lhs = inst.operand(0)->shape();
  const Shape& rhs = inst.operand(1)->shape();
  if (!lhs.SameDimensions(rhs)) {
    return Invalid(absl::StrCat(
        "operands of ", inst.opcode_name(), " must have the same dimensions: ",
        lhs.ToString(false), " vs ", rhs.ToString(false)));
  }
  if (lhs.element_type() != rhs.element_type()) {
    return Invalid(
        absl::StrCat("operands of ", inst.opcode_name(),
                     " must have the same element type: ", lhs.ToString(false),
                     " vs ", rhs.ToString(false)));
  }
  Shape out = lhs;
  out.clear_layout();
  if (inst.opcode() == HloOpcode::kCompare) {
    out.set_element_type(PrimitiveType::kPred);
  } else if (inst.opcode() == HloOpcode::kComplex) {
    if (lhs.element_type() == PrimitiveType::kF32) {
      out.set_element_type(PrimitiveType::kC64);
    } else if (lhs.element_type() == PrimitiveType::kF64) {
      out.set_element_type(PrimitiveType::kC128);
    } else {
      return Invalid("complex needs f32 or f64 operands");
    }
  }
  return out;
}

// select(pred, on_true, on_false): the shape of on_true; pred is a scalar or
// has on_true's dimensions.
absl::StatusOr<Shape> InferSelect(const HloInstruction& inst) {
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 3));
  const Shape& pred = inst.operand(0)->shape();
  const Shape& on_true = inst.operand(1)->shape();
  const Shape& on_false = inst.operand(2)->shape();
  if (pred.element_type() != PrimitiveType::kPred) {
    return Invalid("select's first operand must be of type pred");
  }
  if (!on_true.CompatibleWith(on_false)) {
    return Invalid(absl::StrCat(
        "select's on_true and on_false differ: ", on_true.ToString(false),
        " vs ", on_false.ToString(false)));
  }
  if (!pred.IsScalar() && !pred.SameDimensions(on_true)) {
    return Invalid(
        "select's predicate must be a scalar or have the "
        "dimensions of on_true");
  }
  Shape out = on_true;
  out.clear_layout();
  return out;
}

// clamp(min, x, max): the shape of x; min and max are scalars or x-shaped.
absl::StatusOr<Shape> InferClamp(const HloInstruction& inst) {
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 3));
  const Shape& min = inst.operand(0)->shape();
  const Shape& x = inst.operand(1)->shape();
  const Shape& max = inst.operand(2)->shape();
  for (const Shape* bound : {&min, &max}) {
    if (bound->element_type() != x.element_type() ||
        (!bound->IsScalar() && !bound->SameDimensions(x))) {
      return Invalid(
          "clamp's min and max must be scalars or arrays of "
          "the operand's shape and type");
    }
  }
  Shape out = x;
  out.clear_layout();
  return out;
}

absl::StatusOr<Shape> InferElementwise(const HloInstruction& inst) {
  HloOpcode op = inst.opcode();
  // XLA copies whole tuples too (a deep copy of each element).
  if (op == HloOpcode::kCopy && inst.operand_count() == 1 &&
      inst.operand(0)->shape().IsTuple()) {
    Shape out = inst.operand(0)->shape();
    out.clear_layout();
    return out;
  }
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  if (IsElementwiseUnary(op)) return InferElementwiseUnary(inst);
  if (IsElementwiseBinary(op)) return InferElementwiseBinary(inst);
  if (op == HloOpcode::kSelect) return InferSelect(inst);
  if (op == HloOpcode::kClamp) return InferClamp(inst);
  return Invalid("not an elementwise op");
}

absl::StatusOr<Shape> InferReduce(const HloInstruction& inst) {
  int64_t n = inst.operand_count() / 2;
  if (inst.operand_count() == 0 || inst.operand_count() % 2 != 0) {
    return Invalid(
        absl::StrCat("reduce expects N inputs and N init values, "
                     "got ",
                     inst.operand_count(), " operands"));
  }
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  const Shape& first = inst.operand(0)->shape();
  XI_RETURN_IF_ERROR(CheckDimensionNumbers(inst.dimensions(), first.rank(),
                                           "reduce dimensions"));
  std::vector<Shape> outs;
  for (int64_t i = 0; i < n; ++i) {
    const Shape& input = inst.operand(i)->shape();
    const Shape& init = inst.operand(n + i)->shape();
    if (!input.SameDimensions(first)) {
      return Invalid("all reduce inputs must have the same dimensions");
    }
    if (!init.IsScalar() || init.element_type() != input.element_type()) {
      return Invalid(absl::StrCat("reduce init value ", i,
                                  " must be a scalar of type ",
                                  PrimitiveTypeName(input.element_type())));
    }
    Dims dims;
    for (int64_t d = 0; d < input.rank(); ++d) {
      if (!Contains(inst.dimensions(), d)) dims.push_back(input.dimensions(d));
    }
    outs.emplace_back(input.element_type(), dims);
  }
  if (const HloComputation* reducer = inst.to_apply()) {
    if (static_cast<int64_t>(reducer->parameters().size()) != 2 * n) {
      return Invalid(absl::StrCat("reducer '", reducer->name(), "' has ",
                                  reducer->parameters().size(),
                                  " parameters, expected ", 2 * n));
    }
  }
  if (n == 1) return outs[0];
  return Shape::MakeTuple(outs);
}

// Number of valid window positions along one dimension of size `size`:
// the operand dilated ((size - 1) * base_dilation + 1) and padded, and the
// window dilated ((window - 1) * window_dilation + 1).
absl::StatusOr<int64_t> WindowOutputSize(int64_t size,
                                         const WindowDimension& w) {
  int64_t dilated = 0;
  if (size > 0) {
    XI_ASSIGN_OR_RETURN(int64_t span, Mul(size - 1, w.base_dilation));
    dilated = span + 1;
  }
  XI_ASSIGN_OR_RETURN(int64_t low_padded, Add(dilated, w.padding_low));
  XI_ASSIGN_OR_RETURN(int64_t padded, Add(low_padded, w.padding_high));
  XI_ASSIGN_OR_RETURN(int64_t window, Mul(w.size - 1, w.window_dilation));
  if (padded <= window) return int64_t{0};
  return (padded - window - 1) / w.stride + 1;
}

absl::Status CheckWindow(const Window& window, int64_t rank) {
  if (static_cast<int64_t>(window.dimensions.size()) != rank) {
    return Invalid(absl::StrCat("window has ", window.dimensions.size(),
                                " dimensions, expected ", rank));
  }
  for (const WindowDimension& w : window.dimensions) {
    if (w.size < 1 || w.stride < 1 || w.base_dilation < 1 ||
        w.window_dilation < 1) {
      return Invalid("window sizes, strides and dilations must be >= 1");
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Shape> InferReduceWindow(const HloInstruction& inst) {
  int64_t n = inst.operand_count() / 2;
  if (inst.operand_count() == 0 || inst.operand_count() % 2 != 0) {
    return Invalid("reduce-window expects N inputs and N init values");
  }
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  const Shape& first = inst.operand(0)->shape();
  // A scalar reduce-window has a window of no dimensions, which XLA lets the
  // text leave out.
  if (!inst.has_window() && first.rank() > 0) {
    return Invalid("reduce-window needs window={...}");
  }
  Window window = inst.has_window() ? inst.window() : Window();
  XI_RETURN_IF_ERROR(CheckWindow(window, first.rank()));
  std::vector<Shape> outs;
  for (int64_t i = 0; i < n; ++i) {
    const Shape& input = inst.operand(i)->shape();
    const Shape& init = inst.operand(n + i)->shape();
    if (!input.SameDimensions(first)) {
      return Invalid(
          "all reduce-window inputs must have the same "
          "dimensions");
    }
    if (!init.IsScalar() || init.element_type() != input.element_type()) {
      return Invalid(absl::StrCat("reduce-window init value ", i,
                                  " must be a scalar of type ",
                                  PrimitiveTypeName(input.element_type())));
    }
    Dims dims;
    for (int64_t d = 0; d < input.rank(); ++d) {
      XI_ASSIGN_OR_RETURN(int64_t size, WindowOutputSize(input.dimensions(d),
                                                         window.dimensions[d]));
      dims.push_back(size);
    }
    outs.emplace_back(input.element_type(), dims);
  }
  if (n == 1) return outs[0];
  return Shape::MakeTuple(outs);
}

// The dot of operands 0 and 1 (dot itself, and scaled-dot's operands).
absl::StatusOr<Shape> InferDotOfFirstTwo(const HloInstruction& inst) {
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  const Shape& lhs = inst.operand(0)->shape();
  const Shape& rhs = inst.operand(1)->shape();
  const DotDimensionNumbers& d = inst.dot_dimension_numbers();
  if (d.lhs_batch_dimensions.size() != d.rhs_batch_dimensions.size()) {
    return Invalid("lhs_batch_dims and rhs_batch_dims differ in length");
  }
  if (d.lhs_contracting_dimensions.size() !=
      d.rhs_contracting_dimensions.size()) {
    return Invalid(
        "lhs_contracting_dims and rhs_contracting_dims differ in length");
  }
  Dims lhs_used = d.lhs_batch_dimensions;
  lhs_used.insert(lhs_used.end(), d.lhs_contracting_dimensions.begin(),
                  d.lhs_contracting_dimensions.end());
  Dims rhs_used = d.rhs_batch_dimensions;
  rhs_used.insert(rhs_used.end(), d.rhs_contracting_dimensions.begin(),
                  d.rhs_contracting_dimensions.end());
  XI_RETURN_IF_ERROR(CheckDimensionNumbers(lhs_used, lhs.rank(),
                                           "lhs batch + contracting dims"));
  XI_RETURN_IF_ERROR(CheckDimensionNumbers(rhs_used, rhs.rank(),
                                           "rhs batch + contracting dims"));
  for (size_t i = 0; i < lhs_used.size(); ++i) {
    if (lhs.dimensions(lhs_used[i]) != rhs.dimensions(rhs_used[i])) {
      return Invalid(absl::StrCat("lhs dimension ", lhs_used[i], " (size ",
                                  lhs.dimensions(lhs_used[i]),
                                  ") must match rhs dimension ", rhs_used[i],
                                  " (size ", rhs.dimensions(rhs_used[i]), ")"));
    }
  }
  // XLA's operation-semantics documentation: batch dimensions, then lhs free,
  // then rhs free.
  Dims dims;
  for (int64_t b : d.lhs_batch_dimensions) dims.push_back(lhs.dimensions(b));
  for (int64_t i = 0; i < lhs.rank(); ++i) {
    if (!Contains(lhs_used, i)) dims.push_back(lhs.dimensions(i));
  }
  for (int64_t i = 0; i < rhs.rank(); ++i) {
    if (!Contains(rhs_used, i)) dims.push_back(rhs.dimensions(i));
  }
  return Shape(WrittenTypeOr(inst, lhs.element_type()), dims);
}

absl::StatusOr<Shape> InferDot(const HloInstruction& inst) {
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 2));
  return InferDotOfFirstTwo(inst);
}

// scaled-dot(lhs, rhs, lhs_scale, rhs_scale): a dot of lhs and rhs, each
// scaled per block; a scale has its operand's rank and each of its sizes
// divides the operand's (the block size is the quotient).
absl::StatusOr<Shape> InferScaledDot(const HloInstruction& inst) {
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 4));
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  for (int64_t k = 0; k < 2; ++k) {
    const Shape& operand = inst.operand(k)->shape();
    const Shape& scale = inst.operand(k + 2)->shape();
    const char* name = k == 0 ? "lhs" : "rhs";
    if (scale.rank() != operand.rank()) {
      return Invalid(absl::StrCat("the ", name, " scale has rank ",
                                  scale.rank(), ", the ", name, " rank ",
                                  operand.rank()));
    }
    for (int64_t d = 0; d < operand.rank(); ++d) {
      if (scale.dimensions(d) < 1 ||
          operand.dimensions(d) % scale.dimensions(d) != 0) {
        return Invalid(absl::StrCat("the ", name, " scale's dimension ", d,
                                    " (size ", scale.dimensions(d),
                                    ") does not divide the ", name, "'s (size ",
                                    operand.dimensions(d), ")"));
      }
    }
  }
  return InferDotOfFirstTwo(inst);
}

// The batching dims of gather (operand_batching_dims,
// start_indices_batching_dims) and scatter (input_batching_dims,
// scatter_indices_batching_dims), with the constraints of XLA's shape
// inference and StableHLO's specification: the operand's batching dims are
// sorted, distinct, in range and disjoint from its collapsed (inserted)
// dims and from the start-index map; the indices' batching dims are
// distinct, in range and not index_vector_dim; the two lists pair up one
// to one with equal sizes, and each operand batching dim has slice size
// <= 1 (gather; scatter's windows leave them out).
struct BatchingDims {
  absl::Span<const int64_t> operand_dims;
  absl::Span<const int64_t> indices_dims;
  const char* operand_name;
  const char* indices_name;
  absl::Span<const int64_t> collapsed;
  const char* collapsed_name;
  absl::Span<const int64_t> index_map;
  const char* index_map_name;
};

absl::Status CheckDisjoint(absl::Span<const int64_t> a, const char* a_name,
                           absl::Span<const int64_t> b, const char* b_name) {
  for (int64_t d : a) {
    if (Contains(b, d)) {
      return Invalid(absl::StrCat(a_name, " ", ListText(a), " and ", b_name,
                                  " ", ListText(b), " share dimension ", d));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckBatchingDims(const BatchingDims& b, const Shape& operand,
                               const Shape& indices, int64_t index_vector_dim) {
  XI_RETURN_IF_ERROR(CheckDimensionNumbers(b.operand_dims, operand.rank(),
                                           b.operand_name, true));
  XI_RETURN_IF_ERROR(
      CheckDimensionNumbers(b.indices_dims, indices.rank(), b.indices_name));
  if (b.operand_dims.size() != b.indices_dims.size()) {
    return Invalid(absl::StrCat(
        b.operand_name, " ", ListText(b.operand_dims), " and ", b.indices_name,
        " ", ListText(b.indices_dims), " must have the same length"));
  }
  if (Contains(b.indices_dims, index_vector_dim)) {
    return Invalid(absl::StrCat(b.indices_name, " ", ListText(b.indices_dims),
                                " must not contain index_vector_dim ",
                                index_vector_dim));
  }
  XI_RETURN_IF_ERROR(CheckDisjoint(b.operand_dims, b.operand_name, b.collapsed,
                                   b.collapsed_name));
  XI_RETURN_IF_ERROR(CheckDisjoint(b.operand_dims, b.operand_name, b.index_map,
                                   b.index_map_name));
  for (size_t i = 0; i < b.operand_dims.size(); ++i) {
    int64_t size = operand.dimensions(b.operand_dims[i]);
    int64_t indices_size = indices.dimensions(b.indices_dims[i]);
    if (size != indices_size) {
      return Invalid(absl::StrCat(
          b.operand_name, "[", i, "] = ", b.operand_dims[i], " (size ", size,
          ") and ", b.indices_name, "[", i, "] = ", b.indices_dims[i],
          " (size ", indices_size, ") must have equal sizes"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Shape> InferGather(const HloInstruction& inst) {
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 2));
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  const Shape& operand = inst.operand(0)->shape();
  const Shape& indices = inst.operand(1)->shape();
  const GatherDimensionNumbers& g = inst.gather_dimension_numbers();
  const Dims& slice_sizes = inst.gather_slice_sizes();
  if (!IsIntegral(indices.element_type())) {
    return Invalid("gather indices must be integers");
  }
  if (g.index_vector_dim < 0 || g.index_vector_dim > indices.rank()) {
    return Invalid(absl::StrCat("index_vector_dim ", g.index_vector_dim,
                                " must be in [0, ", indices.rank(), "]"));
  }
  // index_vector_dim == rank means an implicit trailing dimension of 1.
  int64_t index_vector_size = g.index_vector_dim == indices.rank()
                                  ? 1
                                  : indices.dimensions(g.index_vector_dim);
  if (static_cast<int64_t>(slice_sizes.size()) != operand.rank()) {
    return Invalid(absl::StrCat("slice_sizes has ", slice_sizes.size(),
                                " entries, expected the operand rank ",
                                operand.rank()));
  }
  for (int64_t i = 0; i < operand.rank(); ++i) {
    if (slice_sizes[i] < 0 || slice_sizes[i] > operand.dimensions(i)) {
      return Invalid(absl::StrCat("slice_sizes[", i, "] = ", slice_sizes[i],
                                  " must be in [0, ", operand.dimensions(i),
                                  "]"));
    }
  }
  XI_RETURN_IF_ERROR(CheckDimensionNumbers(
      g.collapsed_slice_dims, operand.rank(), "collapsed_slice_dims", true));
  for (int64_t d : g.collapsed_slice_dims) {
    if (slice_sizes[d] > 1) {
      return Invalid(absl::StrCat("collapsed slice dimension ", d,
                                  " must have slice size <= 1, has ",
                                  slice_sizes[d]));
    }
  }
  if (static_cast<int64_t>(g.start_index_map.size()) != index_vector_size) {
    return Invalid(absl::StrCat("start_index_map has ",
                                g.start_index_map.size(), " entries, expected ",
                                index_vector_size, " (the index vector size)"));
  }
  XI_RETURN_IF_ERROR(CheckDimensionNumbers(g.start_index_map, operand.rank(),
                                           "start_index_map"));
  XI_RETURN_IF_ERROR(
      CheckBatchingDims({g.operand_batching_dims, g.start_indices_batching_dims,
                         "operand_batching_dims", "start_indices_batching_dims",
                         g.collapsed_slice_dims, "collapsed_slice_dims",
                         g.start_index_map, "start_index_map"},
                        operand, indices, g.index_vector_dim));
  for (int64_t d : g.operand_batching_dims) {
    if (slice_sizes[d] > 1) {
      return Invalid(absl::StrCat("operand batching dimension ", d,
                                  " must have slice size <= 1, has ",
                                  slice_sizes[d]));
    }
  }
  int64_t offset_count = operand.rank() -
                         static_cast<int64_t>(g.collapsed_slice_dims.size()) -
                         static_cast<int64_t>(g.operand_batching_dims.size());
  if (static_cast<int64_t>(g.offset_dims.size()) != offset_count) {
    return Invalid(absl::StrCat(
        "operand rank ", operand.rank(),
        " must equal offset_dims.size + "
        "collapsed_slice_dims.size (+ operand_batching_dims.size), got ",
        g.offset_dims.size(), " + ", g.collapsed_slice_dims.size()));
  }
  int64_t batch_count =
      indices.rank() - (g.index_vector_dim == indices.rank() ? 0 : 1);
  int64_t out_rank = batch_count + offset_count;
  XI_RETURN_IF_ERROR(
      CheckDimensionNumbers(g.offset_dims, out_rank, "offset_dims", true));
  Dims batch_sizes;
  for (int64_t i = 0; i < indices.rank(); ++i) {
    if (i != g.index_vector_dim) batch_sizes.push_back(indices.dimensions(i));
  }
  Dims offset_sizes;
  for (int64_t i = 0; i < operand.rank(); ++i) {
    if (!Contains(g.collapsed_slice_dims, i) &&
        !Contains(g.operand_batching_dims, i)) {
      offset_sizes.push_back(slice_sizes[i]);
    }
  }
  Dims dims;
  size_t next_batch = 0, next_offset = 0;
  for (int64_t i = 0; i < out_rank; ++i) {
    if (Contains(g.offset_dims, i)) {
      dims.push_back(offset_sizes[next_offset++]);
    } else {
      dims.push_back(batch_sizes[next_batch++]);
    }
  }
  return Shape(operand.element_type(), dims);
}

absl::StatusOr<Shape> InferScatter(const HloInstruction& inst) {
  if (inst.operand_count() < 3 || inst.operand_count() % 2 != 1) {
    return Invalid("scatter expects N operands, the indices and N updates");
  }
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  int64_t n = (inst.operand_count() - 1) / 2;
  const Shape& operand = inst.operand(0)->shape();
  const Shape& indices = inst.operand(n)->shape();
  const ScatterDimensionNumbers& d = inst.scatter_dimension_numbers();
  if (!IsIntegral(indices.element_type())) {
    return Invalid("scatter indices must be integers");
  }
  if (d.index_vector_dim < 0 || d.index_vector_dim > indices.rank()) {
    return Invalid(absl::StrCat("index_vector_dim ", d.index_vector_dim,
                                " must be in [0, ", indices.rank(), "]"));
  }
  int64_t index_vector_size = d.index_vector_dim == indices.rank()
                                  ? 1
                                  : indices.dimensions(d.index_vector_dim);
  int64_t scatter_rank =
      indices.rank() - (d.index_vector_dim == indices.rank() ? 0 : 1);
  std::vector<Shape> outs;
  for (int64_t k = 0; k < n; ++k) {
    const Shape& op_k = inst.operand(k)->shape();
    const Shape& updates = inst.operand(n + 1 + k)->shape();
    if (!op_k.SameDimensions(operand)) {
      return Invalid("all scatter operands must have the same dimensions");
    }
    int64_t expected_rank =
        static_cast<int64_t>(d.update_window_dims.size()) + scatter_rank;
    if (updates.rank() != expected_rank) {
      return Invalid(absl::StrCat("updates rank ", updates.rank(),
                                  " must be update_window_dims.size + "
                                  "scatter dims = ",
                                  expected_rank));
    }
    XI_RETURN_IF_ERROR(CheckDimensionNumbers(
        d.update_window_dims, updates.rank(), "update_window_dims", true));
    XI_RETURN_IF_ERROR(CheckDimensionNumbers(
        d.inserted_window_dims, operand.rank(), "inserted_window_dims", true));
    if (operand.rank() != static_cast<int64_t>(d.update_window_dims.size() +
                                               d.inserted_window_dims.size() +
                                               d.input_batching_dims.size())) {
      return Invalid(
          "operand rank must equal update_window_dims.size + "
          "inserted_window_dims.size + input_batching_dims.size");
    }
    if (static_cast<int64_t>(d.scatter_dims_to_operand_dims.size()) !=
        index_vector_size) {
      return Invalid(absl::StrCat("scatter_dims_to_operand_dims has ",
                                  d.scatter_dims_to_operand_dims.size(),
                                  " entries, expected ", index_vector_size));
    }
    XI_RETURN_IF_ERROR(CheckDimensionNumbers(d.scatter_dims_to_operand_dims,
                                             operand.rank(),
                                             "scatter_dims_to_operand_dims"));
    XI_RETURN_IF_ERROR(CheckBatchingDims(
        {d.input_batching_dims, d.scatter_indices_batching_dims,
         "input_batching_dims", "scatter_indices_batching_dims",
         d.inserted_window_dims, "inserted_window_dims",
         d.scatter_dims_to_operand_dims, "scatter_dims_to_operand_dims"},
        operand, indices, d.index_vector_dim));
    // Window bounds: update dims in update_window_dims must not exceed the
    // operand's dims that are not inserted; scatter dims match indices.
    Dims window_bounds;
    for (int64_t i = 0; i < operand.rank(); ++i) {
      if (!Contains(d.inserted_window_dims, i) &&
          !Contains(d.input_batching_dims, i)) {
        window_bounds.push_back(operand.dimensions(i));
      }
    }
    Dims scatter_bounds;
    for (int64_t i = 0; i < indices.rank(); ++i) {
      if (i != d.index_vector_dim)
        scatter_bounds.push_back(indices.dimensions(i));
    }
    size_t w = 0, s = 0;
    for (int64_t i = 0; i < updates.rank(); ++i) {
      if (Contains(d.update_window_dims, i)) {
        if (updates.dimensions(i) > window_bounds[w]) {
          return Invalid(absl::StrCat(
              "updates dimension ", i, " (size ", updates.dimensions(i),
              ") exceeds the operand window bound ", window_bounds[w]));
        }
        ++w;
      } else {
        if (updates.dimensions(i) != scatter_bounds[s]) {
          return Invalid(absl::StrCat(
              "updates dimension ", i, " (size ", updates.dimensions(i),
              ") must equal the indices' size ", scatter_bounds[s]));
        }
        ++s;
      }
    }
    Shape out = op_k;
    out.clear_layout();
    outs.push_back(out);
  }
  if (n == 1) return outs[0];
  return Shape::MakeTuple(outs);
}

absl::StatusOr<Shape> InferConvolution(const HloInstruction& inst) {
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 2));
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  const Shape& lhs = inst.operand(0)->shape();
  const Shape& rhs = inst.operand(1)->shape();
  if (!inst.has_convolution_dimension_numbers()) {
    return Invalid("convolution needs dim_labels=...");
  }
  const ConvolutionDimensionNumbers& c = inst.convolution_dimension_numbers();
  int64_t spatial = static_cast<int64_t>(c.input_spatial_dimensions.size());
  if (lhs.rank() != spatial + 2 || rhs.rank() != spatial + 2) {
    return Invalid(absl::StrCat("convolution operands must have rank ",
                                spatial + 2, " (dim_labels)"));
  }
  Window window;
  if (inst.has_window()) {
    window = inst.window();
  } else {
    for (int64_t k : c.kernel_spatial_dimensions) {
      WindowDimension w;
      w.size = rhs.dimensions(k);
      window.dimensions.push_back(w);
    }
  }
  XI_RETURN_IF_ERROR(CheckWindow(window, spatial));
  int64_t fgc = inst.feature_group_count();
  int64_t bgc = inst.batch_group_count();
  if (fgc < 1 || bgc < 1) return Invalid("group counts must be >= 1");
  if (fgc > 1 && bgc > 1) {
    // As XLA's shape inference: the two groupings cannot be combined.
    return Invalid(absl::StrCat("feature_group_count (", fgc,
                                ") and batch_group_count (", bgc,
                                ") cannot both be greater than 1"));
  }
  int64_t input_features = lhs.dimensions(c.input_feature_dimension);
  int64_t kernel_input = rhs.dimensions(c.kernel_input_feature_dimension);
  int64_t kernel_output = rhs.dimensions(c.kernel_output_feature_dimension);
  XI_ASSIGN_OR_RETURN(int64_t grouped_features, Mul(kernel_input, fgc));
  if (input_features != grouped_features) {
    return Invalid(absl::StrCat("input features (", input_features,
                                ") must equal kernel input features (",
                                kernel_input, ") * feature_group_count (", fgc,
                                ")"));
  }
  if (kernel_output % fgc != 0 || kernel_output % bgc != 0) {
    return Invalid(
        "kernel output features must be divisible by the group "
        "counts");
  }
  int64_t batch = lhs.dimensions(c.input_batch_dimension);
  if (batch % bgc != 0) {
    return Invalid("input batch must be divisible by batch_group_count");
  }
  for (int64_t i = 0; i < spatial; ++i) {
    if (window.dimensions[i].size !=
        rhs.dimensions(c.kernel_spatial_dimensions[i])) {
      return Invalid(
          absl::StrCat("window size ", window.dimensions[i].size,
                       " differs from kernel spatial size ",
                       rhs.dimensions(c.kernel_spatial_dimensions[i])));
    }
  }
  Dims dims(spatial + 2, 0);
  dims[c.output_batch_dimension] = batch / bgc;
  dims[c.output_feature_dimension] = kernel_output;
  for (int64_t i = 0; i < spatial; ++i) {
    XI_ASSIGN_OR_RETURN(
        int64_t size,
        WindowOutputSize(lhs.dimensions(c.input_spatial_dimensions[i]),
                         window.dimensions[i]));
    dims[c.output_spatial_dimensions[i]] = size;
  }
  return Shape(WrittenTypeOr(inst, lhs.element_type()), dims);
}

absl::StatusOr<Shape> InferCalled(const HloInstruction& inst,
                                  const HloComputation* callee) {
  if (callee == nullptr) return WrittenShape(inst);
  std::vector<HloInstruction*> params = callee->parameters();
  if (static_cast<int64_t>(params.size()) != inst.operand_count()) {
    return Invalid(absl::StrCat("'", callee->name(), "' has ", params.size(),
                                " parameters but ", inst.operand_count(),
                                " operands are passed"));
  }
  for (size_t i = 0; i < params.size(); ++i) {
    if (!params[i]->shape().CompatibleWith(inst.operand(i)->shape())) {
      return Invalid(absl::StrCat("operand ", i, " has shape ",
                                  inst.operand(i)->shape().ToString(false),
                                  " but parameter ", i, " of '", callee->name(),
                                  "' is ", params[i]->shape().ToString(false)));
    }
  }
  Shape out = callee->root()->shape();
  out.clear_layout();
  return out;
}

absl::StatusOr<Shape> InferIota(const HloInstruction& inst) {
  XI_ASSIGN_OR_RETURN(Shape shape, WrittenShape(inst));
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 0));
  if (!shape.IsArray() || inst.iota_dimension() < 0 ||
      inst.iota_dimension() >= std::max<int64_t>(shape.rank(), 1)) {
    return Invalid(absl::StrCat("iota_dimension ", inst.iota_dimension(),
                                " is out of range"));
  }
  return shape;
}

absl::StatusOr<Shape> InferBroadcast(const HloInstruction& inst) {
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 1));
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  XI_ASSIGN_OR_RETURN(Shape out, WrittenShape(inst));
  const Shape& in = inst.operand(0)->shape();
  if (static_cast<int64_t>(inst.dimensions().size()) != in.rank()) {
    return Invalid(absl::StrCat("broadcast dimensions ",
                                ListText(inst.dimensions()),
                                " must have one entry per operand "
                                "dimension (",
                                in.rank(), ")"));
  }
  XI_RETURN_IF_ERROR(CheckDimensionNumbers(inst.dimensions(), out.rank(),
                                           "broadcast dimensions"));
  for (int64_t i = 0; i < in.rank(); ++i) {
    if (in.dimensions(i) != out.dimensions(inst.dimensions()[i])) {
      return Invalid(
          absl::StrCat("operand dimension ", i, " (size ", in.dimensions(i),
                       ") must equal output dimension ", inst.dimensions()[i],
                       " (size ", out.dimensions(inst.dimensions()[i]), ")"));
    }
  }
  Shape result = out;
  result.set_element_type(in.element_type());
  result.clear_layout();
  return result;
}

absl::StatusOr<Shape> InferReshapeOrBitcast(const HloInstruction& inst) {
  HloOpcode op = inst.opcode();
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 1));
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  XI_ASSIGN_OR_RETURN(Shape out, WrittenShape(inst));
  const Shape& in = inst.operand(0)->shape();
  if (op == HloOpcode::kReshape && out.ElementCount() != in.ElementCount()) {
    return Invalid(absl::StrCat(
        "reshape must keep the element count: ", in.ToString(false), " has ",
        in.ElementCount(), ", ", out.ToString(false), " has ",
        out.ElementCount()));
  }
  Shape result = out;
  if (op == HloOpcode::kReshape) result.set_element_type(in.element_type());
  result.clear_layout();
  return result;
}

absl::StatusOr<Shape> InferTranspose(const HloInstruction& inst) {
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 1));
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  const Shape& in = inst.operand(0)->shape();
  if (static_cast<int64_t>(inst.dimensions().size()) != in.rank()) {
    return Invalid(
        absl::StrCat("transpose dimensions ", ListText(inst.dimensions()),
                     " must be a permutation of ", in.rank(), " dimensions"));
  }
  XI_RETURN_IF_ERROR(CheckDimensionNumbers(inst.dimensions(), in.rank(),
                                           "transpose dimensions"));
  // XLA's operation-semantics documentation: input_dimensions[permutation[i]] =
  // output_dimensions[i].
  Dims dims;
  for (int64_t p : inst.dimensions()) dims.push_back(in.dimensions(p));
  return Shape(in.element_type(), dims);
}

absl::StatusOr<Shape> InferReverse(const HloInstruction& inst) {
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 1));
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  const Shape& in = inst.operand(0)->shape();
  XI_RETURN_IF_ERROR(CheckDimensionNumbers(inst.dimensions(), in.rank(),
                                           "reverse dimensions"));
  Shape out = in;
  out.clear_layout();
  return out;
}

absl::StatusOr<Shape> InferSlice(const HloInstruction& inst) {
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 1));
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  const Shape& in = inst.operand(0)->shape();
  if (static_cast<int64_t>(inst.slice().size()) != in.rank()) {
    return Invalid(absl::StrCat("slice has ", inst.slice().size(),
                                " ranges, expected the operand rank ",
                                in.rank()));
  }
  Dims dims;
  for (int64_t i = 0; i < in.rank(); ++i) {
    const SliceDimension& s = inst.slice()[i];
    if (s.start < 0 || s.start > s.limit || s.limit > in.dimensions(i) ||
        s.stride < 1) {
      return Invalid(absl::StrCat("slice range [", s.start, ":", s.limit, ":",
                                  s.stride, "] of dimension ", i,
                                  " must satisfy 0 <= start <= limit <= ",
                                  in.dimensions(i), " and stride >= 1"));
    }
    // ceil((limit - start) / stride), written so it cannot overflow.
    int64_t span = s.limit - s.start;
    dims.push_back(span == 0 ? 0 : (span - 1) / s.stride + 1);
  }
  return Shape(in.element_type(), dims);
}

// The start indices of dynamic-slice and dynamic-update-slice, operands
// `first` on: one integer scalar per dimension of `operand`, or XLA's older
// form, one integer vector with an entry per dimension
// (HloParserImpl::ParseInstructionRhs reads both). `expects` begins the
// message of a wrong count.
absl::Status CheckStartIndices(const HloInstruction& inst, int64_t first,
                               const Shape& operand,
                               absl::string_view expects) {
  const int64_t count = inst.operand_count() - first;
  if (count == 1 && inst.operand(first)->shape().rank() == 1) {
    const Shape& indices = inst.operand(first)->shape();
    if (indices.dimensions(0) != operand.rank() ||
        !IsIntegral(indices.element_type())) {
      return Invalid(absl::StrCat(
          "the start index vector must be an integer "
          "vector of ",
          operand.rank(), " entries, not ", indices.ToString(false)));
    }
    return absl::OkStatus();
  }
  if (count != operand.rank()) {
    return Invalid(absl::StrCat(expects, operand.rank(),
                                " scalar start indices, got ", count));
  }
  for (int64_t i = first; i < inst.operand_count(); ++i) {
    const Shape& index = inst.operand(i)->shape();
    if (!index.IsScalar() || !IsIntegral(index.element_type())) {
      return Invalid(absl::StrCat("start index ", i - first,
                                  " must be an integer scalar"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Shape> InferDynamicSlice(const HloInstruction& inst) {
  if (inst.operand_count() < 1)
    return Invalid("dynamic-slice needs an operand");
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  const Shape& in = inst.operand(0)->shape();
  XI_RETURN_IF_ERROR(
      CheckStartIndices(inst, 1, in, "dynamic-slice expects the operand and "));
  const Dims& sizes = inst.dynamic_slice_sizes();
  if (static_cast<int64_t>(sizes.size()) != in.rank()) {
    return Invalid(absl::StrCat("dynamic_slice_sizes has ", sizes.size(),
                                " entries, expected ", in.rank()));
  }
  for (int64_t i = 0; i < in.rank(); ++i) {
    if (sizes[i] < 0 || sizes[i] > in.dimensions(i)) {
      return Invalid(absl::StrCat("dynamic_slice_sizes[", i, "] = ", sizes[i],
                                  " must be in [0, ", in.dimensions(i), "]"));
    }
  }
  return Shape(in.element_type(), sizes);
}

absl::StatusOr<Shape> InferDynamicUpdateSlice(const HloInstruction& inst) {
  if (inst.operand_count() < 2) {
    return Invalid("dynamic-update-slice needs an operand and an update");
  }
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  const Shape& in = inst.operand(0)->shape();
  const Shape& update = inst.operand(1)->shape();
  XI_RETURN_IF_ERROR(CheckStartIndices(
      inst, 2, in,
      "dynamic-update-slice expects the operand, the update and "));
  if (update.rank() != in.rank() ||
      update.element_type() != in.element_type()) {
    return Invalid("the update must have the operand's rank and type");
  }
  for (int64_t i = 0; i < in.rank(); ++i) {
    if (update.dimensions(i) > in.dimensions(i)) {
      return Invalid(
          absl::StrCat("update dimension ", i, " (size ", update.dimensions(i),
                       ") exceeds the operand's size ", in.dimensions(i)));
    }
  }
  Shape out = in;
  out.clear_layout();
  return out;
}

absl::StatusOr<Shape> InferConcatenate(const HloInstruction& inst) {
  if (inst.operand_count() < 1) return Invalid("concatenate needs operands");
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  const Shape& first = inst.operand(0)->shape();
  if (inst.dimensions().size() != 1) {
    return Invalid("concatenate needs dimensions={d} with one entry");
  }
  int64_t dim = inst.dimensions()[0];
  if (first.rank() == 0 || dim < 0 || dim >= first.rank()) {
    return Invalid(absl::StrCat("concatenate dimension ", dim,
                                " must be in [0, ", first.rank(), ")"));
  }
  Dims dims(first.dimensions().begin(), first.dimensions().end());
  dims[dim] = 0;
  for (int64_t k = 0; k < inst.operand_count(); ++k) {
    const Shape& s = inst.operand(k)->shape();
    if (s.rank() != first.rank() || s.element_type() != first.element_type()) {
      return Invalid(
          "concatenate operands must have the same rank and "
          "type");
    }
    for (int64_t i = 0; i < s.rank(); ++i) {
      if (i != dim && s.dimensions(i) != first.dimensions(i)) {
        return Invalid(absl::StrCat("operand ", k, " differs in dimension ", i,
                                    " (", s.dimensions(i), " vs ",
                                    first.dimensions(i), ")"));
      }
    }
    XI_ASSIGN_OR_RETURN(int64_t sum, Add(dims[dim], s.dimensions(dim)));
    dims[dim] = sum;
  }
  return Shape(first.element_type(), dims);
}

absl::StatusOr<Shape> InferPad(const HloInstruction& inst) {
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 2));
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  const Shape& in = inst.operand(0)->shape();
  const Shape& value = inst.operand(1)->shape();
  if (!value.IsScalar() || value.element_type() != in.element_type()) {
    return Invalid(
        "the padding value must be a scalar of the operand's "
        "type");
  }
  const PaddingConfig& config = inst.padding_config();
  if (static_cast<int64_t>(config.size()) != in.rank()) {
    return Invalid(absl::StrCat("padding has ", config.size(),
                                " dimensions, expected ", in.rank()));
  }
  Dims dims;
  for (int64_t i = 0; i < in.rank(); ++i) {
    const PaddingDimension& p = config[i];
    if (p.interior < 0) {
      return Invalid("interior padding must not be negative");
    }
    int64_t d = in.dimensions(i);
    // low + high + d + (d - 1) * interior, each step checked.
    XI_ASSIGN_OR_RETURN(int64_t interior,
                        Mul(std::max<int64_t>(d - 1, 0), p.interior));
    XI_ASSIGN_OR_RETURN(int64_t size, Add(interior, d));
    XI_ASSIGN_OR_RETURN(size, Add(size, p.low));
    XI_ASSIGN_OR_RETURN(size, Add(size, p.high));
    if (size < 0) {
      return Invalid(absl::StrCat("padding of dimension ", i,
                                  " leaves a negative size ", size));
    }
    dims.push_back(size);
  }
  return Shape(in.element_type(), dims);
}

absl::StatusOr<Shape> InferMap(const HloInstruction& inst) {
  if (inst.operand_count() < 1) return Invalid("map needs operands");
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  const Shape& first = inst.operand(0)->shape();
  for (int64_t k = 1; k < inst.operand_count(); ++k) {
    if (!inst.operand(k)->shape().SameDimensions(first)) {
      return Invalid("map operands must have the same dimensions");
    }
  }
  PrimitiveType type = WrittenTypeOr(inst, first.element_type());
  if (const HloComputation* f = inst.to_apply()) {
    if (static_cast<int64_t>(f->parameters().size()) != inst.operand_count()) {
      return Invalid("map's computation must take one scalar per operand");
    }
    if (!f->root()->shape().IsScalar()) {
      return Invalid("map's computation must return a scalar");
    }
    type = f->root()->shape().element_type();
  }
  Shape out = first;
  out.set_element_type(type);
  out.clear_layout();
  return out;
}

absl::StatusOr<Shape> InferSort(const HloInstruction& inst) {
  if (inst.operand_count() < 1) return Invalid("sort needs operands");
  XI_RETURN_IF_ERROR(CheckArrayOperands(inst));
  const Shape& first = inst.operand(0)->shape();
  int64_t dim =
      inst.dimensions().empty() ? first.rank() - 1 : inst.dimensions()[0];
  if (dim < 0 || dim >= std::max<int64_t>(first.rank(), 1)) {
    return Invalid(absl::StrCat("sort dimension ", dim, " is out of range"));
  }
  std::vector<Shape> outs;
  for (int64_t k = 0; k < inst.operand_count(); ++k) {
    Shape s = inst.operand(k)->shape();
    if (!s.SameDimensions(first)) {
      return Invalid("sort operands must have the same dimensions");
    }
    s.clear_layout();
    outs.push_back(s);
  }
  if (outs.size() == 1) return outs[0];
  return Shape::MakeTuple(outs);
}

absl::StatusOr<Shape> InferTuple(const HloInstruction& inst) {
  // XLA's parser reads as many operands as the written tuple has elements
  // and keeps the written shape (HloParserImpl::ParseInstructionRhs,
  // kTuple: CreateVariadic, not CreateTuple); the analyses give no map for
  // an element that differs from its operand.
  if (inst.shape().IsTuple() && inst.shape().tuple_shapes().size() ==
                                    static_cast<size_t>(inst.operand_count())) {
    return inst.shape();
  }
  std::vector<Shape> elements;
  elements.reserve(inst.operand_count());
  for (const HloInstruction* operand : inst.operands()) {
    elements.push_back(operand->shape());
    elements.back().clear_layout();
  }
  return Shape::MakeTuple(std::move(elements));
}

absl::StatusOr<Shape> InferGetTupleElement(const HloInstruction& inst) {
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 1));
  const Shape& in = inst.operand(0)->shape();
  if (!in.IsTuple()) {
    return Invalid("get-tuple-element needs a tuple operand");
  }
  int64_t index = inst.tuple_index();
  if (index < 0 || index >= static_cast<int64_t>(in.tuple_shapes().size())) {
    return Invalid(absl::StrCat("index=", index, " is out of range for ",
                                in.ToString(false)));
  }
  return in.tuple_shapes(index);
}

// all-gather-start and collective-permute-start, XLA's asynchronous forms:
// a tuple whose element 0 is the operand (the buffer the collective reads;
// a tuple of them for several all-gather operands) and element 1 the
// synchronous op's result (kept as written: collectives have no inference
// rule). collective-permute-start may add context elements (u32[] in XLA),
// and its in-place form (operands input, output and offsets) is kept as
// written.
absl::StatusOr<Shape> InferCollectiveStart(const HloInstruction& inst) {
  XI_ASSIGN_OR_RETURN(Shape written, WrittenShape(inst));
  const bool permute = inst.opcode() == HloOpcode::kCollectivePermuteStart;
  if (inst.operand_count() < 1) {
    return Invalid(absl::StrCat(inst.opcode_name(), " needs an operand"));
  }
  const int64_t size = written.IsTuple()
                           ? static_cast<int64_t>(written.tuple_shapes().size())
                           : 0;
  if (size < 2 || (!permute && size != 2)) {
    return Invalid(absl::StrCat(
        inst.opcode_name(), " returns a tuple of the operand and the result",
        permute ? " (and contexts)" : "", ", not ", written.ToString(false)));
  }
  if (permute && inst.operand_count() > 1) return written;
  std::vector<Shape> operands;
  for (const HloInstruction* operand : inst.operands()) {
    operands.push_back(operand->shape());
  }
  const Shape operand_shape =
      operands.size() == 1 ? operands[0] : Shape::MakeTuple(operands);
  if (!written.tuple_shapes(0).CompatibleWith(operand_shape)) {
    return Invalid(absl::StrCat("element 0 of ", inst.opcode_name(),
                                "'s result must be its operand ",
                                operand_shape.ToString(false), ", is ",
                                written.tuple_shapes(0).ToString(false)));
  }
  return written;
}

// async-start (XLA's async wrapper of any op): its written shape, which
// must be a tuple (operands' tuple, result, contexts...) with a tuple first
// (HloParserImpl::ParseInstructionRhs, kAsyncStart: "AsyncStart and
// AsyncUpdate expect the shape to be in the form of ((operand0_shape, ...),
// output_shape, ...)"). XLA's parser leaves the operands and the called
// computation to bind later (an async-update may pass more operands, the
// result buffer may come later), so they are not checked against it here;
// the indexing of an async-start checks what it relies on.
absl::StatusOr<Shape> InferAsyncStart(const HloInstruction& inst) {
  XI_ASSIGN_OR_RETURN(Shape written, WrittenShape(inst));
  if (inst.fused_computation() == nullptr) {
    return Invalid("async-start needs calls= naming its computation");
  }
  if (!written.IsTuple() || written.tuple_shapes().size() < 2 ||
      !written.tuple_shapes(0).IsTuple()) {
    return Invalid(absl::StrCat(
        "async-start returns a tuple (operands' tuple, result, contexts...) "
        "whose first element is a tuple, not ",
        written.ToString(false)));
  }
  return written;
}

// all-gather-done, collective-permute-done and async-done return element 1
// of their start (the result); all-reduce-done returns its start's shape.
absl::StatusOr<Shape> InferAsyncDone(const HloInstruction& inst) {
  XI_RETURN_IF_ERROR(CheckOperandCount(inst, 1));
  Shape start = inst.operand(0)->shape();
  if (inst.opcode() != HloOpcode::kAllReduceDone) {
    if (!start.IsTuple() || start.tuple_shapes().size() < 2) {
      return Invalid(absl::StrCat(inst.opcode_name(),
                                  " needs its start's tuple, not ",
                                  start.ToString(false)));
    }
    start = start.tuple_shapes(1);
  }
  start.clear_layout();
  return start;
}

// Ops the library does not model keep their written shape, except where
// XLA infers one the text may leave out: a conditional returns what its
// branches return.
absl::StatusOr<Shape> InferUnmodelled(const HloInstruction& inst) {
  if (inst.shape().element_type() != PrimitiveType::kInvalid ||
      inst.opcode_name() != "conditional") {
    return WrittenShape(inst);
  }
  for (const CalledComputation& called : inst.called_computations()) {
    if (called.computation != nullptr) {
      Shape out = called.computation->root()->shape();
      out.clear_layout();
      return out;
    }
  }
  return Invalid("conditional needs a written result shape or its branches");
}

// One inference rule per opcode or op family; ops with no rule (collectives,
// custom-call, while, ...) keep their written shape.
absl::StatusOr<Shape> InferShapeUnchecked(const HloInstruction& inst) {
  HloOpcode op = inst.opcode();
  if (IsElementwise(op)) return InferElementwise(inst);
  switch (op) {
    case HloOpcode::kParameter:
    case HloOpcode::kConstant:
      return WrittenShape(inst);
    case HloOpcode::kUnknown:
      return InferUnmodelled(inst);
    case HloOpcode::kIota:
      return InferIota(inst);
    case HloOpcode::kBroadcast:
      return InferBroadcast(inst);
    case HloOpcode::kReshape:
    case HloOpcode::kBitcast:
      return InferReshapeOrBitcast(inst);
    case HloOpcode::kTranspose:
      return InferTranspose(inst);
    case HloOpcode::kReverse:
      return InferReverse(inst);
    case HloOpcode::kSlice:
      return InferSlice(inst);
    case HloOpcode::kDynamicSlice:
      return InferDynamicSlice(inst);
    case HloOpcode::kDynamicUpdateSlice:
      return InferDynamicUpdateSlice(inst);
    case HloOpcode::kConcatenate:
      return InferConcatenate(inst);
    case HloOpcode::kPad:
      return InferPad(inst);
    case HloOpcode::kReduce:
      return InferReduce(inst);
    case HloOpcode::kReduceWindow:
      return InferReduceWindow(inst);
    case HloOpcode::kDot:
      return InferDot(inst);
    case HloOpcode::kScaledDot:
      return InferScaledDot(inst);
    case HloOpcode::kGather:
      return InferGather(inst);
    case HloOpcode::kScatter:
      return InferScatter(inst);
    case HloOpcode::kConvolution:
      return InferConvolution(inst);
    case HloOpcode::kMap:
      return InferMap(inst);
    case HloOpcode::kSort:
      return InferSort(inst);
    case HloOpcode::kTuple:
      return InferTuple(inst);
    case HloOpcode::kGetTupleElement:
      return InferGetTupleElement(inst);
    case HloOpcode::kCall:
    case HloOpcode::kFusion:
      return InferCalled(inst, inst.fused_computation());
    case HloOpcode::kAllGatherStart:
    case HloOpcode::kCollectivePermuteStart:
      return InferCollectiveStart(inst);
    case HloOpcode::kAllGatherDone:
    case HloOpcode::kAllReduceDone:
    case HloOpcode::kCollectivePermuteDone:
      return InferAsyncDone(inst);
    case HloOpcode::kAsyncDone:
      // XLA's parser requires async-done's shape written ("Async op ...
      // must have an explicit shape") and takes it as written: its operand
      // may reach the start through a loop or copies.
      return WrittenShape(inst);
    case HloOpcode::kAsyncStart:
      return InferAsyncStart(inst);
    default:
      return WrittenShape(inst);
  }
}

// The inferred shape must itself be representable, as a written one must
// be (shape_parser.cc): its element count and its size in bytes (one byte
// at least per element) fit in int64, for each tuple element.
absl::Status CheckRepresentable(const Shape& shape) {
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      XI_RETURN_IF_ERROR(CheckRepresentable(element));
    }
    return absl::OkStatus();
  }
  std::optional<int64_t> count = CheckedProduct(shape.dimensions());
  if (!count.has_value()) {
    return Invalid(absl::StrCat("the result ", shape.ToString(false),
                                " has more elements than fit in int64"));
  }
  if (!CheckedMul(*count,
                  std::max<int64_t>(1, ByteSize(shape.element_type())))) {
    return Invalid(absl::StrCat("the result ", shape.ToString(false), " has ",
                                *count, " elements of ",
                                BitWidth(shape.element_type()),
                                " bits, which overflow int64 as a size in "
                                "bytes"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Shape> InferShape(const HloInstruction& inst) {
  // No rule computes with an unbounded `?` dimension (it has no size): such
  // an instruction keeps its written shape, as XLA's parser takes it
  // (HloParserImpl::ParseInstructionRhs, e.g. kReshape skips its element
  // count check for an unbounded operand); the indexing analyses say why
  // they give no map for it.
  bool unbounded = inst.shape().HasUnboundedDimension();
  for (const HloInstruction* operand : inst.operands()) {
    unbounded = unbounded || operand->shape().HasUnboundedDimension();
  }
  if (unbounded) return WrittenShape(inst);
  XI_ASSIGN_OR_RETURN(Shape shape, InferShapeUnchecked(inst));
  XI_RETURN_IF_ERROR(CheckRepresentable(shape));
  return shape;
}

}  // namespace xla_index
