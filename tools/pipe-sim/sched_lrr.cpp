// Loose round-robin: by warp slot, starting after the warp that issued
// last. With at most 64 warp slots per sub-core the scan works on the
// warp table's head masks: it reaches the same verdict and records the same
// events as visiting the warps one by one in slot order, since each event
// keeps the PC of the first warp that reported it and whether any of them
// was a memory instruction, so whole sets of warps are handled at once.
#include <algorithm>
#include <bit>

#include "scheduler.hpp"

namespace sasskit::pipesim {
namespace {

// The low `width` bits of `m`, rotated so that bit `start` comes first.
uint64_t rotate(uint64_t m, unsigned start, unsigned width) {
  if (start == 0) return m;
  uint64_t full = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  return ((m >> start) | (m << (width - start))) & full;
}

class LrrPolicy final : public IssuePolicy {
 public:
  explicit LrrPolicy(bool mask_scan) : mask_scan_(mask_scan) {}

  bool pick(IssueScan& scan) override {
    const WarpTable& warps = scan.warps();
    if (mask_scan_ && warps.keeps_masks() && warps.masks(scan.subcore()).latest_ready <= scan.now())
      return pick_by_masks(scan);
    const auto& slots = warps.by_slot(scan.subcore());
    size_t n = slots.size();
    size_t i = last_ == kNone ? 0 : std::upper_bound(slots.begin(), slots.end(), last_) - slots.begin();
    for (size_t k = 0; k < n; ++k, ++i) {
      if (i >= n) i -= n;
      if (scan.consider(slots[i])) return true;
    }
    return false;
  }
  void issued(const WarpTable&, uint32_t w) override { last_ = w; }

 private:
  bool pick_by_masks(IssueScan& scan);

  bool mask_scan_;
  uint32_t last_ = kNone;  // the last issued warp
};

bool LrrPolicy::pick_by_masks(IssueScan& scan) {
  const WarpTable& warps = scan.warps();
  const uint32_t index = scan.subcore();
  const HeadMasks& m = warps.masks(index);
  const uint32_t n = warps.subcores();
  const unsigned width = warps.subcore_slots();
  // Slot j * n + index has local index j; start after the last issued warp.
  unsigned start = last_ != kNone && last_ >= index ? (last_ - index) / n + 1 : 0;
  if (start >= width) start = 0;
  auto rot = [&](uint64_t mask) { return rotate(mask, start, width); };
  auto slot_at = [&](unsigned position) { return ((position + start) % width) * n + index; };

  const uint64_t ready = rot(m.ready), ready_mem = rot(m.ready_mem);
  const uint32_t excluded_unit = scan.excluded_unit();
  const bool has_excluded = excluded_unit < kUnitClasses;
  const uint64_t excluded = has_excluded ? rot(m.ready_unit[excluded_unit]) : 0;
  uint64_t saturated = 0;
  for (unsigned u = 0; u < kUnitClasses; ++u) {
    if ((has_excluded && u == excluded_unit) || !m.ready_unit[u]) continue;
    if (scan.saturated(u)) saturated |= rot(m.ready_unit[u]);
  }
  const uint64_t candidates = ready & ~excluded & ~saturated;
  const uint32_t cu = candidates ? scan.free_collector() : kNone;

  // The warps scanned before the one that issues, or all of them.
  uint64_t before = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  int issuer = -1;
  if (cu != kNone) {
    issuer = std::countr_zero(candidates);
    before = (uint64_t(1) << issuer) - 1;
  }
  auto report = [&](StallEvent e, uint64_t set, uint64_t mem_set) {
    set &= before;
    if (!set) return false;
    scan.add_event(e, (set & mem_set) != 0, warps.head(slot_at(std::countr_zero(set))).pc_index);
    return true;
  };
  report(StallEvent::Barrier, rot(m.barrier), 0);
  report(StallEvent::DataDependence, rot(m.blocked), rot(m.blocked_on_load));
  if (report(StallEvent::IssueExclusion, excluded, ready_mem)) scan.exclusion_lifts_next_cycle();
  report(StallEvent::UnitSaturation, saturated, ready_mem);
  if (cu == kNone) report(StallEvent::NoCollector, candidates, ready_mem);

  if (issuer >= 0) {
    scan.issue(slot_at(static_cast<unsigned>(issuer)), cu);
    return true;
  }
  if (m.barrier | m.blocked | m.ready) scan.saw_instruction();
  return false;
}

}  // namespace

std::unique_ptr<IssuePolicy> make_lrr_policy(bool mask_scan) { return std::make_unique<LrrPolicy>(mask_scan); }

}  // namespace sasskit::pipesim
