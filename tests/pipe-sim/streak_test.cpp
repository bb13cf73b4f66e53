// The SM's latch streaks (sm.cpp: cycles in which only the memory
// pipeline's address latches progress are booked without evaluating the
// other stages, and accounted in runs) against the SM that evaluates every
// such cycle whole: the same results and the same stall trace, cycle by
// cycle, with each scheduling policy, on generated kernels with barriers,
// divergence, shared memory, random (uncoalesced) addresses, tensor ops,
// and warps that end when their last store leaves the latch.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <vector>

#include "generated_mix.hpp"
#include "output.hpp"
#include "simulate.hpp"
#include "tests/support/gpu_models.hpp"

using namespace sasskit;
using namespace sasskit::pipesim;
using sasskit::pipesim::test::generated_mix;

namespace {

std::string simulate_to_text(const Workload& w, RunOptions o, bool streaks) {
  o.sim.trace_stalls = true;
  o.sim.latch_streaks = streaks;
  auto results = simulate_workload(w, o, opcode_table_classifier);
  std::ostringstream out;
  write_json_summary(out, o.sim.gpu.name, results);
  write_stall_trace(out, results);
  return out.str();
}

void expect_same_with_and_without_streaks(const Workload& w, const RunOptions& o, const std::string& what) {
  std::string streaks = simulate_to_text(w, o, true);
  EXPECT_GT(streaks.size(), 50000u) << what;  // a real trace, not an empty one
  std::string whole = simulate_to_text(w, o, false);
  auto diff = std::mismatch(streaks.begin(), streaks.end(), whole.begin(), whole.end());
  EXPECT_TRUE(streaks == whole) << what << ": first difference at byte " << (diff.first - streaks.begin()) << ": "
                                << streaks.substr(diff.first - streaks.begin(), 80);
}

void expect_same_on(const std::string& config, uint32_t binary_version, std::vector<SchedulerPolicy> policies) {
  Workload w = generated_mix(binary_version, 2048);
  for (SchedulerPolicy p : policies) {
    RunOptions o;
    o.sim.gpu = sasskit::test::bundled(config);
    o.sim.gpu.scheduler = p;
    expect_same_with_and_without_streaks(w, o, config + " " + scheduler_name(p));
  }
}

}  // namespace

TEST(LatchStreaks, MatchTheWholeCycleOnVoltaWithEveryPolicy) {
  expect_same_on("qv100", 70, {SchedulerPolicy::Gto, SchedulerPolicy::Lrr, SchedulerPolicy::TwoLevel});
}

TEST(LatchStreaks, MatchTheWholeCycleOnPascal) { expect_same_on("gtx1080", 61, {SchedulerPolicy::Gto}); }

TEST(LatchStreaks, MatchTheWholeCycleOnAmpere) { expect_same_on("rtx3070", 86, {SchedulerPolicy::TwoLevel}); }

// Where an SM's stall trace reaches its row limit, the rows kept are those
// of the whole-cycle SM: a streak stops before its rows could pass the limit.
TEST(LatchStreaks, KeepTheSameRowsAtTheTraceLimit) {
  RunOptions o;
  o.sim.gpu = sasskit::test::bundled("qv100");
  o.sim.trace_stalls_limit = 2051;
  expect_same_with_and_without_streaks(generated_mix(70, 2048), o, "qv100, 2051 rows per SM");
}
