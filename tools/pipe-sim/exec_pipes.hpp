// The execution units of each sub-core: pipelines by unit class, each
// taking a new instruction every initiation interval (when each is next
// free is in the sub-core's port, for its scheduler), and the results on
// their way to write-back, which passes them to the register banks (ports
// shared with operand reads, write-backs first) and then to the warps
// through a CompletionPort. The pipes take no other stage: the memory
// pipeline hands them its loads' results, the SM the warps to tell.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "ports.hpp"
#include "program.hpp"

namespace sasskit::pipesim {

class ExecPipes : private Stage {
 public:
  explicit ExecPipes(const Stage& wiring);

  // Dispatch of a non-memory instruction: false (a dispatch-queue stall)
  // when every pipeline of its class is busy. Flattened: it queues the
  // result in place of a call (LTO left enqueue_result one).
  [[gnu::flatten]] bool accept(unsigned subcore, const Op& op, const DecodedInst& d);
  // A result that becomes ready at op.done (from a pipeline or the memory
  // pipeline) waits for write-back.
  void enqueue_result(unsigned subcore, const Op& op);
  // Results due by now write back in order of readiness and are done, in
  // that order, at `warps`; the rest wait.
  template <CompletionPort Warps>
  void write_back(unsigned subcore, Warps& warps);

 private:
  struct SubCorePipes {
    // Results on their way to write-back, by ready cycle, from
    // executing[first] on: those written back leave the front without
    // moving the rest, and their room is reclaimed once the storage is full.
    std::vector<Op> executing;
    size_t first = 0;
  };
  // Drops the results written back, executing[first, first + n).
  static void drop_front(SubCorePipes& sc, size_t n) {
    sc.first += n;
    if (sc.first == sc.executing.size()) {
      sc.executing.clear();
      sc.first = 0;
    }
  }

  RegisterBanks banks_;
  std::vector<SubCorePipes> subcores_;
};

template <CompletionPort Warps>
void ExecPipes::write_back(unsigned subcore, Warps& warps) {
  SubCorePipes& sc = subcores_[subcore];
  std::vector<Op>& q = sc.executing;
  if (sc.first == q.size()) return;
  if (q[sc.first].done > clock_.now) {  // the usual cycle: nothing is due
    clock_.wake_at(q[sc.first].done);
    return;
  }
  SubCorePort& port = ports_[subcore];
  const unsigned ports = banks_.ports;
  // Results that are due but find no port stay, in order, at [first, kept).
  size_t due = sc.first, kept = sc.first;
  for (; due < q.size() && q[due].done <= clock_.now; ++due) {
    Op& op = q[due];
    const DecodedInst& d = prog_.insts[op.inst];
    std::array<uint8_t, kMaxBanks> need{};
    bool fits = true;
    for (unsigned r = 0; r < d.ndst; ++r) {
      unsigned b = banks_.of(d.dst[r]);
      if (port.bank_ports[b] + ++need[b] > ports) fits = false;
    }
    if (!fits) {
      port.events.add(StallEvent::ResultBus, d.is_mem(), d.pc_index);
      clock_.progressed();  // retried next cycle
      q[kept++] = op;
      continue;
    }
    for (unsigned r = 0; r < d.ndst; ++r) ++port.bank_ports[banks_.of(d.dst[r])];
    if (op.long_miss) --port.long_misses;
    warps.complete(op);
  }
  const auto at = [&](size_t i) { return q.begin() + static_cast<ptrdiff_t>(i); };
  std::move_backward(at(sc.first), at(kept), at(due));
  if (due < q.size()) clock_.wake_at(q[due].done);  // the first result not yet due
  drop_front(sc, due - kept);
}

}  // namespace sasskit::pipesim
