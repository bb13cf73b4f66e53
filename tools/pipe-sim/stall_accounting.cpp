#include "stall_accounting.hpp"

#include <algorithm>

namespace sasskit::pipesim {

StallAccounting::StallAccounting(const SimOptions& opt, const KernelProgram& program,
                                 const std::vector<SubCorePort>& ports, const WarpTable& warps, SmResult& result)
    : opt_(opt),
      prog_(program),
      ports_(ports),
      warps_(warps),
      res_(result),
      scheds_(ports.size()) {}

// Runs every cycle for every scheduler: kept small enough to inline, with
// the rarely used --trace-stalls rows out of line.
inline void StallAccounting::record(unsigned subcore, uint64_t cycle, const Attribution& a, uint64_t count) {
  auto& c = res_.counters;
  c.stall_type[static_cast<size_t>(a.type)] += count;
  c.stall_event[static_cast<size_t>(a.event)] += count;
  bool blame = a.direct != StallEvent::None && a.direct != StallEvent::NoActiveWarp;
  uint32_t pc = scheds_[subcore].latest.pc[static_cast<size_t>(a.direct)];
  if (blame) res_.pc_stalls[static_cast<size_t>(a.type)][pc] += count;
  if (opt_.trace_stalls) trace_rows(subcore, cycle, a, blame ? prog_.pcs[pc] : 0, blame, count);
}

void StallAccounting::trace_rows(unsigned subcore, uint64_t cycle, const Attribution& a, uint64_t pc, bool blame,
                                 uint64_t count) {
  for (uint64_t i = 0; i < count && res_.trace.size() < opt_.trace_stalls_limit; ++i)
    res_.trace.push_back(StallTraceRow{cycle + i, uint8_t(subcore), false, a, pc, blame});
}

void StallAccounting::account_cycle(uint64_t cycle) {
  const unsigned subcores = static_cast<unsigned>(ports_.size());  // read once: the loop's stores may alias it
  latest_warps_ = warps_.resident_warps();
  count_cycles(1);
  for (unsigned i = 0; i < subcores; ++i) account_scheduler(i, cycle);
}

void StallAccounting::count_cycles(uint64_t n) {
  auto& c = res_.counters;
  c.sched_cycles += n * ports_.size();
  c.warp_cycles += n * latest_warps_;
}

inline void StallAccounting::account_scheduler(unsigned subcore, uint64_t cycle) {
  const SubCorePort& port = ports_[subcore];
  SchedulerState& sched = scheds_[subcore];
  sched.history.push(port.events);
  sched.latest = port.events;
  sched.latest_resident = !warps_.heads().by_age(subcore).empty();
  if (port.issued) {
    if (opt_.trace_stalls && res_.trace.size() < opt_.trace_stalls_limit)
      res_.trace.push_back(StallTraceRow{cycle, uint8_t(subcore), true, {}, prog_.pcs[port.issued_pc], true});
    return;
  }
  record(subcore, cycle, sched.history.attribute_latest(sched.latest_resident), 1);
}

void StallAccounting::account_repeated_cycles(uint64_t from, uint64_t to) {
  if (to <= from) return;
  count_cycles(to - from);
  const unsigned subcores = static_cast<unsigned>(ports_.size());  // read once: the loop's stores may alias it
  for (unsigned i = 0; i < subcores; ++i) repeat_scheduler(i, from, to);
}

// After two repeated cycles a scheduler's three-cycle history is uniform,
// so the rest repeat one attribution. The warps are counted as they were in
// the last accounted cycle: a streak accounts its runs after the cycle
// that ends them has changed the warp table.
inline void StallAccounting::repeat_scheduler(unsigned subcore, uint64_t from, uint64_t to) {
  SchedulerState& sched = scheds_[subcore];
  uint64_t cycle = from;
  for (; cycle < to && cycle < from + 2; ++cycle) {
    sched.history.push(sched.latest);
    record(subcore, cycle, sched.history.attribute_latest(sched.latest_resident), 1);
  }
  if (cycle < to) record(subcore, cycle, sched.history.attribute_latest(sched.latest_resident), to - cycle);
}

void StallAccounting::begin_streak(uint64_t from) {
  streak_from_ = from;
  for (SchedulerState& sched : scheds_) sched.repeats_from = from;
}

void StallAccounting::account_streak_cycle(uint64_t cycle, uint16_t kinds) {
  const unsigned subcores = static_cast<unsigned>(ports_.size());
  for (unsigned i = 0; i < subcores; ++i) {
    SchedulerState& sched = scheds_[i];
    const SubCorePort& port = ports_[i];
    if (!port.issued && port.events.same_in(sched.latest, kinds)) continue;  // the others are as they were
    repeat_scheduler(i, sched.repeats_from, cycle);
    account_scheduler(i, cycle);
    sched.repeats_from = cycle + 1;
  }
}

void StallAccounting::end_streak(uint64_t to) {
  if (to <= streak_from_) return;
  count_cycles(to - streak_from_);
  for (unsigned i = 0; i < ports_.size(); ++i) repeat_scheduler(i, scheds_[i].repeats_from, to);
}

uint64_t StallAccounting::traceable_until(uint64_t from) const {
  if (!opt_.trace_stalls) return kNever;
  size_t room = opt_.trace_stalls_limit - std::min(res_.trace.size(), opt_.trace_stalls_limit);
  return from + room / ports_.size();
}

}  // namespace sasskit::pipesim
