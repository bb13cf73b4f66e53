// Fetch and decode per sub-core (accelsim-modeling-cams23 §2.1): a
// round-robin fetch unit reads up to fetch_width consecutive instructions of
// one cache line from the sub-core's L0 instruction cache; misses go to the
// SM's L1 instruction cache through a round-robin arbiter (one per cycle),
// and a stream buffer per sub-core prefetches the lines after a miss (on
// models without L0, the L1 instruction cache requests them itself).
// Decoded instructions enter the warp's instruction buffer a cycle later.
#include "sm.hpp"

#include <algorithm>
#include <unordered_map>

namespace sasskit::pipesim {
namespace {
// Volta and later encode an instruction in 16 bytes; Maxwell and Pascal in 8,
// with a control word in every fourth 8-byte slot. The next instruction in
// memory is therefore at most 16 bytes on.
constexpr uint64_t kInstBytes = 16;

bool follows(uint64_t previous, uint64_t next) { return next > previous && next - previous <= kInstBytes; }

// Starts the fill of an instruction line that missed the L1 instruction cache
// at cycle `at` and returns when it arrives. A kernel's code is written to
// device memory before it runs and is not in L2: an SM's first miss on a line
// reads DRAM (the SMs of the first wave miss together and share that read in
// L2's MSHRs); a line evicted and missed again is an L2 hit.
uint64_t fill_code_line(std::unordered_map<uint64_t, uint64_t>& ready, const GpuConfig& g, uint64_t line,
                        uint64_t at) {
  auto [it, first] = ready.try_emplace(line, 0);
  it->second = at + g.l1i.latency + g.l2.latency + (first ? g.dram_latency : 0);
  return it->second;
}
}  // namespace

void SmSim::fetch(SubCore& sc) {
  if (sc.fetch_busy) {
    if (sc.fetch_waits_l1) return;
    if (sc.fetch_done > now_) {
      wake_at(sc.fetch_done);
      return;
    }
    Warp& warp = warps_[sc.fetch_warp];
    if (warp.active) {
      bool was_empty = warp.ibuf.empty();
      for (uint32_t i = 0; i < sc.fetch_count; ++i)
        warp.ibuf.push_back(IbufEntry{warp.next_fetch - warp.fetching + i, now_ + 1});
      warp.fetching = 0;
      if (was_empty) refresh_head(sc.fetch_warp);
    }
    sc.fetch_busy = false;
    activity_ = true;
  }
  if (sc.fetchable == 0) return;
  size_t n = sc.warps.size();
  for (size_t k = 0, i = n ? sc.fetch_rr % n : 0; k < n; ++k, i = i + 1 < n ? i + 1 : 0) {
    uint32_t w = sc.warps[i];
    if (can_fetch_[w]) {
      sc.fetch_rr = static_cast<uint32_t>((i + 1) % n);
      start_fetch(sc, w);
      return;
    }
  }
}

// Whether fetch may pick the warp: room in its instruction buffer, not
// stopped at a taken branch, instructions left. Called after every change of
// those.
void SmSim::refresh_fetchable(uint32_t w) {
  const Warp& warp = warps_[w];
  bool room = warp.ibuf.size() + warp.fetching < std::max(1u, gpu().ibuffer_depth);
  uint8_t now = warp.active && room && !warp.branch_wait && warp.next_fetch < warp.trace->inst.size();
  if (now == can_fetch_[w]) return;
  can_fetch_[w] = now;
  SubCore& sc = subcores_[w % subcores_.size()];
  if (now) ++sc.fetchable; else --sc.fetchable;
}

// Starts fetching the warp's next instructions: consecutive PCs within one
// line, stopping after a taken branch (whose target waits until it executes).
void SmSim::start_fetch(SubCore& sc, uint32_t w) {
  Warp& warp = warps_[w];
  const auto& trace = warp.trace->inst;
  unsigned line = std::max(1u, gpu().has_l0i ? gpu().l0i.line_bytes : gpu().l1i.line_bytes);
  unsigned room = std::max(1u, gpu().ibuffer_depth) - static_cast<unsigned>(warp.ibuf.size());
  uint32_t first = warp.next_fetch;
  uint64_t addr = inst_at(warp, first).address;
  uint32_t count = 0;
  for (uint32_t pos = first; pos < trace.size() && count < std::min(room, opt_.fetch_width); ++pos) {
    const DecodedInst& d = inst_at(warp, pos);
    if (count > 0 && (!follows(inst_at(warp, pos - 1).address, d.address) || d.address / line != addr / line))
      break;
    ++count;
    bool taken = pos + 1 < trace.size() && !follows(d.address, inst_at(warp, pos + 1).address);
    if (d.op.is_branch && taken) {
      warp.branch_wait = true;
      warp.branch_pos = pos;
      break;
    }
  }
  warp.next_fetch += count;
  warp.fetching = count;
  refresh_fetchable(w);
  sc.fetch_busy = true;
  sc.fetch_warp = w;
  sc.fetch_count = count;
  sc.fetch_addr = addr;
  activity_ = true;
  if (gpu().has_l0i && sc.l0i.access(addr)) {
    sc.fetch_waits_l1 = false;
    sc.fetch_done = now_ + std::max(1u, gpu().l0i.latency);
    return;
  }
  uint64_t line_no = addr / line;
  if (auto ready = sc.prefetch.take(line_no)) {
    sc.fetch_waits_l1 = false;
    sc.fetch_done = std::max(now_ + std::max(1u, gpu().l0i.latency), *ready);
  } else {
    sc.fetch_waits_l1 = true;
    ++l1i_waiting_;
    sc.prefetch.restart(line_no);
  }
  prefetch_lines(sc, line);
}

// Keeps the sub-core's stream buffer full: its requests pass the L1
// instruction cache one per cycle, a miss there costs an L2 round trip.
void SmSim::prefetch_lines(SubCore& sc, unsigned line_bytes) {
  sc.prefetch.top_up([&](uint64_t line_no, unsigned k) {
    return l1i_fetch(line_no * line_bytes, now_ + k);
  });
}

// Looks an instruction line up in the L1 instruction cache at cycle `at` and
// returns when it is there; a hit on a line whose fill is still on its way
// waits for it. Without L0 caches (Pascal) there is no sub-core stream buffer:
// the L1 instruction cache itself requests the inst_prefetch_lines lines after
// a miss, one per cycle.
uint64_t SmSim::l1i_fetch(uint64_t address, uint64_t at) {
  const GpuConfig& g = gpu();
  unsigned line_bytes = std::max(1u, g.l1i.line_bytes);
  uint64_t line = address / line_bytes;
  if (l1i_.access(address)) {
    auto it = code_line_ready_.find(line);
    return std::max(at + g.l1i.latency, it == code_line_ready_.end() ? 0 : it->second);
  }
  uint64_t ready = fill_code_line(code_line_ready_, g, line, at);
  unsigned ahead = g.has_l0i ? 0 : g.inst_prefetch_lines;
  for (unsigned k = 1; k <= ahead; ++k)
    if (!l1i_.access((line + k) * line_bytes)) fill_code_line(code_line_ready_, g, line + k, at + k);
  return ready;
}

void SmSim::l1i_arbiter() {
  if (l1i_waiting_ == 0) return;
  size_t n = subcores_.size();
  for (size_t k = 0; k < n; ++k) {
    SubCore& sc = subcores_[(l1i_rr_ + k) % n];
    if (!sc.fetch_busy || !sc.fetch_waits_l1) continue;
    sc.fetch_waits_l1 = false;
    --l1i_waiting_;
    sc.fetch_done = std::max(now_ + 1, l1i_fetch(sc.fetch_addr, now_));
    l1i_rr_ = static_cast<uint32_t>((l1i_rr_ + k + 1) % n);
    activity_ = true;
    return;
  }
}

}  // namespace sasskit::pipesim
