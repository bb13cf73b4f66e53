#include <gtest/gtest.h>

#include "libcommon/cta_schedule.hpp"
#include "libcommon/diag.hpp"
#include "test_gpu.hpp"

using namespace sasskit;

using U32 = std::vector<uint32_t>;
using U64 = std::vector<uint64_t>;

// 1024 threads x 32 registers on tiny4: 32 warps of 64 fit twice (warps
// limit), and 32 regs x 32 lanes x 32 warps = 32768 of 65536 registers also
// twice: 2 CTAs per SM, a wave of 8 on 4 SMs. 10 CTAs need a second wave.
TEST(Schedule, OccupancyDrivenRoundRobinOverTwoWaves) {
  const GpuConfig gpu = tiny_gpu(4);
  const Occupancy occ = occupancy(gpu, CtaResources{1024, 32, 0});
  ASSERT_EQ(occ.ctas_per_sm, 2u);
  const KernelSchedule s = model_schedule(gpu, 7, 10, occ.ctas_per_sm, SchedPolicyKind::RoundRobin);
  EXPECT_EQ(s.kernel_id, 7u);
  EXPECT_EQ(s.policy, "round-robin");
  EXPECT_EQ(s.sm, (U32{0, 1, 2, 3, 0, 1, 2, 3, 0, 1}));
  EXPECT_EQ(s.start, (U64{0, 0, 0, 0, 0, 0, 0, 0, 1, 1}));
}

TEST(Schedule, SharedMemoryLimitsResidency) {
  const GpuConfig gpu = tiny_gpu(4);
  // 40 KiB per CTA: two fit in 96 KiB, so 9 CTAs on 4 SMs spill into a second wave.
  const Occupancy occ = occupancy(gpu, CtaResources{128, 16, 40 * 1024});
  ASSERT_EQ(occ.ctas_per_sm, 2u);
  EXPECT_EQ(occ.limiter, "shared memory");
  const KernelSchedule s = model_schedule(gpu, 1, 9, occ.ctas_per_sm, SchedPolicyKind::RoundRobin);
  EXPECT_EQ(s.start, (U64{0, 0, 0, 0, 0, 0, 0, 0, 1}));
  EXPECT_EQ(s.sm.back(), 0u);
}

