// The memory pipeline: per sub-core an address latch (the LDST unit) where a
// dispatched memory instruction's requests are formed, one per cycle; the
// SM's L1 data / shared-memory banks, MSHRs and shares of interconnect and
// DRAM bandwidth, which the sub-cores take in turn.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "ports.hpp"

namespace sasskit::pipesim {

class ExecPipes;
class WarpTable;

// Where the memory pipeline sends an instruction whose last request went
// out: one that waits for its data (a load, a bulk copy) to write-back,
// where its result is ready at op.done; any other (a store) to its warps,
// done. In the SM: the execution pipes' results and the warp table.
class LatchOutlet {
 public:
  LatchOutlet(ExecPipes& write_back, WarpTable& warps) : write_back_(write_back), warps_(warps) {}
  inline void result(unsigned subcore, const Op& op);
  inline void done(const Op& op);

 private:
  ExecPipes& write_back_;
  WarpTable& warps_;
};

// Storage the shared-memory coalescer reuses: per bank, a chain of the
// distinct words it serves.
struct BankChains {
  std::vector<int32_t> head;    // per bank: latest word's index, or -1
  std::vector<uint32_t> count;  // per bank: distinct words
  std::vector<uint64_t> word;
  std::vector<int32_t> next;
};

// What one SM gets of the chip's interconnect and DRAM bandwidth: the
// chip's rate divided by each divisor.
struct BandwidthShare {
  double l2_divisor = 1;
  double dram_divisor = 1;
  // 1 / `sharing` of both (at least 1).
  static BandwidthShare equal(unsigned sharing) {
    const double d = std::max(1u, sharing);
    return {d, d};
  }
};

// Bytes an SM has moved over the interconnect and to or from DRAM, as its
// shares count them; and the sectors it read from L2, and of those from DRAM.
struct MovedBytes {
  double l2 = 0;
  double dram = 0;
  double l2_reads = 0;
  double l2_read_misses = 0;
};

// The cycles at which the MSHRs in use are released. A request's MSHR is
// released a fixed latency after it is sent, or for a DRAM read after the
// SM's DRAM share is free too, which only moves on: so the requests of each
// latency are released in the order sent, and the cycles form a few sorted
// runs. A cycle joins the run whose last cycle is the latest not after it,
// so that adding and releasing cost a pass over the runs, where a heap's
// release took a pass down its depth.
class ReleaseCycles {
 public:
  size_t size() const { return size_; }
  // The earliest cycle held (kNever: none).
  uint64_t earliest() const { return earliest_; }
  void add(uint64_t cycle);
  // Releases the cycles up to `now`.
  void release_due(uint64_t now) {
    while (earliest_ <= now) release_earliest();
  }

 private:
  // Cycles in order from cycles[first] on; the room of those released is
  // reclaimed once the storage is full.
  struct Run {
    std::vector<uint64_t> cycles;
    size_t first = 0;
    bool empty() const { return first == cycles.size(); }
    void push(uint64_t cycle);
    void insert_sorted(uint64_t cycle);
  };
  // Runs beyond these hold cycles out of order, none of the few latencies
  // a model has: a cycle that fits no run is sorted into the first.
  static constexpr size_t kMaxRuns = 8;

  Run* run_for(uint64_t cycle);
  void release_earliest();

  std::vector<Run> runs_;
  size_t size_ = 0;
  uint64_t earliest_ = kNever;
  size_t earliest_run_ = 0;
};

class MemoryPipeline : private Stage {
 public:
  // The stall events cycle() adds; no other stage adds them.
  static constexpr uint16_t kCycleEvents = event_bit(StallEvent::MemoryAccess) | event_bit(StallEvent::Interconnect);

  MemoryPipeline(const Stage& wiring, LatchOutlet outlet);

