#include "sparse/storage.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "mlir/IR/AffineExpr.h"
#include "sparse/affine_level_maps.h"

namespace xla_index::sparse {
namespace {

/// A half-open range [lo, hi) of sorted elements that share the coordinates
/// of one storage entry (empty for entries that dense or n:m levels add).
struct Range {
  int64_t lo;
  int64_t hi;
};

/// How one level coordinate is computed from the dimension coordinates: the
/// common shapes `d`, `d floordiv c` and `d mod c` without a general affine
/// evaluation.
struct LevelExpr {
  enum Kind { kDim, kFloorDiv, kMod, kGeneral } kind;
  int64_t dim = 0;
  int64_t constant = 1;
};

LevelExpr CompileLevelExpr(mlir::AffineExpr expr) {
  if (auto d = llvm::dyn_cast<mlir::AffineDimExpr>(expr)) {
    return {LevelExpr::kDim, d.getPosition()};
  }
  if (expr.getKind() == mlir::AffineExprKind::FloorDiv ||
      expr.getKind() == mlir::AffineExprKind::Mod) {
    auto binary = llvm::cast<mlir::AffineBinaryOpExpr>(expr);
    auto d = llvm::dyn_cast<mlir::AffineDimExpr>(binary.getLHS());
    auto c = llvm::dyn_cast<mlir::AffineConstantExpr>(binary.getRHS());
    if (d && c && c.getValue() > 0) {
      return {expr.getKind() == mlir::AffineExprKind::FloorDiv
                  ? LevelExpr::kFloorDiv
                  : LevelExpr::kMod,
              d.getPosition(), c.getValue()};
    }
  }
  return {LevelExpr::kGeneral};
}

std::string CoordinatesToString(absl::Span<const int64_t> coordinates) {
  return absl::StrCat("(", absl::StrJoin(coordinates, ", "), ")");
}

std::string LevelName(const SparseEncoding& encoding, int64_t level) {
  return absl::StrCat("level ", level, " (",
                      encoding.level_types[level].ToString(), ")");
}

bool AnyNonunique(const SparseEncoding& encoding) {
  for (const LevelType& type : encoding.level_types) {
    if (type.nonunique) return true;
  }
  return false;
}

/// The working state of an assembly: the elements' level coordinates and
/// values in sorted order, and the arrays being built.
struct Assembly {
  int64_t rank;                      // level rank
  std::vector<int64_t> coordinates;  // sorted, nnz x rank
  std::vector<double> values;        // sorted
  std::vector<int64_t> input_index;  // sorted position -> COO element

  int64_t Coordinate(int64_t element, int64_t level) const {
    return coordinates[element * rank + level];
  }
};

/// The COO tensor agrees with the encoding: no symbols (a counting map such
/// as ELL does not say which slice an element goes to), the same rank, and
/// rank coordinates per value.
absl::Status CheckAssemblyInput(const SparseEncoding& encoding,
                                const CooTensor& coo) {
  if (encoding.symbol_count() > 0) {
    return absl::UnimplementedError(
        "assembly of an encoding with symbols (a counting map such as ELL) "
        "is not supported: the map alone does not say which slice an "
        "element goes to");
  }
  const int64_t dim_rank = encoding.dim_rank();
  if (coo.rank() != dim_rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("the tensor has rank ", coo.rank(),
                     " but the encoding has ", dim_rank, " dimensions"));
  }
  if (static_cast<int64_t>(coo.coordinates.size()) != coo.nnz() * dim_rank) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the COO tensor has ", coo.coordinates.size(), " coordinates for ",
        coo.nnz(), " values of rank ", dim_rank));
  }
  return absl::OkStatus();
}

/// Refuses storage too large to build rather than failing to allocate it.
/// The entries of level l are entries(l-1) * size(l) for dense levels,
/// entries(l-1) * n for structured[n, m], and at most min(that, nnz) for the
/// others (a sparse level stores at most one entry per element).
absl::Status CheckStorageLimit(const SparseEncoding& encoding,
                               const CooTensor& coo,
                               absl::Span<const int64_t> level_sizes) {
  uint64_t entries = 1;
  for (int64_t l = 0; l < encoding.lvl_rank(); ++l) {
    const LevelType& type = encoding.level_types[l];
    uint64_t grown;
    const uint64_t factor =
        type.format == LevelFormat::kStructured ? type.n : level_sizes[l];
    if (__builtin_mul_overflow(entries, factor, &grown)) grown = UINT64_MAX;
    entries = type.IsDenseLike() || type.format == LevelFormat::kStructured
                  ? grown
                  : std::min<uint64_t>(grown, coo.nnz());
    if (entries > kMaxStorageEntries) {
      return absl::ResourceExhaustedError(absl::StrCat(
          LevelName(encoding, l), " of a ", absl::StrJoin(coo.dim_sizes, "x"),
          " tensor would hold ",
          entries == UINT64_MAX ? std::string("more than 2^64")
                                : absl::StrCat(entries),
          " entries (dense levels store every coordinate); the limit is ",
          kMaxStorageEntries));
    }
  }
  return absl::OkStatus();
}

