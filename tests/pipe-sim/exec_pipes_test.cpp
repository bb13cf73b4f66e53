// The execution pipes built alone: instructions dispatched into them, and a
// fake that records when each result written back reaches the warps.
#include <gtest/gtest.h>

#include "decode.hpp"
#include "exec_pipes.hpp"
#include "micro.hpp"

using namespace sasskit;
using namespace sasskit::pipesim;
using namespace sasskit::pipesim::test;

namespace {

struct Completed {
  uint64_t cycle;
  uint32_t warp;
};

// Records each completion with the cycle it came in.
struct RecordingWarps {
  const Clock& clock;
  std::vector<Completed> completed;
  void complete(const Op& op) { completed.push_back({clock.now, op.warp}); }
};

// One sub-core with one pipeline per class (latency 4, a new instruction
// each cycle; SFU: latency 20, every 4 cycles), two register banks of two
// ports each.
class OneSubCorePipes : public ::testing::Test, protected LoneStage {
 protected:
  OneSubCorePipes() : LoneStage(one_subcore_gpu()) {
    fadd_ = t_.add("FADD", {10}, {2, 3});
    mufu_ = t_.add("MUFU", {11}, {2});
    wide_ = t_.add("DFMA", {12, 14}, {2, 4});  // both results in bank 0
    build();
  }

  // The pipes' cycle at `now`: write-back, then the dispatches.
  std::vector<Completed> write_back(uint64_t now) {
    clock_.now = now;
    clock_.take();
    port().new_cycle();
    warps_.completed.clear();
    pipes_.write_back(0, warps_);
    return warps_.completed;
  }
  bool dispatch(uint32_t warp, uint32_t inst) {
    return pipes_.accept(0, Op{.warp = warp, .inst = inst}, program_.insts[inst]);
  }

  uint32_t fadd_ = 0, mufu_ = 0, wide_ = 0;
  ExecPipes pipes_{wiring_};
  RecordingWarps warps_{clock_};
};

TEST_F(OneSubCorePipes, AResultReachesTheWarpsItsLatencyAfterIssue) {
  write_back(100);
  ASSERT_TRUE(dispatch(7, fadd_));
  EXPECT_EQ(port().pipe_free_at(UnitClass::Sp)[0], 101u);
  // Issue and operand read took 2 of FADD's 4 cycles before dispatch.
  EXPECT_EQ(clock_.take().wake, kNever);
  EXPECT_TRUE(write_back(101).empty());
  EXPECT_EQ(clock_.next(), 102u);  // the pipes wake when the result is due
  const std::vector<Completed> done = write_back(102);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].warp, 7u);
  EXPECT_TRUE(write_back(103).empty());  // written back once
}

TEST_F(OneSubCorePipes, ABusyPipelineRefusesUntilItsInitiationIntervalPassed) {
  write_back(100);
  ASSERT_TRUE(dispatch(1, mufu_));
  EXPECT_FALSE(dispatch(2, mufu_));
  EXPECT_TRUE(port().events.has(StallEvent::DispatchQueue));
  EXPECT_EQ(clock_.next(), 104u);  // the SFU takes the next one 4 cycles on
  EXPECT_TRUE(dispatch(3, fadd_));  // another class's pipeline is free
  // Results come back by readiness, not by dispatch: FADD at 102, each
  // MUFU 18 cycles after its dispatch.
  const std::vector<Completed> fadd = write_back(102);
  ASSERT_EQ(fadd.size(), 1u);
  EXPECT_EQ(fadd[0].warp, 3u);
  EXPECT_TRUE(write_back(103).empty());
  EXPECT_FALSE(dispatch(2, mufu_));
  EXPECT_TRUE(write_back(104).empty());
  EXPECT_TRUE(dispatch(2, mufu_));
  EXPECT_TRUE(write_back(117).empty());
  const std::vector<Completed> first = write_back(118);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].warp, 1u);
  const std::vector<Completed> second = write_back(122);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].warp, 2u);
}

TEST_F(OneSubCorePipes, AResultThatFindsNoBankPortWaitsACycle) {
  write_back(100);
  ASSERT_TRUE(dispatch(1, wide_));  // DFMA, latency 8: due at 106, two registers of bank 0
  // A load's result, due then too, to the same two registers' bank.
  pipes_.enqueue_result(0, Op{.warp = 3, .inst = wide_, .done = 106, .long_miss = true});
  EXPECT_EQ(port().long_misses, 1u);
  EXPECT_TRUE(write_back(105).empty());
  const std::vector<Completed> at106 = write_back(106);
  ASSERT_EQ(at106.size(), 1u);
  EXPECT_EQ(at106[0].warp, 1u);  // it took both ports of bank 0
  EXPECT_TRUE(port().events.has(StallEvent::ResultBus));
  EXPECT_EQ(port().long_misses, 1u);
  EXPECT_EQ(clock_.next(), 107u);  // retried next cycle
  const std::vector<Completed> at107 = write_back(107);
  ASSERT_EQ(at107.size(), 1u);
  EXPECT_EQ(at107[0].warp, 3u);
  EXPECT_EQ(port().long_misses, 0u);
}

}  // namespace
