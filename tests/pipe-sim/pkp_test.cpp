// PKP's stopping rule and projection (pkp.hpp) on synthetic progress: SMs
// whose CTAs run at known rates, fed to Pkp::step as gpu_timeline does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include <optional>
#include <vector>

#include "pkp.hpp"

namespace sasskit::pipesim {
namespace {

TEST(PkpDrain, SlotsRunTheQueueInLaunchOrder) {
  // 16 CTAs of 100 instructions on 8 slots at 1 instruction per cycle each.
  EXPECT_DOUBLE_EQ(drain_cycles({}, 0, std::vector<uint64_t>(16, 100), 8, 1.0), 200);
  // A long CTA launched last ends the SM.
  std::vector<uint64_t> queued(7, 100);
  queued.push_back(400);
  EXPECT_DOUBLE_EQ(drain_cycles({}, 0, queued, 8, 1.0), 400);
}

TEST(PkpDrain, ResidentCtasProgressSpreadEvenly) {
  // Two resident CTAs of 100 with 100 left in all: 1/4 and 3/4 of their
  // work left, so their slots free at 25 and 75, and the queued CTA of 100
  // runs from 25.
  EXPECT_DOUBLE_EQ(drain_cycles({100, 100}, 100, {100}, 2, 1.0), 125);
}

// SMs each running `ctas` CTAs of their size, `slots` at once, each SM at
// `rate` instructions per cycle while it has CTAs, staggered so that one CTA
// ends every size * slots / rate / slots cycles: the kernel as PKP sees it.
struct Synthetic {
  std::vector<std::vector<uint64_t>> cta_insts;
  unsigned slots = 2;
  double rate = 1;
  double l2_per_inst = 0;    // bytes each instruction moves to and from L2
  double dram_per_inst = 0;  // to and from DRAM
  ChipMemory chip;