/// Phase 1: the level coordinates dim_to_lvl(d) of every element (nnz x
/// lvl_rank, row-major), after checking each element lies in the shape.
/// Coordinates are non-negative here, so C++ `/` and `%` are floordiv and
/// mod.
absl::StatusOr<std::vector<int64_t>> ComputeLevelCoordinates(
    const SparseEncoding& encoding, const CooTensor& coo) {
  const int64_t dim_rank = encoding.dim_rank();
  const int64_t lvl_rank = encoding.lvl_rank();
  std::vector<LevelExpr> exprs;
  for (unsigned l = 0; l < lvl_rank; ++l) {
    exprs.push_back(CompileLevelExpr(encoding.dim_to_lvl.getResult(l)));
  }
  std::vector<int64_t> level_coordinates(coo.nnz() * lvl_rank);
  std::vector<int64_t> general;
  for (int64_t k = 0; k < coo.nnz(); ++k) {
    const int64_t* dims = &coo.coordinates[k * dim_rank];
    for (int64_t d = 0; d < dim_rank; ++d) {
      if (dims[d] < 0 || dims[d] >= coo.dim_sizes[d]) {
        return absl::InvalidArgumentError(absl::StrCat(
            "element ", k, " at ",
            CoordinatesToString(absl::MakeConstSpan(dims, dim_rank)),
            " is outside the shape ", absl::StrJoin(coo.dim_sizes, "x")));
      }
    }
    int64_t* levels = &level_coordinates[k * lvl_rank];
    for (int64_t l = 0; l < lvl_rank; ++l) {
      const LevelExpr& e = exprs[l];
      switch (e.kind) {
        case LevelExpr::kDim:
          levels[l] = dims[e.dim];
          break;
        case LevelExpr::kFloorDiv:
          levels[l] = dims[e.dim] / e.constant;
          break;
        case LevelExpr::kMod:
          levels[l] = dims[e.dim] % e.constant;
          break;
        case LevelExpr::kGeneral:
          EvaluateAffineMap(encoding.dim_to_lvl.getSubMap({unsigned(l)}),
                            absl::MakeConstSpan(dims, dim_rank), general);
          levels[l] = general[0];
          break;
      }
    }
  }
  return level_coordinates;
}

/// The stable lexicographic order of the elements' level coordinates (ties
/// keep the input order, so duplicates of a nonunique level stay in input
/// order). When the level box has at most 2^62 points the coordinates are
/// packed into one mixed-radix key sum_l c_l * prod_{k>l} size_k, so the
/// sort compares contiguous integers.
std::vector<int64_t> SortedOrder(const std::vector<int64_t>& level_coordinates,
                                 absl::Span<const int64_t> level_sizes,
                                 int64_t nnz) {
  const int64_t lvl_rank = level_sizes.size();
  std::vector<int64_t> order(nnz);
  bool packed = true;
  uint64_t points = 1;
  for (int64_t size : level_sizes) {
    if (points > (uint64_t{1} << 62) / static_cast<uint64_t>(size)) {
      packed = false;
      break;
    }
    points *= size;
  }
  if (packed) {
    std::vector<std::pair<uint64_t, int64_t>> keys(nnz);
    for (int64_t k = 0; k < nnz; ++k) {
      uint64_t key = 0;
      const int64_t* levels = &level_coordinates[k * lvl_rank];
      for (int64_t l = 0; l < lvl_rank; ++l) {
        key = key * level_sizes[l] + levels[l];
      }
      keys[k] = {key, k};
    }
    std::sort(keys.begin(), keys.end());
    for (int64_t k = 0; k < nnz; ++k) order[k] = keys[k].second;
    return order;
  }
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    const int64_t* x = &level_coordinates[a * lvl_rank];
    const int64_t* y = &level_coordinates[b * lvl_rank];
    for (int64_t l = 0; l < lvl_rank; ++l) {
      if (x[l] != y[l]) return x[l] < y[l];
    }
    return a < b;
  });
  return order;
}

