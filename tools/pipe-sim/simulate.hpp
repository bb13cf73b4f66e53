// Simulating every kernel of a workload: decode, CTA placement (sched record,
// or occupancy and a schedule planned over the batch's kernels), the kernels
// on one GPU timeline (gpu_timeline.hpp), then the per-kernel merge,
// independent of the thread count.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "decode.hpp"
#include "formats/stats_record.hpp"
#include "sm.hpp"
#include "workload.hpp"

namespace sasskit::pipesim {

struct RunOptions {
  SimOptions sim;                 // gpu, PKP and tracing; ctas_per_sm is set per kernel
  MemoryDefaults memory;
  SchedPolicyKind policy = SchedPolicyKind::RoundRobin;
  bool serial_kernels = false;    // one kernel at a time on the GPU (Accel-Sim's default)
  unsigned threads = 1;
};

struct KernelResult {
  KernelStats stats;
  std::vector<SmResult> sms;  // kept only for --trace-stalls
};

// What carries over from one batch of kernels to the next: where the next
// kernel's code goes, and the GPU timeline.
struct RunState {
  uint64_t code_base = 0;
  std::map<uint64_t, uint64_t> stream_end;  // per launch stream (LaunchRules::stream_of): when its last kernel ends
  uint64_t previous_start = 0;              // of the kernel launched last
};

// Simulates a batch of kernels that follows the batches `state` has seen.
std::vector<KernelResult> simulate_workload(const Workload& w, const RunOptions& opt,
                                            const ClassifierFor& classify, RunState& state);
// A whole workload on its own.
std::vector<KernelResult> simulate_workload(const Workload& w, const RunOptions& opt,
                                            const ClassifierFor& classify);

}  // namespace sasskit::pipesim
