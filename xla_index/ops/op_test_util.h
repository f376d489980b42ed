#ifndef XLA_INDEX_OPS_OP_TEST_UTIL_H_
#define XLA_INDEX_OPS_OP_TEST_UTIL_H_

// The fixture of the indexing-rule tests: parse an HLO snippet and print
// the maps of its root in either direction, or build instructions by hand
// with attributes the parser would reject.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "hlo/attributes.h"
#include "hlo/instruction.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/indexing_analysis.h"

namespace xla_index {

/// Expected map text is written after a newline, for readability.
inline std::string Text(absl::string_view s) {
  if (!s.empty() && s.front() == '\n') s.remove_prefix(1);
  return std::string(s);
}

/// The printed maps of each set of `indexing`.
inline std::vector<std::vector<std::string>> Print(
    const HloInstructionIndexing& indexing) {
  std::vector<std::vector<std::string>> printed;
  for (const IndexingMapSet& set : indexing.indexing_maps) {
    printed.emplace_back();
    for (const IndexingMap& map : set) printed.back().push_back(ToString(map));
  }
  return printed;
}

class OpIndexingTest : public ::testing::Test {
 protected:
  // ---- Parsed HLO: the root of the entry computation. ----

  const HloInstruction* Parse(absl::string_view hlo) {
    auto module = ParseHloModule(hlo);
    EXPECT_TRUE(module.ok()) << module.status();
    if (!module.ok()) return nullptr;
    module_ = std::move(*module);
    return module_->entry_computation()->root();
  }
  /// The root's own rule (ComputeOutputToInputIndexing), output 0.
  std::vector<std::vector<std::string>> OutputToInput(absl::string_view hlo) {
    const HloInstruction* root = Parse(hlo);
    if (root == nullptr) return {};
    return Print(ComputeOutputToInputIndexing(root, 0, &context_));
  }
  /// The root's own rule (ComputeInputToOutputIndexing) for `input_id`.
  std::vector<std::vector<std::string>> InputToOutput(absl::string_view hlo,
                                                      int64_t input_id) {
    const HloInstruction* root = Parse(hlo);
    if (root == nullptr) return {};
    return Print(ComputeInputToOutputIndexing(root, input_id, &context_));
  }
  /// What `xla-index analyze` computes for the root (AnalyzeIndexing), per
  /// operand.
  std::vector<std::vector<std::string>> Analyze(absl::string_view hlo,
                                                IndexingDirection direction) {
    const HloInstruction* root = Parse(hlo);
    if (root == nullptr) return {};
    return Print(AnalyzeIndexing(*root, direction, &context_).indexing);
  }
  std::vector<std::vector<std::string>> AnalyzeOutputToInput(
      absl::string_view hlo) {
    return Analyze(hlo, IndexingDirection::kOutputToInput);
  }
  std::vector<std::vector<std::string>> AnalyzeInputToOutput(
      absl::string_view hlo) {
    return Analyze(hlo, IndexingDirection::kInputToOutput);
  }

  // ---- Instructions built by hand, without the parser's checks. ----

  HloInstruction* Add(HloOpcode opcode, Shape shape,
                      std::vector<HloInstruction*> operands) {
    auto instruction = std::make_unique<HloInstruction>(
        "i" + std::to_string(instructions_.size()), opcode,
        std::string(HloOpcodeName(opcode)));
    instruction->set_shape(std::move(shape));
    for (HloInstruction* operand : operands) {
      instruction->AppendOperand(operand);
    }
    instructions_.push_back(std::move(instruction));
    return instructions_.back().get();
  }
  HloInstruction* Parameter(std::vector<int64_t> dims) {
    return Add(HloOpcode::kParameter, Shape(PrimitiveType::kF32, dims), {});
  }
  /// Every operand's maps are exactly {UNDEFINED} in the output-to-input
  /// direction, and every map is UNDEFINED in the input-to-output direction
  /// for every input id, in range or not (both directions share the op's
  /// attribute check).
  void ExpectUndefined(const HloInstruction* instruction) {
    HloInstructionIndexing out_to_in =
        ComputeOutputToInputIndexing(instruction, 0, &context_);
    ASSERT_EQ(out_to_in.indexing_maps.size(), instruction->operand_count());
    for (const IndexingMapSet& set : out_to_in.indexing_maps) {
      ASSERT_EQ(set.size(), 1);
      EXPECT_TRUE(set[0].IsUndefined()) << ToString(set[0]);
    }
    for (int64_t k = -1; k <= instruction->operand_count(); ++k) {
      HloInstructionIndexing in_to_out =
          ComputeInputToOutputIndexing(instruction, k, &context_);
      for (const IndexingMapSet& set : in_to_out.indexing_maps) {
        for (const IndexingMap& map : set) {
          EXPECT_TRUE(map.IsUndefined())
              << "input " << k << ": " << ToString(map);
        }
      }
    }
  }

  /// dim_labels=bf0_oi0->bf0.
  static ConvolutionDimensionNumbers Bf0Labels() {
    ConvolutionDimensionNumbers dn;
    dn.input_batch_dimension = 0;
    dn.input_feature_dimension = 1;
    dn.input_spatial_dimensions = {2};
    dn.kernel_output_feature_dimension = 0;
    dn.kernel_input_feature_dimension = 1;
    dn.kernel_spatial_dimensions = {2};
    dn.output_batch_dimension = 0;
    dn.output_feature_dimension = 1;
    dn.output_spatial_dimensions = {2};
    return dn;
  }
  static Window OneDimWindow(int64_t size, int64_t stride) {
    Window window;
    window.dimensions.push_back(WindowDimension{});
    window.dimensions[0].size = size;
    window.dimensions[0].stride = stride;
    return window;
  }

  mlir::MLIRContext context_;
  std::unique_ptr<HloModule> module_;
  std::vector<std::unique_ptr<HloInstruction>> instructions_;
};

/// Parses and verifies `hlo` and applies `check` (an attribute check) to
/// the root of its entry computation: the checks accept every instruction
/// the verifier accepts.
template <typename Check>
void ExpectVerifiedRootPasses(absl::string_view hlo, Check check) {
  auto module = ParseAndVerifyHloModule(hlo);
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_TRUE(check((*module)->entry_computation()->root())) << hlo;
}

}  // namespace xla_index

#endif  // XLA_INDEX_OPS_OP_TEST_UTIL_H_
