// Exact LRU stack distances of a sectored cache (a tag covers a line, data
// is valid per sector), per cache set, for every associativity at once.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace sasskit::rdcache {

// Maps a line to its set: modulo, a mask when the set count is a power of two.
class SetIndex {
 public:
  explicit SetIndex(uint64_t sets) : sets_(sets), mask_(std::has_single_bit(sets) ? sets - 1 : 0) {}
  uint64_t operator()(uint64_t line) const { return mask_ || sets_ == 1 ? line & mask_ : line % sets_; }

 private:
  uint64_t sets_, mask_;
};

// The distance of an access whose line or sector was never seen (or lost).
inline constexpr uint32_t kCold = UINT32_MAX;
inline constexpr unsigned kMaxSectorsPerLine = 4;

// The sectors set in a line's sector mask, from a table of nibbles: the
// build targets every x86-64 (no -mpopcnt), where std::popcount is a call
// into libgcc, and these masks have 4 bits.
inline unsigned sectors_in(uint32_t mask) {
  static_assert(kMaxSectorsPerLine <= 4);
  return (uint64_t{0x4332322132212110} >> (4 * mask)) & 0xf;
}

// Stack distances of one set count: an access of sector s of line L hits in
// a `ways`-way LRU cache with this many sets iff its distance < ways.
//
// Line distance d = distinct lines of L's set used since L's last use. A
// sector stays valid while its line stays resident, i.e. while every use of
// the line since the sector was last touched had d < ways; so a sector's
// distance is the largest line distance seen since the sector's last touch.
class StackEngine {
 public:
  virtual ~StackEngine() = default;
  // One tag lookup of `line` for the sectors in `mask` (bit i = sector i of
  // the line); writes each touched sector's distance to `out`, in bit order.
  // Returns the number of distances written.
  virtual unsigned access(uint64_t line, uint32_t mask, uint32_t* out) = 0;
};

// Exact distances of any size: per set, a Fenwick tree over last-use time
// stamps counts the lines used after a stamp, O(log n) per access. When the
// stamps run out the live ones are renumbered, so memory stays within a
// small multiple of the distinct lines (about 100 bytes each), whatever the
// trace length.
std::unique_ptr<StackEngine> make_fenwick_stack(uint64_t sets, unsigned sectors_per_line);

// Distances below `depth` exact, larger ones reported as kCold: per set the
// `depth` most recent lines in LRU order (Mattson's stack, truncated). Exact
// hit counts for every associativity up to `depth`; cheap when it is small.
std::unique_ptr<StackEngine> make_bounded_stack(uint64_t sets, unsigned sectors_per_line, unsigned depth);

// The engine for caches of `sets` sets and at most `max_ways` ways: bounded
// up to kBoundedDepthLimit ways, Fenwick beyond (fully associative caches).
inline constexpr unsigned kBoundedDepthLimit = 64;
std::unique_ptr<StackEngine> make_stack(uint64_t sets, unsigned sectors_per_line, uint64_t max_ways);

// How many accesses had each distance: hits for any associativity.
class DistanceHistogram {
 public:
  void add(uint32_t distance);
  void merge(const DistanceHistogram& other);
  uint64_t accesses() const { return accesses_; }
  // Accesses with distance < ways.
  uint64_t hits(uint64_t ways) const;

 private:
  std::vector<uint64_t> counts_;
  uint64_t accesses_ = 0;
};

}  // namespace sasskit::rdcache
