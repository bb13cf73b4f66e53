// What placement needs of each CTA of a kernel, in stream order, kept small
// (issue 35: pipe-sim holds at most 64 bytes per CTA): its place in the
// grid, held only once the stream leaves grid order, and its instruction
// counts by unit as an index into the kernel's distinct counts, which most
// CTAs of a kernel share.
#pragma once

#include <cstdint>
#include <vector>

#include "libcommon/cta_unit_counts.hpp"

namespace sasskit::pipesim {

class CtaSummaries {
 public:
  // The kernel's next CTA in the stream.
  void add(uint64_t linear, const UnitCounts& units);

  size_t size() const { return ids_.size(); }
  bool empty() const { return ids_.empty(); }
  uint64_t linear(size_t i) const { return in_grid_order_ ? i : linear_[i]; }
  // Its counts: distinct()[units_id(i)].
  uint32_t units_id(size_t i) const { return ids_[i]; }
  UnitCounts units(size_t i) const { return distinct_[ids_[i]]; }
  const UnitCountsTable& distinct() const { return distinct_; }

 private:
  bool in_grid_order_ = true;     // linear(i) == i so far: linear_ holds nothing
  std::vector<uint64_t> linear_;  // per CTA, once the stream leaves grid order
  std::vector<uint32_t> ids_;     // per CTA
  UnitCountsTable distinct_;
};

}  // namespace sasskit::pipesim
