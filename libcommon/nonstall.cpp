#include "nonstall.hpp"

#include <algorithm>

#include "libcommon/diag.hpp"

namespace sasskit {

UnitCounts& operator+=(UnitCounts& a, const UnitCounts& b) {
  for (size_t i = 0; i < kUnitClasses; ++i) a[i] += b[i];
  return a;
}

uint64_t total(const UnitCounts& c) {
  uint64_t n = 0;
  for (uint64_t x : c) n += x;
  return n;
}

NonStallModel::NonStallModel(const GpuConfig& gpu)
    : issue_rate_(std::max(1u, gpu.subcores_per_sm)), gpu_name_(gpu.name) {
  for (size_t i = 0; i < kUnitClasses; ++i) {
    const ExecUnit& u = gpu.units[i];
    units_[i] = double(u.count) * std::max(1u, gpu.subcores_per_sm) /
                std::max(1u, u.initiation_interval);
    latency_[i] = u.latency;
  }
}

double NonStallModel::cycles(const UnitCounts& counts) const {
  double worst = 0;
  for (size_t i = 0; i < kUnitClasses; ++i) {
    if (counts[i] == 0) continue;
    if (units_[i] <= 0)
      fail("the GPU model " + gpu_name_ + " has no " + unit_name(static_cast<UnitClass>(i)) +
           " units, but the kernel executes " + std::to_string(counts[i]) +
           " instructions of that class");
    const double c_i = double(counts[i]) / units_[i] + (latency_[i] - 1);  // Eq. 1
    worst = std::max(worst, c_i * units_[i] / std::min(units_[i], issue_rate_));  // Eq. 2
  }
  return worst;
}

}  // namespace sasskit
