// One SM, simulated cycle by cycle from its first CTA launch to its last CTA
// finish, skipping cycles in which no stage can make progress. Sub-cores
// (warp slot w -> sub-core w % subcores_per_sm) each have fetch/decode with an
// L0 instruction cache, a scheduler, operand collectors over register banks,
// execution units and a memory pipeline; the L1 instruction cache, MSHRs and
// the SM's interconnect share are common.
#pragma once

#include <bitset>
#include <cstdint>
#include <limits>
#include <queue>
#include <string>
#include <vector>

#include "formats/stats_record.hpp"
#include "icache.hpp"
#include "pkp.hpp"
#include "program.hpp"
#include "stall.hpp"

namespace sasskit::pipesim {

inline constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
inline constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
inline constexpr uint64_t kIssueToDispatch = 2;  // issue, operand read, then dispatch
inline constexpr unsigned kMaxCollectors = 16;  // operand collectors per sub-core modelled at most
inline constexpr unsigned kMaxBanks = 32;  // register banks per sub-core modelled at most

// One row of --trace-stalls: what a scheduler did in a cycle.
struct StallTraceRow {
  uint64_t cycle = 0;
  uint8_t subcore = 0;
  bool issued = false;
  Attribution why;     // when not issued
  uint64_t pc = 0;     // issued instruction, or the blamed one
  bool has_pc = false;
};

struct SmResult {
  uint32_t sm = 0;
  SimCounters counters;
  std::vector<uint64_t> pc_insts;                            // per KernelProgram::pcs
  std::array<std::vector<uint64_t>, kStallTypes> pc_stalls;  // per stall type, per pc
  uint64_t cycles = 0;             // simulated
  uint64_t projected_cycles = 0;   // = cycles unless PKP stopped the SM
  uint64_t simulated_insts = 0;
  uint64_t trace_insts = 0;        // dynamic instructions of all the SM's CTAs
  uint32_t unfinished_ctas = 0;
  bool projected = false;
  std::vector<StallTraceRow> trace;
};

class SmSim {
 public:
  SmSim(const SimOptions& opt, const KernelProgram& program, const SmWork& work);
  SmResult run();

 private:
  struct IbufEntry {
    uint32_t pos = 0;    // position in the warp's trace
    uint64_t ready = 0;  // decoded, can issue from this cycle
  };
  // The fields the schedulers read every cycle come first (one cache line).
  struct Warp {
    bool at_barrier = false, issued_all = false, active = false;
    bool sb_blocked = false, sb_on_load = false;
    bool branch_wait = false;     // fetch stopped at a taken branch until it executes
    uint32_t barrier_pc = 0;
    std::vector<IbufEntry> ibuf;  // FIFO, at most ibuffer_depth
    uint64_t sb_version = 0;  // bumped by every write-back of the warp
    uint64_t sb_checked_version = kNever;
    uint32_t sb_checked_pos = kNone;
    uint32_t sb_pc_index = 0;  // of the checked head
    const WarpTrace* trace = nullptr;
    uint32_t next_fetch = 0, fetching = 0, next_issue = 0;
    uint32_t cta = 0;        // CTA slot
    uint64_t age = 0;        // launch order, for GTO
    uint64_t addr_cursor = 0;     // next address of the trace's addr column
    uint32_t branch_pos = 0;
    uint32_t outstanding = 0;     // issued, not yet completed
    std::bitset<256> pending, pending_mem;
  };
  struct Op {
    uint32_t warp = 0;
    uint32_t pos = 0;     // trace position
    uint32_t inst = 0;    // table index
    uint32_t mask = 0;
    uint64_t addr = 0;    // offset of its addresses in the trace's addr column
    uint64_t done = 0;    // result ready (write-back from this cycle)
    bool long_miss = false;
  };
  struct Collector {
    bool busy = false, ready = false;
    uint8_t unread = 0;   // bit i: src operand i still to read
    uint64_t seq = 0;     // allocation order: older first
    Op op;
  };
  struct MemRequest {
    uint32_t sectors = 0;
    uint64_t latency = 0;
    bool leaves_sm = false;  // L1 miss: needs an MSHR and interconnect bandwidth
  };
  struct MemLatch {
    bool busy = false;
    Op op;
    std::vector<MemRequest> reqs;
    size_t next = 0;
  };
  struct SubCore {
    std::vector<uint32_t> warps;  // warp slots, oldest first
    std::vector<uint32_t> by_slot;  // the same warps by slot number (LRR)
    uint32_t greedy = kNone;      // GTO: last issued warp; LRR: position to start after
    uint32_t last_unit = kNone;
    uint64_t last_issue = kNever;
    // fetch
    bool fetch_busy = false, fetch_waits_l1 = false;
    uint32_t fetch_warp = 0, fetch_count = 0, fetch_rr = 0;
    uint64_t fetch_done = 0, fetch_addr = 0;
    TagCache l0i;
    std::vector<Collector> cus;
    std::array<std::vector<uint64_t>, kUnitClasses> pipes;  // next free cycle per pipeline
    std::vector<Op> executing;   // results on their way to write-back, by ready cycle
    MemLatch latch;
    uint32_t long_misses = 0;    // loads with a request beyond L1 in flight
    std::vector<uint8_t> ports;  // register-bank ports used this cycle
    CycleEvents events;
    EventHistory history;
    bool issued = false;
    uint32_t issued_pc = 0;
    explicit SubCore(const CacheGeometry& l0) : l0i(l0) {}
  };
  struct CtaSlot {
    const CtaTrace* cta = nullptr;
    std::vector<uint32_t> warps;
    uint32_t live = 0, arrived = 0, done = 0;
  };

