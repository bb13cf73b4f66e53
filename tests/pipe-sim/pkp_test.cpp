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
      out.push_back({done, finished});
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
    Pkp pkp(opt, cta_insts, slots);
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

TEST(Pkp, NeverStopsWithoutTwoWavesOrBelowOneWave) {
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

}  // namespace
}  // namespace sasskit::pipesim
