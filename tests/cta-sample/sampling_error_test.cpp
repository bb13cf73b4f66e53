// cta-sample's sampling error estimate (cta-sample(1), SAMPLING ERROR):
// the sample's instruction scaling applied to HyFiSS's per-SM predictions.
#include <gtest/gtest.h>

#include "formats/sample_record.hpp"
#include "libcommon/nonstall.hpp"
#include "sampler.hpp"
#include "test_gpu.hpp"

using namespace sasskit;
using namespace sasskit::ctasample;

namespace {

UnitCounts sp(uint64_t n) {
  UnitCounts c{};
  c[static_cast<size_t>(UnitClass::Sp)] = n;
  return c;
}

// SM 0 runs CTAs of 40 and 160 SP instructions, SM 1 one of 40. SP has
// N = 4 units of latency 4 (tiny4, IRate 4), so a set of n SP instructions
// takes n/4 + 3: SM 0 predicts 53 for 200, SM 1 13 for 40.
KernelSchedule two_sms_three_ctas() {
  KernelSchedule sched;
  sched.sm = {0, 1, 0};
  sched.start = {0, 0, 0};
  return sched;
}

}  // namespace

// SM 0: 53 predicted cycles for 50 instructions, SM 1: 13 for 10; keeping
// SM 0 and scaling by 60/50 gives 63.6 cycles where the SMs sum to 66.
TEST(SamplingError, KeptSmsCyclesPerInstructionOverTheKernels) {
  const auto e = sampling_error({53, 13}, {50, 10}, {0});
  ASSERT_TRUE(e.has_value());
  EXPECT_DOUBLE_EQ(*e, (53.0 / 50) / (66.0 / 60) - 1);  // -3.6%
  EXPECT_NEAR(*e, -0.036364, 1e-6);
  EXPECT_DOUBLE_EQ(*sampling_error({53, 13}, {50, 10}, {1}), (13.0 / 10) / (66.0 / 60) - 1);  // +18.2%
}

TEST(SamplingError, ZeroWhenEveryCtaSetHasTheSameCyclesPerInstruction) {
  EXPECT_DOUBLE_EQ(*sampling_error({20, 10, 0}, {200, 100, 0}, {0}), 0);
  EXPECT_DOUBLE_EQ(*sampling_error({20, 10}, {200, 100}, {0, 1}), 0);  // everything kept
}

TEST(SamplingError, UnknownWithoutInstructions) {
  EXPECT_FALSE(sampling_error({0, 0}, {0, 0}, {0}).has_value());
  EXPECT_FALSE(sampling_error({5, 0}, {10, 0}, {1}).has_value());  // the kept SM ran nothing
  EXPECT_FALSE(sampling_error({5}, {10}, {}).has_value());
}

TEST(SamplingError, SmMakespansRunEachCtaOnTheSlotThatFreesFirst) {
  KernelSchedule sched;
  sched.sm = {0, 0, 0, 1, 0};
  sched.start = {0, 0, 5, 0, 1};  // SM 0 starts CTAs 0, 1, 4, 2 in that order
  // Two slots: CTAs 0 (3) and 1 (10) start at once; 4 (2) takes 0's slot at
  // 3 and ends at 5; 2 (4) takes that slot at 5 and ends at 9; CTA 1 last.
  const auto times = [](uint32_t cta) { return std::vector<double>{3, 10, 4, 7, 2}.at(cta); };
  EXPECT_EQ(sm_makespans(sched, times, 2, 3), (std::vector<double>{10, 7, 0}));
  // One slot: one after another.
  EXPECT_EQ(sm_makespans(sched, times, 1, 2), (std::vector<double>{19, 7}));
}

// The three limits on the SMs above, one slot each. Throughput: (53/200) /
// (66/240) - 1 = -3.6%. CTAs bound by their own latency: SM 0 takes 200
// (40 then 160), SM 1 40, the same time per instruction: 0. CTAs of a fixed
// cost: SM 0 takes 2 units for 200 instructions, SM 1 1 for 40: (2/200) /
// (3/240) - 1 = -20%, the furthest from 0.
TEST(SamplingError, EstimateIsTheLimitFurthestFromZero) {
  const GpuConfig gpu = tiny_gpu(2);
  const NonStallModel model(gpu);
  const KernelSchedule sched = two_sms_three_ctas();
  const CtaUnitCounts counts(std::vector<UnitCounts>{sp(40), sp(40), sp(160)});
  const auto predicted = predict_per_sm(model, sched, counts, gpu.num_sms);
  ASSERT_EQ(predicted, (std::vector<double>{53, 13}));
  const KernelSample s = choose_sample(sched, counts, predicted, SampleOptions{}, 1);
  EXPECT_EQ(s.sms, std::vector<uint32_t>{0});
  EXPECT_EQ(s.sm_insts, (std::vector<uint64_t>{200, 40}));
  ASSERT_TRUE(s.sampling_error.has_value());
  EXPECT_DOUBLE_EQ(*s.sampling_error, (2.0 / 200) / (3.0 / 240) - 1);
  // Two slots: SM 0 runs both CTAs at once. Its own latency: 160 for 200,
  // (160/200) / (200/240) - 1 = -4%; a fixed cost: 1 unit each, (1/200) /
  // (2/240) - 1 = -40%.
  const KernelSample both = choose_sample(sched, counts, predicted, SampleOptions{}, 2);
  EXPECT_DOUBLE_EQ(*both.sampling_error, (1.0 / 200) / (2.0 / 240) - 1);
}

