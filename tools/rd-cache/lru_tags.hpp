// Least-recently-used replacement, exact (CacheTags' first policy). Its hits
// are those of the stack distances (reuse_distance.hpp) for the same
// geometry; the stacks answer for every size at once, this for one.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "cache_tags.hpp"
#include "reuse_distance.hpp"

namespace sasskit::rdcache {

// Sets of up to this many ways are held by ScannedLru, larger ones listed
// (ListedLru): a scanned set's signatures, recency and lines lie side by
// side in a few CPU cache lines, where the index's probe and the LRU list's
// neighbours are scattered over a table the size of the cache (an L2 of
// megabytes: a CPU cache miss each).
inline constexpr uint64_t kScannedWays = 16;

// LRU tags of `sets` x `ways` (each at least 1), scanned or listed by ways.
std::unique_ptr<CacheTags> make_lru_tags(uint64_t sets, uint64_t ways);

// A set's lines stay in the ways they were allocated to. A one-byte
// signature per way finds the few ways that may hold a line (all 16 compared
// at once, a byte per lane of two 64-bit words), and the set's recency is
// the list of its ways' numbers, newest first, four bits each in one word:
// a hit or an allocation moves one number to the front, a miss takes the
// last one's way (the least recent line's, or an empty way's).
class ScannedLru final : public CacheTags {
 public:
  ScannedLru(uint64_t sets, uint64_t ways);  // ways at most kScannedWays
  TagOutcome access(uint64_t line, uint32_t mask, bool write) override;

 private:
  struct Way {
    uint64_t key = 0;  // line + 1; 0 = empty
    uint32_t valid = 0, dirty = 0;
  };
  struct Set {
    uint64_t recency = 0;             // way numbers, newest in the low four bits
    std::array<uint64_t, 2> sig{};   // byte w: way w's signature
  };
  // The way of `set` holding `key`, or ways_ when none does.
  unsigned find(const Set& set, const Way* ways, uint64_t key) const;
  SetIndex set_of_;
  unsigned ways_;
  std::vector<Set> sets_;
  std::vector<Way> ways_of_sets_;  // sets x ways
};

class ListedLru final : public CacheTags {
 public:
  ListedLru(uint64_t sets, uint64_t ways);
  TagOutcome access(uint64_t line, uint32_t mask, bool write) override;

 private:
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
  std::vector<Set> sets_;
  std::vector<Entry> entries_;  // grows up to sets x ways as lines arrive
  Index index_;
};

}  // namespace sasskit::rdcache
