#ifndef XLA_INDEX_ANALYSIS_COALESCING_H_
#define XLA_INDEX_ANALYSIS_COALESCING_H_

// Memory coalescing of a loop fusion's reads, one warp at a time.
//
// For each operand of the fusion, each output and each of its
// output-to-input maps for that output, the thread-to-offset map is
//   (thread, block ids) -> output element        (gpu_launch_grid.h)
//                       -> operand element       (the fusion's map)
//                       -> memory offset         (the operand's layout)
// and it is evaluated at the 32 consecutive threads x of one warp (block
// `block`, threads warp * 32 ... warp * 32 + 31), for every unroll element.
// Range variables of the operand map (e.g. the reduced dimension) are loop
// iterations: the warp is analyzed at iteration 0, their lower bound.
// Runtime variables (dynamic offsets) take a representative value, the
// lower bound of their feasible values. A thread whose point fails the map's
// constraints (past the output's end, outside a concatenate operand's slab,
// in padding) reads nothing.
//
// From the element offsets and the element size b bits, an element o
// covers the bytes [o * b / 8, ceil((o + 1) * b / 8)); the union of these is
// the warp's set of touched bytes, reported as maximal contiguous ranges. A
// transaction of T bytes (T = 32, 64, 128) is a T-aligned segment; the warp
// needs one per segment that holds a touched byte, against the minimum
// ceil(bytes touched / T) for the same number of bytes. The efficiency is
// minimum / transactions for T = 32 (the sector size of the memory system).
// The warp's reads are "coalesced" when they need the minimum number of
// 32-byte transactions, or when they form one contiguous range (then only
// alignment costs the extra sector).
//
// A multi-output (tuple) root is one loop over its outputs, which must have
// one element count: the same threads write every output, each through its
// own thread -> output map.
//
// Limits: a warp's analysis evaluates warp_size x unroll points per read;
// more than kMaxWarpEvaluations is refused up front. Offsets whose bytes do
// not fit in int64 (outputs or operands of close to 2^63 elements) are an
// error naming the operand, never wrapped.
//
// With a device (CoalescingOptions::device), the kernel runs on the emitter
// XLA picks for it (emitter_choice.h) with that emitter's launch and thread
// maps (emitter_indexing.h) instead: a reduction's input is read as the
// reduction emitter reads it (a warp along the row, vectorized), a
// transpose's through its 32 x 32 tiles, a library kernel (dot,
// convolution, GEMM custom-call, Triton fusion) has no reads at all
// (`library`). The analyzed points are the same: the warp's threads, the
// innermost range variable (the unroll or vector element: every map puts it
// last) over its range, the other range variables at their lower bound.
//
// Each read also gets XLA's own verdict (IsIndexingCoalesced's
// EstimateCoalescingViaMemoryTransactionsCount) on XLA's sample of the
// warp: the innermost range variable with more than one value varies (XLA
// folds single-value symbols away first), the others sit at their lower
// bound. That variable may be a reduced dimension of millions of
// iterations: its offsets come from one period of the map in it
// (warp_iteration_sample.h), and a sample that needs more than
// max_sample_points evaluations is reported as not decided. The touched
// elements as maximal contiguous intervals; transactions = the sum over
// intervals of ceil(length x bytes / 128), lower bound = ceil(total x bytes /
// 128); coalesced when lower bound > 0.9 x transactions. The intervals here are
// exact (every point evaluated) where XLA's Partition/FindContiguousIntervals
// approximates them from the map's expression.
//
// Example: f32 elementwise, row-major: 32 threads read offsets 0..31, bytes
// [0, 128): 4 transactions of 32 bytes, minimum 4, efficiency 1, coalesced.
// A slice with stride 2 reads offsets 0, 2, ..., 62: 32 ranges of 4 bytes
// over [0, 252), 8 sectors against a minimum of 4: efficiency 0.5, not
// coalesced.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlo/instruction.h"
#include "hlo/module.h"
#include "hlo/shape.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/analysis/gpu_device.h"
#include "xla_index/analysis/gpu_launch_grid.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

/// Most points (threads x unroll elements) one warp's read is evaluated at;
/// AnalyzeCoalescing refuses options that need more.
inline constexpr int64_t kMaxWarpEvaluations = int64_t{1} << 22;

