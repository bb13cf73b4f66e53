// The warp schedulers: one per sub-core, LRR or GTO, one instruction per
// cycle, and the stall events each blocked warp reports.
#include "sm.hpp"

#include <algorithm>

namespace sasskit::pipesim {

// Whether a pipeline of the class can take the instruction when it reaches
// dispatch, kIssueToDispatch cycles from now.
bool SmSim::unit_free(const SubCore& sc, UnitClass u) const {
  if (u == UnitClass::Ldst) return !sc.latch.busy;
  for (uint64_t t : sc.pipes[static_cast<size_t>(u)])
    if (t <= now_ + kIssueToDispatch) return true;
  return false;
}

void SmSim::issue(SubCore& sc) {
  bool any_instruction = false;
  // Returns true when the warp issued.
  auto consider = [&](uint32_t w) {
    Warp& warp = warps_[w];
    if (warp.at_barrier) {
      any_instruction = true;
      sc.events.add(StallEvent::Barrier, false, warp.barrier_pc);
      return false;
    }
    if (warp.ibuf.empty()) return false;
    if (warp.ibuf.front().ready > now_) {
      wake_at(warp.ibuf.front().ready);
      return false;
    }
    any_instruction = true;
    return try_issue(sc, w);
  };
  if (gpu().scheduler == SchedulerPolicy::Gto) {
    // Greedy: the last issued warp first, then the others oldest first. An
    // active warp in the greedy slot is one of this sub-core's warps (slot w
    // belongs to sub-core w % sub-cores).
    bool greedy = sc.greedy != kNone && warps_[sc.greedy].active;
    if (greedy && consider(sc.greedy)) return;
    for (uint32_t w : sc.warps)
      if (!(greedy && w == sc.greedy) && consider(w)) return;
  } else {
    // LRR: by warp slot, starting after the last issued warp.
    const auto& slots = sc.by_slot;
    size_t n = slots.size();
    size_t i = sc.greedy == kNone ? 0 : std::upper_bound(slots.begin(), slots.end(), sc.greedy) - slots.begin();
    for (size_t k = 0; k < n; ++k, ++i) {
      if (i >= n) i -= n;
      if (consider(slots[i])) return;
    }
  }
  if (!any_instruction) sc.events.add(StallEvent::NoActiveWarp, false);
}

// Issues the warp's next instruction, or records why it cannot go. Most
// calls find the head waiting on the scoreboard: that verdict is checked
// here, the rest in ready_head_issue.
bool SmSim::try_issue(SubCore& sc, uint32_t w) {
  Warp& warp = warps_[w];
  uint32_t pos = warp.ibuf.front().pos;
  // A head blocked on the scoreboard stays blocked until one of the warp's
  // results is written back: remember the verdict until then.
  if (warp.sb_checked_pos != pos || warp.sb_checked_version != warp.sb_version) check_scoreboard(warp, pos);
  if (warp.sb_blocked) {
    sc.events.add(StallEvent::DataDependence, warp.sb_on_load, warp.sb_pc_index);
    return false;
  }
  return ready_head_issue(sc, w, inst_at(warp, pos));
}

void SmSim::check_scoreboard(Warp& warp, uint32_t pos) {
  const DecodedInst& d = inst_at(warp, pos);
  bool dependent = false, on_load = false;
  auto check = [&](uint16_t r) {
    if (warp.pending[r]) {
      dependent = true;
      on_load |= warp.pending_mem[r];
    }
  };
  for (unsigned i = 0; i < d.nsrc; ++i) check(d.src[i]);
  for (unsigned i = 0; i < d.ndst; ++i) check(d.dst[i]);
  warp.sb_checked_pos = pos;
  warp.sb_checked_version = warp.sb_version;
  warp.sb_blocked = dependent;
  warp.sb_on_load = on_load;
  warp.sb_pc_index = d.pc_index;
}

// The structural checks of a head free of dependences, then its issue.
bool SmSim::ready_head_issue(SubCore& sc, uint32_t w, const DecodedInst& d) {
  bool mem = d.is_mem();
  uint32_t unit = static_cast<uint32_t>(d.op.unit);
  if (sc.last_unit == unit && sc.last_issue + 1 == now_) {
    sc.events.add(StallEvent::IssueExclusion, mem, d.pc_index);
    activity_ = true;  // lifted next cycle
    return false;
  }
  if (!unit_free(sc, d.op.unit)) {
    sc.events.add(StallEvent::UnitSaturation, mem, d.pc_index);
    for (uint64_t t : sc.pipes[unit]) wake_at(t - kIssueToDispatch);
    return false;
  }
  auto cu = std::find_if(sc.cus.begin(), sc.cus.end(), [](const Collector& c) { return !c.busy; });
  if (cu == sc.cus.end()) {
    sc.events.add(StallEvent::NoCollector, mem, d.pc_index);
    return false;
  }

  issue_head(sc, w, *cu, d);
  return true;
}

// Moves the warp's head instruction into the free collector `cu`.
void SmSim::issue_head(SubCore& sc, uint32_t w, Collector& cu, const DecodedInst& d) {
  Warp& warp = warps_[w];
  uint32_t pos = warp.ibuf.front().pos;
  bool mem = d.is_mem();
  uint32_t unit = static_cast<uint32_t>(d.op.unit);
  uint32_t mask = warp.trace->mask[pos];
  cu = Collector{true, false, uint8_t((1u << d.nsrc) - 1), cu_seq_++, Op{w, pos, warp.trace->inst[pos], mask, warp.addr_cursor, 0, false}};
  if (d.mem_width > 0) warp.addr_cursor += active_lanes(mask);
  for (unsigned i = 0; i < d.ndst; ++i) {
    warp.pending[d.dst[i]] = true;
    warp.pending_mem[d.dst[i]] = mem;
  }
  warp.ibuf.erase(warp.ibuf.begin());
  warp.next_issue = pos + 1;
  ++warp.outstanding;
  sc.greedy = w;
  sc.last_unit = unit;
  sc.last_issue = now_;
  sc.issued = true;
  sc.issued_pc = d.pc_index;
  activity_ = true;

  auto& c = res_.counters;
  ++c.insts;
  c.thread_insts += active_lanes(mask);
  if (!d.op.known) ++c.unknown_opcodes;
  if (mem) ++c.mem_insts;
  ++res_.pc_insts[d.pc_index];
  if (warp.next_issue == warp.trace->inst.size()) {
    warp.issued_all = true;
    CtaSlot& cta = ctas_[warp.cta];
    --cta.live;
    release_barrier_if_complete(cta);
  } else if (d.op.is_barrier) {
    warp.at_barrier = true;
    warp.barrier_pc = d.pc_index;
    arrive_at_barrier(warp);
  }
}

void SmSim::arrive_at_barrier(Warp& w) {
  CtaSlot& cta = ctas_[w.cta];
  ++cta.arrived;
  release_barrier_if_complete(cta);
}

// A barrier opens when every warp of the CTA that has not exited is waiting.
void SmSim::release_barrier_if_complete(CtaSlot& cta) {
  if (cta.arrived == 0 || cta.arrived < cta.live) return;
  for (uint32_t w : cta.warps) warps_[w].at_barrier = false;
  cta.arrived = 0;
  activity_ = true;
}

}  // namespace sasskit::pipesim
