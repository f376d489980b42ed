#include "hlo/literal.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"

namespace xla_index {
namespace {

// Keeps the low `bits` bits, sign-extending for signed types: the value an
// N-bit two's-complement integer register would hold.
int64_t WrapToWidth(PrimitiveType type, int64_t value) {
  if (type == PrimitiveType::kPred) return value != 0 ? 1 : 0;
  int64_t bits = BitWidth(type);
  if (bits >= 64) return value;
  uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t low = static_cast<uint64_t>(value) & mask;
  if (IsSignedIntegral(type) && (low >> (bits - 1)) != 0) {
    low |= ~mask;
  }
  return static_cast<int64_t>(low);
}

// Shortest decimal text that reads back as the same value (as a float when
// `as_float`, so that f32 1.1 prints as 1.1, not 1.100000023841858).
std::string FormatDouble(double value, bool as_float = false) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  if (value == std::trunc(value) && std::fabs(value) < 1e15) {
    std::snprintf(buffer, sizeof(buffer), "%.0f", value);
    if (std::signbit(value) && value == 0) return "-0";
    return buffer;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    double back = std::strtod(buffer, nullptr);
    if (as_float ? static_cast<float>(back) == static_cast<float>(value)
                 : back == value) {
      break;
    }
  }
  return buffer;
}

// XLA prints a zero-element array as its nested empty braces
// (`DenseArrayPrintHelper`); past this many sub-arrays the text is `{...}`.
constexpr int64_t kMaxPrintedEmptySubArrays = int64_t{1} << 16;

// The number of `{` the nested form of an array of `dims` prints:
// 1 + d0 + d0*d1 + ... over all dimensions but the last (saturating).
int64_t NestedSubArrayCount(absl::Span<const int64_t> dims) {
  int64_t count = 1;
  int64_t level = 1;
  for (size_t d = 0; d + 1 < dims.size() && level > 0; ++d) {
    level = SaturatingMul(level, dims[d]);
    count = SaturatingAdd(count, level);
  }
  return count;
}

}  // namespace

double RoundToFloatFormat(double value, int64_t exponent_bits,
                          int64_t mantissa_bits) {
  if (std::isnan(value) || std::isinf(value) || value == 0) return value;
  int64_t bias = (int64_t{1} << (exponent_bits - 1)) - 1;
  int exponent = 0;
  std::frexp(value, &exponent);  // |value| in [2^(exponent-1), 2^exponent)
  // The spacing of representable numbers near `value`: 2^(e - m) for the
  // leading-bit exponent e, never finer than the subnormal spacing.
  int64_t leading = std::max<int64_t>(exponent - 1, 1 - bias);
  int quantum = static_cast<int>(leading - mantissa_bits);
  double rounded =
      std::ldexp(std::nearbyint(std::ldexp(value, -quantum)), quantum);
  double max_finite =
      std::ldexp(2.0 - std::ldexp(1.0, -mantissa_bits), static_cast<int>(bias));
  if (std::fabs(rounded) > max_finite) return std::copysign(INFINITY, value);
  return rounded;
}

Literal::Literal(const Shape& shape) : shape_(shape) {
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      tuple_.emplace_back(element);
    }
    return;
  }
  int64_t n = shape.ElementCount();
  if (StoresIntegers()) {
    ints_.assign(n, 0);
  } else {
    reals_.assign(n, 0.0);
    if (IsComplex(shape.element_type())) imags_.assign(n, 0.0);
  }
}

Literal Literal::MakeElided(const Shape& shape) {
  Literal literal;
  literal.shape_ = shape;
  literal.has_values_ = false;
  return literal;
}

bool Literal::StoresIntegers() const {
  PrimitiveType type = shape_.element_type();
  return type == PrimitiveType::kPred || IsIntegral(type);
}

