#include "kernel_stats.hpp"

#include <algorithm>

namespace sasskit::pipesim {

SmMerge::SmMerge(size_t pcs, size_t sms) : per_sm_(sms), insts_(pcs, 0) {
  for (auto& col : stalls_) col.assign(pcs, 0);
}

void SmMerge::add(size_t position, const SmResult& r) {
  total_.add(r.counters);
  per_sm_[position] = SmStats{r.sm, r.counters};
  for (size_t i = 0; i < insts_.size(); ++i) {
    insts_[i] += r.pc_insts[i];
    for (size_t t = 0; t < kStallTypes; ++t) stalls_[t][i] += r.pc_stalls[t][i];
  }
  Projection& pr = projection_;
  pr.applied |= r.projected;
  pr.simulated_cycles = std::max(pr.simulated_cycles, r.cycles);
  pr.projected_cycles = std::max(pr.projected_cycles, r.projected_cycles);
  pr.simulated_insts += r.simulated_insts;
  pr.projected_insts += r.trace_insts;
  pr.unfinished_ctas += r.unfinished_ctas;
}

void SmMerge::finish(const KernelProgram& program, KernelStats& out) const {
  out.total = total_;
  out.per_sm = per_sm_;
  out.projection = projection_;
  for (size_t i = 0; i < insts_.size(); ++i) {
    bool seen = insts_[i] > 0;
    for (size_t t = 0; t < kStallTypes && !seen; ++t) seen = stalls_[t][i] > 0;
    if (!seen) continue;
    out.per_pc.pc.push_back(program.pcs[i]);
    out.per_pc.insts.push_back(insts_[i]);
    for (size_t t = 0; t < kStallTypes; ++t) out.per_pc.stall_type[t].push_back(stalls_[t][i]);
  }
  out.cycles = projection_.projected_cycles;
}

}  // namespace sasskit::pipesim
