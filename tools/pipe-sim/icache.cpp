#include "icache.hpp"

#include <algorithm>

namespace sasskit::pipesim {

TagCache::TagCache(const CacheGeometry& g) : line_bytes_(std::max(1u, g.line_bytes)) {
  if (g.size_bytes == 0) return;
  uint64_t lines = std::max<uint64_t>(1, g.size_bytes / line_bytes_);
  ways_ = g.assoc ? std::min<uint64_t>(g.assoc, lines) : static_cast<unsigned>(lines);
  sets_ = std::max<uint64_t>(1, lines / ways_);
  tags_.assign(sets_ * ways_, ~uint64_t(0));
  used_.assign(sets_ * ways_, 0);
}

bool TagCache::access(uint64_t address) {
  ++counters_.accesses;
  if (sets_ == 0) return true;
  uint64_t line = address / line_bytes_;
  size_t base = (line % sets_) * ways_;
  ++clock_;
  size_t victim = base;
  for (size_t w = base; w < base + ways_; ++w) {
    if (tags_[w] == line) {
      used_[w] = clock_;
      return true;
    }
    if (used_[w] < used_[victim]) victim = w;
  }
  ++counters_.misses;
  tags_[victim] = line;
  used_[victim] = clock_;
  return false;
}

std::optional<uint64_t> StreamBuffer::take(uint64_t line) {
  for (size_t i = 0; i < lines_.size(); ++i) {
    if (lines_[i].line != line) continue;
    uint64_t ready = lines_[i].ready;
    lines_.erase(lines_.begin(), lines_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    return ready;
  }
  return std::nullopt;
}

void StreamBuffer::restart(uint64_t line) {
  lines_.clear();
  next_ = line + 1;
}

}  // namespace sasskit::pipesim
