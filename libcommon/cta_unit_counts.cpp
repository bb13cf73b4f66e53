#include "cta_unit_counts.hpp"

namespace sasskit {

CtaUnitCounts::CtaUnitCounts(const std::vector<UnitCounts>& in_grid_order) {
  for (size_t i = 0; i < in_grid_order.size(); ++i) add(static_cast<uint32_t>(i), in_grid_order[i]);
}

namespace {

void append_varint(std::string& out, uint64_t value) {
  for (; value >= 0x80; value >>= 7) out += static_cast<char>(value | 0x80);
  out += static_cast<char>(value);
}

uint64_t hash_of(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a
  for (unsigned char b : bytes) h = (h ^ b) * 0x100000001b3ULL;
  return h;
}

}  // namespace

std::string_view UnitCountsTable::encoded(uint32_t id) const {
  const uint64_t end = id + 1 < offsets_.size() ? offsets_[id + 1] : bytes_.size();
  return std::string_view(bytes_).substr(offsets_[id], end - offsets_[id]);
}

UnitCounts UnitCountsTable::operator[](uint32_t id) const {
  UnitCounts counts{};
  const std::string_view in = encoded(id);
  size_t at = 0;
  for (uint64_t& n : counts)
    for (unsigned shift = 0;; shift += 7) {
      const auto byte = static_cast<unsigned char>(in[at++]);
      n |= uint64_t(byte & 0x7f) << shift;
      if (byte < 0x80) break;
    }
  return counts;
}

void UnitCountsTable::grow() {
  std::vector<uint32_t> slots(std::max<size_t>(16, 2 * slots_.size()), 0);
  const size_t mask = slots.size() - 1;
  for (uint32_t id = 0; id < offsets_.size(); ++id) {
    size_t i = hash_of(encoded(id)) & mask;
    while (slots[i]) i = (i + 1) & mask;
    slots[i] = id + 1;
  }
  slots_.swap(slots);
}

uint32_t UnitCountsTable::intern(const UnitCounts& counts) {
  if (has_last_ && counts == last_) return last_id_;
  last_ = counts;
  has_last_ = true;
  last_id_ = find_or_add(counts);
  return last_id_;
}

uint32_t UnitCountsTable::find_or_add(const UnitCounts& counts) {
  scratch_.clear();
  for (uint64_t n : counts) append_varint(scratch_, n);
  if (2 * (offsets_.size() + 1) > slots_.size()) grow();  // at most half full
  const size_t mask = slots_.size() - 1;
  size_t i = hash_of(scratch_) & mask;
  for (; slots_[i]; i = (i + 1) & mask)
    if (encoded(slots_[i] - 1) == scratch_) return slots_[i] - 1;
  const auto id = static_cast<uint32_t>(offsets_.size());
  offsets_.push_back(bytes_.size());
  bytes_ += scratch_;
  slots_[i] = id + 1;
  return id;
}

bool CtaUnitCounts::contains(uint32_t index) const {
  if (index < by_index_.size()) return by_index_[index] != kAbsent;
  return ahead_.count(index) != 0;
}

uint32_t CtaUnitCounts::id(uint32_t index) const {
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
