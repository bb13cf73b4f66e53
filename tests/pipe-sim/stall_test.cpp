// HyFiSS Algorithm 1 as pipe-sim applies it (pipe-sim(1), "Stall types and events").
#include <gtest/gtest.h>

#include "stall.hpp"

using namespace sasskit;
using namespace sasskit::pipesim;
using E = StallEvent;

namespace {

CycleEvents with(std::initializer_list<std::pair<E, bool>> events) {
  CycleEvents c;
  for (auto [e, mem] : events) c.add(e, mem, 7);
  return c;
}

Attribution at(const CycleEvents& now, const CycleEvents& c2 = {}, const CycleEvents& c1 = {}, bool warps = true) {
  return attribute(c1, c2, now, warps);
}

}  // namespace

TEST(Stall, EmptyBuffersAreIdleOrFrontEnd) {
  EXPECT_EQ(at(with({{E::NoActiveWarp, false}}), {}, {}, false).type, StallType::Idle);
  EXPECT_EQ(at(with({{E::NoActiveWarp, false}}), {}, {}, true).type, StallType::Ctrl);
}

TEST(Stall, DirectEventsInAlgorithmOrder) {
  auto all = with({{E::Barrier, false}, {E::DataDependence, true}, {E::IssueExclusion, false}});
  EXPECT_EQ(at(all).type, StallType::Sync);
  EXPECT_EQ(at(with({{E::DataDependence, true}, {E::IssueExclusion, false}})).type, StallType::MemData);
  EXPECT_EQ(at(with({{E::DataDependence, false}})).type, StallType::ComData);
  EXPECT_EQ(at(with({{E::IssueExclusion, true}})).type, StallType::MemStruct);
  EXPECT_EQ(at(with({{E::UnitSaturation, false}})).type, StallType::ComStruct);
  Attribution noc = at(with({{E::UnitSaturation, true}}), with({{E::Interconnect, true}}));
  EXPECT_EQ(noc.type, StallType::MemStruct);
  EXPECT_EQ(noc.event, E::Interconnect);
}

TEST(Stall, CollectorShortageIsTracedBack) {
  auto cu = with({{E::NoCollector, false}});
  Attribution bank = at(cu, with({{E::BankConflict, false}}));
  EXPECT_EQ(bank.type, StallType::ComStruct);
  EXPECT_EQ(bank.event, E::BankConflict);
  EXPECT_EQ(bank.direct, E::NoCollector);
  auto saturated = with({{E::DispatchQueue, false}});
  EXPECT_EQ(at(cu, saturated, with({{E::MemoryAccess, true}})).type, StallType::MemData);
  EXPECT_EQ(at(cu, saturated, with({{E::Interconnect, true}})).type, StallType::MemStruct);
  EXPECT_EQ(at(cu, saturated, with({{E::ResultBus, false}})).type, StallType::ComStruct);
  // Nothing behind it: an attribution failure, as in the paper.
  Attribution other = at(cu, saturated);
  EXPECT_EQ(other.type, StallType::Other);
  EXPECT_EQ(other.event, E::None);
}
