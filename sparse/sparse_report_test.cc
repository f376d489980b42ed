#include "sparse/sparse_report.h"

#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "sparse/storage_svg.h"

namespace xla_index::sparse {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const char kBsr2x2[] =
    "#BSR = #sparse_tensor.encoding<{ map = ( i, j ) -> ( i floordiv 2 : "
    "dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>";

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  EXPECT_TRUE(file.good()) << path;
  std::stringstream buffer;
  buffer << file.rdbuf();
  return buffer.str();
}

TEST(SparseReportTest, SeedBsrTextShowsTheSeedsArrays) {
  mlir::MLIRContext context;
  absl::StatusOr<SparseReport> report =
      BuildSparseReport(kBsr2x2, "", ReadFile("sparse/testdata/bsr_2x2.coo"),
                        "bsr_2x2.coo", &context);
  ASSERT_TRUE(report.ok()) << report.status();
  std::string text = SparseReportToText(*report);
  EXPECT_THAT(text, HasSubstr("encoding: #sparse_tensor.encoding<{ map = (d0, "
                              "d1) -> (d0 floordiv 2 : dense, d1 floordiv 2 : "
                              "compressed, d0 mod 2 : dense, d1 mod 2 : "
                              "dense) }>\n"));
  EXPECT_THAT(text,
              HasSubstr("level_types: dense, compressed, dense, dense\n"));
  EXPECT_THAT(text, HasSubstr("shape: 4x6\nlevel_sizes: 2x3x2x2\n"));
  // The "Stored as" arrays of MLIR's SparseTensor dialect documentation.
  EXPECT_THAT(text, HasSubstr("positions[1] : 0 2 3\n"));
  EXPECT_THAT(text, HasSubstr("coordinates[1] : 0 2 1\n"));
  EXPECT_THAT(text, HasSubstr("values : 1 2 0 3 4 0 0 5 6 7 8 0\n"));
  EXPECT_THAT(text, HasSubstr("lvl_to_dim:\n(d0, d1, d2, d3) -> (d0 * 2 + d2, "
                              "d1 * 2 + d3)\n"));
  // 3 positions and 3 coordinates at 8 bytes, 12 values at 8 bytes.
  EXPECT_THAT(text, HasSubstr("storage sizes: positions 0 3 0 0, coordinates "
                              "0 3 0 0, values 12; 144 bytes"));
  // With every element nonzero: 2 x 3 blocks of 4.
  EXPECT_THAT(text, HasSubstr("largest storage (no zero element): positions 0 "
                              "3 0 0, coordinates 0 6 0 0, values 24; 264 "
                              "bytes"));

  std::string json = SparseReportToJson(*report);
  EXPECT_THAT(json, HasSubstr("\"dim_rank\": 2, \"lvl_rank\": 4, "
                              "\"level_types\": [\"dense\", \"compressed\", "
                              "\"dense\", \"dense\"]"));
  EXPECT_THAT(json, HasSubstr("\"levels\": [{\"positions\": [], "
                              "\"coordinates\": []}, {\"positions\": [0, 2, "
                              "3], \"coordinates\": [0, 2, 1]}"));
  EXPECT_THAT(json,
              HasSubstr("\"values\": [1, 2, 0, 3, 4, 0, 0, 5, 6, 7, 8, 0]"));
  EXPECT_THAT(json, HasSubstr("\"storage\": {\"positions\": [0, 3, 0, 0], "
                              "\"coordinates\": [0, 3, 0, 0], \"values\": 12, "
                              "\"bytes\": 144}"));
  EXPECT_EQ(json.find('\n'), std::string::npos);
}

