#include "xla_index/analysis/gpu_device.h"

#include <cctype>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace xla_index {
namespace {

GpuDeviceDescription MakeDevice(std::string name, int64_t sms,
                                int64_t threads_per_sm) {
  GpuDeviceDescription d;
  d.name = std::move(name);
  d.core_count = sms;
  d.threads_per_core_limit = threads_per_sm;
  d.threads_per_block_limit = 1024;
  d.threads_per_warp = 32;
  d.shared_memory_per_block = 48 * 1024;
  d.block_dim_limit_x = 2147483647;
  return d;
}

// Lower case without spaces, dashes and underscores: "RTX A6000" and
// "rtx-a6000" name the same device.
std::string Canonical(absl::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == ' ' || c == '-' || c == '_') continue;
    out.push_back(
        static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

}  // namespace

const std::vector<GpuDeviceDescription>& BuiltinGpuDevices() {
  static const auto* devices = new std::vector<GpuDeviceDescription>{
      MakeDevice("RTX A6000", 84, 1536),
      MakeDevice("H100", 132, 2048),
  };
  return *devices;
}

const GpuDeviceDescription& DefaultGpuDevice() {
  return BuiltinGpuDevices()[0];
}

absl::StatusOr<GpuDeviceDescription> FindGpuDevice(absl::string_view name) {
  const std::string wanted = Canonical(name);
  const std::vector<GpuDeviceDescription>& devices = BuiltinGpuDevices();
  if (wanted == "a6000" || wanted == "rtxa6000") return devices[0];
  if (wanted == "h100" || wanted == "h100sxm") return devices[1];
  std::vector<std::string> names;
  for (const GpuDeviceDescription& d : devices) names.push_back(d.name);
  return absl::NotFoundError(absl::StrCat(
      "unknown device '", name, "'; known: ", absl::StrJoin(names, ", ")));
}

std::string GpuDeviceToString(const GpuDeviceDescription& d) {
  return absl::StrCat(d.name, ": ", d.core_count, " SMs, ",
                      d.threads_per_core_limit, " threads/SM, ",
                      d.threads_per_block_limit, " threads/block, warp ",
                      d.threads_per_warp, ", sector ", d.sector_bytes,
                      " B, cache line ", d.cache_line_bytes,
                      " B, DRAM transaction ", d.dram_transaction_bytes, " B");
}

}  // namespace xla_index
