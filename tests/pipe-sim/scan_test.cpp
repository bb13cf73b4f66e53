// The LRR scheduler's bit-mask scan against the warp-by-warp scan it
// replaces: same cycles, same stall events and PCs, cycle by cycle, on
// generated kernels with barriers, divergence, shared memory, random
// addresses and (from sm_70) tensor ops.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "generated_mix.hpp"
#include "output.hpp"
#include "simulate.hpp"
#include "tests/support/gpu_models.hpp"

using namespace sasskit;
using namespace sasskit::pipesim;
using sasskit::pipesim::test::generated_mix;

namespace {

std::string simulate_to_text(const Workload& w, const GpuConfig& gpu, bool mask_scan) {
  RunOptions o;
  o.sim.gpu = gpu;
  o.sim.trace_stalls = true;
  o.sim.lrr_mask_scan = mask_scan;
  auto results = simulate_workload(w, o, opcode_table_classifier);
  std::ostringstream out;
  write_json_summary(out, gpu.name, results);
  write_stall_trace(out, results);
  return out.str();
}

void expect_same_with_and_without_masks(const std::string& config, uint32_t binary_version) {
  GpuConfig gpu = sasskit::test::bundled(config);
  ASSERT_EQ(gpu.scheduler, SchedulerPolicy::Lrr) << config;
  Workload w = generated_mix(binary_version, 4096);
  std::string masks = simulate_to_text(w, gpu, true);
  EXPECT_GT(masks.size(), 100000u);  // a real trace, not an empty one
  std::string warps = simulate_to_text(w, gpu, false);
  auto diff = std::mismatch(masks.begin(), masks.end(), warps.begin(), warps.end());
  EXPECT_TRUE(masks == warps) << config << ": first difference at byte " << (diff.first - masks.begin()) << ": "
                              << masks.substr(diff.first - masks.begin(), 80);
}

}  // namespace

TEST(LrrScan, MasksMatchTheWarpByWarpScanOnVolta) { expect_same_with_and_without_masks("qv100", 70); }

TEST(LrrScan, MasksMatchTheWarpByWarpScanOnPascal) { expect_same_with_and_without_masks("gtx1080", 61); }

TEST(LrrScan, MasksMatchTheWarpByWarpScanOnAmpere) { expect_same_with_and_without_masks("rtx3070", 86); }
