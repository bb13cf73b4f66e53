// The one definition of a kernel's and an application's metrics that
// stall-report and pipe-sim --format json both report (formats/metrics.hpp).
#include <gtest/gtest.h>

#include "formats/metrics.hpp"

using namespace sasskit;

namespace {

KernelStats stats(uint64_t cycles, uint64_t insts, uint64_t mem_data_stalls) {
  KernelStats s;
  s.cycles = cycles;
  s.total.insts = insts;
  s.total.stall_type[size_t(StallType::MemData)] = mem_data_stalls;
  return s;
}

KernelSample sample(uint64_t kernel_insts, uint64_t sample_insts, std::optional<double> error = std::nullopt) {
  return {.kernel_insts = kernel_insts, .sample_insts = sample_insts, .sampling_error = error};
}

}  // namespace

TEST(Metrics, SampleScaleIsKernelOverSampledInstructions) {
  EXPECT_DOUBLE_EQ(sample_scale(nullptr), 1);
  const KernelSample kept_a_third = sample(300, 100), empty = sample(300, 0);
  EXPECT_DOUBLE_EQ(sample_scale(&kept_a_third), 3);
  EXPECT_DOUBLE_EQ(sample_scale(&empty), 1);
  EXPECT_DOUBLE_EQ(share(1, 4), 0.25);
  EXPECT_DOUBLE_EQ(share(1, 0), 0);
}

TEST(Metrics, ASampledKernelsCountsAreScaledNotItsCycles) {
  const KernelSample kept_a_third = sample(300, 100, 0.1);
  const Metrics m = kernel_metrics(stats(1000, 100, 50), nullptr, &kept_a_third);
  EXPECT_DOUBLE_EQ(m.cycles, 1000);
  EXPECT_DOUBLE_EQ(m.instructions, 300);
  EXPECT_DOUBLE_EQ(m.stall_cycles(), 150);
  EXPECT_DOUBLE_EQ(m.ipc(), 0.3);
  EXPECT_TRUE(m.sampled);
  EXPECT_EQ(m.sampling_error, 0.1);
  KernelStats pkp = stats(1000, 100, 0);
  pkp.projection.applied = true;
  pkp.projection.projected_insts = 250;
  EXPECT_DOUBLE_EQ(kernel_metrics(pkp, nullptr, nullptr).instructions, 250);
}

TEST(Metrics, ApplicationTotalsWeighTheKernels) {
  const KernelSample kept_half = sample(200, 100, 0.5);
  const Metrics a = kernel_metrics(stats(1000, 100, 100), nullptr, nullptr);
  const Metrics b = kernel_metrics(stats(500, 100, 0), nullptr, &kept_half);
  const Metrics t = application_totals({{&a, 2}, {&b, 1}});
  EXPECT_DOUBLE_EQ(t.cycles, 2500);
  EXPECT_DOUBLE_EQ(t.instructions, 400);
  EXPECT_DOUBLE_EQ(t.stall_cycles(), 200);
  EXPECT_TRUE(t.sampled);
  // Scheduler cycles: a's 2 x 200 exact, b's 200 off by +50%.
  ASSERT_TRUE(t.sampling_error);
  EXPECT_NEAR(*t.sampling_error, 600.0 / (400 + 200 / 1.5) - 1, 1e-12);
}

TEST(Metrics, ProjectionErrorIsThatOfTheSummedCycles) {
  KernelStats projected = stats(1000, 10, 0), full = stats(3000, 10, 0);
  projected.projection.applied = true;
  projected.projection.error_frac = 0.04;
  const Metrics a = kernel_metrics(projected, nullptr, nullptr), b = kernel_metrics(full, nullptr, nullptr);
  EXPECT_EQ(a.projection_error, 0.04);
  EXPECT_FALSE(b.projection_error);
  // 40 cycles off in 1000 + 2 x 3000.
  EXPECT_DOUBLE_EQ(*application_totals({{&a, 1}, {&b, 2}}).projection_error, 40.0 / 7000);
  EXPECT_FALSE(application_totals({{&b, 1}}).projection_error);
}

