#include "bench/hlo/dump_style_module.h"

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"

namespace xla_index {
namespace {

// The activations flowing through the layers: f32[B, H] with a row-major
// layout, written as XLA prints shapes in dumps.
constexpr char kAct[] = "f32[256,1024]{1,0}";
constexpr char kRow[] = "f32[256]{0}";
constexpr char kWeight[] = "f32[1024,1024]{1,0}";

// metadata={...} as JAX writes it: op type, a long op name, and the Python
// source position. `line` varies so that no two lines are identical.
std::string Metadata(const char* op_type, int64_t layer, int64_t line) {
  return absl::StrCat(
      ", metadata={op_type=\"", op_type,
      "\" op_name=\"jit(train_step)/jit(main)/transformer/layer_", layer, "/",
      op_type,
      "\" source_file=\"/workspace/model/transformer/layers.py\" "
      "source_line=",
      line, " source_end_line=", line + 2, " source_column=8}");
}

// A fusion's backend_config: JSON with nested objects, arrays and quoted
// strings, and the scheduling annotation XLA's GPU passes add.
std::string FusionAttributes(int64_t id) {
  return absl::StrCat(
      ", frontend_attributes={_scheduling_group_id=\"", id % 7,
      "\",_xla_stream_annotation=\"0\"}, backend_config={\"operation_queue_"
      "id\":\"0\",\"wait_on_operation_queues\":[],\"fusion_backend_config\":"
      "{\"kind\":\"__loop\",\"block_level_fusion_config\":{\"num_warps\":\"4\""
      ",\"output_tiles\":[{\"sizes\":[\"1\",\"1024\"]}]}},"
      "\"force_earliest_schedule\":false,\"reification_cost\":[]}");
}

// Fused computations of layer `k`: a bias-add + gelu-like elementwise body,
// and a row reduction (sum) with its reducer.
void AppendFusedComputations(int64_t k, std::string& text) {
  absl::StrAppend(
      &text, "%fused_bias_act.", k, " (param_0.", k, ": ", kAct, ", param_1.",
      k, ": f32[1024]) -> ", kAct, " {\n", "  %param_0.", k, " = ", kAct,
      " parameter(0)\n", "  %param_1.", k, " = f32[1024]{0} parameter(1)\n",
      "  %broadcast.b", k, " = ", kAct, " broadcast(f32[1024]{0} %param_1.", k,
      "), dimensions={1}", Metadata("add", k, 100 + k), "\n", "  %add.b", k,
      " = ", kAct, " add(", kAct, " %param_0.", k, ", ", kAct, " %broadcast.b",
      k, ")", Metadata("add", k, 101 + k), "\n", "  %tanh.b", k, " = ", kAct,
      " tanh(", kAct, " %add.b", k, ")", Metadata("tanh", k, 102 + k), "\n",
      "  ROOT %multiply.b", k, " = ", kAct, " multiply(", kAct, " %add.b", k,
      ", ", kAct, " %tanh.b", k, ")", Metadata("mul", k, 103 + k), "\n}\n\n");
  absl::StrAppend(
      &text, "%region_add.", k, " (x.", k, ": f32[], y.", k,
      ": f32[]) -> f32[] {\n", "  %x.", k, " = f32[] parameter(0)\n", "  %y.",
      k, " = f32[] parameter(1)\n", "  ROOT %sum.", k, " = f32[] add(f32[] %x.",
      k, ", f32[] %y.", k, ")\n}\n\n", "%fused_row_sum.", k, " (param_0.r", k,
      ": ", kAct, ") -> ", kRow, " {\n", "  %param_0.r", k, " = ", kAct,
      " parameter(0)\n", "  %constant.r", k, " = f32[] constant(0)\n",
      "  ROOT %reduce.r", k, " = ", kRow, " reduce(", kAct, " %param_0.r", k,
      ", f32[] %constant.r", k, "), dimensions={1}, to_apply=%region_add.", k,
      Metadata("reduce_sum", k, 110 + k), "\n}\n\n");
}

// The instructions of layer `k` inside the while body, reading and writing
// the running activation `%act.<k>`: a gemm custom-call, the bias fusion,
// the row reduction and a normalization. 9 instructions.
void AppendLayer(int64_t k, const JaxDumpStyle& style, std::string& text) {
  std::string prev = absl::StrCat("%act.", k);
  std::string next = absl::StrCat("%act.", k + 1);
  absl::StrAppend(
      &text, "  %gemm.", k, " = ", kAct, " custom-call(", kAct, " ", prev, ", ",
      kWeight,
      " %w.body), custom_call_target=\"__cublas$gemm\", "
      "api_version=API_VERSION_STATUS_RETURNING",
      Metadata("dot_general", k, 200 + k),
      ", backend_config={\"gemm_backend_config\":{\"alpha_real\":1,"
      "\"beta\":0,\"dot_dimension_numbers\":{\"lhs_contracting_dimensions\":"
      "[\"1\"],\"rhs_contracting_dimensions\":[\"0\"]}}}\n");
  absl::StrAppend(&text, "  %bias_act.", k, " = ", kAct, " fusion(", kAct,
                  " %gemm.", k,
                  ", f32[1024]{0} %bias.body), kind=kLoop, "
                  "calls=%fused_bias_act.",
                  k, Metadata("fusion", k, 210 + k), FusionAttributes(k), "\n");
  absl::StrAppend(&text, "  %row_sum.", k, " = ", kRow, " fusion(", kAct,
                  " %bias_act.", k, "), kind=kInput, calls=%fused_row_sum.", k,
                  Metadata("fusion", k, 220 + k), FusionAttributes(k + 1),
                  "\n");
  absl::StrAppend(
      &text, "  %scale.", k, " = f32[] constant(0.0009765625)\n", "  %scale_b.",
      k, " = ", kRow, " broadcast(f32[] %scale.", k,
      style.scalar_broadcast_without_dimensions ? ")\n" : "), dimensions={}\n",
      "  %mean.", k, " = ", kRow, " multiply(", kRow, " %row_sum.", k, ", ",
      kRow, " %scale_b.", k, ")", Metadata("mul", k, 230 + k), "\n");
  absl::StrAppend(
      &text, "  %mean_b.", k, " = ", kAct, " broadcast(", kRow, " %mean.", k,
      "), dimensions={0}", Metadata("broadcast_in_dim", k, 231 + k), "\n",
      "  %centered.", k, " = ", kAct, " subtract(", kAct, " %bias_act.", k,
      ", ", kAct, " %mean_b.", k, ")", Metadata("sub", k, 232 + k), "\n", "  ",
      next, " = ", kAct, " add(", kAct, " ", prev, ", ", kAct, " %centered.", k,
      ")", Metadata("add", k, 233 + k), "\n");
}

// The tuple carried by the while loop: the step counter, the activation,
// the weight and the bias.
std::string LoopStateShape() {
  return absl::StrCat("(s32[], ", kAct, ", ", kWeight, ", f32[1024]{0})");
}

// The stack-frame index JAX writes before the computations: one file, a
// function per layer, and per layer a location and a frame whose parent is
// the previous layer's.
void AppendStackFrameTables(int64_t layers, std::string& text) {
  absl::StrAppend(&text, "FileNames\n1 \"/workspace/model/transformer/",
                  "layers.py\"\n\nFunctionNames\n");
  for (int64_t k = 1; k <= layers; ++k) {
    absl::StrAppend(&text, k, " \"layer_", k, "\"\n");
  }
  absl::StrAppend(&text, "\nFileLocations\n");
  for (int64_t k = 1; k <= layers; ++k) {
    absl::StrAppend(&text, k, " {file_name_id=1 function_name_id=", k,
                    " line=", 200 + k, " end_line=", 202 + k,
                    " column=8 end_column=40}\n");
  }
  absl::StrAppend(&text, "\nStackFrames\n");
  for (int64_t k = 1; k <= layers; ++k) {
    absl::StrAppend(&text, k, " {file_location_id=", k,
                    " parent_frame_id=", k - 1, "}\n");
  }
  text += "\n";
}

// Per layer: 9 instructions in the body and 10 in its fused computations.
constexpr int64_t kInstructionsPerLayer = 19;

}  // namespace

std::string MakeDumpStyleModule(int64_t instruction_count,
                                const JaxDumpStyle& style) {
  const int64_t layers = instruction_count / kInstructionsPerLayer > 0
                             ? instruction_count / kInstructionsPerLayer
                             : 1;
  const std::string state = LoopStateShape();
  std::string text =
      style.colon_header
          ? std::string("HloModule jit_train_step:\n\n")
          : absl::StrCat(
                "HloModule jit_train_step, is_scheduled=true, "
                "entry_computation_layout={(",
                kAct, ", ", kWeight, ", f32[1024]{0})->", kAct,
                "}, input_output_alias={ {}: (0, {}, may-alias) }, "
                "frontend_attributes={fingerprint_before_lhs=\"3f0c9a\"}"
                "\n\n");
  if (style.stack_frames) AppendStackFrameTables(layers, text);
  for (int64_t k = 0; k < layers; ++k) AppendFusedComputations(k, text);

  // The loop condition: step < 10.
  absl::StrAppend(&text, "%cond (cond_state: ", state, ") -> pred[] {\n",
                  "  %cond_state = ", state, " parameter(0)\n",
                  "  %step.c = s32[] get-tuple-element(", state,
                  " %cond_state), index=0\n", "  %limit = s32[] constant(10)\n",
                  "  ROOT %lt = pred[] compare(s32[] %step.c, s32[] %limit), "
                  "direction=LT\n}\n\n");

  // The loop body: every layer once, then the next state.
  absl::StrAppend(&text, "%body (body_state: ", state, ") -> ", state, " {\n",
                  "  %body_state = ", state, " parameter(0)\n",
                  "  %step.b = s32[] get-tuple-element(", state,
                  " %body_state), index=0\n", "  %act.0 = ", kAct,
                  " get-tuple-element(", state, " %body_state), index=1\n",
                  "  %w.body = ", kWeight, " get-tuple-element(", state,
                  " %body_state), index=2\n",
                  "  %bias.body = f32[1024]{0} get-tuple-element(", state,
                  " %body_state), index=3\n");
  for (int64_t k = 0; k < layers; ++k) AppendLayer(k, style, text);
  absl::StrAppend(&text, "  %one = s32[] constant(1)\n",
                  "  %step.next = s32[] add(s32[] %step.b, s32[] %one)\n",
                  "  ROOT %next_state = ", state, " tuple(s32[] %step.next, ",
                  kAct, " %act.", layers, ", ", kWeight, " %w.body, ",
                  "f32[1024]{0} %bias.body)\n}\n\n");

  // The entry: build the state, run the loop, return the activation.
  absl::StrAppend(&text, "ENTRY %main.1 (x: ", kAct, ", w: ", kWeight,
                  ", b: f32[1024]) -> ", kAct, " {\n", "  %x = ", kAct,
                  " parameter(0), sharding={replicated}", Metadata("x", 0, 1),
                  "\n", "  %w = ", kWeight, " parameter(1)",
                  Metadata("w", 0, 2), "\n", "  %b = f32[1024]{0} parameter(2)",
                  Metadata("b", 0, 3), "\n", "  %zero = s32[] constant(0)\n",
                  "  %init = ", state, " tuple(s32[] %zero, ", kAct, " %x, ",
                  kWeight, " %w, f32[1024]{0} %b)\n", "  %loop = ", state,
                  " while(", state,
                  " %init), condition=%cond, body=%body, "
                  "backend_config={\"known_trip_count\":{\"n\":\"10\"}}",
                  Metadata("while", 0, 4), "\n", "  ROOT %out = ", kAct,
                  " get-tuple-element(", state, " %loop), index=1\n}\n");
  return text;
}

}  // namespace xla_index
