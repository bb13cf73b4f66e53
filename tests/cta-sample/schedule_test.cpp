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

// Two CTA slots per SM, and kernels whose CTAs take one each.
SharingOptions two_slots(bool serial = false) {
  return SharingOptions{.serial_kernels = serial, .sm_capacity = SmLoad{.ctas = 2}};
}
// `cycles` lives until the end of the caller's full expression, as the launch must.
KernelLaunch launch(uint32_t id, uint64_t stream, const U64& cycles, unsigned ctas_per_sm = 2) {
  return KernelLaunch{id, stream, uint32_t(cycles.size()), ctas_per_sm, cycles, SmLoad{.ctas = 1}};
}

TEST(Schedule, KernelsOfOtherStreamsShareAnSmUpToItsResources) {
  CtaScheduler sched(2, two_slots());
  // A: one long CTA on SM 0, half of it.
  KernelSchedule a = sched.schedule(launch(1, 0, {10}), SchedPolicyKind::RoundRobin);
  EXPECT_EQ(a.sm, (U32{0}));
  // B, another stream, at once: first the SM that holds nothing, then
  // spread over the SMs as each holds one CTA, so its second CTA shares
  // SM 0 with A, and its third takes SM 1's second slot.
  KernelSchedule b = sched.schedule(launch(2, 1, {2, 2, 2}), SchedPolicyKind::RoundRobin);
  EXPECT_EQ(b.launch, 0u);
  EXPECT_EQ(b.sm, (U32{1, 0, 1}));
  EXPECT_EQ(b.start, (U64{0, 0, 0}));
  // C, a third stream: both SMs are full until B's CTAs end at 2; then
  // SM 1 (empty) before SM 0 (A stays), and SM 0's free slot.
  KernelSchedule c = sched.schedule(launch(3, 2, {1, 1, 1}), SchedPolicyKind::RoundRobin);
  EXPECT_EQ(c.sm, (U32{1, 0, 1}));
  EXPECT_EQ(c.start, (U64{2, 2, 2}));
}

TEST(Schedule, EachResourceOfTheSmLimitsSharing) {
  // 4 slots and 8 warps: A's CTA of 6 warps leaves room for B's CTA of 4
  // warps only once it ends, although slots are free beside it.
  CtaScheduler sched(1, SharingOptions{.sm_capacity = SmLoad{.ctas = 4, .warps = 8}});
  sched.schedule(KernelLaunch{1, 0, 1, 1, U64{10}, SmLoad{.ctas = 1, .warps = 6}}, SchedPolicyKind::RoundRobin);
  KernelSchedule b =
      sched.schedule(KernelLaunch{2, 1, 2, 2, U64{3, 3}, SmLoad{.ctas = 1, .warps = 2}}, SchedPolicyKind::RoundRobin);
  EXPECT_EQ(b.start, (U64{0, 3}));  // 6 + 2 warps fit, a second 2 does not
  KernelSchedule c =
      sched.schedule(KernelLaunch{3, 2, 1, 1, U64{1}, SmLoad{.ctas = 1, .warps = 4}}, SchedPolicyKind::RoundRobin);
  EXPECT_EQ(c.start, (U64{10}));
}

TEST(Schedule, SerialKernelsRunOneAtATimeWhateverTheStream) {
  CtaScheduler sched(2, two_slots(true));
  sched.schedule(launch(1, 0, {10}), SchedPolicyKind::RoundRobin);
  KernelSchedule b = sched.schedule(launch(2, 1, {2, 2, 2}), SchedPolicyKind::RoundRobin);
  EXPECT_EQ(b.launch, 10u);
  // A kernel alone: the placement of model_schedule, from SM 0.
  EXPECT_EQ(b.sm, (U32{0, 1, 0}));
  EXPECT_EQ(b.start, (U64{0, 0, 0}));
  EXPECT_EQ(sched.schedule(launch(3, 2, {1}), SchedPolicyKind::RoundRobin).launch, 12u);
}

TEST(Schedule, AKernelAloneIsPlacedAsWithoutSharing) {
  // The same placement with the SM's resources or without: its own
  // occupancy is what limits a kernel alone.
  const U64 cycles{10, 1, 3, 1, 1, 7, 1, 1, 2};
  for (auto policy : {SchedPolicyKind::RoundRobin, SchedPolicyKind::Greedy, SchedPolicyKind::Wave}) {
    CtaScheduler sched(2, two_slots());
    KernelSchedule shared = sched.schedule(launch(1, 0, cycles), policy);
    EXPECT_EQ(shared, model_schedule(tiny_gpu(2), 1, 9, 2, policy, cycles)) << policy_name(policy);
  }
}

TEST(Schedule, LaunchLatencyAndConcurrentKernelLimit) {
  CtaScheduler sched(4, SharingOptions{.launch_latency = 3, .max_concurrent_kernels = 2});
  KernelSchedule a = sched.schedule({1, 0, 1, 1, U64{10}}, SchedPolicyKind::RoundRobin);
  KernelSchedule b = sched.schedule({2, 1, 1, 1, U64{20}}, SchedPolicyKind::RoundRobin);
  EXPECT_EQ(a.launch, 3u);
  EXPECT_EQ(b.launch, 3u);
  // A third stream waits for one of the two running kernels to end (A at 13).
  KernelSchedule c = sched.schedule({3, 2, 1, 1, U64{1}}, SchedPolicyKind::RoundRobin);
  EXPECT_EQ(c.launch, 13u);
  // A's stream again: 3 cycles after A's end, not before C's launch.
  KernelSchedule d = sched.schedule({4, 0, 1, 1, U64{1}}, SchedPolicyKind::RoundRobin);
  EXPECT_EQ(d.launch, 16u);
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
