#ifndef XLA_INDEX_ANALYSIS_SYMBOLIC_TILE_H_
#define XLA_INDEX_ANALYSIS_SYMBOLIC_TILE_H_

// Symbolic tile propagation through indexing maps (XLA's indexing-analysis
// documentation, "Tiling"): a
// tile is a hyperrectangular, strided subset of a tensor, given per
// dimension by an offset, a size and a stride. The output of a fusion is cut
// into tiles of the given sizes; tile number (t0, ..., t_{r-1}) starts at
// offsets (t0 * size0, ..., t_{r-1} * size_{r-1}) with stride 1. Which tile
// of each operand (and of each instruction inside the fusion) does it read?
//
// The answer is generic over the maps. The output tile is itself a map
//   T: (t0, ..., t_{r-1})[l0, ..., l_{r-1}] -> (t_i * size_i + l_i),
//   l_i in [0, size_i - 1]  (the position inside the tile),
// and T followed by the output-to-operand map f gives, for every tile, the
// operand elements it reads, with the tile's local variables (the l_i and
// f's own range variables, e.g. a reduced dimension) as symbols. After
// simplification, operand result k must be
//   e_k = c_k(t, runtime values) + sum_j a_kj * v_j
// with each local variable v_j in at most one result, and the values of the
// sum forming one strided interval: a single variable gives offset c_k + a
// * lower(v), size |v|, stride a; several variables (sorted by |a|, step
// g = gcd) must leave no gap, i.e. each |a| / g <= 1 + (span so far) / g
// (reshapes that merge whole rows, reduce-window's d + s); a negative
// coefficient walks its variable from the top (a reverse), and when all are
// negative the stride is -g from the largest value. `v floordiv c` and
// `v mod c` for divisors c_1 | c_2 | ... | |v| are split first into
// mixed-radix digits v = x_0 + c_1 x_1 + ... (the reshape of a tile that
// covers whole rows, also when it collapses several dimensions). Anything
// else "cannot tile", with the reason: a result that is not affine in the
// local variables, a variable in two results (a diagonal), gaps between the
// values, a runtime value that differs between the elements of a tile (a
// gather's start index along a tile wider than one row), or a constraint
// that splits a tile and is not a range of one operand coordinate (or is,
// under TileOptions::strict).
//
// Example, dot f32[64,256] x f32[256,512] -> f32[64,512], tile (8, 128):
//   lhs: offsets (t0 * 8, 0), sizes (8, 256), strides (1, 1)
//   rhs: offsets (0, t1 * 128), sizes (256, 128), strides (1, 1)
// and reshape f32[32] -> f32[4,8] with tile (2, 4) cannot tile: the tile
// reads 16 t0 + 4 t1 + 8 l0 + l1, two runs of 4 elements 8 apart.
//
// Exactness constraints: tile sizes are concrete, so the propagated tiles
// are exact for every full tile. When a size does not divide its dimension
// the last tile along it is partial (clipped at the end of the dimension);
// the tile ids range over the full tiles and the constraints
// "d_i in [lo, hi]" say so, narrowed to the tiles that read through the map
// (a concatenate operand's slab). A constraint of the composed map that
// involves the tile's elements is accepted when every tile satisfies it for
// all of its elements or for none, and becomes a constraint on the tile ids
// (also attached to the offsets map, so offsets.ConstraintsSatisfied(ids)
// says whether a tile reads); a tile that straddles it cannot tile.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlo/instruction.h"
#include "hlo/module.h"
#include "hlo/shape.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/symbolic_tile_constraints.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/ops/instruction_indexing.h"

