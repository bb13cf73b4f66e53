// Where each CTA of a kernel runs, decided once for every stage: cta-sample,
// rd-cache and pipe-sim all ask place() for a kernel's placement. It is the
// schedule a sched record holds when the stream has one (read as it is, never
// decided again), and otherwise the modeled one (cta_schedule.hpp) from the
// kernel's occupancy, the stage's policy and each CTA's predicted time, by
// the launch rules (launch_rules.hpp) that every stage shares.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "libcommon/cta_schedule.hpp"
#include "libcommon/cta_unit_counts.hpp"
#include "libcommon/gpu_config.hpp"
#include "libcommon/nonstall.hpp"

namespace sasskit {

// A kernel as placement sees it.
struct KernelToPlace {
  uint32_t id = 0;
  uint64_t stream_id = 0;
  std::string label;      // "kernel 3 (name)", for messages
  std::string where;      // where its kernel record was read, for messages
  CtaResources cta;       // what one CTA needs
  uint64_t grid_ctas = 0; // CTAs of the declared grid
};

// How many CTAs of `k` an SM holds at once (occupancy()). The one "no CTA
// fits" error of every stage: a Failure at k.where when not even one fits.
unsigned resident_ctas(const GpuConfig& gpu, const KernelToPlace& k);

// A CTA's predicted time in cycles (HyFiSS Eq. 2, rounded up): the modeled
// schedule gives an SM with longer CTAs fewer of them.
uint64_t predicted_cta_cycles(const NonStallModel& model, const UnitCounts& counts);
// predicted_cta_cycles of each distinct count of `table`, by its number:
// CTAs that share their counts share their time, computed once.
std::vector<uint64_t> predicted_cycles_by_id(const NonStallModel& model, const UnitCountsTable& table);

// Places the kernels of one GPU timeline in launch order: kernels modeled by
// one Placement share the SMs as CtaScheduler does, by the rules() of the
// model's gpu_sharing(): CTAs of kernels of different streams share an SM up
// to its resources, or with `serial_kernels` one kernel runs at a time.
class Placement {
 public:
  Placement(const GpuConfig& gpu, SchedPolicyKind policy, bool serial_kernels = false);

  // `recorded`: the kernel's sched record (or a replayed log), null when
  // the stream has none. With one, it is the placement, unchanged; BadInput
  // unless it places every CTA of the grid. Without one, the CTAs in
  // `cta_cycles` (one predicted time per CTA the stream holds, in grid
  // order) are modeled, numbered 0, 1, ... in that order; the modeled
  // schedule's policy names the policy.
  KernelSchedule place(const KernelToPlace& k, const KernelSchedule* recorded,
                       const std::vector<uint64_t>& cta_cycles);

  // The rules it places by, for a stage that follows the kernels further
  // (which ones share SMs, pipe-sim's launches with simulated ends).
  const LaunchRules& rules() const { return rules_; }

 private:
  const GpuConfig& gpu_;
  SchedPolicyKind policy_;
  LaunchRules rules_;
  CtaScheduler scheduler_;
};

}  // namespace sasskit
