#include <gtest/gtest.h>

#include "libcommon/diag.hpp"
#include "libcommon/nonstall.hpp"
#include "sampler.hpp"
#include "test_gpu.hpp"

using namespace sasskit;
using namespace sasskit::ctasample;

namespace {
UnitCounts counts(std::initializer_list<std::pair<UnitClass, uint64_t>> items) {
  UnitCounts c{};
  for (auto [u, n] : items) c[static_cast<size_t>(u)] = n;
  return c;
}
}  // namespace

// tiny4: 4 sub-cores, so IRate = 4; SP 1 unit/sub-core (N = 4), latency 4;
// LDST N = 4, latency 30; DP 1 unit every 4 cycles (N = 1), latency 8.
TEST(NonStall, Equation1PerClassAndTheSlowestClassWins) {
  const NonStallModel m(tiny_gpu());
  EXPECT_DOUBLE_EQ(m.cycles(counts({{UnitClass::Sp, 100}})), 100.0 / 4 + 3);           // 28
  EXPECT_DOUBLE_EQ(m.cycles(counts({{UnitClass::Ldst, 8}})), 8.0 / 4 + 29);            // 31
  EXPECT_DOUBLE_EQ(m.cycles(counts({{UnitClass::Sp, 100}, {UnitClass::Ldst, 8}})), 31);
  EXPECT_DOUBLE_EQ(m.cycles(counts({{UnitClass::Dp, 10}})), 10.0 / 1 + 7);             // 17
  EXPECT_DOUBLE_EQ(m.cycles(UnitCounts{}), 0);
}

TEST(NonStall, Equation2CapsUnitsAtTheIssueRate) {
  GpuConfig gpu = tiny_gpu();
  gpu.units[static_cast<size_t>(UnitClass::Int)].count = 2;  // N = 8 > IRate = 4
  const NonStallModel m(gpu);
  // (80 / 8 + 3) * 8 / min(8, 4) = 26
  EXPECT_DOUBLE_EQ(m.cycles(counts({{UnitClass::Int, 80}})), 26);
}

TEST(NonStall, ClassWithoutUnitsIsAFailure) {
  GpuConfig gpu = tiny_gpu();
  gpu.units[static_cast<size_t>(UnitClass::Tensor)].count = 0;
  const NonStallModel m(gpu);
  EXPECT_THROW(m.cycles(counts({{UnitClass::Tensor, 1}})), Error);
}

TEST(NonStall, CountUnitsFollowsTheTable) {
  CtaTrace c;
  WarpTrace w;
  w.inst = {0, 1, 1, 2};
  c.warps = {w, w};
  const std::vector<UnitClass> units{UnitClass::Int, UnitClass::Sp, UnitClass::Ldst};
  EXPECT_EQ(count_units(c.warps, [&](uint32_t i) { return units[i]; }), counts({{UnitClass::Int, 2}, {UnitClass::Sp, 4}, {UnitClass::Ldst, 2}}));
}

TEST(Sampler, PicksTheSmWithTheLongestCtaSetAndCountsInstructions) {
  const GpuConfig gpu = tiny_gpu(2);
  const NonStallModel m(gpu);
  KernelSchedule s;
  s.kernel_id = 3;
  s.sm = {0, 1, 0, 1};
  s.start = {0, 0, 0, 0};
  const CtaUnitCounts per_cta(std::vector<UnitCounts>{counts({{UnitClass::Sp, 40}}), counts({{UnitClass::Sp, 400}}),
                                                     counts({{UnitClass::Sp, 40}}), counts({{UnitClass::Sp, 4}})});
  const auto predicted = predict_per_sm(m, s, per_cta, 2);
  EXPECT_DOUBLE_EQ(predicted[0], 80.0 / 4 + 3);
  EXPECT_DOUBLE_EQ(predicted[1], 404.0 / 4 + 3);
  KernelSample sample = choose_sample(s, per_cta, predicted, SampleOptions{}, 2);
  EXPECT_EQ(sample.selection, "max");
  EXPECT_EQ(sample.sms, (std::vector<uint32_t>{1}));
  EXPECT_EQ(sample.ctas, (std::vector<uint32_t>{1, 3}));
  EXPECT_EQ(sample.kernel_insts, 484u);
  EXPECT_EQ(sample.sample_insts, 404u);
  EXPECT_EQ(sample.kernel_ctas, 4u);

  sample = choose_sample(s, per_cta, predicted, SampleOptions{false, 0u, 1}, 2);
  EXPECT_EQ(sample.selection, "sm");
  EXPECT_EQ(sample.ctas, (std::vector<uint32_t>{0, 2}));
  sample = choose_sample(s, per_cta, predicted, SampleOptions{false, std::nullopt, 5}, 2);
  EXPECT_EQ(sample.selection, "top");
  EXPECT_EQ(sample.sms, (std::vector<uint32_t>{1, 0}));  // only SMs with CTAs, longest first
  EXPECT_EQ(sample.sample_insts, sample.kernel_insts);
}
