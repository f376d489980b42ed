// The example files of xla_index/analysis/testdata (inputs for
// `xla-index coalescing|utilization|tile`): each gives what its comment
// says. The numbers are worked out in coalescing_test.cc,
// fusion_utilization_test.cc and symbolic_tile_test.cc.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hlo/module.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/coalescing.h"
#include "xla_index/analysis/fusion_utilization.h"
#include "xla_index/analysis/symbolic_tile.h"
#include "xla_index/analysis/test_modules.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

struct CoalescingCase {
  const char* file;
  int64_t unroll;
  int64_t sectors;
  int64_t minimum;
  bool coalesced;
};

TEST(AnalysisTestdataTest, CoalescingVerdicts) {
  const CoalescingCase cases[] = {
      {"coalescing_elementwise.hlo", 1, 4, 4, true},
      {"coalescing_transpose.hlo", 1, 32, 4, false},
      {"coalescing_broadcast.hlo", 1, 4, 4, true},
      {"coalescing_column_reduction.hlo", 1, 4, 4, true},
      {"coalescing_strided_slice.hlo", 1, 8, 4, false},
      {"coalescing_tiled_layout.hlo", 4, 16, 16, true},
  };
  for (const CoalescingCase& c : cases) {
    SCOPED_TRACE(c.file);
    mlir::MLIRContext context;
    std::unique_ptr<HloModule> module = ParseTestdataModule(c.file);
    ASSERT_NE(module, nullptr);
    CoalescingOptions options;
    options.unroll = c.unroll;
    absl::StatusOr<CoalescingReport> report =
        AnalyzeCoalescing(*module, options, &context);
    ASSERT_TRUE(report.ok()) << report.status();
    // Parameter reads only (the reduction's init is a constant).
    ASSERT_FALSE(report->operands.empty());
    for (const OperandCoalescing& read : report->operands) {
      EXPECT_EQ(read.access.transactions[0].count, c.sectors);
      EXPECT_EQ(read.access.transactions[0].minimum, c.minimum);
      EXPECT_EQ(read.access.coalesced, c.coalesced);
    }
  }
}

TEST(AnalysisTestdataTest, Utilization) {
  mlir::MLIRContext context;
  struct Case {
    const char* file;
    int64_t elements_read, reads;
  };
  for (const Case& c : {Case{"utilization_broadcast.hlo", 20, 6000},
                        Case{"utilization_slice.hlo", 375, 375},
                        Case{"utilization_reduce.hlo", 2560, 2560}}) {
    SCOPED_TRACE(c.file);
    std::unique_ptr<HloModule> module = ParseTestdataModule(c.file);
    ASSERT_NE(module, nullptr);
    absl::StatusOr<UtilizationReport> report =
        AnalyzeUtilization(*module, &context);
    ASSERT_TRUE(report.ok());
    EXPECT_EQ(report->operands[0].counts.elements_read, c.elements_read);
    EXPECT_EQ(report->operands[0].counts.reads, c.reads);
    EXPECT_TRUE(report->operands[0].counts.exact);
  }
}

TEST(AnalysisTestdataTest, Tiles) {
  mlir::MLIRContext context;
  std::unique_ptr<HloModule> dot = ParseTestdataModule("tile_dot.hlo");
  ASSERT_NE(dot, nullptr);
  absl::StatusOr<TileReport> report = AnalyzeTiling(*dot, {8, 128}, &context);
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->tileable);
  EXPECT_EQ(report->operands[0].tiles[0].tile.sizes,
            (std::vector<int64_t>{8, 256}));
  EXPECT_EQ(report->operands[1].tiles[0].tile.sizes,
            (std::vector<int64_t>{256, 128}));

  std::unique_ptr<HloModule> reshape =
      ParseTestdataModule("tile_reshape_refuses.hlo");
  ASSERT_NE(reshape, nullptr);
  report = AnalyzeTiling(*reshape, {2, 4}, &context);
  ASSERT_TRUE(report.ok());
  EXPECT_FALSE(report->tileable);
  report = AnalyzeTiling(*reshape, {2, 8}, &context);
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->tileable);

  std::unique_ptr<HloModule> softmax = ParseTestdataModule("tile_softmax.hlo");
  ASSERT_NE(softmax, nullptr);
  report = AnalyzeTiling(*softmax, {1, 8, 125}, &context);
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->operands[0].tiles.size(), 1u);
  const PropagatedTile& tile = report->operands[0].tiles[0];
  EXPECT_EQ(AffineMapToString(tile.tile.offsets.GetAffineMap()),
            "(d0, d1, d2) -> (d0, d1 * 8, 0)");
  EXPECT_EQ(tile.tile.sizes, (std::vector<int64_t>{1, 8, 125}));
  EXPECT_EQ(tile.constraints[1], "d1 in [0, 7]");
}

}  // namespace
}  // namespace xla_index
