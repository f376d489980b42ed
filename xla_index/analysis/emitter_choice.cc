#include "xla_index/analysis/emitter_choice.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/checked_arithmetic.h"
#include "hlo/opcode.h"
#include "hlo/primitive_type.h"
#include "layout/shape_layout.h"

namespace xla_index {
namespace {

// XLA's constants (ir_emission_utils.h, reduction_utils.h).
constexpr int64_t kMinDimensionToTransposeTiled = 16;
constexpr int64_t kMinDimensionToTransposeTiled2 = 8;
constexpr int64_t kMinTotalDimensionsToTransposeTiled = 64 * 128;
constexpr int64_t kMaxBitsInMostMinorDimension = 8 * 8;
constexpr int64_t kMinThreadsXRowReduction = 1024;
constexpr int64_t kBatchedReductionRaceFreeBound = 8;
constexpr int64_t kColumnReductionTileY = 128;
constexpr int64_t kRowReductionTileX = 16;

std::vector<int64_t> MinorToMajor(const Shape& shape) {
  if (shape.has_layout() &&
      static_cast<int64_t>(shape.layout().minor_to_major.size()) ==
          shape.rank()) {
    return shape.layout().minor_to_major;
  }
  return DefaultLayout(shape.rank()).minor_to_major;
}

bool HasDefaultLayout(const Shape& shape) {
  return MinorToMajor(shape) == DefaultLayout(shape.rank()).minor_to_major;
}

// LayoutUtil::AreDimensionsConsecutive: `dims` take consecutive positions
// of the minor-to-major order.
bool AreDimensionsConsecutive(const Shape& shape,
                              const std::vector<int64_t>& dims) {
  std::vector<int64_t> positions;
  const std::vector<int64_t> order = MinorToMajor(shape);
  for (int64_t d : dims) {
    positions.push_back(std::find(order.begin(), order.end(), d) -
                        order.begin());
  }
  std::sort(positions.begin(), positions.end());
  for (size_t i = 1; i < positions.size(); ++i) {
    if (positions[i] != positions[i - 1] + 1) return false;
  }
  return true;
}

// PartitionShapeByMiddleDimensions: element counts of the dimensions more
// major than, in, and more minor than the consecutive `middle` dimensions.
std::array<int64_t, 3> PartitionByMiddle(const Shape& shape,
                                         const std::vector<int64_t>& middle) {
  std::array<int64_t, 3> values = {1, 1, 1};
  int segment = 2;  // minor, then middle (1), then major (0)
  for (int64_t dim : MinorToMajor(shape)) {
    const bool in_middle =
        std::find(middle.begin(), middle.end(), dim) != middle.end();
    if (segment == 2 && in_middle) segment = 1;
    if (segment == 1 && !in_middle) segment = 0;
    values[segment] = SaturatingMul(values[segment], shape.dimensions(dim));
  }
  return values;
}

bool IsTupleRoot(const HloInstruction& i) {
  return i.opcode() == HloOpcode::kTuple;
}

// ShapeUtil::TransposeIsBitcast for the dimensions that are not 1: the
// output's physical order of its non-trivial dimensions, mapped to input
// dimensions, equals the input's.
bool TransposeIsBitcast(const HloInstruction& t) {
  const Shape& in = t.operand(0)->shape();
  const Shape& out = t.shape();
  std::vector<int64_t> out_order, in_order;
  for (int64_t d : MinorToMajor(out)) {
    if (out.dimensions(d) != 1) out_order.push_back(t.dimensions()[d]);
  }
  for (int64_t d : MinorToMajor(in)) {
    if (in.dimensions(d) != 1) in_order.push_back(d);
  }
  return out_order == in_order;
}

// XLA's IsIntermediate: elementwise ops (copies only when they keep the
// layout), bitcasts and bitcast-like reshapes and transposes, with between
// 1 and `allowed_operands` operands.
bool IsIntermediate(const HloInstruction& i, int64_t allowed_operands) {
  if (i.operand_count() == 0 || i.operand_count() > allowed_operands) {
    return false;
  }
  if (i.opcode() == HloOpcode::kCopy) {
    return i.shape() == i.operand(0)->shape();
  }
  if (IsElementwise(i.opcode())) return true;
  switch (i.opcode()) {
    case HloOpcode::kBitcast:
      return true;
    case HloOpcode::kReshape:
      return HasDefaultLayout(i.shape()) &&
             HasDefaultLayout(i.operand(0)->shape());
    case HloOpcode::kTranspose:
      return TransposeIsBitcast(i);
    default:
      return false;
  }
}

// The kernel's instructions and their users (within the kernel).
struct KernelGraph {
  // Null for an instruction analyzed alone: then only the root is inside.
  const HloComputation* computation = nullptr;
  absl::flat_hash_map<const HloInstruction*, std::vector<const HloInstruction*>>
      users;
  bool Contains(const HloInstruction* i) const {
    return computation != nullptr && i->parent() == computation &&
           i->opcode() != HloOpcode::kParameter;
  }
};

KernelGraph MakeGraph(const AnalyzedFusion& kernel) {
  KernelGraph graph;
  graph.computation = kernel.computation;
  if (graph.computation == nullptr) return graph;
  for (const auto& instruction : graph.computation->instructions()) {
    for (const HloInstruction* operand : instruction->operands()) {
      graph.users[operand].push_back(instruction.get());
    }
  }
  return graph;
}

// XLA's FindHero: the single instruction satisfying `pred` reached from
// `start` through intermediates (up to 3 operands), from which nothing but
// intermediates, tuples and parameters is reachable through users.
template <typename Pred>
const HloInstruction* FindHero(const HloInstruction* start,
                               const KernelGraph& graph, Pred pred) {
  const HloInstruction* hero = nullptr;
  std::deque<const HloInstruction*> queue = {start};
  absl::flat_hash_set<const HloInstruction*> seen = {start};
  while (!queue.empty()) {
    const HloInstruction* node = queue.front();
    queue.pop_front();
    if (pred(*node)) {
      if (hero != nullptr) return nullptr;
      hero = node;
      continue;
    }
    if (!IsIntermediate(*node, 3)) continue;
    for (const HloInstruction* operand : node->operands()) {
      if (graph.Contains(operand) && seen.insert(operand).second) {
        queue.push_back(operand);
      }
    }
  }
  if (hero == nullptr) return nullptr;
  std::deque<const HloInstruction*> users;
  absl::flat_hash_set<const HloInstruction*> visited;
  auto push_users = [&](const HloInstruction* n) {
    auto it = graph.users.find(n);
    if (it == graph.users.end()) return;
    for (const HloInstruction* u : it->second) {
      if (visited.insert(u).second) users.push_back(u);
    }
  };
  push_users(hero);
  while (!users.empty()) {
    const HloInstruction* u = users.front();
    users.pop_front();
    if (u->opcode() != HloOpcode::kTuple &&
        u->opcode() != HloOpcode::kParameter && !IsIntermediate(*u, 3)) {
      return nullptr;
    }
    push_users(u);
  }
  return hero;
}

// XLA's FindNonTrivialHero.
const HloInstruction* FindNonTrivialHero(const HloInstruction* root,
                                         const KernelGraph& graph) {
  const HloInstruction* hero = root;
  while (IsIntermediate(*hero, 1) && graph.Contains(hero->operand(0))) {
    hero = hero->operand(0);
  }
  if (const HloInstruction* t = FindHero(hero, graph, [](const auto& n) {
        return TiledTransposeDescription(n).has_value();
      })) {
    return t;
  }
  if (const HloInstruction* c = FindHero(hero, graph, [](const auto& n) {
        return n.opcode() == HloOpcode::kConcatenate;
      })) {
    return c;
  }
  return hero->opcode() == HloOpcode::kReduce ? hero : root;
}

bool IsRealReductionHero(const HloInstruction& root, const HloInstruction& hero,
                         const GpuDeviceDescription& device) {
  if (!IsReductionFromOrToContiguousDimensions(hero, device)) return false;
  return &root == &hero || ReductionIsRaceFree(GetReductionShape(hero), device);
}

bool SameReductionShape(const ReductionShape& a, const ReductionShape& b) {
  return a.is_row == b.is_row && a.dims == b.dims;
}

}  // namespace

std::string EmitterKindName(EmitterKind kind) {
  switch (kind) {
    case EmitterKind::kLoop:
      return "loop";
    case EmitterKind::kTranspose:
      return "transpose";
    case EmitterKind::kReduction:
      return "reduction";
    case EmitterKind::kConcatenate:
      return "concatenate";
    case EmitterKind::kInPlaceDynamicUpdateSlice:
      return "in-place dynamic-update-slice";
    case EmitterKind::kScatter:
      return "scatter";
    case EmitterKind::kSort:
      return "sort";
    case EmitterKind::kLibrary:
      return "library";
  }
  return "unknown";
}

ReductionShape GetReductionShape(const HloInstruction& reduce) {
  const Shape& input = reduce.operand(0)->shape();
  const std::vector<int64_t>& reduced = reduce.dimensions();
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < input.rank(); ++d) {
    if (std::find(reduced.begin(), reduced.end(), d) == reduced.end()) {
      kept.push_back(d);
    }
  }
  if (kept.empty()) return {true, {1, 1, input.ElementCount()}};
  if (AreDimensionsConsecutive(input, kept)) {
    std::array<int64_t, 3> p = PartitionByMiddle(input, kept);
    if (p[1] == 1) return {true, {1, 1, SaturatingMul(p[0], p[2])}};
    if (p[2] == 1) return {false, {1, p[0], p[1]}};
    return {true, p};
  }
  std::array<int64_t, 3> p = PartitionByMiddle(input, reduced);
  if (p[2] == 1) return {true, {1, p[0], p[1]}};
  return {false, p};
}

