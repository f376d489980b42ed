// The emitters' thread maps against an independent walk of each emitter's
// loop nest: for every thread of every block, the test enumerates the
// elements the kernel touches in the order the emitter's loops visit them
// (written here from the structure of XLA's emitters, not through the
// maps), as memory offsets, and compares that sequence with the map's
// points (symbols in lexicographic order, the innermost last) mapped to
// offsets. Set and order must agree for every thread. The launch
// parameters each walk uses are derived by hand in the comments from the
// XLA functions named there, and checked against the computed launch.

#include "xla_index/analysis/emitter_indexing.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/emitter_choice.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/analysis/gpu_device.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

struct Kernel {
  std::unique_ptr<HloModule> module;
  AnalyzedFusion fusion;
  EmitterChoice choice;
  EmitterIndexing indexing;
};

Kernel Analyze(const std::string& text, mlir::MLIRContext* context,
               const GpuDeviceDescription& device = DefaultGpuDevice()) {
  Kernel k;
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  k.module = std::move(*module);
  absl::StatusOr<AnalyzedFusion> fusion = AnalyzeInstructionOperands(
      *k.module->entry_computation()->root(), context);
  EXPECT_TRUE(fusion.ok()) << fusion.status();
  k.fusion = *std::move(fusion);
  absl::StatusOr<EmitterChoice> choice = ChooseEmitter(k.fusion, device);
  EXPECT_TRUE(choice.ok()) << choice.status();
  k.choice = *std::move(choice);
  absl::StatusOr<EmitterIndexing> indexing =
      ComputeEmitterIndexing(k.fusion, k.choice, device, {}, context);
  EXPECT_TRUE(indexing.ok()) << indexing.status();
  if (indexing.ok()) k.indexing = *std::move(indexing);
  return k;
}

// Row-major offset of `index` in `dims` (the test shapes have default
// layouts unless a case says otherwise).
int64_t RowMajor(const std::vector<int64_t>& index,
                 const std::vector<int64_t>& dims) {
  int64_t offset = 0;
  for (size_t i = 0; i < dims.size(); ++i) offset = offset * dims[i] + index[i];
  return offset;
}

// The offsets `map` gives thread `thread` of block `block`, symbols in
// lexicographic order (the last varies fastest), constraints applied.
std::vector<int64_t> MapSequence(
    const IndexingMap& map, int64_t thread, int64_t block,
    const std::function<int64_t(const std::vector<int64_t>&)>& offset_of) {
  std::vector<int64_t> dims(kLaunchGridDims, 0);
  dims[kThreadIdX] = thread;
  dims[kBlockIdX] = block;
  const std::vector<Interval> bounds = map.GetSymbolBounds();
  std::vector<int64_t> symbols;
  for (const Interval& b : bounds) symbols.push_back(b.lower);
  std::vector<int64_t> out;
  while (true) {
    if (map.ConstraintsSatisfied(dims, symbols)) {
      std::optional<std::vector<int64_t>> index = map.Evaluate(dims, symbols);
      EXPECT_TRUE(index.has_value());
      if (index) out.push_back(offset_of(*index));
    }
    int64_t s = static_cast<int64_t>(symbols.size()) - 1;
    for (; s >= 0; --s) {
      if (++symbols[s] <= bounds[s].upper) break;
      symbols[s] = bounds[s].lower;
    }
    if (s < 0) break;
  }
  return out;
}

// Compares, for every thread of the launch, the walk's offsets with the
// map's, the map's indices turned into offsets by `offset_of`.
void ExpectMapMatchesWalk(
    const Kernel& k, const IndexingMap& map,
    const std::function<int64_t(const std::vector<int64_t>&)>& offset_of,
    const std::function<std::vector<int64_t>(int64_t, int64_t)>& walk,
    const std::string& what);

// The same for a row-major shape of dimensions `dims`.
void ExpectMapMatchesWalk(
    const Kernel& k, const IndexingMap& map, const std::vector<int64_t>& dims,
    const std::function<std::vector<int64_t>(int64_t, int64_t)>& walk,
    const std::string& what) {
  ExpectMapMatchesWalk(
      k, map,
      [dims](const std::vector<int64_t>& index) {
        return RowMajor(index, dims);
      },
      walk, what);
}

