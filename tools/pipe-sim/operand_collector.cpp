// Operand collectors over register banks (accelsim-modeling-cams23 §2.2).
#include "operand_collector.hpp"

#include <algorithm>

namespace sasskit::pipesim {

OperandCollector::OperandCollector(const Stage& wiring, ExecPipes& exec, MemoryPipeline& memory)
    : Stage(wiring), exec_(exec), memory_(memory) {
  cus_.assign(subcores(), std::vector<Collector>(gpu_.collector_units));
  busy_.assign(subcores(), 0);
}

uint32_t OperandCollector::free_collector(unsigned subcore) const {
  const auto& cus = cus_[subcore];
  auto cu = std::find_if(cus.begin(), cus.end(), [](const Collector& c) { return !c.busy; });
  return cu == cus.end() ? kNone : static_cast<uint32_t>(cu - cus.begin());
}

void OperandCollector::allocate(unsigned subcore, uint32_t cu, const Op& op) {
  const DecodedInst& d = prog_.insts[op.inst];
  cus_[subcore][cu] = Collector{true, false, uint8_t((1u << d.nsrc) - 1), seq_++, op};
  ++busy_[subcore];
  ++busy_total_;
}

// The busy collectors whose operands are (ready) or are not yet read, oldest first.
size_t OperandCollector::collectors_by_age(unsigned subcore, bool ready, ByAge& out) {
  size_t n = 0;
  if (busy_[subcore] == 0) return n;
  for (auto& cu : cus_[subcore]) {
    if (!cu.busy || cu.ready != ready) continue;
    // Insertion by age: a few collectors at most, and seq values are unique.
    size_t i = n++;
    for (; i > 0 && out[i - 1]->seq > cu.seq; --i) out[i] = out[i - 1];
    out[i] = &cu;
  }
  return n;
}

void OperandCollector::read_operands(unsigned subcore) {
  SubCorePort& port = ports_[subcore];
  const unsigned ports = exec_.ports_per_bank();
  ByAge order;
  size_t n = collectors_by_age(subcore, false, order);
  for (size_t k = 0; k < n; ++k) {
    Collector* cu = order[k];
    const DecodedInst& d = prog_.insts[cu->op.inst];
    for (unsigned i = 0; i < d.nsrc; ++i) {
      if (!(cu->unread & (1u << i))) continue;
      unsigned b = exec_.bank(d.src[i]);
      if (port.bank_ports[b] < ports) {
        ++port.bank_ports[b];
        cu->unread &= uint8_t(~(1u << i));
      } else {
        port.events.add(StallEvent::BankConflict, d.is_mem(), d.pc_index);
        ++counters_.reg_bank_conflicts;
      }
    }
    clock_.progressed();
    if (!cu->unread) cu->ready = true;  // dispatches from the next cycle
  }
}

void OperandCollector::dispatch(unsigned subcore) {
  ByAge order;
  size_t n = collectors_by_age(subcore, true, order);
  for (size_t k = 0; k < n; ++k) {
    Collector* cu = order[k];
    const DecodedInst& d = prog_.insts[cu->op.inst];
    bool taken = d.op.unit == UnitClass::Ldst ? memory_.accept(subcore, cu->op) : exec_.accept(subcore, cu->op, d);
    if (!taken) continue;
    ++counters_.units[static_cast<size_t>(d.op.unit)].insts;
    *cu = Collector{};
    --busy_[subcore];
    --busy_total_;
    ports_[subcore].changed();  // a collector is free, and a unit or the latch busy
    clock_.progressed();
  }
}

}  // namespace sasskit::pipesim
