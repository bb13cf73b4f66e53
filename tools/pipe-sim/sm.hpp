// One SM, simulated cycle by cycle from its first CTA launch to its last CTA
// finish, skipping cycles in which no stage can make progress. SmSim is the
// wiring and the clock; each pipeline stage is a component in a file of its
// own that owns its state, and ports.hpp is what they hand each other:
//
//   warp_table        resident CTAs and warps: instruction buffers,
//                     scoreboards, barriers, and the state cached from them
//                     (warp_heads: what the schedulers read; fetchable
//                     warps); its only writer
//   frontend          fetch and decode: L0 and L1 instruction caches,
//                     stream buffers, the L1 arbiter
//   scheduler         issue: structural hazards, stall events, scan reuse;
//                     the order of warps is an IssuePolicy, one per file
//                     (sched_gto, sched_lrr, sched_two_level), registered in
//                     issue_policies.cpp
//   operand_collector collectors, register-bank reads, dispatch
//   exec_pipes        execution pipelines, results, write-back
//   memory_pipeline   address latches, coalescing, L1 data banks, MSHRs,
//                     interconnect and DRAM shares
//   stall_accounting  each scheduler's cycle: issued, or a root stall type
//
// No pipeline stage takes another (the accounting reads the warp table):
// each takes the ports of what it uses, which the SM wires to the stages
// here. The clock and the sub-core ports
// (ports.hpp: stall events, bank ports, and the state each stage owns
// there for the schedulers) go to every stage. Besides those:
//
//   scheduler         reads WarpHeads; issues into an IssueTarget (the warp
//                     table, then a collector): virtual, once an issue
//   operand_collector dispatches into a DispatchPort (DispatchToUnits: the
//                     execution pipes or the memory pipeline)
//   exec_pipes        tells a CompletionPort (the warp table) of a result
//                     written back
//   memory_pipeline   sends a finished instruction to its LatchOutlet (a
//                     load's result to the execution pipes' write-back, a
//                     store's completion to the warp table)
//   frontend          reads and fills the warps' buffers through a
//                     FetchPort (the warp table)
//
// LatchOutlet is a concrete class of two references; the other ports are
// concepts, template parameters of the calls that use them, so that the hot
// paths pay no indirect call and a test passes a fake. Sub-core of warp slot w:
// subcore_of_slot (warp_heads.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "exec_pipes.hpp"
#include "frontend.hpp"
#include "memory_pipeline.hpp"
#include "operand_collector.hpp"
#include "ports.hpp"
#include "program.hpp"
#include "scheduler.hpp"
#include "sm_result.hpp"
#include "stall_accounting.hpp"
#include "warp_table.hpp"

namespace sasskit::pipesim {

// Refuses a GPU model beyond what the SM model holds (collector units,
// register banks) instead of quietly simulating a smaller one.
void check_model_limits(const GpuConfig& g);

class SmSim {
 public:
  SmSim(const SimOptions& opt, const KernelProgram& program, const SmWork& work);
  SmSim(const SmSim&) = delete;  // its stages hold references to each other
  SmSim& operator=(const SmSim&) = delete;
  // Simulates up to cycle `limit` (a quiet stretch may run past it) or the
  // SM's end; true while work is left.
  bool run_until(uint64_t limit);
  // From now on this SM gets `share` of the chip's interconnect and DRAM
  // bandwidth.
  void share_bandwidth(const BandwidthShare& share) { memory_.share_bandwidth(share); }
  MovedBytes moved() const { return memory_.moved(); }
  // PKP stopped the SM's kernel: it ends now, projected to end at
  // `projected_end`.
  void stop(uint64_t projected_end);
  uint64_t simulated_insts() const { return res_.counters.insts; }
  uint64_t trace_insts() const { return res_.trace_insts; }
  uint64_t finished_ctas() const { return res_.counters.ctas; }
  size_t ctas() const { return work_.ctas.size(); }
  // Once every CTA of the SM has launched: per warp slot, the
  // instructions its warp has still to issue (0 once it has ended); empty
  // while CTAs wait to launch.
  std::vector<uint64_t> insts_left_per_warp() const {
    return next_cta_ < work_.ctas.size() ? std::vector<uint64_t>{} : warps_.insts_left_per_warp();
  }
  // The SM's clock: where run_until stopped, or the cycle after its end.
  uint64_t cycle() const { return clock_.now; }
  // Share of the SM's trace instructions simulated so far.
  double progress() const {
    return res_.trace_insts ? double(res_.counters.insts) / double(res_.trace_insts) : 1.0;
  }
  // The results, once run_until has returned false.
  SmResult finish();
  SmResult run() {
    while (run_until(kNever)) {
    }
    return finish();
  }

