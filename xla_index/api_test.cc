// The API a fusion pass written against XLA expects, reached through the
// umbrella header only: XLA's signatures (int ids, root_instruction(),
// operator<< of maps and of instruction indexing) and the reasons UNDEFINED
// maps carry.
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include "absl/hash/hash.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/xla_index.h"

namespace xla_index {
namespace {

class ApiTest : public ::testing::Test {
 protected:
  const HloInstruction* ParseRoot(const std::string& hlo) {
    auto module = ParseAndVerifyHloModule(hlo);
    EXPECT_TRUE(module.ok()) << module.status();
    if (!module.ok()) return nullptr;
    module_ = std::move(*module);
    return module_->entry_computation()->root_instruction();
  }

  mlir::MLIRContext context_{mlir::MLIRContext::Threading::DISABLED};
  std::unique_ptr<HloModule> module_;
};

constexpr char kTranspose[] = R"(
HloModule m
ENTRY e {
  p0 = f32[3,5] parameter(0)
  ROOT t = f32[5,3] transpose(p0), dimensions={1,0}
})";

TEST_F(ApiTest, RootInstructionIsRoot) {
  ASSERT_NE(ParseRoot(kTranspose), nullptr);
  const HloComputation* entry = module_->entry_computation();
  EXPECT_EQ(entry->root_instruction(), entry->root());
  EXPECT_EQ(entry->root_instruction()->name(), "t");
}

TEST_F(ApiTest, IntIdsCompileAndMatchInt64) {
  const HloInstruction* t = ParseRoot(kTranspose);
  ASSERT_NE(t, nullptr);
  int output_id = 0, input_id = 0;  // XLA passes int
  HloInstructionIndexing a =
      ComputeOutputToInputIndexing(t, output_id, &context_);
  HloInstructionIndexing b =
      ComputeOutputToInputIndexing(t, int64_t{0}, &context_);
  EXPECT_EQ(a.ToString(), b.ToString());
  HloInstructionIndexing c =
      ComputeInputToOutputIndexing(t, input_id, &context_);
  EXPECT_EQ(c.ToString(),
            ComputeInputToOutputIndexing(t, int64_t{0}, &context_).ToString());
  EXPECT_EQ(ComputeOutputToInputIndexing(t, 0, &context_).ToString(),
            a.ToString());
}

TEST_F(ApiTest, StreamsIndexingMapAsText) {
  const HloInstruction* t = ParseRoot(kTranspose);
  ASSERT_NE(t, nullptr);
  HloInstructionIndexing indexing =
      ComputeOutputToInputIndexing(t, 0, &context_);
  const IndexingMap& map = indexing.indexing_maps[0][0];
  std::ostringstream out;
  out << map;
  EXPECT_EQ(out.str(), ToString(map));
  EXPECT_EQ(out.str(),
            "(d0, d1) -> (d1, d0)\n"
            "domain:\n"
            "d0 in [0, 4]\n"
            "d1 in [0, 2]");
}

TEST_F(ApiTest, StreamsInstructionIndexingAsAnalyzePrintsIt) {
  const HloInstruction* t = ParseRoot(kTranspose);
  ASSERT_NE(t, nullptr);
  HloInstructionIndexing indexing =
      ComputeOutputToInputIndexing(t, 0, &context_);
  std::ostringstream out;
  out << indexing;
  EXPECT_EQ(out.str(), indexing.ToString());
  EXPECT_EQ(out.str(),
            "operand id = 0\n"
            "(d0, d1) -> (d1, d0)\n"
            "domain:\n"
            "d0 in [0, 4]\n"
            "d1 in [0, 2]\n");
}

TEST_F(ApiTest, UndefinedCarriesNoRuleReason) {
  const HloInstruction* sort = ParseRoot(R"(
HloModule m
lt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=LT
}
ENTRY e {
  p0 = f32[8] parameter(0)
  ROOT s = f32[8] sort(p0), dimensions={0}, to_apply=lt
})");
  ASSERT_NE(sort, nullptr);
  HloInstructionIndexing indexing =
      ComputeOutputToInputIndexing(sort, 0, &context_);
  ASSERT_EQ(indexing.indexing_maps.size(), 1);
  const IndexingMap& map = indexing.indexing_maps[0][0];
  ASSERT_TRUE(map.IsUndefined());
  EXPECT_EQ(map.undefined_reason(), "no indexing rule for opcode 'sort'");
  // The text form stays "UNDEFINED"; the stream and JSON add the reason.
  EXPECT_EQ(ToString(map), "UNDEFINED");
  EXPECT_EQ(indexing.ToString(), "operand id = 0\nUNDEFINED\n");
  std::ostringstream out;
  out << map;
  EXPECT_EQ(out.str(), "UNDEFINED (no indexing rule for opcode 'sort')");
  EXPECT_NE(IndexingMapToJson(map).find(
                "\"undefined\": true, \"undefined_reason\": \"no indexing "
                "rule for opcode 'sort'\""),
            std::string::npos)
      << IndexingMapToJson(map);
  HloInstructionIndexing in_to_out =
      ComputeInputToOutputIndexing(sort, 0, &context_);
  EXPECT_EQ(in_to_out.indexing_maps[0][0].undefined_reason(),
            "no indexing rule for opcode 'sort'");
}

