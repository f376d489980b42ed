#include "hlo/evaluator.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "hlo/shape_inference.h"

namespace xla_index {
namespace {

using Index = std::vector<int64_t>;

absl::Status Unsupported(const HloInstruction& inst, absl::string_view why) {
  return absl::UnimplementedError(absl::StrCat("evaluator: instruction '",
                                               inst.name(), "' (",
                                               inst.opcode_name(), "): ", why));
}

// The dims of [0, rank) in neither `a` nor `b`, increasing.
Index DimsNotIn(int64_t rank, const Index& a, const Index& b) {
  Index dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (absl::c_count(a, d) == 0 && absl::c_count(b, d) == 0) {
      dims.push_back(d);
    }
  }
  return dims;
}

// Gather's and scatter's batch index G lists the indices' dims other than
// index_vector_dim in order; indices dim `indices_batching_dims[i]` is
// G's entry number result[i].
Index BatchPositions(const Index& indices_batching_dims,
                     int64_t index_vector_dim) {
  Index positions;
  for (int64_t d : indices_batching_dims) {
    positions.push_back(d < index_vector_dim ? d : d - 1);
  }
  return positions;
}

Literal ScalarFrom(const Literal& from, int64_t i) {
  Literal scalar(Shape(from.shape().element_type(), {}));
  scalar.CopyElement(from, i, 0);
  return scalar;
}

// The window of one output position of a reduce-window or convolution,
// walked offset by offset. Along window dimension d, window offset k_d of
// output position o_d sits at
//   pos_d = o_d * stride_d + k_d * window_dilation_d - padding_low_d
// in the padded, base-dilated operand, and reads operand element
//   in_d = pos_d / base_dilation_d
// when 0 <= pos_d, pos_d % base_dilation_d == 0 and in_d < input_size_d.
// Otherwise (or when pos_d does not fit in int64) the offset falls in
// padding or in a hole between base-dilated elements and reads nothing.
class WindowWalk {
 public:
  // `dims[d]` walks `sizes[d]` offsets over an operand dimension of
  // `input_sizes[d]` elements, for d < input_sizes.size().
  WindowWalk(absl::Span<const WindowDimension> dims, Index sizes,
             Index input_sizes)
      : dims_(dims),
        sizes_(std::move(sizes)),
        input_sizes_(std::move(input_sizes)) {
    for (int64_t size : sizes_) count_ *= size;
  }

  // Number of window offsets.
  int64_t count() const { return count_; }

  // Window offset number `r`, row-major over the window sizes.
  Index Offset(int64_t r) const { return MultiIndex(sizes_, r); }

  // The operand element `in` read at window `offset` of output position
  // `out` (both one entry per window dimension); false when it falls in
  // padding or between base-dilated elements (`in` is then partial).
  bool Source(absl::Span<const int64_t> out, absl::Span<const int64_t> offset,
              Index* in) const {
    in->resize(input_sizes_.size());
    for (size_t d = 0; d < input_sizes_.size(); ++d) {
      const WindowDimension& wd = dims_[d];
      std::optional<int64_t> strided = CheckedMul(out[d], wd.stride);
      std::optional<int64_t> dilated =
          CheckedMul(offset[d], wd.window_dilation);
      std::optional<int64_t> pos =
          strided && dilated ? CheckedAdd(*strided, *dilated) : std::nullopt;
      if (pos) pos = CheckedSub(*pos, wd.padding_low);
      if (!pos || *pos < 0 || *pos % wd.base_dilation != 0 ||
          *pos / wd.base_dilation >= input_sizes_[d]) {
        return false;
      }
      (*in)[d] = *pos / wd.base_dilation;
    }
    return true;
  }