  // sm.cpp
  void launch_ctas();
  void retire(uint32_t w);
  void begin_cycle();
  void account_cycle(uint64_t cycle);
  void account_quiet_cycles(uint64_t from, uint64_t to);
  void record(SubCore& sc, uint8_t index, uint64_t cycle, const Attribution& a, uint64_t count);
  void wake_at(uint64_t t) { if (t > now_ && t < wake_) wake_ = t; }
  const DecodedInst& inst_at(const Warp& w, uint32_t pos) const { return prog_.insts[w.trace->inst[pos]]; }
  bool resident() const { return resident_ctas_ > 0; }
  // frontend.cpp
  void fetch(SubCore& sc);
  void start_fetch(SubCore& sc, uint32_t w);
  void l1i_arbiter();
  // issue.cpp
  void issue(SubCore& sc);
  bool try_issue(SubCore& sc, uint32_t w);
  void check_scoreboard(Warp& warp, uint32_t pos);
  bool ready_head_issue(SubCore& sc, uint32_t w, const DecodedInst& d);
  void issue_head(SubCore& sc, uint32_t w, Collector& cu, const DecodedInst& d);
  bool unit_free(const SubCore& sc, UnitClass u) const;
  void arrive_at_barrier(Warp& w);
  void release_barrier_if_complete(CtaSlot& c);
  // backend.cpp
  void write_back(SubCore& sc);
  void read_operands(SubCore& sc);
  void dispatch(SubCore& sc);
  void complete(const Op& op);
  static void enqueue_result(SubCore& sc, const Op& op);
  size_t collectors_by_age(SubCore& sc, bool ready, std::array<Collector*, kMaxCollectors>& out);
  unsigned bank(uint16_t reg) const { return reg % subcores_[0].ports.size(); }
  // memory.cpp
  void memory_pipeline(SubCore& sc);
  void coalesce(const Op& op, MemLatch& latch);
  MemRequest outcome(const DecodedInst& d, uint32_t sectors);

  const GpuConfig& gpu() const { return opt_.gpu; }

  const SimOptions& opt_;
  const KernelProgram& prog_;
  const SmWork& work_;
  SmResult res_;
  std::vector<SubCore> subcores_;
  std::vector<Warp> warps_;
  std::vector<CtaSlot> ctas_;
  size_t next_cta_ = 0;
  uint32_t resident_ctas_ = 0;
  uint32_t resident_warps_ = 0;
  uint64_t warp_age_ = 0, cu_seq_ = 0;
  TagCache l1i_;
  uint32_t l1i_rr_ = 0;
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<>> mshr_release_;
  double noc_busy_until_ = 0;  // the SM's interconnect share is booked until then
  double noc_bytes_per_cycle_ = 0;  // this SM's share
  std::vector<double> l1_acc_, l2_acc_;  // per PC: deterministic hit/miss spreading
  uint32_t mem_rr_ = 0;
  std::vector<uint32_t> smem_bank_words_;  // coalesce's scratch: distinct words per shared-memory bank
  uint64_t now_ = 0, wake_ = kNever;
  bool activity_ = false;
  Pkp pkp_;
};

}  // namespace sasskit::pipesim
