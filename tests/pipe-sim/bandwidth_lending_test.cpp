// lend_bandwidth (bandwidth_lending.hpp): what kernels side by side get of
// one of the chip's bandwidths.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "bandwidth_lending.hpp"

namespace sasskit::pipesim {
namespace {

TEST(LendBandwidth, KernelsUsingTheirPartsKeepIt) {
  const std::vector<double> parts = lend_bandwidth({{80, 0.5}, {80, 0.5}}, 160);
  EXPECT_DOUBLE_EQ(parts[0], 0.5);
  EXPECT_DOUBLE_EQ(parts[1], 0.5);
}

TEST(LendBandwidth, WhatOneLeavesGoesToTheOther) {
  // A DRAM-bound kernel beside one that uses half its part of the DRAM.
  const std::vector<double> parts = lend_bandwidth({{80, 0.5}, {80, 0.25}}, 160);
  EXPECT_DOUBLE_EQ(parts[0], 0.75);
  EXPECT_DOUBLE_EQ(parts[1], 0.5);  // the lender keeps its part, to grow back into
}

TEST(LendBandwidth, LentSplitsAmongTheOthersBySegments) {
  const std::vector<double> parts = lend_bandwidth({{40, 0.1}, {80, 0.5}, {40, 0.25}}, 160);
  EXPECT_DOUBLE_EQ(parts[0], 0.25);  // lends 0.15, receives nothing: the others use their parts
  EXPECT_DOUBLE_EQ(parts[1], 0.5 + 0.15 * 80 / 120);
  EXPECT_DOUBLE_EQ(parts[2], 0.25 + 0.15 * 40 / 120);
}

TEST(LendBandwidth, UnmeasuredKernelLendsNothing) {
  // A kernel whose segments started within the window: its use is unknown.
  const std::vector<double> parts = lend_bandwidth({{80, 0.5}, {80, std::nullopt}}, 160);
  EXPECT_DOUBLE_EQ(parts[0], 0.5);
  EXPECT_DOUBLE_EQ(parts[1], 0.5);
}

TEST(LendBandwidth, SmsOfNoKernelHereKeepTheirPart) {
  // 40 SMs a sampled stream left out count as running: parts of 100, and a
  // kernel that moves nothing lends its whole part to the other only.
  const std::vector<double> parts = lend_bandwidth({{30, 0.0}, {30, 0.3}}, 100);
  EXPECT_DOUBLE_EQ(parts[0], 0.3);
  EXPECT_DOUBLE_EQ(parts[1], 0.6);
}

TEST(LendBandwidth, AloneGetsItsEqualPart) {
  const std::vector<double> parts = lend_bandwidth({{80, 0.1}}, 80);
  EXPECT_DOUBLE_EQ(parts[0], 1.0);
}

}  // namespace
}  // namespace sasskit::pipesim
