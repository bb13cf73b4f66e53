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
  if (sc.scan_epoch == sc.epoch && now_ < sc.scan_valid_until) {
    sc.events.merge(sc.scan_events);
    wake_at(sc.scan_valid_until);
    return;
  }
  IssueScan scan;
  // Issue mutual exclusion: no two instructions in a row to one unit, whose
  // 16 lanes take a warp over two cycles. A unit as wide as the warp
  // (interval 1: Pascal's FP32/INT32, GA10x's FP32) takes one every cycle.
  bool warp_wide = sc.last_unit < kUnitClasses && gpu().units[sc.last_unit].initiation_interval <= 1;
  if (sc.last_issue + 1 == now_ && !warp_wide) scan.excluded_unit = sc.last_unit;
  bool issued = mask_scan_ && sc.masks.latest_ready <= now_
                    ? scan_lrr_masks(sc, static_cast<uint32_t>(&sc - subcores_.data()), scan)
                    : scan_for_issue(sc, scan);
  if (issued) {
    sc.scan_valid_until = 0;
    return;
  }
  sc.events.merge(scan.events);
  wake_at(scan.valid_until);
  sc.scan_events = scan.events;
  sc.scan_epoch = sc.epoch;
  sc.scan_valid_until = scan.valid_until;
}

// The structural hazard that keeps a ready head from issuing this cycle, or
// None. What it learns of units and collectors is kept in `scan`.
StallEvent SmSim::structural_stall(SubCore& sc, IssueScan& scan, const Head& h) {
  if (h.unit == scan.excluded_unit) {
    scan.wake_at(now_ + 1);
    activity_ = true;  // lifted next cycle
    return StallEvent::IssueExclusion;
  }
  int8_t& free = scan.unit_free[h.unit];
  if (free == 0) {
    free = unit_free(sc, static_cast<UnitClass>(h.unit)) ? 1 : -1;
    if (free < 0)
      for (uint64_t t : sc.pipes[h.unit]) scan.wake_at(t - kIssueToDispatch);
  }
  if (free < 0) return StallEvent::UnitSaturation;
  if (!scan.cu_known) {
    auto cu = std::find_if(sc.cus.begin(), sc.cus.end(), [](const Collector& c) { return !c.busy; });
    scan.free_cu = cu == sc.cus.end() ? nullptr : &*cu;
    scan.cu_known = true;
  }
  return scan.free_cu ? StallEvent::None : StallEvent::NoCollector;
}

// One scheduler scan: issues the first warp that can go, or records in
// `scan` why none could. Returns true when a warp issued.
bool SmSim::scan_for_issue(SubCore& sc, IssueScan& scan) {
  bool any_instruction = false;
  auto consider = [&](uint32_t w) {
    const Head& h = heads_[w];
    switch (h.kind) {
      case Head::Kind::Empty:
        return false;
      case Head::Kind::Barrier:
        any_instruction = true;
        scan.events.add(StallEvent::Barrier, false, h.pc_index);
        return false;
      default:
        break;
    }
    if (h.ready > now_) {
      scan.wake_at(h.ready);
      return false;
    }
    any_instruction = true;
    if (h.kind == Head::Kind::Blocked) {
      scan.events.add(StallEvent::DataDependence, h.on_load, h.pc_index);
      return false;
    }
    StallEvent stall = structural_stall(sc, scan, h);
    if (stall != StallEvent::None) {
      scan.events.add(stall, h.mem, h.pc_index);
      return false;
    }
    issue_head(sc, w, *scan.free_cu, prog_.insts[h.inst]);
    return true;
  };
  if (gpu().scheduler == SchedulerPolicy::Gto) {
    // Greedy: the last issued warp first, then the others oldest first. An
    // active warp in the greedy slot is one of this sub-core's warps (slot w
    // belongs to sub-core w % sub-cores).
    bool greedy = sc.greedy != kNone && warps_[sc.greedy].active;
    if (greedy && consider(sc.greedy)) return true;
    for (uint32_t w : sc.warps)
      if (!(greedy && w == sc.greedy) && consider(w)) return true;
  } else {
    // LRR: by warp slot, starting after the last issued warp.
    const auto& slots = sc.by_slot;
    size_t n = slots.size();
    size_t i = sc.greedy == kNone ? 0 : std::upper_bound(slots.begin(), slots.end(), sc.greedy) - slots.begin();
    for (size_t k = 0; k < n; ++k, ++i) {
      if (i >= n) i -= n;
      if (consider(slots[i])) return true;
    }
  }
  if (!any_instruction) scan.events.add(StallEvent::NoActiveWarp, false);
  return false;
}

