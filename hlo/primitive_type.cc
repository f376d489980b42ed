#include "hlo/primitive_type.h"

#include <cstdint>
#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"

namespace xla_index {
namespace {

struct TypeInfo {
  PrimitiveType type;
  absl::string_view name;
  int64_t bits;
};

// One row per type: the printed name and the bit width of one element.
constexpr TypeInfo kTypes[] = {
    {PrimitiveType::kInvalid, "invalid", 0},
    {PrimitiveType::kPred, "pred", 8},
    {PrimitiveType::kS1, "s1", 1},
    {PrimitiveType::kS2, "s2", 2},
    {PrimitiveType::kS4, "s4", 4},
    {PrimitiveType::kS8, "s8", 8},
    {PrimitiveType::kS16, "s16", 16},
    {PrimitiveType::kS32, "s32", 32},
    {PrimitiveType::kS64, "s64", 64},
    {PrimitiveType::kU1, "u1", 1},
    {PrimitiveType::kU2, "u2", 2},
    {PrimitiveType::kU4, "u4", 4},
    {PrimitiveType::kU8, "u8", 8},
    {PrimitiveType::kU16, "u16", 16},
    {PrimitiveType::kU32, "u32", 32},
    {PrimitiveType::kU64, "u64", 64},
    {PrimitiveType::kF4E2M1FN, "f4e2m1fn", 4},
    {PrimitiveType::kF8E3M4, "f8e3m4", 8},
    {PrimitiveType::kF8E4M3, "f8e4m3", 8},
    {PrimitiveType::kF8E4M3FN, "f8e4m3fn", 8},
    {PrimitiveType::kF8E4M3B11FNUZ, "f8e4m3b11fnuz", 8},
    {PrimitiveType::kF8E4M3FNUZ, "f8e4m3fnuz", 8},
    {PrimitiveType::kF8E5M2, "f8e5m2", 8},
    {PrimitiveType::kF8E5M2FNUZ, "f8e5m2fnuz", 8},
    {PrimitiveType::kF8E8M0FNU, "f8e8m0fnu", 8},
    {PrimitiveType::kBF16, "bf16", 16},
    {PrimitiveType::kF16, "f16", 16},
    {PrimitiveType::kF32, "f32", 32},
    {PrimitiveType::kF64, "f64", 64},
    {PrimitiveType::kC64, "c64", 64},
    {PrimitiveType::kC128, "c128", 128},
    {PrimitiveType::kTuple, "tuple", 0},
    {PrimitiveType::kToken, "token", 0},
    {PrimitiveType::kOpaque, "opaque", 0},
};

const TypeInfo& Info(PrimitiveType type) {
  for (const TypeInfo& info : kTypes) {
    if (info.type == type) return info;
  }
  return kTypes[0];
}

}  // namespace

absl::string_view PrimitiveTypeName(PrimitiveType type) {
  return Info(type).name;
}

std::optional<PrimitiveType> PrimitiveTypeFromName(absl::string_view name) {
  // Case-insensitive: XLA's tiled-layout documentation writes F32[3,5].
  for (const TypeInfo& info : kTypes) {
    if (absl::EqualsIgnoreCase(info.name, name) &&
        info.type != PrimitiveType::kInvalid &&
        info.type != PrimitiveType::kTuple) {
      return info.type;
    }
  }
  return std::nullopt;
}

int64_t BitWidth(PrimitiveType type) { return Info(type).bits; }

int64_t ByteSize(PrimitiveType type) { return (BitWidth(type) + 7) / 8; }

bool IsArrayType(PrimitiveType type) {
  return type != PrimitiveType::kInvalid && type != PrimitiveType::kTuple &&
         type != PrimitiveType::kToken && type != PrimitiveType::kOpaque;
}

bool IsSignedIntegral(PrimitiveType type) {
  return type >= PrimitiveType::kS1 && type <= PrimitiveType::kS64;
}

bool IsUnsignedIntegral(PrimitiveType type) {
  return type >= PrimitiveType::kU1 && type <= PrimitiveType::kU64;
}

bool IsIntegral(PrimitiveType type) {
  return IsSignedIntegral(type) || IsUnsignedIntegral(type);
}

bool IsFloatingPoint(PrimitiveType type) {
  return type >= PrimitiveType::kF4E2M1FN && type <= PrimitiveType::kF64;
}

bool IsComplex(PrimitiveType type) {
  return type == PrimitiveType::kC64 || type == PrimitiveType::kC128;
}

}  // namespace xla_index
