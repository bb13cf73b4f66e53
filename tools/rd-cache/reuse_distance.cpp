#include "reuse_distance.hpp"

#include <algorithm>
#include <bit>

namespace sasskit::rdcache {

namespace {

constexpr uint64_t kFibonacciHash = 0x9E3779B97F4A7C15ull;
constexpr unsigned kInitialIndexBits = 10;

// Folds line distance `d` into the sectors and reports the touched ones.
unsigned touch(std::array<uint32_t, kMaxSectorsPerLine>& sector_max, unsigned sectors, uint32_t d,
               uint32_t mask, uint32_t* out) {
  unsigned n = 0;
  for (unsigned s = 0; s < sectors; ++s) {
    sector_max[s] = std::max(sector_max[s], d);
    if (mask & (1u << s)) {
      out[n++] = sector_max[s];
      sector_max[s] = 0;
    }
  }
  return n;
}

// What is known of a line: its last-use stamp in its set and, per sector,
// the largest line distance since the sector was last touched. Kept in the
// hash table itself: one cache miss per access instead of two.
struct LineState {
  uint64_t key = 0;  // line + 1; 0 = empty entry
  uint32_t stamp = 0;
  std::array<uint32_t, kMaxSectorsPerLine> sector_max;
};

// line -> LineState, open addressing with linear probing; grows with the
// number of distinct lines, never with the trace length.
class LineTable {
 public:
  LineTable() : entries_(size_t{1} << kInitialIndexBits), shift_(64 - kInitialIndexBits) {}

  // The state of `line`, created with every sector cold if new (`inserted`).
  // Valid until the next insertion.
  LineState& find_or_insert(uint64_t line, bool& inserted) {
    if (2 * (count_ + 1) >= entries_.size()) grow();
    LineState& e = entries_[probe(line + 1)];
    inserted = e.key == 0;
    if (inserted) {
      e.key = line + 1;
      e.sector_max.fill(kCold);
      ++count_;
    }
    return e;
  }
  LineState& find(uint64_t line) { return entries_[probe(line + 1)]; }

 private:
  size_t probe(uint64_t key) const {
    const size_t mask = entries_.size() - 1;
    size_t i = (key * kFibonacciHash) >> shift_;
    while (entries_[i].key != key && entries_[i].key != 0) i = (i + 1) & mask;
    return i;
  }
  void grow() {
    std::vector<LineState> old(entries_.size() * 2);
    old.swap(entries_);
    --shift_;
    for (const LineState& e : old)
      if (e.key != 0) entries_[probe(e.key)] = e;
  }
  std::vector<LineState> entries_;
  size_t count_ = 0;
  unsigned shift_;
};

// The last-use stamps of one set's lines: a bit per stamp (live or not) and
// a Fenwick tree over the live counts of 64-stamp blocks, so the tree is
// 64 times smaller than the stamp range and its walks stay in the CPU cache.
class Timeline {
 public:
  // Distinct lines used since stamp `t` (which stays live).
  uint32_t used_since(uint32_t t) const { return live_ - prefix(t); }

  void retire(uint32_t t) {
    bits_[t >> 6] &= ~(uint64_t{1} << (t & 63));
    add_block(t >> 6, -1);
    --live_;
  }

  // Stamps `line` as most recent; renumbering rewrites the stamps in `table`.
  uint32_t push(uint64_t line, LineTable& table) {
    if (owner_.size() >= 64 * bits_.size()) compact(table);
    const auto t = static_cast<uint32_t>(owner_.size());
    owner_.push_back(line);
    bits_[t >> 6] |= uint64_t{1} << (t & 63);
    add_block(t >> 6, +1);
    ++live_;
    return t;
  }

 private:
  void add_block(size_t b, int delta) {
    for (size_t i = b + 1; i < tree_.size(); i += i & (~i + 1)) tree_[i] += delta;
  }
  uint32_t prefix(uint32_t t) const {  // live stamps <= t
    uint32_t sum = static_cast<uint32_t>(std::popcount(bits_[t >> 6] & ((uint64_t{2} << (t & 63)) - 1)));
    for (size_t i = t >> 6; i > 0; i &= i - 1) sum += tree_[i];  // blocks before t's
    return sum;
  }
  // Renumbers the live stamps 0..live-1. Room for 3 * live new stamps
  // keeps the renumbering (a table lookup per live line) rare.
  void compact(LineTable& table) {
    size_t kept = 0;
    for (size_t t = 0; t < owner_.size(); ++t)
      if (bits_[t >> 6] & (uint64_t{1} << (t & 63))) owner_[kept++] = owner_[t];
    owner_.resize(kept);
    const size_t blocks = std::max<size_t>(1, (4 * (live_ + 1) + 63) / 64);
    bits_.assign(blocks, 0);
    tree_.assign(blocks + 1, 0);
    for (uint32_t t = 0; t < owner_.size(); ++t) {
      table.find(owner_[t]).stamp = t;
      bits_[t >> 6] |= uint64_t{1} << (t & 63);
      tree_[(t >> 6) + 1] += 1;
    }
    for (size_t i = 1; i < tree_.size(); ++i) {  // linear-time Fenwick build
      const size_t parent = i + (i & (~i + 1));
      if (parent < tree_.size()) tree_[parent] += tree_[i];
    }
  }