 private:
  void step();
  // Inlined into both callers: GCC's size limits left it a call once the
  // warp table's asynchronous paths were added.
  [[gnu::always_inline]] void finish_cycle();
  // Flattened: its loop runs a cycle of the memory pipeline and of the
  // accounting each time round, inlined here (LTO left them calls).
  [[gnu::flatten]] void run_latch_streak(uint64_t limit);
  void launch_ctas();
  const CtaTrace& next_cta();
  void account_quiet_cycles(uint64_t from, uint64_t to);
  bool busy() const { return warps_.resident_ctas() > 0 || next_cta_ < work_.ctas.size(); }  // CTAs running or to come

  // The scheduler's issue: the head instruction leaves the warp table for
  // a collector.
  class IssueToCollector final : public IssueTarget {
   public:
    IssueToCollector(WarpTable& warps, OperandCollector& collectors) : warps_(warps), collectors_(collectors) {}
    Op issue(unsigned subcore, uint32_t w, uint32_t cu) override {
      Op op = warps_.issue(w);
      collectors_.allocate(subcore, cu, op);
      return op;
    }

   private:
    WarpTable& warps_;
    OperandCollector& collectors_;
  };
  // What the collectors dispatch to: a memory instruction to the memory
  // pipeline, the others to the execution pipes.
  struct DispatchToUnits {
    ExecPipes& exec;
    MemoryPipeline& memory;
    bool accept(unsigned subcore, const Op& op, const DecodedInst& d) {
      return d.op.unit == UnitClass::Ldst ? memory.accept(subcore, op) : exec.accept(subcore, op, d);
    }
  };

  const SimOptions& opt_;
  const SmWork& work_;
  SmResult res_;
  Clock clock_;
  std::vector<SubCorePort> ports_;
  Stage wiring_;
  WarpTable warps_;
  Frontend frontend_;
  ExecPipes exec_;
  MemoryPipeline memory_;
  OperandCollector collectors_;
  IssueToCollector issue_target_;
  DispatchToUnits dispatch_target_;
  Scheduler scheduler_;
  StallAccounting accounting_;
  // Of the last evaluated cycle: what the stages before the memory pipeline
  // asked of the clock, what all stages but the memory pipeline asked, and
  // whether an address latch emptied.
  Clock::Requests upstream_, others_;
  bool latch_emptied_ = false;
  size_t next_cta_ = 0;
  // work_.ctas[next_cta_], read back from the spill file into a finished
  // CTA's trace (for its buffers).
  std::unique_ptr<CtaTrace> next_loaded_;
  std::string record_bytes_;  // the buffer spilled CTAs are read into
  // The GPU's CTA dispatcher serves the kernel's SMs in turn at
  // cta-dispatch-rate CTAs per cycle: this SM receives its first CTA
  // dispatch_rank / rate cycles after its start and one every
  // active_sms / rate cycles at most (0 with no limit).
  double dispatch_at_ = 0;        // when the dispatcher next has a CTA for this SM
  double dispatch_interval_ = 0;
  bool stopped_ = false;  // PKP ended the simulation
};

}  // namespace sasskit::pipesim
