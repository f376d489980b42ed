#include "xla_index/analysis/symbolic_tile.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "hlo/evaluator.h"
#include "hlo/literal.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/symbolic_tile_brute_force.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

std::unique_ptr<HloModule> Parse(const std::string& text) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? std::move(*module) : nullptr;
}

TileReport Analyze(const HloModule& module, std::vector<int64_t> sizes,
                   mlir::MLIRContext* context) {
  absl::StatusOr<TileReport> report = AnalyzeTiling(module, sizes, context);
  EXPECT_TRUE(report.ok()) << report.status();
  return report.ok() ? *report : TileReport{};
}

void ExpectTile(const PropagatedTile& tile, const std::string& offsets,
                std::vector<int64_t> sizes, std::vector<int64_t> strides) {
  ASSERT_TRUE(tile.tileable) << tile.reason;
  EXPECT_EQ(AffineMapToString(tile.tile.offsets.GetAffineMap()), offsets);
  EXPECT_EQ(tile.tile.sizes, sizes);
  EXPECT_EQ(tile.tile.strides, strides);
}

// ---- Brute force ----
// For every full tile of the output: the operand elements the reference
// evaluator traces for the tile's output elements (no maps involved) must
// be exactly the union of the operand's propagated tiles
// (symbolic_tile_brute_force.h).
void CheckAgainstTrace(const HloModule& module, const TileReport& report) {
  for (const TensorTiles& operand : report.operands) {
    for (const PropagatedTile& tile : operand.tiles) {
      ASSERT_TRUE(tile.tileable) << operand.name << ": " << tile.reason;
    }
  }
  ExpectTilesMatchTrace(module, report);
}

TEST(SymbolicTileTest, Elementwise) {
  // out tile (t0, t1) covers rows 4 t0 .. 4 t0 + 3, columns 8 t1 .. + 7;
  // both operands are read at the same tile.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[16,32] parameter(0)
    p1 = f32[16,32] parameter(1)
    ROOT add = f32[16,32] add(p0, p1)
  )");
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {4, 8}, &context);
  EXPECT_TRUE(report.tileable);
  ExpectTile(report.output_tile, "(d0, d1) -> (d0 * 4, d1 * 8)", {4, 8},
             {1, 1});
  for (const TensorTiles& t : report.operands) {
    ASSERT_EQ(t.tiles.size(), 1u);
    ExpectTile(t.tiles[0], "(d0, d1) -> (d0 * 4, d1 * 8)", {4, 8}, {1, 1});
    EXPECT_EQ(t.tiles[0].constraints,
              (std::vector<std::string>{"d0 in [0, 3]", "d1 in [0, 3]"}));
  }
  CheckAgainstTrace(*module, report);
}

TEST(SymbolicTileTest, Broadcast) {
  // The broadcast of XLA's indexing-analysis documentation, out[i, j, k] =
  // p0[j], tile (2, 4, 30): the tile (t0, t1, 0) reads p0[4 t1 .. 4 t1 + 3].
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[20] parameter(0)
    ROOT bc0 = f32[10, 20, 30] broadcast(p0), dimensions={1}
  )");
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {2, 4, 30}, &context);
  ASSERT_EQ(report.operands.size(), 1u);
  ExpectTile(report.operands[0].tiles[0], "(d0, d1, d2) -> (d1 * 4)", {4}, {1});
  CheckAgainstTrace(*module, report);
}

TEST(SymbolicTileTest, Transpose) {
  // out[i, j] = p0[j, i], out tile (8, 4) at (8 t0, 4 t1) reads the p0
  // tile at (4 t1, 8 t0) of sizes (4, 8).
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[16,32] parameter(0)
    ROOT t = f32[32,16] transpose(p0), dimensions={1,0}
  )");
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {8, 4}, &context);
  ExpectTile(report.operands[0].tiles[0], "(d0, d1) -> (d1 * 4, d0 * 8)",
             {4, 8}, {1, 1});
  CheckAgainstTrace(*module, report);
}