/// Phase 2: the elements in sorted level order (see SortedOrder).
Assembly SortElements(std::vector<int64_t> level_coordinates,
                      absl::Span<const int64_t> level_sizes,
                      const CooTensor& coo) {
  const int64_t nnz = coo.nnz();
  const int64_t lvl_rank = level_sizes.size();
  std::vector<int64_t> order = SortedOrder(level_coordinates, level_sizes, nnz);
  Assembly assembly;
  assembly.rank = lvl_rank;
  assembly.coordinates.resize(nnz * lvl_rank);
  assembly.values.resize(nnz);
  for (int64_t k = 0; k < nnz; ++k) {
    std::copy_n(&level_coordinates[order[k] * lvl_rank], lvl_rank,
                &assembly.coordinates[k * lvl_rank]);
    assembly.values[k] = coo.values[order[k]];
  }
  assembly.input_index = std::move(order);
  return assembly;
}

/// Two elements with equal level coordinates need a nonunique level to hold
/// both; sorted, duplicates are neighbours.
absl::Status CheckNoDuplicates(const SparseEncoding& encoding,
                               const CooTensor& coo, const Assembly& assembly) {
  if (AnyNonunique(encoding)) return absl::OkStatus();
  const int64_t lvl_rank = assembly.rank;
  const int64_t dim_rank = encoding.dim_rank();
  for (int64_t k = 1; k < coo.nnz(); ++k) {
    if (std::equal(&assembly.coordinates[(k - 1) * lvl_rank],
                   &assembly.coordinates[k * lvl_rank],
                   &assembly.coordinates[k * lvl_rank])) {
      int64_t first = assembly.input_index[k - 1];
      int64_t second = assembly.input_index[k];
      return absl::InvalidArgumentError(absl::StrCat(
          "elements ", first, " and ", second, " have the same coordinates ",
          CoordinatesToString(absl::MakeConstSpan(
              &coo.coordinates[second * dim_rank], dim_rank)),
          ", and no level of the encoding is nonunique"));
    }
  }
  return absl::OkStatus();
}

/// Phase 3 for one level: splits each parent entry's element range into
/// child entries and appends the level's positions and coordinates.
class LevelSplitter {
 public:
  LevelSplitter(const SparseEncoding& encoding, const CooTensor& coo,
                const Assembly& assembly, int64_t level, int64_t size,
                std::vector<uint64_t>& pos, std::vector<uint64_t>& crd)
      : encoding_(encoding),
        coo_(coo),
        assembly_(assembly),
        type_(encoding.level_types[level]),
        l_(level),
        size_(size),
        pos_(pos),
        crd_(crd) {}

  absl::Status Split(const std::vector<Range>& parents,
                     std::vector<Range>& children) {
    switch (type_.format) {
      case LevelFormat::kDense:
      case LevelFormat::kBatch:
        SplitDense(parents, children);
        return absl::OkStatus();
      case LevelFormat::kCompressed:
      case LevelFormat::kLooseCompressed:
        SplitCompressed(parents, children);
        return absl::OkStatus();
      case LevelFormat::kSingleton:
        return SplitSingleton(parents, children);
      case LevelFormat::kStructured:
        return SplitStructured(parents, children);
    }
    return absl::OkStatus();
  }

 private:
  /// The end of the run of elements in [k, hi) with the same coordinate at
  /// this level: one element on a nonunique level.
  int64_t RunEnd(int64_t k, int64_t hi) const {
    if (type_.nonunique) return k + 1;
    const int64_t c = assembly_.Coordinate(k, l_);
    int64_t end = k + 1;
    while (end < hi && assembly_.Coordinate(end, l_) == c) ++end;
    return end;
  }

  std::string ElementAt(int64_t element) const {
    const int64_t dim_rank = encoding_.dim_rank();
    return absl::StrCat("element ", element, " at ",
                        CoordinatesToString(absl::MakeConstSpan(
                            &coo_.coordinates[element * dim_rank], dim_rank)));
  }

