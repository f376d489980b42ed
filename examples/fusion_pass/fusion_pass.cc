// A small "fusion pass" built against xla_index as a library: it reads an
// HLO module as XLA dumps it, picks a fusion of the entry computation that is
// not its root, and prints what a pass author would ask of it: the indexing
// maps of its operands, the coalescing verdict of each read and the tile of
// each operand for an output tile.
//
//   fusion_pass MODULE.hlo [FUSION_NAME] [--tile=8,16]
//
// Without FUSION_NAME it takes the first fusion that is not the entry root.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/xla_index.h"

namespace {

int Fail(const std::string& what, const absl::Status& status) {
  std::fprintf(stderr, "fusion_pass: %s: %s\n", what.c_str(),
               std::string(status.message()).c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path, fusion_name, tile = "8,16";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (absl::StartsWith(arg, "--tile=")) {
      tile = arg.substr(7);
    } else {
      (path.empty() ? path : fusion_name) = arg;
    }
  }
  if (path.empty()) {
    std::fprintf(stderr,
                 "usage: fusion_pass MODULE.hlo [FUSION] [--tile=..]\n");
    return 1;
  }
  std::ifstream file(path);
  if (!file) return Fail(path, absl::NotFoundError("cannot open the file"));
  std::stringstream text;
  text << file.rdbuf();

  // The context owns the affine expressions of every map below: it must
  // outlive them (docs/API.md).
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  auto module = xla_index::ParseAndVerifyHloModule(text.str());
  if (!module.ok()) return Fail(path, module.status());
  const xla_index::HloComputation* entry = (*module)->entry_computation();

  const xla_index::HloInstruction* fusion = nullptr;
  for (const auto& instruction : entry->instructions()) {
    if (instruction->opcode() != xla_index::HloOpcode::kFusion) continue;
    if (fusion_name.empty() ? instruction.get() != entry->root_instruction()
                            : instruction->name() == fusion_name) {
      fusion = instruction.get();
      break;
    }
  }
  if (fusion == nullptr) {
    return Fail(path, absl::NotFoundError("no fusion " +
                                          (fusion_name.empty()
                                               ? std::string("besides the root")
                                               : "named " + fusion_name)));
  }
  std::printf("fusion %s\n\n", fusion->name().c_str());

  // 1. Output-to-input maps of every operand, through the fused computation
  // ("operand id = K" and the maps, as `xla-index analyze` prints them).
  xla_index::HloInstructionIndexing indexing =
      xla_index::ComputeOutputToInputIndexing(fusion, 0, &context);
  std::ostringstream maps;
  maps << indexing;
  std::printf("%s\n", maps.str().c_str());

  // 2 and 3. The analyses take the fusion itself (docs/API.md, "Analyzing
  // any fusion"); the module is left as it is.
  auto coalescing = xla_index::AnalyzeCoalescing(
      *fusion, xla_index::CoalescingOptions(), &context);
  if (!coalescing.ok()) return Fail("coalescing", coalescing.status());
  for (const xla_index::OperandCoalescing& read : coalescing->operands) {
    std::printf("coalescing: operand %lld (%s): %s, efficiency %.2f\n",
                static_cast<long long>(read.operand), read.operand_name.c_str(),
                xla_index::CoalescingVerdict(read).c_str(),
                read.access.efficiency);
  }

  auto sizes = xla_index::ParseTileSizes(tile);
  if (!sizes.ok()) return Fail("argument", sizes.status());
  auto tiling = xla_index::AnalyzeTiling(*fusion, *sizes, &context);
  if (!tiling.ok()) return Fail("tile", tiling.status());
  std::printf("\ntile %s:\n%s", tile.c_str(),
              xla_index::TileReportToText(*tiling).c_str());
  return 0;
}