TEST(SymbolicTileTest, ReshapeExpandWholeRows) {
  // f32[32] -> f32[4, 8], out[i, j] = p0[8 i + j]. Tile (2, 8) = two whole
  // rows: p0[16 t0 + 8 l0 + l1], l0 < 2, l1 < 8: coefficients 1 (8
  // values) then 8 (one past the span 0..7): contiguous, 16 elements.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[32] parameter(0)
    ROOT r = f32[4,8] reshape(p0)
  )");
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {2, 8}, &context);
  ExpectTile(report.operands[0].tiles[0], "(d0, d1) -> (d0 * 16)", {16}, {1});
  CheckAgainstTrace(*module, report);
}

TEST(SymbolicTileTest, ReshapeCollapseSplitsTheTile) {
  // f32[4, 8] -> f32[32], out[e] = p0[e floordiv 8, e mod 8]. Tile (16):
  // e = 16 t + l, l < 16, reads p0[2 t + l floordiv 8, l mod 8]: l splits
  // into 8 l_hi + l_lo, giving rows 2 t .. 2 t + 1, all 8 columns.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[4,8] parameter(0)
    ROOT r = f32[32] reshape(p0)
  )");
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {16}, &context);
  ExpectTile(report.operands[0].tiles[0], "(d0) -> (d0 * 2, 0)", {2, 8},
             {1, 1});
  CheckAgainstTrace(*module, report);
}

TEST(SymbolicTileTest, ReshapePartialRowsMustRefuse) {
  // f32[32] -> f32[4, 8] with tile (2, 4): the tile reads
  // p0[16 t0 + 4 t1 + 8 l0 + l1], l0 < 2, l1 < 4: for t = (0, 0) the
  // elements 0..3 and 8..11, two runs with a gap, not one strided interval.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[32] parameter(0)
    ROOT r = f32[4,8] reshape(p0)
  )");
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {2, 4}, &context);
  EXPECT_FALSE(report.tileable);
  ASSERT_EQ(report.operands[0].tiles.size(), 1u);
  const PropagatedTile& tile = report.operands[0].tiles[0];
  EXPECT_FALSE(tile.tileable);
  EXPECT_TRUE(absl::StrContains(tile.reason, "gaps")) << tile.reason;
  EXPECT_TRUE(
      absl::StrContains(TileReportToText(report), "cannot tile: result 0"));
  // The refusal is right: the traced reads of tile (0, 0) have a gap.
  const HloComputation& entry = *module->entry_computation();
  std::vector<Literal> arguments;
  arguments.emplace_back(entry.parameter(0)->shape());
  absl::StatusOr<TracedValue> traced = TraceComputation(entry, arguments);
  ASSERT_TRUE(traced.ok());
  std::set<int64_t> reads;
  for (int64_t i : {0, 1}) {
    for (int64_t j = 0; j < 4; ++j) {
      for (const ElementId& id : traced->reads[0][i * 8 + j]) {
        reads.insert(id.linear_index);
      }
    }
  }
  EXPECT_EQ(reads, (std::set<int64_t>{0, 1, 2, 3, 8, 9, 10, 11}));
}

TEST(SymbolicTileTest, Reduce) {
  // out[j] = sum_s p0[s, j] over f32[16, 10], tile (5): all 16 rows of
  // columns 5 t .. 5 t + 4; the init scalar is a rank-0 tile.
  mlir::MLIRContext context;
  auto module = Parse(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p0 = f32[16,10] parameter(0)
  init = f32[] parameter(1)
  ROOT r = f32[10] reduce(p0, init), dimensions={0}, to_apply=add
})");
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {5}, &context);
  ASSERT_EQ(report.operands.size(), 2u);
  ExpectTile(report.operands[0].tiles[0], "(d0) -> (0, d0 * 5)", {16, 5},
             {1, 1});
  ExpectTile(report.operands[1].tiles[0], "(d0) -> ()", {}, {});
  CheckAgainstTrace(*module, report);
}

TEST(SymbolicTileTest, Dot) {
  // out[i, j] = sum_k lhs[i, k] rhs[k, j]; tile (8, 8): lhs rows 8 t0..+7,
  // all 32 k; rhs all 32 k, columns 8 t1..+7.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    lhs = f32[16,32] parameter(0)
    rhs = f32[32,24] parameter(1)
    ROOT dot = f32[16,24] dot(lhs, rhs), lhs_contracting_dims={1},
      rhs_contracting_dims={0}
  )");
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {8, 8}, &context);
  ExpectTile(report.operands[0].tiles[0], "(d0, d1) -> (d0 * 8, 0)", {8, 32},
             {1, 1});
  ExpectTile(report.operands[1].tiles[0], "(d0, d1) -> (0, d1 * 8)", {32, 8},
             {1, 1});
  CheckAgainstTrace(*module, report);
}

