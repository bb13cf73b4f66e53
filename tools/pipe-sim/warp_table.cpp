#include "warp_table.hpp"

#include <algorithm>
#include <string>

#include "libcommon/diag.hpp"

namespace sasskit::pipesim {

WarpTable::WarpTable(const Stage& wiring, unsigned ctas_per_sm, bool keep_masks)
    : Stage(wiring),
      warps_(std::max(1u, gpu_.max_warps_per_sm)),
      heads_(warps_.size(), subcores(), keep_masks),
      can_fetch_(warps_.size(), 0),
      fetchable_(subcores(), 0),
      ctas_(std::max(1u, ctas_per_sm)) {
  for (Warp& w : warps_) w.ibuf = InstBuffer(std::max(1u, gpu_.ibuffer_depth));
}

CtaSlot* WarpTable::launchable_slot(uint64_t launch_latency) {
  uint64_t earliest = kNever;
  for (CtaSlot& c : ctas_) {
    if (c.cta) continue;
    if (c.freed_at + launch_latency <= clock_.now) return &c;
    earliest = std::min(earliest, c.freed_at + launch_latency);
  }
  clock_.wake_at(earliest);
  return nullptr;
}

const std::vector<uint32_t>& WarpTable::launch(CtaSlot& slot, const CtaTrace& cta, std::unique_ptr<CtaTrace> loaded) {
  uint32_t cta_index = static_cast<uint32_t>(&slot - ctas_.data());
  slot = CtaSlot{};
  slot.cta = &cta;
  slot.loaded = std::move(loaded);
  for (const auto& wt : cta.warps) {
    uint32_t w = 0;
    while (warps_[w].active) ++w;
    {
      Edit warp = edit(w);
      *warp = Warp{.ibuf = std::move(warp->ibuf)};  // keeps the buffer's ring
      warp->ibuf.clear();
      warp->trace = &wt;
      warp->cta = cta_index;
      warp->age = warp_age_++;
      warp->active = true;
      if (wt.inst.empty()) {
        warp->issued_all = true;
      } else {
        ++slot.live;
      }
    }
    heads_.add(w);
    slot.warps.push_back(w);
    ++resident_warps_;
  }
  ++resident_ctas_;
  return slot.warps;
}

std::unique_ptr<CtaTrace> WarpTable::spare_trace() {
  if (spare_traces_.empty()) return std::make_unique<CtaTrace>();
  std::unique_ptr<CtaTrace> t = std::move(spare_traces_.back());
  spare_traces_.pop_back();
  return t;
}

std::vector<uint64_t> WarpTable::insts_left_per_warp() const {
  std::vector<uint64_t> out(warps_.size(), 0);
  for (size_t w = 0; w < warps_.size(); ++w)
    if (warps_[w].active) out[w] = warps_[w].trace->inst.size() - warps_[w].next_issue;
  return out;
}

void WarpTable::retire(uint32_t w) {
  const Warp& warp = warps_[w];
  if (!warp.active || !warp.issued_all || warp.outstanding > 0) return;
  edit(w)->active = false;
  heads_.remove(w);
  --resident_warps_;
  clock_.progressed();
  CtaSlot& c = ctas_[warp.cta];
  if (prog_.copy_sync) refresh_copy_waiters(warp.cta);  // one fewer warp that may start a copy group
  if (++c.done < c.warps.size()) return;
  if (c.loaded) spare_traces_.push_back(std::move(c.loaded));
  c = CtaSlot{};
  c.freed_at = clock_.now + 1;  // the next CTA could start next cycle
  --resident_ctas_;
  ++counters_.ctas;
}

void WarpTable::start_fetch(uint32_t w, uint32_t count, uint32_t branch_at) {
  Edit warp = edit(w, kFetch);
  if (branch_at != kNone) {
    warp->branch_wait = true;
    warp->branch_pos = branch_at;
  }
  warp->next_fetch += count;
  warp->fetching = count;
}

void WarpTable::deliver_fetch(uint32_t w, uint32_t count, uint64_t ready) {
  // The head is the buffer's front: only a first entry changes it.
  Edit warp = edit(w, warps_[w].ibuf.empty() ? kAll : kFetch);
  for (uint32_t i = 0; i < count; ++i) warp->ibuf.push_back(IbufEntry{warp->next_fetch - warp->fetching + i, ready});
  warp->fetching = 0;
}

Op WarpTable::issue(uint32_t w) {
  const Edit edited = edit(w);
  Warp& warp = *edited;
  uint32_t pos = warp.ibuf.front().pos;
  const DecodedInst& d = inst_at(warp, pos);
  uint32_t mask = warp.trace->mask[pos];
  Op op{w, pos, warp.trace->inst[pos], mask, warp.trace->addrs.data() + warp.addr_cursor, 0, false};
  if (d.mem_width > 0) warp.addr_cursor += active_lanes(mask);
  if (!prog_.async) [[likely]] mark_pending(warp, d);
  warp.ibuf.pop_front();
  warp.next_issue = pos + 1;
  ++warp.outstanding;
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
  if (prog_.async) [[unlikely]] op.copy_group = issue_async(warp, d, pos);
  return op;
}

void WarpTable::complete(const Op& op) {
  {
    // Fetch goes on only where this ends the branch it waits for.
    const Warp& done = warps_[op.warp];
    const bool ends_branch = done.branch_wait && done.branch_pos == op.pos;
    const Edit edited = edit(op.warp, ends_branch ? kAll : kHead);
    Warp& warp = *edited;
    const DecodedInst& d = prog_.insts[op.inst];
    if (prog_.async) [[unlikely]] {
      complete_async(warp, d, op);
    } else {
      clear_pending(warp, d);
    }
    if (ends_branch) warp.branch_wait = false;
    --warp.outstanding;
  }
  clock_.progressed();
  retire(op.warp);
}

void WarpTable::mark_pending(Warp& w, const DecodedInst& d) {
  for (unsigned i = 0; i < d.ndst; ++i) {
    w.pending[d.dst[i]] = true;
    w.pending_mem[d.dst[i]] = d.is_mem();
  }
}

void WarpTable::clear_pending(Warp& w, const DecodedInst& d) {
  for (unsigned i = 0; i < d.ndst; ++i) {
    w.pending[d.dst[i]] = false;
    w.pending_mem[d.dst[i]] = false;
  }
}

// An async instruction's results wait for its wait instruction, not for the
// next reader of its registers. Runs once the issue's barrier bookkeeping is
// done: a copy wait's head depends on whether another warp may still start
// its group, and every such head is refreshed here. Returns the copy group
// of a bulk copy (0 for another instruction).
uint32_t WarpTable::issue_async(Warp& w, const DecodedInst& d, uint32_t pos) {
  if (!d.op.is_async) mark_pending(w, d);
  if (d.op.is_async && !d.is_mem()) ++w.async_mmas;
  if (!prog_.copy_sync) return 0;
  const uint32_t group = track_copies(w, d, pos);
  refresh_copy_waiters(w.cta);  // a warp that may start a group moved on
  return group;
}

void WarpTable::complete_async(Warp& w, const DecodedInst& d, const Op& op) {
  if (!d.op.is_async) clear_pending(w, d);
  if (d.op.is_async && !d.is_mem()) --w.async_mmas;
  if (d.op.is_async && d.is_mem() && prog_.copy_sync) {
    CopyGroup& g = ctas_[w.cta].copy_groups[op.copy_group];
    ++g.done;
    if (g.complete()) refresh_copy_waiters(w.cta);
  }
}

// Whether the head, an MMA wait or a copy wait, waits for asynchronous work
// (a blocked copy wait counts as waiting on a load). Returned, not written
// into the Head, so that the head's computation keeps it in registers.
WarpTable::AsyncWait WarpTable::async_wait(const Warp& w, const DecodedInst& d) const {
  if (d.op.is_mma_wait && w.async_mmas > 0) return AsyncWait::Blocked;
  if (d.op.is_copy_wait && !copy_phase_ready(w)) return AsyncWait::OnLoad;
  return AsyncWait::None;
}

// A group takes the copies that follow its opener in the warp's trace, so
// it closes as its last one issues: the warp's next instruction may be the
// wait for it. Returns the copy group of a bulk copy (0 for another
// instruction).
uint32_t WarpTable::track_copies(Warp& w, const DecodedInst& d, uint32_t pos) {
  CtaSlot& cta = ctas_[w.cta];
  auto is_copy = [](const DecodedInst& i) { return i.op.is_async && i.is_mem(); };
  const bool copy = is_copy(d);
  if (d.op.is_copy_wait) w.copy_phases_seen = next_phase(w) + 1;
  if (d.op.is_copy_group || (copy && w.open_group == kNone)) {
    w.open_group = static_cast<uint32_t>(cta.copy_groups.size());
    cta.copy_groups.emplace_back();
  }
  if (w.open_group == kNone) return 0;
  const uint32_t group = copy ? w.open_group : 0;
  if (copy) ++cta.copy_groups[w.open_group].issued;
  const uint32_t next = pos + 1;
  if (next == w.trace->inst.size() || !is_copy(inst_at(w, next))) {
    cta.copy_groups[w.open_group].closed = true;
    w.open_group = kNone;
  }
  return group;
}

// The group the warp's next copy wait waits for: the first one not yet
// passed that is open or has copies (one past the last when there is none).
uint32_t WarpTable::next_phase(const Warp& w) const {
  const std::vector<CopyGroup>& groups = ctas_[w.cta].copy_groups;
  uint32_t g = w.copy_phases_seen;
  while (g < groups.size() && groups[g].closed && groups[g].issued == 0) ++g;
  return g;
}

// A copy wait passes once its group's copies are done. When its group has
// not started, it waits while another warp of the CTA may still start it
// (one that has instructions left and waits neither at a copy wait nor at a
// barrier, which the waiting warp would have to reach first): the trace
// shows the wait passed, so with no such warp there is none to come.
bool WarpTable::copy_phase_ready(const Warp& w) const {
  const CtaSlot& cta = ctas_[w.cta];
  uint32_t g = next_phase(w);
  if (g < cta.copy_groups.size()) return cta.copy_groups[g].complete();
  for (uint32_t x : cta.warps) {
    const Warp& other = warps_[x];
    if (&other == &w || !other.active || other.cta != w.cta || other.issued_all || other.at_barrier) continue;
    if (!inst_at(other, other.next_issue).op.is_copy_wait) return false;
  }
  return true;
}

void WarpTable::refresh_copy_waiters(uint32_t cta) {
  for (uint32_t x : ctas_[cta].warps) {
    const Warp& w = warps_[x];
    if (w.active && w.cta == cta && !w.ibuf.empty() && inst_at(w, w.ibuf.front().pos).op.is_copy_wait) refresh(x, kHead);
  }
  clock_.progressed();
}

void WarpTable::arrive_at_barrier(Warp& w) {
  CtaSlot& cta = ctas_[w.cta];
  ++cta.arrived;
  release_barrier_if_complete(cta);
}

// A barrier opens when every warp of the CTA that has not exited is waiting.
// It opens the CTA's resident warps only: the slot of a warp that exited may
// hold a later CTA's warp by now.
void WarpTable::release_barrier_if_complete(CtaSlot& cta) {
  if (cta.arrived == 0 || cta.arrived < cta.live) return;
  const auto index = static_cast<uint32_t>(&cta - ctas_.data());
  for (uint32_t w : cta.warps) {
    if (!warps_[w].active || warps_[w].cta != index) continue;
    edit(w, kHead)->at_barrier = false;
  }
  cta.arrived = 0;
  clock_.progressed();
}

// The warp's head as its barrier state, instruction buffer and scoreboard
// (RAW on sources, WAW on destinations) make it.
Head WarpTable::compute_head(uint32_t w) const {
  const Warp& warp = warps_[w];
  Head h;
  if (!warp.active) return h;
  if (warp.at_barrier) {
    h.kind = Head::Kind::Barrier;
    h.pc_index = warp.barrier_pc;
  } else if (!warp.ibuf.empty()) {
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
    if (prog_.async) [[unlikely]] {
      const AsyncWait wait = async_wait(warp, d);
      dependent |= wait != AsyncWait::None;
      h.on_load |= wait == AsyncWait::OnLoad;
    }
    h.kind = dependent ? Head::Kind::Blocked : Head::Kind::Ready;
    h.mem = d.is_mem();
    h.unit = static_cast<uint8_t>(d.op.unit);
    h.pc_index = d.pc_index;
    h.inst = warp.trace->inst[warp.ibuf.front().pos];
    h.ready = warp.ibuf.front().ready;
  }
  return h;
}

inline void WarpTable::refresh(uint32_t w, Cached parts) {
  if (parts & kHead) heads_.set(w, compute_head(w));
  if (!(parts & kFetch)) return;
  const uint8_t fetch = compute_can_fetch(w);
  if (fetch == can_fetch_[w]) return;
  can_fetch_[w] = fetch;
  if (fetch) ++fetchable_[heads_.subcore_of(w)]; else --fetchable_[heads_.subcore_of(w)];
}

// Whether fetch may pick the warp: room in its instruction buffer, not
// stopped at a taken branch, instructions left.
bool WarpTable::compute_can_fetch(uint32_t w) const {
  const Warp& warp = warps_[w];
  bool room = warp.ibuf.size() + warp.fetching < warp.ibuf.depth();
  return warp.active && room && !warp.branch_wait && warp.next_fetch < warp.trace->inst.size();
}

void WarpTable::check() const {
  auto wrong = [](const std::string& what, uint32_t w) {
    throw Error(ExitCode::Internal, "warp table", what + " of warp slot " + std::to_string(w) + " is stale");
  };
  const unsigned n = heads_.subcores();
  std::vector<std::vector<uint32_t>> resident(n);
  std::vector<uint32_t> fetchable(n, 0);
  for (uint32_t w = 0; w < warps_.size(); ++w) {
    if (!(compute_head(w) == heads_.head(w))) wrong("the head", w);
    if (compute_can_fetch(w) != bool(can_fetch_[w])) wrong("can-fetch", w);
    if (!warps_[w].active) continue;
    resident[heads_.subcore_of(w)].push_back(w);
    fetchable[heads_.subcore_of(w)] += can_fetch_[w];
  }
  uint32_t residents = 0;
  for (unsigned s = 0; s < n; ++s) {
    residents += static_cast<uint32_t>(resident[s].size());
    if (resident[s] != heads_.by_slot(s)) wrong("the sub-core's slot list", s);
    if (fetchable[s] != fetchable_[s]) wrong("the sub-core's fetchable count", s);
    const std::vector<uint32_t>& aged = heads_.by_age(s);
    if (!std::is_sorted(aged.begin(), aged.end(), [&](uint32_t a, uint32_t b) { return warps_[a].age < warps_[b].age; }))
      wrong("the sub-core's age list", s);
  }
  if (residents != resident_warps_) wrong("the resident count", 0);
  heads_.check();
}

}  // namespace sasskit::pipesim
