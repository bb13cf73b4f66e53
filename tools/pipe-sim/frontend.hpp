// Fetch and decode: per sub-core a fetch unit with its L0 instruction cache
// and stream buffer, and the SM's L1 instruction cache behind a round-robin
// arbiter. Fetched instructions enter the warps' buffers in the warp table.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "icache.hpp"
#include "ports.hpp"
#include "warp_table.hpp"

namespace sasskit::pipesim {

class Frontend : private Stage {
 public:
  Frontend(const Stage& wiring, unsigned fetch_width, WarpTable& warps);
  // Delivers the sub-core's finished fetch, then starts the next one.
  void fetch(unsigned subcore);
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

  // Flattened: the warp table's bookkeeping and the L0 lookup are inlined
  // into it (LTO left them calls).
  [[gnu::flatten]] void start_fetch(FetchUnit& f, uint32_t w);
  void prefetch_lines(FetchUnit& f, unsigned line_bytes);
  uint64_t l1i_fetch(uint64_t address, uint64_t at);

  unsigned fetch_width_;
  unsigned line_bytes_;  // of the cache fetch reads: L0 where there is one, else L1
  WarpTable& warps_;
  std::vector<FetchUnit> units_;
  TagCache l1i_;
  uint32_t l1i_rr_ = 0;
  uint32_t l1i_waiting_ = 0;  // fetch units that wait for the L1 instruction cache
  std::unordered_map<uint64_t, uint64_t> code_line_ready_;  // instruction line -> cycle its last fill arrives
};

}  // namespace sasskit::pipesim
