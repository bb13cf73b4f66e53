// The one launch model (libcommon/launch_rules.hpp) that the CTA scheduler
// and pipe-sim's launch queue both follow: which kernels run together, when
// a kernel launches and its CTAs start, and when an SM has room.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "libcommon/launch_rules.hpp"
#include "tests/support/volta_like_gpu.hpp"

using namespace sasskit;

TEST(LaunchRules, KernelsOfOneLaunchStreamNeverRunTogether) {
  const LaunchRules streams{SharingOptions{}};
  EXPECT_TRUE(streams.may_run_together(0, 1));
  EXPECT_FALSE(streams.may_run_together(3, 3));
  EXPECT_EQ(streams.stream_of(7), 7u);
  // --serial-kernels: every kernel on one stream, asked again the same.
  const LaunchRules serial{SharingOptions{.serial_kernels = true}};
  EXPECT_FALSE(serial.may_run_together(0, 1));
  EXPECT_EQ(serial.stream_of(7), 0u);
  EXPECT_EQ(serial.stream_of(serial.stream_of(7)), serial.stream_of(7));
}

TEST(LaunchRules, AKernelLaunchesAfterItsStreamAndNotBeforeTheKernelBefore) {
  const LaunchRules rules{SharingOptions{.launch_latency = 3}};
  EXPECT_EQ(rules.launch_at(0, 0, {}, 0), 3u);    // a stream's first kernel
  EXPECT_EQ(rules.launch_at(0, 10, {}, 0), 13u);  // its stream's previous kernel ended at 10
  EXPECT_EQ(rules.launch_at(20, 10, {}, 0), 20u); // the kernel launched before it, at 20
}

TEST(LaunchRules, TheConcurrentKernelLimitWaitsForKnownEndsAndNotForUnknownOnes) {
  auto limit = [](unsigned n) { return LaunchRules{SharingOptions{.max_concurrent_kernels = n}}; };
  EXPECT_EQ(limit(0).launch_at(5, 0, {9, 9, 9}, 4), 5u);  // no limit
  EXPECT_EQ(limit(2).launch_at(5, 0, {9}, 0), 5u);        // one running, two allowed
  // 3 and 4 have ended by 5; 9 and the pending one run: one must end first.
  EXPECT_EQ(limit(2).launch_at(5, 0, {3, 4, 9}, 1), 9u);
  // Three running, two allowed: two must end, whatever the order given.
  EXPECT_EQ(limit(2).launch_at(5, 0, {30, 12, 20}, 0), 20u);
  EXPECT_EQ(limit(3).launch_at(5, 0, {30, 12, 20}, 0), 12u);
  // Two must end but only one end is known: the launch is not known yet.
  EXPECT_EQ(limit(2).launch_at(5, 0, {12}, 2), std::nullopt);
  // The ends count from the cycle the stream lets the kernel launch.
  const LaunchRules both{SharingOptions{.launch_latency = 10, .max_concurrent_kernels = 1}};
  EXPECT_EQ(both.launch_at(0, 0, {8}, 0), 10u);
  EXPECT_EQ(both.launch_at(0, 0, {12}, 0), 12u);
}

TEST(LaunchRules, CtasStartAfterTheFixedCostAtTheDispatchRateAndHoldTheirLaunchLatency) {
  const LaunchRules rules{SharingOptions{.kernel_fixed_cycles = 100, .cta_launch_latency = 7,
                                         .cta_dispatch_rate = 0.96}};
  EXPECT_EQ(rules.dispatch_at(50, 0), 150u);
  EXPECT_EQ(rules.dispatch_at(50, 5), 156u);  // 5.2 cycles, rounded up
  EXPECT_EQ(LaunchRules{}.dispatch_at(50, 5), 50u);  // no fixed cost, no limit
  EXPECT_EQ(rules.slot_cycles(40), 47u);
  EXPECT_EQ(rules.slot_cycles(0), 8u);  // a CTA takes at least one cycle
  // It runs once its launch latency is over, to its slot's end.
  EXPECT_EQ(rules.run_of(200, 40).begin, 207u);
  EXPECT_EQ(rules.run_of(200, 40).end, 247u);
}

TEST(LaunchRules, ACtaFitsWhileEveryResourceOfTheSmHoldsIt) {
  const LaunchRules rules{SharingOptions{.sm_capacity = SmLoad{4, 8, 1000, 500}}};
  const SmLoad need{1, 2, 100, 50};
  EXPECT_TRUE(rules.fits({}, need));
  EXPECT_TRUE(rules.fits(SmLoad{3, 6, 900, 450}, need));  // exactly full
  EXPECT_FALSE(rules.fits(SmLoad{4, 0, 0, 0}, need));     // CTA slots
  EXPECT_FALSE(rules.fits(SmLoad{0, 7, 0, 0}, need));     // warps
  EXPECT_FALSE(rules.fits(SmLoad{0, 0, 901, 0}, need));   // registers
  EXPECT_FALSE(rules.fits(SmLoad{0, 0, 0, 451}, need));   // shared memory
  // The GPU model's capacity is that of occupancy's allocation.
  const GpuConfig gpu = test::volta_like_gpu("two", 2);
  EXPECT_EQ(gpu_sharing(gpu, false).sm_capacity, sm_capacity(gpu));
  EXPECT_TRUE(gpu_sharing(gpu, true).serial_kernels);
}

namespace {

// What an SM holds of CTA slots, as first_room sees it: the count left.
struct Slots {
  unsigned held = 0;
  unsigned left_at_once = 0;  // the most that left at one end
};

std::optional<uint64_t> room_for_one(uint64_t from, unsigned capacity, std::multimap<uint64_t, unsigned>& ends,
                                     Slots& held) {
  return first_room(
      from, held, ends.begin(), ends.end(), [&](const Slots& h) { return h.held + 1 <= capacity; },
      [](Slots& h, const std::pair<const uint64_t, unsigned>& e) {
        h.held -= e.second;
        ++h.left_at_once;
      });
}

}  // namespace

TEST(FirstRoom, RoomComesAsResidentsLeaveAndThoseEndingTogetherLeaveTogether) {
  // Three CTAs resident, two ending at 40 and one at 70; room for one more
  // on an SM of three.
  std::multimap<uint64_t, unsigned> ends{{40, 1}, {40, 1}, {70, 1}};
  Slots held{3, 0};
  EXPECT_EQ(room_for_one(10, 3, ends, held), 40u);
  EXPECT_EQ(held.held, 1u);  // both that end at 40 have left
  EXPECT_EQ(held.left_at_once, 2u);
  // Room already: the answer is `from`, nothing leaves.
  Slots some{1, 0};
  EXPECT_EQ(room_for_one(10, 3, ends, some), 10u);
  EXPECT_EQ(some.left_at_once, 0u);
}

TEST(FirstRoom, NoAnswerWhileWhatStaysHasNoKnownEnd) {
  // Two resident, one ending at 40 and one whose end is not known yet: an
  // SM of one has room only once that one ends.
  std::multimap<uint64_t, unsigned> ends{{40, 1}};
  Slots held{2, 0};
  EXPECT_EQ(room_for_one(0, 1, ends, held), std::nullopt);
}