  // From now on the SM gets `share` of the chip's interconnect and DRAM
  // bandwidth.
  void share_bandwidth(const BandwidthShare& share);
  MovedBytes moved() const;
  // Dispatch of a memory instruction: false (a dispatch-queue stall) while
  // the sub-core's latch holds another (the sub-core's port says whether it
  // does, for its scheduler).
  bool accept(unsigned subcore, const Op& op);
  // Every sub-core's latch sends its next request, starting with a
  // different sub-core each cycle. Returns whether a latch emptied (its
  // instruction went on to write-back or completed).
  bool cycle();
  // `n` cycles in which nothing changed: a busy latch keeps the LDST unit busy.
  void count_quiet_cycles(uint64_t n);

 private:
  struct MemRequest {
    uint32_t sectors = 0;
    uint64_t latency = 0;
    bool leaves_sm = false;  // L1 miss: needs an MSHR and interconnect bandwidth
    bool to_dram = false;    // reads DRAM (an L2 miss): waits for DRAM bandwidth
    bool writes_dram = false;  // a write L2 passes on to DRAM at once (write-through, no allocation)
    bool uses_dram = false;    // reads, writes or evicts to DRAM: waits while DRAM is backlogged
  };
  struct MemLatch {
    bool busy = false;
    Op op;
    std::vector<MemRequest> reqs;
    size_t next = 0;
  };

  // `latch` and `port` are the sub-core's, looked up once a cycle.
  // Inlined into cycle()'s loop over the latches, its hot caller, though
  // step_bulk() calls it too (GCC then left it, miss_must_wait and send_miss
  // calls).
  [[gnu::always_inline]] bool step(unsigned subcore, MemLatch& latch, SubCorePort& port);
  // The bulk copy engine's next request (the tensor memory accelerator);
  // only a kernel with asynchronous instructions calls it.
  [[gnu::noinline, gnu::cold]] bool step_bulk();
  double book_dram(uint64_t sectors);
  // The bytes `sectors` take on the interconnect (L1 sectors) and on DRAM
  // (L2 sectors), as the bandwidth shares count them.
  double noc_bytes(uint64_t sectors) const { return double(sectors) * sector_bytes_; }
  double dram_bytes(uint64_t sectors) const { return double(sectors) * std::max(4u, gpu_.l2.sector_bytes); }
  uint64_t book_writebacks(const DecodedInst& d, uint32_t sectors);
  bool causes_writebacks(const DecodedInst& d) const;
  [[gnu::always_inline]] bool miss_must_wait(SubCorePort& port, const DecodedInst& d, const MemRequest& req);
  [[gnu::always_inline]] uint64_t send_miss(const DecodedInst& d, const MemRequest& req);
  bool take_l1_data_port(uint32_t bytes);
  void coalesce(const Op& op, MemLatch& latch);
  MemRequest outcome(const DecodedInst& d, uint32_t sectors);

  LatchOutlet outlet_;
  // Of the model, read in every cycle in which a request waits or goes.
  const uint32_t mshrs_;          // L1 MSHRs (0: unlimited)
  const double dram_backlog_;     // the DRAM queue takes requests while its backlog is under this many cycles
  const uint32_t sector_bytes_;   // an L1 sector
  const uint32_t l1_data_bytes_;  // the L1 data banks' bytes per cycle
  std::vector<MemLatch> latches_;  // per sub-core
  // The SM's tensor memory accelerator: a bulk copy (an async memory
  // instruction) is handed to it and queues there, not in its sub-core's
  // latch, so the warp goes on; the copies' requests go out one a cycle, in
  // the order issued, and a copy completes when its data is back.
  MemLatch bulk_;
  std::deque<Op> bulk_queue_;
  uint32_t rr_ = 0;                // the sub-core that goes first this cycle
  ReleaseCycles mshr_release_;
  uint64_t l1_data_free_ = 0;   // the SM's L1 data / shared-memory banks are free from then
  double noc_busy_until_ = 0;  // the SM's interconnect share is booked until then
  double noc_bytes_per_cycle_ = 0;  // this SM's share
  double dram_free_ = 0;            // the SM's DRAM share is booked until then
  double dram_bytes_per_cycle_ = 0; // this SM's share
  std::vector<double> l1_acc_, l2_acc_, wb_acc_;  // per PC: deterministic spreading of hits and write-backs
  BankChains smem_scratch_;  // coalesce's reused storage
};

}  // namespace sasskit::pipesim
