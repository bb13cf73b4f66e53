#include "stall.hpp"

namespace sasskit::pipesim {
namespace {

StallType structural(bool on_mem) { return on_mem ? StallType::MemStruct : StallType::ComStruct; }

Attribution root(StallType t, StallEvent e, StallEvent direct) { return {t, e, direct}; }

// Lines 19-25: what at cycle #1 drove a saturated unit or dispatch queue.
bool cascade_from_cycle1(const EventBits& c1, StallEvent direct, Attribution& out) {
  if (c1.has(StallEvent::MemoryAccess)) {
    out = root(StallType::MemData, StallEvent::MemoryAccess, direct);
  } else if (c1.has(StallEvent::Interconnect)) {
    out = root(StallType::MemStruct, StallEvent::Interconnect, direct);
  } else if (c1.has(StallEvent::ResultBus)) {
    out = root(structural(c1.on_mem(StallEvent::ResultBus)), StallEvent::ResultBus, direct);
  } else {
    return false;
  }
  return true;
}

}  // namespace

Attribution attribute(const EventBits& c1, const EventBits& c2, const EventBits& now,
                      bool warps_resident) {
  using E = StallEvent;
  if (now.has(E::NoActiveWarp))
    return root(warps_resident ? StallType::Ctrl : StallType::Idle, E::NoActiveWarp, E::NoActiveWarp);
  if (now.has(E::Barrier)) return root(StallType::Sync, E::Barrier, E::Barrier);
  if (now.has(E::DataDependence))
    return root(now.on_mem(E::DataDependence) ? StallType::MemData : StallType::ComData,
                E::DataDependence, E::DataDependence);
  if (now.has(E::IssueExclusion))
    return root(structural(now.on_mem(E::IssueExclusion)), E::IssueExclusion, E::IssueExclusion);
  // Algorithm 1 lists (1) among the direct conditions of line 6 without a
  // branch of its own; a unit saturated at the stall cycle is its own root,
  // unless the interconnect holds up a saturated memory pipeline.
  if (now.has(E::UnitSaturation)) {
    // A memory pipeline held up by the interconnect names that as the root.
    bool mem = now.on_mem(E::UnitSaturation);
    if (mem && (now.has(E::Interconnect) || c2.has(E::Interconnect)))
      return root(StallType::MemStruct, E::Interconnect, E::UnitSaturation);
    return root(structural(mem), E::UnitSaturation, E::UnitSaturation);
  }
  if (now.has(E::NoCollector)) {
    if (c2.has(E::BankConflict))
      return root(structural(c2.on_mem(E::BankConflict)), E::BankConflict, E::NoCollector);
    if (c2.has(E::UnitSaturation) || c2.has(E::DispatchQueue)) {
      Attribution a;
      if (cascade_from_cycle1(c1, E::NoCollector, a)) return a;
    }
  }
  return root(StallType::Other, E::None, now.has(E::NoCollector) ? E::NoCollector : E::None);
}

}  // namespace sasskit::pipesim
