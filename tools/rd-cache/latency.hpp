// Average memory access time (AMAT) from hit rates, with a queueing term
// when the demanded bandwidth exceeds the interconnect's or DRAM's.
#pragma once

#include <cstdint>

#include "libcommon/gpu_config.hpp"

namespace sasskit::rdcache {

struct LatencyModel {
  double l1 = 0, l2 = 0, dram = 0;  // hit latencies, cycles
  double noc_queue = 0;             // added to every L2 access
  double dram_queue = 0;            // added to every DRAM access
};

// The queueing terms. The trace has no timing, so the kernel's duration is
// bounded below by issue: T0 = issue_cycles (max over SMs of warp
// instructions / sub-cores). Moving `bytes` at `bytes_per_cycle` takes
// T = bytes / bytes_per_cycle; when T > T0 requests arrive faster than they
// are served and the queue grows steadily: a request waits (T - T0) / 2
// cycles on average (a fluid queue filled at a constant rate over T0).
// A bandwidth of 0 in the model means unlimited.
LatencyModel latency_model(const GpuConfig& gpu, uint64_t issue_cycles, uint64_t noc_bytes,
                           uint64_t dram_bytes);

// AMAT = L1 + m1 * (L2 + Qnoc + m2 * (DRAM + Qdram)), m1 and m2 the L1 and L2
// miss rates (sectors that bypass L1 count as L1 misses).
double amat(const LatencyModel& m, double l1_miss_rate, double l2_miss_rate);

}  // namespace sasskit::rdcache