void ExpectMapMatchesWalk(
    const Kernel& k, const IndexingMap& map,
    const std::function<int64_t(const std::vector<int64_t>&)>& offset_of,
    const std::function<std::vector<int64_t>(int64_t, int64_t)>& walk,
    const std::string& what) {
  int64_t mismatches = 0, points = 0;
  for (int64_t b = 0; b < k.indexing.grid.blocks[0]; ++b) {
    for (int64_t t = 0; t < k.indexing.grid.threads[0]; ++t) {
      std::vector<int64_t> expected = walk(t, b);
      std::vector<int64_t> actual = MapSequence(map, t, b, offset_of);
      points += expected.size();
      if (expected != actual && ++mismatches <= 3) {
        ADD_FAILURE() << what << ": block " << b << " thread " << t
                      << ": walk has " << expected.size() << " offsets, map "
                      << actual.size() << "\n"
                      << ToString(map);
      }
    }
  }
  EXPECT_EQ(mismatches, 0) << what;
  EXPECT_GT(points, 0) << what;
}

constexpr char kAdd[] = R"(
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
)";

// RowReductionFusion on f32[12,512], dims={1} (reduction [1, 12, 512]):
// reduced threads min(1024, roundup(ceil(512 / 16), 32)) = 32; kept threads
// 256 / 32 = 8 (12 x 32 > 256); vector 2 (GetVectorSizeForMlir: f32);
// per-thread tile min(16 / 2, ceil(256 / 32)) = 8 steps; blocks
// ceil(12 / 8) x ceil(256 / 256) = 2. Thread (ty, tx) = (t / 32, t % 32)
// reads row b * 8 + ty at columns (s1 * 32 + tx) * 2 + s2.
TEST(EmitterIndexingTest, RowReductionWalk) {
  mlir::MLIRContext context;
  Kernel k = Analyze(absl::StrCat("HloModule m\n", kAdd, R"(
ENTRY e {
  p = f32[12,512] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[12] reduce(p, z), dimensions={1}, to_apply=sum
})"),
                     &context);
  ASSERT_EQ(k.choice.kind, EmitterKind::kReduction);
  EXPECT_EQ(k.choice.reduction_variant, ReductionVariant::kRow);
  EXPECT_EQ(k.indexing.grid.threads[0], 256);
  EXPECT_EQ(k.indexing.grid.blocks[0], 2);
  EXPECT_EQ(k.indexing.unroll, 2);
  ASSERT_TRUE(k.indexing.hero_anchored[0]);
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_hero_operands[0][0], {12, 512},
      [](int64_t t, int64_t b) {
        std::vector<int64_t> out;
        const int64_t ty = t / 32, tx = t % 32;
        for (int64_t s1 = 0; s1 < 8; ++s1) {
          for (int64_t s2 = 0; s2 < 2; ++s2) {
            const int64_t row = b * 8 + ty;
            const int64_t col = (s1 * 32 + tx) * 2 + s2;
            if (row < 12 && col < 512) out.push_back(row * 512 + col);
          }
        }
        return out;
      },
      "row reduction input");
  // The output: lane 0 of each row group writes row b * 8 + ty.
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_outputs[0], {12},
      [](int64_t t, int64_t b) {
        const int64_t row = b * 8 + t / 32;
        return t % 32 == 0 && row < 12 ? std::vector<int64_t>{row}
                                       : std::vector<int64_t>{};
      },
      "row reduction output");
}

// A batched row reduction: f32[3,10,64], dims={0,2} is [3, 10, 64]
// (major reduced 3 <= 8, race free). MultiRowReductionFusion::TryCreate
// fails (its vector size halves to 1 for want of blocks, and 64 > 32 x 1);
// RowReductionFusion: 32 reduced x 8 kept threads, vector 2, one step, 2
// blocks; the major reduced dimension is the outer loop s0.
TEST(EmitterIndexingTest, BatchedRowReductionWalk) {
  mlir::MLIRContext context;
  Kernel k = Analyze(absl::StrCat("HloModule m\n", kAdd, R"(
ENTRY e {
  p = f32[3,10,64] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[10] reduce(p, z), dimensions={0,2}, to_apply=sum
})"),
                     &context);
  ASSERT_EQ(k.choice.kind, EmitterKind::kReduction);
  EXPECT_EQ(k.choice.reduction_variant, ReductionVariant::kRow);
  EXPECT_EQ(k.indexing.grid.threads[0], 256);
  EXPECT_EQ(k.indexing.grid.blocks[0], 2);
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_hero_operands[0][0], {3, 10, 64},
      [](int64_t t, int64_t b) {
        std::vector<int64_t> out;
        const int64_t ty = t / 32, tx = t % 32;
        for (int64_t s0 = 0; s0 < 3; ++s0) {
          for (int64_t s2 = 0; s2 < 2; ++s2) {
            const int64_t row = b * 8 + ty, col = tx * 2 + s2;
            if (row < 10) out.push_back((s0 * 10 + row) * 64 + col);
          }
        }
        return out;
      },
      "batched row reduction input");
}

