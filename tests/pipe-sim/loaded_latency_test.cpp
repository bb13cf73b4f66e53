// l2_queue_cycles (loaded_latency.hpp): the M/D/1 wait at an L2 slice and
// its finite-source bound.
#include <gtest/gtest.h>

#include "loaded_latency.hpp"

namespace sasskit::pipesim {
namespace {

// 64 slices of 32 B/clk (the V100's 2048 B/clk), 512 MSHRs per SM.
GpuConfig chip() {
  GpuConfig g;
  g.noc_bytes_per_cycle = 2048;
  g.l2_slices = 64;
  g.l1d.mshrs = 512;
  return g;
}

// `rho` of the chip's peak rate over 1000 cycles, in requests of `bytes`.
L2Load load(double rho, double bytes, unsigned sms = 80) {
  const double moved = rho * 2048 * 1000;
  return {.bytes = moved, .requests = moved / bytes, .cycles = 1000, .sms = sms};
}

TEST(L2QueueCycles, IdleChipAddsNothing) {
  EXPECT_EQ(l2_queue_cycles(load(0, 128), chip()), 0);
  EXPECT_EQ(l2_queue_cycles({}, chip()), 0);
}

TEST(L2QueueCycles, PollaczekKhinchineForAConstantService) {
  // A 128-byte request takes 4 cycles at a 32 B/clk slice: at rho 0.5 it
  // waits 0.5 x 4 / (2 x 0.5) = 2 cycles, at rho 0.9 0.9 x 4 / 0.2 = 18.
  EXPECT_DOUBLE_EQ(l2_queue_cycles(load(0.5, 128), chip()), 2);
  EXPECT_NEAR(l2_queue_cycles(load(0.9, 128), chip()), 18, 1e-9);
  // One sector a request: a quarter of that.
  EXPECT_NEAR(l2_queue_cycles(load(0.9, 32), chip()), 4.5, 1e-9);
}

TEST(L2QueueCycles, BoundedByTheMshrsThatCanWait) {
  // 80 SMs x 512 MSHRs over 64 slices: 640 requests a slice, half of them
  // ahead on average, 4 cycles each.
  EXPECT_DOUBLE_EQ(l2_queue_cycles(load(1.0, 128), chip()), 1280);
  EXPECT_DOUBLE_EQ(l2_queue_cycles(load(0.99999, 128), chip()), 1280);
  // One SM cannot queue more than its own MSHRs.
  EXPECT_DOUBLE_EQ(l2_queue_cycles(load(1.0, 128, 1), chip()), 16);
}

TEST(L2QueueCycles, NoRateOrSlicesNoQueue) {
  GpuConfig g = chip();
  g.l2_slices = 0;
  EXPECT_EQ(l2_queue_cycles(load(0.9, 128), g), 0);
  g = chip();
  g.noc_bytes_per_cycle = 0;
  EXPECT_EQ(l2_queue_cycles(load(0.9, 128), g), 0);
}

}  // namespace
}  // namespace sasskit::pipesim
