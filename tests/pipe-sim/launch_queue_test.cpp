// pipe-sim's launch queue (launch_queue.hpp) alone, fed by hand: kernels
// launch by libcommon's launch rules with the ends the timeline reports,
// and each SM starts its segments in launch order as it has room.
#include <gtest/gtest.h>

#include "launch_queue.hpp"

namespace sasskit::pipesim {
namespace {

SmLoad warps(uint64_t n) { return SmLoad{1, n, 0, 0}; }

// Launch latency 5, first CTA 10 cycles after the launch, 64 warps an SM.
LaunchRules rules() {
  return LaunchRules{SharingOptions{.launch_latency = 5, .kernel_fixed_cycles = 10,
                                    .sm_capacity = SmLoad{32, 64, 0, 0}}};
}

TEST(LaunchQueue, StreamsLaunchTogetherAndSegmentsWaitForRoomOnTheirSm) {
  // Kernel 0 (stream 0) on SMs 0 and 1, kernel 1 (stream 1) on SMs 0 and
  // 2, kernel 2 (stream 0 again) on SM 1. Segments 0-1, 2-3 and 4.
  const std::vector<QueuedKernel> kernels = {
      {0, {{0, warps(40)}, {1, warps(40)}}},
      {1, {{0, warps(40)}, {2, warps(8)}}},
      {0, {{1, warps(8)}}},
  };
  const TimelineStart start;
  LaunchQueue queue(kernels, start, rules());
  EXPECT_TRUE(queue.resolve());
  EXPECT_EQ(queue.launch(0), 5u);  // the stream's latency after cycle 0
  EXPECT_EQ(queue.launch(1), 5u);  // another stream: beside kernel 0
  EXPECT_EQ(queue.launch(2), kNever);  // waits for kernel 0, of its stream
  EXPECT_EQ(queue.resident(), (std::vector<size_t>{0, 1}));
  // Segments start 10 cycles after their launch; on SM 0 kernel 1's 40
  // warps do not fit beside kernel 0's 40 while that one runs.
  EXPECT_EQ(queue.start(0), 15u);
  EXPECT_EQ(queue.start(1), 15u);
  EXPECT_EQ(queue.start(2), kNever);
  EXPECT_EQ(queue.start(3), 15u);
  EXPECT_EQ(queue.active(), (std::vector<size_t>{0, 1, 3}));
  EXPECT_EQ(queue.kernel_of(3), 1u);
  EXPECT_FALSE(queue.resolve());  // nothing has ended: nothing new

  EXPECT_FALSE(queue.end(0, 100));  // kernel 0 still runs on SM 1
  EXPECT_TRUE(queue.resolve());
  EXPECT_EQ(queue.start(2), 100u);  // room on SM 0 from kernel 0's end there
  EXPECT_EQ(queue.origin(1), 15u);  // its first segment's start
  EXPECT_EQ(queue.launch(2), kNever);

  EXPECT_TRUE(queue.end(1, 120));  // kernel 0's last segment
  EXPECT_TRUE(queue.finished(0));
  EXPECT_EQ(queue.end_of(0), 120u);
  EXPECT_TRUE(queue.resolve());
  EXPECT_EQ(queue.launch(2), 125u);  // the latency after kernel 0's end
  EXPECT_EQ(queue.start(4), 135u);   // SM 1 is free by then
  EXPECT_FALSE(queue.idle());
  for (size_t s : {2, 3, 4}) queue.end(s, 200);
  EXPECT_TRUE(queue.idle());
}

TEST(LaunchQueue, TheConcurrentKernelLimitWaitsForAKernelToEnd) {
  SharingOptions one_at_a_time = rules().sharing();
  one_at_a_time.max_concurrent_kernels = 1;
  const std::vector<QueuedKernel> kernels = {{0, {{0, warps(8)}}}, {1, {{1, warps(8)}}}};
  TimelineStart start;
  start.floor = 50;  // an earlier batch ended at 50
  start.stream_end[1] = 48;
  LaunchQueue queue(kernels, start, LaunchRules{one_at_a_time});
  queue.resolve();
  EXPECT_EQ(queue.launch(0), 50u);      // not before the batch's floor
  EXPECT_EQ(queue.launch(1), kNever);   // kernel 0's end is not known yet
  queue.end(0, 70);
  queue.resolve();
  EXPECT_EQ(queue.launch(1), 70u);
}

TEST(LaunchQueue, PkpStartsASegmentThatHasNotStartedWhereItStopsTheKernel) {
  const std::vector<QueuedKernel> kernels = {{0, {{0, warps(40)}}}, {1, {{0, warps(40)}}}};
  const TimelineStart start;
  LaunchQueue queue(kernels, start, rules());
  queue.resolve();
  ASSERT_EQ(queue.start(1), kNever);
  queue.start_by(1, 60);
  EXPECT_EQ(queue.start(1), 60u);
  queue.start_by(0, 60);  // started before: unchanged
  EXPECT_EQ(queue.start(0), 15u);
}

}  // namespace
}  // namespace sasskit::pipesim
