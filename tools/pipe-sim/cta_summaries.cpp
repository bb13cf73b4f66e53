#include "cta_summaries.hpp"

#include <numeric>

namespace sasskit::pipesim {

void CtaSummaries::add(uint64_t linear, const UnitCounts& units) {
  if (in_grid_order_ && linear != ids_.size()) {
    in_grid_order_ = false;
    linear_.resize(ids_.size());
    std::iota(linear_.begin(), linear_.end(), uint64_t{0});
  }
  if (!in_grid_order_) linear_.push_back(linear);
  const auto [it, added] = index_.try_emplace(units, static_cast<uint32_t>(distinct_.size()));
  if (added) distinct_.push_back(units);
  ids_.push_back(it->second);
}

void CtaSummaries::seal() { index_ = {}; }

size_t CtaSummaries::Hash::operator()(const UnitCounts& units) const {
  size_t h = 0;
  for (uint64_t n : units) h = (h ^ std::hash<uint64_t>{}(n)) * 0x9e3779b97f4a7c15ULL;
  return h;
}

}  // namespace sasskit::pipesim