  /// A dense level stores every coordinate 0..size-1 of every parent.
  void SplitDense(const std::vector<Range>& parents,
                  std::vector<Range>& children) const {
    children.reserve(parents.size() * size_);
    for (const Range& parent : parents) {
      int64_t k = parent.lo;
      for (int64_t c = 0; c < size_; ++c) {
        const int64_t start = k;
        while (k < parent.hi && assembly_.Coordinate(k, l_) == c) ++k;
        children.push_back({start, k});
      }
    }
  }

  /// compressed: pos[p]..pos[p+1] delimit parent p's coordinates (one more
  /// position than parents); loose_compressed: pos[2p]..pos[2p+1].
  void SplitCompressed(const std::vector<Range>& parents,
                       std::vector<Range>& children) {
    const bool loose = type_.format == LevelFormat::kLooseCompressed;
    pos_.reserve(loose ? 2 * parents.size() : parents.size() + 1);
    if (!loose) pos_.push_back(0);
    for (const Range& parent : parents) {
      if (loose) pos_.push_back(crd_.size());
      for (int64_t k = parent.lo; k < parent.hi;) {
        const int64_t end = RunEnd(k, parent.hi);
        crd_.push_back(assembly_.Coordinate(k, l_));
        children.push_back({k, end});
        k = end;
      }
      pos_.push_back(crd_.size());
    }
  }

  /// A singleton level stores exactly one coordinate per parent entry.
  absl::Status SplitSingleton(const std::vector<Range>& parents,
                              std::vector<Range>& children) {
    for (const Range& parent : parents) {
      const int64_t end = RunEnd(parent.lo, parent.hi);
      if (parent.lo == parent.hi || end != parent.hi) {
        return absl::InvalidArgumentError(absl::StrCat(
            LevelName(encoding_, l_), ": the entry of level ", l_ - 1,
            " holding ", ElementAt(assembly_.input_index[parent.lo]), " has ",
            parent.hi - parent.lo,
            " elements, but a singleton level stores exactly one "
            "coordinate per parent entry (make level ",
            l_ - 1, " nonunique, as in COO)"));
      }
      crd_.push_back(assembly_.Coordinate(parent.lo, l_));
      children.push_back(parent);
    }
    return absl::OkStatus();
  }

  /// structured[n, m]: each block of m coordinates stores exactly n entries,
  /// its nonzeros padded with explicit zeros at the smallest free
  /// coordinates.
  absl::Status SplitStructured(const std::vector<Range>& parents,
                               std::vector<Range>& children) {
    const int64_t n = type_.n;
    std::vector<std::pair<int64_t, Range>> block;  // coordinate, range
    children.reserve(parents.size() * n);
    crd_.reserve(parents.size() * n);
    for (const Range& parent : parents) {
      block.clear();
      for (int64_t k = parent.lo; k < parent.hi;) {
        const int64_t end = RunEnd(k, parent.hi);
        block.push_back({assembly_.Coordinate(k, l_), {k, end}});
        k = end;
      }
      if (static_cast<int64_t>(block.size()) > n) {
        return absl::InvalidArgumentError(
            absl::StrCat(LevelName(encoding_, l_), ": the block holding ",
                         ElementAt(assembly_.input_index[parent.lo]), " has ",
                         block.size(), " nonzeros, more than n = ", n));
      }
      size_t next = 0;
      int64_t stored = 0;
      for (int64_t c = 0; c < type_.m && stored < n; ++c) {
        if (next < block.size() && block[next].first == c) {
          crd_.push_back(c);
          children.push_back(block[next].second);
          ++next;
          ++stored;
        } else if (n - stored > static_cast<int64_t>(block.size() - next)) {
          crd_.push_back(c);
          children.push_back({parent.lo, parent.lo});
          ++stored;
        }
      }
    }
    return absl::OkStatus();
  }

  const SparseEncoding& encoding_;
  const CooTensor& coo_;
  const Assembly& assembly_;
  const LevelType& type_;
  const int64_t l_;
  const int64_t size_;
  std::vector<uint64_t>& pos_;
  std::vector<uint64_t>& crd_;
};

