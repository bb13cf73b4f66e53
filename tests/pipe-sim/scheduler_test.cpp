// The warp scheduler built alone, against warp heads and a sub-core port
// the test fills and a fake that records what it issues: which warp goes,
// the stall events of those it passes over, and when it scans again.
#include <gtest/gtest.h>

#include "decode.hpp"
#include "micro.hpp"
#include "scheduler.hpp"

using namespace sasskit;
using namespace sasskit::pipesim;
using namespace sasskit::pipesim::test;

namespace {

struct Issued {
  unsigned subcore;
  uint32_t warp, collector;
};

class RecordingTarget final : public IssueTarget {
 public:
  std::vector<Issued> issued;
  Op issue(unsigned subcore, uint32_t w, uint32_t cu) override {
    issued.push_back({subcore, w, cu});
    return Op{.warp = w, .mask = 0xffffffffu};
  }
};

GpuConfig four_warp_gpu() {
  GpuConfig g = one_subcore_gpu();
  g.max_warps_per_sm = 4;
  g.units[size_t(UnitClass::Sp)].initiation_interval = 2;  // 16 lanes: no two FADDs in a row
  return g;
}

// One sub-core of four warp slots under GTO, with two collectors and one
// pipeline per unit class, all free; warps 0-3 resident, oldest first, with
// nothing to issue.
class OneSubCore : public ::testing::Test, protected LoneStage {
 protected:
  OneSubCore() : LoneStage(four_warp_gpu()) {
    fadd_ = t_.add("FADD", {10}, {2, 3});
    iadd_ = t_.add("IADD3", {11}, {2, 3});
    build();
    pc_insts_.assign(program_.pcs.size(), 0);
    port().set_collectors(2);
    for (size_t u = 0; u < kUnitClasses; ++u) port().set_pipes(static_cast<UnitClass>(u), 1);
    for (uint32_t w = 0; w < 4; ++w) heads_.add(w);
    clock_.now = 100;
  }

  // A head of instruction `inst`, decoded by now.
  Head head(Head::Kind kind, uint32_t inst) const {
    const DecodedInst& d = program_.insts[inst];
    return Head{.kind = kind, .mem = d.is_mem(), .unit = static_cast<uint8_t>(d.op.unit), .pc_index = d.pc_index, .inst = inst,
                .ready = clock_.now};
  }
  // The scheduler's cycle at `now`: what it issued this cycle (or nothing).
  std::vector<Issued> cycle(uint64_t now) {
    clock_.now = now;
    clock_.take();
    port().new_cycle();
    target_.issued.clear();
    scheduler_.issue(0);
    return target_.issued;
  }

