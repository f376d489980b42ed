#include "layout/layout_description.h"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Optional;
using ::testing::StartsWith;

class LayoutDescriptionTest : public ::testing::Test {
 protected:
  LayoutDescription Describe(const std::string& shape,
                             std::optional<std::vector<int64_t>> index = {}) {
    absl::StatusOr<LayoutDescription> description =
        DescribeLayout(shape, index, &context_);
    EXPECT_TRUE(description.ok()) << shape << ": " << description.status();
    return description.ok() ? *std::move(description) : LayoutDescription{};
  }
  std::string Error(const std::string& shape,
                    std::optional<std::vector<int64_t>> index = {}) {
    absl::StatusOr<LayoutDescription> description =
        DescribeLayout(shape, index, &context_);
    if (description.ok()) return "OK";
    EXPECT_EQ(description.status().code(), absl::StatusCode::kInvalidArgument);
    return std::string(description.status().message());
  }

  mlir::MLIRContext context_;
};

// XLA's tiled-layout documentation, figure 1, as `xla-index layout
// 'F32[3,5]{1,0:T(2,2)}'
// --index=2,3` sees it.
TEST_F(LayoutDescriptionTest, SeedFigure1) {
  LayoutDescription d =
      Describe("F32[3,5]{1,0:T(2,2)}", std::vector<int64_t>{2, 3});
  EXPECT_EQ(d.shape, "f32[3,5]{1,0:T(2,2)}");
  EXPECT_EQ(d.elements, 15);
  EXPECT_EQ(d.padded_elements, 24);
  EXPECT_EQ(d.bytes, 96);
  EXPECT_EQ(d.memory_space, 0);
  EXPECT_THAT(d.physical_shape, ElementsAre(2, 3, 2, 2));
  EXPECT_THAT(d.linear_index, Optional(17));
  EXPECT_THAT(d.map.Evaluate({2, 3}, {}), Optional(ElementsAre(17)));
  EXPECT_THAT(d.inverse_map.Evaluate({17}, {}), Optional(ElementsAre(2, 3)));

  const std::string text = LayoutDescriptionToText(d);
  EXPECT_THAT(text, StartsWith("shape: f32[3,5]{1,0:T(2,2)}\n"
                               "elements: 15\n"
                               "padded elements: 24\n"
                               "bytes: 96\n"
                               "memory space: 0 (device HBM)\n"
                               "physical shape: [2,3,2,2]\n"
                               "logical to linear map:\n" +
                               ToString(d.map) + "\n"));
  EXPECT_THAT(text, HasSubstr("linear index of (2,3): 17\n"
                              "physical index of (2,3): (1,1,0,1)\n"));

  const std::string json = LayoutDescriptionToJson(d);
  EXPECT_THAT(json, StartsWith("{\"shape\": \"f32[3,5]{1,0:T(2,2)}\", "
                               "\"elements\": 15, \"padded_elements\": 24, "
                               "\"bytes\": 96, \"memory_space\": 0, "
                               "\"physical_shape\": [2, 3, 2, 2], \"map\": " +
                               IndexingMapToJson(d.map) + ", "));
  EXPECT_THAT(json, HasSubstr("\"index\": [2, 3], \"linear_index\": 17, "
                              "\"physical_index\": [1, 1, 0, 1]}\n"));
}

