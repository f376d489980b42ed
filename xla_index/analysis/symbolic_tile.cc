#include "xla_index/analysis/symbolic_tile.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "llvm/ADT/DenseMap.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/fusion_indexing.h"

namespace xla_index {
namespace {

// e = rest + sum coeffs[v] * s_v, where rest has no local variable.
struct LinearForm {
  mlir::AffineExpr rest;
  std::map<int64_t, int64_t> coeffs;
};

bool ContainsLocal(mlir::AffineExpr expr, const std::set<int64_t>& locals) {
  bool found = false;
  expr.walk([&](mlir::AffineExpr e) {
    if (auto s = mlir::dyn_cast<mlir::AffineSymbolExpr>(e)) {
      if (locals.count(s.getPosition())) found = true;
    }
  });
  return found;
}

std::optional<LinearForm> Decompose(mlir::AffineExpr expr,
                                    const std::set<int64_t>& locals) {
  mlir::MLIRContext* context = expr.getContext();
  if (!ContainsLocal(expr, locals)) {
    return LinearForm{expr, {}};
  }
  if (auto s = mlir::dyn_cast<mlir::AffineSymbolExpr>(expr)) {
    return LinearForm{mlir::getAffineConstantExpr(0, context),
                      {{s.getPosition(), 1}}};
  }
  if (expr.getKind() == mlir::AffineExprKind::Add) {
    auto add = mlir::cast<mlir::AffineBinaryOpExpr>(expr);
    std::optional<LinearForm> lhs = Decompose(add.getLHS(), locals);
    std::optional<LinearForm> rhs = Decompose(add.getRHS(), locals);
    if (!lhs || !rhs) return std::nullopt;
    for (auto [v, a] : rhs->coeffs) lhs->coeffs[v] += a;
    lhs->rest = lhs->rest + rhs->rest;
    return lhs;
  }
  if (expr.getKind() == mlir::AffineExprKind::Mul) {
    auto mul = mlir::cast<mlir::AffineBinaryOpExpr>(expr);
    mlir::AffineExpr factor = mul.getRHS(), other = mul.getLHS();
    if (!mlir::isa<mlir::AffineConstantExpr>(factor)) std::swap(factor, other);
    auto constant = mlir::dyn_cast<mlir::AffineConstantExpr>(factor);
    if (!constant) return std::nullopt;
    std::optional<LinearForm> form = Decompose(other, locals);
    if (!form) return std::nullopt;
    for (auto& [v, a] : form->coeffs) a *= constant.getValue();
    form->rest = form->rest * constant.getValue();
    return form;
  }
  // floordiv, ceildiv, mod of an expression with a local variable.
  return std::nullopt;
}

// Splits local v in [0, n - 1] used as `v floordiv c` / `v mod c` (one c,
// dividing n) into v = c * v_hi + v_lo with new local symbols appended at
// `next_symbol`. Returns true if anything was split.
bool SplitDivMod(std::vector<mlir::AffineExpr>& results,
                 std::set<int64_t>& locals, std::map<int64_t, Interval>& bounds,
                 int64_t& next_symbol, mlir::MLIRContext* context) {
  bool changed = false;
  for (int64_t v : std::vector<int64_t>(locals.begin(), locals.end())) {
    std::set<int64_t> divisors;
    mlir::AffineExpr sym = mlir::getAffineSymbolExpr(v, context);
    for (mlir::AffineExpr r : results) {
      r.walk([&](mlir::AffineExpr e) {
        if (e.getKind() != mlir::AffineExprKind::FloorDiv &&
            e.getKind() != mlir::AffineExprKind::Mod) {
          return;
        }
        auto bin = mlir::cast<mlir::AffineBinaryOpExpr>(e);
        auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(bin.getRHS());
        if (bin.getLHS() == sym && c) divisors.insert(c.getValue());
      });
    }
    Interval b = bounds[v];
    if (divisors.size() != 1 || b.lower != 0) continue;
    int64_t c = *divisors.begin();
    int64_t n = b.upper + 1;
    if (c < 2 || n % c != 0) continue;
    int64_t hi = next_symbol++, lo = next_symbol++;
    mlir::AffineExpr hi_expr = mlir::getAffineSymbolExpr(hi, context);
    mlir::AffineExpr lo_expr = mlir::getAffineSymbolExpr(lo, context);
    llvm::DenseMap<mlir::AffineExpr, mlir::AffineExpr> replacements;
    replacements[sym.floorDiv(c)] = hi_expr;
    replacements[sym % c] = lo_expr;
    replacements[sym] = hi_expr * c + lo_expr;
    for (mlir::AffineExpr& r : results) r = r.replace(replacements);
    locals.erase(v);
    locals.insert(hi);
    locals.insert(lo);
    bounds[hi] = {0, n / c - 1};
    bounds[lo] = {0, c - 1};
    changed = true;
  }
  return changed;
}

std::string ConstraintText(const IndexingConstraint& c) {
  return absl::StrCat(AffineExprToString(c.expr), " in ",
                      c.interval.ToString());
}

bool SameTile(const PropagatedTile& a, const PropagatedTile& b) {
  return a.tileable == b.tileable && a.reason == b.reason &&
         a.tile.offsets == b.tile.offsets && a.tile.sizes == b.tile.sizes &&
         a.tile.strides == b.tile.strides && a.constraints == b.constraints;
}

// Adds `tile` unless an equal one is there: two maps (e.g. softmax's
// identity and reduction reads of a whole row) often give the same tile.
void AddTile(std::vector<PropagatedTile>& tiles, PropagatedTile tile) {
  for (const PropagatedTile& existing : tiles) {
    if (SameTile(existing, tile)) return;
  }
  tiles.push_back(std::move(tile));
}

// For a constraint `c` that involves the tile's local variables: appends
// the equivalent constraint on the tile ids to `out` when every tile
// satisfies `c` for all or for none of its elements; otherwise says why not.
std::optional<std::string> TileLevelConstraint(
    const IndexingConstraint& c, const IndexingMap& composed,
    const std::set<int64_t>& locals, std::vector<IndexingConstraint>& out) {
  std::optional<LinearForm> form = Decompose(c.expr, locals);
  if (!form) return "is not affine in the tile's elements";
  bool uses_symbols = false;
  form->rest.walk([&](mlir::AffineExpr e) {
    if (mlir::isa<mlir::AffineSymbolExpr>(e)) uses_symbols = true;
  });
  if (uses_symbols) return "depends on runtime values inside a tile";
  int64_t min = 0, max = 0;
  for (auto [v, a] : form->coeffs) {
    Interval b = composed.GetSymbolBound(v);
    min += a > 0 ? a * b.lower : a * b.upper;
    max += a > 0 ? a * b.upper : a * b.lower;
  }
  const int64_t lo = c.interval.lower, hi = c.interval.upper;
  std::vector<int64_t> no_symbols(composed.GetSymbolCount(), 0);
  std::optional<std::string> straddles;
  bool enumerable = true;
  {
    // Every tile id point (the tile ids of real fusions are few).
    std::vector<Interval> box = composed.GetDimBounds();
    int64_t count = 1;
    for (Interval b : box) {
      if (b.IsEmpty()) return std::nullopt;
      if (__builtin_mul_overflow(count, b.NumElements(), &count) ||
          count > (int64_t{1} << 20)) {
        enumerable = false;
        break;
      }
    }
    if (enumerable) {
      std::vector<int64_t> t(box.size());
      for (size_t i = 0; i < box.size(); ++i) t[i] = box[i].lower;
      while (!straddles) {
        std::optional<int64_t> v =
            EvaluateAffineExpr(form->rest, t, no_symbols);
        if (!v) return "cannot be evaluated at every tile";
        bool all = *v + min >= lo && *v + max <= hi;
        bool none = *v + max < lo || *v + min > hi;
        if (!all && !none) {
          straddles =
              absl::StrCat("splits the tile at ids (", absl::StrJoin(t, ", "),
                           "): part of its elements satisfy it");
        }
        int64_t i = static_cast<int64_t>(box.size()) - 1;
        for (; i >= 0; --i) {
          if (++t[i] <= box[i].upper) break;
          t[i] = box[i].lower;
        }
        if (i < 0) break;
      }
    }
  }
  if (!enumerable) return "involves too many tiles to check";
  if (straddles) return straddles;
  out.push_back({form->rest, {lo - min, hi - max}});
  return std::nullopt;
}

PropagatedTile CannotTile(std::string reason) {
  PropagatedTile tile;
  tile.reason = std::move(reason);
  return tile;
}

}  // namespace

absl::StatusOr<IndexingMap> OutputTileMap(absl::Span<const int64_t> output_dims,
                                          absl::Span<const int64_t> tile_sizes,
                                          mlir::MLIRContext* context) {
  if (output_dims.size() != tile_sizes.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--tile: ", tile_sizes.size(),
                     " tile sizes for an output of rank ", output_dims.size()));
  }
  const int64_t rank = output_dims.size();
  std::vector<mlir::AffineExpr> results;
  std::vector<Interval> tile_ids, locals;
  for (int64_t i = 0; i < rank; ++i) {
    if (tile_sizes[i] < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("--tile: size ", tile_sizes[i], " of dimension ", i,
                       " must be at least 1"));
    }
    int64_t n = output_dims[i];
    int64_t size = std::max<int64_t>(1, std::min(tile_sizes[i], n));
    results.push_back(mlir::getAffineDimExpr(i, context) * size +
                      mlir::getAffineSymbolExpr(i, context));
    // Full tiles only: a partial last tile is the clipped version.
    tile_ids.push_back({0, std::max<int64_t>(0, n / size - 1)});
    locals.push_back({0, size - 1});
  }
  return IndexingMap(mlir::AffineMap::get(rank, rank, results, context),
                     tile_ids, locals, {});
}