int64_t Literal::GetInt(int64_t i) const {
  if (StoresIntegers()) return ints_[i];
  double v = reals_[i];
  if (std::isnan(v)) return 0;
  if (v >= 9.2233720368547758e18) return INT64_MAX;
  if (v <= -9.2233720368547758e18) return INT64_MIN;
  return static_cast<int64_t>(v);
}

double Literal::GetDouble(int64_t i) const {
  if (StoresIntegers()) {
    if (IsUnsignedIntegral(shape_.element_type())) {
      return static_cast<double>(static_cast<uint64_t>(ints_[i]));
    }
    return static_cast<double>(ints_[i]);
  }
  return reals_[i];
}

double Literal::GetImag(int64_t i) const {
  return imags_.empty() ? 0.0 : imags_[i];
}

void Literal::SetInt(int64_t i, int64_t value) {
  if (StoresIntegers()) {
    ints_[i] = WrapToWidth(shape_.element_type(), value);
  } else {
    reals_[i] = static_cast<double>(value);
    if (!imags_.empty()) imags_[i] = 0;
  }
}

void Literal::SetDouble(int64_t i, double value) {
  if (StoresIntegers()) {
    if (shape_.element_type() == PrimitiveType::kPred) {
      ints_[i] = value != 0 ? 1 : 0;
      return;
    }
    int64_t truncated = 0;
    if (std::isnan(value)) {
      truncated = 0;
    } else if (value >= 9.2233720368547758e18) {
      truncated = INT64_MAX;
    } else if (value <= -9.2233720368547758e18) {
      truncated = INT64_MIN;
    } else {
      truncated = static_cast<int64_t>(value);
    }
    ints_[i] = WrapToWidth(shape_.element_type(), truncated);
    return;
  }
  // Values are kept as doubles, rounded to what the element type can hold.
  switch (shape_.element_type()) {
    case PrimitiveType::kF32:
      value = static_cast<float>(value);
      break;
    case PrimitiveType::kBF16:
      value = RoundToFloatFormat(value, 8, 7);
      break;
    case PrimitiveType::kF16:
      value = RoundToFloatFormat(value, 5, 10);
      break;
    case PrimitiveType::kF8E5M2:
      value = RoundToFloatFormat(value, 5, 2);
      break;
    default:
      break;
  }
  reals_[i] = value;
  if (!imags_.empty()) imags_[i] = 0;
}

void Literal::SetComplex(int64_t i, double real, double imag) {
  if (imags_.empty()) {
    SetDouble(i, real);
    return;
  }
  reals_[i] = real;
  imags_[i] = imag;
}

void Literal::CopyElement(const Literal& from, int64_t from_index,
                          int64_t to_index) {
  if (StoresIntegers() && from.StoresIntegers()) {
    ints_[to_index] =
        WrapToWidth(shape_.element_type(), from.ints_[from_index]);
  } else if (!StoresIntegers() && !from.StoresIntegers()) {
    reals_[to_index] = from.reals_[from_index];
    if (!imags_.empty()) imags_[to_index] = from.GetImag(from_index);
  } else {
    SetDouble(to_index, from.GetDouble(from_index));
  }
}