// MultiRowReductionFusion on bf16[8192,16], dims={1}: vector min(16, 64 /
// 16) = 4 (no 32-bit limit); 4 reduced threads, 256 / 4 = 64 kept threads,
// 8192 / 64 = 128 blocks >= 84 SMs, so the vector stays 4. Thread (t / 4,
// t % 4) reads row b * 64 + t / 4 at columns (t % 4) * 4 + s1.
TEST(EmitterIndexingTest, MultiRowReductionWalk) {
  mlir::MLIRContext context;
  Kernel k = Analyze(R"(
HloModule m
sum16 {
  a = bf16[] parameter(0)
  b = bf16[] parameter(1)
  ROOT c = bf16[] add(a, b)
}
ENTRY e {
  p = bf16[8192,16] parameter(0)
  z = bf16[] constant(0)
  ROOT r = bf16[8192] reduce(p, z), dimensions={1}, to_apply=sum16
})",
                     &context);
  ASSERT_EQ(k.choice.kind, EmitterKind::kReduction);
  EXPECT_EQ(k.choice.reduction_variant, ReductionVariant::kMultiRow);
  EXPECT_EQ(k.indexing.grid.threads[0], 256);
  EXPECT_EQ(k.indexing.grid.blocks[0], 128);
  EXPECT_EQ(k.indexing.unroll, 4);
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_hero_operands[0][0], {8192, 16},
      [](int64_t t, int64_t b) {
        std::vector<int64_t> out;
        for (int64_t s1 = 0; s1 < 4; ++s1) {
          out.push_back((b * 64 + t / 4) * 16 + (t % 4) * 4 + s1);
        }
        return out;
      },
      "multi-row reduction input");
}

// ColumnReductionFusion on f32[64,100], dims={0} (column [1, 64, 100]; 32
// is not a multiple of 100): 32 x 32 threads, vector 2, ceil(64 / 32) = 2
// rows per thread, ceil(100 / 64) = 2 blocks. Thread (t / 32, t % 32)
// reads rows t / 32 + 32 s0 at columns (b * 32 + t % 32) * 2 + s1.
TEST(EmitterIndexingTest, ColumnReductionWalk) {
  mlir::MLIRContext context;
  Kernel k = Analyze(absl::StrCat("HloModule m\n", kAdd, R"(
ENTRY e {
  p = f32[64,100] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[100] reduce(p, z), dimensions={0}, to_apply=sum
})"),
                     &context);
  ASSERT_EQ(k.choice.kind, EmitterKind::kReduction);
  EXPECT_EQ(k.choice.reduction_variant, ReductionVariant::kColumn);
  EXPECT_EQ(k.indexing.grid.threads[0], 1024);
  EXPECT_EQ(k.indexing.grid.blocks[0], 2);
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_hero_operands[0][0], {64, 100},
      [](int64_t t, int64_t b) {
        std::vector<int64_t> out;
        for (int64_t s0 = 0; s0 < 2; ++s0) {
          for (int64_t s1 = 0; s1 < 2; ++s1) {
            const int64_t row = t / 32 + s0 * 32;
            const int64_t col = (b * 32 + t % 32) * 2 + s1;
            if (row < 64 && col < 100) out.push_back(row * 100 + col);
          }
        }
        return out;
      },
      "column reduction input");
}

