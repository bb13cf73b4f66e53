#include "libcommon/launch_rules.hpp"

#include <cmath>

namespace sasskit {

SharingOptions gpu_sharing(const GpuConfig& gpu, bool serial_kernels) {
  return SharingOptions{.launch_latency = gpu.kernel_launch_latency,
                        .kernel_fixed_cycles = gpu.kernel_fixed_cycles,
                        .cta_launch_latency = gpu.cta_launch_latency,
                        .cta_dispatch_rate = gpu.cta_dispatch_rate,
                        .max_concurrent_kernels = gpu.max_concurrent_kernels,
                        .serial_kernels = serial_kernels,
                        .sm_capacity = sm_capacity(gpu)};
}

std::optional<uint64_t> LaunchRules::launch_at(uint64_t not_before, uint64_t stream_end, std::vector<uint64_t> ends,
                                               size_t pending) const {
  const uint64_t ready = std::max(not_before, stream_end + s_.launch_latency);
  std::erase_if(ends, [&](uint64_t end) { return end <= ready; });
  const size_t running = ends.size() + pending;
  const unsigned limit = s_.max_concurrent_kernels;
  if (limit == 0 || running < limit) return ready;
  const size_t need = running - limit + 1;  // kernels that must end first
  if (ends.size() < need) return std::nullopt;
  std::nth_element(ends.begin(), ends.begin() + std::ptrdiff_t(need - 1), ends.end());
  return ends[need - 1];
}

uint64_t LaunchRules::dispatch_at(uint64_t launch, uint64_t cta) const {
  const double rate = s_.cta_dispatch_rate;
  return launch + s_.kernel_fixed_cycles + (rate > 0 ? static_cast<uint64_t>(std::ceil(double(cta) / rate)) : 0);
}

}  // namespace sasskit