  uint64_t total(size_t sm) const {
    uint64_t t = 0;
    for (uint64_t i : cta_insts[sm]) t += i;
    return t;
  }
  std::vector<SmProgress> at(uint64_t cycle) const {
    std::vector<SmProgress> out;
    for (size_t j = 0; j < cta_insts.size(); ++j) {
      const uint64_t done = std::min<uint64_t>(total(j), uint64_t(rate * double(cycle)));
      uint64_t finished = 0, sum = 0;
      for (uint64_t i : cta_insts[j])
        if ((sum += i) <= done) ++finished;
      // L2 reads and their misses in proportion to the bytes (a sector a byte).
      out.push_back({done, finished, l2_per_inst * double(done), dram_per_inst * double(done), {},
                     l2_per_inst * double(done), dram_per_inst * double(done)});
    }
    return out;
  }
  uint64_t end() const {
    uint64_t e = 0;
    for (size_t j = 0; j < cta_insts.size(); ++j) e = std::max(e, uint64_t(double(total(j)) / rate));
    return e;
  }
  // Feeds Pkp every interval until it stops or the kernel ends; the cycle
  // it stopped at, and how.
  std::optional<std::pair<uint64_t, PkpStop>> run(PkpOptions opt = {}) const {
    opt.enabled = true;
    Pkp pkp(opt, cta_insts, slots, chip);
    for (uint64_t c = pkp.interval(); c < end(); c += pkp.interval())
      if (auto stop = pkp.step(c, at(c))) return std::make_pair(c, *stop);
    return std::nullopt;
  }
};

TEST(Pkp, SteadyKernelStopsAfterTheSecondWaveWithinItsEstimate) {
  Synthetic k{std::vector<std::vector<uint64_t>>(4, std::vector<uint64_t>(100, 100))};
  auto stop = k.run();
  ASSERT_TRUE(stop);
  // A wave is 8 CTAs, two per SM: 200 cycles each at these rates.
  EXPECT_GE(stop->first, 400u);
  const double projected = double(stop->first + stop->second.remaining_cycles), actual = double(k.end());
  EXPECT_GT(stop->second.error_frac, 0);
  EXPECT_LE(stop->second.error_frac, PkpOptions{}.max_error);
  EXPECT_LE(std::abs(projected - actual) / projected, stop->second.error_frac);
}

TEST(Pkp, StopsOnlyWithinTheToleranceItIsGiven) {
  Synthetic k{std::vector<std::vector<uint64_t>>(4, std::vector<uint64_t>(100, 100))};
  auto stop = k.run();
  ASSERT_TRUE(stop);
  // Asked for less than the estimate it stopped with, PKP runs on to a
  // later wave whose estimate is within the tolerance, or to the end.
  PkpOptions tight;
  tight.max_error = stop->second.error_frac / 2;
  auto later = k.run(tight);
  if (later) {
    EXPECT_GT(later->first, stop->first);
    EXPECT_LE(later->second.error_frac, tight.max_error);
  }
  tight.max_error = 0;
  EXPECT_FALSE(k.run(tight));
}

TEST(Pkp, SmsThatEndFarApartRunOn) {
  // One SM has four times the work of the others: the spread of the SMs'
  // ends keeps the estimate high while the short SMs run.
  Synthetic k{std::vector<std::vector<uint64_t>>(4, std::vector<uint64_t>(100, 100))};
  k.cta_insts[3] = std::vector<uint64_t>(100, 400);
  auto stop = k.run();
  if (stop) {
    EXPECT_GE(stop->first, 10000u);  // when the short SMs have ended
    const double projected = double(stop->first + stop->second.remaining_cycles);
    EXPECT_LE(std::abs(projected - double(k.end())) / projected, stop->second.error_frac);
  }
}

TEST(Pkp, WavesNeverStopWithoutTwoWavesOrBelowOneWave) {
  // Two waves and a half: the second wave's end leaves too little to gain.
  Synthetic few{std::vector<std::vector<uint64_t>>(4, std::vector<uint64_t>(5, 100))};
  EXPECT_FALSE(few.run());
  Synthetic many{std::vector<std::vector<uint64_t>>(4, std::vector<uint64_t>(100, 100))};
  PkpOptions below;
  below.grid_below_wave = true;
  EXPECT_FALSE(many.run(below));
  PkpOptions unstable;
  unstable.s = 0;  // no IPC is stable
  EXPECT_FALSE(many.run(unstable));
}

// 4 SMs of 100 CTAs of 100 instructions, 2 at a time, at 1 instruction per
// cycle each, every instruction moving 8 bytes of DRAM: the chip's DRAM
// used at `use` of its rate. Waves of 8 CTAs end every 200 cycles; with a
// window of 300 cycles the IPC is stable from the second wave's end.
Synthetic dram_kernel(double use) {
  Synthetic k{std::vector<std::vector<uint64_t>>(4, std::vector<uint64_t>(100, 100))};
  k.dram_per_inst = 8;
  k.chip.dram = 4 * 8 / use;
  return k;
}

PkpOptions short_window() {
  PkpOptions opt;
  opt.window = 300;
  return opt;
}

TEST(PkpBandwidthBound, AKernelAtTheChipsDramRateIsProjectedAtTheChipsRate) {
  auto stop = dram_kernel(1).run(short_window());
  ASSERT_TRUE(stop);
  // Two waves after the warm-up wave: the third's end.
  EXPECT_EQ(stop->first, 600u);
  // 4 instructions a cycle for the 4 * 9400 left, then half a CTA's time
  // (100 instructions at a quarter of one SM's rate, 2 CTAs to an SM: 200).
  EXPECT_EQ(stop->second.remaining_cycles, 9400u + 100u);
  EXPECT_DOUBLE_EQ(stop->second.error_frac, 100.0 / (600 + 9500));
}

TEST(PkpBandwidthBound, OnlyWithinTheTolerance) {
  // At 96% of the chip's rate the kernel is bandwidth-bound for a
  // tolerance of 5%, not for one of 3%: then the per-SM rule projects it,
  // from the second wave's end.
  auto bound = dram_kernel(0.96).run(short_window());
  ASSERT_TRUE(bound);
  EXPECT_EQ(bound->first, 600u);
  PkpOptions tight = short_window();
  tight.max_error = 0.03;
  auto per_sm = dram_kernel(0.96).run(tight);
  ASSERT_TRUE(per_sm);
  EXPECT_EQ(per_sm->first, 400u);
  EXPECT_NE(per_sm->second.remaining_cycles, 9500u);
}

TEST(PkpBandwidthBound, AtTheDramsRateTheWarmUpLastsUntilTheL2IsFull) {
  // The DRAM moves 32 bytes a cycle, half the L2's (the other half hits):
  // an L2 of 16,000 bytes is full at cycle 500, so the warm-up ends with
  // the third wave (600), and the rate is taken over the two waves after it.
  Synthetic k = dram_kernel(1);
  k.l2_per_inst = 16;
  k.chip.l2_capacity = 32 * 500;
  auto stop = k.run(short_window());
  ASSERT_TRUE(stop);
  EXPECT_EQ(stop->first, 1000u);
  EXPECT_EQ(stop->second.remaining_cycles, 9000u + 100u);
  // A stream (every L2 byte goes on to DRAM) gains nothing as the L2
  // fills: it stops after the second wave after the first, as without one.
  Synthetic stream = dram_kernel(1);
  stream.l2_per_inst = 8;
  stream.chip.l2_capacity = k.chip.l2_capacity;
  auto streamed = stream.run(short_window());
  ASSERT_TRUE(streamed);
  EXPECT_EQ(streamed->first, 600u);
  // An L2 the kernel never fills: no stop by the waves' rule, only by the
  // drain rule once every CTA has launched.
  k.chip.l2_capacity = 32.0 * double(k.end()) * 2;
  const auto drained = k.run(short_window());
  if (drained) {
    EXPECT_GE(drained->first, 9000u);
  }
}

TEST(PkpBandwidthBound, L2AtTheChipsRateBindsAsDramDoes) {
  // DRAM at half the chip's rate, L2 at its rate.
  Synthetic k = dram_kernel(0.5);
  k.l2_per_inst = 16;
  k.chip.l2 = 4 * 16;
  auto stop = k.run(short_window());
  ASSERT_TRUE(stop);
  EXPECT_EQ(stop->first, 600u);
  EXPECT_EQ(stop->second.remaining_cycles, 9500u);
}

// One SM's warp slots at cycles 0, 1000 and 2000 (a window of 1000): each
// slot's warp with `left` instructions at 2000, having run at `before` per
// cycle and then at `rate`.
struct Drain {
  WorkLeft a{0, {}}, b{1000, {}}, c{2000, {}};
  void sm(const std::vector<uint64_t>& left, const std::vector<uint64_t>& rate, const std::vector<uint64_t>& before) {
    std::vector<uint64_t> at_a, at_b;
    for (size_t s = 0; s < left.size(); ++s) {
      at_b.push_back(left[s] + 1000 * rate[s]);
      at_a.push_back(at_b.back() + 1000 * before[s]);
    }
    a.left.push_back(at_a);
    b.left.push_back(at_b);
    c.left.push_back(left);
  }
  std::optional<PkpStop> project() const { return project_drain(a, b, c, 1000); }
};

// Half a window (the warps' last instructions) is in every estimate.
constexpr double kLastStretch = 500;

TEST(PkpDrainRule, EqualWarpsAtSteadyRatesEndTogether) {
  Drain d;
  d.sm({1000, 1000}, {1, 1}, {1, 1});
  d.sm({2000}, {2}, {2});
  auto stop = d.project();
  ASSERT_TRUE(stop);
  EXPECT_EQ(stop->remaining_cycles, 1000u);
  EXPECT_DOUBLE_EQ(stop->error_frac, kLastStretch / (2000 + 1000));
}

TEST(PkpDrainRule, TheLongestWarpBoundsTheTail) {
  // 4000 left at 2 per cycle: 2000 cycles if the SM keeps its rate, 3000
  // if the longest warp keeps its half of it; the middle, within half the
  // gap.
  Drain d;
  d.sm({3000, 1000}, {1, 1}, {1, 1});
  auto stop = d.project();
  ASSERT_TRUE(stop);
  EXPECT_EQ(stop->remaining_cycles, 2500u);
  EXPECT_DOUBLE_EQ(stop->error_frac, (500 + kLastStretch) / (2000 + 2500));
}

TEST(PkpDrainRule, SmsEndingApartAndAChangingRateWidenTheEstimate) {
  // Two SMs of 2000 and 1000 left at 1 per cycle: 1500 cycles if the GPU
  // keeps its rate of 2, 2000 if the first SM keeps its own.
  Drain apart;
  apart.sm({2000}, {1}, {1});
  apart.sm({1000}, {1}, {1});
  auto stop = apart.project();
  ASSERT_TRUE(stop);
  EXPECT_EQ(stop->remaining_cycles, 1750u);
  EXPECT_DOUBLE_EQ(stop->error_frac, (250 + kLastStretch) / (2000 + 1750));
  // Twice as fast a window before: the change over its 2000 cycles left.
  Drain slowing;
  slowing.sm({2000}, {1}, {2});
  stop = slowing.project();
  ASSERT_TRUE(stop);
  EXPECT_EQ(stop->remaining_cycles, 2000u);
  EXPECT_DOUBLE_EQ(stop->error_frac, (2000 + kLastStretch) / (2000 + 2000));
}

TEST(PkpDrainRule, WarpsThatEndedLeaveTheRatesToThoseRunning) {
  // A warp ended beside one still running, and an SM whose warps have all
  // ended: the running warp's rates alone.
  Drain d;
  d.sm({2000, 0}, {1, 0}, {1, 1});
  d.sm({0}, {0}, {1});
  auto stop = d.project();
  ASSERT_TRUE(stop);
  EXPECT_EQ(stop->remaining_cycles, 2000u);
  EXPECT_DOUBLE_EQ(stop->error_frac, kLastStretch / (2000 + 2000));
}

TEST(PkpDrainRule, NoProjectionForAStuckSmOrWithinTheLastWindow) {
  Drain stuck;
  stuck.sm({2000}, {1}, {1});
  stuck.sm({1000, 500}, {0, 0}, {1, 1});
  EXPECT_FALSE(stuck.project());
  Drain last;
  last.sm({900}, {1}, {1});
  EXPECT_FALSE(last.project());
}

// A grid below one wave: every CTA, of one warp, launched at cycle 0,
// each running at one instruction per cycle; SmProgress as gpu_timeline
// gives it.
std::vector<SmProgress> below_wave_at(const std::vector<std::vector<uint64_t>>& ctas, uint64_t cycle) {
  std::vector<SmProgress> out;
  for (const auto& sm : ctas) {
    SmProgress p;
    for (uint64_t insts : sm) {
      const uint64_t done = std::min(insts, cycle);
      p.insts += done;
      p.finished_ctas += done == insts;
      p.left_per_warp.push_back(insts - done);
    }
    out.push_back(p);
  }
  return out;
}

TEST(PkpDrainRule, AGridBelowAWaveStopsAfterTwoWindowsWithinItsEstimate) {
  const std::vector<std::vector<uint64_t>> ctas(4, std::vector<uint64_t>{40000, 40000});
  PkpOptions opt;
  opt.enabled = true;
  opt.grid_below_wave = true;
  Pkp pkp(opt, ctas, 2);
  std::optional<std::pair<uint64_t, PkpStop>> stop;
  for (uint64_t c = pkp.interval(); c < 40000 && !stop; c += pkp.interval())
    if (auto s = pkp.step(c, below_wave_at(ctas, c))) stop = std::make_pair(c, *s);
  ASSERT_TRUE(stop);
  // The first step two windows after the first sample.
  EXPECT_EQ(stop->first, 2 * opt.window + pkp.interval());
  EXPECT_EQ(stop->first + stop->second.remaining_cycles, 40000u);
  EXPECT_LE(stop->second.error_frac, opt.max_error);
}

TEST(PkpDrainRule, NotWhileCtasWaitToLaunch) {
  const std::vector<std::vector<uint64_t>> ctas(4, std::vector<uint64_t>{40000, 40000});
  PkpOptions opt;
  opt.enabled = true;
  opt.grid_below_wave = true;
  Pkp pkp(opt, ctas, 2);
  for (uint64_t c = pkp.interval(); c < 40000; c += pkp.interval()) {
    std::vector<SmProgress> sms = below_wave_at(ctas, c);
    sms[0].left_per_warp.clear();  // one SM has a CTA still to launch
    EXPECT_FALSE(pkp.step(c, sms));
  }
}

}  // namespace
}  // namespace sasskit::pipesim