TEST(Metrics, L2SectorsSplitIntoReadsAndWritesOnlyWhereTheRecordSplitsThem) {
  KernelStats s = stats(1000, 100, 0);
  s.total.l2_sectors = 96;
  s.total.l2_write_sectors = 32;
  const KernelSample kept_half = sample(200, 100);
  const Metrics m = kernel_metrics(s, nullptr, &kept_half);
  EXPECT_EQ(m.l2_write_sectors, 64);  // scaled by the sample, as every count
  EXPECT_EQ(m.l2_read_sectors(), 128);
  // A cache record (rd-cache's model) decides the traffic over pipe-sim's.
  KernelCacheModel cache;
  cache.l2_bound_sectors = 10;
  cache.l2_bound_write_sectors = 4;
  const Metrics c = kernel_metrics(s, &cache, nullptr);
  EXPECT_EQ(c.l2_read_sectors(), 6);
  EXPECT_EQ(c.l2_write_sectors, 4);
  // Records before 2.5 do not split them: unknown, never all reads.
  cache.l2_bound_write_sectors.reset();
  EXPECT_FALSE(kernel_metrics(s, &cache, nullptr).l2_write_sectors);
  KernelStats old = s;
  old.l2_writes_known = false;
  const Metrics o = kernel_metrics(old, nullptr, nullptr);
  EXPECT_FALSE(o.l2_read_sectors());
  // The application's split only when every kernel's is known.
  const Metrics a = kernel_metrics(s, nullptr, nullptr);
  EXPECT_EQ(application_totals({{&a, 2}, {&c, 1}}).l2_write_sectors, 2 * 32 + 4);
  EXPECT_FALSE(application_totals({{&a, 1}, {&o, 1}}).l2_write_sectors);
}

TEST(Metrics, ACacheRecordOfEveryCtaIsNotScaledBackFromTheSample) {
  // cta-sample kept 10 of 40 CTAs and half the instructions; pipe-sim's
  // counts are the sample's, scaled by 2.
  KernelSample kept_half = sample(200, 100);
  kept_half.kernel_ctas = 40;
  KernelStats s = stats(1000, 100, 0);
  s.total.l2_sectors = 50;
  KernelCacheModel cache;
  cache.gmem_requests = 30;
  cache.l2_bound_sectors = 60;
  cache.l2_bound_write_sectors = 20;
  cache.dram_read_sectors = 8;
  cache.dram_write_sectors = 4;
  // rd-cache before cta-sample: the record models all 40 CTAs, so its
  // counts are the kernel's already.
  cache.ctas = 40;
  const Metrics whole = kernel_metrics(s, &cache, &kept_half);
  EXPECT_DOUBLE_EQ(whole.instructions, 200);
  EXPECT_DOUBLE_EQ(*whole.gmem_requests, 30);
  EXPECT_DOUBLE_EQ(whole.l2_sectors, 60);
  EXPECT_DOUBLE_EQ(*whole.l2_write_sectors, 20);
  EXPECT_DOUBLE_EQ(whole.dram_read_sectors, 8);
  EXPECT_DOUBLE_EQ(whole.dram_write_sectors, 4);
  // rd-cache after cta-sample: the record models the 10 kept CTAs.
  cache.ctas = 10;
  const Metrics kept = kernel_metrics(s, &cache, &kept_half);
  EXPECT_DOUBLE_EQ(*kept.gmem_requests, 60);
  EXPECT_DOUBLE_EQ(kept.l2_sectors, 120);
  EXPECT_DOUBLE_EQ(kept.dram_read_sectors, 16);
  // A record before 2.6 does not say: the sample's, as before.
  cache.ctas.reset();
  EXPECT_DOUBLE_EQ(*kernel_metrics(s, &cache, &kept_half).gmem_requests, 60);
}

// With a check SM the estimate comes from the kept SMs' simulated counts
// (check_sampling_error); without one, or in a record before 2.7, it is
// the record's widest limit. The application is "check" only when every
// sampled kernel is.
TEST(Metrics, ACheckSmsMeasuredSpreadReplacesTheWidestLimit) {
  KernelSample checked = sample(400, 200, 0.5);
  checked.sms = {0, 1};
  checked.check_sm = 1;
  KernelStats s = stats(1000, 200, 0);
  s.per_sm = {SmStats{0, {}}, SmStats{1, {}}};
  s.per_sm[0].c.insts = 100, s.per_sm[0].c.sched_cycles = 300;  // 3 cycles per instruction
  s.per_sm[1].c.insts = 100, s.per_sm[1].c.sched_cycles = 200;  // 2
  const Metrics m = kernel_metrics(s, nullptr, &checked);
  EXPECT_EQ(m.sampling_method, SamplingMethod::Check);
  // Together 2.5 per instruction; the other 200 within two standard errors
  // (0.5 each) of it, at 1.5: 1000 projected for 800.
  ASSERT_TRUE(m.sampling_error.has_value());
  EXPECT_DOUBLE_EQ(*m.sampling_error, 1000.0 / 800 - 1);
  KernelSample unchecked = sample(400, 200, 0.5);
  const Metrics limits = kernel_metrics(s, nullptr, &unchecked);
  EXPECT_EQ(limits.sampling_method, SamplingMethod::Limits);
  EXPECT_EQ(limits.sampling_error, 0.5);
  EXPECT_EQ(application_totals({{&m, 1}}).sampling_method, SamplingMethod::Check);
  EXPECT_EQ(application_totals({{&m, 1}, {&limits, 1}}).sampling_method, SamplingMethod::Limits);
  EXPECT_STREQ(sampling_method_name(SamplingMethod::Check), "check");
}
