#include "xla_index/rule_helpers.h"

#include <algorithm>

#include "hlo/attributes.h"
#include "hlo/shape.h"
#include "llvm/ADT/ArrayRef.h"
#include "mlir/IR/AffineMap.h"

namespace xla_index {

bool AllArrays(const HloInstruction* instruction) {
  if (!instruction->shape().IsArray()) return false;
  for (const HloInstruction* operand : instruction->operands()) {
    if (!operand->shape().IsArray()) return false;
  }
  return true;
}

bool IsDistinctSubset(absl::Span<const int64_t> dims, int64_t n) {
  std::vector<bool> seen(n, false);
  for (int64_t d : dims) {
    if (d < 0 || d >= n || seen[d]) return false;
    seen[d] = true;
  }
  return true;
}

bool IsPermutation(absl::Span<const int64_t> dims, int64_t n) {
  return static_cast<int64_t>(dims.size()) == n && IsDistinctSubset(dims, n);
}

IndexingMap MakeMap(absl::Span<const int64_t> dims,
                    absl::Span<const int64_t> symbol_sizes,
                    absl::Span<const mlir::AffineExpr> exprs,
                    mlir::MLIRContext* context) {
  return IndexingMap::FromTensorSizes(
      mlir::AffineMap::get(
          dims.size(), symbol_sizes.size(),
          llvm::ArrayRef<mlir::AffineExpr>(exprs.data(), exprs.size()),
          context),
      dims, symbol_sizes);
}

namespace {

// The dims of `shape` in neither `batch` nor `contracting`, increasing.
std::vector<int64_t> FreeDims(const Shape& shape,
                              const std::vector<int64_t>& batch,
                              const std::vector<int64_t>& contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
        std::find(contracting.begin(), contracting.end(), d) ==
            contracting.end()) {
      free.push_back(d);
    }
  }
  return free;
}

// lhs dims `l[i]` and rhs dims `r[i]` pair up with equal sizes.
bool SizesMatch(const Shape& lhs, const std::vector<int64_t>& l,
                const Shape& rhs, const std::vector<int64_t>& r) {
  for (size_t i = 0; i < l.size(); ++i) {
    if (lhs.dimensions(l[i]) != rhs.dimensions(r[i])) return false;
  }
  return true;
}

}  // namespace

std::optional<DotDimensionRoles> GetDotDimensionRoles(
    const HloInstruction* dot) {
  if (!AllArrays(dot) || dot->operand_count() != 2) return std::nullopt;
  const Shape& lhs = dot->operand(0)->shape();
  const Shape& rhs = dot->operand(1)->shape();
  const DotDimensionNumbers& dn = dot->dot_dimension_numbers();
  const auto& lb = dn.lhs_batch_dimensions;
  const auto& rb = dn.rhs_batch_dimensions;
  const auto& lc = dn.lhs_contracting_dimensions;
  const auto& rc = dn.rhs_contracting_dimensions;
  std::vector<int64_t> lhs_special(lb), rhs_special(rb);
  lhs_special.insert(lhs_special.end(), lc.begin(), lc.end());
  rhs_special.insert(rhs_special.end(), rc.begin(), rc.end());
  if (lb.size() != rb.size() || lc.size() != rc.size() ||
      !IsDistinctSubset(lhs_special, lhs.rank()) ||
      !IsDistinctSubset(rhs_special, rhs.rank()) ||
      !SizesMatch(lhs, lb, rhs, rb) || !SizesMatch(lhs, lc, rhs, rc)) {
    return std::nullopt;
  }
  DotDimensionRoles roles{FreeDims(lhs, lb, lc), FreeDims(rhs, rb, rc)};
  if (dot->shape().rank() !=
      static_cast<int64_t>(lb.size() + roles.lhs_free.size() +
                           roles.rhs_free.size())) {
    return std::nullopt;
  }
  return roles;
}

}  // namespace xla_index
