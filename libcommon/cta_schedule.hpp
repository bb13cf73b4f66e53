// Which SM runs each CTA of a kernel, and when it starts, as modeled: the
// CTA scheduler behind placement.hpp, through which cta-sample, rd-cache
// and pipe-sim place every kernel.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "libcommon/gpu_config.hpp"
#include "libcommon/launch_rules.hpp"
#include "libcommon/name_table.hpp"
#include "libcommon/sm_load.hpp"

namespace sasskit {

enum class SchedPolicyKind : uint8_t { RoundRobin, Greedy, Wave };
// Their names (--sched-policy), in the order the manuals list them.
inline constexpr auto kSchedPolicies = std::to_array<Named<SchedPolicyKind>>({
    {SchedPolicyKind::RoundRobin, "round-robin"},
    {SchedPolicyKind::Greedy, "greedy"},
    {SchedPolicyKind::Wave, "wave"},
});

// CTAs are numbered by their linear index x + y*gx + z*gx*gy ("launch order").
struct KernelSchedule {
  uint32_t kernel_id = 0;
  std::string policy;          // "round-robin", "greedy", "wave", or "replay:FILE"
  std::vector<uint32_t> sm;    // per CTA
  std::vector<uint64_t> start; // per CTA, predicted start cycle, from the kernel's launch
  uint64_t launch = 0;         // the kernel's launch on the GPU timeline (first kernel: 0)
  std::string gpu;             // the GPU model of a sched record (cta-sample sets it; format 2.1)
  bool operator==(const KernelSchedule&) const = default;
};

// The modeled schedule of `num_ctas` CTAs with `ctas_per_sm` resident at
// once (from occupancy()). `cta_cycles` (optional, one per CTA) is each CTA's
// predicted duration; without it every CTA counts as one unit of time.
KernelSchedule model_schedule(const GpuConfig& gpu, uint32_t kernel_id, uint32_t num_ctas,
                              unsigned ctas_per_sm, SchedPolicyKind policy,
                              const std::vector<uint64_t>& cta_cycles = {});

// A name of kSchedPolicies; parse_policy throws a usage error for another.
const char* policy_name(SchedPolicyKind policy);
SchedPolicyKind parse_policy(const std::string& name);

// One kernel as the CTA scheduler sees it.
struct KernelLaunch {
  uint32_t kernel_id = 0;
  uint64_t stream_id = 0;
  uint32_t num_ctas = 0;
  unsigned ctas_per_sm = 0;           // occupancy(); must be > 0
  std::span<const uint64_t> cta_cycles;  // optional, as in model_schedule(); the caller's, not copied
  SmLoad cta_load;                    // what one CTA holds of an SM (cta_load())
};

// The CTA scheduler across the kernels of an application, in launch order,
// by the launch rules (launch_rules.hpp) with predicted CTA ends: a kernel
// launches at LaunchRules::launch_at once the previous kernel of its launch
// stream has ended (the first of a stream: after cycle 0). A CTA takes a
// slot on an SM where, beside the CTAs still resident there (of any
// kernel), it fits (LaunchRules::fits) and its kernel stays within its
// occupancy. Within a kernel CTAs are dispatched in launch order, each no
// earlier than the one before, so a kernel launched earlier has the first
// pick of the SMs, and no earlier than LaunchRules::dispatch_at; a CTA holds
// its slot for LaunchRules::slot_cycles of its predicted time.
//   round-robin: to the SM with the earliest free slot; ties go to the next
//                SM after the last one used (Accel-Sim, PPT-GPU).
//   greedy:      to the SM with the earliest free slot; ties go to the SM
//                with the least predicted work assigned so far.
// While CTAs of other kernels are resident on an SM with the earliest slot,
// ties go first to the SM holding the fewest CTAs of any kernel: a kernel
// of another stream takes the SMs left free, then spreads over the shared
// ones (as Accel-Sim's round-robin over SMs does), never piling up on a
// few.
//   wave:        CTA i to SM i % num_sms; wave w (num_sms * ctas_per_sm
//                CTAs) starts when wave w-1 has finished.
// Each kernel's round-robin starts from SM 0, so a kernel alone gets
// model_schedule's placement.
class CtaScheduler {
 public:
  explicit CtaScheduler(unsigned num_sms, const SharingOptions& sharing = {});
  ~CtaScheduler();
  CtaScheduler(const CtaScheduler&) = delete;
  CtaScheduler& operator=(const CtaScheduler&) = delete;

  KernelSchedule schedule(const KernelLaunch& kernel, SchedPolicyKind policy);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace sasskit
