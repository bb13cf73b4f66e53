#include "lru_tags.hpp"

#include <algorithm>

namespace sasskit::rdcache {

namespace {
constexpr uint64_t kFibonacciHash = 0x9E3779B97F4A7C15ull;
constexpr unsigned kInitialIndexBits = 8;
}  // namespace

ListedLru::Index::Index()
    : keys_(size_t{1} << kInitialIndexBits, 0), values_(keys_.size(), kNone), shift_(64 - kInitialIndexBits) {}

size_t ListedLru::Index::home(uint64_t key) const { return (key * kFibonacciHash) >> shift_; }

uint32_t ListedLru::Index::find(uint64_t line) const {
  const size_t mask = keys_.size() - 1;
  for (size_t i = home(line + 1);; i = (i + 1) & mask) {
    if (keys_[i] == line + 1) return values_[i];
    if (keys_[i] == 0) return kNone;
  }
}

void ListedLru::Index::insert(uint64_t line, uint32_t entry) {
  if (4 * (count_ + 1) >= keys_.size()) grow();
  const size_t mask = keys_.size() - 1;
  size_t i = home(line + 1);
  while (keys_[i] != 0) i = (i + 1) & mask;
  keys_[i] = line + 1;
  values_[i] = entry;
  ++count_;
}

// Removes `line` (which must be present) and moves later keys of its probe
// run back, so lookups never need tombstones.
void ListedLru::Index::erase(uint64_t line) {
  const size_t mask = keys_.size() - 1;
  size_t hole = home(line + 1);
  while (keys_[hole] != line + 1) hole = (hole + 1) & mask;
  for (size_t i = (hole + 1) & mask; keys_[i] != 0; i = (i + 1) & mask) {
    const size_t want = home(keys_[i]);
    // Keys whose home lies cyclically in (hole, i] stay; the others fill the hole.
    const bool stays = hole < i ? (want > hole && want <= i) : (want > hole || want <= i);
    if (stays) continue;
    keys_[hole] = keys_[i];
    values_[hole] = values_[i];
    hole = i;
  }
  keys_[hole] = 0;
  --count_;
}

void ListedLru::Index::grow() {
  std::vector<uint64_t> old_keys(keys_.size() * 2, 0);
  std::vector<uint32_t> old_values(old_keys.size(), kNone);
  old_keys.swap(keys_);
  old_values.swap(values_);
  --shift_;
  count_ = 0;
  for (size_t i = 0; i < old_keys.size(); ++i)
    if (old_keys[i] != 0) insert(old_keys[i] - 1, old_values[i]);
}

std::unique_ptr<CacheTags> make_lru_tags(uint64_t sets, uint64_t ways) {
  sets = std::max<uint64_t>(1, sets);
  ways = std::max<uint64_t>(1, ways);
  if (ways <= kScannedWays) return std::make_unique<ScannedLru>(sets, ways);
  return std::make_unique<ListedLru>(sets, ways);
}

ScannedLru::ScannedLru(uint64_t sets, uint64_t ways) : set_of_(sets), ways_(ways), ways_of_sets_(sets * ways) {}

// A set's lines are held newest first, the empty ways last; the line found
// (or allocated) moves to the front. A missing line takes the last way's
// place: the least recent line's, or an empty way's (nothing dirty), so the
// search compares keys only.
TagOutcome ScannedLru::access(uint64_t line, uint32_t mask, bool write) {
  TagOutcome out;
  Way* const set = ways_of_sets_.data() + set_of_(line) * ways_;
  const uint64_t key = line + 1;
  uint64_t i = 0;
  while (i < ways_ && set[i].key != key) ++i;
  Way found{key};
  if (i < ways_) {
    found = set[i];
    out.hits = found.valid & mask;
  } else {
    i = ways_ - 1;
    out.written_back = static_cast<unsigned>(sectors_in(set[i].dirty));
  }
  std::move_backward(set, set + i, set + i + 1);
  found.valid |= mask;
  if (write) found.dirty |= mask;
  set[0] = found;
  return out;
}

ListedLru::ListedLru(uint64_t sets, uint64_t ways) : set_of_(sets), ways_(ways), sets_(sets) {}

void ListedLru::unlink(Set& set, uint32_t e) {
  Entry& x = entries_[e];
  (x.newer == kNone ? set.newest : entries_[x.newer].older) = x.older;
  (x.older == kNone ? set.oldest : entries_[x.older].newer) = x.newer;
  x.newer = x.older = kNone;
  --set.size;
}

void ListedLru::push_newest(Set& set, uint32_t e) {
  Entry& x = entries_[e];
  x.older = set.newest;
  x.newer = kNone;
  (set.newest == kNone ? set.oldest : entries_[set.newest].newer) = e;
  set.newest = e;
  ++set.size;
}

TagOutcome ListedLru::access(uint64_t line, uint32_t mask, bool write) {
  TagOutcome out;
  Set& set = sets_[set_of_(line)];
  uint32_t e = index_.find(line);
  if (e != kNone) {
    out.hits = entries_[e].valid & mask;
    unlink(set, e);
  } else if (set.size == ways_) {  // evict the least recent line, reuse its entry
    e = set.oldest;
    out.written_back = static_cast<unsigned>(sectors_in(entries_[e].dirty));
    index_.erase(entries_[e].line);
    unlink(set, e);
    entries_[e] = Entry{line};
    index_.insert(line, e);
  } else {
    e = static_cast<uint32_t>(entries_.size());
    entries_.push_back(Entry{line});
    index_.insert(line, e);
  }
  Entry& x = entries_[e];
  x.valid |= mask;
  if (write) x.dirty |= mask;
  push_newest(set, e);
  return out;
}

}  // namespace sasskit::rdcache
