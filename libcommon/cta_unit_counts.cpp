#include "cta_unit_counts.hpp"

namespace sasskit {

CtaUnitCounts::CtaUnitCounts(const std::vector<UnitCounts>& in_grid_order) {
  for (size_t i = 0; i < in_grid_order.size(); ++i) add(static_cast<uint32_t>(i), in_grid_order[i]);
}

size_t UnitCountsTable::Hash::operator()(const UnitCounts& c) const {
  uint64_t h = 0;
  for (uint64_t n : c) h = (h ^ n) * 0x100000001b3ULL;  // FNV-1a's prime, a word at a time
  return static_cast<size_t>(h ^ (h >> 32));
}

uint32_t UnitCountsTable::intern(const UnitCounts& counts) {
  const auto [it, added] = ids_.emplace(counts, static_cast<uint32_t>(distinct_.size()));
  if (added) distinct_.push_back(counts);
  return it->second;
}

bool CtaUnitCounts::contains(uint32_t index) const {
  if (index < by_index_.size()) return by_index_[index] != kAbsent;
  return ahead_.count(index) != 0;
}

uint32_t CtaUnitCounts::id_of(uint32_t index) const {
  return index < by_index_.size() ? by_index_[index] : ahead_.at(index);
}

void CtaUnitCounts::place(uint32_t index, uint32_t id) {
  if (index >= by_index_.size()) by_index_.resize(size_t(index) + 1, kAbsent);
  by_index_[index] = id;
}

bool CtaUnitCounts::add(uint32_t index, const UnitCounts& counts) {
  if (contains(index)) return false;
  const uint32_t id = table_.intern(counts);
  ++added_;
  if (index < bound())
    place(index, id);
  else
    ahead_.emplace(index, id);
  // The bound grew: the table takes the CTAs it now covers.
  while (!ahead_.empty() && ahead_.begin()->first < bound()) {
    place(ahead_.begin()->first, ahead_.begin()->second);
    ahead_.erase(ahead_.begin());
  }
  return true;
}

}  // namespace sasskit
