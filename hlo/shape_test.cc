#include "hlo/shape.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/primitive_type.h"

namespace xla_index {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(PrimitiveTypeTest, WidthsAndSizes) {
  EXPECT_EQ(BitWidth(PrimitiveType::kPred), 8);
  EXPECT_EQ(BitWidth(PrimitiveType::kS4), 4);
  EXPECT_EQ(ByteSize(PrimitiveType::kS4), 1);
  EXPECT_EQ(BitWidth(PrimitiveType::kU2), 2);
  EXPECT_EQ(ByteSize(PrimitiveType::kBF16), 2);
  EXPECT_EQ(ByteSize(PrimitiveType::kF8E4M3FN), 1);
  EXPECT_EQ(ByteSize(PrimitiveType::kF8E5M2), 1);
  EXPECT_EQ(ByteSize(PrimitiveType::kF32), 4);
  EXPECT_EQ(ByteSize(PrimitiveType::kC64), 8);
  EXPECT_EQ(ByteSize(PrimitiveType::kC128), 16);
  EXPECT_EQ(ByteSize(PrimitiveType::kToken), 0);
  EXPECT_TRUE(IsFloatingPoint(PrimitiveType::kF8E4M3FN));
  EXPECT_TRUE(IsSignedIntegral(PrimitiveType::kS2));
  EXPECT_FALSE(IsIntegral(PrimitiveType::kPred));
  EXPECT_TRUE(IsComplex(PrimitiveType::kC128));
}

TEST(PrimitiveTypeTest, NamesRoundTrip) {
  for (absl::string_view name :
       {"pred",          "s2",         "s4",         "s8",       "s16",
        "s32",           "s64",        "u2",         "u4",       "u8",
        "u16",           "u32",        "u64",        "f8e4m3fn", "f8e5m2",
        "f8e4m3b11fnuz", "f8e5m2fnuz", "f8e4m3fnuz", "bf16",     "f16",
        "f32",           "f64",        "c64",        "c128",     "token"}) {
    std::optional<PrimitiveType> type = PrimitiveTypeFromName(name);
    ASSERT_TRUE(type.has_value()) << name;
    EXPECT_EQ(PrimitiveTypeName(*type), name);
  }
  EXPECT_FALSE(PrimitiveTypeFromName("f31").has_value());
  EXPECT_FALSE(PrimitiveTypeFromName("tuple").has_value());
}

// XLA's shapes-and-layout documentation: "add.936 =
// bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)} ...".
TEST(ParseShapeTest, SeedTiledBf16) {
  absl::StatusOr<Shape> shape =
      ParseShape("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}");
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->element_type(), PrimitiveType::kBF16);
  EXPECT_THAT(shape->dimensions(), ElementsAre(8, 1, 1280, 16384));
  ASSERT_TRUE(shape->has_layout());
  EXPECT_THAT(shape->layout().minor_to_major, ElementsAre(3, 2, 0, 1));
  ASSERT_EQ(shape->layout().tiles.size(), 2u);
  EXPECT_THAT(shape->layout().tiles[0].dimensions, ElementsAre(8, 128));
  EXPECT_THAT(shape->layout().tiles[1].dimensions, ElementsAre(2, 1));
  EXPECT_EQ(shape->layout().memory_space, 0);
  EXPECT_EQ(shape->ElementCount(), 8 * 1280 * 16384);
}

// XLA's shapes-and-layout documentation: the fusion's operand lives in VMEM,
// S(1).
TEST(ParseShapeTest, SeedMemorySpace) {
  absl::StatusOr<Shape> shape =
      ParseShape("bf16[32,32,8192]{2,1,0:T(8,128)(2,1)S(1)}");
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->layout().memory_space, 1);
  EXPECT_EQ(shape->ToString(), "bf16[32,32,8192]{2,1,0:T(8,128)(2,1)S(1)}");
}

// XLA's tiled-layout documentation: F32[3,5]{1,0:T(2,2)}, written with an
// upper-case type.
TEST(ParseShapeTest, SeedUpperCaseType) {
  absl::StatusOr<Shape> shape = ParseShape("F32[3,5]{1,0:T(2,2)}");
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->ToString(), "f32[3,5]{1,0:T(2,2)}");
}

// XLA's tiled-layout documentation: combining dimensions with the tile
// (*,*,2,*,3).
TEST(ParseShapeTest, SeedCombinedTileDimensions) {
  absl::StatusOr<Shape> shape =
      ParseShape("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}");
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_THAT(
      shape->layout().tiles[0].dimensions,
      ElementsAre(Tile::kCombined, Tile::kCombined, 2, Tile::kCombined, 3));
  EXPECT_EQ(shape->ToString(), "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}");
}