TEST_F(ApiTest, UndefinedCarriesIdOutOfRangeReason) {
  const HloInstruction* t = ParseRoot(kTranspose);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(ComputeOutputToInputIndexing(t, 1, &context_)
                .indexing_maps[0][0]
                .undefined_reason(),
            "output id 1 of 't' is outside [0, 1)");
  EXPECT_EQ(ComputeInputToOutputIndexing(t, -1, &context_)
                .indexing_maps[0][0]
                .undefined_reason(),
            "input id -1 of 't' is outside [0, 1)");
}

TEST_F(ApiTest, UndefinedCarriesAttributeReason) {
  HloInstruction p0("p0", HloOpcode::kParameter, "parameter");
  p0.set_shape(Shape(PrimitiveType::kF32, {3, 5}));
  HloInstruction t("t", HloOpcode::kTranspose, "transpose");
  t.set_shape(Shape(PrimitiveType::kF32, {5, 3}));
  t.AppendOperand(&p0);
  t.set_dimensions({0, 0});
  IndexingMap out_to_in =
      ComputeOutputToInputIndexing(&t, 0, &context_).indexing_maps[0][0];
  EXPECT_EQ(out_to_in.undefined_reason(),
            "transpose 't': attributes do not fit the operands");
  IndexingMap in_to_out =
      ComputeInputToOutputIndexing(&t, 0, &context_).indexing_maps[0][0];
  EXPECT_EQ(in_to_out.undefined_reason(),
            "transpose 't': attributes do not fit the operands");
}

TEST_F(ApiTest, ReasonIsIgnoredByEqualityAndHash) {
  IndexingMap a = IndexingMap::Undefined("one reason");
  IndexingMap b = IndexingMap::Undefined("another reason");
  IndexingMap c = IndexingMap::Undefined();
  EXPECT_EQ(a, b);
  EXPECT_EQ(a, c);
  EXPECT_EQ(absl::HashOf(a), absl::HashOf(b));
  EXPECT_EQ(absl::HashOf(a), absl::HashOf(c));
  EXPECT_EQ(c.undefined_reason(), "");
  // A map without a reason has no "undefined_reason" key.
  EXPECT_EQ(IndexingMapToJson(c).find("undefined_reason"), std::string::npos);
  IndexingMapSet set{a, b};
  EXPECT_EQ(set.size(), 1);
  EXPECT_EQ(set[0].undefined_reason(), "one reason");
}

TEST_F(ApiTest, CompositionKeepsTheReason) {
  const HloInstruction* t = ParseRoot(kTranspose);
  ASSERT_NE(t, nullptr);
  IndexingMap map =
      ComputeOutputToInputIndexing(t, 0, &context_).indexing_maps[0][0];
  IndexingMap undefined = IndexingMap::Undefined("why");
  EXPECT_EQ(ComposeIndexingMaps(map, undefined).undefined_reason(), "why");
  EXPECT_EQ(ComposeIndexingMaps(undefined, map).undefined_reason(), "why");
}

TEST_F(ApiTest, UmbrellaReachesTheAnalyses) {
  const HloInstruction* t = ParseRoot(kTranspose);
  ASSERT_NE(t, nullptr);
  auto utilization = AnalyzeUtilization(*t, &context_);
  ASSERT_TRUE(utilization.ok()) << utilization.status();
  auto coalescing = AnalyzeCoalescing(*t, CoalescingOptions(), &context_);
  ASSERT_TRUE(coalescing.ok()) << coalescing.status();
  auto tiling = AnalyzeTiling(*t, {1, 1}, &context_);
  ASSERT_TRUE(tiling.ok()) << tiling.status();
}

}  // namespace
}  // namespace xla_index
