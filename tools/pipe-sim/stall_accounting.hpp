// The stall breakdown as each sub-core's scheduler sees it: every cycle
// either issued an instruction or is charged to one root stall type by
// HyFiSS Algorithm 1 over the last three cycles' events (stall.hpp), and to
// the PC that the stall's direct event blocked.
#pragma once

#include <cstdint>
#include <vector>

#include "ports.hpp"
#include "program.hpp"
#include "sm_result.hpp"
#include "warp_table.hpp"

namespace sasskit::pipesim {

class StallAccounting {
 public:
  StallAccounting(const SimOptions& opt, const KernelProgram& program, const std::vector<SubCorePort>& ports,
                  const WarpTable& warps, SmResult& result);
  // The evaluated cycle, from what the sub-cores' ports saw in it.
  void account_cycle(uint64_t cycle);
  // Cycles [from, to) in which nothing changed: every scheduler sees the
  // events of the last evaluated cycle again.
  void account_quiet_cycles(uint64_t from, uint64_t to);

 private:
  void record(unsigned subcore, uint64_t cycle, const Attribution& a, uint64_t count);
  [[gnu::noinline]] void trace_rows(unsigned subcore, uint64_t cycle, const Attribution& a, uint64_t pc, bool blame,
                                    uint64_t count);

  const SimOptions& opt_;
  const KernelProgram& prog_;
  const std::vector<SubCorePort>& ports_;
  const WarpTable& warps_;
  SmResult& res_;
  std::vector<EventHistory> history_;  // per sub-core
};

}  // namespace sasskit::pipesim
