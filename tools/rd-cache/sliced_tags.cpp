#include "sliced_tags.hpp"

#include <algorithm>
#include <bit>

namespace sasskit::rdcache {

SlicedTags::SlicedTags(std::string_view policy, uint64_t sets, uint64_t ways, unsigned slices)
    : sets_(std::max<uint64_t>(1, sets)) {
  const uint64_t count = std::bit_floor(std::clamp<uint64_t>(slices, 1, sets_));
  slice_bits_ = static_cast<unsigned>(std::countr_zero(count));
  for (uint64_t s = 0; s < count; ++s) {
    sets_of_slice_.push_back((sets_ - s + count - 1) / count);  // the sets s, s + count, ... below sets_
    tags_.push_back(make_cache_tags(policy, sets_of_slice_.back(), ways));
  }
}

}  // namespace sasskit::rdcache