// The contract's example: XLA's shapes-and-layout documentation's bf16 layout
// in VMEM.
TEST_F(LayoutDescriptionTest, SeedTpuLayoutInVmem) {
  LayoutDescription d =
      Describe("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
               std::vector<int64_t>{0, 0, 1, 0});
  EXPECT_EQ(d.shape, "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
  EXPECT_EQ(d.memory_space, 1);
  EXPECT_EQ(d.elements, int64_t{8} * 1280 * 16384);
  EXPECT_EQ(d.padded_elements, d.elements);
  EXPECT_EQ(d.bytes, 2 * d.elements);
  EXPECT_THAT(d.physical_shape, ElementsAre(1, 8, 160, 128, 4, 128, 2, 1));
  EXPECT_THAT(d.linear_index, Optional(1));  // (2,1) pairs rows 0 and 1
  EXPECT_THAT(LayoutDescriptionToText(d),
              HasSubstr("memory space: 1 (VMEM)\n"));
}

// Both size conventions are printed, labeled (shape_layout_test derives
// the numbers).
TEST_F(LayoutDescriptionTest, PrintsXlaArraySizeNextToBytes) {
  LayoutDescription d = Describe("pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}");
  EXPECT_EQ(d.bytes, 63488);
  EXPECT_EQ(d.xla_array_size_bytes, 31744);
  EXPECT_THAT(LayoutDescriptionToText(d),
              HasSubstr("\nxla array size: 31744 bytes (first tile and largest "
                        "split only, as XLA's ShapeUtil::ArraySize)\n"));
  EXPECT_THAT(LayoutDescriptionToJson(d),
              HasSubstr(", \"xla_array_size_bytes\": 31744"));
}

TEST_F(LayoutDescriptionTest, SizesAndDefaults) {
  LayoutDescription narrow = Describe("u32[12582912,1]{1,0:T(8,128)}");
  EXPECT_EQ(narrow.bytes, int64_t{6} << 30);
  EXPECT_FALSE(narrow.linear_index.has_value());
  EXPECT_THAT(LayoutDescriptionToJson(narrow),
              ::testing::Not(HasSubstr("linear_index")));

  LayoutDescription plain = Describe("f32[2,3]", std::vector<int64_t>{1, 2});
  EXPECT_EQ(plain.shape, "f32[2,3]{1,0}");
  EXPECT_THAT(plain.linear_index, Optional(5));

  LayoutDescription scalar = Describe("f32[]", std::vector<int64_t>{});
  EXPECT_EQ(scalar.shape, "f32[]");
  EXPECT_THAT(scalar.linear_index, Optional(0));
  EXPECT_EQ(Describe("f32[]{:S(1)}").memory_space, 1);
  EXPECT_EQ(scalar.bytes, 4);

  EXPECT_EQ(Describe("s4[3,5]{1,0:E(4)S(5)}").bytes, 8);
  EXPECT_EQ(MemorySpaceName(5), "5 (host)");
  EXPECT_EQ(MemorySpaceName(3), "3 (device-specific)");
}

TEST_F(LayoutDescriptionTest, ErrorsNameThePosition) {
  // Tile 1 starts at column 20: f32[3,5]{1,0:T(2,2)(...
  EXPECT_THAT(Error("f32[3,5]{1,0:T(2,2)(2,*)}"),
              StartsWith("1:20: tile 1 (2,*): entry 1 is `*`"));
  EXPECT_THAT(Error("f32[3,5]{1,0:T(2,*)}"), StartsWith("1:15: tile 0"));
  // Tiles may also be written each with its own T.
  EXPECT_THAT(Error("f32[3,5]{1,0:T(2,2)T(2,*)}"),
              StartsWith("1:21: tile 1 (2,*)"));
  // Other attributes' parentheses are not tiles.
  EXPECT_THAT(Error("f32[3,5]{1,0:S(1)T(2,2)(2,*)}"),
              StartsWith("1:24: tile 1"));
  EXPECT_THAT(Error("f32[3,5]{1,0:T(2,*)}"), StartsWith("1:"));
  EXPECT_THAT(Error("f32[3,5]{1,1}"), StartsWith("1:"));
  EXPECT_THAT(Error("f32[3,5]{1,0:T(2,2)"), StartsWith("1:"));
  EXPECT_THAT(Error("f32[3,5]{1,0:T(0,2)}"), StartsWith("1:"));
  EXPECT_THAT(Error("(f32[2], s32[])"), HasSubstr("needs an array shape"));
  EXPECT_THAT(Error("f32[3,5]{1,0:T(2,2)}", std::vector<int64_t>{3, 0}),
              HasSubstr("--index: index (3,0): entry 0 is 3, outside [0, 2]"));
  EXPECT_THAT(Error("f32[3,5]", std::vector<int64_t>{1}), HasSubstr("rank 2"));
}

TEST_F(LayoutDescriptionTest, SvgOfTheSeedFigures) {
  absl::StatusOr<std::string> svg = LayoutSvg("F32[3,5]{1,0:T(2,2)}");
  ASSERT_TRUE(svg.ok()) << svg.status();
  EXPECT_THAT(*svg, StartsWith("<svg "));
  EXPECT_THAT(*svg, HasSubstr(">17</text>"));
  EXPECT_THAT(
      std::string(LayoutSvg("f32[3,5]{1,0:T(2,2)(2,*)}").status().message()),
      StartsWith("1:20: tile 1"));
  EXPECT_THAT(LayoutSvg("f32[2,3,4]").status().message(),
              HasSubstr("rank 0 to 2"));
}

TEST_F(LayoutDescriptionTest, ParseIndexList) {
  EXPECT_THAT(*ParseIndexList("2,3"), ElementsAre(2, 3));
  EXPECT_THAT(*ParseIndexList(" 2 , 3 "), ElementsAre(2, 3));
  EXPECT_THAT(*ParseIndexList(""), ElementsAre());
  EXPECT_THAT(ParseIndexList("2,x").status().message(),
              HasSubstr("entry 1 'x' is not an integer"));
  EXPECT_THAT(ParseIndexList("2,,3").status().message(), HasSubstr("entry 1"));
  EXPECT_THAT(ParseIndexList("99999999999999999999").status().message(),
              HasSubstr("entry 0"));
}

// Malformed layout strings never crash: random edits of valid shapes are
// either described or rejected with a message.
TEST_F(LayoutDescriptionTest, RandomEditsAreDescribedOrRejected) {
  const std::vector<std::string> seeds = {
      "F32[3,5]{1,0:T(2,2)}",
      "f32[4,8]{1,0:T(2,4)(2,1)}",
      "F32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
      "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
      "s4[16,9]{0,1:T(8)E(4)L(64)}",
  };
  const std::string alphabet = "0123456789,:(){}[]*TSLE- f";
  std::mt19937 rng(11);
  int described = 0, rejected = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text = seeds[rng() % seeds.size()];
    const int edits = 1 + rng() % 3;
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const size_t at = rng() % text.size();
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0:
          text[at] = c;
          break;
        case 1:
          text.insert(text.begin() + at, c);
          break;
        default:
          text.erase(at, 1);
      }
    }
    absl::StatusOr<LayoutDescription> d =
        DescribeLayout(text, std::nullopt, &context_);
    if (d.ok()) {
      ++described;
      EXPECT_LE(d->elements, d->padded_elements) << text;
    } else {
      ++rejected;
      EXPECT_FALSE(d.status().message().empty()) << text;
    }
  }
  EXPECT_GT(described, 100);
  EXPECT_GT(rejected, 100);
}

}  // namespace
}  // namespace xla_index
