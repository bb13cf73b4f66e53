// Merging the SMs of a kernel into its stats record as each one ends.
#pragma once

#include <array>
#include <vector>

#include "formats/stats_record.hpp"
#include "sm.hpp"

namespace sasskit::pipesim {

// A kernel's SMs, added in any order as they end, merged into what its
// stats record needs: memory holds the merged columns, not every SM's.
class SmMerge {
 public:
  SmMerge() = default;
  // `pcs`: the kernel's KernelProgram::pcs; `sms`: its KernelPlan::sms.
  SmMerge(size_t pcs, size_t sms);
  // The SM at `position` of the kernel's SMs.
  void add(size_t position, const SmResult& r);
  // Fills counters, per-SM (in the kernel's SM order) and per-PC columns
  // and the projection; the caller sets identity, timeline and sources.
  void finish(const KernelProgram& program, KernelStats& out) const;

 private:
  SimCounters total_;
  std::vector<SmStats> per_sm_;
  std::vector<uint64_t> insts_;                            // per pc
  std::array<std::vector<uint64_t>, kStallTypes> stalls_;  // per stall type, per pc
  Projection projection_;
};

}  // namespace sasskit::pipesim
