// One SM, simulated cycle by cycle from its first CTA launch to its last CTA
// finish, skipping cycles in which no stage can make progress. Sub-cores
// (warp slot w -> sub-core w % subcores_per_sm) each have fetch/decode with an
// L0 instruction cache, a scheduler, operand collectors over register banks,
// execution units and a memory pipeline; the L1 instruction cache, MSHRs and
// the SM's interconnect share are common.
#pragma once

#include <algorithm>
#include <bitset>
#include <cstdint>
#include <limits>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "formats/stats_record.hpp"
#include "icache.hpp"
#include "program.hpp"
#include "stall.hpp"

namespace sasskit::pipesim {

inline constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
inline constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
inline constexpr uint64_t kIssueToDispatch = 2;  // issue, operand read, then dispatch
inline constexpr unsigned kMaxCollectors = 16;  // operand collectors per sub-core modelled at most
inline constexpr unsigned kMaxBanks = 32;  // register banks per sub-core modelled at most

// Refuses a GPU model beyond what the SM model holds (collector units,
// register banks) instead of quietly simulating a smaller one.
void check_model_limits(const GpuConfig& g);

// One row of --trace-stalls: what a scheduler did in a cycle.
struct StallTraceRow {
  uint64_t cycle = 0;
  uint8_t subcore = 0;
  bool issued = false;
  Attribution why;     // when not issued
  uint64_t pc = 0;     // issued instruction, or the blamed one
  bool has_pc = false;
};

// Storage the shared-memory coalescer reuses: per bank, a chain of the
// distinct words it serves (memory.cpp).
struct BankChains {
  std::vector<int32_t> head;    // per bank: latest word's index, or -1
  std::vector<uint32_t> count;  // per bank: distinct words
  std::vector<uint64_t> word;
  std::vector<int32_t> next;
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
  // Simulates up to cycle `limit` (a quiet stretch may run past it) or the
  // SM's end; true while work is left.
  bool run_until(uint64_t limit);
  // From now on this SM gets 1 / `sharing` of the chip's interconnect and
  // DRAM bandwidth.
  void share_bandwidth(unsigned sharing);
  // PKP stopped the SM's kernel: it ends now, projected to end at
  // `projected_end`.
  void stop(uint64_t projected_end);
  uint64_t simulated_insts() const { return res_.counters.insts; }
  uint64_t trace_insts() const { return res_.trace_insts; }
  uint64_t finished_ctas() const { return res_.counters.ctas; }
  size_t ctas() const { return work_.ctas.size(); }
  // The SM's clock: where run_until stopped, or the cycle after its end.
  uint64_t cycle() const { return now_; }
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
  struct IbufEntry {
    uint32_t pos = 0;    // position in the warp's trace
    uint64_t ready = 0;  // decoded, can issue from this cycle
  };
  // What a scheduler needs to know of a warp, kept current by refresh_head
  // whenever the warp's barrier state, instruction buffer head or
  // scoreboard changes, so that the per-cycle scan reads one small array.
  struct Head {
    enum class Kind : uint8_t { Empty, Barrier, Blocked, Ready };
    Kind kind = Kind::Empty;
    bool on_load = false;   // Blocked: a pending producer is a load
    bool mem = false;       // the head is a memory instruction
    uint8_t unit = 0;       // the head's UnitClass
    uint32_t pc_index = 0;  // the head's (or the barrier's) PC
    uint32_t inst = 0;      // the head's index in the program
    uint64_t ready = 0;     // Blocked, Ready: decoded, can issue from this cycle
    bool operator==(const Head&) const = default;
  };
  // A sub-core's heads by kind, one bit per local warp index (slot / number
  // of sub-cores): the LRR scheduler finds the warp to issue, and the events
  // of those it passes over, with bit operations (lrr_scan.cpp).
  struct HeadMasks {
    uint64_t barrier = 0, blocked = 0, blocked_on_load = 0, ready = 0, ready_mem = 0;
    std::array<uint64_t, kUnitClasses> ready_unit{};
    uint64_t latest_ready = 0;  // the latest Head::ready recorded
  };
  struct Warp {
    bool at_barrier = false, issued_all = false, active = false;
    bool branch_wait = false;     // fetch stopped at a taken branch until it executes
    uint32_t barrier_pc = 0;
    std::vector<IbufEntry> ibuf;  // FIFO, at most ibuffer_depth
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
    bool to_dram = false;    // reads DRAM (an L2 miss): waits for DRAM bandwidth
    bool writes_dram = false;  // a write L2 passes on to DRAM at once (write-through, no allocation)
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
    uint32_t fetchable = 0;  // warps with can_fetch_ set
    uint32_t fetch_warp = 0, fetch_count = 0, fetch_rr = 0;
    uint64_t fetch_done = 0, fetch_addr = 0;
    TagCache l0i;
    StreamBuffer prefetch;
    std::vector<Collector> cus;
    std::array<std::vector<uint64_t>, kUnitClasses> pipes;  // next free cycle per pipeline
    std::vector<Op> executing;   // results on their way to write-back, by ready cycle
    MemLatch latch;
    uint32_t long_misses = 0;    // loads with a request beyond L1 in flight
    std::vector<uint8_t> ports;  // register-bank ports used this cycle
    CycleEvents events;
    EventHistory history;
    // The last scheduler scan that did not issue: its events hold while the
    // sub-core's state is unchanged (epoch) and until the first cycle at which
    // a waiting warp or unit becomes ready (valid_until).
    uint64_t epoch = 0, scan_epoch = 0, scan_valid_until = 0;
    CycleEvents scan_events;
    HeadMasks masks;
    bool issued = false;
    uint32_t issued_pc = 0;
    SubCore(const CacheGeometry& l0, unsigned prefetch_lines) : l0i(l0), prefetch(prefetch_lines) {}
  };
  struct CtaSlot {
    const CtaTrace* cta = nullptr;
    std::unique_ptr<CtaTrace> loaded;  // a spilled CTA, read back for its stay
    std::vector<uint32_t> warps;
    uint32_t live = 0, arrived = 0, done = 0;
    uint64_t freed_at = 0;  // when free: the first cycle a CTA could start in it
  };