PropagatedTile PropagateTile(const IndexingMap& tile_map,
                             const IndexingMap& output_to_operand) {
  if (output_to_operand.IsUndefined()) {
    return CannotTile("no indexing rule (UNDEFINED map)");
  }
  if (output_to_operand.IsKnownEmpty()) {
    return CannotTile("the output tile reads nothing (KNOWN EMPTY map)");
  }
  IndexingMap composed = ComposeIndexingMaps(tile_map, output_to_operand);
  composed.Simplify();
  if (composed.IsKnownEmpty()) {
    return CannotTile("no full tile reads this operand (KNOWN EMPTY)");
  }
  mlir::MLIRContext* context = composed.GetMLIRContext();
  const int64_t num_tile_dims = composed.GetDimensionCount();
  std::set<int64_t> locals;
  std::map<int64_t, Interval> bounds;
  for (int64_t s = 0; s < composed.GetRangeVarsCount(); ++s) {
    locals.insert(s);
    bounds[s] = composed.GetSymbolBound(s);
  }
  PropagatedTile result;
  // Runtime symbols keep their meaning in the offsets map: symbol
  // R + j of the composed map becomes runtime symbol j of the offsets map.
  const int64_t num_ranges = composed.GetRangeVarsCount();
  const int64_t num_runtime = composed.GetRuntimeVarsCount();
  llvm::SmallVector<mlir::AffineExpr> symbol_replacements;
  for (int64_t s = 0; s < composed.GetSymbolCount(); ++s) {
    symbol_replacements.push_back(
        s < num_ranges ? mlir::getAffineConstantExpr(0, context)
                       : mlir::getAffineSymbolExpr(s - num_ranges, context));
  }
  llvm::SmallVector<mlir::AffineExpr> dim_replacements;
  for (int64_t d = 0; d < num_tile_dims; ++d) {
    dim_replacements.push_back(mlir::getAffineDimExpr(d, context));
  }

  // Constraints on the tile ids (and runtime values) select which tiles
  // read through this map; one that also involves the tile's elements is
  // fine when, for every tile, it holds for all of its elements or for
  // none (the tile does not straddle its boundary): then it is the
  // tile-level constraint rest in [lo - max, hi - min] of the local part.
  std::vector<IndexingConstraint> tile_constraints;
  for (const IndexingConstraint& c : composed.GetConstraints()) {
    if (!ContainsLocal(c.expr, locals)) {
      tile_constraints.push_back(c);
      continue;
    }
    std::optional<std::string> problem =
        TileLevelConstraint(c, composed, locals, tile_constraints);
    if (problem) {
      return CannotTile(absl::StrCat("the constraint ", ConstraintText(c), " ",
                                     *problem, "; composed map:\n",
                                     ToString(composed)));
    }
  }
  std::vector<mlir::AffineExpr> results(
      composed.GetAffineMap().getResults().begin(),
      composed.GetAffineMap().getResults().end());
  int64_t next_symbol = composed.GetSymbolCount();
  while (SplitDivMod(results, locals, bounds, next_symbol, context)) {
  }

  std::map<int64_t, int64_t> owner;  // local variable -> result using it
  std::vector<mlir::AffineExpr> offsets;
  for (size_t k = 0; k < results.size(); ++k) {
    std::optional<LinearForm> form = Decompose(results[k], locals);
    if (!form) {
      return CannotTile(absl::StrCat(
          "result ", k, " (", AffineExprToString(results[k]),
          ") is not affine in the tile's elements; composed map:\n",
          ToString(composed)));
    }
    std::vector<std::pair<int64_t, int64_t>> terms;  // (coefficient, var)
    for (auto [v, a] : form->coeffs) {
      if (a == 0 || bounds[v].IsPoint()) {
        if (a != 0) {
          form->rest = form->rest + a * bounds[v].lower;
        }
        continue;
      }
      auto [it, inserted] = owner.emplace(v, k);
      if (!inserted) {
        return CannotTile(absl::StrCat(
            "results ", it->second, " and ", k,
            " move together with one element index of the tile (a "
            "diagonal), so the elements do not form a rectangle; composed "
            "map:\n",
            ToString(composed)));
      }
      terms.push_back({a, v});
    }
    mlir::AffineExpr offset = form->rest;
    int64_t size = 1, stride = 1;
    if (terms.size() == 1) {
      auto [a, v] = terms[0];
      offset = offset + a * bounds[v].lower;
      size = bounds[v].NumElements();
      stride = a;
    } else if (terms.size() > 1) {
      std::sort(terms.begin(), terms.end());
      int64_t g = 0;
      for (auto [a, v] : terms) {
        if (a < 0) {
          return CannotTile(
              absl::StrCat("result ", k, " (", AffineExprToString(results[k]),
                           ") combines several tile elements with a negative "
                           "coefficient"));
        }
        g = std::gcd(g, a);
      }
      // The sum of a_j * v_j covers every multiple of g from its minimum
      // to its maximum when each coefficient, in ascending order, is at
      // most one step beyond the span of the previous ones.
      int64_t span = 0;  // in units of g
      for (auto [a, v] : terms) {
        if (a / g > span + 1) {
          return CannotTile(absl::StrCat(
              "result ", k, " (", AffineExprToString(results[k]),
              ") leaves gaps: coefficient ", a, " jumps past the ", span + 1,
              " consecutive values (step ", g,
              ") of the smaller terms; composed map:\n", ToString(composed)));
        }
        span += (a / g) * (bounds[v].NumElements() - 1);
        offset = offset + a * bounds[v].lower;
      }
      size = span + 1;
      stride = g;
    }
    offsets.push_back(
        offset.replaceDimsAndSymbols(dim_replacements, symbol_replacements));
    result.tile.sizes.push_back(size);
    result.tile.strides.push_back(stride);
  }
  std::vector<RuntimeVar> runtime(composed.GetRuntimeVars());
  result.tile.offsets = IndexingMap(
      mlir::AffineMap::get(num_tile_dims, num_runtime, offsets, context),
      composed.GetDimBounds(), {}, runtime);
  for (const IndexingConstraint& c : tile_constraints) {
    mlir::AffineExpr expr =
        c.expr.replaceDimsAndSymbols(dim_replacements, symbol_replacements);
    result.tile.offsets.AddConstraint(expr, c.interval);
    result.constraints.push_back(
        absl::StrCat(AffineExprToString(expr), " in ", c.interval.ToString()));
  }
  result.tileable = true;
  // The tile ids: full tiles only, narrowed by the simplifier to the tiles
  // that read through this map (a concatenate operand's slab).
  const std::vector<Interval>& ids = composed.GetDimBounds();
  for (size_t i = 0; i < ids.size(); ++i) {
    result.constraints.insert(result.constraints.begin() + i,
                              absl::StrCat("d", i, " in ", ids[i].ToString()));
  }
  return result;
}