std::string Literal::ToString() const {
  if (shape_.IsTuple()) {
    std::string out = "(";
    for (size_t i = 0; i < tuple_.size(); ++i) {
      if (i > 0) out += ", ";
      out += tuple_[i].ToString();
    }
    return out + ")";
  }
  if (!has_values_) return "{...}";
  auto element = [&](int64_t i) -> std::string {
    PrimitiveType type = shape_.element_type();
    if (type == PrimitiveType::kPred) return ints_[i] ? "true" : "false";
    if (IsUnsignedIntegral(type)) {
      return absl::StrCat(static_cast<uint64_t>(ints_[i]));
    }
    if (StoresIntegers()) return absl::StrCat(ints_[i]);
    if (IsComplex(type)) {
      return absl::StrCat("(", FormatDouble(reals_[i]), ", ",
                          FormatDouble(imags_[i]), ")");
    }
    return FormatDouble(reals_[i],
                        type == PrimitiveType::kF32 || BitWidth(type) < 32);
  };
  if (shape_.rank() == 0) return element(0);
  // A zero-element array has no values, so `{...}` (which XLA's parser
  // reads for any array shape) says all it holds; print it that way when
  // the nested braces would not fit in memory: `f32[10^11,0]` has 10^11
  // empty sub-arrays.
  if (element_count() == 0 &&
      NestedSubArrayCount(shape_.dimensions()) > kMaxPrintedEmptySubArrays) {
    return "{...}";
  }
  // One brace level per dimension; `first` is the linear index of the
  // sub-array's first element and `stride` its element count.
  absl::Span<const int64_t> dims = shape_.dimensions();
  std::string out;
  std::function<void(int64_t, int64_t, int64_t)> print =
      [&](int64_t d, int64_t first, int64_t stride) {
        if (d == shape_.rank()) {
          out += element(first);
          return;
        }
        int64_t inner = dims[d] == 0 ? 0 : stride / dims[d];
        out += "{";
        for (int64_t k = 0; k < dims[d]; ++k) {
          if (k > 0) out += ", ";
          print(d + 1, first + k * inner, inner);
        }
        out += "}";
      };
  // The stride of dimension 0 must stay exact when some dimension is 0,
  // so compute it as the product of the dimensions after the first
  // (saturating: with a 0 among them the huge others must not wrap first).
  int64_t inner_product = 1;
  for (int64_t d = 1; d < shape_.rank(); ++d) {
    inner_product = SaturatingMul(inner_product, dims[d]);
  }
  out += "{";
  for (int64_t k = 0; k < dims[0]; ++k) {
    if (k > 0) out += ", ";
    print(1, k * inner_product, inner_product);
  }
  out += "}";
  return out;
}

bool Literal::operator==(const Literal& other) const {
  if (!shape_.CompatibleWith(other.shape_)) return false;
  if (has_values_ != other.has_values_) return false;
  if (shape_.IsTuple()) return tuple_ == other.tuple_;
  if (ints_ != other.ints_) return false;
  auto same = [](const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) {
        return false;
      }
    }
    return true;
  };
  return same(reals_, other.reals_) && same(imags_, other.imags_);
}

int64_t LinearIndex(absl::Span<const int64_t> dims,
                    absl::Span<const int64_t> index) {
  int64_t linear = 0;
  for (size_t d = 0; d < dims.size(); ++d) linear = linear * dims[d] + index[d];
  return linear;
}

std::vector<int64_t> MultiIndex(absl::Span<const int64_t> dims,
                                int64_t linear_index) {
  std::vector<int64_t> index(dims.size());
  for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
    index[d] = dims[d] == 0 ? 0 : linear_index % dims[d];
    linear_index = dims[d] == 0 ? 0 : linear_index / dims[d];
  }
  return index;
}

namespace {

// The largest finite value of a floating-point type (XLA refuses a written
// constant beyond it: `f16[] constant(-65520)`, even though -65520 would
// round to -inf); nullopt for f64, where every finite double fits.
std::optional<double> MaxFinite(PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kF4E2M1FN:
      return 6.0;
    case PrimitiveType::kF8E3M4:
      return 15.5;
    case PrimitiveType::kF8E4M3:
      return 240.0;
    case PrimitiveType::kF8E4M3FN:
      return 448.0;
    case PrimitiveType::kF8E4M3B11FNUZ:
      return 30.0;
    case PrimitiveType::kF8E4M3FNUZ:
      return 240.0;
    case PrimitiveType::kF8E5M2:
    case PrimitiveType::kF8E5M2FNUZ:
      return 57344.0;
    case PrimitiveType::kF8E8M0FNU:
      return std::ldexp(1.0, 127);
    case PrimitiveType::kBF16:
      return std::ldexp(255.0, 120);  // (2 - 2^-7) * 2^127
    case PrimitiveType::kF16:
      return 65504.0;
    case PrimitiveType::kF32:
      return static_cast<double>(std::numeric_limits<float>::max());
    default:
      return std::nullopt;
  }
}