bool IsReductionFromOrToContiguousDimensions(
    const HloInstruction& reduce, const GpuDeviceDescription& device) {
  // A reduce of an empty array never reaches an emitter in XLA (the
  // algebraic simplifier replaces it with its init value): the loop
  // emitter's map stands for it, and no size below is 0.
  if (reduce.opcode() != HloOpcode::kReduce || reduce.operand_count() < 2 ||
      !reduce.operand(0)->shape().IsArray() ||
      reduce.operand(0)->shape().ElementCount() == 0) {
    return false;
  }
  const Shape& input = reduce.operand(0)->shape();
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < input.rank(); ++d) {
    if (std::find(reduce.dimensions().begin(), reduce.dimensions().end(), d) ==
        reduce.dimensions().end()) {
      kept.push_back(d);
    }
  }
  if (!AreDimensionsConsecutive(input, kept) &&
      !AreDimensionsConsecutive(input, reduce.dimensions())) {
    return false;
  }
  // IsUnnestedReductionFasterThanElemental.
  const ReductionShape r = GetReductionShape(reduce);
  const int64_t warp = device.threads_per_warp;
  if (r.is_row) return r.dims[2] >= warp || warp % r.dims[2] == 0;
  const int64_t major = r.dims[1], minor = r.dims[2];
  const bool prefer_elemental =
      major < warp || (major < 2 * warp && minor < warp) ||
      (major < 4 * warp && minor < 8) || (major < 8 * warp && minor < 3);
  return !prefer_elemental;
}