TEST(ParseShapeTest, AllLayoutFieldsRoundTrip) {
  for (const std::string text : {
           "s4[128]{0:T(1024)L(2048)E(4)S(1)}",
           "f32[10,20]{1,0:D(D,C)#(s32)*(s64)}",
           "f32[10,20]{0,1:D(D+,C~)T(8,128)}",
           "f32[16,16]{1,0:SC(0:4,8)(1:2)}",
           "f32[16]{0:D(C)P(s32[4]{0})M(8)}",
           "f32[<=16,4]{1,0}",
           "(f32[10]{0}, (s32[], pred[2,2]{0,1}), token[])",
           "()",
           "f32[]",
           "f32[]{}",
           "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
       }) {
    absl::StatusOr<Shape> shape = ParseShape(text);
    ASSERT_TRUE(shape.ok()) << text << ": " << shape.status();
    EXPECT_EQ(shape->ToString(), text);
    absl::StatusOr<Shape> again = ParseShape(shape->ToString());
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, *shape);
  }
}

TEST(ParseShapeTest, SpacesAreAllowed) {
  absl::StatusOr<Shape> shape = ParseShape(" f32[10, 20]{0, 1} ");
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->ToString(), "f32[10,20]{0,1}");
}

TEST(ParseShapeTest, TupleAccessors) {
  absl::StatusOr<Shape> shape = ParseShape("(f32[10], s32[10])");
  ASSERT_TRUE(shape.ok());
  EXPECT_TRUE(shape->IsTuple());
  ASSERT_EQ(shape->tuple_shapes().size(), 2u);
  EXPECT_EQ(shape->tuple_shapes(1).element_type(), PrimitiveType::kS32);
}

TEST(ShapeTest, CompatibleIgnoresLayout) {
  Shape a = *ParseShape("f32[10,20]{1,0}");
  Shape b = *ParseShape("f32[10,20]{0,1}");
  Shape c = *ParseShape("f32[10,21]");
  EXPECT_TRUE(a.CompatibleWith(b));
  EXPECT_NE(a, b);
  EXPECT_FALSE(a.CompatibleWith(c));
  EXPECT_FALSE(a.CompatibleWith(*ParseShape("s32[10,20]")));
}

// f32[1,1,...,1] with `rank` dimensions.
std::string RankShape(int rank) {
  std::string text = "f32[";
  for (int i = 0; i < rank; ++i) text += i ? ",1" : "1";
  return text + "]";
}

struct BadShape {
  std::string text;
  std::string error;
};

TEST(ParseShapeTest, ErrorsNameTheColumn) {
  for (const BadShape& bad : std::vector<BadShape>{
           {"f31[10]", "1:1: expected an element type"},
           {"f32[10", "1:7: expected ']' or ','"},
           {"f32[10,]", "1:8: expected an integer"},
           {"f32[-1]", "1:5: dimension sizes must not be negative"},
           {"f32[99999999999999999999]",
            "1:5: integer (dimension size) "
            "does not fit"},
           {"f32[4294967296,4294967296]", "1:1: shape has more elements"},
           {"f32[2,3]{1}",
            "1:10: layout minor_to_major must be a "
            "permutation"},
           {"f32[2,3]{1,1}", "1:10: layout minor_to_major"},
           {"f32[2,3]{1,0:T(0,2)}", "1:16: tile sizes must be positive"},
           {"f32[2,3]{1,0:X(1)}", "1:14: expected a layout attribute"},
           {"f32[2,3]{1,0:T(2,2)", "1:20: expected '}' to close the layout"},
           {"f32[2,3]{1,0:S(1}", "1:17: expected ')' to close S"},
           {"(f32[2], s32[]", "1:15: expected ')' or ','"},
           {"f32[2] x", "1:8: unexpected 'x' after the shape"},
           {"f32[?]", "1:5: unbounded dynamic"},
           {"", "1:1: expected an element type"},
           {RankShape(300), "1:1: shape has more than 256 dimensions"},
       }) {
    absl::StatusOr<Shape> shape = ParseShape(bad.text);
    ASSERT_FALSE(shape.ok()) << bad.text;
    EXPECT_THAT(std::string(shape.status().message()), HasSubstr(bad.error))
        << bad.text;
  }
}

}  // namespace
}  // namespace xla_index
