#include "layout/layout_svg.h"

#include <algorithm>
#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "layout/tiled_layout.h"

namespace xla_index {
namespace {

using ::testing::HasSubstr;

TiledLayout MakeLayout(std::vector<int64_t> dims,
                       std::vector<int64_t> minor_to_major,
                       std::vector<std::vector<int64_t>> tiles) {
  absl::StatusOr<TiledLayout> layout =
      TiledLayout::Create(dims, minor_to_major, tiles);
  EXPECT_TRUE(layout.ok()) << layout.status();
  return *std::move(layout);
}

struct Label {
  int x, y, font_size;
  std::string text;
};

// The cell labels of one panel (logical cells use font size 11, memory
// cells 9), in reading order: by row, then by column.
std::vector<std::string> Labels(const std::string& svg, int font_size) {
  static const std::regex kText(
      "<text x=\"(\\d+)\" y=\"(\\d+)\" font-size=\"(\\d+)\" "
      "text-anchor=\"middle\">([^<]*)</text>");
  std::vector<Label> labels;
  for (std::sregex_iterator it(svg.begin(), svg.end(), kText), end; it != end;
       ++it) {
    if (std::stoi((*it)[3]) != font_size) continue;
    labels.push_back(
        {std::stoi((*it)[1]), std::stoi((*it)[2]), font_size, (*it)[4]});
  }
  std::stable_sort(labels.begin(), labels.end(),
                   [](const Label& a, const Label& b) {
                     return a.y != b.y ? a.y < b.y : a.x < b.x;
                   });
  std::vector<std::string> texts;
  for (const Label& label : labels) texts.push_back(label.text);
  return texts;
}

int Count(const std::string& text, const std::string& what) {
  int count = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1)) {
    ++count;
  }
  return count;
}

// XLA's tiled-layout documentation, figure 1: F32[3,5]{1,0:T(2,2)} padded to
// 4x6 in the logical picture; memory holds 6 tiles of 4 with 9 padding cells.
TEST(LayoutSvgTest, SeedFigure1) {
  TiledLayout layout = MakeLayout({3, 5}, {1, 0}, {{2, 2}});
  absl::StatusOr<std::string> svg = RenderLayoutSvg(layout);
  ASSERT_TRUE(svg.ok()) << svg.status();

  // Logical cells, row by row, show the memory position; the real elements
  // are where the index arithmetic puts them, (2,3) at 17.
  std::vector<std::string> logical = Labels(*svg, 11);
  ASSERT_EQ(logical.size(), 24u);
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 5; ++j) {
      EXPECT_EQ(logical[i * 6 + j], std::to_string(layout.LinearIndex({i, j})));
    }
  }
  EXPECT_EQ(logical[2 * 6 + 3], "17");

  // Memory cells in order show the logical index stored there.
  std::vector<std::string> memory = Labels(*svg, 9);
  std::vector<std::string> expected;
  for (int64_t p = 0; p < 24; ++p) {
    if (auto element = layout.LogicalIndex(p)) {
      expected.push_back(absl::StrJoin(*element, ","));
    }
  }
  EXPECT_EQ(memory, expected);
  // 9 padding cells on each side are white.
  EXPECT_EQ(Count(*svg, "fill=\"white\""), 18);
  // Black edges between the 2x2 tiles of the 4x6 padded grid: vertical at
  // columns 2 and 4 (4 rows each), horizontal at row 2 (6 columns); no
  // second-level tiles, so no red.
  EXPECT_EQ(Count(*svg, "stroke=\"black\" stroke-width=\"2\"/>"), 14 + 1);
  EXPECT_EQ(Count(*svg, "stroke=\"red\""), 0);
}

// XLA's tiled-layout documentation, figure 2: row 0 of the 4x8 array at 0, 2,
// ..., 14.
TEST(LayoutSvgTest, SeedFigure2) {
  TiledLayout layout = MakeLayout({4, 8}, {1, 0}, {{2, 4}, {2, 1}});
  absl::StatusOr<std::string> svg = RenderLayoutSvg(layout);
  ASSERT_TRUE(svg.ok()) << svg.status();
  std::vector<std::string> logical = Labels(*svg, 11);
  ASSERT_EQ(logical.size(), 32u);
  for (int j = 0; j < 8; ++j) {
    EXPECT_EQ(logical[j], std::to_string(2 * j));
    EXPECT_EQ(logical[8 + j], std::to_string(2 * j + 1));
  }
  EXPECT_EQ(Count(*svg, "fill=\"white\""), 0);
  // Black edges between the four 2x4 tiles: 4 vertical + 8 horizontal, and
  // the outer frame. Red edges between the 2x1 tiles inside each 2x4 tile:
  // 3 boundaries per tile row per tile, each 2 cells tall: 3 * 2 * 4 = 24.
  EXPECT_EQ(Count(*svg, "stroke=\"black\" stroke-width=\"2\"/>"), 12 + 1);
  EXPECT_EQ(Count(*svg, "stroke=\"red\""), 24);
}