bool ReductionIsRaceFree(const ReductionShape& r,
                         const GpuDeviceDescription& device) {
  if (r.is_row) {
    return r.dims[2] <= kMinThreadsXRowReduction * kRowReductionTileX &&
           r.dims[0] <= kBatchedReductionRaceFreeBound;
  }
  return r.dims[1] <= device.threads_per_warp * kColumnReductionTileY;
}

std::optional<NormalizedTranspose> NormalizeTranspose(
    const HloInstruction& transpose) {
  const bool is_copy = transpose.opcode() == HloOpcode::kCopy;
  if ((transpose.opcode() != HloOpcode::kTranspose && !is_copy) ||
      transpose.operand_count() != 1) {
    return std::nullopt;
  }
  const Shape& in = transpose.operand(0)->shape();
  const Shape& out = transpose.shape();
  if (!in.IsArray() || !out.IsArray() || in.rank() != out.rank() ||
      (!is_copy &&
       static_cast<int64_t>(transpose.dimensions().size()) != out.rank())) {
    return std::nullopt;
  }
  // The physical permutation (what XLA's layout normalization leaves as a
  // transpose of default-layout shapes): physical output position i holds
  // logical output dimension out_order[i], which reads logical input
  // dimension perm[out_order[i]], at physical input position p.
  const int64_t rank = out.rank();
  std::vector<int64_t> in_order = MinorToMajor(in);
  std::vector<int64_t> out_order = MinorToMajor(out);
  std::reverse(in_order.begin(), in_order.end());
  std::reverse(out_order.begin(), out_order.end());
  std::vector<int64_t> in_sizes(rank), physical_perm(rank);
  for (int64_t p = 0; p < rank; ++p) in_sizes[p] = in.dimensions(in_order[p]);
  for (int64_t i = 0; i < rank; ++i) {
    const int64_t logical_in =
        is_copy ? out_order[i] : transpose.dimensions()[out_order[i]];
    physical_perm[i] = std::find(in_order.begin(), in_order.end(), logical_in) -
                       in_order.begin();
  }
  // Drop size-1 dimensions: input dimension d becomes d - (number of size-1
  // input dimensions before d).
  std::vector<int64_t> delta(rank + 1, 0);
  for (int64_t i = 0; i < rank; ++i) {
    delta[i + 1] = delta[i] + (in_sizes[i] == 1 ? 1 : 0);
  }
  std::vector<int64_t> out_dims, out_to_in;
  for (int64_t i = 0; i < rank; ++i) {
    if (in_sizes[physical_perm[i]] == 1) continue;
    out_dims.push_back(in_sizes[physical_perm[i]]);
    out_to_in.push_back(physical_perm[i] - delta[physical_perm[i]]);
  }
  NormalizedTranspose t;
  if (out_dims.empty()) {
    t.output_dims = {1};
    t.permutation = {0};
    t.input_dims = {1};
    return t;
  }
  // Merge runs of output dimensions whose input dimensions are adjacent.
  std::vector<int64_t> segment_starts;
  for (size_t i = 0; i < out_dims.size(); ++i) {
    if (i == 0 || out_to_in[i] != out_to_in[i - 1] + 1) {
      segment_starts.push_back(static_cast<int64_t>(i));
      t.output_dims.push_back(out_dims[i]);
    } else {
      t.output_dims.back() *= out_dims[i];
    }
  }
  // Number the segments by their first input dimension.
  std::vector<int64_t> firsts;
  for (int64_t s : segment_starts) firsts.push_back(out_to_in[s]);
  std::vector<int64_t> sorted = firsts;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t f : firsts) {
    t.permutation.push_back(std::find(sorted.begin(), sorted.end(), f) -
                            sorted.begin());
  }
  t.input_dims.assign(t.output_dims.size(), 1);
  for (size_t i = 0; i < t.output_dims.size(); ++i) {
    t.input_dims[t.permutation[i]] = t.output_dims[i];
  }
  return t;
}

