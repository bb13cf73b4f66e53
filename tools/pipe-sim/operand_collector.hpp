// The operand collectors of each sub-core: an issued instruction waits in a
// collector until its source operands are read from the register banks,
// then is dispatched, oldest first, through a DispatchPort to the unit that
// executes it. Which collectors are free is in the sub-core's port, for its
// scheduler. The collectors take no other stage: the SM hands dispatch the
// units (the execution pipes and the memory pipeline).
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <vector>

#include "ports.hpp"

namespace sasskit::pipesim {

// What the collectors hand a ready instruction to: the units, which take
// it this cycle (true) or refuse it (it waits in its collector).
template <class T>
concept DispatchPort = requires(T& units, unsigned subcore, const Op& op, const DecodedInst& d) {
  { units.accept(subcore, op, d) } -> std::same_as<bool>;
};

class OperandCollector : private Stage {
 public:
  explicit OperandCollector(const Stage& wiring);

  // No collector of any sub-core holds an instruction: dispatch and
  // read_operands have nothing to do (the SM skips them).
  bool idle() const { return busy_total_ == 0; }
  // An issued instruction takes collector `cu`.
  void allocate(unsigned subcore, uint32_t cu, const Op& op);
  // Collectors read their source operands oldest first; an operand whose
  // bank has no port left this cycle waits (a bank conflict).
  void read_operands(unsigned subcore);
  // Collectors whose operands are read pass their instruction on, oldest
  // first, when `units` take it.
  template <DispatchPort Units>
  void dispatch(unsigned subcore, Units& units);

 private:
  struct Collector {
    bool ready = false;
    uint8_t unread = 0;   // bit i: src operand i still to read
    Op op;
  };
  // A sub-core's collectors, and the busy ones in the order they were
  // allocated (oldest first), which is the order they read and dispatch in.
  struct SubCoreCollectors {
    std::vector<Collector> cus;
    std::array<uint8_t, kMaxCollectors> by_age{};
    uint8_t busy = 0;
  };

  RegisterBanks banks_;
  std::vector<SubCoreCollectors> subcores_;
  unsigned busy_total_ = 0;  // over the sub-cores (most cycles none)
};

template <DispatchPort Units>
void OperandCollector::dispatch(unsigned subcore, Units& units) {
  SubCoreCollectors& sc = subcores_[subcore];
  size_t kept = 0;  // the collectors still busy, oldest first, at by_age[0, kept)
  for (size_t k = 0; k < sc.busy; ++k) {
    const uint8_t index = sc.by_age[k];
    Collector& cu = sc.cus[index];
    const DecodedInst& d = prog_.insts[cu.op.inst];
    if (!cu.ready || !units.accept(subcore, cu.op, d)) {
      sc.by_age[kept++] = index;
      continue;
    }
    ++counters_.units[static_cast<size_t>(d.op.unit)].insts;
    cu = Collector{};
    --busy_total_;
    ports_[subcore].release_collector(index);
    clock_.progressed();
  }
  sc.busy = static_cast<uint8_t>(kept);
}

}  // namespace sasskit::pipesim
