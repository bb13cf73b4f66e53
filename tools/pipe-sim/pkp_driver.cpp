#include "pkp_driver.hpp"

#include <algorithm>

#include "bandwidth_arbiter.hpp"

namespace sasskit::pipesim {
namespace {

uint64_t step_cycles(const PkpOptions& pkp) {
  constexpr uint64_t window = BandwidthArbiter::kWindow;
  if (!pkp.enabled) return window;
  uint64_t interval = Pkp(pkp, {}, 1).interval(), step = 1;
  for (uint64_t d = 1; d <= std::min(interval, window); ++d)
    if (window % d == 0) step = d;
  return step;
}

// PKP's view of a kernel's work: per SM, the trace's warp instructions of
// each CTA in launch order.
std::vector<std::vector<uint64_t>> cta_insts(const KernelPlan& p) {
  std::vector<std::vector<uint64_t>> out;
  for (const SmWork& work : p.sms) {
    std::vector<uint64_t>& sm = out.emplace_back();
    for (uint32_t c : work.ctas) sm.push_back(work.source.insts(c));
  }
  return out;
}

// PKP for a kernel; without --pkp one that never stops, spared the walk
// over its CTAs.
Pkp kernel_pkp(const KernelPlan& p) {
  if (!p.sim.pkp.enabled) return Pkp(p.sim.pkp, {}, 1);
  return Pkp(p.sim.pkp, cta_insts(p), p.sim.ctas_per_sm,
             ChipMemory{p.sim.gpu.l2_bytes_per_cycle(), p.sim.gpu.dram_bytes_per_cycle(),
                        double(p.sim.gpu.l2.size_bytes)});
}

}  // namespace

SmProgress progress_of(const SmSim& sim) {
  const MovedBytes moved = sim.moved();
  return {sim.simulated_insts(), sim.finished_ctas(), moved.l2, moved.dram, sim.insts_left_per_warp(),
          moved.l2_reads, moved.l2_read_misses};
}

PkpDriver::PkpDriver(const std::vector<KernelPlan>& plans, const PkpOptions& pkp, size_t segments)
    : step_(step_cycles(pkp)), error_(plans.size()), final_(segments) {
  for (const KernelPlan& p : plans) {
    pkps_.push_back(kernel_pkp(p));
    enabled_.push_back(p.sim.pkp.enabled);
  }
}

void PkpDriver::forget(const std::vector<size_t>& segments) {
  for (size_t i : segments) final_[i] = {};
}

std::optional<uint64_t> PkpDriver::step(size_t kernel, uint64_t since, const std::vector<SmProgress>& sms) {
  const std::optional<PkpStop> stop = pkps_[kernel].step(since, sms);
  if (!stop) return std::nullopt;
  error_[kernel] = stop->error_frac;
  return stop->remaining_cycles;
}

}  // namespace sasskit::pipesim
