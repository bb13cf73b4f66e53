// The modeled cache itself, tag by tag: which lines it holds, which of their
// sectors are valid (a tag covers a line, data is valid per sector) and
// which are dirty, so that it knows what an eviction writes back. Which line
// a miss evicts is the replacement policy's choice: each policy is a class
// behind CacheTags, named in cache_tags.cpp's table.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace sasskit::rdcache {

struct TagOutcome {
  uint32_t hits = 0;         // sectors of the access found valid (bit i = sector i)
  unsigned written_back = 0; // dirty sectors of the line this access evicted
};

class CacheTags {
 public:
  virtual ~CacheTags() = default;
  // Looks up `line` for the sectors in `mask`. A missing line is allocated
  // (evicting the line the policy chooses when its set is full) with only
  // those sectors valid; a write makes them dirty without reading them (a
  // write-allocate cache that fetches on read only, as Accel-Sim's `L`
  // policy and the byte masks of NVIDIA's L2 sectors).
  virtual TagOutcome access(uint64_t line, uint32_t mask, bool write) = 0;
};

// The replacement policy rd-cache models unless told otherwise.
inline constexpr std::string_view kDefaultReplacement = "lru";

// The tags of a cache of `sets` sets of `ways` ways (0 is taken as 1; a
// fully associative cache is one set) under the replacement policy named
// `policy`; a usage error for a name the table lacks.
std::unique_ptr<CacheTags> make_cache_tags(std::string_view policy, uint64_t sets, uint64_t ways);

// The policies' names, comma-separated, in the table's order.
std::string replacement_policy_names();

}  // namespace sasskit::rdcache