 private:
  absl::Span<const WindowDimension> dims_;
  Index sizes_;
  Index input_sizes_;
  int64_t count_ = 1;
};

// IEEE half precision bits of `value` (already rounded to f16 when it
// was stored): 1 sign, 5 exponent (bias 15), 10 mantissa bits.
uint64_t HalfBits(double value) {
  uint64_t sign = std::signbit(value) ? 0x8000 : 0;
  double a = std::fabs(value);
  if (std::isnan(value)) return 0x7e00;
  if (std::isinf(a)) return sign | 0x7c00;
  if (a == 0) return sign;
  int exponent = 0;
  std::frexp(a, &exponent);
  int unbiased = exponent - 1;
  if (unbiased < -14) {  // Subnormal: multiples of 2^-24.
    return sign | static_cast<uint64_t>(std::ldexp(a, 24));
  }
  uint64_t mantissa =
      static_cast<uint64_t>(std::ldexp(std::ldexp(a, -unbiased) - 1, 10));
  return sign | (static_cast<uint64_t>(unbiased + 15) << 10) | mantissa;
}

double HalfValue(uint64_t bits) {
  double sign = (bits & 0x8000) ? -1 : 1;
  int exponent = static_cast<int>((bits >> 10) & 0x1f);
  double mantissa = static_cast<double>(bits & 0x3ff);
  if (exponent == 0x1f) return mantissa == 0 ? sign * INFINITY : NAN;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(1 + mantissa / 1024, exponent - 15);
}

// The raw bits of element i, as they sit in memory (low BitWidth bits).
absl::StatusOr<uint64_t> ElementBits(const Literal& literal, int64_t i) {
  PrimitiveType type = literal.shape().element_type();
  uint64_t mask =
      BitWidth(type) >= 64 ? ~uint64_t{0} : (uint64_t{1} << BitWidth(type)) - 1;
  if (IsIntegral(type) || type == PrimitiveType::kPred) {
    return static_cast<uint64_t>(literal.GetInt(i)) & mask;
  }
  double value = literal.GetDouble(i);
  switch (type) {
    case PrimitiveType::kF64: {
      uint64_t bits;
      std::memcpy(&bits, &value, 8);
      return bits;
    }
    case PrimitiveType::kF32:
    case PrimitiveType::kBF16: {
      float f = static_cast<float>(value);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      return type == PrimitiveType::kF32 ? bits : bits >> 16;
    }
    case PrimitiveType::kF16:
      return HalfBits(value);
    default:
      return absl::UnimplementedError(absl::StrCat(
          "evaluator: bits of ", PrimitiveTypeName(type), " values"));
  }
}

absl::Status SetElementBits(Literal& literal, int64_t i, uint64_t bits) {
  PrimitiveType type = literal.shape().element_type();
  if (IsIntegral(type) || type == PrimitiveType::kPred) {
    literal.SetInt(i, static_cast<int64_t>(bits));
    return absl::OkStatus();
  }
  switch (type) {
    case PrimitiveType::kF64: {
      double value;
      std::memcpy(&value, &bits, 8);
      literal.SetDouble(i, value);
      return absl::OkStatus();
    }
    case PrimitiveType::kF32:
    case PrimitiveType::kBF16: {
      uint32_t word = static_cast<uint32_t>(
          type == PrimitiveType::kF32 ? bits : bits << 16);
      float value;
      std::memcpy(&value, &word, 4);
      literal.SetDouble(i, value);
      return absl::OkStatus();
    }
    case PrimitiveType::kF16:
      literal.SetDouble(i, HalfValue(bits));
      return absl::OkStatus();
    default:
      return absl::UnimplementedError(absl::StrCat(
          "evaluator: bits of ", PrimitiveTypeName(type), " values"));
  }
}

// Applies a scalar computation (reducer, comparator, map function).
absl::StatusOr<Literal> Apply(const HloInstruction& inst,
                              const HloComputation* f,
                              const std::vector<Literal>& args) {
  if (f == nullptr) {
    return Unsupported(inst, "its computation is not defined");
  }
  return EvaluateComputation(*f, args);
}

// Float to integer conversion as XLA does it: truncate toward zero, saturate
// at the target type's range, and map NaN to 0.
int64_t ConvertFloatToInt(double v, PrimitiveType out_type) {
  int64_t width = BitWidth(out_type);
  bool is_signed = IsSignedIntegral(out_type);
  double lo = is_signed ? -std::ldexp(1.0, width - 1) : 0.0;
  double hi =
      is_signed ? std::ldexp(1.0, width - 1) - 1 : std::ldexp(1.0, width) - 1;
  if (std::isnan(v)) v = 0;
  v = std::min(std::max(std::trunc(v), lo), hi);
  // Values at or above 2^63 only fit as u64 bit patterns.
  if (v >= 9.2233720368547758e18) {
    return static_cast<int64_t>(static_cast<uint64_t>(v));
  }
  return static_cast<int64_t>(v);
}

// A one-operand float op on x, computed in double; nullopt when `op` has no
// float meaning here. reduce-precision needs the instruction's bit counts.
std::optional<double> FloatUnary(const HloInstruction& inst, double x) {
  switch (inst.opcode()) {
    case HloOpcode::kAbs:
      return std::fabs(x);
    case HloOpcode::kCbrt:
      return std::cbrt(x);
    case HloOpcode::kCeil:
      return std::ceil(x);
    case HloOpcode::kCos:
      return std::cos(x);
    case HloOpcode::kErf:
      return std::erf(x);
    case HloOpcode::kExp:
      return std::exp(x);
    case HloOpcode::kExpm1:
      return std::expm1(x);
    case HloOpcode::kFloor:
      return std::floor(x);
    case HloOpcode::kLog:
      return std::log(x);
    case HloOpcode::kLog1p:
      return std::log1p(x);
    case HloOpcode::kLogistic:
      return 1 / (1 + std::exp(-x));
    case HloOpcode::kNegate:
      return -x;
    case HloOpcode::kRoundNearestAfz:
      return std::round(x);
    case HloOpcode::kRoundNearestEven:
      return std::nearbyint(x);
    case HloOpcode::kRsqrt:
      return 1 / std::sqrt(x);
    case HloOpcode::kSign:
      return std::isnan(x) ? x : x > 0 ? 1.0 : x < 0 ? -1.0 : x;
    case HloOpcode::kSin:
      return std::sin(x);
    case HloOpcode::kSqrt:
      return std::sqrt(x);
    case HloOpcode::kTan:
      return std::tan(x);
    case HloOpcode::kTanh:
      return std::tanh(x);
    case HloOpcode::kIsFinite:
      return std::isfinite(x) ? 1 : 0;
    case HloOpcode::kReducePrecision:
      return RoundToFloatFormat(x, inst.exponent_bits(), inst.mantissa_bits());
    default:
      return std::nullopt;
  }
}

// A one-operand integer op on x of type `type` (`bits` wide); `ux` is x's
// bit pattern in the low `bits` bits, so negation and bit counts wrap and
// count within the type's width, not int64's.
std::optional<int64_t> IntUnary(HloOpcode op, PrimitiveType type, int64_t bits,
                                int64_t x) {
  uint64_t ux = static_cast<uint64_t>(x);
  if (bits < 64) ux &= (uint64_t{1} << bits) - 1;
  switch (op) {
    case HloOpcode::kAbs:
      return x < 0 ? -x : x;
    case HloOpcode::kNegate:
      return static_cast<int64_t>(0 - ux);
    case HloOpcode::kSign:
      return x > 0 ? 1 : x < 0 ? -1 : 0;
    case HloOpcode::kNot:
      return type == PrimitiveType::kPred ? !x : ~x;
    case HloOpcode::kPopulationCount:
      return __builtin_popcountll(ux);
    case HloOpcode::kClz:
      return ux == 0 ? bits : __builtin_clzll(ux) - (64 - bits);
    default:
      return std::nullopt;
  }
}

template <typename T>
bool Compare(ComparisonDirection direction, T a, T b) {
  switch (direction) {
    case ComparisonDirection::kEq:
      return a == b;
    case ComparisonDirection::kNe:
      return a != b;
    case ComparisonDirection::kGe:
      return a >= b;
    case ComparisonDirection::kGt:
      return a > b;
    case ComparisonDirection::kLe:
      return a <= b;
    case ComparisonDirection::kLt:
      return a < b;
  }
  return false;
}

// A two-operand float op; maximum and minimum propagate NaN, as XLA's do.
std::optional<double> FloatBinary(HloOpcode op, double a, double b) {
  switch (op) {
    case HloOpcode::kAdd:
      return a + b;
    case HloOpcode::kSubtract:
      return a - b;
    case HloOpcode::kMultiply:
      return a * b;
    case HloOpcode::kDivide:
      return a / b;
    case HloOpcode::kRemainder:
      return std::fmod(a, b);
    case HloOpcode::kMaximum:
      return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
    case HloOpcode::kMinimum:
      return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
    case HloOpcode::kPower:
      return std::pow(a, b);
    case HloOpcode::kAtan2:
      return std::atan2(a, b);
    default:
      return std::nullopt;
  }
}

// Integer division and remainder with XLA's answers where C++ has none
// (XLA's operation-semantics documentation leaves division by zero
// implementation-defined): x / 0 = -1 (all bits set), x % 0 = x,
// INT_MIN / -1 = INT_MIN, x % -1 = 0; the remainder has the dividend's sign.
int64_t IntDivide(int64_t a, int64_t b, uint64_t ua, uint64_t ub,
                  bool is_unsigned) {
  if (b == 0) return -1;
  if (is_unsigned) return static_cast<int64_t>(ua / ub);
  if (b == -1) return static_cast<int64_t>(0 - ua);
  return a / b;
}

int64_t IntRemainder(int64_t a, int64_t b, uint64_t ua, uint64_t ub,
                     bool is_unsigned) {
  if (b == 0) return a;
  if (is_unsigned) return static_cast<int64_t>(ua % ub);
  if (b == -1) return 0;
  return a % b;
}

// a^b by repeated wrapping multiplication; a negative exponent gives 0 except
// for the bases 1 and -1, whose powers stay integral.
int64_t IntPower(int64_t a, int64_t b, uint64_t ua) {
  if (b < 0) return a == 1 ? 1 : a == -1 ? (b % 2 == 0 ? 1 : -1) : 0;
  int64_t r = 1;
  for (int64_t k = 0; k < b && k < 64; ++k) {
    r = static_cast<int64_t>(static_cast<uint64_t>(r) * ua);
  }
  return r;
}

// A two-operand integer op on values of a `bits`-wide type. Arithmetic is on
// the bit patterns (ua, ub), so it wraps modulo 2^bits as XLA's does; shifts
// by the width or more give 0 (or the sign fill for arithmetic right shift).
std::optional<int64_t> IntBinary(HloOpcode op, int64_t bits, bool is_unsigned,
                                 int64_t a, int64_t b) {
  uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  if (bits < 64) {
    ua &= (uint64_t{1} << bits) - 1;
    ub &= (uint64_t{1} << bits) - 1;
  }
  bool shift_out = ub >= static_cast<uint64_t>(bits);
  switch (op) {
    case HloOpcode::kAdd:
      return static_cast<int64_t>(ua + ub);
    case HloOpcode::kSubtract:
      return static_cast<int64_t>(ua - ub);
    case HloOpcode::kMultiply:
      return static_cast<int64_t>(ua * ub);
    case HloOpcode::kDivide:
      return IntDivide(a, b, ua, ub, is_unsigned);
    case HloOpcode::kRemainder:
      return IntRemainder(a, b, ua, ub, is_unsigned);
    case HloOpcode::kMaximum:
      return is_unsigned ? static_cast<int64_t>(std::max(ua, ub))
                         : std::max(a, b);
    case HloOpcode::kMinimum:
      return is_unsigned ? static_cast<int64_t>(std::min(ua, ub))
                         : std::min(a, b);
    case HloOpcode::kAnd:
      return a & b;
    case HloOpcode::kOr:
      return a | b;
    case HloOpcode::kXor:
      return a ^ b;
    case HloOpcode::kShiftLeft:
      return shift_out ? 0 : static_cast<int64_t>(ua << ub);
    case HloOpcode::kShiftRightLogical:
      return shift_out ? 0 : static_cast<int64_t>(ua >> ub);
    case HloOpcode::kShiftRightArithmetic:
      return shift_out ? (a < 0 ? -1 : 0) : a >> ub;
    case HloOpcode::kPower:
      return IntPower(a, b, ua);
    default:
      return std::nullopt;
  }
}

class OpEvaluator {
 public:
  OpEvaluator(const HloInstruction& inst, absl::Span<const Literal> ops,
              bool trace)
      : inst_(inst), ops_(ops), trace_(trace) {}

