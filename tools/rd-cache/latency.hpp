// Average memory access time (AMAT) from hit rates: the unloaded latency.
// Contention for the interconnect and DRAM is pipe-sim's (its bandwidth
// shares), not rd-cache's.
#pragma once

#include "libcommon/gpu_config.hpp"

namespace sasskit::rdcache {

struct LatencyModel {
  double l1 = 0, l2 = 0, dram = 0;  // hit latencies, cycles
};

LatencyModel latency_model(const GpuConfig& gpu);

// AMAT = L1 + m1 * (L2 + m2 * DRAM), m1 and m2 the L1 and L2 miss rates
// (sectors that bypass L1 count as L1 misses).
double amat(const LatencyModel& m, double l1_miss_rate, double l2_miss_rate);

}  // namespace sasskit::rdcache