struct CoalescingOptions {
  /// Threads per block; the launch uses fewer when the output is small.
  int64_t threads_per_block = 128;
  /// Elements per thread (warp_size x unroll <= kMaxWarpEvaluations).
  int64_t unroll = 1;
  /// The analyzed warp: block id x and warp number within the block.
  int64_t block = 0;
  int64_t warp = 0;
  int64_t warp_size = 32;
  /// The launch, when the caller knows it (e.g. from its own emitter);
  /// otherwise DefaultLoopLaunchGrid from threads_per_block and unroll.
  /// The loop map uses x only: y and z must be 1, every extent >= 1, and
  /// blocks.x * threads.x * unroll must fit in int64. A grid that covers
  /// fewer elements than the output leaves the rest unwritten; threads past
  /// the output write nothing.
  std::optional<LaunchGrid> grid;
  /// When set, analyze on XLA's emitter for this device (file comment);
  /// `grid` is then ignored. threads_per_block and unroll apply to the
  /// loop emitter only when block_given / unroll_given say the caller set
  /// them (the CLI's --block, --unroll), else XLA's choice is used.
  std::optional<GpuDeviceDescription> device;
  bool block_given = false;
  bool unroll_given = false;
  /// Most points XLA's sample of one read may evaluate (warp threads x
  /// iterations of one period of the varied range variable, see
  /// warp_iteration_sample.h); past it the rule is not decided.
  int64_t max_sample_points = int64_t{1} << 20;
};

/// XLA's 128-byte transaction rule over a warp's touched elements (see the
/// file comment).
struct XlaTransactionRule {
  /// False when the sample's offsets could not be decided within
  /// CoalescingOptions::max_sample_points; the numbers below are then 0 and
  /// `coalesced` is false but means nothing.
  bool decided = true;
  /// Map evaluations spent on the sample (one per thread and iteration of
  /// one period of the varied variable, plus listed progression points).
  int64_t points_evaluated = 0;
  int64_t intervals = 0;
  int64_t transactions = 0;
  int64_t lower_bound = 0;
  bool coalesced = true;
};

/// The rule for element offsets (duplicates allowed) of
/// `bits_per_element` bits (ceil(bits / 8) bytes each, as XLA's
/// ByteSizeOfPrimitiveType).
XlaTransactionRule SummarizeXlaTransactionRule(
    absl::Span<const int64_t> offsets, int64_t bits_per_element);

/// The same for distinct offsets given as their maximal runs of
/// consecutive offsets (XLA's contiguous intervals): run length -> how many
/// runs have it.
XlaTransactionRule SummarizeXlaTransactionRuleOfRunLengths(
    const std::map<int64_t, int64_t>& run_lengths, int64_t bits_per_element);

/// The bytes [begin, end).
struct ByteRange {
  int64_t begin = 0;
  int64_t end = 0;
  bool operator==(const ByteRange& o) const {
    return begin == o.begin && end == o.end;
  }
};

/// Transactions of `size` bytes a warp needs, and the minimum for its bytes.
struct TransactionCount {
  int64_t size = 0;
  int64_t count = 0;
  int64_t minimum = 0;
};

/// The memory traffic of one warp's set of touched element offsets.
struct WarpMemoryAccess {
  int64_t distinct_elements = 0;
  int64_t bytes_touched = 0;
  std::vector<ByteRange> byte_ranges;
  /// For 32, 64 and 128 bytes, in that order.
  std::vector<TransactionCount> transactions;
  /// transactions[0].minimum / transactions[0].count (1 when nothing is read).
  double efficiency = 1.0;
  bool coalesced = true;
};

/// The traffic of the elements at `offsets` (in elements, duplicates
/// allowed) of `bits_per_element` bits each; see the file comment. Byte
/// offsets saturate at the int64 limits (AnalyzeCoalescing rejects such
/// offsets before calling this).
WarpMemoryAccess SummarizeWarpAccess(absl::Span<const int64_t> offsets,
                                     int64_t bits_per_element);

/// One read of the fusion: operand `operand` through map `map_index` of
/// output `output`.
struct OperandCoalescing {
  int64_t operand = 0;
  std::string operand_name;
  Shape operand_shape;
  /// The output (tuple element) whose elements this read computes.
  int64_t output = 0;
  int64_t map_index = 0;
  /// False when the map is UNDEFINED (no indexing rule) or the layout is
  /// invalid; `reason` says which. The numbers below are then unset.
  bool analyzed = true;
  std::string reason;
  /// (thread, block ids)[operand range vars, unroll element, runtime vars]
  /// -> memory offset in elements.
  IndexingMap thread_to_offset = IndexingMap::Undefined();
  int64_t bits_per_element = 0;
  /// Threads of the warp that read at least one element.
  int64_t active_threads = 0;
  WarpMemoryAccess access;
  /// XLA's verdict on the same points.
  XlaTransactionRule xla_rule;
};

