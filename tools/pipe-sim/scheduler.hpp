// The warp schedulers: one per sub-core, one instruction per cycle. The
// order in which a scheduler offers its warps is its IssuePolicy (one file
// per policy, registered in issue_policies.cpp); the rest is common: the
// structural hazards (issue exclusion, a saturated unit, no free
// collector), the stall events of the warps passed over, and the reuse of
// a scan's verdict while nothing it depends on changes.
//
// A scheduler takes only what it asks of the other stages: its warps'
// heads (WarpHeads), the units' and collectors' state in the sub-cores'
// ports, and an IssueTarget that takes the instruction it issues; so a test
// can build one against heads and ports it fills itself.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "ports.hpp"
#include "warp_heads.hpp"

namespace sasskit::pipesim {

class Scheduler;

// Where an issued instruction goes: warp w's head instruction leaves it for
// collector `cu` of its sub-core (in the SM: the warp table, then the
// operand collectors). Returns the instruction in flight.
class IssueTarget {
 public:
  virtual Op issue(unsigned subcore, uint32_t w, uint32_t cu) = 0;

 protected:
  ~IssueTarget() = default;
};

// One scan of a sub-core's warps in one cycle, as a policy drives it. What
// it learns of the sub-core's units and collectors holds until an issue
// ends the scan.
class IssueScan {
 public:
  IssueScan(Scheduler& s, unsigned subcore, uint32_t excluded_unit);

  inline const WarpHeads& warps() const;
  unsigned subcore() const { return subcore_; }
  inline uint64_t now() const;
  // Issues warp w if it can go now and returns true; otherwise records
  // why not (its stall event, or when its head will be decoded).
  bool consider(uint32_t w);

  // For policies that judge sets of warps at once (sched_lrr.cpp):
  uint32_t excluded_unit() const { return excluded_unit_; }
  // Whether every pipeline of unit class u is busy at dispatch (and when
  // that may change).
  bool saturated(unsigned u);
  // A free collector of the sub-core, or kNone.
  uint32_t free_collector();
  // Issues warp w, whose head is ready, into collector `cu`.
  void issue(uint32_t w, uint32_t cu);
  // A warp with an instruction to offer was seen (else: no active warp).
  void saw_instruction() { saw_instruction_ = true; }
  void add_event(StallEvent e, bool on_mem, uint32_t pc_index) { events_.add(e, on_mem, pc_index); }
  // The verdict of this scan may change at cycle t.
  void wake_at(uint64_t t) { valid_until_ = std::min(valid_until_, t); }
  // An issue exclusion lifts next cycle, whatever else happens.
  void exclusion_lifts_next_cycle();

 private:
  friend class Scheduler;
  StallEvent structural_stall(const Head& h);

  Scheduler& s_;
  unsigned subcore_;
  uint32_t excluded_unit_;  // the unit that issued last cycle
  std::array<int8_t, kUnitClasses> unit_free_{};  // 0 unknown, 1 free, -1 saturated
  uint32_t free_cu_ = kNone;
  bool cu_known_ = false;
  bool saw_instruction_ = false;
  CycleEvents events_;
  uint64_t valid_until_ = kNever;
};

// The order in which one sub-core's scheduler offers its warps.
class IssuePolicy {
 public:
  virtual ~IssuePolicy() = default;
  // Offers warps to scan.consider() (or judges them as a set) until one
  // issues; returns whether one did.
  virtual bool pick(IssueScan& scan) = 0;
  // Warp w issued.
  virtual void issued(const WarpHeads& warps, uint32_t w) = 0;
};

// The policy the GPU model names, for one sub-core (issue_policies.cpp).
// `lrr_mask_scan`: LRR may judge its warps by the head masks.
std::unique_ptr<IssuePolicy> make_issue_policy(SchedulerPolicy policy, bool lrr_mask_scan);
std::unique_ptr<IssuePolicy> make_gto_policy();
std::unique_ptr<IssuePolicy> make_lrr_policy(bool mask_scan);
std::unique_ptr<IssuePolicy> make_two_level_policy();

class Scheduler : private Stage {
 public:
  // `pc_insts`: the instructions issued per PC (KernelProgram::pcs).
  Scheduler(const Stage& wiring, std::vector<uint64_t>& pc_insts, const WarpHeads& warps, IssueTarget& target,
            bool lrr_mask_scan);
  // The sub-core's scheduler issues one instruction, or records why not.
  void issue(unsigned subcore);

 private:
  friend class IssueScan;
  struct SubCoreScheduler {
    std::unique_ptr<IssuePolicy> policy;
    uint32_t last_unit = kNone;
    uint64_t last_issue = kNever;
    // The last scan that did not issue: its events hold while the
    // sub-core's epoch() is unchanged and until the first cycle at which a
    // waiting warp or unit becomes ready (valid_until).
    uint64_t scan_epoch = 0, scan_valid_until = 0;
    CycleEvents scan_events;
  };
  bool unit_free(unsigned subcore, UnitClass u) const;
  // Changes whenever anything a scan of the sub-core reads changes: the
  // units' and collectors' state in its port, or its warps' heads.
  uint64_t epoch(unsigned subcore) const { return ports_[subcore].epoch() + warps_.version(subcore); }

  std::vector<uint64_t>& pc_insts_;
  const WarpHeads& warps_;
  IssueTarget& target_;
  std::vector<SubCoreScheduler> subcores_;
};

inline const WarpHeads& IssueScan::warps() const { return s_.warps_; }
inline uint64_t IssueScan::now() const { return s_.clock_.now; }

}  // namespace sasskit::pipesim
