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
  // The evaluated cycle, from what the sub-cores' ports saw in it. This and
  // account_repeated_cycles are flattened: the attribution they make for
  // each scheduler is the bulk of their work, and LTO leaves it a call.
  [[gnu::flatten]] void account_cycle(uint64_t cycle);
  // Cycles [from, to) in which every scheduler sees the events of the last
  // accounted cycle again (quiet cycles).
  [[gnu::flatten]] void account_repeated_cycles(uint64_t from, uint64_t to);

  // A latch streak (SmSim::run_latch_streak) from cycle `from` on, the
  // cycle before it accounted: in its cycles only the events of the set
  // `kinds` can change, no scheduler issues and the warps stay as they
  // are (a scheduler that did issue is accounted as account_cycle would).
  // Each scheduler's cycles are accounted one by one where its events
  // changed, and between those as runs of repeated cycles; the counts are
  // the same as account_cycle's for every cycle.
  void begin_streak(uint64_t from);
  [[gnu::flatten]] void account_streak_cycle(uint64_t cycle, uint16_t kinds);
  // The streak's cycles before `to` are all accounted.
  void end_streak(uint64_t to);
  // The end of the cycles from `from` on whose --trace-stalls rows all fit
  // under the limit (kNever without --trace-stalls): accounted in any
  // order, they make the same trace once sorted.
  uint64_t traceable_until(uint64_t from) const;

 private:
  // The SM's totals of `n` cycles: scheduler cycles, and warp cycles at
  // the warps of the last accounted cycle.
  void count_cycles(uint64_t n);
  // One scheduler's part of account_cycle and account_repeated_cycles.
  void account_scheduler(unsigned subcore, uint64_t cycle);
  void repeat_scheduler(unsigned subcore, uint64_t from, uint64_t to);
  void record(unsigned subcore, uint64_t cycle, const Attribution& a, uint64_t count);
  [[gnu::noinline]] void trace_rows(unsigned subcore, uint64_t cycle, const Attribution& a, uint64_t pc, bool blame,
                                    uint64_t count);

  const SimOptions& opt_;
  const KernelProgram& prog_;
  const std::vector<SubCorePort>& ports_;
  const WarpTable& warps_;
  SmResult& res_;
  // Per sub-core: its scheduler's event history and, of the last accounted
  // cycle, its events and whether it held warps (together: all of it is
  // read for each sub-core in each accounted cycle).
  struct SchedulerState {
    EventHistory history;
    CycleEvents latest;
    bool latest_resident = false;
    uint64_t repeats_from = 0;  // in a streak: its cycles from here on repeat `latest`
  };
  std::vector<SchedulerState> scheds_;
  uint64_t streak_from_ = 0;
  uint32_t latest_warps_ = 0;  // the SM's resident warps in the last accounted cycle
};

}  // namespace sasskit::pipesim
