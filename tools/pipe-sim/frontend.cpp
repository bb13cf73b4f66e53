// Fetch and decode per sub-core (accelsim-modeling-cams23 §2.1): a
// round-robin fetch unit reads up to fetch_width consecutive instructions of
// one cache line from the sub-core's L0 instruction cache; misses go to the
// SM's L1 instruction cache through a round-robin arbiter (one per cycle),
// and a stream buffer per sub-core prefetches the lines after a miss (on
// models without L0, the L1 instruction cache requests them itself).
// Decoded instructions enter the warp's instruction buffer a cycle later.
#include "frontend.hpp"

#include <algorithm>

namespace sasskit::pipesim {
namespace {
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

Frontend::Frontend(const Stage& wiring, unsigned fetch_width)
    : Stage(wiring),
      fetch_width_(fetch_width),
      line_bytes_(std::max(1u, gpu_.has_l0i ? gpu_.l0i.line_bytes : gpu_.l1i.line_bytes)),
      l1i_(gpu_.l1i) {
  for (unsigned i = 0; i < subcores(); ++i)
    units_.emplace_back(gpu_.has_l0i ? gpu_.l0i : CacheGeometry{}, gpu_.has_l0i ? gpu_.inst_prefetch_lines : 0);
}

// The line is read from the L0 instruction cache, from the stream buffer,
// or (a miss in both) waits for the L1 arbiter.
void Frontend::read_line(FetchUnit& f, uint32_t w, uint32_t count, uint64_t addr) {
  const unsigned line = line_bytes_;
  f.busy = true;
  f.warp = w;
  f.count = count;
  f.addr = addr;
  clock_.progressed();
  if (gpu_.has_l0i && f.l0i.access(addr)) {
    f.waits_l1 = false;
    f.done = clock_.now + std::max(1u, gpu_.l0i.latency);
    return;
  }
  uint64_t line_no = addr / line;
  if (auto ready = f.prefetch.take(line_no)) {
    f.waits_l1 = false;
    f.done = std::max(clock_.now + std::max(1u, gpu_.l0i.latency), *ready);
  } else {
    f.waits_l1 = true;
    ++l1i_waiting_;
    f.prefetch.restart(line_no);
  }
  prefetch_lines(f, line);
}

// Keeps the sub-core's stream buffer full: its requests pass the L1
// instruction cache one per cycle, a miss there costs an L2 round trip.
void Frontend::prefetch_lines(FetchUnit& f, unsigned line_bytes) {
  f.prefetch.top_up([&](uint64_t line_no, unsigned k) { return l1i_fetch(line_no * line_bytes, clock_.now + k); });
}

// Looks an instruction line up in the L1 instruction cache at cycle `at` and
// returns when it is there; a hit on a line whose fill is still on its way
// waits for it. Without L0 caches (Pascal) there is no sub-core stream buffer:
// the L1 instruction cache itself requests the inst_prefetch_lines lines after
// a miss, one per cycle.
uint64_t Frontend::l1i_fetch(uint64_t address, uint64_t at) {
  const GpuConfig& g = gpu_;
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

void Frontend::arbitrate() {
  if (l1i_waiting_ == 0) return;
  size_t n = units_.size();
  for (size_t k = 0; k < n; ++k) {
    FetchUnit& f = units_[(l1i_rr_ + k) % n];
    if (!f.busy || !f.waits_l1) continue;
    f.waits_l1 = false;
    --l1i_waiting_;
    f.done = std::max(clock_.now + 1, l1i_fetch(f.addr, clock_.now));
    l1i_rr_ = static_cast<uint32_t>((l1i_rr_ + k + 1) % n);
    clock_.progressed();
    return;
  }
}

void Frontend::add_counters(SimCounters& c) const {
  for (const auto& f : units_) {
    c.l0i.accesses += f.l0i.counters().accesses;
    c.l0i.misses += f.l0i.counters().misses;
  }
  c.l1i = l1i_.counters();
}

}  // namespace sasskit::pipesim
