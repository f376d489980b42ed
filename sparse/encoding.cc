#include "sparse/encoding.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "sparse/affine_level_maps.h"

namespace xla_index::sparse {
namespace {

std::string ExprToString(mlir::AffineExpr expr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  expr.print(os);
  return os.str();
}

std::string MapToString(mlir::AffineMap map) {
  std::string text;
  llvm::raw_string_ostream os(text);
  map.print(os);
  return os.str();
}

std::string SliceValue(const std::optional<int64_t>& value) {
  return value.has_value() ? absl::StrCat(*value) : "?";
}

bool IsAllowedWidth(int64_t width) {
  return width == 0 || width == 8 || width == 16 || width == 32 || width == 64;
}

absl::Status Invalid(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

std::string LevelName(const SparseEncoding& encoding, size_t level) {
  return absl::StrCat("level ", level, " (",
                      encoding.level_types[level].ToString(), ")");
}

// Level expressions are affine in the dimensions: symbols may only scale
// (ELL's counting `d0 * (s0 * 3)`), never stand alone or divide.
absl::Status VerifyLevelExpressions(const SparseEncoding& encoding) {
  for (unsigned l = 0; l < encoding.dim_to_lvl.getNumResults(); ++l) {
    mlir::AffineExpr result = encoding.dim_to_lvl.getResult(l);
    if (result.isSymbolicOrConstant()) {
      return Invalid(absl::StrCat(
          "level ", l, " expression '", ExprToString(result),
          "' does not use any dimension: a level must be a function of the "
          "dimensions"));
    }
    bool symbolic_divisor = false;
    result.walk([&](mlir::AffineExpr e) {
      if (auto binary = llvm::dyn_cast<mlir::AffineBinaryOpExpr>(e)) {
        if (e.getKind() != mlir::AffineExprKind::Mul &&
            e.getKind() != mlir::AffineExprKind::Add &&
            !llvm::isa<mlir::AffineConstantExpr>(binary.getRHS())) {
          symbolic_divisor = true;
        }
      }
    });
    if (symbolic_divisor) {
      return Invalid(absl::StrCat("level ", l, " expression '",
                                  ExprToString(result),
                                  "' divides by a symbol; divisors must be "
                                  "constants"));
    }
  }
  for (unsigned d = 0; d < encoding.dim_to_lvl.getNumDims(); ++d) {
    if (!encoding.dim_to_lvl.isFunctionOfDim(d)) {
      return Invalid(absl::StrCat("dimension d", d,
                                  " is not used by any level: the levels "
                                  "would not determine the element"));
    }
  }
  return absl::OkStatus();
}

// Each level on its own: structured[n, m] sizes (0 <= n <= m, m in 8
// bits), soa only on singleton, dense and batch levels unique and ordered.
absl::Status VerifyEachLevelType(const SparseEncoding& encoding) {
  const std::vector<LevelType>& types = encoding.level_types;
  const size_t rank = types.size();
  for (size_t l = 0; l < rank; ++l) {
    const LevelType& type = types[l];
    if (type.format == LevelFormat::kStructured) {
      if (type.n < 0 || type.m < 0) {
        return Invalid(absl::StrCat(LevelName(encoding, l),
                                    ": expected structured size to be >= 0"));
      }
      if (type.n > type.m) {
        return Invalid(absl::StrCat(LevelName(encoding, l),
                                    ": expected n <= m in n_out_of_m"));
      }
      if (type.m > 255) {
        return Invalid(absl::StrCat(LevelName(encoding, l),
                                    ": m must fit in 8 bits (at most 255), "
                                    "as MLIR encodes it"));
      }
    }
    if (type.soa && type.format != LevelFormat::kSingleton) {
      return Invalid(
          absl::StrCat(LevelName(encoding, l),
                       ": SoA is only applicable to singleton lvlTypes"));
    }
    if (type.IsDenseLike() && (type.nonunique || type.nonordered)) {
      return Invalid(absl::StrCat(LevelName(encoding, l),
                                  ": dense and batch levels are always "
                                  "unique and ordered"));
    }
  }
  return absl::OkStatus();
}

// COO segments: a singleton follows a (loose) compressed level, or another
// singleton of the same segment, and agrees with it on soa.
absl::Status VerifyCooSegments(const SparseEncoding& encoding) {
  const std::vector<LevelType>& types = encoding.level_types;
  const size_t rank = types.size();
  for (size_t l = 0; l < rank; ++l) {
    if (types[l].format != LevelFormat::kSingleton) continue;
    if (l == 0) {
      return Invalid(absl::StrCat(
          LevelName(encoding, l),
          ": expected compressed or loose_compressed level before "
          "singleton level (a singleton cannot be the first level)"));
    }
    const LevelType& parent = types[l - 1];
    if (parent.format == LevelFormat::kSingleton) {
      if (parent.soa != types[l].soa) {
        return Invalid(absl::StrCat(
            LevelName(encoding, l),
            ": expected all singleton lvlTypes stored in the same memory "
            "layout (SoA vs AoS) as the singleton level before it"));
      }
    } else if (!parent.HasPositions()) {
      return Invalid(absl::StrCat(
          LevelName(encoding, l),
          ": expected compressed or loose_compressed level before singleton "
          "level, found ",
          parent.ToString()));
    }
  }
  return absl::OkStatus();
}

// Batch levels lead: a batch level follows only batch levels.
absl::Status VerifyBatchLevelsLead(const SparseEncoding& encoding) {
  const std::vector<LevelType>& types = encoding.level_types;
  const size_t rank = types.size();
  for (size_t l = 1; l < rank; ++l) {
    if (types[l].format == LevelFormat::kBatch &&
        types[l - 1].format != LevelFormat::kBatch) {
      return Invalid(
          absl::StrCat(LevelName(encoding, l),
                       ": batch lvlType can only be leading levels, but level ",
                       l - 1, " is ", types[l - 1].ToString()));
    }
  }
  return absl::OkStatus();
}

// n:m structured: the last level, only dense levels before it, and when
// the map blocks a dimension, one block size, equal to m.
absl::Status VerifyStructuredLevel(const SparseEncoding& encoding) {
  const std::vector<LevelType>& types = encoding.level_types;
  const size_t rank = types.size();
  for (size_t l = 0; l < rank; ++l) {
    if (types[l].format != LevelFormat::kStructured) continue;
    if (l + 1 != rank) {
      return Invalid(absl::StrCat(LevelName(encoding, l),
                                  ": expected n_out_of_m to be the last "
                                  "level type"));
    }
    for (size_t k = 0; k < l; ++k) {
      if (types[k].format != LevelFormat::kDense) {
        return Invalid(absl::StrCat(
            LevelName(encoding, l),
            ": expected all dense lvlTypes before a n_out_of_m level, but ",
            LevelName(encoding, k), " is not dense"));
      }
    }
    mlir::AffineMap map = encoding.dim_to_lvl;
    if (map.getNumDims() != map.getNumResults()) {
      if (!IsBlockMap(map)) {
        return Invalid(absl::StrCat(LevelName(encoding, l),
                                    ": expected 1xm block structure for "
                                    "n_out_of_m level"));
      }
      int64_t block = 0;
      for (int64_t size : BlockSizes(map)) {
        if (size == 0) continue;
        if (block != 0 && size != block) {
          return Invalid(
              absl::StrCat(LevelName(encoding, l),
                           ": expected only one blocked level with the same "
                           "coefficients"));
        }
        block = size;
      }
      if (block != types[l].m) {
        return Invalid(absl::StrCat(
            LevelName(encoding, l), ": the block size ", block,
            " of the map must equal m = ", types[l].m,
            " (expected coefficients of affine expressions to be equal to "
            "m of n_out_of_m level)"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status VerifyLevelTypes(const SparseEncoding& encoding) {
  XI_RETURN_IF_ERROR(VerifyEachLevelType(encoding));
  XI_RETURN_IF_ERROR(VerifyCooSegments(encoding));
  XI_RETURN_IF_ERROR(VerifyBatchLevelsLead(encoding));
  return VerifyStructuredLevel(encoding);
}

absl::Status VerifySlices(const SparseEncoding& encoding) {
  if (encoding.dim_slices.empty()) return absl::OkStatus();
  if (static_cast<int64_t>(encoding.dim_slices.size()) != encoding.dim_rank()) {
    return Invalid(
        absl::StrCat("dimension-rank mismatch between dimSlices and dimToLvl: ",
                     encoding.dim_slices.size(), " != ", encoding.dim_rank()));
  }
  if (encoding.dim_rank() != encoding.lvl_rank()) {
    return Invalid(
        absl::StrCat("dimSlices expected dimension-rank to match level-rank: ",
                     encoding.dim_rank(), " != ", encoding.lvl_rank()));
  }
  for (size_t d = 0; d < encoding.dim_slices.size(); ++d) {
    const DimSlice& slice = encoding.dim_slices[d];
    if (slice.offset.has_value() && *slice.offset < 0) {
      return Invalid(absl::StrCat("dimension d", d, " slice offset ",
                                  *slice.offset, " is negative"));
    }
    if (slice.size.has_value() && *slice.size <= 0) {
      return Invalid(absl::StrCat("dimension d", d, " slice size ", *slice.size,
                                  " must be positive"));
    }
    if (slice.stride.has_value() && *slice.stride <= 0) {
      return Invalid(absl::StrCat("dimension d", d, " slice stride ",
                                  *slice.stride, " must be positive"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

std::string DimSlice::ToString() const {
  return absl::StrCat("#sparse_tensor<slice(", SliceValue(offset), ", ",
                      SliceValue(size), ", ", SliceValue(stride), ")>");
}

bool operator==(const DimSlice& a, const DimSlice& b) {
  return a.offset == b.offset && a.size == b.size && a.stride == b.stride;
}

std::string PrintDimLvlMap(const SparseEncoding& encoding) {
  std::string text;
  mlir::AffineMap map = encoding.dim_to_lvl;
  if (map.getNumSymbols() > 0) {
    text += "[";
    for (unsigned s = 0; s < map.getNumSymbols(); ++s) {
      absl::StrAppend(&text, s > 0 ? ", " : "", "s", s);
    }
    text += "]";
  }
  text += "(";
  for (unsigned d = 0; d < map.getNumDims(); ++d) {
    absl::StrAppend(&text, d > 0 ? ", " : "", "d", d);
    if (!encoding.dim_slices.empty()) {
      absl::StrAppend(&text, " : ", encoding.dim_slices[d].ToString());
    }
  }
  text += ") -> (";
  for (unsigned l = 0; l < map.getNumResults(); ++l) {
    absl::StrAppend(&text, l > 0 ? ", " : "", ExprToString(map.getResult(l)),
                    " : ", encoding.level_types[l].ToString());
  }
  text += ")";
  return text;
}

std::string PrintSparseEncoding(const SparseEncoding& encoding) {
  std::string text = absl::StrCat("#sparse_tensor.encoding<{ map = ",
                                  PrintDimLvlMap(encoding));
  if (encoding.pos_width != 0) {
    absl::StrAppend(&text, ", posWidth = ", encoding.pos_width);
  }
  if (encoding.crd_width != 0) {
    absl::StrAppend(&text, ", crdWidth = ", encoding.crd_width);
  }
  if (encoding.explicit_val) {
    absl::StrAppend(
        &text, ", explicitVal = ", AttributeToString(encoding.explicit_val));
  }
  if (encoding.implicit_val) {
    absl::StrAppend(
        &text, ", implicitVal = ", AttributeToString(encoding.implicit_val));
  }
  text += " }>";
  return text;
}

std::string AttributeToString(mlir::Attribute attribute) {
  std::string text;
  llvm::raw_string_ostream os(text);
  attribute.print(os);
  return os.str();
}

bool IsZeroValue(mlir::Attribute attribute) {
  if (auto integer = llvm::dyn_cast<mlir::IntegerAttr>(attribute)) {
    return integer.getValue().isZero();
  }
  if (auto real = llvm::dyn_cast<mlir::FloatAttr>(attribute)) {
    return real.getValue().isZero();
  }
  if (auto complex = llvm::dyn_cast<mlir::complex::NumberAttr>(attribute)) {
    return complex.getReal().isZero() && complex.getImag().isZero();
  }
  return false;
}

absl::Status VerifySparseEncoding(const SparseEncoding& encoding) {
  if (!IsAllowedWidth(encoding.pos_width)) {
    return Invalid(
        absl::StrCat("unexpected position bitwidth: ", encoding.pos_width,
                     " (allowed: 0 for native, 8, 16, 32, 64)"));
  }
  if (!IsAllowedWidth(encoding.crd_width)) {
    return Invalid(
        absl::StrCat("unexpected coordinate bitwidth: ", encoding.crd_width,
                     " (allowed: 0 for native, 8, 16, 32, 64)"));
  }
  if (!encoding.dim_to_lvl) {
    return Invalid("the encoding has no dim-to-level map");
  }
  if (encoding.level_types.empty()) {
    return Invalid("expected a non-empty array for lvlTypes (no levels)");
  }
  if (encoding.dim_to_lvl.getNumResults() != encoding.level_types.size()) {
    return Invalid(
        absl::StrCat("level-rank mismatch between dimToLvl and lvlTypes: ",
                     encoding.dim_to_lvl.getNumResults(),
                     " != ", encoding.level_types.size()));
  }
  if (encoding.dim_rank() > encoding.lvl_rank()) {
    return Invalid(absl::StrCat("unexpected dimToLvl mapping from ",
                                encoding.dim_rank(), " dimensions to only ",
                                encoding.lvl_rank(), " levels"));
  }
  XI_RETURN_IF_ERROR(VerifyLevelExpressions(encoding));
  XI_RETURN_IF_ERROR(VerifyLevelTypes(encoding));
  mlir::AffineMap inferred = InferLvlToDim(encoding.dim_to_lvl);
  if (!inferred && encoding.dim_to_lvl.getNumSymbols() == 0) {
    return Invalid(absl::StrCat(
        "failed to infer lvlToDim from dimToLvl ",
        MapToString(encoding.dim_to_lvl),
        ": only permutations and block maps (d floordiv c, d mod c) can be "
        "inverted"));
  }
  if (encoding.lvl_to_dim) {
    if (encoding.lvl_to_dim.getNumResults() !=
        static_cast<unsigned>(encoding.dim_rank())) {
      return Invalid(absl::StrCat(
          "the explicit lvlToDim has ", encoding.lvl_to_dim.getNumResults(),
          " results for ", encoding.dim_rank(), " dimensions"));
    }
    if (encoding.lvl_to_dim != inferred) {
      return Invalid(
          absl::StrCat("expected lvlToDim to be an inverse of dimToLvl: given ",
                       MapToString(encoding.lvl_to_dim), ", inferred ",
                       inferred ? MapToString(inferred) : std::string("none")));
    }
  }
  return VerifySlices(encoding);
}

}  // namespace xla_index::sparse
