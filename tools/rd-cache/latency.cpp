#include "latency.hpp"

#include <algorithm>

namespace sasskit::rdcache {

namespace {

double queue_wait(uint64_t issue_cycles, uint64_t bytes, double per_cycle) {
  if (per_cycle <= 0) return 0;
  const double transfer = double(bytes) / per_cycle;
  return std::max(0.0, transfer - double(issue_cycles)) / 2;
}

}  // namespace

LatencyModel latency_model(const GpuConfig& gpu, uint64_t issue_cycles, uint64_t noc_bytes,
                           uint64_t dram_bytes) {
  LatencyModel m;
  m.l1 = gpu.l1d.latency;
  m.l2 = gpu.l2.latency;
  m.dram = gpu.dram_latency;
  m.noc_queue = queue_wait(issue_cycles, noc_bytes, gpu.l2_bytes_per_cycle());
  m.dram_queue = queue_wait(issue_cycles, dram_bytes, gpu.dram_bytes_per_cycle());
  return m;
}

double amat(const LatencyModel& m, double l1_miss_rate, double l2_miss_rate) {
  return m.l1 + l1_miss_rate * (m.l2 + m.noc_queue + l2_miss_rate * (m.dram + m.dram_queue));
}

}  // namespace sasskit::rdcache