/// Phase 4a: the values array. Without a dense tail, one value per leaf
/// entry (0 for the padding of structured levels); with one, each parent
/// gets a zero-filled block of prod(size_l, l >= dense_tail) values and its
/// elements go to their row-major offset in it. Each parent range holds
/// distinct trailing coordinates: duplicates were rejected unless a
/// nonunique level split them into one-element ranges.
std::vector<double> FillValues(const Assembly& assembly,
                               const std::vector<Range>& parents,
                               absl::Span<const int64_t> level_sizes,
                               int64_t dense_tail) {
  const int64_t lvl_rank = level_sizes.size();
  std::vector<double> values;
  if (dense_tail == lvl_rank) {
    values.reserve(parents.size());
    for (const Range& entry : parents) {
      values.push_back(entry.lo == entry.hi ? 0.0 : assembly.values[entry.lo]);
    }
    return values;
  }
  int64_t block = 1;
  for (int64_t l = dense_tail; l < lvl_rank; ++l) block *= level_sizes[l];
  values.assign(parents.size() * block, 0.0);
  for (size_t p = 0; p < parents.size(); ++p) {
    double* out = &values[p * block];
    for (int64_t k = parents[p].lo; k < parents[p].hi; ++k) {
      int64_t offset = 0;
      for (int64_t l = dense_tail; l < lvl_rank; ++l) {
        offset = offset * level_sizes[l] + assembly.Coordinate(k, l);
      }
      out[offset] = assembly.values[k];
    }
  }
  return values;
}

}  // namespace

absl::StatusOr<SparseStorage> AssembleFromCoo(const SparseEncoding& encoding,
                                              const CooTensor& coo) {
  XI_RETURN_IF_ERROR(CheckAssemblyInput(encoding, coo));
  const int64_t lvl_rank = encoding.lvl_rank();
  XI_ASSIGN_OR_RETURN(std::vector<int64_t> level_sizes,
                      LevelSizes(encoding.dim_to_lvl, coo.dim_sizes));
  XI_RETURN_IF_ERROR(CheckStorageLimit(encoding, coo, level_sizes));

  // 1. Level coordinates of every element; 2. their lexicographic order.
  XI_ASSIGN_OR_RETURN(std::vector<int64_t> level_coordinates,
                      ComputeLevelCoordinates(encoding, coo));
  const Assembly assembly =
      SortElements(std::move(level_coordinates), level_sizes, coo);
  XI_RETURN_IF_ERROR(CheckNoDuplicates(encoding, coo, assembly));

  // 3. Level by level, split each parent entry's range into child entries.
  // The trailing dense levels (the blocks of BSR) are not split: each parent
  // gets a zero-filled block and its elements are scattered into it.
  int64_t dense_tail = lvl_rank;
  while (dense_tail > 0 && encoding.level_types[dense_tail - 1].IsDenseLike()) {
    --dense_tail;
  }
  std::vector<std::vector<uint64_t>> positions(lvl_rank);
  std::vector<std::vector<uint64_t>> coordinates(lvl_rank);
  std::vector<Range> parents = {{0, coo.nnz()}};
  std::vector<Range> children;
  for (int64_t l = 0; l < dense_tail; ++l) {
    children.clear();
    LevelSplitter splitter(encoding, coo, assembly, l, level_sizes[l],
                           positions[l], coordinates[l]);
    XI_RETURN_IF_ERROR(splitter.Split(parents, children));
    std::swap(parents, children);
  }

  // 4. Values, then the arrays at their widths.
  SparseStorage storage;
  storage.dim_sizes = coo.dim_sizes;
  storage.values = FillValues(assembly, parents, level_sizes, dense_tail);
  storage.level_sizes = std::move(level_sizes);
  storage.levels.resize(lvl_rank);
  for (int64_t l = 0; l < lvl_rank; ++l) {
    XI_ASSIGN_OR_RETURN(
        storage.levels[l].positions,
        WidthArray::Take(
            std::move(positions[l]), encoding.pos_width,
            absl::StrCat("positions of ", LevelName(encoding, l),
                         " (posWidth = ", encoding.pos_width, ")")));
    XI_ASSIGN_OR_RETURN(
        storage.levels[l].coordinates,
        WidthArray::Take(
            std::move(coordinates[l]), encoding.crd_width,
            absl::StrCat("coordinates of ", LevelName(encoding, l),
                         " (crdWidth = ", encoding.crd_width, ")")));
  }
  return storage;
}

namespace {

/// Walks the storage tree depth first, checking every array access, and
/// calls `leaf(level_coordinates, value_index)` for each stored entry.
class StorageWalker {
 public:
  StorageWalker(const SparseEncoding& encoding, const SparseStorage& storage)
      : encoding_(encoding), storage_(storage) {}

