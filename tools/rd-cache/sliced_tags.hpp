// A cache's tags cut into slices of interleaved sets, each slice a CacheTags
// of its own, so that threads can look up the lines of different slices at
// once (sets are independent: what a set holds depends only on the lines
// looked up in it, in their order).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "cache_tags.hpp"

namespace sasskit::rdcache {

class SlicedTags {
 public:
  // A line as its slice knows it: set s of the cache (s = line mod sets) is
  // set s / n of slice s mod n, and `line` is renamed so that the slice's
  // own set index (its line mod its sets) finds that set and no two lines of
  // the slice share a name. Looked up in the same order, each set then has
  // the same outcomes as in one CacheTags of all the sets.
  struct Place {
    uint64_t line = 0;  // renamed
    unsigned slice = 0;
  };

  // The tags of `sets` x `ways` under `policy` (make_cache_tags) in
  // `slices` slices, rounded down to a power of two and to at most `sets`.
  SlicedTags(std::string_view policy, uint64_t sets, uint64_t ways, unsigned slices);

  unsigned slices() const { return static_cast<unsigned>(tags_.size()); }

  Place place(uint64_t line) const {
    if (slice_bits_ == 0) return Place{line, 0};
    const uint64_t round = line / sets_, set = line - round * sets_;
    const unsigned slice = static_cast<unsigned>(set & (tags_.size() - 1));
    return Place{round * sets_of_slice_[slice] + (set >> slice_bits_), slice};
  }

  // CacheTags::access, in the line's slice.
  TagOutcome access(const Place& at, uint32_t mask, bool write) {
    return tags_[at.slice]->access(at.line, mask, write);
  }

 private:
  uint64_t sets_;
  unsigned slice_bits_ = 0;
  std::vector<uint64_t> sets_of_slice_;
  std::vector<std::unique_ptr<CacheTags>> tags_;
};

}  // namespace sasskit::rdcache
