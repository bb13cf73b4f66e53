// Fetch and decode: per sub-core a fetch unit with its L0 instruction cache
// and stream buffer, and the SM's L1 instruction cache behind a round-robin
// arbiter. Fetched instructions enter the warps' buffers through a
// FetchPort (in the SM: the warp table); the frontend takes no other stage.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "icache.hpp"
#include "ports.hpp"

namespace sasskit::pipesim {

// What fetch reads and tells of the warps: which of a sub-core's resident
// warps (oldest first) may fetch, each warp's trace, fetch position and
// instruction buffer, and the fetches it starts and delivers (the
// instructions' count, a taken branch's trace position or kNone, the cycle
// they are decoded by).
template <class T>
concept FetchPort = requires(T& warps, unsigned subcore, uint32_t w, uint32_t n, uint64_t at) {
  { warps.fetchable(subcore) } -> std::convertible_to<uint32_t>;
  { warps.heads().by_age(subcore) } -> std::convertible_to<const std::vector<uint32_t>&>;
  { warps.can_fetch(w) } -> std::convertible_to<bool>;
  { warps.warp(w).active } -> std::convertible_to<bool>;
  warps.start_fetch(w, n, n);
  warps.deliver_fetch(w, n, at);
};

class Frontend : private Stage {
 public:
  Frontend(const Stage& wiring, unsigned fetch_width);
  // Delivers the sub-core's finished fetch to `warps`, then starts the
  // next one, from the warps in turn.
  template <FetchPort Warps>
  void fetch(unsigned subcore, Warps& warps);
  // Passes one sub-core's L0 miss to the L1 instruction cache.
  void arbitrate();
  // Adds the instruction caches' counters.
  void add_counters(SimCounters& c) const;

 private:
  struct FetchUnit {
    bool busy = false, waits_l1 = false;
    uint32_t warp = 0, count = 0, rr = 0;
    uint64_t done = 0, addr = 0;
    TagCache l0i;
    StreamBuffer prefetch;
    FetchUnit(const CacheGeometry& l0, unsigned prefetch_lines) : l0i(l0), prefetch(prefetch_lines) {}
  };

  // Volta and later encode an instruction in 16 bytes; Maxwell and Pascal in
  // 8, with a control word in every fourth 8-byte slot. The next instruction
  // in memory is therefore at most 16 bytes on.
  static bool follows(uint64_t previous, uint64_t next) { return next > previous && next - previous <= 16; }
  // Flattened: the warp table's bookkeeping and the L0 lookup are inlined
  // into it (LTO left them calls).
  template <FetchPort Warps>
  [[gnu::flatten]] void start_fetch(FetchUnit& f, uint32_t w, Warps& warps);
  // The fetch unit reads the `count` instructions from `addr` on of warp w.
  void read_line(FetchUnit& f, uint32_t w, uint32_t count, uint64_t addr);
  void prefetch_lines(FetchUnit& f, unsigned line_bytes);
  uint64_t l1i_fetch(uint64_t address, uint64_t at);

  unsigned fetch_width_;
  unsigned line_bytes_;  // of the cache fetch reads: L0 where there is one, else L1
  std::vector<FetchUnit> units_;
  TagCache l1i_;
  uint32_t l1i_rr_ = 0;
  uint32_t l1i_waiting_ = 0;  // fetch units that wait for the L1 instruction cache
  std::unordered_map<uint64_t, uint64_t> code_line_ready_;  // instruction line -> cycle its last fill arrives
};

template <FetchPort Warps>
void Frontend::fetch(unsigned subcore, Warps& warps) {
  FetchUnit& f = units_[subcore];
  if (f.busy) {
    if (f.waits_l1) return;
    if (f.done > clock_.now) {
      clock_.wake_at(f.done);
      return;
    }
    if (warps.warp(f.warp).active) warps.deliver_fetch(f.warp, f.count, clock_.now + 1);
    f.busy = false;
    clock_.progressed();
  }
  if (warps.fetchable(subcore) == 0) return;
  const auto& resident = warps.heads().by_age(subcore);
  size_t n = resident.size();
  for (size_t k = 0, i = n ? f.rr % n : 0; k < n; ++k, i = i + 1 < n ? i + 1 : 0) {
    uint32_t w = resident[i];
    if (warps.can_fetch(w)) {
      f.rr = static_cast<uint32_t>((i + 1) % n);
      start_fetch(f, w, warps);
      return;
    }
  }
}

// Starts fetching the warp's next instructions: consecutive PCs within one
// line, stopping after a taken branch (whose target waits until it executes).
template <FetchPort Warps>
void Frontend::start_fetch(FetchUnit& f, uint32_t w, Warps& warps) {
  const auto& warp = warps.warp(w);
  const auto& trace = warp.trace->inst;
  const auto inst_at = [&](uint32_t pos) -> const DecodedInst& { return prog_.insts[trace[pos]]; };
  const unsigned line = line_bytes_;
  unsigned room = warp.ibuf.depth() - warp.ibuf.size();
  uint32_t first = warp.next_fetch;
  uint64_t addr = inst_at(first).address;
  uint32_t count = 0, branch_at = kNone;
  for (uint32_t pos = first; pos < trace.size() && count < std::min(room, fetch_width_); ++pos) {
    const DecodedInst& d = inst_at(pos);
    if (count > 0 && (!follows(inst_at(pos - 1).address, d.address) || d.address / line != addr / line)) break;
    ++count;
    bool taken = pos + 1 < trace.size() && !follows(d.address, inst_at(pos + 1).address);
    if (d.op.is_branch && taken) {
      branch_at = pos;
      break;
    }
  }
  warps.start_fetch(w, count, branch_at);
  read_line(f, w, count, addr);
}

}  // namespace sasskit::pipesim
