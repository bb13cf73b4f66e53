#include "kernel_stats.hpp"

#include <algorithm>

namespace sasskit::pipesim {

void merge_sm_results(const KernelProgram& program, const std::vector<SmResult>& sms, KernelStats& out) {
  size_t npc = program.pcs.size();
  std::vector<uint64_t> insts(npc, 0);
  std::array<std::vector<uint64_t>, kStallTypes> stalls;
  for (auto& col : stalls) col.assign(npc, 0);
  Projection& pr = out.projection;
  for (const SmResult& r : sms) {
    out.total.add(r.counters);
    out.per_sm.push_back(SmStats{r.sm, r.counters});
    for (size_t i = 0; i < npc; ++i) {
      insts[i] += r.pc_insts[i];
      for (size_t t = 0; t < kStallTypes; ++t) stalls[t][i] += r.pc_stalls[t][i];
    }
    pr.applied |= r.projected;
    pr.simulated_cycles = std::max(pr.simulated_cycles, r.cycles);
    pr.projected_cycles = std::max(pr.projected_cycles, r.projected_cycles);
    pr.simulated_insts += r.simulated_insts;
    pr.projected_insts += r.trace_insts;
    pr.unfinished_ctas += r.unfinished_ctas;
  }
  for (size_t i = 0; i < npc; ++i) {
    bool seen = insts[i] > 0;
    for (size_t t = 0; t < kStallTypes && !seen; ++t) seen = stalls[t][i] > 0;
    if (!seen) continue;
    out.per_pc.pc.push_back(program.pcs[i]);
    out.per_pc.insts.push_back(insts[i]);
    for (size_t t = 0; t < kStallTypes; ++t) out.per_pc.stall_type[t].push_back(stalls[t][i]);
  }
  out.cycles = pr.projected_cycles;
}

}  // namespace sasskit::pipesim