absl::StatusOr<std::vector<int64_t>> ParseTileSizes(absl::string_view text) {
  std::vector<int64_t> sizes;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    absl::string_view entry = text.substr(
        start, comma == absl::string_view::npos ? absl::string_view::npos
                                                : comma - start);
    int64_t size = 0;
    if (!absl::SimpleAtoi(entry, &size) || size < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--tile: column ", start + 1, ": expected a tile size >= 1, got '",
          entry, "' (sizes are comma-separated, e.g. --tile=8,128)"));
    }
    sizes.push_back(size);
    if (comma == absl::string_view::npos) break;
    start = comma + 1;
  }
  return sizes;
}

absl::StatusOr<TileReport> AnalyzeTiling(const HloModule& module,
                                         absl::Span<const int64_t> tile_sizes,
                                         mlir::MLIRContext* context) {
  absl::StatusOr<AnalyzedFusion> fusion =
      AnalyzeFusionOperands(module, context);
  if (!fusion.ok()) return fusion.status();
  absl::StatusOr<IndexingMap> tile_map =
      OutputTileMap(fusion->output_shape.dimensions(), tile_sizes, context);
  if (!tile_map.ok()) return tile_map.status();
  TileReport report;
  report.root_name = fusion->root->name();
  report.output_shape = fusion->output_shape;
  report.tile_sizes.assign(tile_sizes.begin(), tile_sizes.end());
  report.output_tile = PropagateTile(
      *tile_map, CreateIdentityMap(fusion->output_shape.dimensions(), context));
  for (const FusionOperand& operand : fusion->operands) {
    TensorTiles tiles;
    tiles.operand = operand.number;
    tiles.name = operand.name;
    tiles.shape = operand.shape;
    for (const IndexingMap& map : operand.maps) {
      PropagatedTile tile = PropagateTile(*tile_map, map);
      if (!tile.tileable) report.tileable = false;
      AddTile(tiles.tiles, std::move(tile));
    }
    report.operands.push_back(std::move(tiles));
  }
  // Every instruction inside: the per-producer grouping of the same
  // composition.
  const HloInstruction* target = fusion->computation->root();
  if (target != nullptr) {
    GroupedIndexingMaps grouped = ComputeGroupedOutputToInputIndexing(
        *fusion->computation, target, 0, context);
    std::vector<HloInstruction*> order = fusion->computation->PostOrder();
    std::reverse(order.begin(), order.end());
    for (const HloInstruction* instruction : order) {
      auto it = grouped.find(instruction);
      if (it == grouped.end() || !instruction->shape().IsArray()) continue;
      TensorTiles tiles;
      tiles.name = instruction->name();
      tiles.shape = instruction->shape();
      for (const IndexingMap& map : it->second) {
        AddTile(tiles.tiles, PropagateTile(*tile_map, map));
      }
      report.instructions.push_back(std::move(tiles));
    }
  }
  return report;
}