// Half the spacing of the floats just below MaxFinite(type): a value
// below MaxFinite + this rounds (to nearest) to a finite value, which is
// what HloParserImpl::CheckParsedValueIsInRange accepts (it range-checks
// the value converted to the type). 0 where none is added (f64, and
// f8e8m0fnu, whose values are powers of two).
double HalfUlpAtMax(PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kF4E2M1FN:
      return 1.0;  // 6 = 1.5 * 2^2, 1 mantissa bit
    case PrimitiveType::kF8E3M4:
      return 0.25;  // 15.5 = 1.9375 * 2^3, 4 bits
    case PrimitiveType::kF8E4M3:
    case PrimitiveType::kF8E4M3FNUZ:
      return 8.0;  // 240 = 1.875 * 2^7, 3 bits
    case PrimitiveType::kF8E4M3FN:
      return 16.0;  // 448 = 1.75 * 2^8, 3 bits
    case PrimitiveType::kF8E4M3B11FNUZ:
      return 1.0;  // 30 = 1.875 * 2^4, 3 bits
    case PrimitiveType::kF8E5M2:
    case PrimitiveType::kF8E5M2FNUZ:
      return 4096.0;  // 57344 = 1.75 * 2^15, 2 bits
    case PrimitiveType::kBF16:
      return std::ldexp(1.0, 119);  // 2^127 * 2^-7 / 2
    case PrimitiveType::kF16:
      return 16.0;  // 2^15 * 2^-10 / 2
    case PrimitiveType::kF32:
      return std::ldexp(1.0, 103);  // 2^127 * 2^-23 / 2
    default:
      return 0.0;
  }
}

// The mantissa bits a NaN payload may use (XLA's NanPayloadBits): those of
// the types with an IEEE NaN; 0 for the f8 "fn"/"fnuz" types and
// f8e8m0fnu, whose one NaN has no payload.
int NanPayloadBits(PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kF16:
      return 10;
    case PrimitiveType::kBF16:
      return 7;
    case PrimitiveType::kF32:
      return 23;
    case PrimitiveType::kF64:
      return 52;
    case PrimitiveType::kF8E5M2:
      return 2;
    case PrimitiveType::kF8E4M3:
      return 3;
    case PrimitiveType::kF8E3M4:
      return 4;
    default:
      return 0;
  }
}

// XLA prints a NaN with a payload as `nan(0x7f)` (or `-nan(0x...)`); the
// payload is checked against the type (HloParserImpl::SetValueInLiteral-
// Helper: "tries to set NaN payload ... out of range") and dropped, as the
// literal keeps one NaN.
absl::Status SkipNanPayload(TextCursor& cursor, PrimitiveType type) {
  if (cursor.PeekRaw() != '(') return absl::OkStatus();
  const char* start = cursor.pos();
  const char* p = start + 1;
  if (cursor.end() - p < 2 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X')) {
    return cursor.ErrorAt(start, "expected a NaN payload '(0x...)'");
  }
  p += 2;
  const char* digits = p;
  while (p < cursor.end() && absl::ascii_isxdigit(static_cast<uint8_t>(*p))) {
    ++p;
  }
  if (p == digits || p >= cursor.end() || *p != ')') {
    return cursor.ErrorAt(start, "expected a NaN payload '(0x...)'");
  }
  uint64_t payload = 0;
  absl::string_view hex(digits, p - digits);
  // Written as the double's payload; the quiet bit alone (2^51) is a NaN
  // without payload.
  constexpr uint64_t kQuietOnly = uint64_t{1} << 51;
  int bits = NanPayloadBits(type);
  if (!absl::SimpleHexAtoi(hex, &payload) || payload >= (uint64_t{1} << 52) ||
      (payload != kQuietOnly && bits < 64 &&
       payload >= (uint64_t{1} << bits))) {
    return cursor.ErrorAt(
        start, absl::StrCat("tries to set NaN payload 0x", hex, " to a ",
                            PrimitiveTypeName(type),
                            " value, but the payload is out of range (0x",
                            absl::Hex((uint64_t{1} << bits) - 1), ")"));
  }
  cursor.set_pos(p + 1);
  return absl::OkStatus();
}

