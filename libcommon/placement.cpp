#include "libcommon/placement.hpp"

#include <cmath>

#include "libcommon/diag.hpp"

namespace sasskit {

unsigned resident_ctas(const GpuConfig& gpu, const KernelToPlace& k) {
  const Occupancy occ = occupancy(gpu, k.cta);
  if (occ.ctas_per_sm == 0)
    throw Error(ExitCode::Failure, k.where,
                k.label + " cannot run on " + gpu.name + ": one CTA (" + std::to_string(k.cta.threads) +
                    " threads, " + std::to_string(k.cta.regs_per_thread) + " registers per thread, " +
                    std::to_string(k.cta.smem_bytes) + " bytes of shared memory) exceeds what an SM offers in " +
                    occ.limiter);
  return occ.ctas_per_sm;
}

uint64_t predicted_cta_cycles(const NonStallModel& model, const UnitCounts& counts) {
  return static_cast<uint64_t>(std::ceil(model.cycles(counts)));
}

std::vector<uint64_t> predicted_cycles_by_id(const NonStallModel& model, const UnitCountsTable& table) {
  std::vector<uint64_t> cycles;
  cycles.reserve(table.size());
  for (uint32_t id = 0; id < table.size(); ++id) cycles.push_back(predicted_cta_cycles(model, table[id]));
  return cycles;
}

Placement::Placement(const GpuConfig& gpu, SchedPolicyKind policy, bool serial_kernels)
    : gpu_(gpu), policy_(policy), rules_(gpu_sharing(gpu, serial_kernels)), scheduler_(gpu.num_sms, rules_.sharing()) {}

KernelSchedule Placement::place(const KernelToPlace& k, const KernelSchedule* recorded,
                                const std::vector<uint64_t>& cta_cycles) {
  if (recorded) {
    if (recorded->sm.size() != k.grid_ctas)
      fail_input("sched record of kernel " + std::to_string(k.id),
                 "places " + std::to_string(recorded->sm.size()) + " CTAs; the grid has " +
                     std::to_string(k.grid_ctas));
    return *recorded;
  }
  const auto num_ctas = static_cast<uint32_t>(cta_cycles.size());
  return scheduler_.schedule(
      KernelLaunch{k.id, k.stream_id, num_ctas, resident_ctas(gpu_, k), cta_cycles, cta_load(gpu_, k.cta)}, policy_);
}

}  // namespace sasskit