namespace {

std::string TileToText(const PropagatedTile& tile, const std::string& indent) {
  if (!tile.tileable) {
    return absl::StrCat(
        indent, "cannot tile: ",
        absl::StrReplaceAll(tile.reason, {{"\n", "\n" + indent + "  "}}), "\n");
  }
  std::string text = absl::StrCat(
      indent, "offsets ", AffineMapToString(tile.tile.offsets.GetAffineMap()),
      ", sizes (", absl::StrJoin(tile.tile.sizes, ", "), "), strides (",
      absl::StrJoin(tile.tile.strides, ", "), ")\n");
  if (!tile.constraints.empty()) {
    absl::StrAppend(&text, indent, "exact for ",
                    absl::StrJoin(tile.constraints, ", "), "\n");
  }
  return text;
}

std::string TileToJson(const PropagatedTile& tile) {
  std::vector<std::string> constraints;
  for (const std::string& c : tile.constraints) {
    constraints.push_back(JsonQuote(c));
  }
  return absl::StrCat(
      "{\"tileable\": ", tile.tileable ? "true" : "false",
      ", \"reason\": ", JsonQuote(tile.reason), ", \"offsets\": ",
      tile.tileable ? IndexingMapToJson(tile.tile.offsets) : "null",
      ", \"sizes\": [", absl::StrJoin(tile.tile.sizes, ", "),
      "], \"strides\": [", absl::StrJoin(tile.tile.strides, ", "),
      "], \"constraints\": [", absl::StrJoin(constraints, ", "), "]}");
}

std::string TensorTilesToJson(const TensorTiles& t, bool with_operand) {
  std::string json = "{";
  if (with_operand) absl::StrAppend(&json, "\"operand\": ", t.operand, ", ");
  absl::StrAppend(&json, "\"name\": ", JsonQuote(t.name),
                  ", \"shape\": ", JsonQuote(t.shape.ToString()),
                  ", \"tiles\": [");
  for (size_t i = 0; i < t.tiles.size(); ++i) {
    absl::StrAppend(&json, i ? ", " : "", TileToJson(t.tiles[i]));
  }
  absl::StrAppend(&json, "]}");
  return json;
}

}  // namespace