// Where every CTA-set is alike under all three limits, nothing is left out.
TEST(SamplingError, EstimateIsZeroWhenEverySmRunsTheSameCtas) {
  KernelSchedule sched;
  sched.sm = {0, 1, 0, 1};
  sched.start = {0, 0, 1, 1};
  const CtaUnitCounts counts(std::vector<UnitCounts>{sp(40), sp(40), sp(40), sp(40)});
  EXPECT_DOUBLE_EQ(*sampling_error_estimate(sched, counts, {23, 23}, {80, 80}, {0}, 1), 0);
}

// 100 sampled cycles 25% too high (really 80) beside 100 exact ones:
// 200 projected for 180, +11.1%.
TEST(SamplingError, CombinedOverKernelsIsTheErrorOfTheSum) {
  const auto e = combined_sampling_error({{100, true, 0.25}, {100, false, std::nullopt}});
  ASSERT_TRUE(e.has_value());
  EXPECT_DOUBLE_EQ(*e, 200.0 / 180 - 1);
  EXPECT_FALSE(combined_sampling_error({{100, false, std::nullopt}}).has_value());  // nothing sampled
  EXPECT_FALSE(combined_sampling_error({{100, true, std::nullopt}}).has_value());   // a 2.0 record
}

namespace {

// A kernel of 1000 instructions; SM 0 (predicted longest) and SM 2 (the
// check) kept, 200 instructions each.
KernelSample checked_sample() {
  KernelSample s;
  s.sms = {0, 2};
  s.check_sm = 2;
  s.kernel_insts = 1000;
  s.sample_insts = 400;
  return s;
}

}  // namespace

// The kept SMs spend 3 and 2 cycles per instruction, 2.5 together; their
// deviation is 0.71 (sqrt(0.5)), the standard error of their mean 0.5, so
// the 600 instructions left out take 1.5 to 3.5 each: 1900 to 3100 cycles
// with the kept 1000, where 2500 are projected: +31.6% to -19.4%; the end
// furthest from 0.
TEST(SamplingError, CheckTakesTheOthersWithinTwoStandardErrorsOfTheKeptSms) {
  const auto e = check_sampling_error(checked_sample(), {{0, 200, 600}, {2, 200, 400}});
  ASSERT_TRUE(e.has_value());
  EXPECT_DOUBLE_EQ(*e, 2500.0 / 1900 - 1);
  // The same measured on both: nothing is known to be off.
  EXPECT_DOUBLE_EQ(*check_sampling_error(checked_sample(), {{0, 200, 500}, {2, 200, 500}}), 0);
}

TEST(SamplingError, CheckNeedsACheckSmAndEveryKeptSmMeasured) {
  KernelSample unchecked = checked_sample();
  unchecked.check_sm.reset();
  EXPECT_FALSE(check_sampling_error(unchecked, {{0, 200, 600}, {2, 200, 400}}).has_value());
  EXPECT_FALSE(check_sampling_error(checked_sample(), {{0, 200, 600}}).has_value());             // SM 2 missing
  EXPECT_FALSE(check_sampling_error(checked_sample(), {{0, 200, 600}, {2, 0, 0}}).has_value());  // issued nothing
}

// The check SM is the shortest predicted of the SMs with CTAs not kept
// already, kept last; it adds its CTAs to the sample.
TEST(SamplingError, CheckKeepsTheSmPredictedShortestToo) {
  KernelSchedule sched;
  sched.sm = {0, 1, 2, 1};
  sched.start = {0, 0, 0, 1};
  const CtaUnitCounts counts(std::vector<UnitCounts>{sp(40), sp(40), sp(8), sp(40)});
  const std::vector<double> predicted{13, 23, 5, 0};  // SM 3 has no CTAs
  SampleOptions check;
  check.check = true;
  const KernelSample s = choose_sample(sched, counts, predicted, check, 1);
  EXPECT_EQ(s.sms, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(s.check_sm, 2u);
  EXPECT_EQ(s.ctas, (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(s.sample_insts, 88u);
  check.top = 3;  // every SM with CTAs kept already: no check
  const KernelSample all = choose_sample(sched, counts, predicted, check, 1);
  EXPECT_EQ(all.sms, (std::vector<uint32_t>{1, 0, 2}));
  EXPECT_FALSE(all.check_sm.has_value());
  EXPECT_FALSE(choose_sample(sched, counts, predicted, SampleOptions{}, 1).check_sm.has_value());
}

// SM 0 runs three CTAs where the two kept SMs run one each: their measured
// spread says nothing of an SM with more rounds, so the check SM stays
// kept but is not named as a check (the report takes the limits).
TEST(SamplingError, NoCheckWhereTheKeptSmsDoNotSpanTheCtaCounts) {
  KernelSchedule sched;
  sched.sm = {0, 0, 0, 1, 2};
  sched.start = {0, 1, 2, 0, 0};
  const CtaUnitCounts counts(std::vector<UnitCounts>{sp(8), sp(8), sp(8), sp(40), sp(4)});
  const std::vector<double> predicted{15, 23, 5};
  SampleOptions check;
  check.check = true;
  const KernelSample s = choose_sample(sched, counts, predicted, check, 1);
  EXPECT_EQ(s.sms, (std::vector<uint32_t>{1, 2}));
  EXPECT_FALSE(s.check_sm.has_value());
  EXPECT_EQ(s.ctas, (std::vector<uint32_t>{3, 4}));
  // With SM 0's CTAs split one per SM, the kept SMs span every count.
  sched.sm = {0, 3, 4, 1, 2};
  const KernelSample spanned = choose_sample(sched, counts, {8, 23, 4, 8, 8}, check, 1);
  EXPECT_EQ(spanned.check_sm, 2u);
}