namespace xla_index {

/// A tile of a tensor: offsets as a map from tile ids (and runtime values,
/// as runtime symbols) to one offset per tensor dimension; sizes and strides
/// per dimension.
struct SymbolicTile {
  IndexingMap offsets = IndexingMap::Undefined();
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
};

/// Elements of a tile past an edge: only those whose coordinate
/// `dimension` lies in `kept` are read; the others are masked.
struct TileMask {
  int64_t dimension = 0;
  Interval kept;
};

struct TileOptions {
  /// Refuse a tile that straddles a pad or concatenate edge instead of
  /// giving it with a mask.
  bool strict = false;
};

/// The result of propagating the output tile through one map.
struct PropagatedTile {
  bool tileable = false;
  /// Why it cannot tile (empty when tileable).
  std::string reason;
  SymbolicTile tile;
  /// Conditions on the tile ids (text `expr in [lo, hi]`) under which the
  /// tile is exact, or, with masks, under which it reads at least one
  /// element (see the file comment).
  std::vector<std::string> constraints;
  /// Non-empty when the tile runs past an edge and needs masking.
  std::vector<TileMask> masks;
  /// XLA's constraints on the tile sizes for this map, and whether the
  /// given sizes satisfy them (false when XLA derives no tile).
  XlaTileSizeConstraints xla;
  bool xla_satisfied = false;
};

/// The output tile map T of the file comment, for an output of dims
/// `output_dims` cut into tiles of `tile_sizes` (sizes larger than the
/// dimension are clamped to it). Tile ids range over the full tiles only.
/// InvalidArgument when the counts differ or a size is < 1.
absl::StatusOr<IndexingMap> OutputTileMap(absl::Span<const int64_t> output_dims,
                                          absl::Span<const int64_t> tile_sizes,
                                          mlir::MLIRContext* context);

/// Propagates the output tile (`tile_map`, from OutputTileMap) through
/// `output_to_operand`.
PropagatedTile PropagateTile(const IndexingMap& tile_map,
                             const IndexingMap& output_to_operand,
                             const TileOptions& options = {});

/// The tiles of one tensor (a fusion operand or an instruction inside the
/// fusion): one per map it is read through, equal tiles merged.
struct TensorTiles {
  /// Operand number (-1 for an instruction inside the fusion).
  int64_t operand = -1;
  std::string name;
  Shape shape;
  std::vector<PropagatedTile> tiles;
};

struct TileReport {
  std::string root_name;
  /// Output 0, and all outputs (one unless the root is a tuple).
  Shape output_shape;
  std::vector<Shape> output_shapes;
  std::vector<int64_t> tile_sizes;
  /// Output 0's own tile (identity propagation), and every output's.
  PropagatedTile output_tile;
  std::vector<PropagatedTile> output_tiles;
  /// The fusion's operands, by number.
  std::vector<TensorTiles> operands;
  /// Every instruction of the analyzed computation the output reads,
  /// users before producers (parameters included).
  std::vector<TensorTiles> instructions;
  /// True when every operand read can be tiled.
  bool tileable = true;
  /// True for AnalyzeMapTiling: shapes are index ranges (element type
  /// unknown) and there are no instructions.
  bool from_map = false;
};

/// Parses tile sizes such as "8,128": comma-separated, each an integer >= 1.
/// The empty text is the empty tile of a rank-0 output. InvalidArgument
/// naming the bad entry and its position (1-based column in `text`)
/// otherwise.
absl::StatusOr<std::vector<int64_t>> ParseTileSizes(absl::string_view text);

/// Tile propagation from the outputs of `instruction` (analyzed as a fusion,
/// fusion_operands.h) with tiles of `tile_sizes` (one per output dimension;
/// every output of a tuple root is cut the same way and each operand gets
/// the tiles of all outputs that read it). InvalidArgument for a wrong
/// number of sizes or a size < 1.
absl::StatusOr<TileReport> AnalyzeTiling(const HloInstruction& instruction,
                                         absl::Span<const int64_t> tile_sizes,
                                         mlir::MLIRContext* context,
                                         const TileOptions& options = {});

/// The same for the root of `module`'s entry computation.
absl::StatusOr<TileReport> AnalyzeTiling(const HloModule& module,
                                         absl::Span<const int64_t> tile_sizes,
                                         mlir::MLIRContext* context,
                                         const TileOptions& options = {});

/// Tiles an output-to-operand indexing map given as such (e.g. one built in
/// code): the output is f32[n_0, ..., n_{r-1}] with n_i the size of
/// dimension i's interval, which must start at 0; the map's results index
/// one operand ("operand 0", named `map`, its shape unknown and printed as
/// its rank). The map's range variables are read elements (a reduction),
/// its runtime variables stay symbols of the offsets. InvalidArgument for
/// an undefined map, a dimension interval not starting at 0, or a wrong
/// number of sizes.
absl::StatusOr<TileReport> AnalyzeMapTiling(
    const IndexingMap& map, absl::Span<const int64_t> tile_sizes,
    const TileOptions& options = {});

/// Text: the output tile, then per operand and per instruction "offsets
/// (...) sizes (...) strides (...)" or "cannot tile: REASON", each with its
/// mask ("masked: keeps dim K in [lo, hi]", the tile ids then listed as
/// "read by the tiles ...") and XLA's constraints on the
/// tile sizes ("XLA tile-size constraints: TEXT (met|not met by the sizes)"
/// or "XLA derives no tile: REASON").
std::string TileReportToText(const TileReport& report);

/// One line: {"root": NAME, "output_shape": S, "tile_sizes": [..],
///  "tileable": B, "output_tile": TILE, "output_shapes": [S, ...],
///  "output_tiles": [TILE, ...], "operands": [{"operand": K,
///  "name": N, "shape": S, "tiles": [TILE, ...]}, ...], "instructions":
///  [{"name": N, "shape": S, "tiles": [...]}, ...]} where TILE is
///  {"tileable": B, "reason": R, "offsets": MAP or null, "sizes": [..],
///  "strides": [..], "constraints": [..], "needs_masking": B, "masks":
///  [{"dimension": K, "lo": L, "hi": H}, ...], "xla": {"derivable": B,
///  "reason": R, "constraints": CONSTRAINTS (TileSizeConstraints::ToJson),
///  "satisfied": B}}.
std::string TileReportToJson(const TileReport& report);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_SYMBOLIC_TILE_H_
