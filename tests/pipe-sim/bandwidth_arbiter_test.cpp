// pipe-sim's bandwidth arbiter (bandwidth_arbiter.hpp) alone, fed by hand:
// equal shares while one kernel runs, and lending between the kernels of
// several streams from what they moved in the window before.
#include <gtest/gtest.h>

#include "bandwidth_arbiter.hpp"
#include "bandwidth_lending.hpp"

namespace sasskit::pipesim {
namespace {

// 100 bytes a cycle each of L2 and DRAM (100 GB/s at 1 GHz), for the whole
// chip, at the default efficiencies of 1.
GpuConfig chip() {
  GpuConfig gpu;
  gpu.noc_bytes_per_cycle = gpu.dram_bandwidth_gbs = 100;
  gpu.clock_mhz = 1000;
  return gpu;
}

MovedBytes bytes(double l2, double dram) { return MovedBytes{l2, dram, 0, 0}; }

TEST(BandwidthArbiter, ASegmentFirstRunsWithAnEqualPart) {
  BandwidthArbiter arbiter(chip(), 3);
  EXPECT_FALSE(arbiter.has_share(1));
  const BandwidthShare s = arbiter.first_share(1, 4);
  EXPECT_DOUBLE_EQ(s.l2_divisor, 4);
  EXPECT_DOUBLE_EQ(s.dram_divisor, 4);
  EXPECT_TRUE(arbiter.has_share(1));
  EXPECT_FALSE(arbiter.has_share(0));
}

TEST(BandwidthArbiter, OneKernelSharesEqually) {
  BandwidthArbiter arbiter(chip(), 2);
  const std::vector<BandwidthShare> shares = arbiter.window(0, {{0, 5, {}}, {1, 5, {}}}, 3);
  ASSERT_EQ(shares.size(), 2u);
  for (const BandwidthShare& s : shares) EXPECT_DOUBLE_EQ(s.l2_divisor, 3);
  EXPECT_TRUE(arbiter.has_share(0));
}

TEST(BandwidthArbiter, AKernelThatLeftItsPartLendsItToTheOther) {
  // Two kernels of one segment each, two SMs running. In the first window
  // nothing was measured: equal parts.
  BandwidthArbiter arbiter(chip(), 2);
  std::vector<BandwidthShare> shares = arbiter.window(0, {{0, 0, {}}, {1, 1, {}}}, 2);
  EXPECT_DOUBLE_EQ(shares[0].l2_divisor, 2);
  EXPECT_DOUBLE_EQ(shares[1].l2_divisor, 2);
  // Over the window of 1000 cycles kernel 0 used 10% of the chip's L2 and
  // kernel 1 all of its half; both used their half of the DRAM.
  shares = arbiter.window(1000, {{0, 0, bytes(10000, 50000)}, {1, 1, bytes(50000, 50000)}}, 2);
  const std::vector<double> l2 = lend_bandwidth({{1, 0.1}, {1, 0.5}}, 2);
  EXPECT_DOUBLE_EQ(shares[0].l2_divisor, 1 / l2[0]);
  EXPECT_DOUBLE_EQ(shares[1].l2_divisor, 1 / l2[1]);
  EXPECT_LT(shares[1].l2_divisor, 2);  // kernel 1 gets more than half
  EXPECT_DOUBLE_EQ(shares[0].dram_divisor, 2);
  EXPECT_DOUBLE_EQ(shares[1].dram_divisor, 2);
}

TEST(BandwidthArbiter, AKernelWithASegmentStartedWithinTheWindowLendsNothing) {
  BandwidthArbiter arbiter(chip(), 3);
  arbiter.window(0, {{0, 0, {}}, {1, 1, {}}}, 3);
  // Segment 2 (kernel 0) started within the window: kernel 0's use is not
  // known, though its other segment moved little.
  const std::vector<BandwidthShare> shares =
      arbiter.window(1000, {{0, 0, bytes(100, 100)}, {2, 0, bytes(0, 0)}, {1, 1, bytes(50000, 50000)}}, 3);
  EXPECT_DOUBLE_EQ(shares[2].l2_divisor, 3);  // kernel 1: its equal part only
  EXPECT_DOUBLE_EQ(shares[0].l2_divisor, 3);  // kernel 0: 2 segments of 2 / 3
}

}  // namespace
}  // namespace sasskit::pipesim
