// What the stages of one SM hand each other. Each stage is a component that
// owns its state (see sm.hpp for who owns what); this header is everything
// they share: the clock, the instruction in flight, and the per-sub-core port
// through which a cycle's stall events and register-bank ports pass, and
// the units' and collectors' state that the sub-core's scheduler reads.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "program.hpp"
#include "stall.hpp"

namespace sasskit::pipesim {

inline constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
inline constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
inline constexpr uint64_t kIssueToDispatch = 2;  // issue, operand read, then dispatch
inline constexpr unsigned kMaxCollectors = 16;  // operand collectors per sub-core modelled at most
inline constexpr unsigned kMaxBanks = 32;  // register banks per sub-core modelled at most

// The SM's clock as every stage sees it. After a cycle the SM evaluates the
// next one when some stage called progressed(), and otherwise jumps to the
// earliest cycle a stage asked for with wake_at(). So a stage must call
// progressed() when it changed any state this cycle, or when it is held by a
// condition that lifts by itself next cycle; and wake_at(t) when it waits for
// a known cycle t. A stage that does neither is assumed to wait for another
// stage's progress, and no stage waits for the memory pipeline's address
// latches short of one emptying (SmSim::run_latch_streak relies on it).
struct Clock {
  // What stages asked of the clock: whether one progressed, and the
  // earliest cycle one waits for.
  struct Requests {
    bool activity = false;
    uint64_t wake = kNever;

    void add(const Requests& r) {
      activity |= r.activity;
      wake = std::min(wake, r.wake);
    }
  };

  uint64_t now = 0;
  Requests asked;

  void wake_at(uint64_t t) {
    if (t > now && t < asked.wake) asked.wake = t;
  }
  void progressed() { asked.activity = true; }
  // The cycle to evaluate after this one (kNever: nothing will happen).
  uint64_t next() const { return asked.activity ? now + 1 : asked.wake; }
  // The requests since the last take(), which clears them: the SM takes
  // them stage by stage to learn which stages progressed.
  Requests take() { return std::exchange(asked, Requests{}); }
};

// An instruction from issue to write-back: which warp, where in its trace,
// and when its result is ready.
struct Op {
  uint32_t warp = 0;
  uint32_t pos = 0;     // trace position
  uint32_t inst = 0;    // table index
  uint32_t mask = 0;
  const uint64_t* addrs = nullptr;  // its addresses, in its warp's trace (the addr column)
  uint64_t done = 0;    // result ready (write-back from this cycle)
  bool long_miss = false;  // a load with a request beyond L1
  uint32_t copy_group = 0;  // a bulk copy: its CTA's copy group (WarpTable)
};

// What a stage tells the warps when an instruction is done: its results
// are written back, or it writes none and its last request went out (in
// the SM: WarpTable::complete).
template <class T>
concept CompletionPort = requires(T& warps, const Op& op) { warps.complete(op); };

// A sub-core's register banks: reg_banks of them, each with
// reg_ports_per_bank ports a cycle, shared by write-backs and operand reads.
struct RegisterBanks {
  unsigned count;
  unsigned ports;

  explicit RegisterBanks(const GpuConfig& g) : count(std::max(1u, g.reg_banks)), ports(std::max(1u, g.reg_ports_per_bank)) {}
  unsigned of(uint16_t reg) const { return reg % count; }
};

// One sub-core's port. `events` and `bank_ports` live for one cycle: stages
// add the stall events they see (the scheduler's attribution reads them at
// the end of the cycle) and take register-bank ports (write-back first,
// then operand reads).
//
// The port also holds what the sub-core's scheduler asks of the stages
// after it, each part written by one stage: which collectors are free
// (OperandCollector), when each pipeline is next free (ExecPipes), whether
// the address latch is busy (MemoryPipeline). Each write counts itself in
// epoch(), so that a scheduler may reuse its last verdict while the epoch
// (and its warps' heads) stay the same. And `long_misses`, which no
// scheduler reads: the sub-core's loads with a request beyond L1 whose
// results are not written back yet (ExecPipes counts them; the memory
// pipeline reads them for its MemoryAccess event).
class SubCorePort {
 public:
  CycleEvents events;
  std::array<uint8_t, kMaxBanks> bank_ports{};
  bool issued = false;
  uint32_t issued_pc = 0;
  uint32_t long_misses = 0;

  void new_cycle() {
    events.forget(~uint16_t(0));
    issued = false;
    bank_ports.fill(0);
  }
  // A new cycle in which the events of the set `kinds` were added so far.
  void restart_with(uint16_t kinds) {
    events.forget(uint16_t(~kinds));
    issued = false;
    bank_ports.fill(0);
  }

  // The sub-core's `count` collectors (at most kMaxCollectors), all free.
  void set_collectors(unsigned count) {
    free_collectors_ = (uint32_t(1) << count) - 1;
    ++epoch_;
  }
  // The lowest-numbered free collector, or kNone.
  uint32_t free_collector() const {
    return free_collectors_ ? static_cast<uint32_t>(std::countr_zero(free_collectors_)) : kNone;
  }
  void take_collector(uint32_t cu) {
    free_collectors_ &= ~(uint32_t(1) << cu);
    ++epoch_;
  }
  void release_collector(uint32_t cu) {
    free_collectors_ |= uint32_t(1) << cu;
    ++epoch_;
  }

  // The `count` pipelines of unit class u, all free.
  void set_pipes(UnitClass u, unsigned count) {
    pipe_free_at_[static_cast<size_t>(u)].assign(count, 0);
    ++epoch_;
  }
  // The cycle from which each pipeline of class u is free.
  const std::vector<uint64_t>& pipe_free_at(UnitClass u) const { return pipe_free_at_[static_cast<size_t>(u)]; }
  bool pipe_free_by(UnitClass u, uint64_t at) const {
    for (uint64_t t : pipe_free_at(u))
      if (t <= at) return true;
    return false;
  }
  void book_pipe(UnitClass u, size_t pipe, uint64_t free_at) {
    pipe_free_at_[static_cast<size_t>(u)][pipe] = free_at;
    ++epoch_;
  }

  bool latch_busy() const { return latch_busy_; }
  void set_latch_busy(bool busy) {
    latch_busy_ = busy;
    ++epoch_;
  }

  // Counts the writes above: each setter counts its own.
  uint64_t epoch() const { return epoch_; }

 private:
  uint32_t free_collectors_ = 0;  // bit c: collector c is free
  std::array<std::vector<uint64_t>, kUnitClasses> pipe_free_at_;
  bool latch_busy_ = false;
  uint64_t epoch_ = 0;
};

// What every stage of an SM is given, under the names every stage file
// uses: the model, the kernel, the clock, the sub-cores' ports and the SM's
// counters. The SM makes one and each stage copies it.
class Stage {
 public:
  Stage(const GpuConfig& gpu, const KernelProgram& program, Clock& clock, std::vector<SubCorePort>& ports,
        SimCounters& counters)
      : gpu_(gpu), prog_(program), clock_(clock), ports_(ports), counters_(counters) {}

 protected:
  unsigned subcores() const { return static_cast<unsigned>(ports_.size()); }

  const GpuConfig& gpu_;
  const KernelProgram& prog_;
  Clock& clock_;
  std::vector<SubCorePort>& ports_;
  SimCounters& counters_;
};

}  // namespace sasskit::pipesim