  template <typename Leaf>
  absl::Status Walk(Leaf&& leaf) {
    const int64_t rank = encoding_.lvl_rank();
    if (static_cast<int64_t>(storage_.levels.size()) != rank ||
        static_cast<int64_t>(storage_.level_sizes.size()) != rank) {
      return Corrupt(
          absl::StrCat("expected arrays and sizes for ", rank, " levels"));
    }
    // Sizes first: each level's entry count from its parent's, as MLIR's
    // assembledSize computes it.
    int64_t parents = 1;
    for (int64_t l = 0; l < rank; ++l) {
      const LevelType& type = encoding_.level_types[l];
      const LevelStorage& level = storage_.levels[l];
      const uint64_t crd_size = level.coordinates.size();
      switch (type.format) {
        case LevelFormat::kDense:
        case LevelFormat::kBatch:
          if (storage_.level_sizes[l] < 1 ||
              __builtin_mul_overflow(parents, storage_.level_sizes[l],
                                     &parents) ||
              parents > static_cast<int64_t>(kMaxStorageEntries)) {
            return Corrupt(absl::StrCat("level ", l, " size ",
                                        storage_.level_sizes[l],
                                        " gives too many entries"));
          }
          break;
        case LevelFormat::kCompressed:
          if (level.positions.size() != static_cast<size_t>(parents) + 1) {
            return Corrupt(absl::StrCat("level ", l, " has ",
                                        level.positions.size(),
                                        " positions, expected ", parents + 1));
          }
          parents = crd_size;
          break;
        case LevelFormat::kLooseCompressed:
          if (level.positions.size() != static_cast<size_t>(2 * parents)) {
            return Corrupt(absl::StrCat("level ", l, " has ",
                                        level.positions.size(),
                                        " positions, expected ", 2 * parents));
          }
          parents = crd_size;
          break;
        case LevelFormat::kSingleton:
          if (crd_size != static_cast<uint64_t>(parents)) {
            return Corrupt(absl::StrCat("level ", l, " has ", crd_size,
                                        " coordinates, expected ", parents));
          }
          break;
        case LevelFormat::kStructured:
          if (__builtin_mul_overflow(parents, type.n, &parents)) {
            return Corrupt(absl::StrCat("level ", l, " has too many entries"));
          }
          if (crd_size != static_cast<uint64_t>(parents)) {
            return Corrupt(absl::StrCat("level ", l, " has ", crd_size,
                                        " coordinates, expected ", parents));
          }
          break;
      }
    }
    if (storage_.values.size() != static_cast<size_t>(parents)) {
      return Corrupt(absl::StrCat("there are ", storage_.values.size(),
                                  " values, expected ", parents));
    }
    coordinates_.assign(rank, 0);
    return Visit(0, 0, leaf);
  }

 private:
  absl::Status Corrupt(absl::string_view message) const {
    return absl::InvalidArgumentError(
        absl::StrCat("corrupt sparse storage: ", message));
  }

  template <typename Leaf>
  absl::Status Child(int64_t level, int64_t entry, uint64_t coordinate,
                     Leaf& leaf) {
    if (coordinate >= static_cast<uint64_t>(storage_.level_sizes[level])) {
      return Corrupt(absl::StrCat("coordinate ", coordinate, " of level ",
                                  level, " is not below the level size ",
                                  storage_.level_sizes[level]));
    }
    coordinates_[level] = coordinate;
    if (level + 1 == encoding_.lvl_rank()) {
      leaf(absl::MakeConstSpan(coordinates_), entry);
      return absl::OkStatus();
    }
    return Visit(level + 1, entry, leaf);
  }

  template <typename Leaf>
  absl::Status Visit(int64_t level, int64_t parent, Leaf& leaf) {
    const LevelType& type = encoding_.level_types[level];
    const LevelStorage& arrays = storage_.levels[level];
    const int64_t size = storage_.level_sizes[level];
    auto segment = [&](uint64_t lo, uint64_t hi) -> absl::Status {
      if (lo > hi || hi > arrays.coordinates.size()) {
        return Corrupt(absl::StrCat(
            "level ", level, " segment [", lo, ", ", hi, ") of parent ", parent,
            " is not within its ", arrays.coordinates.size(), " coordinates"));
      }
      for (uint64_t k = lo; k < hi; ++k) {
        XI_RETURN_IF_ERROR(Child(level, k, arrays.coordinates[k], leaf));
      }
      return absl::OkStatus();
    };
    switch (type.format) {
      case LevelFormat::kDense:
      case LevelFormat::kBatch:
        for (int64_t c = 0; c < size; ++c) {
          XI_RETURN_IF_ERROR(Child(level, parent * size + c, c, leaf));
        }
        return absl::OkStatus();
      case LevelFormat::kCompressed:
        return segment(arrays.positions[parent], arrays.positions[parent + 1]);
      case LevelFormat::kLooseCompressed:
        return segment(arrays.positions[2 * parent],
                       arrays.positions[2 * parent + 1]);
      case LevelFormat::kSingleton:
        return Child(level, parent, arrays.coordinates[parent], leaf);
      case LevelFormat::kStructured:
        return segment(parent * type.n, (parent + 1) * type.n);
    }
    return absl::OkStatus();
  }

