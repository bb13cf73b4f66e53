#include "scheduler.hpp"

#include <algorithm>

namespace sasskit::pipesim {

IssueScan::IssueScan(Scheduler& s, unsigned subcore, uint32_t excluded_unit)
    : s_(s), subcore_(subcore), excluded_unit_(excluded_unit) {}

void IssueScan::exclusion_lifts_next_cycle() {
  wake_at(now() + 1);
  s_.clock_.progressed();
}

bool IssueScan::saturated(unsigned u) {
  int8_t& known = unit_free_[u];
  if (known == 0) {
    known = s_.unit_free(subcore_, static_cast<UnitClass>(u)) ? 1 : -1;
    if (known < 0 && u != static_cast<unsigned>(UnitClass::Ldst))
      for (uint64_t t : s_.ports_[subcore_].pipe_free_at(static_cast<UnitClass>(u))) wake_at(t - kIssueToDispatch);
  }
  return known < 0;
}

uint32_t IssueScan::free_collector() {
  if (!cu_known_) {
    free_cu_ = s_.ports_[subcore_].free_collector();
    cu_known_ = true;
  }
  return free_cu_;
}

// The structural hazard that keeps a ready head from issuing this cycle, or None.
StallEvent IssueScan::structural_stall(const Head& h) {
  if (h.unit == excluded_unit_) {
    exclusion_lifts_next_cycle();
    return StallEvent::IssueExclusion;
  }
  if (saturated(h.unit)) return StallEvent::UnitSaturation;
  return free_collector() != kNone ? StallEvent::None : StallEvent::NoCollector;
}

bool IssueScan::consider(uint32_t w) {
  const Head& h = warps().head(w);
  switch (h.kind) {
    case Head::Kind::Empty:
      return false;
    case Head::Kind::Barrier:
      saw_instruction_ = true;
      events_.add(StallEvent::Barrier, false, h.pc_index);
      return false;
    default:
      break;
  }
  if (h.ready > now()) {
    wake_at(h.ready);
    return false;
  }
  saw_instruction_ = true;
  if (h.kind == Head::Kind::Blocked) {
    events_.add(StallEvent::DataDependence, h.on_load, h.pc_index);
    return false;
  }
  StallEvent stall = structural_stall(h);
  if (stall != StallEvent::None) {
    events_.add(stall, h.mem, h.pc_index);
    return false;
  }
  issue(w, free_cu_);
  return true;
}

// Moves the warp's head instruction into collector `cu`.
void IssueScan::issue(uint32_t w, uint32_t cu) {
  Scheduler& s = s_;
  const DecodedInst& d = s.prog_.insts[s.warps_.head(w).inst];
  Op op = s.target_.issue(subcore_, w, cu);
  Scheduler::SubCoreScheduler& sc = s.subcores_[subcore_];
  sc.policy->issued(s.warps_, w);
  sc.last_unit = static_cast<uint32_t>(d.op.unit);
  sc.last_issue = now();
  SubCorePort& port = s.ports_[subcore_];
  port.issued = true;
  port.issued_pc = d.pc_index;
  s.clock_.progressed();

  auto& c = s.counters_;
  ++c.insts;
  c.thread_insts += active_lanes(op.mask);
  if (!d.op.known) ++c.unknown_opcodes;
  if (d.is_mem()) ++c.mem_insts;
  ++s.pc_insts_[d.pc_index];
}

Scheduler::Scheduler(const Stage& wiring, std::vector<uint64_t>& pc_insts, const WarpHeads& warps,
                     IssueTarget& target, bool lrr_mask_scan)
    : Stage(wiring), pc_insts_(pc_insts), warps_(warps), target_(target), subcores_(subcores()) {
  for (auto& sc : subcores_) sc.policy = make_issue_policy(gpu_.scheduler, lrr_mask_scan);
}

// Whether a pipeline of the class can take the instruction when it reaches
// dispatch, kIssueToDispatch cycles from now.
bool Scheduler::unit_free(unsigned subcore, UnitClass u) const {
  const SubCorePort& port = ports_[subcore];
  if (u == UnitClass::Ldst) return !port.latch_busy();
  return port.pipe_free_by(u, clock_.now + kIssueToDispatch);
}

void Scheduler::issue(unsigned subcore) {
  SubCoreScheduler& sc = subcores_[subcore];
  SubCorePort& port = ports_[subcore];
  if (sc.scan_epoch == epoch(subcore) && clock_.now < sc.scan_valid_until) {
    port.events.merge(sc.scan_events);
    clock_.wake_at(sc.scan_valid_until);
    return;
  }
  // Issue mutual exclusion: no two instructions in a row to one unit, whose
  // 16 lanes take a warp over two cycles. A unit as wide as the warp
  // (interval 1: Pascal's FP32/INT32, GA10x's FP32) takes one every cycle.
  auto warp_wide = [&](uint32_t u) { return u < kUnitClasses && gpu_.units[u].initiation_interval <= 1; };
  bool excluded = sc.last_issue + 1 == clock_.now && !warp_wide(sc.last_unit);
  IssueScan scan(*this, subcore, excluded ? sc.last_unit : kNone);
  if (sc.policy->pick(scan)) {
    sc.scan_valid_until = 0;
    return;
  }
  if (!scan.saw_instruction_) scan.events_.add(StallEvent::NoActiveWarp, false);
  port.events.merge(scan.events_);
  clock_.wake_at(scan.valid_until_);
  sc.scan_events = scan.events_;
  sc.scan_epoch = epoch(subcore);
  sc.scan_valid_until = scan.valid_until_;
}

}  // namespace sasskit::pipesim
