#ifndef XLA_INDEX_SPARSE_ENCODING_H_
#define XLA_INDEX_SPARSE_ENCODING_H_

// The sparse tensor encoding (`#sparse_tensor.encoding<{...}>`) as MLIR's
// SparseTensorEncodingAttr holds it: dim-to-level map, level types, widths,
// dimension slices; its verifier and its printer in MLIR's syntax.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Attributes.h"
#include "sparse/level_type.h"

namespace xla_index::sparse {

/// A per-dimension slice `#sparse_tensor<slice(offset, size, stride)>`; a
/// missing value is a dynamic `?`.
struct DimSlice {
  std::optional<int64_t> offset;
  std::optional<int64_t> size;
  std::optional<int64_t> stride;

  /// "#sparse_tensor<slice(0, 8, ?)>".
  std::string ToString() const;
};
bool operator==(const DimSlice& a, const DimSlice& b);

/// A sparse tensor encoding `#sparse_tensor.encoding<{ map = ..., posWidth =
/// P, crdWidth = C }>`, as MLIR's SparseTensorEncodingAttr holds it.
///
/// `dim_to_lvl` maps dimension coordinates (d0, ..., d{D-1}) (and, for
/// counting formats like ELL, symbols s0, ...) to level coordinates
/// (l0, ..., l{L-1}); `level_types[l]` says how level l is stored. Example,
/// BSR with 2x3 blocks:
///   (d0, d1) -> (d0 floordiv 2 : dense, d1 floordiv 3 : compressed,
///                d0 mod 2 : dense, d1 mod 3 : dense)
/// `lvl_to_dim` is the explicit inverse when the text gave one (`{l0, ...}`
/// forward declarations with `d = expr` bindings), else null; the inferred
/// inverse is InferLvlToDim(dim_to_lvl) (see affine_level_maps.h).
struct SparseEncoding {
  mlir::AffineMap dim_to_lvl;
  mlir::AffineMap lvl_to_dim;
  std::vector<LevelType> level_types;
  /// Empty, or one slice per dimension.
  std::vector<DimSlice> dim_slices;
  /// Bit widths of the positions and coordinates arrays; 0 = native (64).
  int64_t pos_width = 0;
  int64_t crd_width = 0;
  /// MLIR's `explicitVal` / `implicitVal`: the value every stored entry has
  /// (e.g. 1.0 of a pattern matrix) and the value of the entries not stored
  /// (0); null when absent. A numeric mlir::IntegerAttr, FloatAttr or
  /// complex::NumberAttr with its type, as MLIR's attribute parser read it.
  mlir::Attribute explicit_val;
  mlir::Attribute implicit_val;
  /// One line per older spelling that was accepted and translated (e.g.
  /// "1:42: `block2_4` is the old spelling of `structured[2, 4]`"), and per
  /// value MLIR accepts that means nothing (structured[0, m], a nonzero
  /// implicitVal).
  std::vector<std::string> notes;

  int64_t dim_rank() const { return dim_to_lvl.getNumDims(); }
  int64_t lvl_rank() const { return level_types.size(); }
  int64_t symbol_count() const { return dim_to_lvl.getNumSymbols(); }
};

/// The canonical text, exactly as MLIR 22 prints the attribute, e.g.
///   #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : compressed, d0 :
///   compressed), posWidth = 32, crdWidth = 8 }>
/// (one line). An explicit lvl_to_dim is not printed: MLIR re-infers it.
std::string PrintSparseEncoding(const SparseEncoding& encoding);

/// A stored value as MLIR prints it: "1.000000e+00 : f32", "1 : i64",
/// "true", "#complex.number<:f32 1.000000e+00, 0.000000e+00> : complex<f32>".
std::string AttributeToString(mlir::Attribute attribute);

/// True for an integer, float (either sign) or complex zero.
bool IsZeroValue(mlir::Attribute attribute);

/// Only the map part: "(d0, d1) -> (d0 : dense, d1 : compressed)".
std::string PrintDimLvlMap(const SparseEncoding& encoding);

/// Checks the encoding with MLIR's rules (SparseTensorEncodingAttr::verify
/// and the dim-level map parser), returning InvalidArgument with a message
/// that says which rule is broken and where:
///  - position/coordinate widths are 0, 8, 16, 32 or 64 (the legacy
///    sub-byte crdWidth of the documentation's 2:4 example is translated by the
///    parser, see encoding_parser.h);
///  - one level type per result of dim_to_lvl, at least one level, and no
///    more dimensions than levels;
///  - level expressions are affine in the dimensions (symbols only as ELL's
///    counting factor), every dimension is used;
///  - structured[n, m] has 0 <= n <= m (MLIR: "expected n <= m in
///    n_out_of_m"; the parser notes n = 0 and n = m, which MLIR accepts);
///  - a singleton level follows a compressed, loose_compressed or singleton
///    level, all singletons of one COO segment agree on soa, soa only on
///    singleton;
///  - batch levels are leading;
///  - structured[n, m] is the last level, all levels before it are dense, and
///    when the map blocks a dimension the block size equals m;
///  - lvl_to_dim is inferable unless dim_to_lvl has symbols, and an explicit
///    one equals the inferred one;
///  - dim slices are on every dimension or none, need dim rank == level rank,
///    with offset >= 0, size >= 1, stride >= 1.
absl::Status VerifySparseEncoding(const SparseEncoding& encoding);

}  // namespace xla_index::sparse

#endif  // XLA_INDEX_SPARSE_ENCODING_H_
