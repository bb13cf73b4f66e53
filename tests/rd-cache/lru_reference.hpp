// A straightforward set-associative sectored LRU cache, simulated access by
// access (no reuse distances): the reference rd-cache's stacks must match.
#pragma once

#include <cstdint>
#include <vector>

namespace sasskit::rdcache::test {

class ExactLru {
 public:
  ExactLru(uint64_t sets, uint64_t ways) : ways_(ways), sets_(sets) {}

  // Looks up `line` for the sectors in `mask`; returns the sectors that hit.
  // The line becomes most recent; a missing line evicts the least recent.
  uint32_t access(uint64_t line, uint32_t mask) {
    auto& set = sets_[line % sets_.size()];  // most recent first
    for (size_t i = 0; i < set.size(); ++i) {
      if (set[i].line != line) continue;
      Way way = set[i];
      const uint32_t hits = way.valid & mask;
      way.valid |= mask;
      set.erase(set.begin() + static_cast<std::ptrdiff_t>(i));
      set.insert(set.begin(), way);
      return hits;
    }
    if (ways_ == 0) return 0;
    if (set.size() == ways_) set.pop_back();
    set.insert(set.begin(), Way{line, mask});
    return 0;
  }

 private:
  struct Way {
    uint64_t line;
    uint32_t valid;
  };
  uint64_t ways_;
  std::vector<std::vector<Way>> sets_;
};

}  // namespace sasskit::rdcache::test