constexpr char kSoftmax[] = R"(
HloModule softmax
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
fused {
  p0 = f32[2,8,16] parameter(0)
  ninf = f32[] constant(-inf)
  mx = f32[2,8] reduce(p0, ninf), dimensions={2}, to_apply=max
  mxb = f32[2,8,16] broadcast(mx), dimensions={0,1}
  sub = f32[2,8,16] subtract(p0, mxb)
  ex = f32[2,8,16] exponential(sub)
  zero = f32[] constant(0)
  sm = f32[2,8] reduce(ex, zero), dimensions={2}, to_apply=add
  smb = f32[2,8,16] broadcast(sm), dimensions={0,1}
  ROOT div = f32[2,8,16] divide(ex, smb)
}
ENTRY e {
  x = f32[2,8,16] parameter(0)
  ROOT f = f32[2,8,16] fusion(x), kind=kCustom, calls=fused
})";

TEST(SymbolicTileTest, SoftmaxRowsTileWhole) {
  // Tile (1, 4, 16) = 4 whole rows: the identity map and the reductions'
  // (d0, d1)[s0] -> (d0, d1, s0) both read p0 at (t0, 4 t1, 0), sizes
  // (1, 4, 16): one tile.
  mlir::MLIRContext context;
  auto module = Parse(kSoftmax);
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {1, 4, 16}, &context);
  ASSERT_EQ(report.operands.size(), 1u);
  ASSERT_EQ(report.operands[0].tiles.size(), 1u);
  for (const PropagatedTile& tile : report.operands[0].tiles) {
    ExpectTile(tile, "(d0, d1, d2) -> (d0, d1 * 4, 0)", {1, 4, 16}, {1, 1, 1});
  }
  CheckAgainstTrace(*module, report);
}

TEST(SymbolicTileTest, SoftmaxHalfRowsNeedTheWholeRowForTheReduction) {
  // Tile (1, 4, 8): the elementwise path reads (t0, 4 t1, 8 t2) sizes
  // (1, 4, 8), the reductions still the whole rows (t0, 4 t1, 0) sizes
  // (1, 4, 16). Inside the fusion, the reduce `mx` gets tile (t0, 4 t1)
  // sizes (1, 4).
  mlir::MLIRContext context;
  auto module = Parse(kSoftmax);
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {1, 4, 8}, &context);
  std::set<std::string> got;
  for (const PropagatedTile& tile : report.operands[0].tiles) {
    ASSERT_TRUE(tile.tileable) << tile.reason;
    got.insert(AffineMapToString(tile.tile.offsets.GetAffineMap()) + " " +
               std::to_string(tile.tile.sizes[2]));
  }
  EXPECT_EQ(got, (std::set<std::string>{"(d0, d1, d2) -> (d0, d1 * 4, 0) 16",
                                        "(d0, d1, d2) -> (d0, d1 * 4, d2 * 8) "
                                        "8"}));
  bool found_mx = false;
  for (const TensorTiles& t : report.instructions) {
    if (t.name != "mx") continue;
    found_mx = true;
    ASSERT_EQ(t.tiles.size(), 1u);
    ExpectTile(t.tiles[0], "(d0, d1, d2) -> (d0, d1 * 4)", {1, 4}, {1, 1});
  }
  EXPECT_TRUE(found_mx);
  CheckAgainstTrace(*module, report);
}

