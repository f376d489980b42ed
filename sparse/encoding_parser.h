#ifndef XLA_INDEX_SPARSE_ENCODING_PARSER_H_
#define XLA_INDEX_SPARSE_ENCODING_PARSER_H_

// The parser of `#sparse_tensor.encoding<{...}>` text (MLIR's dim-level map
// syntax, level types and properties, widths, slices).

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "mlir/IR/MLIRContext.h"
#include "sparse/encoding.h"

namespace xla_index::sparse {

/// Parses `#sparse_tensor.encoding<{ map = ..., posWidth = N, crdWidth = N }>`
/// (optionally preceded by an alias `#NAME =`; `//` comments are skipped) and
/// verifies it (VerifySparseEncoding). Errors are InvalidArgument with
/// "line:column: message".
///
/// The map syntax is MLIR's dim-level map:
///   [s0, ...] {l0, ...} (d0 [= expr(l, s)] [: #sparse_tensor<slice(o, n, s)>],
///                        ...) -> ([l =] expr(d, s) : level-type, ...)
/// with any identifiers as variable names, `?` for a dynamic slice value, and
/// level types `dense`, `batch`, `compressed`, `loose_compressed`,
/// `singleton`, `structured[n, m]` with properties `(nonunique, nonordered,
/// soa)`. Expressions are built with mlir::AffineExpr's operators, as MLIR's
/// own parser does, so they simplify (and print) exactly as MLIR's.
///
/// MLIR 22's `explicitVal` / `implicitVal` values (integer, float or complex,
/// typed or not) are read by MLIR's attribute parser, so they are typed,
/// refused and printed exactly as mlir-opt does; they must be numeric.
/// A repeated posWidth, crdWidth, explicitVal or implicitVal keeps its last
/// value, as in MLIR; a repeated map is an error.
///
/// Older spellings found in MLIR's SparseTensor dialect documentation are
/// accepted and translated to their modern meaning, with a line in
/// SparseEncoding::notes:
///  - `block2_4` (generally `blockN_M`) is `structured[N, M]`;
///  - the `high` property (`compressed(nonunique, high)`, "high encoding")
///    was MLIR's compressed-with-high-bounds level, now `loose_compressed`;
///  - a sub-byte `crdWidth` (1, 2 or 4, the documentation's "2-bits for each
///    coordinate" of 2:4) is stored at 8 bits, the narrowest width MLIR
///    supports; it is accepted only when every level that stores
///    coordinates is structured[n, m] with m <= 2^width, since only then do
///    the coordinates fit the declared bits.
absl::StatusOr<SparseEncoding> ParseSparseEncoding(absl::string_view text,
                                                   mlir::MLIRContext* context);

/// As ParseSparseEncoding, without the verification step (for tests of the
/// verifier and tools that want to report every problem separately).
absl::StatusOr<SparseEncoding> ParseSparseEncodingUnverified(
    absl::string_view text, mlir::MLIRContext* context);

}  // namespace xla_index::sparse

#endif  // XLA_INDEX_SPARSE_ENCODING_PARSER_H_
