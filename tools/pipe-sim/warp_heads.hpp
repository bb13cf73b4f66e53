// What a sub-core's scheduler reads of its warps: each warp slot's Head, the
// sub-core's resident warps oldest first and by slot, and the head masks
// the LRR scan judges them by. The warp table keeps it in step with the
// warps (a test may fill one by hand); its mutators keep the masks and each
// sub-core's version in step with the heads, so that no caller has to.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "program.hpp"

namespace sasskit::pipesim {

// What a scheduler needs to know of a warp.
struct Head {
  enum class Kind : uint8_t { Empty, Barrier, Blocked, Ready };
  Kind kind = Kind::Empty;
  bool on_load = false;   // Blocked: a pending producer is a load
  bool mem = false;       // the head is a memory instruction
  uint8_t unit = 0;       // the head's UnitClass
  uint32_t pc_index = 0;  // the head's (or the barrier's) PC
  uint32_t inst = 0;      // the head's index in the program
  uint64_t ready = 0;     // Blocked, Ready: decoded, can issue from this cycle
  bool operator==(const Head&) const = default;
};

// A sub-core's heads by kind, one bit per local warp index (slot / number
// of sub-cores): the LRR scheduler finds the warp to issue, and the events
// of those it passes over, with bit operations (sched_lrr.cpp).
struct HeadMasks {
  uint64_t barrier = 0, blocked = 0, blocked_on_load = 0, ready = 0, ready_mem = 0;
  std::array<uint64_t, kUnitClasses> ready_unit{};
  uint32_t ready_units = 0;  // bit u: ready_unit[u] is not empty
  uint64_t latest_ready = 0;  // the latest Head::ready recorded
  bool operator==(const HeadMasks&) const = default;
};

// The sub-core that a warp slot belongs to: slots go round the sub-cores.
inline unsigned subcore_of_slot(uint32_t w, unsigned subcores) { return w % subcores; }

class WarpHeads {
 public:
  // `keep_masks`: maintain the head masks (kept only where a sub-core has
  // at most 64 warp slots).
  WarpHeads(size_t slots, unsigned subcores, bool keep_masks);

  const Head& head(uint32_t w) const { return heads_[w]; }
  const HeadMasks& masks(unsigned subcore) const { return subcores_[subcore].masks; }
  const std::vector<uint32_t>& by_age(unsigned subcore) const { return subcores_[subcore].by_age; }
  const std::vector<uint32_t>& by_slot(unsigned subcore) const { return subcores_[subcore].by_slot; }
  unsigned subcore_of(uint32_t w) const { return subcore_of_slot(w, nsub_); }
  unsigned subcores() const { return nsub_; }  // kept: LRR reads it in every scan
  bool keeps_masks() const { return keep_masks_; }
  unsigned subcore_slots() const { return subcore_slots_; }  // the width of a head mask
  size_t slots() const { return heads_.size(); }
  // Changes with every change of the sub-core's heads or resident warps:
  // a scan that saw one version holds while it stays.
  uint64_t version(unsigned subcore) const { return subcores_[subcore].version; }

  // Warp w becomes resident, the youngest of its sub-core, with an Empty
  // head; or leaves (its head then is Empty again).
  void add(uint32_t w);
  void remove(uint32_t w);
  // Records warp w's head (in the masks too).
  void set(uint32_t w, const Head& h);

  // Throws an internal error where a sub-core's lists disagree or its
  // masks are not those its heads make.
  void check() const;

 private:
  struct SubCoreHeads {
    std::vector<uint32_t> by_age;   // resident warp slots, oldest first
    std::vector<uint32_t> by_slot;  // the same warps by slot number
    HeadMasks masks;
    uint64_t version = 0;
  };

  unsigned nsub_ = 1;
  unsigned subcore_slots_ = 1;
  bool keep_masks_ = false;
  std::vector<Head> heads_;  // per warp slot
  std::vector<SubCoreHeads> subcores_;
};

}  // namespace sasskit::pipesim