std::optional<PackedTransposeTiling> GetPackedTransposeTiling(
    const NormalizedTranspose& t, int64_t bits) {
  constexpr int64_t kBankBits = 32, kBanks = 32;
  if (bits >= kBankBits || bits <= 0) return std::nullopt;
  PackedTransposeTiling p;
  p.output_dims = t.output_dims;
  p.permutation = t.permutation;
  // A size-1 B dimension when the minor dimension is transposed, a size-1
  // A dimension when the third-to-last is (PackedTransposeDescription).
  if (p.permutation.back() != static_cast<int64_t>(p.output_dims.size()) - 1) {
    p.permutation.push_back(static_cast<int64_t>(p.output_dims.size()));
    p.output_dims.push_back(1);
  }
  int64_t rank = static_cast<int64_t>(p.output_dims.size());
  if (rank < 3) return std::nullopt;
  if (p.permutation[rank - 3] != rank - 3) {
    p.output_dims.insert(p.output_dims.begin() + rank - 2, 1);
    for (int64_t& d : p.permutation) {
      if (d > rank - 3) ++d;
    }
    p.permutation.insert(p.permutation.begin() + rank - 2, rank - 2);
    ++rank;
  }
  p.input_dims.assign(rank, 1);
  for (int64_t i = 0; i < rank; ++i) {
    p.input_dims[p.permutation[i]] = p.output_dims[i];
  }
  const int64_t a = p.input_dims[rank - 3], b = p.input_dims[rank - 1];
  const int64_t t1 = p.input_dims[rank - 2];
  const int64_t t2 = p.input_dims[p.permutation[rank - 2]];
  p.vector = kBankBits / bits;
  const int64_t shmem_dim = kBanks * p.vector;
  const int64_t tile_t1 = std::min(t1, shmem_dim);
  const int64_t tile_a = std::min(a, shmem_dim / tile_t1);
  const int64_t tile_t2 = std::min(t2, shmem_dim);
  const int64_t rows = tile_t2, cols = tile_a * tile_t1;
  if (cols < 10 * p.vector || rows < 10 * p.vector) return std::nullopt;
  if (b != 1 || rows % p.vector != 0 || cols % p.vector != 0 ||
      t2 % tile_t2 % p.vector != 0) {
    return std::nullopt;
  }
  // GetPackedTransposeTileSizes: the output tile.
  std::vector<int64_t> inverse(rank);
  for (int64_t i = 0; i < rank; ++i) inverse[p.permutation[i]] = i;
  p.output_tile.assign(rank, 1);
  p.output_tile[inverse[rank - 2]] = tile_t1;
  p.output_tile[rank - 2] = tile_t2;
  p.output_tile[rank - 3] = tile_a;
  return p;
}

