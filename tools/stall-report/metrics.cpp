#include "metrics.hpp"

#include <algorithm>
#include <numeric>

namespace sasskit::stallreport {

double Metrics::stall_cycles() const { return std::accumulate(stall_type.begin(), stall_type.end(), 0.0); }

std::string application_name(bool projected) { return projected ? "(application, projected)" : "(application)"; }

double share(double part, double whole) { return whole > 0 ? part / whole : 0; }

namespace {

template <size_t N>
void add_weighted(std::array<double, N>& to, const std::array<double, N>& from, double w) {
  for (size_t i = 0; i < N; ++i) to[i] += from[i] * w;
}

// Average of an optional per-kernel rate, weighted; empty when no kernel has it.
struct WeightedMean {
  double sum = 0, weight = 0;
  void add(const std::optional<double>& v, double w) {
    if (v) sum += *v * w, weight += w;
  }
  std::optional<double> get() const { return weight > 0 ? std::optional<double>(sum / weight) : std::nullopt; }
};

}  // namespace

Metrics application_totals(const std::vector<KernelReport>& kernels) {
  Metrics t;
  WeightedMean occupancy, l1, l2;
  for (const KernelReport& k : kernels) {
    const Metrics& m = k.m;
    double w = k.weight;
    t.cycles += m.cycles * w;
    t.instructions += m.instructions * w;
    t.sm_cycles += m.sm_cycles * w;
    add_weighted(t.stall_type, m.stall_type, w);
    add_weighted(t.stall_event, m.stall_event, w);
    add_weighted(t.unit_busy, m.unit_busy, w);
    add_weighted(t.unit_insts, m.unit_insts, w);
    occupancy.add(m.occupancy, w);
    t.mem_requests += m.mem_requests * w;
    l1.add(m.l1_hit_rate, m.mem_requests * w);
    l2.add(m.l2_hit_rate, m.mem_requests * w);
  }
  // Global memory requests only when every kernel has them (a cache record).
  if (!kernels.empty() && std::all_of(kernels.begin(), kernels.end(), [](const KernelReport& k) { return k.m.gmem_requests.has_value(); })) {
    t.gmem_requests = 0;
    for (const KernelReport& k : kernels) *t.gmem_requests += *k.m.gmem_requests * k.weight;
  }
  t.occupancy = occupancy.get().value_or(0);
  t.l1_hit_rate = l1.get();
  t.l2_hit_rate = l2.get();
  t.sampled = std::any_of(kernels.begin(), kernels.end(), [](const KernelReport& k) { return k.m.sampled; });
  t.sampling_error = combined_sampling_error(kernels);
  return t;
}

std::optional<double> combined_sampling_error(const std::vector<KernelReport>& kernels) {
  std::vector<SampledCycles> parts;
  for (const KernelReport& k : kernels)
    parts.push_back({(k.m.instructions + k.m.stall_cycles()) * k.weight, k.m.sampled, k.m.sampling_error});
  return sasskit::combined_sampling_error(parts);
}

}  // namespace sasskit::stallreport