  // sm.cpp
  void launch_ctas();
  void retire(uint32_t w);
  void begin_cycle();
  void account_cycle(uint64_t cycle);
  void account_quiet_cycles(uint64_t from, uint64_t to);
  void record(SubCore& sc, uint8_t index, uint64_t cycle, const Attribution& a, uint64_t count);
  void wake_at(uint64_t t) { if (t > now_ && t < wake_) wake_ = t; }
  void touch(uint32_t w) { ++subcores_[w % subcores_.size()].epoch; }  // the warp's scheduler state changed
  const DecodedInst& inst_at(const Warp& w, uint32_t pos) const { return prog_.insts[w.trace->inst[pos]]; }
  bool resident() const { return resident_ctas_ > 0; }
  bool busy() const { return resident() || next_cta_ < work_.ctas.size(); }  // CTAs running or to come
  CtaSlot* launchable_slot();
  const CtaTrace& next_cta();
  // frontend.cpp
  void fetch(SubCore& sc);
  void start_fetch(SubCore& sc, uint32_t w);
  void refresh_fetchable(uint32_t w);
  void l1i_arbiter();
  void prefetch_lines(SubCore& sc, unsigned line_bytes);
  uint64_t l1i_fetch(uint64_t address, uint64_t at);
  // issue.cpp
  void issue(SubCore& sc);
  void refresh_head(uint32_t w);
  void set_head(uint32_t w, const Head& h);

  // What one scheduler scan learnt of the sub-core's structural state:
  // nothing changes it until an issue ends the scan.
  struct IssueScan {
    std::array<int8_t, kUnitClasses> unit_free{};  // 0 unknown, 1 free, -1 saturated
    Collector* free_cu = nullptr;
    bool cu_known = false;
    uint32_t excluded_unit = kNone;  // the unit that issued last cycle
    CycleEvents events;
    uint64_t valid_until = kNever;  // the verdict may change at this cycle
    void wake_at(uint64_t t) { valid_until = std::min(valid_until, t); }
  };
  bool scan_for_issue(SubCore& sc, IssueScan& scan);
  StallEvent structural_stall(SubCore& sc, IssueScan& scan, const Head& h);
  // lrr_scan.cpp
  bool scan_lrr_masks(SubCore& sc, uint32_t index, IssueScan& scan);
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
  double book_dram(uint64_t sectors);
  uint64_t book_writebacks(const DecodedInst& d, uint32_t sectors);
  bool causes_writebacks(const DecodedInst& d) const;
  bool uses_dram(const DecodedInst& d, const MemRequest& req) const;
  bool miss_must_wait(SubCore& sc, const DecodedInst& d, const MemRequest& req);
  uint64_t send_miss(const DecodedInst& d, const MemRequest& req);
  bool take_l1_data_port(uint32_t bytes);
  void coalesce(const Op& op, MemLatch& latch);
  MemRequest outcome(const DecodedInst& d, uint32_t sectors);

  const GpuConfig& gpu() const { return opt_.gpu; }

  const SimOptions& opt_;
  const KernelProgram& prog_;
  const SmWork& work_;
  SmResult res_;
  std::vector<SubCore> subcores_;
  std::vector<Warp> warps_;
  std::vector<Head> heads_;  // per warp slot
  unsigned subcore_slots_ = 1;  // warp slots per sub-core (the width of its head masks)
  bool mask_scan_ = false;      // LRR with at most 64 warp slots per sub-core: scan_lrr_masks
  std::vector<uint8_t> can_fetch_;  // per warp slot: room in the buffer and instructions left to fetch
  std::vector<CtaSlot> ctas_;
  size_t next_cta_ = 0;
  std::unique_ptr<CtaTrace> next_loaded_;  // work_.ctas[next_cta_], read back from the spill file
  uint32_t resident_ctas_ = 0;
  uint32_t resident_warps_ = 0;
  uint64_t warp_age_ = 0, cu_seq_ = 0;
  TagCache l1i_;
  uint32_t l1i_rr_ = 0;
  uint32_t l1i_waiting_ = 0;  // sub-cores whose fetch waits for the L1 instruction cache
  std::unordered_map<uint64_t, uint64_t> code_line_ready_;  // instruction line -> cycle its last fill arrives
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<>> mshr_release_;
  uint64_t l1_data_free_ = 0;   // the SM's L1 data / shared-memory banks are free from then
  double noc_busy_until_ = 0;  // the SM's interconnect share is booked until then
  double noc_bytes_per_cycle_ = 0;  // this SM's share
  double dram_free_ = 0;            // the SM's DRAM share is booked until then
  double dram_bytes_per_cycle_ = 0; // this SM's share
  std::vector<double> l1_acc_, l2_acc_, wb_acc_;  // per PC: deterministic spreading of hits and write-backs
  uint32_t mem_rr_ = 0;
  BankChains smem_scratch_;  // coalesce's reused storage
  uint64_t now_ = 0, wake_ = kNever;
  bool activity_ = false;
  bool stopped_ = false;  // PKP ended the simulation
};

}  // namespace sasskit::pipesim