// SmallColumnReductionFusion on f32[256,8], dims={0} (8 divides 32): 128
// threads, vector 2, 2 x 128 / 8 = 32 shared rows, ceil(2048 / 256) = 8
// steps; thread t reads the linear element t * 2 + s1 + 256 s0 of the
// 256 x 8 block.
TEST(EmitterIndexingTest, SmallColumnReductionWalk) {
  mlir::MLIRContext context;
  Kernel k = Analyze(absl::StrCat("HloModule m\n", kAdd, R"(
ENTRY e {
  p = f32[256,8] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[8] reduce(p, z), dimensions={0}, to_apply=sum
})"),
                     &context);
  ASSERT_EQ(k.choice.kind, EmitterKind::kReduction);
  EXPECT_EQ(k.choice.reduction_variant, ReductionVariant::kSmallColumn);
  EXPECT_EQ(k.indexing.grid.threads[0], 128);
  EXPECT_EQ(k.indexing.grid.blocks[0], 1);
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_hero_operands[0][0], {256, 8},
      [](int64_t t, int64_t b) {
        std::vector<int64_t> out;
        for (int64_t s0 = 0; s0 < 8; ++s0) {
          for (int64_t s1 = 0; s1 < 2; ++s1) {
            const int64_t linear = t * 2 + s1 + s0 * 256;
            if (linear < 2048) out.push_back(b * 2048 + linear);
          }
        }
        return out;
      },
      "small column reduction input");
}

// TransposeFusion on f32[100,70] -> f32[70,100]: 128 threads, 32 x 32
// tiles (f32: kMaxVectorizedBytes / 4 = 1, no vector), 4 x 3 = 12 blocks.
// In step s0 thread t reads tile row 4 s0 + t / 32, column t % 32, and
// writes the transposed tile's row 4 s0 + t / 32, column t % 32.
TEST(EmitterIndexingTest, TransposeWalk) {
  mlir::MLIRContext context;
  Kernel k = Analyze(R"(
HloModule m
ENTRY e {
  p = f32[100,70] parameter(0)
  ROOT t = f32[70,100] transpose(p), dimensions={1,0}
})",
                     &context);
  ASSERT_EQ(k.choice.kind, EmitterKind::kTranspose);
  EXPECT_EQ(k.indexing.grid.threads[0], 128);
  EXPECT_EQ(k.indexing.grid.blocks[0], 12);
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_hero_operands[0][0], {100, 70},
      [](int64_t t, int64_t b) {
        std::vector<int64_t> out;
        const int64_t bi = b / 3, bj = b % 3;
        for (int64_t s0 = 0; s0 < 8; ++s0) {
          const int64_t row = bi * 32 + s0 * 4 + t / 32, col = bj * 32 + t % 32;
          if (row < 100 && col < 70) out.push_back(row * 70 + col);
        }
        return out;
      },
      "transpose read");
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_outputs[0], {70, 100},
      [](int64_t t, int64_t b) {
        std::vector<int64_t> out;
        const int64_t bi = b / 3, bj = b % 3;
        for (int64_t s0 = 0; s0 < 8; ++s0) {
          const int64_t row = bj * 32 + s0 * 4 + t / 32, col = bi * 32 + t % 32;
          if (row < 70 && col < 100) out.push_back(row * 100 + col);
        }
        return out;
      },
      "transpose write");
}

// A transpose that keeps the minor dimension (f32[64,32,2] ->
// f32[32,64,2]): 32 bits x 2 <= 64 and 64 x 32 >= 128, so tiled; the minor
// dimension is the vector (2), block sizes [32, 32, 2], 2 blocks; thread t
// reads (32 b + 4 s0 + t / 32, t % 32, s1).
TEST(EmitterIndexingTest, TransposeKeepingMinorDimensionWalk) {
  mlir::MLIRContext context;
  Kernel k = Analyze(R"(
HloModule m
ENTRY e {
  p = f32[64,32,2] parameter(0)
  ROOT t = f32[32,64,2] transpose(p), dimensions={1,0,2}
})",
                     &context);
  ASSERT_EQ(k.choice.kind, EmitterKind::kTranspose);
  EXPECT_EQ(k.indexing.grid.blocks[0], 2);
  EXPECT_EQ(k.indexing.unroll, 2);
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_hero_operands[0][0], {64, 32, 2},
      [](int64_t t, int64_t b) {
        std::vector<int64_t> out;
        for (int64_t s0 = 0; s0 < 8; ++s0) {
          for (int64_t s1 = 0; s1 < 2; ++s1) {
            out.push_back(
                RowMajor({b * 32 + s0 * 4 + t / 32, t % 32, s1}, {64, 32, 2}));
          }
        }
        return out;
      },
      "minor-kept transpose read");
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_outputs[0], {32, 64, 2},
      [](int64_t t, int64_t b) {
        std::vector<int64_t> out;
        for (int64_t s0 = 0; s0 < 8; ++s0) {
          for (int64_t s1 = 0; s1 < 2; ++s1) {
            out.push_back(
                RowMajor({s0 * 4 + t / 32, b * 32 + t % 32, s1}, {32, 64, 2}));
          }
        }
        return out;
      },
      "minor-kept transpose write");
}

