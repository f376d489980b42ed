#include "xla_index/rule_helpers.h"

#include <algorithm>

#include "hlo/attributes.h"
#include "hlo/shape.h"
#include "llvm/ADT/ArrayRef.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/instruction_indexing.h"

namespace xla_index {

bool AllArrays(const HloInstruction* instruction) {
  if (!instruction->shape().IsArray()) return false;
  for (const HloInstruction* operand : instruction->operands()) {
    if (!operand->shape().IsArray()) return false;
  }
  return true;
}

bool AllArraysWithOperands(const HloInstruction* instruction,
                           int64_t operand_count) {
  return instruction->operand_count() == operand_count &&
         AllArrays(instruction);
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

IndexingMap MakeConstrainedMap(absl::Span<const int64_t> dims,
                               absl::Span<const int64_t> symbol_sizes,
                               absl::Span<const mlir::AffineExpr> exprs,
                               absl::Span<const IndexingConstraint> constraints,
                               mlir::MLIRContext* context) {
  IndexingMap map = MakeMap(dims, symbol_sizes, exprs, context);
  for (const IndexingConstraint& c : constraints) {
    map.AddConstraint(c.expr, c.interval);
  }
  SimplifyAndRemoveUnusedSymbols(map);
  return map;
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

bool IsValidBroadcast(const HloInstruction* broadcast) {
  if (!AllArraysWithOperands(broadcast, 1)) return false;
  const std::vector<int64_t>& dims = broadcast->dimensions();
  return static_cast<int64_t>(dims.size()) ==
             broadcast->operand(0)->shape().rank() &&
         IsDistinctSubset(dims, broadcast->shape().rank());
}

bool IsValidTranspose(const HloInstruction* transpose) {
  if (!AllArraysWithOperands(transpose, 1)) return false;
  const int64_t rank = transpose->shape().rank();
  return transpose->operand(0)->shape().rank() == rank &&
         IsPermutation(transpose->dimensions(), rank);
}

bool IsValidReverse(const HloInstruction* reverse) {
  if (!AllArraysWithOperands(reverse, 1)) return false;
  const int64_t rank = reverse->shape().rank();
  return reverse->operand(0)->shape().rank() == rank &&
         IsDistinctSubset(reverse->dimensions(), rank);
}

bool IsValidSlice(const HloInstruction* slice) {
  if (!AllArraysWithOperands(slice, 1)) return false;
  const int64_t rank = slice->shape().rank();
  const std::vector<SliceDimension>& ranges = slice->slice();
  if (slice->operand(0)->shape().rank() != rank ||
      static_cast<int64_t>(ranges.size()) != rank) {
    return false;
  }
  for (const SliceDimension& s : ranges) {
    if (s.stride < 1) return false;
  }
  return true;
}

bool IsValidPad(const HloInstruction* pad) {
  if (!AllArraysWithOperands(pad, 2) || !pad->operand(1)->shape().IsScalar()) {
    return false;
  }
  const Shape& out = pad->shape();
  const Shape& in = pad->operand(0)->shape();
  const PaddingConfig& config = pad->padding_config();
  if (in.rank() != out.rank() ||
      static_cast<int64_t>(config.size()) != in.rank()) {
    return false;
  }
  for (int64_t i = 0; i < in.rank(); ++i) {
    const PaddingDimension& p = config[i];
    int64_t padded = p.low + p.high + in.dimensions(i) +
                     std::max<int64_t>(in.dimensions(i) - 1, 0) * p.interior;
    if (p.interior < 0 || padded != out.dimensions(i)) return false;
  }
  return true;
}

bool IsValidConcatenate(const HloInstruction* concatenate) {
  if (!AllArrays(concatenate) || concatenate->operand_count() == 0) {
    return false;
  }
  const Shape& out = concatenate->shape();
  const int64_t dim = concatenate->dimension();
  if (dim < 0 || dim >= out.rank()) return false;
  int64_t size = 0;
  for (const HloInstruction* operand : concatenate->operands()) {
    const Shape& in = operand->shape();
    if (in.rank() != out.rank()) return false;
    for (int64_t i = 0; i < out.rank(); ++i) {
      if (i != dim && in.dimensions(i) != out.dimensions(i)) return false;
    }
    size += in.dimensions(dim);
  }
  return size == out.dimensions(dim);
}

bool IsValidDynamicSlice(const HloInstruction* dynamic_slice) {
  if (!AllArrays(dynamic_slice) || dynamic_slice->operand_count() < 1) {
    return false;
  }
  const Shape& out = dynamic_slice->shape();
  const Shape& in = dynamic_slice->operand(0)->shape();
  const int64_t rank = in.rank();
  if (out.rank() != rank || dynamic_slice->operand_count() != rank + 1) {
    return false;
  }
  for (int64_t i = 0; i < rank; ++i) {
    if (!dynamic_slice->operand(i + 1)->shape().IsScalar() ||
        in.dimensions(i) < out.dimensions(i)) {
      return false;
    }
  }
  return true;
}

namespace {

// N >= 1 array inputs with the dims of the first, then N scalars (the
// operands of reduce and reduce-window).
bool HasInputsAndInits(const HloInstruction* instruction) {
  const int64_t count = instruction->operand_count() / 2;
  if (instruction->operand_count() % 2 != 0 || count == 0) return false;
  const Shape& in = instruction->operand(0)->shape();
  if (!in.IsArray()) return false;
  for (int64_t k = 0; k < 2 * count; ++k) {
    const Shape& s = instruction->operand(k)->shape();
    if (!s.IsArray() || (k < count ? !s.SameDimensions(in) : !s.IsScalar())) {
      return false;
    }
  }
  return true;
}

bool IsValidWindowDimension(const WindowDimension& w) {
  return w.size >= 1 && w.stride >= 1 && w.base_dilation >= 1 &&
         w.window_dilation >= 1;
}

}  // namespace

bool IsValidReduce(const HloInstruction* reduce) {
  return HasInputsAndInits(reduce) &&
         IsDistinctSubset(reduce->dimensions(),
                          reduce->operand(0)->shape().rank());
}

std::optional<std::vector<WindowDimension>> GetReduceWindowWindow(
    const HloInstruction* reduce_window) {
  if (!HasInputsAndInits(reduce_window)) return std::nullopt;
  const int64_t rank = reduce_window->operand(0)->shape().rank();
  const Shape& out = reduce_window->shape().IsTuple()
                         ? reduce_window->shape().tuple_shapes(0)
                         : reduce_window->shape();
  if (!out.IsArray() || out.rank() != rank) return std::nullopt;
  std::vector<WindowDimension> window = reduce_window->window().dimensions;
  if (!reduce_window->has_window()) window.assign(rank, WindowDimension{});
  if (static_cast<int64_t>(window.size()) != rank) return std::nullopt;
  for (const WindowDimension& w : window) {
    if (!IsValidWindowDimension(w)) return std::nullopt;
  }
  return window;
}

std::optional<std::vector<WindowDimension>> GetConvolutionWindow(
    const HloInstruction* convolution) {
  if (!AllArraysWithOperands(convolution, 2)) return std::nullopt;
  const Shape& out = convolution->shape();
  const Shape& lhs = convolution->operand(0)->shape();
  const Shape& rhs = convolution->operand(1)->shape();
  const ConvolutionDimensionNumbers& dn =
      convolution->convolution_dimension_numbers();
  const int64_t rank = out.rank();
  const int64_t spatial = rank - 2;
  if (lhs.rank() != rank || rhs.rank() != rank || spatial < 0) {
    return std::nullopt;
  }
  // XLA does not combine feature and batch grouping (the verifier rejects
  // it), and the rules do not index it.
  if (convolution->feature_group_count() > 1 &&
      convolution->batch_group_count() > 1) {
    return std::nullopt;
  }
  // Each of input, kernel and output: the spatial dims then the two others
  // are a permutation of the dims.
  auto is_permutation = [rank](std::vector<int64_t> dims, int64_t first,
                               int64_t second) {
    dims.push_back(first);
    dims.push_back(second);
    return IsPermutation(dims, rank);
  };
  if (!is_permutation(dn.input_spatial_dimensions, dn.input_batch_dimension,
                      dn.input_feature_dimension) ||
      !is_permutation(dn.kernel_spatial_dimensions,
                      dn.kernel_input_feature_dimension,
                      dn.kernel_output_feature_dimension) ||
      !is_permutation(dn.output_spatial_dimensions, dn.output_batch_dimension,
                      dn.output_feature_dimension)) {
    return std::nullopt;
  }
  std::vector<WindowDimension> window = convolution->window().dimensions;
  if (!convolution->has_window()) {
    // No window attribute: the window is the whole kernel, stride 1.
    window.assign(spatial, WindowDimension{});
    for (int64_t k = 0; k < spatial; ++k) {
      window[k].size = rhs.dimensions(dn.kernel_spatial_dimensions[k]);
    }
  }
  if (static_cast<int64_t>(window.size()) != spatial) return std::nullopt;
  for (int64_t k = 0; k < spatial; ++k) {
    if (!IsValidWindowDimension(window[k]) ||
        rhs.dimensions(dn.kernel_spatial_dimensions[k]) != window[k].size) {
      return std::nullopt;
    }
  }
  const int64_t fgc = convolution->feature_group_count();
  const int64_t bgc = convolution->batch_group_count();
  const int64_t in_features = lhs.dimensions(dn.input_feature_dimension);
  const int64_t out_features = out.dimensions(dn.output_feature_dimension);
  if (fgc < 1 || bgc < 1 || in_features % fgc != 0 || out_features % fgc != 0 ||
      out_features % bgc != 0 ||
      rhs.dimensions(dn.kernel_input_feature_dimension) * fgc != in_features ||
      out.dimensions(dn.output_batch_dimension) * bgc !=
          lhs.dimensions(dn.input_batch_dimension) ||
      rhs.dimensions(dn.kernel_output_feature_dimension) != out_features) {
    return std::nullopt;
  }
  return window;
}

}  // namespace xla_index