  absl::StatusOr<TracedValue> Run();

 private:
  absl::Status Begin(const Shape& shape) {
    int64_t total = 0;
    if (shape.IsTuple()) {
      for (const Shape& e : shape.tuple_shapes()) {
        if (!e.IsArray()) return Unsupported(inst_, "nested tuple result");
        total += e.ElementCount();
      }
    } else if (shape.IsArray()) {
      total = shape.ElementCount();
    } else {
      return Unsupported(inst_, "result is not an array or tuple");
    }
    if (total > kMaxEvaluatedElements) {
      return Unsupported(inst_,
                         "result too large for the reference "
                         "evaluator");
    }
    out_ = Literal(shape);
    if (trace_) {
      if (shape.IsTuple()) {
        for (const Shape& e : shape.tuple_shapes()) {
          reads_.emplace_back(e.ElementCount());
        }
      } else {
        reads_.emplace_back(shape.ElementCount());
      }
    }
    return absl::OkStatus();
  }
  Literal& Out(int64_t t = 0) {
    return out_.shape().IsTuple() ? out_.tuple_elements()[t] : out_;
  }
  void At(int64_t t, int64_t i) {
    cur_t_ = t;
    cur_i_ = i;
  }
  void Note(int64_t k, int64_t t, int64_t i) {
    if (trace_) reads_[cur_t_][cur_i_].push_back({k, t, i});
  }
  double D(int64_t k, int64_t i) {
    Note(k, 0, i);
    return ops_[k].GetDouble(i);
  }
  int64_t I(int64_t k, int64_t i) {
    Note(k, 0, i);
    return ops_[k].GetInt(i);
  }
  // Output element (cur_t_, cur_i_) = operand k element i, bit-exact.
  void CopyIn(int64_t k, int64_t i) {
    Note(k, 0, i);
    Out(cur_t_).CopyElement(ops_[k], i, cur_i_);
  }
  const Shape& OperandShape(int64_t k) const { return ops_[k].shape(); }
  absl::Span<const int64_t> OutDims(int64_t t = 0) {
    return Out(t).shape().dimensions();
  }

  // Elementwise ops, one output element at a time.
  absl::Status Elementwise();
  void ConvertElement(int64_t i);
  absl::Status UnaryElement(int64_t i);
  absl::Status BinaryElement(int64_t i);
  void SelectElement(int64_t i);
  void ClampElement(int64_t i);
  absl::Status BitcastConvert();
  absl::Status Broadcast();
  absl::Status Reshape();
  absl::Status Transpose();
  absl::Status Reverse();
  absl::Status Slice();
  absl::Status DynamicSlice();
  absl::Status DynamicUpdateSlice();
  absl::Status Concatenate();
  absl::Status Pad();
  absl::Status Iota();
  absl::Status Reduce();
  absl::Status ReduceWindow();
  absl::Status Dot();
  absl::Status Convolution();
  absl::Status Gather();
  absl::Status Scatter();
  absl::Status Map();
  absl::Status Sort();
  absl::Status Call(const HloComputation* f);
  absl::Status CheckOperandValues();
  absl::Status Constant();
  absl::Status Tuple();
  absl::Status CopyTuple();
  absl::Status GetTupleElement();
  absl::Status ArrayOp();

