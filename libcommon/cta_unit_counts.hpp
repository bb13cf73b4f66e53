// Each CTA's warp instructions by unit class, for a kernel whose CTAs
// arrive in any order. Most CTAs of a kernel share their counts, so the
// distinct counts are kept once (UnitCountsTable) and each CTA holds the
// number of its own (4 bytes a CTA, where a copy of the counts takes 56).
//
// Memory follows the CTAs added, never a declared grid (formats/SECURITY.md):
// the numbers live in a table indexed by grid position up to a bound that
// grows with the CTAs added; a CTA far ahead of the bound waits in a map
// until the bound reaches it.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "libcommon/nonstall.hpp"

namespace sasskit {

// The distinct counts of one kernel's CTAs, each numbered once. Each is
// kept as seven varints (a few bytes where a UnitCounts takes 56) and found
// again through an open-addressing table of numbers: about 30 bytes a
// distinct count, so a kernel whose CTAs all differ stays small too.
class UnitCountsTable {
 public:
  // The number of `counts`, new or found.
  uint32_t intern(const UnitCounts& counts);
  UnitCounts operator[](uint32_t id) const;
  // Distinct counts numbered so far (0 .. size() - 1).
  uint32_t size() const { return static_cast<uint32_t>(offsets_.size()); }

 private:
  std::string_view encoded(uint32_t id) const;
  uint32_t find_or_add(const UnitCounts& counts);
  void grow();

  std::string bytes_;              // the distinct counts, encoded, one after another
  std::vector<uint64_t> offsets_;  // where each starts in bytes_
  std::vector<uint32_t> slots_;    // id + 1 by hash of the encoding; 0: empty
  std::string scratch_;            // the encoding being looked up
  // The counts numbered last: a kernel's CTAs come in runs of equal counts.
  UnitCounts last_{};
  uint32_t last_id_ = 0;
  bool has_last_ = false;
};

class CtaUnitCounts {
 public:
  CtaUnitCounts() = default;
  // CTAs 0, 1, ... with these counts (tests, and callers holding them all).
  explicit CtaUnitCounts(const std::vector<UnitCounts>& in_grid_order);

  // Records CTA `index`'s counts; false when it was added before.
  bool add(uint32_t index, const UnitCounts& counts);
  bool contains(uint32_t index) const;
  // CTAs added.
  uint64_t size() const { return added_; }
  // The counts of CTA `index`, which was added: table()[id(index)].
  UnitCounts operator[](uint32_t index) const { return table_[id(index)]; }
  uint32_t id(uint32_t index) const;
  const UnitCountsTable& table() const { return table_; }

 private:
  static constexpr uint32_t kAbsent = UINT32_MAX;
  void place(uint32_t index, uint32_t id);
  uint64_t bound() const { return 2 * added_ + 4096; }

  UnitCountsTable table_;
  std::deque<uint32_t> by_index_;  // id per CTA below bound(); kAbsent where none was added
  std::map<uint32_t, uint32_t> ahead_;  // CTA -> id, for CTAs at or past bound()
  uint64_t added_ = 0;
};

}  // namespace sasskit