  std::vector<uint64_t> bits_;   // live stamps
  std::vector<uint32_t> tree_;   // 1-based, over blocks of 64 stamps
  std::vector<uint64_t> owner_;  // line per stamp; only those with their bit set are live
  uint32_t live_ = 0;
};

class FenwickStack : public StackEngine {
 public:
  FenwickStack(uint64_t sets, unsigned sectors_per_line)
      : set_of_(sets), sets_(sets), sectors_(sectors_per_line) {}

  unsigned access(uint64_t line, uint32_t mask, uint32_t* out) override {
    bool inserted = false;
    Timeline& timeline = sets_[set_of_(line)];
    uint32_t distance = kCold;
    {
      LineState& state = lines_.find_or_insert(line, inserted);
      if (!inserted) {
        distance = timeline.used_since(state.stamp);
        timeline.retire(state.stamp);
      }
    }
    const uint32_t stamp = timeline.push(line, lines_);  // may rewrite stamps, never inserts
    LineState& state = lines_.find(line);
    state.stamp = stamp;
    return touch(state.sector_max, sectors_, distance, mask, out);
  }

 private:
  SetIndex set_of_;
  LineTable lines_;
  std::vector<Timeline> sets_;
  unsigned sectors_;
};

class BoundedStack : public StackEngine {
 public:
  BoundedStack(uint64_t sets, unsigned sectors_per_line, unsigned depth)
      : set_of_(sets), depth_(depth), sectors_(sectors_per_line), used_(sets, 0),
        ways_(sets * depth) {}

  unsigned access(uint64_t line, uint32_t mask, uint32_t* out) override {
    const uint64_t set = set_of_(line);
    Way* stack = &ways_[set * depth_];  // most recent first
    const unsigned used = used_[set];
    unsigned d = 0;
    while (d < used && stack[d].line != line) ++d;
    const bool seen = d < used;
    Way found;
    if (seen) {
      found = stack[d];
    } else {  // never seen, or pushed below the depth: every sector lost
      found.line = line;
      found.sector_max.fill(kCold);
      if (used < depth_) ++used_[set];
      d = std::min(used, depth_ - 1);  // the slot it frees
    }
    std::move_backward(stack, stack + d, stack + d + 1);
    stack[0] = found;
    return touch(stack[0].sector_max, sectors_, seen ? d : kCold, mask, out);
  }

 private:
  struct Way {
    uint64_t line = 0;
    std::array<uint32_t, kMaxSectorsPerLine> sector_max{};
  };
  SetIndex set_of_;
  unsigned depth_, sectors_;
  std::vector<unsigned> used_;  // per set
  std::vector<Way> ways_;       // per set, depth_ of them
};

}  // namespace

std::unique_ptr<StackEngine> make_fenwick_stack(uint64_t sets, unsigned sectors_per_line) {
  return std::make_unique<FenwickStack>(sets, sectors_per_line);
}

std::unique_ptr<StackEngine> make_bounded_stack(uint64_t sets, unsigned sectors_per_line, unsigned depth) {
  return std::make_unique<BoundedStack>(sets, sectors_per_line, std::max(1u, depth));
}

std::unique_ptr<StackEngine> make_stack(uint64_t sets, unsigned sectors_per_line, uint64_t max_ways) {
  if (max_ways <= kBoundedDepthLimit)
    return make_bounded_stack(sets, sectors_per_line, static_cast<unsigned>(max_ways));
  return make_fenwick_stack(sets, sectors_per_line);
}

void DistanceHistogram::add(uint32_t distance) {
  ++accesses_;
  if (distance == kCold) return;
  if (distance >= counts_.size()) counts_.resize(size_t{distance} + 1, 0);
  ++counts_[distance];
}

void DistanceHistogram::merge(const DistanceHistogram& other) {
  accesses_ += other.accesses_;
  if (other.counts_.size() > counts_.size()) counts_.resize(other.counts_.size(), 0);
  for (size_t d = 0; d < other.counts_.size(); ++d) counts_[d] += other.counts_[d];
}

uint64_t DistanceHistogram::hits(uint64_t ways) const {
  const size_t n = static_cast<size_t>(std::min<uint64_t>(ways, counts_.size()));
  uint64_t sum = 0;
  for (size_t d = 0; d < n; ++d) sum += counts_[d];
  return sum;
}

}  // namespace sasskit::rdcache
