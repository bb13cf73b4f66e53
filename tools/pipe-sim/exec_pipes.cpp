// Execution units and write-back per sub-core (accelsim-modeling-cams23
// §2.2): a register bank has reg_ports_per_bank ports a cycle, shared by
// write-backs (served first) and operand reads; a result whose bank has no
// free port waits a cycle (result-bus saturation).
#include "exec_pipes.hpp"

#include <algorithm>

namespace sasskit::pipesim {

ExecPipes::ExecPipes(const Stage& wiring) : Stage(wiring), banks_(gpu_) {
  subcores_.resize(subcores());
  for (SubCorePort& port : ports_)
    for (size_t u = 0; u < kUnitClasses; ++u) port.set_pipes(static_cast<UnitClass>(u), std::max(1u, gpu_.units[u].count));
}

bool ExecPipes::accept(unsigned subcore, const Op& issued, const DecodedInst& d) {
  size_t u = static_cast<size_t>(d.op.unit);
  SubCorePort& port = ports_[subcore];
  const std::vector<uint64_t>& pipes = port.pipe_free_at(d.op.unit);
  auto pipe = std::find_if(pipes.begin(), pipes.end(), [&](uint64_t t) { return t <= clock_.now; });
  if (pipe == pipes.end()) {
    port.events.add(StallEvent::DispatchQueue, false, d.pc_index);
    for (uint64_t t : pipes) clock_.wake_at(t);
    return false;
  }
  const ExecUnit& eu = gpu_.units[u];
  unsigned ii = std::max(1u, eu.initiation_interval);
  // A warpgroup MMA holds the unit for its whole share of the work, and its
  // result follows the last of it through the unit's latency.
  unsigned work = d.mma_n ? std::max(1u, ii * d.mma_n / 8) : 0;
  ii = std::max(ii, work);
  port.book_pipe(d.op.unit, static_cast<size_t>(pipe - pipes.begin()), clock_.now + ii);
  // Issue and operand read took kIssueToDispatch cycles of the latency.
  Op op = issued;
  op.done = clock_.now + work +
            std::max<uint64_t>(1, eu.latency > kIssueToDispatch ? eu.latency - kIssueToDispatch : 1);
  enqueue_result(subcore, op);
  counters_.units[u].busy_cycles += ii;
  return true;
}

void ExecPipes::enqueue_result(unsigned subcore, const Op& op) {
  SubCorePipes& sc = subcores_[subcore];
  std::vector<Op>& q = sc.executing;
  if (sc.first > 0 && q.size() == q.capacity()) {
    q.erase(q.begin(), q.begin() + static_cast<ptrdiff_t>(sc.first));
    sc.first = 0;
  }
  // Most results are due no earlier than all those on their way.
  if (q.size() == sc.first || q.back().done <= op.done) {
    q.push_back(op);
  } else {
    auto at = std::upper_bound(q.begin() + static_cast<ptrdiff_t>(sc.first), q.end(), op.done,
                               [](uint64_t t, const Op& o) { return t < o.done; });
    q.insert(at, op);
  }
  if (op.long_miss) ++ports_[subcore].long_misses;
}

}  // namespace sasskit::pipesim