// A float token: inf and nan (with an optional sign and NaN payload) or a
// decimal number within the type's finite range.
absl::StatusOr<double> ParseFloatToken(TextCursor& cursor, const char* start,
                                       const std::string& token,
                                       PrimitiveType type) {
  std::string lower = absl::AsciiStrToLower(token);
  if (lower == "inf" || lower == "+inf") return double{INFINITY};
  if (lower == "-inf") return double{-INFINITY};
  if (lower == "nan" || lower == "-nan" || lower == "+nan") {
    XI_RETURN_IF_ERROR(SkipNanPayload(cursor, type));
    return double{NAN};
  }
  double value = 0;
  if (!absl::SimpleAtod(token, &value)) {
    return cursor.ErrorAt(
        start, absl::StrCat("invalid ", PrimitiveTypeName(type), " value '",
                            token, "'"));
  }
  // A finite spelling beyond the double range reads as inf (f64's
  // 1.8e308); XLA refuses it as out of range.
  std::optional<double> max = MaxFinite(type);
  if (!std::isfinite(value) ||
      (max.has_value() && std::fabs(value) >= *max + HalfUlpAtMax(type) &&
       std::fabs(value) > *max)) {
    return cursor.ErrorAt(
        start,
        absl::StrCat(
            "value ", token, " is out of range for ", PrimitiveTypeName(type),
            " (largest finite ",
            FormatDouble(max.value_or(std::numeric_limits<double>::max())),
            ")"));
  }
  // Between the largest finite value and half a step above it, the value
  // rounds to the largest finite value, which XLA then stores.
  if (max.has_value() && std::fabs(value) > *max) {
    value = std::copysign(*max, value);
  }
  return value;
}

