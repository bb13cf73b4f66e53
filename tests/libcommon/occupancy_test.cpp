// Occupancy values worked out by hand with the rules of NVIDIA's occupancy
// calculator (cuda_occupancy.h); each test shows the arithmetic.
#include <gtest/gtest.h>

#include "tests/support/gpu_models.hpp"

using namespace sasskit;
using sasskit::test::bundled;

namespace {
Occupancy on(const std::string& gpu, unsigned threads, unsigned regs, uint64_t smem) {
  return occupancy(bundled(gpu), {threads, regs, smem});
}
}  // namespace

TEST(Occupancy, WarpLimit) {
  // 256 threads = 8 warps; 64 warps per SM -> 8. Registers: 32 x 32 = 1024 per warp,
  // 16384 per sub-partition -> 16 warps x 4 = 64 warps -> 8 CTAs too: a tie names warps.
  const Occupancy occ = on("qv100", 256, 32, 0);
  EXPECT_EQ(occ.ctas_per_sm, 8u);
  EXPECT_EQ(occ.limiter, "warps");
}

TEST(Occupancy, CtaLimit) {
  // 32 threads = 1 warp -> 64 by warps, but at most 32 CTAs per SM on 7.0, 16 on 7.5.
  EXPECT_EQ(on("qv100", 32, 0, 0).ctas_per_sm, 32u);
  EXPECT_EQ(on("qv100", 32, 0, 0).limiter, "ctas");
  EXPECT_EQ(on("rtx2060", 32, 16, 0).ctas_per_sm, 16u);
}

TEST(Occupancy, RegistersPerWarpRoundToTheGranularity) {
  // 255 regs x 32 = 8160 -> 8192 per warp; 16384 per sub-partition -> 2 warps each,
  // 8 per SM; a 128-thread CTA has 4 warps -> 2 CTAs.
  const Occupancy occ = on("qv100", 128, 255, 0);
  EXPECT_EQ(occ.ctas_per_sm, 2u);
  EXPECT_EQ(occ.limiter, "registers");
  // 1024 threads x 64 regs: 2048 per warp -> 8 warps per sub-partition -> 32 warps -> 1 CTA.
  EXPECT_EQ(on("qv100", 1024, 64, 0).ctas_per_sm, 1u);
  // 33 regs: 1056 -> 1280 per warp -> 12 warps per sub-partition -> 48 -> 6 CTAs of 8 warps
  // (without rounding it would be 65536 / 1056 / 8 = 7).
  EXPECT_EQ(on("qv100", 256, 33, 0).ctas_per_sm, 6u);
}

TEST(Occupancy, TooManyRegistersFitsNothing) {
  const Occupancy occ = on("qv100", 64, 256, 0);
  EXPECT_EQ(occ.ctas_per_sm, 0u);
  EXPECT_EQ(occ.limiter, "registers");
}

TEST(Occupancy, SharedMemoryRoundsToTheGranularity) {
  // 3100 bytes -> 3328 (256-byte units); 98304 / 3328 = 29 (unrounded: 31).
  const Occupancy occ = on("qv100", 32, 0, 3100);
  EXPECT_EQ(occ.ctas_per_sm, 29u);
  EXPECT_EQ(occ.limiter, "shared memory");
}

TEST(Occupancy, SharedMemoryReservationOnAmpere) {
  // A100: 32 KiB + 1 KiB reserved = 33792 bytes; 164 KiB / 33792 = 4 (without the
  // reservation 167936 / 32768 = 5).
  const Occupancy occ = on("a100", 64, 0, 32 * 1024);
  EXPECT_EQ(occ.ctas_per_sm, 4u);
  EXPECT_EQ(occ.limiter, "shared memory");
}

TEST(Occupancy, SharedMemoryBeyondTheCtaLimitFitsNothing) {
  const Occupancy occ = on("qv100", 64, 0, 97 * 1024);
  EXPECT_EQ(occ.ctas_per_sm, 0u);
  EXPECT_EQ(occ.limiter, "shared memory");
}

TEST(Occupancy, LargerCarveoutIsChosenWhenOneCtaNeedsIt) {
  GpuConfig gpu = bundled("qv100");
  gpu.smem_per_sm = 32 * 1024;  // configured carve-out too small for the CTA
  // 40 KiB -> the 64 KiB carve-out holds one CTA (the driver picks it).
  EXPECT_EQ(occupancy(gpu, {64, 0, 40 * 1024}).ctas_per_sm, 1u);
}

TEST(Occupancy, ThreadLimitPerCta) {
  const Occupancy occ = on("qv100", 2048, 0, 0);
  EXPECT_EQ(occ.ctas_per_sm, 0u);
  EXPECT_EQ(occ.limiter, "threads");
}

TEST(Occupancy, TuringHasHalfTheWarps) {
  // 7.5: 32 warps per SM; 256 threads = 8 warps -> 4 CTAs.
  EXPECT_EQ(on("rtx2060", 256, 32, 0).ctas_per_sm, 4u);
  // 8.6: 48 warps -> 6.
  EXPECT_EQ(on("rtx3070", 256, 32, 0).ctas_per_sm, 6u);
}

TEST(Occupancy, PascalFixedSharedMemory) {
  // GTX 1080: 96 KiB per SM, 48 KiB per CTA -> 2 CTAs of 48 KiB; 49 KiB fits none.
  EXPECT_EQ(on("gtx1080", 128, 0, 48 * 1024).ctas_per_sm, 2u);
  EXPECT_EQ(on("gtx1080", 128, 0, 49 * 1024).ctas_per_sm, 0u);
}
