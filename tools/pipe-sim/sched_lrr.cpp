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

// The warps of a sub-core in the order LRR offers them: local slots from
// `start` up to the last, then from 0. The masks are judged as they are,
// without rotating each: a set's first warp in this order is its lowest bit
// at or above `start`, else its lowest bit.
class CyclicOrder {
 public:
  CyclicOrder(unsigned start, unsigned width)
      : start_(start), from_start_(~uint64_t(0) << start),
        all_(width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1) {}
  uint64_t all() const { return all_; }
  // The first of a non-empty set.
  unsigned first(uint64_t set) const {
    uint64_t late = set & from_start_;
    return static_cast<unsigned>(std::countr_zero(late ? late : set));
  }
  // The warps offered before local slot `p`.
  uint64_t before(unsigned p) const {
    uint64_t below = (uint64_t(1) << p) - 1;
    return (p >= start_ ? from_start_ & below : from_start_ | below) & all_;
  }

 private:
  unsigned start_;
  uint64_t from_start_;
  uint64_t all_;
};

// Reports the stall events of the warps a mask scan offered before the one
// that issues (or of all of them): each event once, with whether any of its
// warps had a memory instruction, and the PC of the first of them.
class PassedOver {
 public:
  PassedOver(IssueScan& scan, const CyclicOrder& order, uint64_t offered)
      : scan_(scan), order_(order), offered_(offered), n_(scan.warps().subcores()) {}
  // Event e for the offered warps of `set`; false if there are none. Inlined
  // at each of its few calls: most find no warp.
  [[gnu::always_inline]] bool report(StallEvent e, uint64_t set, uint64_t mem_set) {
    set &= offered_;
    if (!set) return false;
    const uint32_t first = order_.first(set) * n_ + scan_.subcore();
    scan_.add_event(e, (set & mem_set) != 0, scan_.warps().head(first).pc_index);
    return true;
  }

 private:
  IssueScan& scan_;
  const CyclicOrder& order_;
  uint64_t offered_;
  uint32_t n_;
};

class LrrPolicy final : public IssuePolicy {
 public:
  explicit LrrPolicy(bool mask_scan) : mask_scan_(mask_scan) {}

  bool pick(IssueScan& scan) override {
    const WarpHeads& warps = scan.warps();
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
  void issued(const WarpHeads& warps, uint32_t w) override {
    last_ = w;
    last_local_ = w / warps.subcores();
  }

 private:
  // Flattened: the scan's unit and collector queries and its issue are
  // inlined into it (LTO left them calls).
  [[gnu::flatten]] bool pick_by_masks(IssueScan& scan);

  bool mask_scan_;
  uint32_t last_ = kNone;  // the last issued warp
  uint32_t last_local_ = 0;  // its local index in its sub-core (slot / sub-cores), kept for the mask scan
};

bool LrrPolicy::pick_by_masks(IssueScan& scan) {
  const WarpHeads& warps = scan.warps();
  const uint32_t index = scan.subcore();
  const HeadMasks& m = warps.masks(index);
  const uint32_t n = warps.subcores();
  const unsigned width = warps.subcore_slots();
  // Slot j * n + index has local index j; start after the last issued warp.
  unsigned start = last_ != kNone ? last_local_ + 1 : 0;
  if (start >= width) start = 0;
  const CyclicOrder order(start, width);
  auto slot_at = [&](unsigned local) { return local * n + index; };

  const uint32_t excluded_unit = scan.excluded_unit();
  const bool has_excluded = excluded_unit < kUnitClasses;
  const uint64_t excluded = has_excluded ? m.ready_unit[excluded_unit] : 0;
  uint64_t saturated = 0;
  const uint32_t units = m.ready_units & ~(has_excluded ? 1u << excluded_unit : 0u);
  for (uint32_t left = units; left; left &= left - 1) {
    const auto u = static_cast<unsigned>(std::countr_zero(left));
    if (scan.saturated(u)) saturated |= m.ready_unit[u];
  }
  const uint64_t candidates = m.ready & ~excluded & ~saturated;
  const uint32_t cu = candidates ? scan.free_collector() : kNone;

  // The warps scanned before the one that issues, or all of them.
  uint64_t before = order.all();
  int issuer = -1;
  if (cu != kNone) {
    issuer = static_cast<int>(order.first(candidates));
    before = order.before(static_cast<unsigned>(issuer));
  }
  PassedOver passed(scan, order, before);
  passed.report(StallEvent::Barrier, m.barrier, 0);
  passed.report(StallEvent::DataDependence, m.blocked, m.blocked_on_load);
  if (passed.report(StallEvent::IssueExclusion, excluded, m.ready_mem)) scan.exclusion_lifts_next_cycle();
  passed.report(StallEvent::UnitSaturation, saturated, m.ready_mem);
  if (cu == kNone) passed.report(StallEvent::NoCollector, candidates, m.ready_mem);

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
