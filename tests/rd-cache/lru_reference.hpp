// A straightforward set-associative sectored LRU cache, simulated access by
// access (no reuse distances): the reference rd-cache's stacks and tags
// must match; and a stream of accesses to test them with.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <vector>

namespace sasskit::rdcache::test {

class ExactLru {
 public:
  ExactLru(uint64_t sets, uint64_t ways) : ways_(ways), sets_(sets) {}

  // Looks up `line` for the sectors in `mask`; returns the sectors that hit.
  // The line becomes most recent; a missing line evicts the least recent.
  // `write` makes the sectors dirty; `written_back` gets the dirty sectors
  // of the evicted line.
  uint32_t access(uint64_t line, uint32_t mask, bool write = false, unsigned* written_back = nullptr) {
    auto& set = sets_[line % sets_.size()];  // most recent first
    if (written_back) *written_back = 0;
    for (size_t i = 0; i < set.size(); ++i) {
      if (set[i].line != line) continue;
      Way way = set[i];
      const uint32_t hits = way.valid & mask;
      way.valid |= mask;
      if (write) way.dirty |= mask;
      set.erase(set.begin() + static_cast<std::ptrdiff_t>(i));
      set.insert(set.begin(), way);
      return hits;
    }
    if (ways_ == 0) return 0;
    if (set.size() == ways_) {
      if (written_back) *written_back = static_cast<unsigned>(std::popcount(set.back().dirty));
      set.pop_back();
    }
    set.insert(set.begin(), Way{line, mask, write ? mask : 0});
    return 0;
  }

 private:
  struct Way {
    uint64_t line;
    uint32_t valid;
    uint32_t dirty;
  };
  uint64_t ways_;
  std::vector<std::vector<Way>> sets_;
};

struct Access {
  uint64_t line;
  uint32_t mask;
};

// Mixed locality: re-use of recent lines (short and long distances),
// streaming through new lines, and random far lines; partial sector masks.
inline std::vector<Access> generated_stream(size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<Access> out;
  std::vector<uint64_t> recent;
  uint64_t next_new = 1000;
  for (size_t i = 0; i < n; ++i) {
    const unsigned kind = rng() % 10;
    uint64_t line;
    if (kind < 5 && !recent.empty()) {
      const size_t back = std::min<size_t>(recent.size() - 1, rng() % (kind < 3 ? 8 : 300));
      line = recent[recent.size() - 1 - back];
    } else if (kind < 8) {
      line = next_new++;
    } else {
      line = rng() % 5000;
    }
    recent.push_back(line);
    if (recent.size() > 4096) recent.erase(recent.begin(), recent.begin() + 2048);
    const uint32_t mask = (rng() % 3 == 0) ? 0xF : static_cast<uint32_t>(1 + rng() % 15);
    out.push_back({line, mask});
  }
  return out;
}

}  // namespace sasskit::rdcache::test