TEST(LayoutSvgTest, RankOneAndScalar) {
  absl::StatusOr<std::string> row =
      RenderLayoutSvg(MakeLayout({5}, {0}, {{4}}));
  ASSERT_TRUE(row.ok());
  EXPECT_EQ(Labels(*row, 11).size(), 8u);  // padded to two tiles of 4
  absl::StatusOr<std::string> scalar = RenderLayoutSvg(MakeLayout({}, {}, {}));
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(Labels(*scalar, 11), std::vector<std::string>{"0"});
}

TEST(LayoutSvgTest, RejectsWhatItCannotDraw) {
  EXPECT_THAT(
      RenderLayoutSvg(MakeLayout({2, 2, 2}, {2, 1, 0}, {})).status().message(),
      HasSubstr("rank 0 to 2"));
  EXPECT_THAT(
      RenderLayoutSvg(MakeLayout({100, 100}, {1, 0}, {})).status().message(),
      HasSubstr("at most 4096 cells"));
}

// The fill of each cell of a memory picture, in drawing order (10-unit
// cells, `row_width` a row), decoded from its rects; "" for a cell no rect
// covers, "twice" for one covered twice.
std::vector<std::string> CellFills(const std::string& svg, int64_t row_width) {
  std::vector<std::string> fills;
  const std::regex rect(
      "<rect x=\"(\\d+)\" y=\"(\\d+)\" width=\"(\\d+)\" height=\"10\" "
      "fill=\"([^\"]+)\"/>");
  for (std::sregex_iterator it(svg.begin(), svg.end(), rect), end; it != end;
       ++it) {
    const int64_t first =
        std::stoll((*it)[2]) / 10 * row_width + std::stoll((*it)[1]) / 10;
    const int64_t count = std::stoll((*it)[3]) / 10;
    if (fills.size() < static_cast<size_t>(first + count)) {
      fills.resize(first + count);
    }
    for (int64_t cell = first; cell < first + count; ++cell) {
      fills[cell] = fills[cell].empty() ? std::string((*it)[4]) : "twice";
    }
  }
  return fills;
}

// The positions read, over memory order: a window of whole rows around
// them (one row of context each side), highlighted cells in the first
// layer's colour where layers overlap, padding white, and any rank.
TEST(MemoryAccessSvgTest, PaintsTheHighlightedWindow) {
  // f32[6,100] row-major: 100 positions a row, capped at 64 a row.
  const TiledLayout layout = MakeLayout({6, 100}, {1, 0}, {});
  const std::string svg = RenderMemoryAccessSvg(
      layout,
      {{{70, 71}, "#ff0000", "warp"}, {{71, 72, 73}, "#00ff00", "tile"}});
  EXPECT_THAT(svg, HasSubstr("memory positions 0 to 191 of 600, 64 a row"));
  const std::vector<std::string> fills = CellFills(svg, 64);
  ASSERT_EQ(fills.size(), 192);
  for (int64_t position = 0; position < 192; ++position) {
    const std::string expected = position == 70 || position == 71   ? "#ff0000"
                                 : position == 72 || position == 73 ? "#00ff00"
                                                                    : fills[0];
    EXPECT_EQ(fills[position], expected) << "position " << position;
  }
  EXPECT_NE(fills[0], "");
  // Runs of one colour in a row are one rect each: the first row, the
  // second in 4 runs (before, red, green, after), the third.
  EXPECT_EQ(Count(svg, "<rect"), 1 + 4 + 1);
  // A tiled layout's padding stays white; rank 3 draws too.
  const TiledLayout tiled = MakeLayout({3, 5}, {1, 0}, {{2, 4}});
  const std::string padded =
      RenderMemoryAccessSvg(tiled, {{{0}, "#ff0000", "warp"}});
  EXPECT_GT(Count(padded, "fill=\"white\""), 0);
  const std::string cube = RenderMemoryAccessSvg(
      MakeLayout({4, 4, 4}, {2, 1, 0}, {}), {{{63}, "#ff0000", "warp"}});
  const std::vector<std::string> cube_fills = CellFills(cube, 4);
  ASSERT_EQ(cube_fills.size(), 8);  // rows 14 (context) and 15 of 16
  EXPECT_EQ(cube_fills.back(), "#ff0000");
  EXPECT_NE(cube_fills[cube_fills.size() - 2], "#ff0000");
  // At most max_cells positions from the first row drawn.
  const std::string capped = RenderMemoryAccessSvg(
      layout, {{{0, 599}, "#ff0000", "warp"}}, /*max_cells=*/128);
  EXPECT_EQ(CellFills(capped, 64).size(), 128);
}

}  // namespace
}  // namespace xla_index