TEST(SparseReportTest, EncodingAloneAndLegacyNotes) {
  mlir::MLIRContext context;
  absl::StatusOr<SparseReport> report = BuildSparseReport(
      "#sparse_tensor.encoding<{ map = (i, j, k) -> (i : dense, j : "
      "compressed(nonunique, high), k : singleton) }>",
      "", std::nullopt, "", &context);
  ASSERT_TRUE(report.ok()) << report.status();
  std::string text = SparseReportToText(*report);
  EXPECT_THAT(text, HasSubstr("note: "));
  EXPECT_THAT(text, HasSubstr("loose_compressed(nonunique)"));
  EXPECT_THAT(text, Not(HasSubstr("level_sizes")));
  std::string json = SparseReportToJson(*report);
  EXPECT_THAT(json, HasSubstr("\"shape\": null, \"level_sizes\": null, "
                              "\"max_storage\": null"));
  EXPECT_THAT(json, Not(HasSubstr("\"levels\"")));

  absl::StatusOr<SparseReport> ell = BuildSparseReport(
      "#sparse_tensor.encoding<{ map = [c](i, j) -> (c * 3 * i : dense, i : "
      "dense, j : compressed) }>",
      "4x4", std::nullopt, "", &context);
  ASSERT_TRUE(ell.ok()) << ell.status();
  EXPECT_THAT(SparseReportToJson(*ell), HasSubstr("\"lvl_to_dim\": null"));
}

TEST(SparseReportTest, ErrorsNameTheInput) {
  mlir::MLIRContext context;
  EXPECT_THAT(std::string(BuildSparseReport("#sparse_tensor.encoding<{ map = "
                                            "(i) -> (i : sparse) }>",
                                            "", std::nullopt, "", &context)
                              .status()
                              .message()),
              HasSubstr("1:45: unknown level format"));
  EXPECT_THAT(std::string(BuildSparseReport(kBsr2x2, "4x6x2", std::nullopt, "",
                                            &context)
                              .status()
                              .message()),
              HasSubstr("--shape=4x6x2 has rank 3"));
  EXPECT_THAT(std::string(BuildSparseReport(kBsr2x2, "4x6", "0 0 1\n0 0 2\n",
                                            "dup.coo", &context)
                              .status()
                              .message()),
              HasSubstr("dup.coo: elements 0 and 1 have the same coordinates"));
  EXPECT_THAT(std::string(BuildSparseReport(kBsr2x2, "4x6", "0 9 1\n",
                                            "far.coo", &context)
                              .status()
                              .message()),
              HasSubstr("far.coo:1:3: coordinate 9 of dimension 1"));
}

// The drawing of the documentation's 2x2 BSR example: 24 matrix cells with the
// 8 nonzeros, 3 + 2 block lines, and one box per stored entry.
TEST(SparseReportTest, SvgDrawsTheSeedsBlockPicture) {
  mlir::MLIRContext context;
  absl::StatusOr<SparseReport> report =
      BuildSparseReport(kBsr2x2, "", ReadFile("sparse/testdata/bsr_2x2.coo"),
                        "bsr_2x2.coo", &context);
  ASSERT_TRUE(report.ok()) << report.status();
  absl::StatusOr<std::string> svg = SparseReportToSvg(*report);
  ASSERT_TRUE(svg.ok()) << svg.status();
  auto count = [&](const std::string& needle) {
    int n = 0;
    for (size_t at = svg->find(needle); at != std::string::npos;
         at = svg->find(needle, at + 1)) {
      ++n;
    }
    return n;
  };
  EXPECT_EQ(svg->rfind("<svg ", 0), 0u);
  EXPECT_EQ(count("</svg>"), 1);
  // 24 cells + 3 positions + 3 coordinates + 12 values.
  EXPECT_EQ(count("<rect "), 24 + 3 + 3 + 12);
  EXPECT_EQ(count("fill=\"#cde4ff\""), 8 + 12);
  // Row boundaries at 0, 2, 4 and column boundaries at 0, 2, 4, 6.
  EXPECT_EQ(count("<line "), 3 + 4);
  EXPECT_EQ(count(">positions[1]<"), 1);
  EXPECT_EQ(count(">coordinates[1]<"), 1);

  absl::StatusOr<SparseReport> no_coo =
      BuildSparseReport(kBsr2x2, "4x6", std::nullopt, "", &context);
  ASSERT_TRUE(no_coo.ok());
  EXPECT_FALSE(SparseReportToSvg(*no_coo).ok());
}

}  // namespace
}  // namespace xla_index::sparse
