#include "sparse/affine_level_maps.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/interval.h"

namespace xla_index::sparse {
namespace {

// Matches `d floordiv c` / `d mod c` with a positive constant c.
bool MatchDimOpConstant(mlir::AffineExpr expr, mlir::AffineExprKind kind,
                        unsigned& dim, int64_t& constant) {
  if (expr.getKind() != kind) return false;
  auto binary = llvm::cast<mlir::AffineBinaryOpExpr>(expr);
  auto lhs = llvm::dyn_cast<mlir::AffineDimExpr>(binary.getLHS());
  auto rhs = llvm::dyn_cast<mlir::AffineConstantExpr>(binary.getRHS());
  if (!lhs || !rhs || rhs.getValue() <= 0) return false;
  dim = lhs.getPosition();
  constant = rhs.getValue();
  return true;
}

/// Bounds of `expr` over the box [0, sizes[d] - 1] by interval.h's
/// interval arithmetic (exact for the sums, products and divisions by
/// constants of level maps; saturating at the int64 limits).
Interval ExprRange(mlir::AffineExpr expr, absl::Span<const int64_t> sizes) {
  switch (expr.getKind()) {
    case mlir::AffineExprKind::Constant:
      return Interval::Point(
          llvm::cast<mlir::AffineConstantExpr>(expr).getValue());
    case mlir::AffineExprKind::DimId:
      return {0,
              sizes[llvm::cast<mlir::AffineDimExpr>(expr).getPosition()] - 1};
    case mlir::AffineExprKind::SymbolId:
      return Interval::Unbounded();
    default:
      break;
  }
  auto binary = llvm::cast<mlir::AffineBinaryOpExpr>(expr);
  Interval a = ExprRange(binary.getLHS(), sizes);
  Interval b = ExprRange(binary.getRHS(), sizes);
  switch (expr.getKind()) {
    case mlir::AffineExprKind::Add:
      return a + b;
    case mlir::AffineExprKind::Mul:
      return a * b;
    case mlir::AffineExprKind::FloorDiv:
      return FloorDiv(a, b);
    case mlir::AffineExprKind::CeilDiv:
      return CeilDiv(a, b);
    case mlir::AffineExprKind::Mod:
      return Mod(a, b);
    default:
      return Interval::Unbounded();
  }
}

}  // namespace

bool IsBlockMap(mlir::AffineMap dim_to_lvl) {
  if (!dim_to_lvl || dim_to_lvl.getNumSymbols() != 0) return false;
  std::map<unsigned, int64_t> block_of_dim;  // 0: used unblocked.
  bool has_block = false;
  for (mlir::AffineExpr result : dim_to_lvl.getResults()) {
    unsigned dim;
    int64_t c;
    if (auto d = llvm::dyn_cast<mlir::AffineDimExpr>(result)) {
      if (!block_of_dim.try_emplace(d.getPosition(), 0).second) return false;
    } else if (MatchDimOpConstant(result, mlir::AffineExprKind::FloorDiv, dim,
                                  c)) {
      if (!block_of_dim.try_emplace(dim, c).second) return false;
    } else if (MatchDimOpConstant(result, mlir::AffineExprKind::Mod, dim, c)) {
      auto it = block_of_dim.find(dim);
      if (it == block_of_dim.end() || it->second != c) return false;
      has_block = true;
    } else {
      return false;
    }
  }
  return has_block;
}

std::vector<int64_t> BlockSizes(mlir::AffineMap dim_to_lvl) {
  std::vector<int64_t> sizes(dim_to_lvl.getNumDims(), 0);
  for (mlir::AffineExpr result : dim_to_lvl.getResults()) {
    unsigned dim;
    int64_t c;
    if (MatchDimOpConstant(result, mlir::AffineExprKind::FloorDiv, dim, c)) {
      sizes[dim] = c;
    }
  }
  return sizes;
}

bool UsesEveryDim(mlir::AffineMap map) {
  for (unsigned d = 0; d < map.getNumDims(); ++d) {
    if (!map.isFunctionOfDim(d)) return false;
  }
  return true;
}

mlir::AffineMap InferLvlToDim(mlir::AffineMap dim_to_lvl) {
  if (!dim_to_lvl || dim_to_lvl.getNumSymbols() != 0) return {};
  mlir::MLIRContext* context = dim_to_lvl.getContext();
  if (dim_to_lvl.isPermutation()) {
    return mlir::inversePermutation(dim_to_lvl);
  }
  if (!IsBlockMap(dim_to_lvl) || !UsesEveryDim(dim_to_lvl)) return {};
  const unsigned num_levels = dim_to_lvl.getNumResults();
  std::vector<mlir::AffineExpr> dims(dim_to_lvl.getNumDims());
  // First the floordiv (or plain) level of each dimension, then add the mod.
  for (unsigned l = 0; l < num_levels; ++l) {
    mlir::AffineExpr result = dim_to_lvl.getResult(l);
    mlir::AffineExpr level = mlir::getAffineDimExpr(l, context);
    unsigned dim;
    int64_t c;
    if (auto d = llvm::dyn_cast<mlir::AffineDimExpr>(result)) {
      dims[d.getPosition()] = level;
    } else if (MatchDimOpConstant(result, mlir::AffineExprKind::FloorDiv, dim,
                                  c)) {
      dims[dim] = level * c;
    }
  }
  for (unsigned l = 0; l < num_levels; ++l) {
    unsigned dim;
    int64_t c;
    if (MatchDimOpConstant(dim_to_lvl.getResult(l), mlir::AffineExprKind::Mod,
                           dim, c)) {
      dims[dim] = dims[dim] + mlir::getAffineDimExpr(l, context);
    }
  }
  // A blocked dimension needs its mod level too: `d floordiv c` alone loses
  // d mod c, so there is no inverse. (MLIR 22's inverseBlockSparsity does
  // not check this and reads past its component list: it crashes.)
  std::vector<int64_t> floordivs(dim_to_lvl.getNumDims(), 0);
  std::vector<int64_t> mods(dim_to_lvl.getNumDims(), 0);
  for (mlir::AffineExpr result : dim_to_lvl.getResults()) {
    unsigned dim;
    int64_t c;
    if (MatchDimOpConstant(result, mlir::AffineExprKind::FloorDiv, dim, c)) {
      ++floordivs[dim];
    } else if (MatchDimOpConstant(result, mlir::AffineExprKind::Mod, dim, c)) {
      ++mods[dim];
    }
  }
  if (floordivs != mods) return {};
  for (mlir::AffineExpr e : dims) {
    if (!e) return {};
  }
  return mlir::AffineMap::get(num_levels, 0, dims, context);
}

absl::StatusOr<std::vector<int64_t>> LevelSizes(
    mlir::AffineMap dim_to_lvl, absl::Span<const int64_t> dim_sizes) {
  if (dim_sizes.size() != dim_to_lvl.getNumDims()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the shape has ", dim_sizes.size(), " dimensions but the encoding has ",
        dim_to_lvl.getNumDims()));
  }
  for (size_t d = 0; d < dim_sizes.size(); ++d) {
    if (dim_sizes[d] <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "dimension ", d, " has size ", dim_sizes[d], "; sizes must be >= 1"));
    }
  }
  std::vector<int64_t> sizes;
  for (unsigned l = 0; l < dim_to_lvl.getNumResults(); ++l) {
    mlir::AffineExpr result = dim_to_lvl.getResult(l);
    bool uses_symbol = false;
    result.walk([&](mlir::AffineExpr e) {
      if (llvm::isa<mlir::AffineSymbolExpr>(e)) uses_symbol = true;
    });
    if (uses_symbol) {
      std::string text;
      llvm::raw_string_ostream os(text);
      result.print(os);
      return absl::InvalidArgumentError(absl::StrCat(
          "level ", l, " (", os.str(),
          ") depends on a symbol, whose range the encoding does not give"));
    }
    unsigned dim;
    int64_t c;
    if (auto d = llvm::dyn_cast<mlir::AffineDimExpr>(result)) {
      sizes.push_back(dim_sizes[d.getPosition()]);
    } else if (MatchDimOpConstant(result, mlir::AffineExprKind::FloorDiv, dim,
                                  c)) {
      sizes.push_back(dim_sizes[dim] / c + (dim_sizes[dim] % c != 0));
    } else if (MatchDimOpConstant(result, mlir::AffineExprKind::Mod, dim, c)) {
      sizes.push_back(c);
    } else {
      Interval range = ExprRange(result, dim_sizes);
      if (range.lower < 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "level ", l, " can be negative (down to ", range.lower, ")"));
      }
      if (range.upper == std::numeric_limits<int64_t>::max()) {
        return absl::InvalidArgumentError(
            absl::StrCat("level ", l, " size overflows 64 bits"));
      }
      sizes.push_back(range.upper + 1);
    }
  }
  return sizes;
}

void EvaluateAffineMap(mlir::AffineMap map, absl::Span<const int64_t> point,
                       std::vector<int64_t>& result) {
  result.resize(map.getNumResults());
  for (unsigned r = 0; r < map.getNumResults(); ++r) {
    // Callers pass symbol-free maps with divisors >= 1, so the evaluation
    // is defined.
    result[r] =
        EvaluateAffineExpr(map.getResult(r), point, /*symbols=*/{}).value_or(0);
  }
}

}  // namespace xla_index::sparse