namespace {

bool CanEmitPackedTranspose(const NormalizedTranspose& t, int64_t bits) {
  return GetPackedTransposeTiling(t, bits).has_value();
}

}  // namespace

std::optional<NormalizedTranspose> TiledTransposeDescription(
    const HloInstruction& transpose) {
  std::optional<NormalizedTranspose> t = NormalizeTranspose(transpose);
  // An empty transpose is no tile work (and no size below may be 0).
  if (!t.has_value() || t->permutation.size() < 2 ||
      transpose.shape().ElementCount() == 0) {
    return std::nullopt;
  }
  const int64_t bits = BitWidth(transpose.shape().element_type());
  const int64_t n = static_cast<int64_t>(t->output_dims.size());
  if (CanEmitPackedTranspose(*t, bits)) return t;
  const int64_t out_minor = t->output_dims.back();
  if (t->permutation.back() == n - 1) {
    // The minor dimension is kept: it must be small, and the transposed
    // pair large enough.
    const int64_t in_minor = t->input_dims[n - 2];
    if (bits * out_minor <= kMaxBitsInMostMinorDimension &&
        bits * out_minor * std::min(in_minor, t->output_dims[n - 2]) >=
            8 * kMinDimensionToTransposeTiled) {
      return t;
    }
    return std::nullopt;
  }
  const int64_t in_minor = t->input_dims.back();
  const bool large = (in_minor >= kMinDimensionToTransposeTiled &&
                      out_minor >= kMinDimensionToTransposeTiled) ||
                     (in_minor >= kMinDimensionToTransposeTiled2 &&
                      out_minor >= kMinDimensionToTransposeTiled2 &&
                      SaturatingMul(in_minor, out_minor) >=
                          kMinTotalDimensionsToTransposeTiled);
  if (large && bits != 4) return t;
  return std::nullopt;
}

bool TransposesMinorDimension(const HloInstruction& instruction) {
  if (instruction.opcode() == HloOpcode::kFusion) {
    const HloComputation* fused = instruction.fused_computation();
    if (fused == nullptr) return false;
    for (const auto& i : fused->instructions()) {
      if (TransposesMinorDimension(*i)) return true;
    }
    return false;
  }
  // MostMinorNonTrivialDimension: the first dimension of size > 1 in the
  // minor-to-major order (and its position), else the most minor.
  auto most_minor_nontrivial =
      [](const Shape& s) -> std::pair<int64_t, int64_t> {
    const std::vector<int64_t> order = MinorToMajor(s);
    for (size_t p = 0; p < order.size(); ++p) {
      if (s.dimensions(order[p]) > 1) return {order[p], p};
    }
    return {order.empty() ? -1 : order[0], 0};
  };
  if (instruction.opcode() == HloOpcode::kCopy) {
    return most_minor_nontrivial(instruction.operand(0)->shape()).first !=
           most_minor_nontrivial(instruction.shape()).first;
  }
  if (instruction.opcode() != HloOpcode::kTranspose) return false;
  const Shape& in = instruction.operand(0)->shape();
  const std::vector<int64_t> in_order = MinorToMajor(in);
  const int64_t first_position = most_minor_nontrivial(in).second;
  for (int64_t out_dim : MinorToMajor(instruction.shape())) {
    if (instruction.shape().dimensions(out_dim) == 1) continue;
    const int64_t in_dim = instruction.dimensions()[out_dim];
    const int64_t position =
        std::find(in_order.begin(), in_order.end(), in_dim) - in_order.begin();
    return position > first_position;
  }
  return false;
}