// Reads one scalar token into element `i` of `literal`.
absl::Status ParseScalarInto(TextCursor& cursor, Literal& literal, int64_t i) {
  PrimitiveType type = literal.shape().element_type();
  cursor.SkipSpace();
  const char* start = cursor.pos();
  if (IsComplex(type)) {
    XI_RETURN_IF_ERROR(cursor.Expect('(', "to open a complex value"));
    // Each part is read as a value of the part type (f32 for c64), so its
    // range is checked as that type's.
    Literal part(Shape(
        type == PrimitiveType::kC64 ? PrimitiveType::kF32 : PrimitiveType::kF64,
        {}));
    XI_RETURN_IF_ERROR(ParseScalarInto(cursor, part, 0));
    double real = part.GetDouble(0);
    XI_RETURN_IF_ERROR(cursor.Expect(',', "in a complex value"));
    XI_RETURN_IF_ERROR(ParseScalarInto(cursor, part, 0));
    XI_RETURN_IF_ERROR(cursor.Expect(')', "to close a complex value"));
    literal.SetComplex(i, real, part.GetDouble(0));
    return absl::OkStatus();
  }
  const char* p = start;
  while (p < cursor.end() && (TextCursor::IsNameChar(*p) || *p == '+')) {
    // An exponent sign belongs to the number: 1e-3, 2E+5.
    ++p;
    if ((p[-1] == 'e' || p[-1] == 'E') && p < cursor.end() &&
        (*p == '-' || *p == '+') && p - 1 > start && p[-2] >= '0' &&
        p[-2] <= '9') {
      ++p;
    }
  }
  std::string token(start, p - start);
  if (token.empty()) {
    return cursor.ErrorAt(
        start,
        absl::StrCat("expected a value of type ", PrimitiveTypeName(type),
                     ", found ", DescribeNext(cursor)));
  }
  cursor.set_pos(p);
  std::string lower = absl::AsciiStrToLower(token);
  if (lower == "true" || lower == "false") {
    if (type != PrimitiveType::kPred) {
      return cursor.ErrorAt(start, absl::StrCat("expected a value of type ",
                                                PrimitiveTypeName(type),
                                                ", found '", token, "'"));
    }
    literal.SetInt(i, lower == "true" ? 1 : 0);
    return absl::OkStatus();
  }
  if (type == PrimitiveType::kPred && token != "0" && token != "1") {
    return cursor.ErrorAt(start, absl::StrCat("invalid pred value '", token,
                                              "' (true, false, 0 or 1)"));
  }
  if (IsFloatingPoint(type)) {
    XI_ASSIGN_OR_RETURN(double value,
                        ParseFloatToken(cursor, start, token, type));
    literal.SetDouble(i, value);
    return absl::OkStatus();
  }
  // Integers and pred: decimal, exact.
  int64_t value = 0;
  uint64_t unsigned_value = 0;
  if (absl::SimpleAtoi(token, &value)) {
    // XLA checks an unsigned value as the uint64 of the int64 it read
    // (HloParserImpl::CheckParsedValueIsInRange): u64 takes any negative
    // value, two's complement (-1 is 2^64 - 1); narrower types none.
    if (IsUnsignedIntegral(type) && value < 0 && BitWidth(type) < 64) {
      return cursor.ErrorAt(
          start, absl::StrCat("negative value '", token, "' for unsigned type ",
                              PrimitiveTypeName(type)));
    }
  } else if (IsUnsignedIntegral(type) &&
             absl::SimpleAtoi(token, &unsigned_value)) {
    value = static_cast<int64_t>(unsigned_value);
  } else {
    return cursor.ErrorAt(
        start, absl::StrCat("invalid ", PrimitiveTypeName(type), " value '",
                            token, "'"));
  }
  int64_t bits = BitWidth(type);
  if (type != PrimitiveType::kPred && bits < 64) {
    bool fits = IsSignedIntegral(type)
                    ? value >= -(int64_t{1} << (bits - 1)) &&
                          value < (int64_t{1} << (bits - 1))
                    : value >= 0 && value < (int64_t{1} << bits);
    if (!fits) {
      return cursor.ErrorAt(start,
                            absl::StrCat("value ", token, " does not fit in ",
                                         PrimitiveTypeName(type)));
    }
  }
  literal.SetInt(i, value);
  return absl::OkStatus();
}

// Reads the sub-array of dimension `d` whose first element is `*next`.
absl::Status ParseArrayLevel(TextCursor& cursor, Literal& literal, int64_t d,
                             int64_t* next) {
  const Shape& shape = literal.shape();
  if (d == shape.rank()) {
    return ParseScalarInto(cursor, literal, (*next)++);
  }
  XI_RETURN_IF_ERROR(cursor.Expect(
      '{', absl::StrCat("to open dimension ", d, " of the literal")));
  int64_t size = shape.dimensions(d);
  for (int64_t k = 0; k < size; ++k) {
    if (k > 0) {
      XI_RETURN_IF_ERROR(
          cursor.Expect(',', absl::StrCat("between elements of "
                                          "dimension ",
                                          d, " (size ", size, ")")));
    }
    XI_RETURN_IF_ERROR(ParseArrayLevel(cursor, literal, d + 1, next));
  }
  return cursor.Expect(
      '}', absl::StrCat("after the ", size, " elements of dimension ", d));
}

// `s8[10] constant(1)`: XLA reads one scalar for a whole array and gives
// every element its value. The text is a few bytes whatever the shape, so
// the values are kept only while the broadcasts of one text stay within
// `*elements_left` elements (at most kMaxBroadcastElements in all);
// past it the literal is elided, as `{...}`: no analysis needs the values,
// and the text must not make the reader allocate without bound (a module
// of one-line `c64[1048576] constant((0,0))` constants asked for 16 MB
// per line).
absl::StatusOr<Literal> ParseBroadcastScalar(TextCursor& cursor,
                                             const Shape& shape,
                                             int64_t* elements_left) {
  Literal scalar(Shape(shape.element_type(), {}));
  XI_RETURN_IF_ERROR(ParseScalarInto(cursor, scalar, 0));
  const int64_t count = shape.ElementCount();
  if (count > *elements_left) return Literal::MakeElided(shape);
  *elements_left -= count;
  Literal literal(shape);
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    literal.CopyElement(scalar, 0, i);
  }
  return literal;
}

