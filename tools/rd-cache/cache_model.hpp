// The cache model of one kernel: requests per memory space, L1 per SM over
// that SM's sector stream, L2 over the merged stream of all SMs' L1 misses
// and writes, and the sweep's hit counts from the same pass.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "access_order.hpp"
#include "formats/trace.hpp"
#include "kernel_accesses.hpp"
#include "level_stacks.hpp"
#include "libcommon/cta_schedule.hpp"
#include "libcommon/gpu_config.hpp"
#include "libcommon/launch_rules.hpp"
#include "requests.hpp"

namespace sasskit::rdcache {

struct HitCount {
  uint64_t accesses = 0;  // sectors looked up
  uint64_t hits = 0;
  void add(uint64_t n, uint64_t h) { accesses += n; hits += h; }
  void merge(const HitCount& o) { add(o.accesses, o.hits); }
  double rate() const { return accesses ? double(hits) / double(accesses) : 0.0; }
};

// Per static instruction of a cached memory space.
struct InstCounts {
  Traffic traffic;
  HitCount l1, l2;
  uint64_t written_back = 0;  // dirty L2 sectors its L2 accesses evicted
};

struct KernelCounts {
  std::array<Traffic, kCategories> traffic{};
  HitCount l1, l2;
  std::vector<HitCount> sm_l1, sm_l2;  // per SM; L2 by the SM the request came from
  std::vector<InstCounts> inst;        // per entry of the kernel's table
  uint64_t l2_bound_sectors = 0;       // sectors sent from L1 to L2 (interconnect)
  uint64_t l2_bound_write_sectors = 0; // of those, the sectors of stores
  uint64_t dram_read_sectors = 0;      // misses of loads and atomics, loads L2 does not allocate
  uint64_t dram_write_sectors = 0;     // write-backs of dirty lines, writes L2 does not keep
  uint64_t gmem_requests() const;
};

struct KernelResult {
  KernelCounts counts;
  std::vector<SweepResult> sweep;
};

// One kernel of a run: its CTAs, and where and when each runs.
struct KernelRun {
  const KernelAccesses& kernel;
  const CtaSource& ctas;
  // `sm` and `start` (from its launch) indexed by the CTA's linear index,
  // and its `launch` on the GPU timeline.
  const KernelSchedule& schedule;
  unsigned ctas_per_sm;  // CTAs of the kernel resident on one SM at once
  // Per linear index, the CTA's predicted cycles, as placed; empty (or 0):
  // one cycle. Only kernels that share SMs need them.
  std::span<const uint64_t> cta_cycles;
};

// When the CTA of linear index `linear` runs on the GPU timeline, as placed:
// its slot from the kernel's launch and its start, for its predicted cycles,
// by the launch rules the placement used (LaunchRules::run_of).
LaunchRules::CtaRun placed_run(const LaunchRules& rules, const KernelSchedule& schedule,
                               std::span<const uint64_t> cta_cycles, uint32_t linear);

class CacheModel {
 public:
  // `threads` SMs' L1 passes run in parallel, and as many slices of L2's
  // sets (rounded down to a power of two); results do not depend on it.
  // `rules` are those the kernels were placed by: they say when a placed
  // CTA runs.
  CacheModel(const GpuConfig& gpu, const LaunchRules& rules, std::unique_ptr<AccessOrder> order,
             std::vector<SweepPoint> sweep, unsigned threads);

  // A host-to-device copy writes through L2, as on the GPU and in Accel-Sim
  // (-gpgpu_perf_sim_memcpy 1 in its tested configs): its last bytes, up to
  // the largest L2 modeled, become resident.
  void copy_to_l2(uint64_t address, uint64_t bytes);

  // Kernels that run at the same time, in launch order, each with results
  // of its own. On each SM a kernel's CTAs run `ctas_per_sm` at a time in
  // order of start, a group's memory instructions in the access order; L1
  // starts empty (GPUs invalidate it at a kernel launch; Accel-Sim
  // -gpgpu_flush_l1_cache 1) and sees the requests of every kernel's CTAs on
  // the SM: each group's requests spread evenly over the time its CTAs are
  // placed on the SM (its first start to its last end, never before the
  // kernel's previous request), and the kernels' requests merged by that
  // time (the earlier launched first on a tie). With one kernel, the order
  // is the access order's alone. L2 keeps its contents from the kernels and
  // copies before.
  // The SMs advance together, kL2Chunk requests to L2 at a time, so memory
  // holds each SM's resident groups of CTAs and a chunk of its requests
  // (besides the stacks), whatever the kernels' size.
  std::vector<KernelResult> run(std::span<const KernelRun> kernels);
  // One kernel alone.
  KernelResult run(const KernelAccesses& kernel, const CtaSource& ctas, const KernelSchedule& schedule,
                   unsigned ctas_per_sm) {
    const KernelRun alone{kernel, ctas, schedule, ctas_per_sm, {}};
    return std::move(run(std::span(&alone, 1))[0]);
  }
  // The CTAs held in kernel.ctas.
  KernelResult run(const KernelAccesses& kernel, const KernelSchedule& schedule, unsigned ctas_per_sm) {
    return run(kernel, HeldCtas(kernel), schedule, ctas_per_sm);
  }
  // A chunk's L2 lines are written by the SMs' pass and read back by L2's:
  // a gather's scattered requests (32 lines each) at 4096 requests took
  // 56 MiB of fresh pages (at 1024: 14 MiB; no change in results, the
  // merge takes request i of every SM at any chunk size).
  static constexpr size_t kL2Chunk = 1024;

 private:
  struct L2Request;
  struct Lane;
  struct SmPass;
  void advance_sm(std::span<const KernelRun> kernels, SmPass& pass) const;
  void send_to_l2(uint32_t kernel, uint32_t inst, const Route& route, uint64_t bound, SmPass& pass,
                  KernelCounts& counts) const;
  void run_l2(const std::vector<SmPass>& sms, std::vector<std::vector<KernelCounts>>& slice_counts);
  void run_l2_slice(const std::vector<SmPass>& sms, unsigned slice, std::vector<KernelCounts>& counts);
  void run_l2_stacks(const std::vector<SmPass>& sms);

  GpuConfig gpu_;
  LaunchRules rules_;
  std::unique_ptr<AccessOrder> order_;
  std::vector<SweepPoint> sweep_;
  unsigned threads_;
  LevelStacks l2_;
};

}  // namespace sasskit::rdcache