TEST(SymbolicTileTest, ConcatenateTilesThatDoNotStraddleOperands) {
  // out = concat(a f32[2,4], b f32[2,8]) along dim 1. Tile (2, 4): tile
  // t1 = 0 is a, t1 = 1, 2 are in b. a is read by the tile ids d1 in [0, 0]
  // at (0, 0); b by d1 in [1, 2] at (0, 4 t1 - 4).
  mlir::MLIRContext context;
  auto module = Parse(R"(
    a = f32[2,4] parameter(0)
    b = f32[2,8] parameter(1)
    ROOT c = f32[2,12] concatenate(a, b), dimensions={1}
  )");
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {2, 4}, &context);
  EXPECT_TRUE(report.tileable);
  ExpectTile(report.operands[0].tiles[0], "(d0, d1) -> (0, 0)", {2, 4}, {1, 1});
  EXPECT_EQ(report.operands[0].tiles[0].constraints,
            (std::vector<std::string>{"d0 in [0, 0]", "d1 in [0, 0]"}));
  ExpectTile(report.operands[1].tiles[0], "(d0, d1) -> (0, d1 * 4 - 4)", {2, 4},
             {1, 1});
  EXPECT_EQ(report.operands[1].tiles[0].constraints,
            (std::vector<std::string>{"d0 in [0, 0]", "d1 in [1, 2]"}));
  CheckAgainstTrace(*module, report);
}

TEST(SymbolicTileTest, ConcatenateTileStraddlingTwoOperands) {
  // a f32[2,4], b f32[2,12], tile (2, 8). Tile t1 = 0 covers columns 0..7:
  // all of a (the simplifier narrows a's tile to its 4 columns: sizes
  // (2, 4)), but only columns 0..3 of b, while tile t1 = 1 reads columns
  // 4..11 of b. As XLA gives it, b's tile starts 4 columns before b
  // (offset 8 t1 - 4) and masks the columns outside [0, 11]; --strict
  // (TileOptions::strict) refuses it instead.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    a = f32[2,4] parameter(0)
    b = f32[2,12] parameter(1)
    ROOT c = f32[2,16] concatenate(a, b), dimensions={1}
  )");
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {2, 8}, &context);
  EXPECT_TRUE(report.tileable);
  ExpectTile(report.operands[0].tiles[0], "(d0, d1) -> (0, 0)", {2, 4}, {1, 1});
  const PropagatedTile& b = report.operands[1].tiles[0];
  ExpectTile(b, "(d0, d1) -> (0, d1 * 8 - 4)", {2, 8}, {1, 1});
  ASSERT_EQ(b.masks.size(), 1u);
  EXPECT_EQ(b.masks[0].dimension, 1);
  EXPECT_EQ(b.masks[0].kept, (Interval{0, 11}));
  CheckAgainstTrace(*module, report);
  absl::StatusOr<TileReport> strict =
      AnalyzeTiling(*module, {2, 8}, &context, TileOptions{true});
  ASSERT_TRUE(strict.ok()) << strict.status();
  EXPECT_FALSE(strict->tileable);
  EXPECT_FALSE(strict->operands[1].tiles[0].tileable);
  EXPECT_TRUE(absl::StrContains(strict->operands[1].tiles[0].reason,
                                "splits the tile at ids (0, 0)"))
      << strict->operands[1].tiles[0].reason;
}

TEST(SymbolicTileTest, ReduceWindowTilesOverlap) {
  // out[i] = max(p0[i + s]), s < 3, 62 outputs; tile (4) at 4 t reads
  // p0[4 t + l + s], l < 4, s < 3: coefficients 1 and 1, no gap, 6
  // elements from 4 t (neighbouring tiles overlap by 2).
  mlir::MLIRContext context;
  auto module = Parse(R"(
HloModule m
mx {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY e {
  p0 = f32[64] parameter(0)
  c = f32[] constant(0)
  ROOT r = f32[62] reduce-window(p0, c), window={size=3}, to_apply=mx
})");
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {4}, &context);
  ExpectTile(report.operands[0].tiles[0], "(d0) -> (d0 * 4)", {6}, {1});
  // 62 = 15 full tiles of 4 and a partial one.
  EXPECT_EQ(report.operands[0].tiles[0].constraints[0], "d0 in [0, 14]");
  CheckAgainstTrace(*module, report);
}

TEST(SymbolicTileTest, DynamicSliceOffsetIsARuntimeSymbol) {
  // ds = src[of .. of + 3]: tile (2) at 2 t reads src[2 t + of ..], the
  // offset a runtime symbol of the offsets map, read from `of`.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    src = f32[16] parameter(0)
    of = s32[] parameter(1)
    ROOT ds = f32[4] dynamic-slice(src, of), dynamic_slice_sizes={4}
  )");
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {2}, &context);
  const PropagatedTile& tile = report.operands[0].tiles[0];
  ExpectTile(tile, "(d0)[s0] -> (d0 * 2 + s0)", {2}, {1});
  ASSERT_EQ(tile.tile.offsets.GetRuntimeVarsCount(), 1);
  EXPECT_EQ(tile.tile.offsets.GetRuntimeVars()[0].feasible_values,
            (Interval{0, 12}));
  EXPECT_TRUE(
      absl::StrContains(tile.tile.offsets.GetRuntimeVars()[0].hlo_text, "of"));
}