// A bf16 transpose runs as XLA's PackedTranspose (GetPackedTransposeTileSizes
// succeeds: 16-bit elements, 2 per 32-bit bank, 64 x 64 tiles): for
// bf16[256,320] -> bf16[320,256] the canonical output is [320, 1, 256, 1]
// with output tile [64, 1, 64, 1], 5 x 4 = 20 blocks. Thread t (lane t % 32
// of group t / 32) reads input row 64 (b % 4) + 4 s0 + t / 32, columns
// 64 (b / 4) + 2 (t % 32) + s1, 16 steps; it writes output row
// 64 (b / 4) + 2 (4 s0 + t / 32) + s1, column 64 (b % 4) + 2 (t % 32) + s2,
// 8 steps.
TEST(EmitterIndexingTest, PackedTransposeWalk) {
  mlir::MLIRContext context;
  Kernel k = Analyze(R"(
HloModule m
ENTRY e {
  p = bf16[256,320] parameter(0)
  ROOT t = bf16[320,256] transpose(p), dimensions={1,0}
})",
                     &context);
  ASSERT_EQ(k.choice.kind, EmitterKind::kTranspose);
  EXPECT_TRUE(k.choice.packed_transpose);
  EXPECT_EQ(k.indexing.grid.threads[0], 128);
  EXPECT_EQ(k.indexing.grid.blocks[0], 20);
  EXPECT_EQ(k.indexing.unroll, 2);
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_hero_operands[0][0], {256, 320},
      [](int64_t t, int64_t b) {
        std::vector<int64_t> out;
        for (int64_t s0 = 0; s0 < 16; ++s0) {
          for (int64_t s1 = 0; s1 < 2; ++s1) {
            const int64_t row = b % 4 * 64 + s0 * 4 + t / 32;
            const int64_t col = b / 4 * 64 + t % 32 * 2 + s1;
            out.push_back(row * 320 + col);
          }
        }
        return out;
      },
      "packed transpose read");
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_outputs[0], {320, 256},
      [](int64_t t, int64_t b) {
        std::vector<int64_t> out;
        for (int64_t s0 = 0; s0 < 8; ++s0) {
          for (int64_t s1 = 0; s1 < 2; ++s1) {
            for (int64_t s2 = 0; s2 < 2; ++s2) {
              const int64_t row = b / 4 * 64 + (s0 * 4 + t / 32) * 2 + s1;
              const int64_t col = b % 4 * 64 + t % 32 * 2 + s2;
              out.push_back(row * 256 + col);
            }
          }
        }
        return out;
      },
      "packed transpose write");
}

// A copy from the row-major to the column-major layout of f32[64,96] is a
// physical transpose: after XLA's layout normalization, the transpose
// emitter with 2 x 3 tiles of 32 x 32. The write goes to the column-major
// output, whose physical offset of (i, j) is j * 64 + i.
TEST(EmitterIndexingTest, LayoutChangingCopyWalk) {
  mlir::MLIRContext context;
  Kernel k = Analyze(R"(
HloModule m
ENTRY e {
  p = f32[64,96]{1,0} parameter(0)
  ROOT c = f32[64,96]{0,1} copy(p)
})",
                     &context);
  ASSERT_EQ(k.choice.kind, EmitterKind::kTranspose);
  EXPECT_EQ(k.indexing.grid.blocks[0], 6);
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_hero_operands[0][0], {64, 96},
      [](int64_t t, int64_t b) {
        std::vector<int64_t> out;
        for (int64_t s0 = 0; s0 < 8; ++s0) {
          out.push_back((b / 3 * 32 + s0 * 4 + t / 32) * 96 + b % 3 * 32 +
                        t % 32);
        }
        return out;
      },
      "copy read");
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_outputs[0],
      [](const std::vector<int64_t>& i) { return i[1] * 64 + i[0]; },
      [](int64_t t, int64_t b) {
        std::vector<int64_t> out;
        for (int64_t s0 = 0; s0 < 8; ++s0) {
          out.push_back((b % 3 * 32 + s0 * 4 + t / 32) * 64 + b / 3 * 32 +
                        t % 32);
        }
        return out;
      },
      "copy write");
}