std::string TileReportToText(const TileReport& report) {
  std::string text = absl::StrCat(
      "root: ", report.root_name, "\noutput: ", report.output_shape.ToString(),
      ", tile (", absl::StrJoin(report.tile_sizes, ", "), ")\n",
      TileToText(report.output_tile, "  "));
  for (const TensorTiles& t : report.operands) {
    absl::StrAppend(&text, "operand ", t.operand, " (", t.name, ", ",
                    t.shape.ToString(), "):\n");
    if (t.tiles.empty()) absl::StrAppend(&text, "  not read\n");
    for (const PropagatedTile& tile : t.tiles) {
      absl::StrAppend(&text, TileToText(tile, "  "));
    }
  }
  absl::StrAppend(&text, "instructions:\n");
  for (const TensorTiles& t : report.instructions) {
    absl::StrAppend(&text, "  ", t.name, " (", t.shape.ToString(), "):\n");
    for (const PropagatedTile& tile : t.tiles) {
      absl::StrAppend(&text, TileToText(tile, "    "));
    }
  }
  absl::StrAppend(&text, report.tileable ? "tileable\n" : "cannot tile\n");
  return text;
}

std::string TileReportToJson(const TileReport& report) {
  std::string json = absl::StrCat(
      "{\"root\": ", JsonQuote(report.root_name),
      ", \"output_shape\": ", JsonQuote(report.output_shape.ToString()),
      ", \"tile_sizes\": [", absl::StrJoin(report.tile_sizes, ", "),
      "], \"tileable\": ", report.tileable ? "true" : "false",
      ", \"output_tile\": ", TileToJson(report.output_tile),
      ", \"operands\": [");
  for (size_t i = 0; i < report.operands.size(); ++i) {
    absl::StrAppend(&json, i ? ", " : "",
                    TensorTilesToJson(report.operands[i], true));
  }
  absl::StrAppend(&json, "], \"instructions\": [");
  for (size_t i = 0; i < report.instructions.size(); ++i) {
    absl::StrAppend(&json, i ? ", " : "",
                    TensorTilesToJson(report.instructions[i], false));
  }
  absl::StrAppend(&json, "]}");
  return json;
}

}  // namespace xla_index