namespace {

std::string RawAttribute(const HloInstruction& i, absl::string_view name) {
  std::optional<absl::string_view> value = i.attribute(name);
  return value.has_value() ? std::string(*value) : std::string();
}

// Library kernels: the name and reason, or nullopt for an emitter kernel.
std::optional<std::pair<std::string, std::string>> LibraryKernel(
    const HloInstruction& root) {
  if (root.opcode() == HloOpcode::kFusion) {
    const std::string config = RawAttribute(root, "backend_config");
    for (const char* kind : {"__triton_gemm", "__triton_nested_gemm_fusion",
                             "__triton", "__cudnn$fusion", "__custom_fusion"}) {
      if (absl::StrContains(config, kind)) {
        const bool cudnn = absl::StrContains(kind, "cudnn");
        const bool triton = absl::StrContains(kind, "triton");
        return std::make_pair(
            absl::StrCat("library (",
                         triton  ? "Triton"
                         : cudnn ? "cuDNN"
                                 : "custom",
                         ")"),
            absl::StrCat("fusion backend_config kind ", kind,
                         " (GetEmitterFusionKind: not an XLA loop emitter)"));
      }
    }
    return std::nullopt;
  }
  if (root.opcode() == HloOpcode::kDot) {
    return std::make_pair(
        std::string("library (cuBLAS)"),
        std::string("dot: XLA's GemmRewriter makes it a cuBLAS custom call "
                    "(or autotuning a Triton GEMM fusion)"));
  }
  if (root.opcode() == HloOpcode::kConvolution) {
    return std::make_pair(std::string("library (cuDNN)"),
                          std::string("convolution: a cuDNN call "
                                      "(GpuConvRewriter)"));
  }
  if (root.opcode_name() == "custom-call") {
    std::string target = RawAttribute(root, "custom_call_target");
    target.erase(std::remove(target.begin(), target.end(), '"'), target.end());
    const bool cudnn = absl::StrContains(target, "cudnn");
    const bool cublas = absl::StrContains(target, "cublas") ||
                        absl::StrContains(target, "gemm");
    return std::make_pair(
        absl::StrCat("library (",
                     cudnn    ? "cuDNN"
                     : cublas ? "cuBLAS"
                              : "custom call",
                     ")"),
        absl::StrCat("custom-call ", target,
                     " (a library or hand-written kernel, no XLA emitter)"));
  }
  return std::nullopt;
}

void SetInputOutputInfo(const AnalyzedFusion& kernel, EmitterChoice& choice) {
  choice.smallest_input_bits = std::numeric_limits<int64_t>::max();
  for (const FusionOperand& operand : kernel.operands) {
    if (operand.shape.IsArray()) {
      choice.smallest_input_bits = std::min(
          choice.smallest_input_bits, BitWidth(operand.shape.element_type()));
    }
  }
  choice.smallest_output_bits = std::numeric_limits<int64_t>::max();
  for (const Shape& s : kernel.output_shapes) {
    choice.smallest_output_bits =
        std::min(choice.smallest_output_bits, BitWidth(s.element_type()));
  }
  for (const HloInstruction* hero : choice.heroes) {
    for (const HloInstruction* operand : hero->operands()) {
      if (IsComplex(operand->shape().element_type())) {
        choice.complex_hero_operand = true;
      }
    }
  }
}

// MultiRowReductionFusion::TryCreate's vector size, or 0 when the
// multi-row emitter does not apply.
int64_t MultiRowVectorSize(const EmitterChoice& c,
                           const GpuDeviceDescription& device) {
  const int64_t reduced = c.reduction.dims[2];
  if (reduced & (reduced - 1)) return 0;  // not a power of 2
  const int64_t smallest =
      std::min(c.smallest_input_bits, c.smallest_output_bits);
  int64_t largest = std::max(c.smallest_input_bits, c.smallest_output_bits);
  if (largest == std::numeric_limits<int64_t>::max()) {
    largest = c.smallest_output_bits;
  }
  int64_t vector = std::min(reduced, 64 / std::max<int64_t>(smallest, 1));
  if (largest >= 32) vector = std::min(128 / largest, vector);
  vector = std::max<int64_t>(vector, 1);
  const int64_t warp = device.threads_per_warp;
  if (reduced > warp * vector) return 0;
  auto blocks = [&](int64_t v) {
    const int64_t reduced_threads = reduced / v;
    const int64_t kept = c.reduction.dims[1];
    const int64_t kept_threads = SaturatingMul(kept, reduced_threads) <= 256
                                     ? kept
                                     : 256 / reduced_threads;
    return CeilDiv(kept, kept_threads);
  };
  while (vector > 1 && blocks(vector) < device.core_count) vector /= 2;
  if (reduced > warp * vector) return 0;
  return vector;
}

void ChooseReductionVariant(EmitterChoice& c,
                            const GpuDeviceDescription& device) {
  if (c.reduction.is_row) {
    if (int64_t v = MultiRowVectorSize(c, device); v > 0) {
      c.reduction_variant = ReductionVariant::kMultiRow;
      c.multi_row_vector_size = v;
      c.name = "reduction (multi-row)";
    } else {
      c.reduction_variant = ReductionVariant::kRow;
      c.name = "reduction (row)";
    }
    return;
  }
  if (device.threads_per_warp % c.reduction.dims[2] == 0) {
    c.reduction_variant = ReductionVariant::kSmallColumn;
    c.name = "reduction (small column)";
  } else {
    c.reduction_variant = ReductionVariant::kColumn;
    c.name = "reduction (column)";
  }
}

// The reduction emitter when some root has a real reduction hero and the
// other roots fit (GetEmitterFusionKind's first test).
bool TryReduction(EmitterChoice& c, const GpuDeviceDescription& device) {
  const HloInstruction* first = nullptr;
  for (size_t i = 0; i < c.roots.size(); ++i) {
    if (IsRealReductionHero(*c.roots[i], *c.heroes[i], device)) {
      first = c.heroes[i];
      break;
    }
  }
  if (first == nullptr) return false;
  const int64_t input_elements = first->operand(0)->shape().ElementCount();
  const ReductionShape first_shape = GetReductionShape(*first);
  for (size_t i = 0; i < c.roots.size(); ++i) {
    if (c.roots[i] == first) continue;
    if (!IsRealReductionHero(*c.roots[i], *c.heroes[i], device)) {
      if (!c.roots[i]->shape().IsArray() ||
          c.roots[i]->shape().ElementCount() != input_elements) {
        return false;
      }
    } else if (!SameReductionShape(GetReductionShape(*c.heroes[i]),
                                   first_shape)) {
      return false;
    }
  }
  c.kind = EmitterKind::kReduction;
  c.reduction_hero = first;
  c.reduction = first_shape;
  ChooseReductionVariant(c, device);
  const auto& d = first_shape.dims;
  c.reason = absl::StrCat("hero ", first->name(), " is a ",
                          first_shape.is_row ? "row" : "column", " reduction [",
                          d[0], ", ", d[1], ", ", d[2],
                          "] from or to contiguous dimensions "
                          "(IsReductionFromOrToContiguousDimensions)");
  return true;
}

// FindConsistentTransposeHero: every transpose hero normalizes alike, and
// the other roots have as many elements as the transpose input.
bool TryTranspose(EmitterChoice& c) {
  const HloInstruction* first = nullptr;
  std::optional<NormalizedTranspose> description;
  for (size_t i = 0; i < c.roots.size(); ++i) {
    std::optional<NormalizedTranspose> t =
        TiledTransposeDescription(*c.heroes[i]);
    if (!t.has_value()) continue;
    if (first == nullptr) {
      first = c.heroes[i];
      description = t;
    } else if (t->output_dims != description->output_dims ||
               t->permutation != description->permutation) {
      return false;
    }
  }
  if (first == nullptr) return false;
  const int64_t elements = first->operand(0)->shape().ElementCount();
  for (size_t i = 0; i < c.roots.size(); ++i) {
    if (TiledTransposeDescription(*c.heroes[i]).has_value()) continue;
    if (!c.roots[i]->shape().IsArray() ||
        c.roots[i]->shape().ElementCount() != elements) {
      return false;
    }
  }
  c.kind = EmitterKind::kTranspose;
  c.packed_transpose = CanEmitPackedTranspose(
      *description, BitWidth(first->shape().element_type()));
  c.name = c.packed_transpose ? "transpose (packed)" : "transpose";
  c.transpose_hero = first;
  c.transpose = *description;
  c.reason = absl::StrCat("hero ", first->name(),
                          " is a tiled transpose of normalized dimensions [",
                          absl::StrJoin(description->output_dims, ", "),
                          "], permutation [",
                          absl::StrJoin(description->permutation, ", "),
                          "] (GetDescriptionForTiledTransposeEmitter)");
  return true;
}

bool IsDynamicUpdateSliceRoot(const HloInstruction* root) {
  while (root->opcode() == HloOpcode::kBitcast) root = root->operand(0);
  return root->opcode() == HloOpcode::kDynamicUpdateSlice;
}

// The kinds after reduction and transpose, in GetEmitterFusionKind's and
// GetFusionEmitter's order.
void ChooseOther(EmitterChoice& c) {
  auto set = [&](EmitterKind kind, std::string reason) {
    c.kind = kind;
    c.name = EmitterKindName(kind);
    c.reason = std::move(reason);
  };
  // GetFusionEmitter runs a loop fusion whose roots all are
  // dynamic-update-slices in place (buffer sharing assumed, see below).
  if (std::all_of(c.roots.begin(), c.roots.end(), IsDynamicUpdateSliceRoot)) {
    return set(EmitterKind::kInPlaceDynamicUpdateSlice,
               "the roots are dynamic-update-slices (in place, assuming their "
               "outputs share their operand 0's buffers as buffer assignment "
               "decides in XLA)");
  }
  if (c.roots.size() > 1) {
    return set(EmitterKind::kLoop,
               absl::StrCat(c.roots.size(),
                            " roots without a reduction or transpose hero"));
  }
  const HloInstruction* root = c.roots[0];
  const HloInstruction* hero = c.heroes[0];
  if (root->opcode() == HloOpcode::kScatter) {
    return set(EmitterKind::kScatter, "the root is a scatter");
  }
  if (root->opcode() == HloOpcode::kSort) {
    return set(EmitterKind::kSort, "the root is a sort");
  }
  if (hero->opcode() == HloOpcode::kConcatenate && root->shape().IsArray() &&
      hero->operand_count() <= 4) {
    return set(EmitterKind::kConcatenate,
               absl::StrCat("hero ", hero->name(), " is a concatenate of ",
                            hero->operand_count(),
                            " operands (UseConcatenateFusion: at most 4)"));
  }
  set(EmitterKind::kLoop,
      absl::StrCat("no reduction, transpose, concatenate, scatter or sort "
                   "hero (hero of the root: ",
                   hero->name(), ")"));
}

}  // namespace

