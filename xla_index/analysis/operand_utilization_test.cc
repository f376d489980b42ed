#include "xla_index/analysis/operand_utilization.h"

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"

namespace xla_index {
namespace {

// The per-instruction answer (moved here from xla_index/indexing_rules_test.cc
// with the model).
class OperandUtilizationTest : public ::testing::Test {
 protected:
  const HloInstruction* Parse(absl::string_view hlo) {
    auto module = ParseHloModule(hlo);
    EXPECT_TRUE(module.ok()) << module.status();
    if (!module.ok()) return nullptr;
    module_ = std::move(*module);
    return module_->entry_computation()->root();
  }

  mlir::MLIRContext context_;
  std::unique_ptr<HloModule> module_;
};

TEST_F(OperandUtilizationTest, OperandUtilization) {
  const HloInstruction* root = Parse(R"(
p0 = f32[10, 20, 50] parameter(0)
slice = f32[5, 3, 25] slice(f32[10, 20, 50] p0),
  slice={[5:10:1], [3:20:7], [0:50:2]}
)");
  ASSERT_NE(root, nullptr);
  std::vector<OperandUtilization> u =
      ComputeOperandUtilization(*root, &context_);
  ASSERT_EQ(u.size(), 1);
  // The slice reads 5 * 3 * 25 elements of 10 * 20 * 50.
  EXPECT_TRUE(u[0].exact);
  EXPECT_EQ(u[0].elements_read, 5 * 3 * 25);
  EXPECT_EQ(u[0].element_count, 10 * 20 * 50);

  // Too many points to enumerate: the box bound is still exact here.
  std::vector<OperandUtilization> bounded =
      ComputeOperandUtilization(*root, &context_, /*max_points=*/10);
  EXPECT_FALSE(bounded[0].exact);
  EXPECT_GE(bounded[0].elements_read, 5 * 3 * 25);
  EXPECT_LE(bounded[0].elements_read, 10 * 20 * 50);
}

TEST_F(OperandUtilizationTest, OperandUtilizationOfAReduceReadsEverything) {
  const HloInstruction* root = Parse(R"(
p0 = f32[6, 4] parameter(0)
c = f32[] constant(0)
r = f32[4] reduce(p0, c), dimensions={0}, to_apply=add
)");
  ASSERT_NE(root, nullptr);
  std::vector<OperandUtilization> u =
      ComputeOperandUtilization(*root, &context_);
  ASSERT_EQ(u.size(), 2);
  EXPECT_EQ(u[0].elements_read, 24);
  EXPECT_DOUBLE_EQ(u[0].Fraction(), 1.0);
  EXPECT_EQ(u[1].elements_read, 1);
}

}  // namespace
}  // namespace xla_index