// Brings the warp's Head up to date: called after every change of its
// barrier state, instruction buffer head or pending registers. A changed
// Head invalidates its scheduler's last scan.
void SmSim::refresh_head(uint32_t w) {
  const Warp& warp = warps_[w];
  Head h;
  if (warp.at_barrier) {
    h.kind = Head::Kind::Barrier;
    h.pc_index = warp.barrier_pc;
  } else if (!warp.ibuf.empty()) {
    // The scoreboard: RAW on sources, WAW on destinations.
    const DecodedInst& d = inst_at(warp, warp.ibuf.front().pos);
    bool dependent = false;
    auto check = [&](uint16_t r) {
      if (warp.pending[r]) {
        dependent = true;
        h.on_load |= warp.pending_mem[r];
      }
    };
    for (unsigned i = 0; i < d.nsrc; ++i) check(d.src[i]);
    for (unsigned i = 0; i < d.ndst; ++i) check(d.dst[i]);
    h.kind = dependent ? Head::Kind::Blocked : Head::Kind::Ready;
    h.mem = d.is_mem();
    h.unit = static_cast<uint8_t>(d.op.unit);
    h.pc_index = d.pc_index;
    h.inst = warp.trace->inst[warp.ibuf.front().pos];
    h.ready = warp.ibuf.front().ready;
  }
  set_head(w, h);
}

// Records a warp's new Head (in the masks too) and invalidates its
// scheduler's last scan when it changed.
void SmSim::set_head(uint32_t w, const Head& h) {
  Head& old = heads_[w];
  if (h == old) return;
  if (mask_scan_) {
    size_t n = subcores_.size();
    HeadMasks& m = subcores_[w % n].masks;
    uint64_t bit = uint64_t(1) << (w / n);
    if (old.kind == Head::Kind::Barrier) m.barrier &= ~bit;
    if (old.kind == Head::Kind::Blocked) m.blocked &= ~bit, m.blocked_on_load &= ~bit;
    if (old.kind == Head::Kind::Ready) m.ready &= ~bit, m.ready_mem &= ~bit, m.ready_unit[old.unit] &= ~bit;
    if (h.kind == Head::Kind::Barrier) m.barrier |= bit;
    if (h.kind == Head::Kind::Blocked) {
      m.blocked |= bit;
      if (h.on_load) m.blocked_on_load |= bit;
    }
    if (h.kind == Head::Kind::Ready) {
      m.ready |= bit;
      if (h.mem) m.ready_mem |= bit;
      m.ready_unit[h.unit] |= bit;
    }
    if (h.kind == Head::Kind::Blocked || h.kind == Head::Kind::Ready) m.latest_ready = std::max(m.latest_ready, h.ready);
  }
  old = h;
  touch(w);
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
  refresh_fetchable(w);
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
  refresh_head(w);
}

void SmSim::arrive_at_barrier(Warp& w) {
  CtaSlot& cta = ctas_[w.cta];
  ++cta.arrived;
  release_barrier_if_complete(cta);
}

// A barrier opens when every warp of the CTA that has not exited is waiting.
void SmSim::release_barrier_if_complete(CtaSlot& cta) {
  if (cta.arrived == 0 || cta.arrived < cta.live) return;
  for (uint32_t w : cta.warps) {
    warps_[w].at_barrier = false;
    refresh_head(w);
  }
  cta.arrived = 0;
  activity_ = true;
}

}  // namespace sasskit::pipesim
