// The modeled cache itself, tag by tag: an exact LRU cache of sectored lines
// (a tag covers a line, data is valid per sector) that also keeps which
// sectors are dirty, so that it knows what an eviction writes back. Its hits
// are those of the stack distances (reuse_distance.hpp) for the same
// geometry; the stacks answer for every size at once, this for one.
#pragma once

#include <cstdint>
#include <vector>

#include "reuse_distance.hpp"

namespace sasskit::rdcache {

struct TagOutcome {
  uint32_t hits = 0;         // sectors of the access found valid (bit i = sector i)
  unsigned written_back = 0; // dirty sectors of the line this access evicted
};

class LruTags {
 public:
  // `ways` 0 is taken as 1; a fully associative cache is one set.
  LruTags(uint64_t sets, uint64_t ways);

  // Looks up `line` for the sectors in `mask`. A missing line is allocated
  // (evicting its set's least recent line when the set is full) with only
  // those sectors valid; a write makes them dirty without reading them (a
  // write-allocate cache that fetches on read only, as Accel-Sim's `L`
  // policy and the byte masks of NVIDIA's L2 sectors).
  TagOutcome access(uint64_t line, uint32_t mask, bool write) {
    return ways_ <= kScannedWays ? access_scanned(line, mask, write) : access_listed(line, mask, write);
  }

 private:
  // Sets of up to this many ways are scanned: a set's lines lie side by
  // side, newest first, in one or a few CPU cache lines, where the index's
  // probe and the LRU list's neighbours are scattered over a table the size
  // of the cache (an L2 of megabytes: a CPU cache miss each). A miss scans
  // every way, more instructions than the index, but the run is faster.
  static constexpr uint64_t kScannedWays = 16;
  struct Way {
    uint64_t key = 0;  // line + 1; 0 = empty
    uint32_t valid = 0, dirty = 0;
  };
  TagOutcome access_scanned(uint64_t line, uint32_t mask, bool write);
  TagOutcome access_listed(uint64_t line, uint32_t mask, bool write);

  static constexpr uint32_t kNone = UINT32_MAX;
  struct Entry {
    uint64_t line = 0;
    uint32_t valid = 0, dirty = 0;
    uint32_t newer = kNone, older = kNone;  // the set's LRU list
  };
  struct Set {
    uint32_t newest = kNone, oldest = kNone;
    uint64_t size = 0;
  };
  // line -> entry, open addressing with linear probing and backward-shift
  // deletion, at load < 1/4 (a miss, then an eviction's erase, walk short
  // runs); holds only resident lines, so it never outgrows the cache.
  class Index {
   public:
    Index();
    uint32_t find(uint64_t line) const;  // kNone when absent
    void insert(uint64_t line, uint32_t entry);
    void erase(uint64_t line);

   private:
    size_t home(uint64_t key) const;
    void grow();
    std::vector<uint64_t> keys_;  // line + 1; 0 = empty
    std::vector<uint32_t> values_;
    size_t count_ = 0;
    unsigned shift_;
  };

  void unlink(Set& set, uint32_t e);
  void push_newest(Set& set, uint32_t e);

  SetIndex set_of_;
  uint64_t ways_;
  std::vector<Way> scanned_;  // sets x ways, a set's ways newest first; scanned sets only
  std::vector<Set> sets_;     // listed sets only, with entries_ and index_
  std::vector<Entry> entries_;  // grows up to sets x ways as lines arrive
  Index index_;
};

}  // namespace sasskit::rdcache
