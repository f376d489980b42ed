// Maps between physical shapes (--physical-layout): exact maps for a
// transpose whose layouts undo it, and, for tiled layouts with padding,
// the whole relation of the composed map against the layouts' own index
// arithmetic (TiledLayout::PhysicalIndex) and the op's definition.

#include "xla_index/physical_layout_indexing.h"

#include <cstdint>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "layout/shape_layout.h"
#include "layout/tiled_layout.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/box_points.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

using ::testing::HasSubstr;

class PhysicalLayoutTest : public ::testing::Test {
 protected:
  absl::StatusOr<HloInstructionIndexing> Physical(absl::string_view hlo,
                                                  IndexingDirection direction) {
    auto module = ParseHloModule(hlo);
    EXPECT_TRUE(module.ok()) << module.status();
    if (!module.ok()) return module.status();
    module_ = std::move(*module);
    root_ = module_->entry_computation()->root();
    AnalyzedIndexing analyzed = AnalyzeIndexing(*root_, direction, &context_);
    return AnalyzedIndexingWithPhysicalLayouts(*root_, analyzed, direction,
                                               &context_);
  }

  mlir::MLIRContext context_;
  std::unique_ptr<HloModule> module_;
  const HloInstruction* root_ = nullptr;
};

TEST_F(PhysicalLayoutTest, TransposeUndoneByLayoutsIsTheIdentity) {
  constexpr absl::string_view kHlo = R"(
p0 = f32[3,5]{1,0} parameter(0)
ROOT t = f32[5,3]{0,1} transpose(p0), dimensions={1,0}
)";
  for (IndexingDirection direction :
       {IndexingDirection::kOutputToInput, IndexingDirection::kInputToOutput}) {
    absl::StatusOr<HloInstructionIndexing> physical = Physical(kHlo, direction);
    ASSERT_TRUE(physical.ok()) << physical.status();
    EXPECT_EQ(physical->ToString(), R"(operand id = 0
(d0, d1) -> (d0, d1)
domain:
d0 in [0, 2]
d1 in [0, 4]
)");
  }
}

// The relation {(physical index of x, physical index of y)} for every
// logical pair (x, y) the op relates, computed without maps.
using Pair = std::pair<std::vector<int64_t>, std::vector<int64_t>>;

std::set<Pair> Relation(const IndexingMap& map) {
  absl::StatusOr<std::vector<IndexingPoint>> points = EnumerateImage(map);
  EXPECT_TRUE(points.ok()) << points.status();
  std::set<Pair> relation;
  if (!points.ok()) return relation;
  for (const IndexingPoint& p : *points) relation.insert({p.dims, p.results});
  return relation;
}

std::vector<std::vector<int64_t>> AllIndices(absl::Span<const int64_t> dims) {
  std::vector<std::vector<int64_t>> all;
  ForEachBoxPoint(
      ShapeBox(dims), int64_t{1} << 20,
      [&](const std::vector<int64_t>& point) { all.push_back(point); });
  return all;
}

TEST_F(PhysicalLayoutTest, TiledLayoutsMatchTheLayoutArithmetic) {
  struct Case {
    const char* hlo;
    std::vector<int64_t> permutation;  // output dim i reads operand dim p[i]
  };
  const Case cases[] = {
      {R"(
p0 = f32[10,130]{1,0:T(8,128)} parameter(0)
ROOT e = f32[10,130]{1,0:T(8,128)} exponential(p0)
)",
       {0, 1}},
      {R"(
p0 = f32[130,10]{1,0:T(8,128)} parameter(0)
ROOT t = f32[10,130]{1,0:T(8,128)} transpose(p0), dimensions={1,0}
)",
       {1, 0}},
      {R"(
p0 = f32[12,9]{0,1:T(4,8)} parameter(0)
ROOT t = f32[9,12]{1,0:T(8,128)} transpose(p0), dimensions={1,0}
)",
       {1, 0}},
  };
  for (const Case& c : cases) {
    for (IndexingDirection direction : {IndexingDirection::kOutputToInput,
                                        IndexingDirection::kInputToOutput}) {
      absl::StatusOr<HloInstructionIndexing> physical =
          Physical(c.hlo, direction);
      ASSERT_TRUE(physical.ok()) << physical.status();
      ASSERT_EQ(physical->indexing_maps[0].size(), 1);
      absl::StatusOr<TiledLayout> out = TiledLayoutOf(root_->shape());
      absl::StatusOr<TiledLayout> in =
          TiledLayoutOf(root_->operand(0)->shape());
      ASSERT_TRUE(out.ok() && in.ok());
      std::set<Pair> expected;
      for (const auto& o : AllIndices(root_->shape().dimensions())) {
        std::vector<int64_t> operand(o.size());
        for (size_t i = 0; i < o.size(); ++i) operand[c.permutation[i]] = o[i];
        Pair pair{out->PhysicalIndex(o), in->PhysicalIndex(operand)};
        if (direction == IndexingDirection::kInputToOutput) {
          std::swap(pair.first, pair.second);
        }
        expected.insert(pair);
      }
      EXPECT_EQ(Relation(physical->indexing_maps[0][0]), expected)
          << c.hlo << ToString(physical->indexing_maps[0][0]);
    }
  }
}

TEST_F(PhysicalLayoutTest, ReplicaMapsComposeWithTheDomainLayout) {
  absl::StatusOr<HloInstructionIndexing> physical =
      Physical(R"(
p0 = f32[4,8]{1,0} parameter(0)
ROOT ag = f32[4,16]{0,1} all-gather(p0), replica_groups={{0,1}},
  dimensions={1}
)",
               IndexingDirection::kOutputToInput);
  ASSERT_TRUE(physical.ok()) << physical.status();
  EXPECT_EQ(physical->ToString(), R"(operand id = 0
(d0, d1) -> (d1, d0 mod 8)
domain:
d0 in [0, 15]
d1 in [0, 3]
replica id:
(d0, d1) -> (d0 floordiv 8)
domain:
d0 in [0, 15]
d1 in [0, 3]
)");
}

TEST_F(PhysicalLayoutTest, NonArrayShapesAreRefused) {
  absl::StatusOr<HloInstructionIndexing> physical =
      Physical(R"(
p0 = f32[4] parameter(0)
ROOT t = (f32[4]) tuple(p0)
)",
               IndexingDirection::kOutputToInput);
  ASSERT_FALSE(physical.ok());
  EXPECT_THAT(physical.status().message(), HasSubstr("non-array shape"));
}

}  // namespace
}  // namespace xla_index
