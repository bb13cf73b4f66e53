#include "formats/metrics.hpp"

#include <algorithm>
#include <numeric>

namespace sasskit {

double Metrics::stall_cycles() const { return std::accumulate(stall_type.begin(), stall_type.end(), 0.0); }

double share(double part, double whole) { return whole > 0 ? part / whole : 0; }

const char* sampling_method_name(SamplingMethod m) { return m == SamplingMethod::Check ? "check" : "limits"; }

double sample_scale(const KernelSample* sample) {
  return sample && sample->sample_insts > 0 ? double(sample->kernel_insts) / double(sample->sample_insts) : 1.0;
}

namespace {

// What a cache record's counts are scaled by: by the sample's scale when
// they are the kept CTAs' (rd-cache after cta-sample, or a record before
// 2.6, which does not say), by nothing when they are every CTA's (rd-cache
// before cta-sample).
double cache_scale(const KernelCacheModel& cache, const KernelSample* sample) {
  return sample && cache.ctas && *cache.ctas == sample->kernel_ctas ? 1.0 : sample_scale(sample);
}

template <size_t N>
void add_scaled(std::array<double, N>& to, const std::array<uint64_t, N>& from, double s) {
  for (size_t i = 0; i < N; ++i) to[i] += double(from[i]) * s;
}

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

// The weighted sum of an optional metric, when every kernel has it.
std::optional<double> weighted_sum_if_all(const std::vector<WeightedMetrics>& kernels,
                                          std::optional<double> Metrics::*metric) {
  if (kernels.empty()) return std::nullopt;
  double sum = 0;
  for (const auto& [m, w] : kernels) {
    if (!(m->*metric)) return std::nullopt;
    sum += *(m->*metric) * w;
  }
  return sum;
}

// The kept SMs' simulated instructions and scheduler cycles.
std::vector<KeptSm> kept_sms(const KernelStats& ks) {
  std::vector<KeptSm> kept;
  for (const SmStats& s : ks.per_sm) kept.push_back({s.sm, double(s.c.insts), double(s.c.sched_cycles)});
  return kept;
}

}  // namespace

Metrics kernel_metrics(const KernelStats& ks, const KernelCacheModel* cache, const KernelSample* sample) {
  const SimCounters& t = ks.total;
  const double scale = sample_scale(sample);
  Metrics m;
  m.sampled = sample != nullptr;
  if (sample) {
    const std::optional<double> checked = check_sampling_error(*sample, kept_sms(ks));
    m.sampling_method = checked ? SamplingMethod::Check : SamplingMethod::Limits;
    m.sampling_error = checked ? checked : sample->sampling_error;
  }
  m.projection_error = ks.projection.error_frac;
  m.cycles = double(ks.cycles);
  uint64_t insts = ks.projection.applied ? ks.projection.projected_insts : t.insts;
  m.instructions = double(insts) * scale;
  m.sm_cycles = double(t.sm_cycles) * scale;
  m.occupancy = t.achieved_occupancy();
  m.mem_requests = double(t.mem_requests) * scale;
  // Traffic below L1 from the cache record where there is one.
  const double traffic_scale = cache ? cache_scale(*cache, sample) : scale;
  m.l2_sectors = double(cache ? cache->l2_bound_sectors : t.l2_sectors) * traffic_scale;
  if (cache ? cache->l2_bound_write_sectors.has_value() : ks.l2_writes_known)
    m.l2_write_sectors = double(cache ? *cache->l2_bound_write_sectors : t.l2_write_sectors) * traffic_scale;
  m.dram_read_sectors = double(cache ? cache->dram_read_sectors : t.dram_read_sectors) * traffic_scale;
  m.dram_write_sectors = double(cache ? cache->dram_write_sectors : t.dram_write_sectors) * traffic_scale;
  m.smem_conflict_cycles = double(t.smem_conflict_cycles) * scale;
  add_scaled(m.stall_type, t.stall_type, scale);
  add_scaled(m.stall_event, t.stall_event, scale);
  for (size_t u = 0; u < kUnitClasses; ++u) {
    m.unit_busy[u] = double(t.units[u].busy_cycles) * scale;
    m.unit_insts[u] = double(t.units[u].insts) * scale;
  }
  if (cache) {
    m.l1_hit_rate = cache->l1_hit_rate;
    m.l2_hit_rate = cache->l2_hit_rate;
    m.gmem_requests = double(cache->gmem_requests) * traffic_scale;
  } else if (t.mem_requests > 0) {
    m.l1_hit_rate = 1 - double(t.l1d_misses) / double(t.mem_requests);
  }
  return m;
}

Metrics application_totals(const std::vector<WeightedMetrics>& kernels) {
  Metrics t;
  WeightedMean occupancy, l1, l2;
  std::optional<double> projection_off;  // cycles
  std::vector<SampledCycles> scheduler_cycles;
  for (const auto& [m, w] : kernels) {
    t.cycles += m->cycles * w;
    t.instructions += m->instructions * w;
    t.sm_cycles += m->sm_cycles * w;
    add_weighted(t.stall_type, m->stall_type, w);
    add_weighted(t.stall_event, m->stall_event, w);
    add_weighted(t.unit_busy, m->unit_busy, w);
    add_weighted(t.unit_insts, m->unit_insts, w);
    occupancy.add(m->occupancy, w);
    t.mem_requests += m->mem_requests * w;
    t.l2_sectors += m->l2_sectors * w;
    t.dram_read_sectors += m->dram_read_sectors * w;
    t.dram_write_sectors += m->dram_write_sectors * w;
    t.smem_conflict_cycles += m->smem_conflict_cycles * w;
    l1.add(m->l1_hit_rate, m->mem_requests * w);
    l2.add(m->l2_hit_rate, m->mem_requests * w);
    scheduler_cycles.push_back({(m->instructions + m->stall_cycles()) * w, m->sampled, m->sampling_error});
    if (m->projection_error) projection_off = projection_off.value_or(0) + *m->projection_error * m->cycles * w;
  }
  // Global memory requests only when every kernel has them (a cache record),
  // and the L2 writes when every kernel's record splits them.
  t.gmem_requests = weighted_sum_if_all(kernels, &Metrics::gmem_requests);
  t.l2_write_sectors = weighted_sum_if_all(kernels, &Metrics::l2_write_sectors);
  t.occupancy = occupancy.get().value_or(0);
  t.l1_hit_rate = l1.get();
  t.l2_hit_rate = l2.get();
  t.sampled = std::any_of(kernels.begin(), kernels.end(), [](const WeightedMetrics& k) { return k.m->sampled; });
  t.sampling_error = combined_sampling_error(scheduler_cycles);
  const bool checked = std::all_of(kernels.begin(), kernels.end(), [](const WeightedMetrics& k) {
    return !k.m->sampled || k.m->sampling_method == SamplingMethod::Check;
  });
  t.sampling_method = t.sampled && checked ? SamplingMethod::Check : SamplingMethod::Limits;
  if (projection_off) t.projection_error = share(*projection_off, t.cycles);
  return t;
}

}  // namespace sasskit