absl::StatusOr<Literal> ParseLiteralImpl(TextCursor& cursor, const Shape& shape,
                                         int depth, int64_t* elements_left) {
  if (depth > 64) return cursor.Error("literal nesting is too deep");
  if (shape.IsTuple()) {
    // The elements are added as they are read: Literal(shape) would first
    // allocate every element array at its full size, which an elided
    // `(f32[2^40]) constant(({...}))` cannot afford.
    Literal literal = Literal::MakeElided(shape);
    literal.set_has_values(true);
    XI_RETURN_IF_ERROR(cursor.Expect('(', "to open a tuple literal"));
    for (size_t i = 0; i < shape.tuple_shapes().size(); ++i) {
      if (i > 0) {
        XI_RETURN_IF_ERROR(cursor.Expect(',', "in a tuple literal"));
      }
      XI_ASSIGN_OR_RETURN(Literal element,
                          ParseLiteralImpl(cursor, shape.tuple_shapes(i),
                                           depth + 1, elements_left));
      literal.tuple_elements().push_back(std::move(element));
    }
    XI_RETURN_IF_ERROR(cursor.Expect(')', "to close a tuple literal"));
    return literal;
  }
  if (!shape.IsArray() || shape.HasUnboundedDimension()) {
    return cursor.Error(absl::StrCat("no literal of shape ", shape.ToString()));
  }
  if (shape.rank() > 0 || cursor.Peek() == '{') {
    const char* start = cursor.pos();
    if (cursor.TryConsume('{') && cursor.TryConsume("...")) {
      XI_RETURN_IF_ERROR(cursor.Expect('}', "after '...'"));
      // A zero-element array elides nothing: it is printed this way when
      // its nested braces would be too many (ToString).
      if (shape.ElementCount() == 0) return Literal(shape);
      return Literal::MakeElided(shape);
    }
    cursor.set_pos(start);
  }
  if (shape.rank() > 0 && cursor.Peek() != '{') {
    return ParseBroadcastScalar(cursor, shape, elements_left);
  }
  // Every element takes at least one character of text and a ',' after all
  // but the last, a complex one `(a,b)` five, so a shape larger than the
  // remaining text can hold cannot be filled: fail before allocating. The
  // values (8 bytes, 16 complex) then take at most 4x the text (a
  // one-character count let 64 MiB of text allocate 1 GB first).
  const int64_t min_chars = IsComplex(shape.element_type()) ? 6 : 2;
  if (shape.ElementCount() > (cursor.end() - cursor.pos() + 1) / min_chars) {
    return cursor.Error(absl::StrCat("the literal text is too short for the ",
                                     shape.ElementCount(), " elements of ",
                                     shape.ToString()));
  }
  Literal literal(shape);
  if (shape.rank() == 0 && cursor.Peek() == '{') {
    return cursor.Error("a scalar literal has no braces");
  }
  int64_t next = 0;
  XI_RETURN_IF_ERROR(ParseArrayLevel(cursor, literal, 0, &next));
  return literal;
}

}  // namespace

absl::StatusOr<Literal> ParseLiteralAtCursor(TextCursor& cursor,
                                             const Shape& shape,
                                             int64_t* broadcast_elements_left) {
  int64_t own_budget = kMaxBroadcastElements;
  return ParseLiteralImpl(cursor, shape, 0,
                          broadcast_elements_left != nullptr
                              ? broadcast_elements_left
                              : &own_budget);
}

}  // namespace xla_index
