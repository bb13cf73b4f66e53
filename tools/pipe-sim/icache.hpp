// A set-associative LRU tag array for the instruction caches (L0 per
// sub-core, L1 per SM). Only tags: the trace supplies the instructions.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
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

// A sub-core's instruction stream buffer (N. Jouppi, ISCA 1990; Huerta et
// al., "Analyzing Modern NVIDIA GPU cores", 2025, §5.2, find that one of
// about 16 lines explains the front end of NVIDIA's sub-cores): after an
// L0 miss it requests the lines that follow, so straight-line code finds
// them arriving instead of missing one line at a time.
class StreamBuffer {
 public:
  explicit StreamBuffer(unsigned depth) : depth_(depth) {}
  // On an L0 miss of `line`: when the buffer holds it, the cycle it is (or
  // was) there, and the lines before it are dropped; nullopt otherwise.
  std::optional<uint64_t> take(uint64_t line);
  // A miss the buffer did not hold: it now streams the lines after `line`.
  void restart(uint64_t line);
  // Requests lines until it holds `depth` ahead; request(line, k) returns
  // when the k-th request of this call arrives.
  template <class Request>
  void top_up(Request request) {
    for (unsigned k = 1; lines_.size() < depth_; ++k, ++next_) lines_.push_back({next_, request(next_, k)});
  }

 private:
  struct Line {
    uint64_t line, ready;
  };
  unsigned depth_;
  uint64_t next_ = 0;
  std::deque<Line> lines_;
};

}  // namespace sasskit::pipesim