// The concatenate emitter (f32[5,40] and f32[5,24] along dimension 1): a
// loop over the operand largest along the dimension, f32[5,40] (200
// elements: 128 threads, 2 blocks, no unroll); thread e = 128 b + t reads
// element (e / 40, e % 40) of every operand that has it.
TEST(EmitterIndexingTest, ConcatenateWalk) {
  mlir::MLIRContext context;
  Kernel k = Analyze(R"(
HloModule m
ENTRY e {
  a = f32[5,40] parameter(0)
  b = f32[5,24] parameter(1)
  ROOT c = f32[5,64] concatenate(a, b), dimensions={1}
})",
                     &context);
  ASSERT_EQ(k.choice.kind, EmitterKind::kConcatenate);
  EXPECT_EQ(k.indexing.grid.threads[0], 128);
  EXPECT_EQ(k.indexing.grid.blocks[0], 2);
  for (int64_t operand : {0, 1}) {
    const int64_t width = operand == 0 ? 40 : 24;
    ExpectMapMatchesWalk(
        k, k.indexing.thread_to_hero_operands[0][operand], {5, width},
        [width](int64_t t, int64_t b) {
          const int64_t e = b * 128 + t;
          const int64_t row = e / 40, col = e % 40;
          return e < 200 && col < width
                     ? std::vector<int64_t>{row * width + col}
                     : std::vector<int64_t>{};
        },
        absl::StrCat("concatenate operand ", operand));
  }
}

// The in-place dynamic-update-slice emitter: a loop over the update
// f32[10,64] (640 elements: 128 threads, 5 blocks); thread 128 b + t reads
// that element of the update; the updated buffer is not read at all, the
// offsets are scalars.
TEST(EmitterIndexingTest, InPlaceDynamicUpdateSliceWalk) {
  mlir::MLIRContext context;
  Kernel k = Analyze(R"(
HloModule m
ENTRY e {
  buffer = f32[100,64] parameter(0)
  update = f32[10,64] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT d = f32[100,64] dynamic-update-slice(buffer, update, i, j)
})",
                     &context);
  ASSERT_EQ(k.choice.kind, EmitterKind::kInPlaceDynamicUpdateSlice);
  EXPECT_EQ(k.indexing.grid.blocks[0], 5);
  EXPECT_TRUE(k.indexing.thread_to_hero_operands[0][0].IsUndefined());
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_hero_operands[0][1], {10, 64},
      [](int64_t t, int64_t b) { return std::vector<int64_t>{b * 128 + t}; },
      "update read");
  EXPECT_EQ(k.indexing.thread_to_hero_operands[0][2].GetResultCount(), 0);
}

// XLA's scatter emitter (ScatterWithDistributedUpdates) on a simplified
// scatter of updates f32[1024,1,128] into f32[600,128]: 131072 update
// elements fill the RTX A6000, so ComputeLoopFusionConfig gives 4 and the
// vector is gcd(128, 4) = 4; 128 threads (whole warps), 256 blocks. Thread
// t of block b reads updates (128 b + t) * 4 + v and the index vector of
// its slice, ((128 b + t) * 4) / 128; the operand is read where the data
// says (Undefined).
TEST(EmitterIndexingTest, ScatterWalk) {
  mlir::MLIRContext context;
  Kernel k = Analyze(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
ENTRY e {
  operand = f32[600,128] parameter(0)
  indices = s32[1024,1] parameter(1)
  updates = f32[1024,1,128] parameter(2)
  ROOT s = f32[600,128] scatter(operand, indices, updates),
    update_window_dims={1,2}, inserted_window_dims={},
    scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
})",
                     &context);
  ASSERT_EQ(k.choice.kind, EmitterKind::kScatter);
  EXPECT_EQ(k.indexing.grid.threads[0], 128);
  EXPECT_EQ(k.indexing.grid.blocks[0], 256);
  EXPECT_EQ(k.indexing.unroll, 4);
  EXPECT_TRUE(k.indexing.thread_to_hero_operands[0][0].IsUndefined());
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_hero_operands[0][2], {1024, 1, 128},
      [](int64_t t, int64_t b) {
        std::vector<int64_t> out;
        for (int64_t v = 0; v < 4; ++v) out.push_back((b * 128 + t) * 4 + v);
        return out;
      },
      "scatter updates");
  ExpectMapMatchesWalk(
      k, k.indexing.thread_to_hero_operands[0][1], {1024, 1},
      [](int64_t t, int64_t b) {
        return std::vector<int64_t>{(b * 128 + t) * 4 / 128};
      },
      "scatter indices");
}