  const HloInstruction& inst_;
  absl::Span<const Literal> ops_;
  bool trace_;
  Literal out_;
  std::vector<std::vector<ReadSet>> reads_;
  int64_t cur_t_ = 0;
  int64_t cur_i_ = 0;
};

// convert: floats to integers saturate (ConvertFloatToInt), anything to
// pred is `!= 0`, the rest converts through int64 or double.
void OpEvaluator::ConvertElement(int64_t i) {
  Literal& out = Out();
  PrimitiveType in_type = OperandShape(0).element_type();
  PrimitiveType out_type = out.shape().element_type();
  if (IsIntegral(out_type) && IsFloatingPoint(in_type)) {
    out.SetInt(i, ConvertFloatToInt(D(0, i), out_type));
  } else if (out_type == PrimitiveType::kPred) {
    out.SetInt(i, D(0, i) != 0 ? 1 : 0);
  } else if (IsIntegral(out_type)) {
    out.SetInt(i, I(0, i));
  } else {
    out.SetDouble(i, D(0, i));
  }
}

absl::Status OpEvaluator::UnaryElement(int64_t i) {
  PrimitiveType in_type = OperandShape(0).element_type();
  if (IsFloatingPoint(in_type)) {
    std::optional<double> r = FloatUnary(inst_, D(0, i));
    if (!r.has_value()) {
      return Unsupported(inst_, "op on floating-point values");
    }
    Out().SetDouble(i, *r);
    return absl::OkStatus();
  }
  std::optional<int64_t> r =
      IntUnary(inst_.opcode(), in_type, BitWidth(in_type), I(0, i));
  if (!r.has_value()) return Unsupported(inst_, "op on integer values");
  Out().SetInt(i, *r);
  return absl::OkStatus();
}

absl::Status OpEvaluator::BinaryElement(int64_t i) {
  HloOpcode op = inst_.opcode();
  PrimitiveType in_type = OperandShape(0).element_type();
  bool in_float = IsFloatingPoint(in_type);
  bool in_unsigned = IsUnsignedIntegral(in_type);
  if (op == HloOpcode::kCompare) {
    ComparisonDirection dir = inst_.comparison_direction();
    bool r = false;
    if (in_float) {
      r = Compare(dir, D(0, i), D(1, i));
    } else if (in_unsigned) {
      r = Compare(dir, static_cast<uint64_t>(I(0, i)),
                  static_cast<uint64_t>(I(1, i)));
    } else {
      r = Compare(dir, I(0, i), I(1, i));
    }
    Out().SetInt(i, r ? 1 : 0);
    return absl::OkStatus();
  }
  if (in_float) {
    double a = D(0, i), b = D(1, i);
    std::optional<double> r = FloatBinary(op, a, b);
    if (!r.has_value()) {
      return Unsupported(inst_, "op on floating-point values");
    }
    Out().SetDouble(i, *r);
    return absl::OkStatus();
  }
  int64_t a = I(0, i), b = I(1, i);
  std::optional<int64_t> r =
      IntBinary(op, BitWidth(in_type), in_unsigned, a, b);
  if (!r.has_value()) return Unsupported(inst_, "op on integer values");
  Out().SetInt(i, *r);
  return absl::OkStatus();
}

// select(pred, t, f)[i] = pred[i] ? t[i] : f[i] (pred[0] for a scalar pred).
void OpEvaluator::SelectElement(int64_t i) {
  bool scalar_pred = OperandShape(0).rank() == 0;
  bool pred = I(0, scalar_pred ? 0 : i) != 0;
  // Both branches are inputs of the element: XLA's operation-semantics
  // documentation defines the output from pred, on_true and on_false at
  // the same index.
  Note(1, 0, i);
  Note(2, 0, i);
  Out().CopyElement(ops_[pred ? 1 : 2], i, i);
}

// clamp(a, x, b) = min(max(a, x), b), with scalar bounds broadcast.
void OpEvaluator::ClampElement(int64_t i) {
  int64_t lo_i = OperandShape(0).rank() == 0 ? 0 : i;
  int64_t hi_i = OperandShape(2).rank() == 0 ? 0 : i;
  if (IsFloatingPoint(OperandShape(0).element_type())) {
    Out().SetDouble(i, std::min(std::max(D(0, lo_i), D(1, i)), D(2, hi_i)));
  } else {
    Out().SetInt(i, std::min(std::max(I(0, lo_i), I(1, i)), I(2, hi_i)));
  }
}

absl::Status OpEvaluator::Elementwise() {
  HloOpcode op = inst_.opcode();
  PrimitiveType in_type = OperandShape(0).element_type();
  if (IsComplex(in_type) || IsComplex(Out().shape().element_type())) {
    if (op != HloOpcode::kCopy) return Unsupported(inst_, "complex values");
  }
  for (int64_t i = 0; i < Out().element_count(); ++i) {
    At(0, i);
    if (op == HloOpcode::kCopy || op == HloOpcode::kReal) {
      CopyIn(0, i);
    } else if (op == HloOpcode::kImag) {
      // The imaginary part of a real number is 0.
      Note(0, 0, i);
      Out().SetDouble(i, 0);
    } else if (op == HloOpcode::kConvert) {
      ConvertElement(i);
    } else if (IsElementwiseUnary(op)) {
      XI_RETURN_IF_ERROR(UnaryElement(i));
    } else if (IsElementwiseBinary(op)) {
      XI_RETURN_IF_ERROR(BinaryElement(i));
    } else if (op == HloOpcode::kSelect) {
      SelectElement(i);
    } else if (op == HloOpcode::kClamp) {
      ClampElement(i);
    } else {
      return Unsupported(inst_, "elementwise op");
    }
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::BitcastConvert() {
  // The bytes stay; only their reading changes (XLA's operation-semantics
  // documentation). Between widths B and B', memory order is little-endian as
  // on the hosts XLA runs on: for B > B' element k of the new minor dimension
  // holds bits [k*B', (k+1)*B') of the input element; for B < B' the input's
  // minor dimension of size B'/B is assembled, element k at bits [k*B,
  // (k+1)*B).
  const Literal& in = ops_[0];
  Literal& out = Out();
  int64_t from = BitWidth(in.shape().element_type());
  int64_t to = BitWidth(out.shape().element_type());
  for (int64_t o = 0; o < out.element_count(); ++o) {
    At(0, o);
    uint64_t bits = 0;
    if (from == to) {
      Note(0, 0, o);
      XI_ASSIGN_OR_RETURN(uint64_t b, ElementBits(in, o));
      bits = b;
    } else if (from > to) {
      int64_t ratio = from / to;
      Note(0, 0, o / ratio);
      XI_ASSIGN_OR_RETURN(uint64_t b, ElementBits(in, o / ratio));
      bits = (b >> ((o % ratio) * to)) &
             (to >= 64 ? ~uint64_t{0} : (uint64_t{1} << to) - 1);
    } else {
      int64_t ratio = to / from;
      for (int64_t k = 0; k < ratio; ++k) {
        Note(0, 0, o * ratio + k);
        XI_ASSIGN_OR_RETURN(uint64_t b, ElementBits(in, o * ratio + k));
        bits |= b << (k * from);
      }
    }
    XI_RETURN_IF_ERROR(SetElementBits(out, o, bits));
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::Iota() {
  Literal& out = Out();
  for (int64_t i = 0; i < out.element_count(); ++i) {
    Index index = MultiIndex(OutDims(), i);
    int64_t v = index.empty() ? 0 : index[inst_.iota_dimension()];
    if (IsFloatingPoint(out.shape().element_type())) {
      out.SetDouble(i, static_cast<double>(v));
    } else {
      out.SetInt(i, v);
    }
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::Broadcast() {
  // output[i_0..] = operand[i_dimensions[0], i_dimensions[1], ...].
  const Shape& in = OperandShape(0);
  for (int64_t i = 0; i < Out().element_count(); ++i) {
    At(0, i);
    Index out_index = MultiIndex(OutDims(), i);
    Index in_index(in.rank());
    for (int64_t d = 0; d < in.rank(); ++d) {
      in_index[d] = out_index[inst_.dimensions()[d]];
    }
    CopyIn(0, LinearIndex(in.dimensions(), in_index));
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::Reshape() {
  // XLA's operation-semantics documentation: collapse to row-major order, then
  // refill the new shape.
  for (int64_t i = 0; i < Out().element_count(); ++i) {
    At(0, i);
    CopyIn(0, i);
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::Transpose() {
  // input_dimensions[permutation[i]] = output_dimensions[i], so output
  // index o reads input index with in[permutation[i]] = o[i].
  const Shape& in = OperandShape(0);
  for (int64_t i = 0; i < Out().element_count(); ++i) {
    At(0, i);
    Index o = MultiIndex(OutDims(), i);
    Index in_index(in.rank());
    for (int64_t d = 0; d < in.rank(); ++d)
      in_index[inst_.dimensions()[d]] = o[d];
    CopyIn(0, LinearIndex(in.dimensions(), in_index));
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::Reverse() {
  const Shape& in = OperandShape(0);
  for (int64_t i = 0; i < Out().element_count(); ++i) {
    At(0, i);
    Index o = MultiIndex(OutDims(), i);
    for (int64_t d : inst_.dimensions()) o[d] = in.dimensions(d) - 1 - o[d];
    CopyIn(0, LinearIndex(in.dimensions(), o));
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::Slice() {
  const Shape& in = OperandShape(0);
  for (int64_t i = 0; i < Out().element_count(); ++i) {
    At(0, i);
    Index o = MultiIndex(OutDims(), i);
    for (int64_t d = 0; d < in.rank(); ++d) {
      o[d] = inst_.slice()[d].start + o[d] * inst_.slice()[d].stride;
    }
    CopyIn(0, LinearIndex(in.dimensions(), o));
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::DynamicSlice() {
  // start_indices[i] = clamp(start_indices[i], 0, dim[i] - size[i]).
  const Shape& in = OperandShape(0);
  if (inst_.operand_count() != in.rank() + 1) {
    return Unsupported(inst_, "start indices given as one vector");
  }
  Index start(in.rank());
  for (int64_t d = 0; d < in.rank(); ++d) {
    int64_t s = ops_[d + 1].GetInt(0);
    start[d] = std::min(std::max<int64_t>(s, 0),
                        in.dimensions(d) - inst_.dynamic_slice_sizes()[d]);
  }
  for (int64_t i = 0; i < Out().element_count(); ++i) {
    At(0, i);
    for (int64_t d = 0; d < in.rank(); ++d) Note(d + 1, 0, 0);
    Index o = MultiIndex(OutDims(), i);
    for (int64_t d = 0; d < in.rank(); ++d) o[d] += start[d];
    CopyIn(0, LinearIndex(in.dimensions(), o));
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::DynamicUpdateSlice() {
  const Shape& in = OperandShape(0);
  const Shape& update = OperandShape(1);
  if (inst_.operand_count() != in.rank() + 2) {
    return Unsupported(inst_, "start indices given as one vector");
  }
  Index start(in.rank());
  for (int64_t d = 0; d < in.rank(); ++d) {
    int64_t s = ops_[d + 2].GetInt(0);
    start[d] = std::min(std::max<int64_t>(s, 0),
                        in.dimensions(d) - update.dimensions(d));
  }
  for (int64_t i = 0; i < Out().element_count(); ++i) {
    At(0, i);
    for (int64_t d = 0; d < in.rank(); ++d) Note(d + 2, 0, 0);
    Index o = MultiIndex(OutDims(), i);
    bool inside = true;
    Index u(in.rank());
    for (int64_t d = 0; d < in.rank(); ++d) {
      u[d] = o[d] - start[d];
      inside &= u[d] >= 0 && u[d] < update.dimensions(d);
    }
    if (inside) {
      CopyIn(1, LinearIndex(update.dimensions(), u));
    } else {
      CopyIn(0, i);
    }
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::Concatenate() {
  int64_t dim = inst_.dimensions()[0];
  for (int64_t i = 0; i < Out().element_count(); ++i) {
    At(0, i);
    Index o = MultiIndex(OutDims(), i);
    int64_t k = 0;
    while (o[dim] >= OperandShape(k).dimensions(dim)) {
      o[dim] -= OperandShape(k).dimensions(dim);
      ++k;
    }
    CopyIn(k, LinearIndex(OperandShape(k).dimensions(), o));
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::Pad() {
  // Output position of operand index e in dimension d:
  //   low + e * (interior + 1); everything else is padding.
  const Shape& in = OperandShape(0);
  for (int64_t i = 0; i < Out().element_count(); ++i) {
    At(0, i);
    Index o = MultiIndex(OutDims(), i);
    Index e(in.rank());
    bool from_operand = true;
    for (int64_t d = 0; d < in.rank() && from_operand; ++d) {
      const PaddingDimension& p = inst_.padding_config()[d];
      std::optional<int64_t> shifted = CheckedSub(o[d], p.low);
      if (!shifted || *shifted < 0 || *shifted % (p.interior + 1) != 0) {
        from_operand = false;
        break;
      }
      e[d] = *shifted / (p.interior + 1);
      from_operand = e[d] < in.dimensions(d);
    }
    if (from_operand) {
      CopyIn(0, LinearIndex(in.dimensions(), e));
    } else {
      CopyIn(1, 0);
    }
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::Reduce() {
  int64_t n = inst_.operand_count() / 2;
  const Shape& in = OperandShape(0);
  const HloComputation* f = inst_.to_apply();
  // Operand dims that survive, in order (they index the output).
  Index kept, reduced;
  for (int64_t d = 0; d < in.rank(); ++d) {
    (std::count(inst_.dimensions().begin(), inst_.dimensions().end(), d)
         ? reduced
         : kept)
        .push_back(d);
  }
  Index reduced_sizes;
  int64_t reduced_count = 1;
  for (int64_t d : reduced) {
    reduced_sizes.push_back(in.dimensions(d));
    reduced_count *= in.dimensions(d);
  }
  int64_t out_count = Out(0).element_count();
  for (int64_t i = 0; i < out_count; ++i) {
    Index o = MultiIndex(Out(0).shape().dimensions(), i);
    // acc_k starts at init_k; then acc = f(acc..., x...) in row-major
    // order of the reduced dimensions (the pseudo-code of XLA's
    // operation-semantics documentation).
    std::vector<Literal> acc;
    for (int64_t k = 0; k < n; ++k) acc.push_back(ScalarFrom(ops_[n + k], 0));
    std::vector<ElementId> element_reads;
    for (int64_t k = 0; k < n; ++k) element_reads.push_back({n + k, 0, 0});
    for (int64_t r = 0; r < reduced_count; ++r) {
      Index ri = MultiIndex(reduced_sizes, r);
      Index full(in.rank());
      for (size_t j = 0; j < kept.size(); ++j) full[kept[j]] = o[j];
      for (size_t j = 0; j < reduced.size(); ++j) full[reduced[j]] = ri[j];
      int64_t linear = LinearIndex(in.dimensions(), full);
      std::vector<Literal> args = acc;
      for (int64_t k = 0; k < n; ++k) {
        args.push_back(ScalarFrom(ops_[k], linear));
        element_reads.push_back({k, 0, linear});
      }
      XI_ASSIGN_OR_RETURN(Literal result, Apply(inst_, f, args));
      if (n == 1) {
        acc[0] = std::move(result);
      } else {
        for (int64_t k = 0; k < n; ++k) acc[k] = result.tuple_elements()[k];
      }
    }
    for (int64_t k = 0; k < n; ++k) {
      At(k, i);
      Out(k).CopyElement(acc[k], 0, i);
      for (const ElementId& e : element_reads)
        Note(e.operand, 0, e.linear_index);
    }
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::ReduceWindow() {
  int64_t n = inst_.operand_count() / 2;
  const Shape& in = OperandShape(0);
  const HloComputation* f = inst_.to_apply();
  const Window& w = inst_.window();
  Index window_sizes;
  for (const WindowDimension& d : w.dimensions) window_sizes.push_back(d.size);
  WindowWalk walk(w.dimensions, std::move(window_sizes),
                  Index(in.dimensions().begin(), in.dimensions().end()));
  Index e;
  for (int64_t i = 0; i < Out(0).element_count(); ++i) {
    Index o = MultiIndex(Out(0).shape().dimensions(), i);
    std::vector<Literal> acc;
    for (int64_t k = 0; k < n; ++k) acc.push_back(ScalarFrom(ops_[n + k], 0));
    std::vector<ElementId> element_reads;
    for (int64_t k = 0; k < n; ++k) element_reads.push_back({n + k, 0, 0});
    for (int64_t r = 0; r < walk.count(); ++r) {
      // Padding and holes hold the init value.
      bool real = walk.Source(o, walk.Offset(r), &e);
      std::vector<Literal> args = acc;
      int64_t linear = real ? LinearIndex(in.dimensions(), e) : 0;
      for (int64_t k = 0; k < n; ++k) {
        if (real) {
          args.push_back(ScalarFrom(ops_[k], linear));
          element_reads.push_back({k, 0, linear});
        } else {
          args.push_back(ScalarFrom(ops_[n + k], 0));
        }
      }
      XI_ASSIGN_OR_RETURN(Literal result, Apply(inst_, f, args));
      if (n == 1) {
        acc[0] = std::move(result);
      } else {
        for (int64_t k = 0; k < n; ++k) acc[k] = result.tuple_elements()[k];
      }
    }
    for (int64_t k = 0; k < n; ++k) {
      At(k, i);
      Out(k).CopyElement(acc[k], 0, i);
      for (const ElementId& e : element_reads)
        Note(e.operand, 0, e.linear_index);
    }
  }
  return absl::OkStatus();
}

// The linear index in `scale` of the scale of operand element `index`: a
// scale dim of size s covers blocks of operand size / s elements (shape
// inference has checked that s divides the operand's size).
int64_t ScaleLinearIndex(const Shape& operand, const Shape& scale,
                         const Index& index) {
  Index block_index(index.size());
  for (size_t d = 0; d < index.size(); ++d) {
    block_index[d] = index[d] / (operand.dimensions(d) / scale.dimensions(d));
  }
  return LinearIndex(scale.dimensions(), block_index);
}

// dot, and scaled-dot (operands lhs, rhs, lhs_scale, rhs_scale).
absl::Status OpEvaluator::Dot() {
  const Shape& lhs = OperandShape(0);
  const Shape& rhs = OperandShape(1);
  const DotDimensionNumbers& dn = inst_.dot_dimension_numbers();
  auto free_dims = [](const Shape& s, const Index& batch,
                      const Index& contracting) {
    Index out;
    for (int64_t d = 0; d < s.rank(); ++d) {
      if (!std::count(batch.begin(), batch.end(), d) &&
          !std::count(contracting.begin(), contracting.end(), d)) {
        out.push_back(d);
      }
    }
    return out;
  };
  Index lhs_free =
      free_dims(lhs, dn.lhs_batch_dimensions, dn.lhs_contracting_dimensions);
  Index rhs_free =
      free_dims(rhs, dn.rhs_batch_dimensions, dn.rhs_contracting_dimensions);
  Index contract_sizes;
  int64_t contract_count = 1;
  for (int64_t d : dn.lhs_contracting_dimensions) {
    contract_sizes.push_back(lhs.dimensions(d));
    contract_count *= lhs.dimensions(d);
  }
  bool use_float = IsFloatingPoint(Out().shape().element_type());
  const bool scaled = inst_.opcode() == HloOpcode::kScaledDot;
  size_t nb = dn.lhs_batch_dimensions.size();
  for (int64_t i = 0; i < Out().element_count(); ++i) {
    At(0, i);
    Index o = MultiIndex(OutDims(), i);
    Index li(lhs.rank()), ri(rhs.rank());
    for (size_t b = 0; b < nb; ++b) {
      li[dn.lhs_batch_dimensions[b]] = o[b];
      ri[dn.rhs_batch_dimensions[b]] = o[b];
    }
    for (size_t k = 0; k < lhs_free.size(); ++k) li[lhs_free[k]] = o[nb + k];
    for (size_t k = 0; k < rhs_free.size(); ++k) {
      ri[rhs_free[k]] = o[nb + lhs_free.size() + k];
    }
    double sum = 0;
    int64_t isum = 0;
    for (int64_t c = 0; c < contract_count; ++c) {
      Index ci = MultiIndex(contract_sizes, c);
      for (size_t k = 0; k < ci.size(); ++k) {
        li[dn.lhs_contracting_dimensions[k]] = ci[k];
        ri[dn.rhs_contracting_dimensions[k]] = ci[k];
      }
      int64_t a = LinearIndex(lhs.dimensions(), li);
      int64_t b = LinearIndex(rhs.dimensions(), ri);
      if (scaled) {
        // scaled-dot: each operand element times the scale of its block.
        int64_t sa = ScaleLinearIndex(lhs, OperandShape(2), li);
        int64_t sb = ScaleLinearIndex(rhs, OperandShape(3), ri);
        if (use_float) {
          sum += D(0, a) * D(2, sa) * D(1, b) * D(3, sb);
        } else {
          isum += I(0, a) * I(2, sa) * I(1, b) * I(3, sb);
        }
      } else if (use_float) {
        sum += D(0, a) * D(1, b);
      } else {
        isum += I(0, a) * I(1, b);
      }
    }
    if (use_float) {
      Out().SetDouble(i, sum);
    } else {
      Out().SetInt(i, isum);
    }
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::Convolution() {
  const Shape& lhs = OperandShape(0);
  const Shape& rhs = OperandShape(1);
  const ConvolutionDimensionNumbers& c = inst_.convolution_dimension_numbers();
  int64_t spatial = static_cast<int64_t>(c.input_spatial_dimensions.size());
  Window window;
  if (inst_.has_window()) {
    window = inst_.window();
  } else {
    for (int64_t k : c.kernel_spatial_dimensions) {
      WindowDimension wd;
      wd.size = rhs.dimensions(k);
      window.dimensions.push_back(wd);
    }
  }
  int64_t fgc = inst_.feature_group_count();
  int64_t bgc = inst_.batch_group_count();
  int64_t kernel_in = rhs.dimensions(c.kernel_input_feature_dimension);
  int64_t out_features = rhs.dimensions(c.kernel_output_feature_dimension);
  int64_t out_batch = lhs.dimensions(c.input_batch_dimension) / bgc;
  Index kernel_sizes, input_sizes;
  for (int64_t k : c.kernel_spatial_dimensions) {
    kernel_sizes.push_back(rhs.dimensions(k));
  }
  for (int64_t s : c.input_spatial_dimensions) {
    input_sizes.push_back(lhs.dimensions(s));
  }
  WindowWalk walk(window.dimensions, std::move(kernel_sizes),
                  std::move(input_sizes));
  Index out_spatial(spatial), source;
  bool use_float = IsFloatingPoint(Out().shape().element_type());
  for (int64_t i = 0; i < Out().element_count(); ++i) {
    At(0, i);
    Index o = MultiIndex(OutDims(), i);
    int64_t b = o[c.output_batch_dimension];
    int64_t oz = o[c.output_feature_dimension];
    for (int64_t s = 0; s < spatial; ++s) {
      out_spatial[s] = o[c.output_spatial_dimensions[s]];
    }
    // Feature groups: output feature oz uses input features of its group;
    // batch groups: it uses the batch slice of its group.
    int64_t feature_group = oz / (out_features / fgc);
    int64_t batch_group = oz / (out_features / bgc);
    double sum = 0;
    int64_t isum = 0;
    for (int64_t kz = 0; kz < kernel_in; ++kz) {
      for (int64_t k = 0; k < walk.count(); ++k) {
        Index ki = walk.Offset(k);
        Index ri(rhs.rank());
        for (int64_t s = 0; s < spatial; ++s) {
          const WindowDimension& wd = window.dimensions[s];
          ri[c.kernel_spatial_dimensions[s]] =
              wd.window_reversal ? wd.size - 1 - ki[s] : ki[s];
        }
        ri[c.kernel_input_feature_dimension] = kz;
        ri[c.kernel_output_feature_dimension] = oz;
        int64_t r = LinearIndex(rhs.dimensions(), ri);
        if (!walk.Source(out_spatial, ki, &source)) {
          // The window position is in padding or a hole of the dilated
          // input: the kernel element multiplies a zero. It still takes
          // part (XLA's indexing analysis reads the whole kernel window),
          // the input is not read.
          Note(1, 0, r);
          continue;
        }
        Index li(lhs.rank());
        for (int64_t s = 0; s < spatial; ++s) {
          li[c.input_spatial_dimensions[s]] = source[s];
        }
        li[c.input_batch_dimension] = b + batch_group * out_batch;
        li[c.input_feature_dimension] = feature_group * kernel_in + kz;
        int64_t a = LinearIndex(lhs.dimensions(), li);
        if (use_float) {
          sum += D(0, a) * D(1, r);
        } else {
          isum += I(0, a) * I(1, r);
        }
      }
    }
    if (use_float) {
      Out().SetDouble(i, sum);
    } else {
      Out().SetInt(i, isum);
    }
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::Gather() {
  const Shape& operand = OperandShape(0);
  const Shape& indices = OperandShape(1);
  const GatherDimensionNumbers& g = inst_.gather_dimension_numbers();
  const Index& slice_sizes = inst_.gather_slice_sizes();
  int64_t out_rank = Out().shape().rank();
  Index batch_dims;
  for (int64_t d = 0; d < out_rank; ++d) {
    if (!std::count(g.offset_dims.begin(), g.offset_dims.end(), d)) {
      batch_dims.push_back(d);
    }
  }
  // remapped_offset_dims: operand dims neither collapsed nor batching,
  // increasing.
  Index remapped = DimsNotIn(operand.rank(), g.collapsed_slice_dims,
                             g.operand_batching_dims);
  bool implicit = g.index_vector_dim == indices.rank();
  // Operand batching dim operand_batching_dims[i] is read at the batch
  // index G[j], where indices dim start_indices_batching_dims[i] is the
  // j-th indices dim other than index_vector_dim.
  Index batching_positions =
      BatchPositions(g.start_indices_batching_dims, g.index_vector_dim);
  for (int64_t i = 0; i < Out().element_count(); ++i) {
    At(0, i);
    Index out = MultiIndex(OutDims(), i);
    // 1. G = Out[batch_dims]; S[k] = start_indices[Combine(G, k)].
    Index G;
    for (int64_t d : batch_dims) G.push_back(out[d]);
    Index s_in(operand.rank(), 0);
    for (size_t k = 0; k < g.start_index_map.size(); ++k) {
      Index at = G;
      if (!implicit) at.insert(at.begin() + g.index_vector_dim, k);
      int64_t s = I(1, LinearIndex(indices.dimensions(), at));
      // 2. Sin[start_index_map[k]] = S[k], clamped so that the slice stays
      // in bounds (as XLA and DynamicSlice do).
      int64_t d = g.start_index_map[k];
      s_in[d] = std::min(std::max<int64_t>(s, 0),
                         operand.dimensions(d) - slice_sizes[d]);
    }
    // 3. Oin[remapped_offset_dims(k)] = Out[offset_dims[k]], and the
    // batching dims follow the batch index.
    Index in = s_in;
    for (size_t b = 0; b < g.operand_batching_dims.size(); ++b) {
      in[g.operand_batching_dims[b]] = G[batching_positions[b]];
    }
    for (size_t k = 0; k < g.offset_dims.size(); ++k) {
      in[remapped[k]] += out[g.offset_dims[k]];
    }
    // 4. In = Oin + Sin.
    CopyIn(0, LinearIndex(operand.dimensions(), in));
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::Scatter() {
  int64_t n = (inst_.operand_count() - 1) / 2;
  const Shape& operand = OperandShape(0);
  const Shape& indices = OperandShape(n);
  const Shape& updates = OperandShape(n + 1);
  const ScatterDimensionNumbers& sd = inst_.scatter_dimension_numbers();
  // output[J][O] = operands[J][O] to start.
  for (int64_t k = 0; k < n; ++k) {
    for (int64_t i = 0; i < operand.ElementCount(); ++i) {
      At(k, i);
      Note(k, 0, i);
      Out(k).CopyElement(ops_[k], i, i);
    }
  }
  Index update_scatter_dims;
  for (int64_t d = 0; d < updates.rank(); ++d) {
    if (!std::count(sd.update_window_dims.begin(), sd.update_window_dims.end(),
                    d)) {
      update_scatter_dims.push_back(d);
    }
  }
  Index window_to_operand = DimsNotIn(operand.rank(), sd.inserted_window_dims,
                                      sd.input_batching_dims);
  bool implicit = sd.index_vector_dim == indices.rank();
  Index batching_positions =
      BatchPositions(sd.scatter_indices_batching_dims, sd.index_vector_dim);
  for (int64_t u = 0; u < updates.ElementCount(); ++u) {
    Index U = MultiIndex(updates.dimensions(), u);
    Index G;
    for (int64_t d : update_scatter_dims) G.push_back(U[d]);
    Index I(operand.rank(), 0);
    std::vector<int64_t> index_reads;
    for (size_t k = 0; k < sd.scatter_dims_to_operand_dims.size(); ++k) {
      Index at = G;
      if (!implicit) at.insert(at.begin() + sd.index_vector_dim, k);
      int64_t linear = LinearIndex(indices.dimensions(), at);
      index_reads.push_back(linear);
      I[sd.scatter_dims_to_operand_dims[k]] += ops_[n].GetInt(linear);
    }
    for (size_t k = 0; k < sd.update_window_dims.size(); ++k) {
      I[window_to_operand[k]] += U[sd.update_window_dims[k]];
    }
    for (size_t b = 0; b < sd.input_batching_dims.size(); ++b) {
      I[sd.input_batching_dims[b]] = G[batching_positions[b]];
    }
    bool valid = true;
    for (int64_t d = 0; d < operand.rank(); ++d) {
      valid &= I[d] >= 0 && I[d] < operand.dimensions(d);
    }
    if (!valid)
      continue;  // XLA's operation-semantics documentation: only valid indices
                 // are updated.
    int64_t o = LinearIndex(operand.dimensions(), I);
    std::vector<Literal> args;
    for (int64_t k = 0; k < n; ++k) args.push_back(ScalarFrom(Out(k), o));
    for (int64_t k = 0; k < n; ++k) {
      args.push_back(ScalarFrom(ops_[n + 1 + k], u));
    }
    XI_ASSIGN_OR_RETURN(Literal result, Apply(inst_, inst_.to_apply(), args));
    for (int64_t k = 0; k < n; ++k) {
      At(k, o);
      Out(k).CopyElement(n == 1 ? result : result.tuple_elements()[k], 0, o);
      for (int64_t r : index_reads) Note(n, 0, r);
      for (int64_t j = 0; j < n; ++j) Note(n + 1 + j, 0, u);
    }
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::Map() {
  for (int64_t i = 0; i < Out().element_count(); ++i) {
    At(0, i);
    std::vector<Literal> args;
    for (int64_t k = 0; k < inst_.operand_count(); ++k) {
      Note(k, 0, i);
      args.push_back(ScalarFrom(ops_[k], i));
    }
    XI_ASSIGN_OR_RETURN(Literal r, Apply(inst_, inst_.to_apply(), args));
    Out().CopyElement(r, 0, i);
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::Sort() {
  int64_t n = inst_.operand_count();
  const Shape& in = OperandShape(0);
  int64_t dim =
      inst_.dimensions().empty() ? in.rank() - 1 : inst_.dimensions()[0];
  if (in.rank() == 0) return Unsupported(inst_, "sort of a scalar");
  int64_t len = in.dimensions(dim);
  absl::Status error = absl::OkStatus();
  for (int64_t i = 0; i < in.ElementCount(); ++i) {
    Index start = MultiIndex(in.dimensions(), i);
    if (start[dim] != 0) continue;  // One pass per 1-D slice.
    std::vector<int64_t> positions(len);
    for (int64_t j = 0; j < len; ++j) {
      Index at = start;
      at[dim] = j;
      positions[j] = LinearIndex(in.dimensions(), at);
    }
    std::vector<int64_t> order(len);
    std::iota(order.begin(), order.end(), 0);
    // comparator(params 2k = operand k at a, 2k+1 = operand k at b).
    auto less = [&](int64_t a, int64_t b) {
      if (!error.ok()) return false;
      std::vector<Literal> args;
      for (int64_t k = 0; k < n; ++k) {
        args.push_back(ScalarFrom(ops_[k], positions[a]));
        args.push_back(ScalarFrom(ops_[k], positions[b]));
      }
      absl::StatusOr<Literal> r = Apply(inst_, inst_.to_apply(), args);
      if (!r.ok()) {
        error = r.status();
        return false;
      }
      return r->GetInt(0) != 0;
    };
    std::stable_sort(order.begin(), order.end(), less);
    XI_RETURN_IF_ERROR(error);
    for (int64_t k = 0; k < n; ++k) {
      for (int64_t j = 0; j < len; ++j) {
        At(n == 1 ? 0 : k, positions[j]);
        // Where an element lands depends on every element of its slice.
        for (int64_t kk = 0; kk < n; ++kk) {
          for (int64_t p : positions) Note(kk, 0, p);
        }
        Out(n == 1 ? 0 : k)
            .CopyElement(ops_[k], positions[order[j]], positions[j]);
      }
    }
  }
  return absl::OkStatus();
}

absl::Status OpEvaluator::Call(const HloComputation* f) {
  if (f == nullptr) return Unsupported(inst_, "its computation is not defined");
  if (!trace_) {
    XI_ASSIGN_OR_RETURN(Literal r, EvaluateComputation(*f, ops_));
    out_ = std::move(r);
    return absl::OkStatus();
  }
  XI_ASSIGN_OR_RETURN(TracedValue r, TraceComputation(*f, ops_));
  out_ = std::move(r.value);
  reads_ = std::move(r.reads);
  return absl::OkStatus();
}

// The values must match the instruction's operands in number and shape,
// and carry their elements (a constant printed with `{...}` does not).
absl::Status OpEvaluator::CheckOperandValues() {
  if (static_cast<int64_t>(ops_.size()) != inst_.operand_count()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "evaluator: '", inst_.name(), "' has ", inst_.operand_count(),
        " operands but ", ops_.size(), " values were given"));
  }
  for (int64_t k = 0; k < inst_.operand_count(); ++k) {
    if (!ops_[k].shape().CompatibleWith(inst_.operand(k)->shape())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "evaluator: operand ", k, " of '", inst_.name(), "' should be ",
          inst_.operand(k)->shape().ToString(false), ", got ",
          ops_[k].shape().ToString(false)));
    }
    if (!ops_[k].has_values()) {
      return Unsupported(inst_, "an operand's values are elided");
    }
  }
  return absl::OkStatus();
}

// A constant reads nothing: every element has an empty read set.
absl::Status OpEvaluator::Constant() {
  if (!inst_.literal().has_values()) {
    return Unsupported(inst_, "constant's values are elided");
  }
  out_ = inst_.literal();
  if (trace_) reads_.assign(1, std::vector<ReadSet>(out_.element_count()));
  return absl::OkStatus();
}

// tuple(a, b, ...): element i of tuple element k is operand k's element i.
absl::Status OpEvaluator::Tuple() {
  std::vector<Shape> shapes;
  for (const Literal& l : ops_) {
    if (l.shape().IsTuple()) return Unsupported(inst_, "nested tuples");
    shapes.push_back(l.shape());
  }
  XI_RETURN_IF_ERROR(Begin(Shape::MakeTuple(shapes)));
  for (int64_t k = 0; k < inst_.operand_count(); ++k) {
    for (int64_t i = 0; i < ops_[k].element_count(); ++i) {
      At(k, i);
      Note(k, 0, i);
      Out(k).CopyElement(ops_[k], i, i);
    }
  }
  return absl::OkStatus();
}

// A tuple copy: every element of every tuple element is read once.
absl::Status OpEvaluator::CopyTuple() {
  out_ = ops_[0];
  if (!trace_) return absl::OkStatus();
  for (size_t t = 0; t < out_.tuple_elements().size(); ++t) {
    const Literal& element = out_.tuple_elements()[t];
    if (element.shape().IsTuple()) return Unsupported(inst_, "nested tuples");
    reads_.emplace_back(element.element_count());
    for (int64_t i = 0; i < element.element_count(); ++i) {
      reads_[t][i].push_back({0, static_cast<int64_t>(t), i});
    }
  }
  return absl::OkStatus();
}

// get-tuple-element(t), index=k: element i is element i of t's element k.
absl::Status OpEvaluator::GetTupleElement() {
  const Literal& element = ops_[0].tuple_elements()[inst_.tuple_index()];
  XI_RETURN_IF_ERROR(Begin(element.shape()));
  for (int64_t i = 0; i < element.element_count(); ++i) {
    At(0, i);
    Note(0, inst_.tuple_index(), i);
    Out().CopyElement(element, i, i);
  }
  return absl::OkStatus();
}

// The ops whose result is one array (or a tuple of arrays for variadic
// reduce and sort) computed element by element from the operands: the
// result shape is the inferred one (the written one when compatible, for
// its layout-free form), then the op's own loop fills it.
absl::Status OpEvaluator::ArrayOp() {
  HloOpcode op = inst_.opcode();
  if (op == HloOpcode::kParameter || op == HloOpcode::kUnknown) {
    return Unsupported(inst_, "no semantics to evaluate");
  }
  XI_ASSIGN_OR_RETURN(Shape shape, InferShape(inst_));
  Shape result = inst_.shape();
  if (!result.CompatibleWith(shape)) result = shape;
  result.clear_layout();
  XI_RETURN_IF_ERROR(Begin(result));
  if (op == HloOpcode::kBitcastConvert) return BitcastConvert();
  if (IsElementwise(op)) return Elementwise();
  switch (op) {
    case HloOpcode::kIota:
      return Iota();
    case HloOpcode::kBroadcast:
      return Broadcast();
    case HloOpcode::kReshape:
    case HloOpcode::kBitcast:
      // A bitcast is a reshape of the logical elements in row-major
      // order when the layouts agree, which is all this oracle supports.
      return Reshape();
    case HloOpcode::kTranspose:
      return Transpose();
    case HloOpcode::kReverse:
      return Reverse();
    case HloOpcode::kSlice:
      return Slice();
    case HloOpcode::kDynamicSlice:
      return DynamicSlice();
    case HloOpcode::kDynamicUpdateSlice:
      return DynamicUpdateSlice();
    case HloOpcode::kConcatenate:
      return Concatenate();
    case HloOpcode::kPad:
      return Pad();
    case HloOpcode::kReduce:
      return Reduce();
    case HloOpcode::kReduceWindow:
      return ReduceWindow();
    case HloOpcode::kDot:
    case HloOpcode::kScaledDot:
      return Dot();
    case HloOpcode::kConvolution:
      return Convolution();
    case HloOpcode::kGather:
      return Gather();
    case HloOpcode::kScatter:
      return Scatter();
    case HloOpcode::kMap:
      return Map();
    case HloOpcode::kSort:
      return Sort();
    default:
      return Unsupported(inst_, "no evaluator for this op");
  }
}

absl::StatusOr<TracedValue> OpEvaluator::Run() {
  HloOpcode op = inst_.opcode();
  XI_RETURN_IF_ERROR(CheckOperandValues());
  if (op == HloOpcode::kFusion || op == HloOpcode::kCall) {
    XI_RETURN_IF_ERROR(Call(inst_.fused_computation()));
  } else if (op == HloOpcode::kConstant) {
    XI_RETURN_IF_ERROR(Constant());
  } else if (op == HloOpcode::kTuple) {
    XI_RETURN_IF_ERROR(Tuple());
  } else if (op == HloOpcode::kCopy && ops_[0].shape().IsTuple()) {
    XI_RETURN_IF_ERROR(CopyTuple());
  } else if (op == HloOpcode::kGetTupleElement) {
    XI_RETURN_IF_ERROR(GetTupleElement());
  } else {
    XI_RETURN_IF_ERROR(ArrayOp());
  }
  // Read sets are sets: sorted, without repeats.
  for (auto& per_tuple : reads_) {
    for (ReadSet& set : per_tuple) {
      std::sort(set.begin(), set.end());
      set.erase(std::unique(set.begin(), set.end()), set.end());
    }
  }
  return TracedValue{std::move(out_), std::move(reads_)};
}

absl::StatusOr<TracedValue> RunComputation(const HloComputation& computation,
                                           absl::Span<const Literal> args,
                                           bool trace) {
  // Called computations nest (a fusion calling a reducer, ...); a cycle in
  // an unverified module must end in an error, not a stack overflow.
  static thread_local int depth = 0;
  if (depth >= 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("evaluator: computations nest more than 64 deep at '",
                     computation.name(), "' (a call cycle?)"));
  }
  ++depth;
  struct DepthGuard {
    ~DepthGuard() { --depth; }
  } guard;
  std::vector<HloInstruction*> params = computation.parameters();
  if (params.size() != args.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("evaluator: '", computation.name(), "' takes ",
                     params.size(), " arguments, got ", args.size()));
  }
  // Only what the root needs is evaluated: an unused op without semantics
  // (an unknown op, say) must not make the computation fail.
  absl::flat_hash_set<const HloInstruction*> needed;
  std::vector<const HloInstruction*> worklist = {computation.root()};
  needed.insert(computation.root());
  while (!worklist.empty()) {
    const HloInstruction* inst = worklist.back();
    worklist.pop_back();
    for (const HloInstruction* operand : inst->operands()) {
      if (needed.insert(operand).second) worklist.push_back(operand);
    }
  }
  absl::flat_hash_map<const HloInstruction*, TracedValue> values;
  for (HloInstruction* inst : computation.PostOrder()) {
    if (!needed.contains(inst)) continue;
    TracedValue result;
    if (inst->opcode() == HloOpcode::kParameter) {
      int64_t n = inst->parameter_number();
      if (n >= static_cast<int64_t>(args.size()) ||
          !args[n].shape().CompatibleWith(inst->shape())) {
        return absl::InvalidArgumentError(
            absl::StrCat("evaluator: argument ", n, " of '", computation.name(),
                         "' should be ", inst->shape().ToString(false)));
      }
      result.value = args[n];
      if (trace) {
        // A parameter element depends on exactly itself.
        const Shape& s = args[n].shape();
        int64_t tuples = s.IsTuple() ? s.tuple_shapes().size() : 1;
        result.reads.resize(tuples);
        for (int64_t t = 0; t < tuples; ++t) {
          int64_t count =
              s.IsTuple() ? s.tuple_shapes(t).ElementCount() : s.ElementCount();
          for (int64_t i = 0; i < count; ++i) {
            result.reads[t].push_back({{n, t, i}});
          }
        }
      }
    } else {
      std::vector<Literal> operands;
      for (const HloInstruction* operand : inst->operands()) {
        operands.push_back(values.at(operand).value);
      }
      XI_ASSIGN_OR_RETURN(TracedValue local,
                          OpEvaluator(*inst, operands, trace).Run());
      result.value = std::move(local.value);
      if (trace) {
        // Compose: an element's parameter reads are the union of the
        // parameter reads of every operand element it reads.
        result.reads.resize(local.reads.size());
        for (size_t t = 0; t < local.reads.size(); ++t) {
          result.reads[t].resize(local.reads[t].size());
          for (size_t i = 0; i < local.reads[t].size(); ++i) {
            ReadSet& out = result.reads[t][i];
            for (const ElementId& e : local.reads[t][i]) {
              const TracedValue& source = values.at(inst->operand(e.operand));
              const ReadSet& deps = source.reads[e.tuple_index][e.linear_index];
              out.insert(out.end(), deps.begin(), deps.end());
            }
            std::sort(out.begin(), out.end());
            out.erase(std::unique(out.begin(), out.end()), out.end());
          }
        }
      }
    }
    values[inst] = std::move(result);
  }
  return std::move(values.at(computation.root()));
}

}  // namespace

absl::StatusOr<Literal> EvaluateInstruction(
    const HloInstruction& instruction, absl::Span<const Literal> operands) {
  XI_ASSIGN_OR_RETURN(TracedValue r,
                      OpEvaluator(instruction, operands, false).Run());
  return std::move(r.value);
}

absl::StatusOr<TracedValue> TraceInstruction(
    const HloInstruction& instruction, absl::Span<const Literal> operands) {
  return OpEvaluator(instruction, operands, true).Run();
}

absl::StatusOr<Literal> EvaluateComputation(
    const HloComputation& computation, absl::Span<const Literal> arguments) {
  XI_ASSIGN_OR_RETURN(TracedValue r,
                      RunComputation(computation, arguments, false));
  return std::move(r.value);
}

absl::StatusOr<TracedValue> TraceComputation(
    const HloComputation& computation, absl::Span<const Literal> arguments) {
  return RunComputation(computation, arguments, true);
}

}  // namespace xla_index
