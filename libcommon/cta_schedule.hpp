// Which SM runs each CTA of a kernel, and when it starts: modeled here,
// replayed from a log by cta-sample. One implementation shared by
// cta-sample, rd-cache and pipe-sim.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "libcommon/gpu_config.hpp"

namespace sasskit {

enum class SchedPolicyKind : uint8_t { RoundRobin, Greedy, Wave };

// CTAs are numbered by their linear index x + y*gx + z*gx*gy ("launch order").
struct KernelSchedule {
  uint32_t kernel_id = 0;
  std::string policy;          // "round-robin", "greedy", "wave", or "replay:FILE"
  std::vector<uint32_t> sm;    // per CTA
  std::vector<uint64_t> start; // per CTA, predicted start cycle
  bool operator==(const KernelSchedule&) const = default;
};

// The modeled schedule of `num_ctas` CTAs with `ctas_per_sm` resident at
// once (from occupancy()). `cta_cycles` (optional, one per CTA) is each CTA's
// predicted duration; without it every CTA counts as one unit of time.
KernelSchedule model_schedule(const GpuConfig& gpu, uint32_t kernel_id, uint32_t num_ctas,
                              unsigned ctas_per_sm, SchedPolicyKind policy,
                              const std::vector<uint64_t>& cta_cycles = {});

}  // namespace sasskit