TEST(Schedule, RoundRobinFollowsFreedSlotsWithDurations) {
  // One CTA per SM on 2 SMs; CTA 0 is long, so SM 1 takes the next five.
  const KernelSchedule s = model_schedule(tiny_gpu(2), 1, 10, 1, SchedPolicyKind::RoundRobin,
                                          {5, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  EXPECT_EQ(s.sm, (U32{0, 1, 1, 1, 1, 1, 0, 1, 0, 1}));
  EXPECT_EQ(s.start, (U64{0, 0, 1, 2, 3, 4, 5, 5, 6, 6}));
}

TEST(Schedule, GreedyBalancesPredictedWorkWhereRoundRobinRotates) {
  const U64 cycles{10, 1, 1, 1, 1, 1};
  const KernelSchedule rr = model_schedule(tiny_gpu(2), 1, 6, 2, SchedPolicyKind::RoundRobin, cycles);
  EXPECT_EQ(rr.sm, (U32{0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(rr.start, (U64{0, 0, 0, 0, 1, 1}));
  const KernelSchedule greedy = model_schedule(tiny_gpu(2), 1, 6, 2, SchedPolicyKind::Greedy, cycles);
  EXPECT_EQ(greedy.policy, "greedy");
  EXPECT_EQ(greedy.sm, (U32{0, 1, 1, 0, 1, 1}));
  EXPECT_EQ(greedy.start, (U64{0, 0, 0, 0, 1, 1}));
}

TEST(Schedule, WaveWaitsForTheWholePreviousWave) {
  const KernelSchedule s = model_schedule(tiny_gpu(2), 1, 5, 1, SchedPolicyKind::Wave, {5, 1, 1, 1, 1});
  EXPECT_EQ(s.sm, (U32{0, 1, 0, 1, 0}));
  EXPECT_EQ(s.start, (U64{0, 0, 5, 5, 6}));
}

TEST(Schedule, SameStreamKernelsRunOneAfterAnother) {
  CtaScheduler sched(2);
  sched.schedule({1, 5, 4, 1, {}}, SchedPolicyKind::RoundRobin);  // two waves: ends at 2
  KernelSchedule next = sched.schedule({2, 5, 1, 1, {}}, SchedPolicyKind::RoundRobin);
  EXPECT_EQ(next.launch, 2u);
  EXPECT_EQ(next.start, (U64{0}));
}

TEST(Schedule, OneKernelPerSmWaitsForTheSmToDrain) {
  CtaScheduler sched(2);
  // A: one CTA of half an SM on SM 0, long; SM 1 stays free.
  KernelSchedule a = sched.schedule({1, 0, 1, 2, {10}}, SchedPolicyKind::RoundRobin);
  EXPECT_EQ(a.sm, (U32{0}));
  // B, another stream, two CTAs that would fit beside A: both go to the
  // free SM 1 (one after the other there beats waiting for SM 0 at 10).
  KernelSchedule b = sched.schedule({2, 1, 3, 1, {2, 2, 2}}, SchedPolicyKind::RoundRobin);
  EXPECT_EQ(b.launch, 0u);
  EXPECT_EQ(b.sm, (U32{1, 1, 1}));
  EXPECT_EQ(b.start, (U64{0, 2, 4}));
  // C, another stream: SM 1 drains of B at 6, SM 0 of A at 10.
  KernelSchedule c = sched.schedule({3, 2, 2, 1, {1, 1}}, SchedPolicyKind::RoundRobin);
  EXPECT_EQ(c.sm, (U32{1, 1}));
  EXPECT_EQ(c.start, (U64{6, 7}));
}

TEST(Schedule, LaunchLatencyAndConcurrentKernelLimit) {
  CtaScheduler sched(4, SharingOptions{.launch_latency = 3, .max_concurrent_kernels = 2});
  KernelSchedule a = sched.schedule({1, 0, 1, 1, {10}}, SchedPolicyKind::RoundRobin);
  KernelSchedule b = sched.schedule({2, 1, 1, 1, {20}}, SchedPolicyKind::RoundRobin);
  EXPECT_EQ(a.launch, 3u);
  EXPECT_EQ(b.launch, 3u);
  // A third stream waits for one of the two running kernels to end (A at 13).
  KernelSchedule c = sched.schedule({3, 2, 1, 1, {1}}, SchedPolicyKind::RoundRobin);
  EXPECT_EQ(c.launch, 13u);
  // A's stream again: 3 cycles after A's end, not before C's launch.
  KernelSchedule d = sched.schedule({4, 0, 1, 1, {1}}, SchedPolicyKind::RoundRobin);
  EXPECT_EQ(d.launch, 16u);
}

TEST(Schedule, ConcurrentKernelSlotWaitsForKnownEndsAndNotForUnknownOnes) {
  EXPECT_EQ(concurrent_kernel_slot(5, 0, {9, 9, 9}, 4), 5u);  // no limit
  EXPECT_EQ(concurrent_kernel_slot(5, 2, {9}, 0), 5u);        // one running, two allowed
  // 3 and 4 have ended by 5; 9 and the pending one run: one must end first.
  EXPECT_EQ(concurrent_kernel_slot(5, 2, {3, 4, 9}, 1), 9u);
  // Three running, two allowed: two must end, whatever the order given.
  EXPECT_EQ(concurrent_kernel_slot(5, 2, {30, 12, 20}, 0), 20u);
  EXPECT_EQ(concurrent_kernel_slot(5, 3, {30, 12, 20}, 0), 12u);
  // Two must end but only one end is known: the slot is not known yet.
  EXPECT_EQ(concurrent_kernel_slot(5, 2, {12}, 2), std::nullopt);
}

TEST(Schedule, PolicyNamesRoundTripAndBadNamesAreUsageErrors) {
  for (auto p : {SchedPolicyKind::RoundRobin, SchedPolicyKind::Greedy, SchedPolicyKind::Wave})
    EXPECT_EQ(parse_policy(policy_name(p)), p);
  try {
    parse_policy("fifo");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
  }
}

TEST(Schedule, RejectsZeroOccupancyAndMismatchedDurations) {
  EXPECT_THROW(model_schedule(tiny_gpu(), 1, 4, 0, SchedPolicyKind::RoundRobin), Error);
  EXPECT_THROW(model_schedule(tiny_gpu(), 1, 4, 1, SchedPolicyKind::RoundRobin, {1, 2}), Error);
}
