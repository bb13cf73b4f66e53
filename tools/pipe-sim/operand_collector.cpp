// Operand collectors over register banks (accelsim-modeling-cams23 §2.2).
#include "operand_collector.hpp"

namespace sasskit::pipesim {

OperandCollector::OperandCollector(const Stage& wiring, ExecPipes& exec, MemoryPipeline& memory)
    : Stage(wiring), exec_(exec), memory_(memory) {
  subcores_.resize(subcores());
  for (SubCoreCollectors& sc : subcores_) sc.cus.resize(gpu_.collector_units);
  for (SubCorePort& port : ports_) port.set_collectors(gpu_.collector_units);
}

void OperandCollector::allocate(unsigned subcore, uint32_t cu, const Op& op) {
  const DecodedInst& d = prog_.insts[op.inst];
  SubCoreCollectors& sc = subcores_[subcore];
  sc.cus[cu] = Collector{false, uint8_t((1u << d.nsrc) - 1), op};
  sc.by_age[sc.busy++] = static_cast<uint8_t>(cu);
  ++busy_total_;
  ports_[subcore].take_collector(cu);
}

void OperandCollector::read_operands(unsigned subcore) {
  SubCoreCollectors& sc = subcores_[subcore];
  SubCorePort& port = ports_[subcore];
  const unsigned ports = exec_.ports_per_bank();
  for (size_t k = 0; k < sc.busy; ++k) {
    Collector& cu = sc.cus[sc.by_age[k]];
    if (cu.ready) continue;
    const DecodedInst& d = prog_.insts[cu.op.inst];
    for (unsigned i = 0; i < d.nsrc; ++i) {
      if (!(cu.unread & (1u << i))) continue;
      unsigned b = exec_.bank(d.src[i]);
      if (port.bank_ports[b] < ports) {
        ++port.bank_ports[b];
        cu.unread &= uint8_t(~(1u << i));
      } else {
        port.events.add(StallEvent::BankConflict, d.is_mem(), d.pc_index);
        ++counters_.reg_bank_conflicts;
      }
    }
    clock_.progressed();
    if (!cu.unread) cu.ready = true;  // dispatches from the next cycle
  }
}

void OperandCollector::dispatch(unsigned subcore) {
  SubCoreCollectors& sc = subcores_[subcore];
  size_t kept = 0;  // the collectors still busy, oldest first, at by_age[0, kept)
  for (size_t k = 0; k < sc.busy; ++k) {
    const uint8_t index = sc.by_age[k];
    Collector& cu = sc.cus[index];
    const DecodedInst& d = prog_.insts[cu.op.inst];
    const bool taken = cu.ready && (d.op.unit == UnitClass::Ldst ? memory_.accept(subcore, cu.op)
                                                                 : exec_.accept(subcore, cu.op, d));
    if (!taken) {
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
