// The distinct 4-byte words or sectors a warp's access touches, in
// ascending order: what the memory pipeline coalesces into requests.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "libcommon/divisor.hpp"

namespace sasskit::pipesim {

// Calls `visit` with each distinct value, ascending, among the first
// kMaxUnits 4-byte words or sectors a warp access touches, lane by lane (32
// lanes of at most 16 bytes each). Each lane touches a run of consecutive
// units. Lanes that step up by one stride, leaving no unit between them
// untouched, touch every unit from the first lane's to the last's (most
// coalesced accesses). Otherwise, when all runs lie within kMaxUnits units
// of the lowest (nearly every access that is not scattered) they are marked
// in a bitmap, which gives their union in order without sorting; else the
// runs are sorted by their first unit (runs with the same first unit may go
// in any order, since merging gives their union) and merged.
inline constexpr size_t kMaxUnits = 256;

// Whether lanes [0, lanes) step up from addrs[0] by a stride under a lane's
// width plus a unit (so no unit between the first lane's and the last's is
// left untouched), none wraps past 2^64, and the kMaxUnits limit cannot cut
// them short; if so, sets [first, last] to the units they touch.
inline bool contiguous_units(const uint64_t* addrs, unsigned lanes, unsigned width, Divisor unit, uint64_t& first,
                             uint64_t& last) {
  const uint64_t bytes = std::max(1u, width), unit_bytes = unit.divisor();
  if (lanes == 0 || lanes > 32 || uint64_t(lanes) * (bytes / unit_bytes + 2) > kMaxUnits) return false;
  const uint64_t stride = lanes > 1 ? addrs[1] - addrs[0] : 0;
  if (stride >= bytes + unit_bytes) return false;
  for (unsigned l = 1; l < lanes; ++l)
    if (addrs[l] < addrs[l - 1] || addrs[l] - addrs[l - 1] != stride) return false;
  if (addrs[lanes - 1] > ~uint64_t(0) - (bytes - 1)) return false;
  first = unit.div(addrs[0]);
  last = unit.div(addrs[lanes - 1] + bytes - 1);
  return true;
}
struct UnitRun {
  uint64_t first, count;
};

template <class Visit>
void visit_runs_in_bitmap(const UnitRun* runs, size_t nruns, uint64_t lowest, Visit visit) {
  std::array<uint64_t, kMaxUnits / 64> bits{};
  for (size_t r = 0; r < nruns; ++r)
    for (uint64_t k = runs[r].first - lowest, end = k + runs[r].count; k < end; ++k)
      bits[k / 64] |= uint64_t(1) << (k % 64);
  for (size_t w = 0; w < bits.size(); ++w)
    for (uint64_t b = bits[w]; b; b &= b - 1) visit(lowest + w * 64 + static_cast<uint64_t>(std::countr_zero(b)));
}

template <class Visit>
void visit_runs_sorted(UnitRun* runs, size_t nruns, Visit visit) {
  auto by_first = [](const UnitRun& a, const UnitRun& b) { return a.first < b.first; };
  if (!std::is_sorted(runs, runs + nruns, by_first)) std::sort(runs, runs + nruns, by_first);
  bool any = false;
  uint64_t previous = 0;
  for (size_t r = 0; r < nruns; ++r) {
    const UnitRun& run = runs[r];
    uint64_t skip = any && previous >= run.first ? previous - run.first + 1 : 0;
    for (uint64_t k = skip; k < run.count; ++k) visit(previous = run.first + k);
    any |= skip < run.count;
  }
}

template <class Visit>
void for_each_distinct_unit(const uint64_t* addrs, unsigned lanes, unsigned width, Divisor unit, Visit visit) {
  uint64_t first_unit, last_unit;
  if (contiguous_units(addrs, lanes, width, unit, first_unit, last_unit)) {
    for (uint64_t u = first_unit; u <= last_unit; ++u) visit(u);
    return;
  }
  std::array<UnitRun, 32> runs;
  size_t nruns = 0;
  uint64_t generated = 0;
  uint64_t lowest = ~uint64_t(0), highest = 0;
  for (unsigned l = 0; l < lanes && l < runs.size() && generated < kMaxUnits; ++l) {
    uint64_t first = unit.div(addrs[l]), last = unit.div(addrs[l] + std::max(1u, width) - 1);
    if (last < first) continue;
    uint64_t count = std::min<uint64_t>(last - first + 1, kMaxUnits - generated);
    generated += count;
    lowest = std::min(lowest, first);
    highest = std::max(highest, first + count - 1);
    runs[nruns++] = UnitRun{first, count};
  }
  if (nruns == 0) return;
  if (highest - lowest < kMaxUnits)
    visit_runs_in_bitmap(runs.data(), nruns, lowest, visit);
  else
    visit_runs_sorted(runs.data(), nruns, visit);
}

}  // namespace sasskit::pipesim
