#ifndef XLA_INDEX_CORE_INDEXING_MAP_TEXT_H_
#define XLA_INDEX_CORE_INDEXING_MAP_TEXT_H_

// The text form of indexing maps and affine expressions: printing exactly as
// MLIR and XLA's documentation do, parsing it back (ParseIndexingMap), and
// JSON output.

#include <ostream>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

/// Prints an affine expression exactly as MLIR does (and as XLA's
/// indexing-analysis documentation does):
/// `d0 * 8 + d1`, `d0 floordiv 8`, `-d1 + 16`, `d0 - 5`, `(d1 - 3) mod 7`,
/// `d2 + (d1 mod 2) * 4`. Symbols print as s<N>, dims as d<N>.
std::string AffineExprToString(mlir::AffineExpr expr);

/// Prints an affine map as MLIR does: `(d0, d1)[s0] -> (d0 + s0, d1)`,
/// `()[s0] -> (s0)`, `(d0) -> ()`.
std::string AffineMapToString(mlir::AffineMap map);

/// The text format of XLA's indexing-analysis documentation:
///
///   (d0, d1, d2)[s0, s1] -> (d0 + s0, d1 * 7 + 3, s1)
///   domain:
///   d0 in [0, 0]
///   ...
///   s0 in [0, 1]
///     hlo: of1 = s32[] parameter(1)
///     (d0, d1, d2) -> ()
///   s1 in [0, 226]
///   (d1 - 3) mod 7 in [0, 0]
///
/// dims, then range variables, then runtime variables (with their "hlo:" line
/// and access map), then constraints sorted by their printed expression. No
/// trailing newline. Special maps print as "UNDEFINED" and "KNOWN EMPTY".
std::string ToString(const IndexingMap& map);

/// The map in the one-line form XLA HEAD's ToString(IndexingMap) prints and
/// its ParseIndexingMap reads (xla/hlo/analysis/indexing_map_serialization.cc):
///   (d0, d1)[s0]{s1} -> (d0 / 4 + s1, d1 mod 3), domain: d0 in [0, 15],
///   d1 in [0, 2], s0 in [0, 1], s1 in [0, 7], d0 + s0 in [0, 9]
/// floordiv printed as `/`, range variables in [...], runtime variables in
/// {...} (their "hlo:" text and access map have no place in that form and
/// are left out), constraints sorted by their text. ParseIndexingMap reads
/// it back; the map is equal unless a runtime variable had hlo text or an
/// access map.
std::string ToXlaHeadString(const IndexingMap& map);

/// Streams ToString(map) (as XLA's `operator<<` for IndexingMap does). An
/// Undefined map with a reason prints "UNDEFINED (REASON)", e.g.
/// "UNDEFINED (no indexing rule for opcode 'sort')"; ParseIndexingMap does
/// not read the reason back.
std::ostream& operator<<(std::ostream& out, const IndexingMap& map);

/// Parses the format above and XLA's one-line form
///   (d0, d1)[s0]{rt0} -> (d0 + rt0, s0), domain: d0 in [0, 9], ...,
///   rt0 in [0, 3], d0 + s0 in [0, 5]
/// (commas between entries, runtime variables in braces; they become symbols
/// after the range variables). Variable names are taken from the header, so
/// any identifiers work. "hlo:" lines set RuntimeVar::hlo_text ("NULL" means
/// none) and the line after is the access map. Also accepts "UNDEFINED" and
/// "KNOWN EMPTY". Errors name line:column and what was expected.
///
/// Expressions may also use XLA's SymbolicExpr spellings: `/` and `floorDiv`
/// for floordiv, `ceilDiv` for ceildiv (same precedence as `*`). XLA's
/// `min(a, b)` and `max(a, b)` have no affine counterpart: an error at them.
///
/// ParseIndexingMap(ToString(m)) == m for every map m.
absl::StatusOr<IndexingMap> ParseIndexingMap(absl::string_view text,
                                             mlir::MLIRContext* context);

/// Parses one affine expression over the given dimension and symbol names
/// (e.g. {"d0", "d1"}, {"s0"}); the same syntax as in maps.
absl::StatusOr<mlir::AffineExpr> ParseAffineExpr(
    absl::string_view text, const std::vector<std::string>& dim_names,
    const std::vector<std::string>& symbol_names, mlir::MLIRContext* context);

/// Parses a bare affine map `(d0, d1)[s0] -> (d0 + s0, d1)`.
absl::StatusOr<mlir::AffineMap> ParseAffineMap(absl::string_view text,
                                               mlir::MLIRContext* context);

/// The JSON shape of one map, used by every `--json` output:
///   {"text": "...", "map": "(d0, d1)[s0] -> (d0, s0)",
///    "dims": [{"name": "d0", "lo": 0, "hi": 9}, ...],
///    "symbols": [{"name": "s0", "lo": 0, "hi": 255, "kind": "range"},
///                {"name": "s1", "lo": 0, "hi": 15, "kind": "runtime",
///                 "hlo": "of1 = s32[] parameter(1)",
///                 "access": "(d0, d1) -> ()"}],
///    "constraints": [{"expr": "d1 mod 2", "lo": 0, "hi": 0}],
///    "undefined": false, "known_empty": false}
/// on one line, strings JSON-escaped. Special maps have "map": "" and empty
/// arrays; an Undefined map with a reason has one more key after
/// "undefined": "undefined_reason": "no indexing rule for opcode 'sort'". A
/// null runtime hlo prints "hlo": null.
std::string IndexingMapToJson(const IndexingMap& map);

/// `s` as a JSON string literal with quotes, in UTF-8 whatever bytes `s`
/// holds: '"', '\\', control characters, DEL, U+2028 and U+2029 escaped,
/// and each byte that does not start a well-formed UTF-8 sequence written
/// as \ufffd (U+FFFD).
std::string JsonQuote(absl::string_view s);

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_INDEXING_MAP_TEXT_H_