  uint32_t fadd_ = 0, iadd_ = 0;
  std::vector<uint64_t> pc_insts_;
  WarpHeads heads_{4, 1, false};
  RecordingTarget target_;
  Scheduler scheduler_{wiring_, pc_insts_, heads_, target_, false};
};

TEST_F(OneSubCore, BlamesTheWarpsThatCannotGoThenIssuesTheOldestThatCan) {
  Head blocked = head(Head::Kind::Blocked, iadd_);
  blocked.on_load = true;
  heads_.set(0, blocked);
  heads_.set(1, head(Head::Kind::Ready, fadd_));
  port().book_pipe(UnitClass::Sp, 0, 110);  // FADD's pipeline is busy at dispatch until then

  EXPECT_TRUE(cycle(100).empty());
  EXPECT_FALSE(port().issued);
  EXPECT_TRUE(port().events.has(StallEvent::DataDependence));
  EXPECT_TRUE(port().events.on_mem(StallEvent::DataDependence));
  EXPECT_TRUE(port().events.has(StallEvent::UnitSaturation));
  EXPECT_EQ(port().events.pc[size_t(StallEvent::UnitSaturation)], program_.insts[fadd_].pc_index);
  EXPECT_FALSE(port().events.has(StallEvent::NoActiveWarp));
  EXPECT_EQ(clock_.next(), 110 - kIssueToDispatch);  // when FADD could reach a free pipeline

  heads_.set(2, head(Head::Kind::Ready, iadd_));
  heads_.set(3, head(Head::Kind::Ready, iadd_));
  const std::vector<Issued> issued = cycle(101);
  ASSERT_EQ(issued.size(), 1u);
  EXPECT_EQ(issued[0].warp, 2u);  // the oldest ready warp whose unit is free
  EXPECT_EQ(issued[0].collector, 0u);
  EXPECT_TRUE(port().issued);
  EXPECT_EQ(port().issued_pc, program_.insts[iadd_].pc_index);
  EXPECT_EQ(counters_.insts, 1u);
  EXPECT_EQ(pc_insts_[program_.insts[iadd_].pc_index], 1u);
}

TEST_F(OneSubCore, GreedyWarpGoesFirstAndTheUnitIsExcludedNextCycle) {
  heads_.set(1, head(Head::Kind::Ready, fadd_));
  ASSERT_EQ(cycle(100).at(0).warp, 1u);
  // Warp 1 issued FADD; next cycle both warps offer FADD: the greedy warp
  // goes first and is held by the unit's issue exclusion, so is warp 0.
  heads_.set(0, head(Head::Kind::Ready, fadd_));
  heads_.set(1, head(Head::Kind::Ready, fadd_));
  EXPECT_TRUE(cycle(101).empty());
  EXPECT_TRUE(port().events.has(StallEvent::IssueExclusion));
  EXPECT_EQ(clock_.asked.wake, 102u);  // the exclusion lifts next cycle
  // The greedy warp goes first once it lifts.
  ASSERT_EQ(cycle(102).size(), 1u);
  EXPECT_EQ(target_.issued.at(0).warp, 1u);
}

TEST_F(OneSubCore, WithNoFreeCollectorItWaitsUntilThePortSaysOneIsFree) {
  heads_.set(3, head(Head::Kind::Ready, iadd_));
  port().take_collector(0);
  port().take_collector(1);
  EXPECT_TRUE(cycle(100).empty());
  EXPECT_TRUE(port().events.has(StallEvent::NoCollector));
  // Nothing it read has changed: the same verdict, with the same events.
  EXPECT_TRUE(cycle(101).empty());
  EXPECT_TRUE(port().events.has(StallEvent::NoCollector));
  // A collector frees: the port's write is seen by the next scan.
  port().release_collector(1);
  const std::vector<Issued> issued = cycle(102);
  ASSERT_EQ(issued.size(), 1u);
  EXPECT_EQ(issued[0].warp, 3u);
  EXPECT_EQ(issued[0].collector, 1u);
}

TEST_F(OneSubCore, AHeadThatChangesIsSeenByTheNextScan) {
  heads_.set(2, head(Head::Kind::Blocked, iadd_));
  EXPECT_TRUE(cycle(100).empty());
  EXPECT_TRUE(port().events.has(StallEvent::DataDependence));
  heads_.set(2, head(Head::Kind::Ready, iadd_));
  ASSERT_EQ(cycle(101).size(), 1u);
  EXPECT_EQ(target_.issued[0].warp, 2u);
}

TEST_F(OneSubCore, NoWarpWithAnInstructionIsNoActiveWarp) {
  EXPECT_TRUE(cycle(100).empty());
  EXPECT_TRUE(port().events.has(StallEvent::NoActiveWarp));
  EXPECT_EQ(clock_.next(), kNever);  // nothing it waits for
}

TEST_F(OneSubCore, AHeadDecodedLaterWakesTheClockThen) {
  Head later = head(Head::Kind::Ready, iadd_);
  later.ready = 105;
  heads_.set(0, later);
  EXPECT_TRUE(cycle(100).empty());
  EXPECT_EQ(clock_.next(), 105u);
  ASSERT_EQ(cycle(105).size(), 1u);
  EXPECT_EQ(target_.issued[0].warp, 0u);
}

}  // namespace
