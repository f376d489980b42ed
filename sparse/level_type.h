#ifndef XLA_INDEX_SPARSE_LEVEL_TYPE_H_
#define XLA_INDEX_SPARSE_LEVEL_TYPE_H_

// The storage format of one level of a sparse tensor (MLIR's LevelFormat and
// its properties): dense, batch, compressed, loose_compressed, singleton,
// structured[n, m].

#include <cstdint>
#include <string>

namespace xla_index::sparse {

/// How one storage level is stored (MLIR's `LevelFormat`).
///
///   dense            every coordinate of the level is stored (implicitly, no
///                    arrays); absent entries are zeros in the values.
///   batch            like dense, but only allowed as leading levels.
///   compressed       positions[p] .. positions[p + 1] - 1 index the stored
///                    coordinates of parent p (no holes between parents).
///   loose_compressed as compressed, with a (lo, hi) position pair per parent,
///                    so segments may leave gaps.
///   singleton        one coordinate per parent entry (no positions), as the
///                    trailing levels of COO.
///   structured[n,m]  n:m structured sparsity: exactly n stored coordinates in
///                    every block of m (e.g. NVIDIA 2:4).
enum class LevelFormat {
  kDense,
  kBatch,
  kCompressed,
  kLooseCompressed,
  kSingleton,
  kStructured,
};

/// A level type: a format plus its properties. By default a level is unique
/// (no duplicate coordinates within a segment) and ordered (coordinates
/// increase within a segment); `nonunique` and `nonordered` relax that, `soa`
/// stores a singleton level's coordinates in their own array (structure of
/// arrays) instead of interleaved with the COO segment's other levels.
struct LevelType {
  LevelFormat format = LevelFormat::kDense;
  int64_t n = 0;  ///< structured[n, m] only.
  int64_t m = 0;  ///< structured[n, m] only.
  bool nonunique = false;
  bool nonordered = false;
  bool soa = false;

  static LevelType Dense() { return {LevelFormat::kDense}; }
  static LevelType Batch() { return {LevelFormat::kBatch}; }
  static LevelType Compressed(bool nonunique = false, bool nonordered = false) {
    return {LevelFormat::kCompressed, 0, 0, nonunique, nonordered};
  }
  static LevelType LooseCompressed(bool nonunique = false,
                                   bool nonordered = false) {
    return {LevelFormat::kLooseCompressed, 0, 0, nonunique, nonordered};
  }
  static LevelType Singleton(bool nonunique = false, bool nonordered = false,
                             bool soa = false) {
    return {LevelFormat::kSingleton, 0, 0, nonunique, nonordered, soa};
  }
  static LevelType Structured(int64_t n, int64_t m) {
    return {LevelFormat::kStructured, n, m};
  }

  /// dense or batch: all coordinates are stored, no overhead arrays.
  bool IsDenseLike() const {
    return format == LevelFormat::kDense || format == LevelFormat::kBatch;
  }
  /// compressed or loose_compressed: the level has a positions array.
  bool HasPositions() const {
    return format == LevelFormat::kCompressed ||
           format == LevelFormat::kLooseCompressed;
  }
  /// Every non-dense level stores coordinates.
  bool HasCoordinates() const { return !IsDenseLike(); }
  bool IsUnique() const { return !nonunique; }
  bool IsOrdered() const { return !nonordered; }

  /// MLIR's spelling, e.g. "compressed(nonunique, nonordered)",
  /// "structured[2, 4]", "singleton(soa)".
  std::string ToString() const;
};

bool operator==(const LevelType& a, const LevelType& b);
inline bool operator!=(const LevelType& a, const LevelType& b) {
  return !(a == b);
}

/// The format keyword alone ("dense", "loose_compressed", "structured", ...).
const char* LevelFormatName(LevelFormat format);

}  // namespace xla_index::sparse

#endif  // XLA_INDEX_SPARSE_LEVEL_TYPE_H_
