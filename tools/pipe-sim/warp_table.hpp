// The SM's resident CTAs and warps: each warp's trace position, instruction
// buffer, scoreboard and barrier state, and the state cached from them that
// the other stages read every cycle (the schedulers' WarpHeads, which warps
// fetch may pick). The table is the only writer of all of it: stages change
// a warp through its methods, each of which changes the warp through one
// edit(), whose end refreshes what is cached of it; check() recomputes the
// cache from scratch.
#pragma once

#include <bitset>
#include <cstdint>
#include <memory>
#include <vector>

#include "ports.hpp"
#include "program.hpp"
#include "warp_heads.hpp"

namespace sasskit::pipesim {

struct IbufEntry {
  uint32_t pos = 0;    // position in the warp's trace
  uint64_t ready = 0;  // decoded, can issue from this cycle
};

// A warp's instruction buffer: a FIFO of at most `depth` entries in a ring
// sized once per warp slot, so that fetch and issue neither allocate nor
// move entries.
class InstBuffer {
 public:
  InstBuffer() = default;  // no room until the warp table sizes it
  explicit InstBuffer(unsigned depth) : ring_(depth) {}
  bool empty() const { return size_ == 0; }
  uint32_t size() const { return size_; }
  uint32_t depth() const { return static_cast<uint32_t>(ring_.size()); }
  const IbufEntry& front() const { return ring_[head_]; }
  void push_back(const IbufEntry& e) {
    uint32_t at = head_ + size_;
    ring_[at < ring_.size() ? at : at - ring_.size()] = e;
    ++size_;
  }
  void pop_front() {
    head_ = head_ + 1 < ring_.size() ? head_ + 1 : 0;
    --size_;
  }
  void clear() { head_ = size_ = 0; }

 private:
  std::vector<IbufEntry> ring_;
  uint32_t head_ = 0, size_ = 0;
};

struct Warp {
  bool at_barrier = false, issued_all = false, active = false;
  bool branch_wait = false;     // fetch stopped at a taken branch until it executes
  uint32_t barrier_pc = 0;
  InstBuffer ibuf;  // at most ibuffer_depth
  const WarpTrace* trace = nullptr;
  uint32_t next_fetch = 0, fetching = 0, next_issue = 0;
  uint32_t cta = 0;        // CTA slot
  uint64_t age = 0;        // launch order, for GTO
  uint64_t addr_cursor = 0;     // next address of the trace's addr column
  uint32_t branch_pos = 0;
  uint32_t outstanding = 0;     // issued, not yet completed
  std::bitset<256> pending, pending_mem;
  // Hopper's asynchronous instructions (OpcodeInfo::is_async).
  uint32_t async_mmas = 0;       // warpgroup MMAs issued, not yet complete
  uint32_t copy_phases_seen = 0;  // copy groups of its CTA this warp's copy waits have passed
  uint32_t open_group = kNone;    // the copy group of the copies this warp is issuing
};

// The bulk copies that complete one mbarrier phase: those that follow a
// warp's copy-group instruction (mbarrier.arrive.expect_tx) in its trace. The trace does not name the mbarrier, so a CTA's
// copy waits take its groups in the order they started: each warp's n-th
// copy wait waits for the CTA's n-th group of copies (a pipeline's stages,
// filled and consumed in order). Groups that closed with no copy (an arrive
// that releases a buffer) are skipped.
struct CopyGroup {
  uint32_t issued = 0, done = 0;
  bool closed = false;
  bool complete() const { return closed && done == issued; }
};

struct CtaSlot {
  const CtaTrace* cta = nullptr;
  std::unique_ptr<CtaTrace> loaded;  // a spilled CTA, read back for its stay
  std::vector<uint32_t> warps;
  uint32_t live = 0, arrived = 0, done = 0;
  uint64_t freed_at = 0;  // when free: the first cycle a CTA could start in it
  std::vector<CopyGroup> copy_groups;  // in the order they started
};

class WarpTable : private Stage {
 public:
  // `keep_masks`: maintain the head masks (LRR's mask scan reads them; a
  // sub-core has at most 64 warp slots then).
  WarpTable(const Stage& wiring, unsigned ctas_per_sm, bool keep_masks);

  // Reading.
  const Warp& warp(uint32_t w) const { return warps_[w]; }
  // What the schedulers read: heads, resident warps, head masks.
  const WarpHeads& heads() const { return heads_; }
  bool can_fetch(uint32_t w) const { return can_fetch_[w]; }
  uint32_t fetchable(unsigned subcore) const { return fetchable_[subcore]; }
  size_t slots() const { return warps_.size(); }
  uint32_t resident_warps() const { return resident_warps_; }
  uint32_t resident_ctas() const { return resident_ctas_; }
  size_t cta_slots() const { return ctas_.size(); }
  // Per warp slot, the instructions its warp has still to issue (0 for a
  // free slot).
  std::vector<uint64_t> insts_left_per_warp() const;
  const DecodedInst& inst_at(const Warp& w, uint32_t pos) const { return prog_.insts[w.trace->inst[pos]]; }

