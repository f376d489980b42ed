#ifndef XLA_INDEX_HLO_PRIMITIVE_TYPE_H_
#define XLA_INDEX_HLO_PRIMITIVE_TYPE_H_

// Element types of HLO arrays, with the names XLA prints (`f32`, `bf16`,
// `f8e4m3fn`, `pred`, ...) and their storage sizes.

#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"

namespace xla_index {

/// Element type of an HLO array, or the kinds of non-array shapes (tuple,
/// token, opaque). The set is the one XLA prints in HLO text.
enum class PrimitiveType {
  kInvalid,
  kPred,
  kS1,
  kS2,
  kS4,
  kS8,
  kS16,
  kS32,
  kS64,
  kU1,
  kU2,
  kU4,
  kU8,
  kU16,
  kU32,
  kU64,
  kF4E2M1FN,
  kF8E3M4,
  kF8E4M3,
  kF8E4M3FN,
  kF8E4M3B11FNUZ,
  kF8E4M3FNUZ,
  kF8E5M2,
  kF8E5M2FNUZ,
  kF8E8M0FNU,
  kBF16,
  kF16,
  kF32,
  kF64,
  kC64,
  kC128,
  kTuple,
  kToken,
  kOpaque,
};

/// The lower-case name XLA prints, e.g. "bf16"; "invalid" for kInvalid.
absl::string_view PrimitiveTypeName(PrimitiveType type);

/// Inverse of PrimitiveTypeName, ignoring case ("F32" as XLA's tiled-layout
/// documentation writes it); nullopt for an unknown name. "tuple" is not a name
/// that appears in shape text, so it is not accepted.
std::optional<PrimitiveType> PrimitiveTypeFromName(absl::string_view name);

/// Bits that one element occupies in a dense array: pred is 8 (stored as a
/// byte), s4 is 4, f8e5m2 is 8, c64 is 64. 0 for tuple, token, opaque.
int64_t BitWidth(PrimitiveType type);

/// Bytes of one element, ceil(BitWidth / 8): s4 and u2 take 1 byte each
/// when not packed. 0 for tuple, token, opaque.
int64_t ByteSize(PrimitiveType type);

/// Element types that can be the element type of an array (everything but
/// kInvalid, kTuple, kToken, kOpaque).
bool IsArrayType(PrimitiveType type);
bool IsSignedIntegral(PrimitiveType type);
bool IsUnsignedIntegral(PrimitiveType type);
/// Signed or unsigned integers (pred is not integral).
bool IsIntegral(PrimitiveType type);
/// Real floating-point types, including the f8/f4 kinds and bf16.
bool IsFloatingPoint(PrimitiveType type);
bool IsComplex(PrimitiveType type);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_PRIMITIVE_TYPE_H_