TEST(SymbolicTileTest, ReverseHasNegativeStride) {
  // out[i] = p0[15 - i]; tile (4): starts at 15 - 4 t, stride -1.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[16] parameter(0)
    ROOT r = f32[16] reverse(p0), dimensions={0}
  )");
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {4}, &context);
  ExpectTile(report.operands[0].tiles[0], "(d0) -> (d0 * -4 + 15)", {4}, {-1});
  CheckAgainstTrace(*module, report);
}

TEST(SymbolicTileTest, PartialTilesAreExcludedByConstraints) {
  // f32[10, 20] with tile (4, 8): 2 full tiles per dimension (rows 0..7,
  // columns 0..15); the tiles at rows 8..9 / columns 16..19 are partial.
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[10,20] parameter(0)
    ROOT n = f32[10,20] negate(p0)
  )");
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {4, 8}, &context);
  EXPECT_EQ(report.operands[0].tiles[0].constraints,
            (std::vector<std::string>{"d0 in [0, 1]", "d1 in [0, 1]"}));
  CheckAgainstTrace(*module, report);
}

TEST(SymbolicTileTest, RejectsBadTileSizes) {
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[10,20] parameter(0)
    ROOT n = f32[10,20] negate(p0)
  )");
  ASSERT_NE(module, nullptr);
  EXPECT_FALSE(AnalyzeTiling(*module, {8}, &context).ok());
  EXPECT_FALSE(AnalyzeTiling(*module, {0, 8}, &context).ok());
}

TEST(ParseTileSizesTest, CommaSeparatedSizes) {
  absl::StatusOr<std::vector<int64_t>> sizes = ParseTileSizes("8,128");
  ASSERT_TRUE(sizes.ok());
  EXPECT_EQ(*sizes, (std::vector<int64_t>{8, 128}));
  sizes = ParseTileSizes("16");
  ASSERT_TRUE(sizes.ok());
  EXPECT_EQ(*sizes, (std::vector<int64_t>{16}));
}

TEST(ParseTileSizesTest, NamesTheBadEntry) {
  absl::StatusOr<std::vector<int64_t>> sizes = ParseTileSizes("8,x,4");
  ASSERT_FALSE(sizes.ok());
  EXPECT_TRUE(absl::StrContains(sizes.status().message(), "column 3"))
      << sizes.status();
  EXPECT_TRUE(absl::StrContains(sizes.status().message(), "'x'"));
  // The empty text is the tile of a rank-0 output.
  ASSERT_TRUE(ParseTileSizes("").ok());
  EXPECT_TRUE(ParseTileSizes("")->empty());
  EXPECT_FALSE(ParseTileSizes(",").ok());
  EXPECT_FALSE(ParseTileSizes("8,").ok());
  EXPECT_FALSE(ParseTileSizes("0,8").ok());
  EXPECT_FALSE(ParseTileSizes("-4").ok());
  EXPECT_FALSE(ParseTileSizes("99999999999999999999").ok());
}

TEST(SymbolicTileTest, Json) {
  mlir::MLIRContext context;
  auto module = Parse(R"(
    p0 = f32[32] parameter(0)
    ROOT r = f32[4,8] reshape(p0)
  )");
  ASSERT_NE(module, nullptr);
  TileReport report = Analyze(*module, {2, 8}, &context);
  std::string json = TileReportToJson(report);
  EXPECT_EQ(json.find('\n'), std::string::npos);
  EXPECT_TRUE(
      absl::StrContains(json,
                        "\"sizes\": [16], \"strides\": [1], \"constraints\": "
                        "[\"d0 in [0, 1]\", \"d1 in [0, 0]\"]"))
      << json;
  EXPECT_TRUE(absl::StrContains(json, "\"tileable\": true")) << json;
}

}  // namespace
}  // namespace xla_index
