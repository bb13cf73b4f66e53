// A set-associative LRU tag array for the instruction caches (L0 per
// sub-core, L1 per SM). Only tags: the trace supplies the instructions.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/stats_record.hpp"
#include "libcommon/gpu_config.hpp"

namespace sasskit::pipesim {

class TagCache {
 public:
  // A zero-sized geometry is a perfect cache: every access hits.
  explicit TagCache(const CacheGeometry& g);
  // Looks `address` up; on a miss the line is filled. Returns true on a hit.
  bool access(uint64_t address);
  const CacheCounters& counters() const { return counters_; }

 private:
  unsigned line_bytes_;
  uint64_t sets_ = 0;
  unsigned ways_ = 0;
  std::vector<uint64_t> tags_;  // sets_ * ways_, ~0 = invalid
  std::vector<uint64_t> used_;  // last access stamp per way
  uint64_t clock_ = 0;
  CacheCounters counters_;
};

}  // namespace sasskit::pipesim