  const SparseEncoding& encoding_;
  const SparseStorage& storage_;
  std::vector<int64_t> coordinates_;
};

}  // namespace

absl::StatusOr<CooTensor> StorageToCoo(const SparseEncoding& encoding,
                                       const SparseStorage& storage,
                                       bool keep_zeros) {
  mlir::AffineMap lvl_to_dim = encoding.lvl_to_dim
                                   ? encoding.lvl_to_dim
                                   : InferLvlToDim(encoding.dim_to_lvl);
  if (!lvl_to_dim) {
    return absl::UnimplementedError(
        "the encoding has no level-to-dimension map (it has symbols), so "
        "stored entries cannot be mapped back to dimensions");
  }
  const int64_t dim_rank = encoding.dim_rank();
  if (static_cast<int64_t>(storage.dim_sizes.size()) != dim_rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("the storage has ", storage.dim_sizes.size(),
                     " dimension sizes for ", dim_rank, " dimensions"));
  }
  CooTensor coo;
  coo.dim_sizes = storage.dim_sizes;
  std::vector<int64_t> dims;
  absl::Status bad_entry = absl::OkStatus();
  absl::Status walked =
      StorageWalker(encoding, storage)
          .Walk([&](absl::Span<const int64_t> levels, int64_t value_index) {
            const double value = storage.values[value_index];
            if (value == 0.0 && !keep_zeros) return;
            EvaluateAffineMap(lvl_to_dim, levels, dims);
            for (int64_t d = 0; d < dim_rank; ++d) {
              if (dims[d] < 0 || dims[d] >= storage.dim_sizes[d]) {
                // Padding of a partial block is zero; a
                // nonzero there is corrupt storage.
                if (value != 0.0 && bad_entry.ok()) {
                  bad_entry = absl::InvalidArgumentError(absl::StrCat(
                      "corrupt sparse storage: value ", value,
                      " at level coordinates ", CoordinatesToString(levels),
                      " is outside the shape"));
                }
                return;
              }
            }
            coo.coordinates.insert(coo.coordinates.end(), dims.begin(),
                                   dims.end());
            coo.values.push_back(value);
          });
  if (!walked.ok()) return walked;
  if (!bad_entry.ok()) return bad_entry;
  return coo;
}

absl::StatusOr<std::vector<double>> StorageToDense(
    const SparseEncoding& encoding, const SparseStorage& storage) {
  uint64_t elements = 1;
  for (int64_t size : storage.dim_sizes) {
    if (size < 1 ||
        __builtin_mul_overflow(elements, uint64_t(size), &elements) ||
        elements > kMaxStorageEntries) {
      return absl::ResourceExhaustedError(
          absl::StrCat("a dense ", absl::StrJoin(storage.dim_sizes, "x"),
                       " tensor is empty or has more than ", kMaxStorageEntries,
                       " elements"));
    }
  }
  XI_ASSIGN_OR_RETURN(const CooTensor coo, StorageToCoo(encoding, storage));
  std::vector<double> dense(elements, 0.0);
  const int64_t rank = coo.rank();
  for (int64_t k = 0; k < coo.nnz(); ++k) {
    int64_t linear = 0;
    for (int64_t d = 0; d < rank; ++d) {
      linear = linear * coo.dim_sizes[d] + coo.coordinates[k * rank + d];
    }
    dense[linear] += coo.values[k];
  }
  return dense;
}

bool StartsAosSegment(const SparseEncoding& encoding, int level) {
  const auto& types = encoding.level_types;
  if (level < 0 || level + 1 >= static_cast<int>(types.size())) return false;
  if (!types[level].HasPositions()) return false;
  return types[level + 1].format == LevelFormat::kSingleton &&
         !types[level + 1].soa;
}

