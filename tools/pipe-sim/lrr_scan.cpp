// The LRR scheduler's scan over a sub-core's head masks. It reaches the
// same verdict and records the same events as scan_for_issue visiting the
// warps one by one in slot order from the one after the last issued warp:
// each event keeps the PC of the first warp that reported it and whether any
// of them was a memory instruction, so whole sets of warps are handled at once.
#include <bit>

#include "sm.hpp"

namespace sasskit::pipesim {
namespace {

// The low `width` bits of `m`, rotated so that bit `start` comes first.
uint64_t rotate(uint64_t m, unsigned start, unsigned width) {
  if (start == 0) return m;
  uint64_t full = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  return ((m >> start) | (m << (width - start))) & full;
}

}  // namespace

bool SmSim::scan_lrr_masks(SubCore& sc, uint32_t index, IssueScan& scan) {
  const HeadMasks& m = sc.masks;
  const uint32_t n = static_cast<uint32_t>(subcores_.size());
  const unsigned width = subcore_slots_;
  // Slot j * n + index has local index j; start after the last issued warp.
  unsigned start = sc.greedy != kNone && sc.greedy >= index ? (sc.greedy - index) / n + 1 : 0;
  if (start >= width) start = 0;
  auto rot = [&](uint64_t mask) { return rotate(mask, start, width); };
  auto slot_at = [&](unsigned position) { return ((position + start) % width) * n + index; };

  const uint64_t ready = rot(m.ready), ready_mem = rot(m.ready_mem);
  const bool has_excluded = scan.excluded_unit < kUnitClasses;
  const uint64_t excluded = has_excluded ? rot(m.ready_unit[scan.excluded_unit]) : 0;
  uint64_t saturated = 0;
  for (unsigned u = 0; u < kUnitClasses; ++u) {
    if ((has_excluded && u == scan.excluded_unit) || !m.ready_unit[u]) continue;
    if (unit_free(sc, static_cast<UnitClass>(u))) continue;
    saturated |= rot(m.ready_unit[u]);
    for (uint64_t t : sc.pipes[u]) scan.wake_at(t - kIssueToDispatch);
  }
  const uint64_t candidates = ready & ~excluded & ~saturated;
  Collector* cu = nullptr;
  if (candidates) {
    auto free = std::find_if(sc.cus.begin(), sc.cus.end(), [](const Collector& c) { return !c.busy; });
    if (free != sc.cus.end()) cu = &*free;
  }

  // The warps scanned before the one that issues, or all of them.
  uint64_t before = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  int issuer = -1;
  if (cu) {
    issuer = std::countr_zero(candidates);
    before = (uint64_t(1) << issuer) - 1;
  }
  auto report = [&](StallEvent e, uint64_t set, uint64_t mem_set) {
    set &= before;
    if (!set) return false;
    scan.events.add(e, (set & mem_set) != 0, heads_[slot_at(std::countr_zero(set))].pc_index);
    return true;
  };
  report(StallEvent::Barrier, rot(m.barrier), 0);
  report(StallEvent::DataDependence, rot(m.blocked), rot(m.blocked_on_load));
  if (report(StallEvent::IssueExclusion, excluded, ready_mem)) {
    scan.wake_at(now_ + 1);
    activity_ = true;  // lifted next cycle
  }
  report(StallEvent::UnitSaturation, saturated, ready_mem);
  if (!cu) report(StallEvent::NoCollector, candidates, ready_mem);

  if (issuer >= 0) {
    uint32_t w = slot_at(static_cast<unsigned>(issuer));
    issue_head(sc, w, *cu, prog_.insts[heads_[w].inst]);
    return true;
  }
  if (!(m.barrier | m.blocked | m.ready)) scan.events.add(StallEvent::NoActiveWarp, false);
  return false;
}

}  // namespace sasskit::pipesim
