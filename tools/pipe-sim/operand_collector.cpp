// Operand collectors over register banks (accelsim-modeling-cams23 §2.2).
#include "operand_collector.hpp"

namespace sasskit::pipesim {

OperandCollector::OperandCollector(const Stage& wiring) : Stage(wiring), banks_(gpu_) {
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
  const unsigned ports = banks_.ports;
  for (size_t k = 0; k < sc.busy; ++k) {
    Collector& cu = sc.cus[sc.by_age[k]];
    if (cu.ready) continue;
    const DecodedInst& d = prog_.insts[cu.op.inst];
    for (unsigned i = 0; i < d.nsrc; ++i) {
      if (!(cu.unread & (1u << i))) continue;
      unsigned b = banks_.of(d.src[i]);
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

}  // namespace sasskit::pipesim
