// The kernels of a batch on one GPU: each physical SM runs segments (a
// kernel and its CTAs placed on that SM) in kernel launch order. Three parts,
// each with its own state, which run_on_gpu wires together:
// - the launch queue (launch_queue.hpp): when each kernel launches and each
//   segment starts, by libcommon's launch rules (launch_rules.hpp) with the
//   simulated ends. A segment holds, from its start to its end, the SM's
//   resources (CTA slots, warps, registers, shared memory) of as many of its
//   CTAs as its kernel's occupancy lets run at once, so kernels of different
//   streams share SMs as on the silicon (Accel-Sim's
//   -gpgpu_concurrent_kernel_sm 1); a kernel's kernel-fixed-cycles (the
//   start and end cost inside the interval Nsight Compute measures) pass
//   before its first segment starts, so they count in its cycles;
// - the bandwidth arbiter (bandwidth_arbiter.hpp): every running segment of
//   any kernel shares the interconnect and DRAM bandwidth as one SM, window
//   by window; while kernels of several streams run, a kernel's segments
//   also get what the others left unused of their parts in the window before;
// - the PKP driver (pkp_driver.hpp): where PKP stops a kernel.
// Each segment is simulated by its own SmSim: co-resident kernels share the
// SM's resources, not its pipeline cycle by cycle.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "libcommon/launch_rules.hpp"
#include "libcommon/sm_load.hpp"
#include "kernel_stats.hpp"
#include "sm.hpp"

namespace sasskit::pipesim {

// A kernel ready to run: its decoded program, the options its SMs run
// with, and the CTAs each SM runs.
struct KernelPlan {
  KernelProgram program;
  SimOptions sim;
  std::vector<SmWork> sms;  // ascending SM number, only SMs with CTAs
  SmLoad cta_load;          // what one of its CTAs holds of an SM (libcommon cta_load())
  uint64_t stream_id = 0;   // the stream its launch waits on (LaunchRules::stream_of)
  std::string schedule;
  // SMs of the grid that the stream left out: each counts as running while
  // the lead simulated SM (sms[lead]) has simulated less than this share of
  // its instructions.
  std::vector<double> absent_until;
  size_t lead = 0;
};

// What the batch finds on the GPU timeline.
struct TimelineStart {
  std::map<uint64_t, uint64_t> stream_end;  // per launch stream: when its last kernel ended
  // No kernel of the batch launches before: earlier batches have ended
  // (a batch boundary is a device-wide synchronisation).
  uint64_t floor = 0;
};

struct KernelRun {
  uint64_t launch = 0;        // on the GPU timeline
  SmMerge merged;             // its SMs' results; cycles count from the launch
  std::vector<SmResult> sms;  // the same per KernelPlan::sms, kept for --trace-stalls only
  std::optional<double> projection_error;  // PKP's estimate where it stopped the kernel
};

// Runs the kernels, placed by `rules`, in the arbiter's windows counted from
// each kernel's first segment (PKP steps within them); the results do not
// depend on the thread count.
std::vector<KernelRun> run_on_gpu(const std::vector<KernelPlan>& plans, const TimelineStart& start,
                                  const LaunchRules& rules, const PkpOptions& pkp, unsigned threads);

}  // namespace sasskit::pipesim