struct CoalescingReport {
  std::string root_name;
  /// Output 0, and all outputs (one unless the root is a tuple).
  Shape output_shape;
  std::vector<Shape> output_shapes;
  LaunchGrid grid;
  CoalescingOptions options;
  /// Thread x ids of the analyzed warp: [first_thread, last_thread].
  int64_t first_thread = 0;
  int64_t last_thread = 0;
  /// The thread map of output 0, and of every output.
  IndexingMap thread_to_output = IndexingMap::Undefined();
  std::vector<IndexingMap> thread_to_outputs;
  std::vector<OperandCoalescing> operands;
  /// The device, emitter and why (with a device; else "" and "loop").
  std::string device;
  std::string emitter = "loop";
  std::string emitter_reason;
  /// How the launch was chosen (with a device).
  std::string launch_note;
  /// Elements of the innermost range variable per thread (the unroll
  /// factor or vector size).
  int64_t unroll = 1;
  /// A library kernel: no emitter thread map, `operands` is empty.
  bool library = false;
};

/// Coalescing of every operand read of `instruction`, analyzed as a loop
/// fusion (xla_index/analysis/fusion_operands.h: a fusion instruction
/// through its fused computation, any other instruction composed back to its
/// computation's parameters), for every output. InvalidArgument for bad
/// options (block or warp outside the launch grid, sizes < 1, more than
/// kMaxWarpEvaluations points), outputs that are not arrays or differ in
/// element count, or offsets that overflow int64 (naming the operand).
absl::StatusOr<CoalescingReport> AnalyzeCoalescing(
    const HloInstruction& instruction, const CoalescingOptions& options,
    mlir::MLIRContext* context);

/// The same for the root of `module`'s entry computation.
absl::StatusOr<CoalescingReport> AnalyzeCoalescing(
    const HloModule& module, const CoalescingOptions& options,
    mlir::MLIRContext* context);

/// The same for a kernel already analyzed (fusion_operands.h), so that a
/// caller that also needs its maps composes them once.
absl::StatusOr<CoalescingReport> AnalyzeCoalescing(
    const AnalyzedFusion& fusion, const CoalescingOptions& options,
    mlir::MLIRContext* context);

/// Text for people: the launch, the thread map, then per operand read the
/// thread-to-offset map, the byte ranges, transactions, efficiency and
/// verdict.
std::string CoalescingReportToText(const CoalescingReport& report);

/// "coalesced", "not coalesced", "not read by this warp" (no thread of the
/// warp reads through the map, e.g. another concatenate operand's slab) or
/// "not analyzed".
std::string CoalescingVerdict(const OperandCoalescing& read);

/// One line of JSON:
///   {"root": NAME, "output_shape": "f32[..]{..}",
///    "launch": {"threads": [x, y, z], "blocks": [x, y, z], "unroll": U},
///    "warp": {"block": B, "warp": W, "first_thread": T0, "last_thread": T1},
///    "device": D, "emitter": E, "emitter_reason": R, "launch_note": N,
///    "library": false,
///    "thread_to_output": MAP, "output_shapes": [S, ...],
///    "thread_to_outputs": [MAP, ...],
///    "operands": [{"operand": K, "name": N, "shape": S, "output": J,
///      "map_index": I,
///      "analyzed": true, "reason": "", "thread_to_offset": MAP,
///      "bits_per_element": 32, "active_threads": 32,
///      "distinct_elements": 32, "bytes_touched": 128,
///      "byte_ranges": [[0, 128]], "transactions": [{"size": 32,
///      "count": 4, "minimum": 4}, ...], "efficiency": 1,
///      "coalesced": true, "verdict": "coalesced",
///      "xla_rule": {"decided": true, "points_evaluated": 32, "intervals": 1,
///      "transactions": 1, "lower_bound": 1, "coalesced": true}}, ...]}
/// MAP in IndexingMapToJson's shape; byte ranges are half-open [begin, end).
std::string CoalescingReportToJson(const CoalescingReport& report);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_COALESCING_H_
