// Stall events seen by one warp scheduler in one cycle, and their
// attribution to a root stall type by HyFiSS Algorithm 1 (§III-B).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "formats/stats_record.hpp"

namespace sasskit::pipesim {

// A set of stall events, a bit per StallEvent.
constexpr uint16_t event_bit(StallEvent e) { return uint16_t(1u << static_cast<unsigned>(e)); }

// Which events happened in a cycle, and whether each involved a memory
// instruction (for 8: whether the pending producer was a load): all that
// the attribution of a stall cycle reads of the cycles before it.
struct EventBits {
  uint16_t seen = 0;
  uint16_t mem = 0;

  bool has(StallEvent e) const { return seen & event_bit(e); }
  bool on_mem(StallEvent e) const { return mem & event_bit(e); }
  bool operator==(const EventBits&) const = default;
};

// A cycle's events and, for the direct events, the PC index of the first
// warp they blocked. pc[e] means something only while e is seen: events
// forgotten, and a port's events at a new cycle, leave it as it was.
struct CycleEvents : EventBits {
  std::array<uint32_t, kStallEvents> pc{};

  void add(StallEvent e, bool is_mem, uint32_t pc_index = 0) {
    uint16_t bit = event_bit(e);
    if (!(seen & bit)) pc[static_cast<size_t>(e)] = pc_index;
    seen |= bit;
    if (is_mem) mem |= bit;
  }
  // Adds another set of events as if they had been added after these.
  void merge(const CycleEvents& later) {
    for (uint16_t fresh = later.seen & ~seen; fresh; fresh &= uint16_t(fresh - 1)) {
      unsigned e = static_cast<unsigned>(std::countr_zero(fresh));
      pc[e] = later.pc[e];
    }
    seen |= later.seen;
    mem |= later.mem;
  }
  // Forgets the events of the set `kinds`, as if they had not been added.
  void forget(uint16_t kinds) {
    seen &= uint16_t(~kinds);
    mem &= uint16_t(~kinds);
  }
  // The same events of the set `kinds`, and the same PCs for them.
  bool same_in(const CycleEvents& o, uint16_t kinds) const {
    if (((seen ^ o.seen) | (mem ^ o.mem)) & kinds) return false;
    for (uint16_t e = seen & kinds; e; e &= uint16_t(e - 1))
      if (pc[std::countr_zero(e)] != o.pc[std::countr_zero(e)]) return false;
    return true;
  }
  // The same events, and the same PCs for them.
  bool operator==(const CycleEvents& o) const { return same_in(o, uint16_t(~0u)); }
};

struct Attribution {
  StallType type = StallType::Other;
  StallEvent event = StallEvent::None;   // the root event
  StallEvent direct = StallEvent::None;  // the event that blocked issue at the stall cycle
};

// The root stall type of a cycle in which the scheduler did not issue.
// `cycle1` and `cycle2` are the two cycles before `stall` (cycle #1 is the
// older). `warps_resident`: the sub-core holds unfinished warps, so an empty
// instruction buffer is a front-end (Ctrl) stall rather than Idle.
Attribution attribute(const EventBits& cycle1, const EventBits& cycle2, const EventBits& stall,
                      bool warps_resident);

// The last three cycles' events of one scheduler, oldest first (their
// bits: the PCs are read from the latest cycle's CycleEvents).
class EventHistory {
 public:
  void push(const EventBits& e) {
    h_[0] = h_[1];
    h_[1] = h_[2];
    h_[2] = e;
  }
  Attribution attribute_latest(bool warps_resident) const {
    return attribute(h_[0], h_[1], h_[2], warps_resident);
  }

 private:
  std::array<EventBits, 3> h_{};
};

}  // namespace sasskit::pipesim
