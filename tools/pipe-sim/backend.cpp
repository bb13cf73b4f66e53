// Operand collectors, register banks, dispatch and write-back per sub-core
// (accelsim-modeling-cams23 §2.2): each bank has reg_ports_per_bank ports a
// cycle, shared by write-backs (served first) and operand reads; a result
// whose bank has no free port waits a cycle (result-bus saturation).
#include "sm.hpp"

#include <algorithm>

namespace sasskit::pipesim {

void SmSim::complete(const Op& op) {
  Warp& warp = warps_[op.warp];
  const DecodedInst& d = prog_.insts[op.inst];
  for (unsigned i = 0; i < d.ndst; ++i) {
    warp.pending[d.dst[i]] = false;
    warp.pending_mem[d.dst[i]] = false;
  }
  if (warp.branch_wait && warp.branch_pos == op.pos) {
    warp.branch_wait = false;
    refresh_fetchable(op.warp);
  }
  refresh_head(op.warp);
  --warp.outstanding;
  activity_ = true;
  retire(op.warp);
}

// The busy collectors whose operands are (ready) or are not yet read, oldest first.
size_t SmSim::collectors_by_age(SubCore& sc, bool ready, std::array<Collector*, kMaxCollectors>& out) {
  size_t n = 0;
  for (auto& cu : sc.cus) {
    if (!cu.busy || cu.ready != ready) continue;
    // Insertion by age: a few collectors at most, and seq values are unique.
    size_t i = n++;
    for (; i > 0 && out[i - 1]->seq > cu.seq; --i) out[i] = out[i - 1];
    out[i] = &cu;
  }
  return n;
}

void SmSim::enqueue_result(SubCore& sc, const Op& op) {
  auto at = std::upper_bound(sc.executing.begin(), sc.executing.end(), op.done,
                             [](uint64_t t, const Op& o) { return t < o.done; });
  sc.executing.insert(at, op);
}

// Results due by now write back in order of readiness; the rest wait.
void SmSim::write_back(SubCore& sc) {
  if (sc.executing.empty()) return;
  unsigned ports = std::max(1u, gpu().reg_ports_per_bank);
  size_t due = 0, kept = 0;
  for (; due < sc.executing.size() && sc.executing[due].done <= now_; ++due) {
    Op& op = sc.executing[due];
    const DecodedInst& d = prog_.insts[op.inst];
    std::array<uint8_t, kMaxBanks> need{};
    bool fits = true;
    for (unsigned r = 0; r < d.ndst; ++r) {
      unsigned b = bank(d.dst[r]);
      if (sc.ports[b] + ++need[b] > ports) fits = false;
    }
    if (!fits) {
      sc.events.add(StallEvent::ResultBus, d.is_mem(), d.pc_index);
      activity_ = true;  // retried next cycle
      sc.executing[kept++] = op;
      continue;
    }
    for (unsigned r = 0; r < d.ndst; ++r) ++sc.ports[bank(d.dst[r])];
    if (op.long_miss) --sc.long_misses;
    complete(op);
  }
  sc.executing.erase(sc.executing.begin() + kept, sc.executing.begin() + due);
  if (!sc.executing.empty()) wake_at(sc.executing[kept < sc.executing.size() ? kept : 0].done);
}

// Collectors read their source operands oldest first; an operand whose bank
// has no port left this cycle waits (a bank conflict).
void SmSim::read_operands(SubCore& sc) {
  unsigned ports = std::max(1u, gpu().reg_ports_per_bank);
  std::array<Collector*, kMaxCollectors> order;
  size_t n = collectors_by_age(sc, false, order);
  for (size_t k = 0; k < n; ++k) {
    Collector* cu = order[k];
    const DecodedInst& d = prog_.insts[cu->op.inst];
    for (unsigned i = 0; i < d.nsrc; ++i) {
      if (!(cu->unread & (1u << i))) continue;
      unsigned b = bank(d.src[i]);
      if (sc.ports[b] < ports) {
        ++sc.ports[b];
        cu->unread &= uint8_t(~(1u << i));
      } else {
        sc.events.add(StallEvent::BankConflict, d.is_mem(), d.pc_index);
        ++res_.counters.reg_bank_conflicts;
      }
    }
    activity_ = true;
    if (!cu->unread) cu->ready = true;  // dispatches from the next cycle
  }
}

void SmSim::dispatch(SubCore& sc) {
  std::array<Collector*, kMaxCollectors> order;
  size_t n = collectors_by_age(sc, true, order);
  for (size_t k = 0; k < n; ++k) {
    Collector* cu = order[k];
    const DecodedInst& d = prog_.insts[cu->op.inst];
    size_t u = static_cast<size_t>(d.op.unit);
    if (d.op.unit == UnitClass::Ldst) {
      if (sc.latch.busy) {
        sc.events.add(StallEvent::DispatchQueue, true, d.pc_index);
        continue;
      }
      coalesce(cu->op, sc.latch);
    } else {
      auto pipe = std::find_if(sc.pipes[u].begin(), sc.pipes[u].end(), [&](uint64_t t) { return t <= now_; });
      if (pipe == sc.pipes[u].end()) {
        sc.events.add(StallEvent::DispatchQueue, false, d.pc_index);
        for (uint64_t t : sc.pipes[u]) wake_at(t);
        continue;
      }
      const ExecUnit& eu = gpu().units[u];
      unsigned ii = std::max(1u, eu.initiation_interval);
      *pipe = now_ + ii;
      // Issue and operand read took kIssueToDispatch cycles of the latency.
      Op op = cu->op;
      op.done = now_ + std::max<uint64_t>(1, eu.latency > kIssueToDispatch ? eu.latency - kIssueToDispatch : 1);
      enqueue_result(sc, op);
      res_.counters.units[u].busy_cycles += ii;
    }
    ++res_.counters.units[u].insts;
    *cu = Collector{};
    ++sc.epoch;  // a collector is free, and a unit or the latch busy
    activity_ = true;
  }
}

}  // namespace sasskit::pipesim