absl::StatusOr<EmitterChoice> ChooseEmitter(
    const AnalyzedFusion& kernel, const GpuDeviceDescription& device) {
  if (kernel.root == nullptr) {
    return absl::InvalidArgumentError("ChooseEmitter: the kernel has no root");
  }
  EmitterChoice c;
  if (auto library = LibraryKernel(*kernel.root)) {
    c.kind = EmitterKind::kLibrary;
    c.name = library->first;
    c.reason = library->second;
    c.roots = {kernel.root};
    c.heroes = {kernel.root};
    SetInputOutputInfo(kernel, c);
    return c;
  }
  const HloInstruction* root = kernel.root;
  if (root->opcode() == HloOpcode::kFusion) {
    root = root->fused_computation() == nullptr
               ? nullptr
               : root->fused_computation()->root();
    if (root == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("fusion '", kernel.root->name(), "' has no fused root"));
    }
  }
  if (IsTupleRoot(*root) && kernel.computation != nullptr) {
    for (const HloInstruction* o : root->operands()) c.roots.push_back(o);
  } else {
    c.roots.push_back(root);
  }
  const KernelGraph graph = MakeGraph(kernel);
  for (const HloInstruction* r : c.roots) {
    c.heroes.push_back(FindNonTrivialHero(r, graph));
  }
  SetInputOutputInfo(kernel, c);
  if (TryReduction(c, device)) return c;
  if (TryTranspose(c)) return c;
  ChooseOther(c);
  return c;
}

bool IsInputFusibleReduction(const HloInstruction& instruction,
                             const GpuDeviceDescription& device) {
  if (instruction.opcode() == HloOpcode::kFusion) {
    const HloComputation* fused = instruction.fused_computation();
    if (fused == nullptr || fused->root() == nullptr) return false;
    AnalyzedFusion kernel;
    kernel.root = &instruction;
    kernel.computation = fused;
    const KernelGraph graph = MakeGraph(kernel);
    std::vector<const HloInstruction*> roots;
    if (IsTupleRoot(*fused->root())) {
      for (const HloInstruction* o : fused->root()->operands()) {
        roots.push_back(o);
      }
    } else {
      roots.push_back(fused->root());
    }
    for (const HloInstruction* r : roots) {
      if (IsRealReductionHero(*r, *FindNonTrivialHero(r, graph), device)) {
        return true;
      }
    }
    return false;
  }
  return IsReductionFromOrToContiguousDimensions(instruction, device);
}

}  // namespace xla_index