// The loop emitter: f32[131072] fills the RTX A6000 (1536 x 84 = 129024
// threads), so ComputeLoopFusionConfig unrolls gcd(131072, 4) = 4 with 128
// threads per block (CalculateLaunchDimensions): 256 blocks; thread t of
// block b writes (128 b + t) * 4 + u. On the H100 (2048 x 132 threads) the
// same output does not fill the device: no unroll, 1024 blocks.
TEST(EmitterIndexingTest, LoopUnrollFollowsTheDevice) {
  const std::string text = R"(
HloModule m
ENTRY e {
  p = f32[131072] parameter(0)
  ROOT n = f32[131072] negate(p)
})";
  mlir::MLIRContext context;
  Kernel a6000 = Analyze(text, &context);
  ASSERT_EQ(a6000.choice.kind, EmitterKind::kLoop);
  EXPECT_EQ(a6000.indexing.unroll, 4);
  EXPECT_EQ(a6000.indexing.grid.threads[0], 128);
  EXPECT_EQ(a6000.indexing.grid.blocks[0], 256);
  ExpectMapMatchesWalk(
      a6000, a6000.indexing.thread_to_outputs[0], {131072},
      [](int64_t t, int64_t b) {
        std::vector<int64_t> out;
        for (int64_t u = 0; u < 4; ++u) out.push_back((b * 128 + t) * 4 + u);
        return out;
      },
      "unrolled loop");
  absl::StatusOr<GpuDeviceDescription> h100 = FindGpuDevice("h100");
  ASSERT_TRUE(h100.ok());
  Kernel on_h100 = Analyze(text, &context, *h100);
  EXPECT_EQ(on_h100.indexing.unroll, 1);
  EXPECT_EQ(on_h100.indexing.grid.blocks[0], 1024);
}

// The loop emitter over a column-major output f32[7,300]{0,1}: thread t of
// block b writes physical element 128 b + t, i.e. logical (e % 7, e / 7).
// And s4 outputs are unrolled to whole bytes: ceil(8 / 4) = 2 elements per
// thread.
TEST(EmitterIndexingTest, LoopFollowsTheOutputLayout) {
  mlir::MLIRContext context;
  Kernel k = Analyze(R"(
HloModule m
ENTRY e {
  p = f32[7,300]{0,1} parameter(0)
  ROOT n = f32[7,300]{0,1} negate(p)
})",
                     &context);
  EXPECT_EQ(k.indexing.grid.blocks[0], 17);  // ceil(2100 / 128)
  // Physical offset of (i, j) in the {0,1} layout is j * 7 + i; RowMajor
  // over the reversed index gives it.
  auto walk = [](int64_t t, int64_t b) {
    const int64_t e = b * 128 + t;
    return e < 2100 ? std::vector<int64_t>{e} : std::vector<int64_t>{};
  };
  int64_t mismatches = 0;
  for (int64_t b = 0; b < 17; ++b) {
    for (int64_t t = 0; t < 128; ++t) {
      std::vector<int64_t> actual = MapSequence(
          k.indexing.thread_to_outputs[0], t, b,
          [](const std::vector<int64_t>& i) { return i[1] * 7 + i[0]; });
      if (actual != walk(t, b)) ++mismatches;
    }
  }
  EXPECT_EQ(mismatches, 0);
  Kernel s4 = Analyze(R"(
HloModule m
ENTRY e {
  p = f32[10] parameter(0)
  ROOT c = s4[10] convert(p)
})",
                      &context);
  EXPECT_EQ(s4.indexing.unroll, 2);
  EXPECT_EQ(s4.indexing.grid.threads[0], 5);
}

}  // namespace
}  // namespace xla_index