  // CTAs. The first free slot whose launch latency has passed, or null (the
  // clock then wakes when the earliest is ready).
  CtaSlot* launchable_slot(uint64_t launch_latency);
  // Places the CTA's warps in free warp slots; returns the slots.
  const std::vector<uint32_t>& launch(CtaSlot& slot, const CtaTrace& cta, std::unique_ptr<CtaTrace> loaded);
  // Ends a warp that has issued everything and has nothing in flight, and
  // its CTA when that was the CTA's last warp.
  void retire(uint32_t w);
  // A finished CTA's trace, to be read into (its buffers keep their size),
  // or a new one.
  std::unique_ptr<CtaTrace> spare_trace();

  // Fetch: `count` instructions from next_fetch on are on their way; a
  // taken branch at trace position `branch_at` (kNone: none) stops fetch
  // until it executes.
  void start_fetch(uint32_t w, uint32_t count, uint32_t branch_at);
  // The instructions on their way enter the buffer, decoded at `ready`.
  void deliver_fetch(uint32_t w, uint32_t count, uint64_t ready);

  // Issue and completion run once per instruction each and are flattened:
  // LTO alone left the head's recomputation (compute_head, WarpHeads::set) calls.
  //
  // Issue: the head instruction leaves the buffer for a collector; its
  // destinations become pending; a barrier or the warp's last instruction
  // updates its CTA. Returns the instruction in flight.
  [[gnu::flatten]] Op issue(uint32_t w);
  // The instruction is done (its results written): its registers are free,
  // a branch it ended lets fetch go on, and the warp may retire.
  [[gnu::flatten]] void complete(const Op& op);

  // Recomputes every cached value from the warps and throws an internal
  // error where one differs from what is cached.
  void check() const;

 private:
  // What is cached of a warp: its head, whether fetch may pick it.
  enum Cached : uint8_t { kHead = 1, kFetch = 2, kAll = kHead | kFetch };
  // The one way the table changes a warp: when the edit ends, the parts
  // of the cache it names are refreshed, so that no change can leave them
  // stale. An edit of fetch state alone names kFetch: the head does not
  // depend on it, and the head's computation is the costly part (check()
  // finds a part an edit should have named).
  class Edit {
   public:
    Edit(WarpTable& table, uint32_t w, Cached parts) : table_(table), w_(w), parts_(parts) {}
    Edit(const Edit&) = delete;
    Edit& operator=(const Edit&) = delete;
    ~Edit() { table_.refresh(w_, parts_); }
    Warp& operator*() const { return table_.warps_[w_]; }
    Warp* operator->() const { return &table_.warps_[w_]; }

   private:
    WarpTable& table_;
    uint32_t w_;
    Cached parts_;
  };
  Edit edit(uint32_t w, Cached parts = kAll) { return Edit(*this, w, parts); }

  Head compute_head(uint32_t w) const;
  bool compute_can_fetch(uint32_t w) const;
  // Recomputes the parts of what is cached of warp w: after an edit of it,
  // or of another warp its head depends on (a copy wait's).
  // Inlined into each edit: most name one part.
  [[gnu::always_inline]] void refresh(uint32_t w, Cached parts);
  void arrive_at_barrier(Warp& w);
  void release_barrier_if_complete(CtaSlot& c);
  // A warp's scoreboard takes an issued instruction's destinations, and a
  // completed one frees them.
  static void mark_pending(Warp& w, const DecodedInst& d);
  static void clear_pending(Warp& w, const DecodedInst& d);
  // Issue and completion in a kernel with asynchronous instructions
  // (KernelProgram::async); the head's wait for them.
  [[gnu::noinline, gnu::cold]] uint32_t issue_async(Warp& w, const DecodedInst& d, uint32_t pos);
  [[gnu::noinline, gnu::cold]] void complete_async(Warp& w, const DecodedInst& d, const Op& op);
  enum class AsyncWait : uint8_t { None, Blocked, OnLoad };
  [[gnu::noinline, gnu::cold]] AsyncWait async_wait(const Warp& w, const DecodedInst& d) const;
  // Copy groups: the bookkeeping of an issued instruction; whether a warp's
  // next copy wait may pass; the warps of a CTA that wait for a phase,
  // refreshed after a group or a warp changed.
  uint32_t track_copies(Warp& w, const DecodedInst& d, uint32_t pos);
  uint32_t next_phase(const Warp& w) const;
  bool copy_phase_ready(const Warp& w) const;
  [[gnu::noinline, gnu::cold]] void refresh_copy_waiters(uint32_t cta);

  std::vector<Warp> warps_;
  WarpHeads heads_;
  std::vector<uint8_t> can_fetch_;  // per warp slot: room in the buffer and instructions left to fetch
  std::vector<uint32_t> fetchable_;  // per sub-core: its warps with can_fetch_ set
  std::vector<CtaSlot> ctas_;
  std::vector<std::unique_ptr<CtaTrace>> spare_traces_;  // of finished CTAs read back from the spill file
  uint32_t resident_ctas_ = 0;
  uint32_t resident_warps_ = 0;
  uint64_t warp_age_ = 0;
};

}  // namespace sasskit::pipesim
