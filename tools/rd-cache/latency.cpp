#include "latency.hpp"

namespace sasskit::rdcache {

LatencyModel latency_model(const GpuConfig& gpu) {
  return LatencyModel{double(gpu.l1d.latency), double(gpu.l2.latency), double(gpu.dram_latency)};
}

double amat(const LatencyModel& m, double l1_miss_rate, double l2_miss_rate) {
  return m.l1 + l1_miss_rate * (m.l2 + l2_miss_rate * m.dram);
}

}  // namespace sasskit::rdcache
