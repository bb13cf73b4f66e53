#include "lru_tags.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "libcommon/diag.hpp"

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

namespace {

constexpr uint64_t kEveryByte = 0x0101010101010101ull, kEveryNibble = 0x1111111111111111ull;

uint8_t signature(uint64_t key) { return static_cast<uint8_t>((key * kFibonacciHash) >> 56); }

// Of `x` cut into lanes of `bits` (`every`: a 1 in each lane's lowest
// bit), the top bit of each lane equal to `value`, and maybe of lanes above
// such a lane: the lowest flagged one always is.
uint64_t lanes_equal(uint64_t x, uint64_t value, uint64_t every, unsigned bits) {
  const uint64_t y = x ^ (every * value);
  return (y - every) & ~y & (every << (bits - 1));
}

// The place of way `w` in `recency` (the lowest four-bit lane equal to w).
unsigned place_of(uint64_t recency, unsigned w) {
  return static_cast<unsigned>(std::countr_zero(lanes_equal(recency, w, kEveryNibble, 4))) / 4;
}

// `recency` with the way at `place` moved to the front.
uint64_t to_front(uint64_t recency, unsigned place) {
  const uint64_t w = (recency >> (4 * place)) & 0xf;
  const uint64_t newer = recency & ((uint64_t{1} << (4 * place)) - 1);
  const uint64_t older = place == 15 ? 0 : recency & (~uint64_t{0} << (4 * (place + 1)));
  return older | newer << 4 | w;
}

}  // namespace

ScannedLru::ScannedLru(uint64_t sets, uint64_t ways)
    : set_of_(sets), ways_(static_cast<unsigned>(ways)), sets_(sets), ways_of_sets_(sets * ways) {
  if (ways == 0 || ways > kScannedWays) fail("ScannedLru: " + std::to_string(ways) + " ways");
  uint64_t identity = 0;  // way w at place w; places past the ways hold 15s, found only as way 15
  for (unsigned place = 0; place < kScannedWays; ++place)
    identity |= uint64_t{place < ways_ ? place : 15} << (4 * place);
  for (Set& set : sets_) set.recency = identity;
}

unsigned ScannedLru::find(const Set& set, const Way* ways, uint64_t key) const {
  const uint8_t sig = signature(key);
  for (unsigned half = 0; half < 2; ++half)
    for (uint64_t bits = lanes_equal(set.sig[half], sig, kEveryByte, 8); bits; bits &= bits - 1) {
      const unsigned w = 8 * half + static_cast<unsigned>(std::countr_zero(bits)) / 8;
      if (w < ways_ && ways[w].key == key) return w;
    }
  return ways_;
}

TagOutcome ScannedLru::access(uint64_t line, uint32_t mask, bool write) {
  TagOutcome out;
  const uint64_t index = set_of_(line);
  Set& set = sets_[index];
  Way* const ways = ways_of_sets_.data() + index * ways_;
  const uint64_t key = line + 1;
  unsigned w = find(set, ways, key);
  unsigned place;
  if (w < ways_) {
    out.hits = ways[w].valid & mask;
    place = place_of(set.recency, w);
  } else {
    place = ways_ - 1;
    w = static_cast<unsigned>((set.recency >> (4 * place)) & 0xf);
    out.written_back = static_cast<unsigned>(sectors_in(ways[w].dirty));
    ways[w] = Way{key};
    const unsigned shift = 8 * (w % 8);
    set.sig[w / 8] = (set.sig[w / 8] & ~(uint64_t{0xff} << shift)) | uint64_t{signature(key)} << shift;
  }
  set.recency = to_front(set.recency, place);
  ways[w].valid |= mask;
  if (write) ways[w].dirty |= mask;
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
