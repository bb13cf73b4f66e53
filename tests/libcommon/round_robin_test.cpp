// The CTA scheduler's round-robin for a kernel alone on the GPU
// (libcommon/cta_schedule.cpp, RoundRobinPicker) against the rule as
// cta_schedule.hpp states it, computed the slow way: every SM asked at
// every CTA for its first slot.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "libcommon/cta_schedule.hpp"

using namespace sasskit;

namespace {

struct Placed {
  uint64_t end = 0;
  uint64_t warps = 0;
};

// The first cycle >= floor at which the SM holds one more CTA: fewer than
// ctas_per_sm of the kernel's CTAs and at most `capacity` warps resident.
uint64_t first_slot(const std::vector<Placed>& sm, uint64_t floor, unsigned ctas_per_sm, uint64_t warps,
                    uint64_t capacity) {
  std::vector<uint64_t> times{floor};
  for (const Placed& p : sm)
    if (p.end > floor) times.push_back(p.end);
  std::sort(times.begin(), times.end());
  for (uint64_t t : times) {
    uint64_t resident = 0, held = warps;
    for (const Placed& p : sm)
      if (p.end > t) ++resident, held += p.warps;
    if (resident < ctas_per_sm && held <= capacity) return t;
  }
  ADD_FAILURE() << "no slot";
  return 0;
}

// Round-robin as stated: the earliest slot, ties to the next SM after the
// last one used, each CTA no earlier than the one before nor than the GPU
// dispatches it (`rate` CTAs per cycle, 0: no limit), holding its slot for
// its time plus `latency`.
KernelSchedule slow_round_robin(unsigned n_sms, unsigned ctas_per_sm, uint64_t warps, uint64_t capacity,
                                const std::vector<uint64_t>& cycles, uint64_t launch, double rate = 0,
                                uint64_t latency = 0) {
  std::vector<std::vector<Placed>> sms(n_sms);
  KernelSchedule out;
  unsigned last = n_sms - 1;
  uint64_t floor = launch;
  for (size_t i = 0; i < cycles.size(); ++i) {
    const uint64_t d = cycles[i];
    if (rate > 0) floor = std::max(floor, launch + static_cast<uint64_t>(std::ceil(double(i) / rate)));
    unsigned best = 0;
    uint64_t best_start = ~uint64_t(0);
    for (unsigned k = 0; k < n_sms; ++k) {
      const unsigned sm = (last + 1 + k) % n_sms;
      const uint64_t t = first_slot(sms[sm], floor, ctas_per_sm, warps, capacity);
      if (t < best_start) best = sm, best_start = t;
    }
    sms[best].push_back({best_start + std::max<uint64_t>(1, d) + latency, warps});
    out.sm.push_back(best);
    out.start.push_back(best_start - launch);
    last = best;
    floor = best_start;
  }
  return out;
}

KernelLaunch launch_of(uint32_t id, uint64_t stream, const std::vector<uint64_t>& cycles, unsigned ctas_per_sm,
                       uint64_t warps) {
  return KernelLaunch{id, stream, static_cast<uint32_t>(cycles.size()), ctas_per_sm, cycles, SmLoad{1, warps, 0, 0}};
}

SharingOptions capacity_of(uint64_t warps) { return SharingOptions{.sm_capacity = SmLoad{1000, warps, 0, 0}}; }

}  // namespace

TEST(RoundRobin, AKernelAloneIsPlacedAsEverySmAskedAtEveryCta) {
  std::mt19937_64 rng(20);
  // 65 and 130 SMs: the ready SMs span more than one 64-bit word.
  for (unsigned n_sms : {1u, 3u, 64u, 65u, 80u, 130u})
    for (unsigned ctas_per_sm : {1u, 2u, 5u}) {
      for (int trial = 0; trial < 4; ++trial) {
        std::vector<uint64_t> cycles(rng() % 700);
        // Equal durations (many ties), a few distinct ones, and spread ones.
        for (auto& c : cycles) c = trial == 0 ? 100 : trial == 1 ? 50 + rng() % 3 * 25 : rng() % 5000;
        const uint64_t warps = 1 + rng() % 8, capacity = warps * (1 + rng() % 6);
        CtaScheduler scheduler(n_sms, capacity_of(capacity));
        const KernelSchedule fast = scheduler.schedule(launch_of(7, 0, cycles, ctas_per_sm, warps),
                                                       SchedPolicyKind::RoundRobin);
        const KernelSchedule slow = slow_round_robin(n_sms, ctas_per_sm, warps, capacity, cycles, 0);
        ASSERT_EQ(fast.sm, slow.sm) << n_sms << " SMs, " << ctas_per_sm << " a SM, trial " << trial;
        ASSERT_EQ(fast.start, slow.start) << n_sms << " SMs, " << ctas_per_sm << " a SM, trial " << trial;
      }
    }
}

TEST(RoundRobin, AKernelLaunchedOnAnIdleGpuIsPlacedAsAlone) {
  // The second kernel waits for the first (same stream): the GPU is idle
  // again at its launch, and its placement is that of the kernel alone.
  std::mt19937_64 rng(21);
  std::vector<uint64_t> first(300), second(500);
  for (auto& c : first) c = 1 + rng() % 900;
  for (auto& c : second) c = 1 + rng() % 900;
  CtaScheduler scheduler(80, capacity_of(64));
  const KernelSchedule a = scheduler.schedule(launch_of(1, 0, first, 2, 8), SchedPolicyKind::RoundRobin);
  const KernelSchedule b = scheduler.schedule(launch_of(2, 0, second, 2, 8), SchedPolicyKind::RoundRobin);
  const KernelSchedule alone = slow_round_robin(80, 2, 8, 64, second, b.launch);
  EXPECT_GT(b.launch, a.launch);
  EXPECT_EQ(b.sm, alone.sm);
  EXPECT_EQ(b.start, alone.start);
}

TEST(RoundRobin, CtasLeaveNoFasterThanTheGpuDispatchesThem) {
  // The chip's CTA dispatcher sends `rate` CTAs per cycle in launch order and
  // each CTA holds its slot its launch latency longer: the picker agrees with
  // the rule asked the slow way, and a first wave leaves at the rate.
  std::mt19937_64 rng(22);
  for (double rate : {0.25, 0.96, 3.0})
    for (unsigned ctas_per_sm : {1u, 2u, 8u}) {
      std::vector<uint64_t> cycles(200 + rng() % 300);
      for (auto& c : cycles) c = 1 + rng() % 400;
      SharingOptions sharing = capacity_of(64);
      sharing.cta_dispatch_rate = rate;
      sharing.cta_launch_latency = 300;
      CtaScheduler scheduler(40, sharing);
      const KernelSchedule fast = scheduler.schedule(launch_of(3, 0, cycles, ctas_per_sm, 4),
                                                     SchedPolicyKind::RoundRobin);
      const KernelSchedule slow = slow_round_robin(40, ctas_per_sm, 4, 64, cycles, 0, rate, 300);
      ASSERT_EQ(fast.sm, slow.sm) << rate << " CTAs a cycle, " << ctas_per_sm << " a SM";
      ASSERT_EQ(fast.start, slow.start) << rate << " CTAs a cycle, " << ctas_per_sm << " a SM";
      for (uint32_t i = 0; i < 40; ++i) EXPECT_EQ(fast.start[i], LaunchRules(sharing).dispatch_at(0, i));
    }
}