absl::StatusOr<std::vector<uint64_t>> AosCoordinates(
    const SparseEncoding& encoding, const SparseStorage& storage, int level) {
  assert(level >= 0 && level < encoding.lvl_rank() &&
         "AosCoordinates: level out of range");
  // The levels whose coordinates interleave: [level, end).
  int end = level + 1;
  const bool segment = StartsAosSegment(encoding, level);
  while (segment && end < encoding.lvl_rank() &&
         encoding.level_types[end].format == LevelFormat::kSingleton &&
         !encoding.level_types[end].soa) {
    ++end;
  }
  if (static_cast<int>(storage.levels.size()) < end) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the storage has ", storage.levels.size(),
        " levels; the coordinates of level ", level, " need ", end));
  }
  const size_t entries = storage.levels[level].coordinates.size();
  if (end == level + 1) return storage.levels[level].coordinates.ToVector();
  for (int l = level + 1; l < end; ++l) {
    if (storage.levels[l].coordinates.size() != entries) {
      return absl::InvalidArgumentError(absl::StrCat(
          "level ", l, " has ", storage.levels[l].coordinates.size(),
          " coordinates but the start of its COO segment, level ", level,
          ", has ", entries));
    }
  }
  std::vector<uint64_t> buffer;
  buffer.reserve(entries * (end - level));
  for (size_t k = 0; k < entries; ++k) {
    for (int l = level; l < end; ++l) {
      buffer.push_back(storage.levels[l].coordinates[k]);
    }
  }
  return buffer;
}

namespace {

int64_t WidthBytes(int64_t width) { return width == 0 ? 8 : width / 8; }

}  // namespace

StorageSizes MaxStorageSizes(const SparseEncoding& encoding,
                             const std::vector<int64_t>& level_sizes) {
  StorageSizes sizes;
  const int64_t rank = encoding.lvl_rank();
  assert(static_cast<int64_t>(level_sizes.size()) == rank &&
         "MaxStorageSizes: one level size per level");
  assert(absl::c_all_of(level_sizes, [](int64_t n) { return n >= 0; }) &&
         "MaxStorageSizes: negative level size");
  int64_t entries = 1;  // Entries of the previous level.
  for (int64_t l = 0; l < rank; ++l) {
    const LevelType& type = encoding.level_types[l];
    int64_t children = SaturatingMul(entries, level_sizes[l]);
    if (type.nonunique) {
      // Every element below is an entry of its own.
      for (int64_t k = l + 1; k < rank; ++k) {
        children = SaturatingMul(children, level_sizes[k]);
      }
    }
    int64_t positions = 0, coordinates = 0;
    switch (type.format) {
      case LevelFormat::kDense:
      case LevelFormat::kBatch:
        break;
      case LevelFormat::kCompressed:
        positions = SaturatingAdd(entries, 1);
        coordinates = children;
        break;
      case LevelFormat::kLooseCompressed:
        positions = SaturatingMul(entries, 2);
        coordinates = children;
        break;
      case LevelFormat::kSingleton:
        children = entries;
        coordinates = children;
        break;
      case LevelFormat::kStructured:
        children = SaturatingMul(entries, type.n);
        coordinates = children;
        break;
    }
    sizes.positions.push_back(positions);
    sizes.coordinates.push_back(coordinates);
    entries = children;
  }
  sizes.values = entries;
  int64_t bytes = SaturatingMul(sizes.values, 8);
  for (int64_t l = 0; l < rank; ++l) {
    bytes = SaturatingAdd(bytes, SaturatingMul(sizes.positions[l],
                                               WidthBytes(encoding.pos_width)));
    bytes = SaturatingAdd(bytes, SaturatingMul(sizes.coordinates[l],
                                               WidthBytes(encoding.crd_width)));
  }
  sizes.bytes = bytes;
  return sizes;
}

StorageSizes SizesOf(const SparseEncoding& encoding,
                     const SparseStorage& storage) {
  StorageSizes sizes;
  for (const LevelStorage& level : storage.levels) {
    sizes.positions.push_back(level.positions.size());
    sizes.coordinates.push_back(level.coordinates.size());
  }
  sizes.values = storage.values.size();
  sizes.bytes = StorageBytes(storage);
  return sizes;
}

int64_t StorageBytes(const SparseStorage& storage, int64_t value_bytes) {
  int64_t bytes = storage.values.size() * value_bytes;
  for (const LevelStorage& level : storage.levels) {
    bytes += level.positions.ByteSize() + level.coordinates.ByteSize();
  }
  return bytes;
}

}  // namespace xla_index::sparse
