#ifndef XLA_INDEX_ANALYSIS_GPU_DEVICE_H_
#define XLA_INDEX_ANALYSIS_GPU_DEVICE_H_

// Descriptions of the GPUs the emitter model (emitter_choice.h,
// emitter_indexing.h) and the coalescing verdicts (coalescing.h) are
// computed for: the numbers XLA's emitters read from its DeviceDescription
// (stream_executor/device_description.h), plus the memory-system sizes the
// verdicts count in.
//
// Built in (`--device=NAME`, case-insensitive, spaces or dashes alike):
//   "RTX A6000" (alias "a6000"): the device of XLA's GPU model tests
//       (TestGpuDeviceInfo::RTXA6000DeviceInfo): 84 SMs, 1536 threads/SM.
//   "H100" (alias "h100-sxm"): XLA's h100_sxm target spec: 132 SMs, 2048
//       threads/SM.
// Both: 1024 threads per block, 32-thread warps, 48 KiB shared memory per
// block, block_dim_limit.x 2^31 - 1, 32-byte sectors, 128-byte L1 cache
// lines and the 64-byte DRAM->L2 transaction of
// DeviceDescription::dram_to_l2_transaction_size_bytes for NVIDIA GPUs.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace xla_index {

struct GpuDeviceDescription {
  std::string name;
  /// Streaming multiprocessors (XLA's core_count).
  int64_t core_count = 0;
  int64_t threads_per_block_limit = 0;
  /// Resident threads per SM (XLA's threads_per_core_limit).
  int64_t threads_per_core_limit = 0;
  int64_t threads_per_warp = 0;
  int64_t shared_memory_per_block = 0;
  int64_t block_dim_limit_x = 0;
  /// Memory-system granules in bytes: the L2 sector a warp's load is counted
  /// in (coalescing.h's sector efficiency), the L1 cache line, and the
  /// DRAM->L2 transaction.
  int64_t sector_bytes = 32;
  int64_t cache_line_bytes = 128;
  int64_t dram_transaction_bytes = 64;
};

/// The built-in devices, RTX A6000 first (the default).
const std::vector<GpuDeviceDescription>& BuiltinGpuDevices();

/// The RTX A6000 of XLA's tests: the device used when none is named.
const GpuDeviceDescription& DefaultGpuDevice();

/// The built-in device called `name` (see the file comment); NotFound
/// listing the known names otherwise.
absl::StatusOr<GpuDeviceDescription> FindGpuDevice(absl::string_view name);

/// One line: "RTX A6000: 84 SMs, 1536 threads/SM, ...".
std::string GpuDeviceToString(const GpuDeviceDescription& device);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_GPU_DEVICE_H_
