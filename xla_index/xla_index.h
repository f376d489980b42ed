#ifndef XLA_INDEX_XLA_INDEX_H_
#define XLA_INDEX_XLA_INDEX_H_

// Everything a fusion pass needs from xla_index, in one include (Bazel
// //xla_index:xla_index or //:xla_index, CMake xla_index::xla_index):
//
//  - HLO: ParseAndVerifyHloModule (hlo/parser.h), HloModule, HloComputation
//    (root_instruction()), HloInstruction, Shape;
//  - indexing maps: IndexingMap (with undefined_reason()), Interval,
//    ComposeIndexingMaps, the text format (ToString, ParseIndexingMap,
//    operator<<) and IndexingMapToJson;
//  - indexing of one instruction: ComputeOutputToInputIndexing,
//    ComputeInputToOutputIndexing, HloInstructionIndexing (operator<<),
//    fusion composition (fusion_indexing.h), AnalyzeIndexing, and a producer
//    as if fused into its consumer (ComputeProducerConsumerIndexing);
//  - analyses of any fusion: AnalyzeFusionOperands, AnalyzeCoalescing,
//    AnalyzeUtilization, AnalyzeTiling, the GPU launch grid and operand
//    utilization.
//
// The names are those of XLA's indexing analysis where XLA has them, in
// namespace xla_index (docs/API.md, "Porting from XLA").

#include "hlo/instruction.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "hlo/shape.h"
#include "xla_index/analysis/coalescing.h"
#include "xla_index/analysis/emitter_choice.h"
#include "xla_index/analysis/emitter_indexing.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/analysis/fusion_utilization.h"
#include "xla_index/analysis/gpu_device.h"
#include "xla_index/analysis/gpu_launch_grid.h"
#include "xla_index/analysis/operand_utilization.h"
#include "xla_index/analysis/read_coalesced_heuristic.h"
#include "xla_index/analysis/symbolic_tile.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/core/interval.h"
#include "xla_index/fusion_indexing.h"
#include "xla_index/indexing_analysis.h"
#include "xla_index/input_to_output_indexing.h"
#include "xla_index/ops/instruction_indexing.h"
#include "xla_index/output_to_input_indexing.h"
#include "xla_index/producer_consumer_indexing.h"

#endif  // XLA_INDEX_XLA_INDEX_H_
