// The memory pipeline of a sub-core (accelsim-modeling-cams23 §2.3): a
// dispatched memory instruction sits in the address latch while its
// requests are formed, one per cycle (one per distinct cache line, or per
// shared-memory wavefront when banks conflict), and every request passes
// the SM's L1 data / shared-memory banks, which all sub-cores share and which
// deliver smem_banks x 4 bytes per cycle; requests that miss L1 need an MSHR
// and the SM's share of interconnect bandwidth. Hit or miss per
// request follows the PC's hit rates (rd-cache's cache record, or the
// model defaults), spread deterministically over the PC's accesses.
#include "memory_pipeline.hpp"

#include <algorithm>
#include <array>

#include "access_units.hpp"
#include "exec_pipes.hpp"
#include "libcommon/divisor.hpp"
#include "warp_table.hpp"

namespace sasskit::pipesim {
namespace {

// Issue, operand read, dispatch and the latch take three cycles of a
// load's measured (issue-to-use) latency.
constexpr unsigned kPipelineCycles = 3;

uint64_t request_latency(unsigned measured) { return std::max(1u, measured > kPipelineCycles ? measured - kPipelineCycles : 1u); }

// Cycles, bookings and sector counts here stay far below 2^63, where the
// signed conversions between integers and doubles give what the unsigned
// ones give, in one instruction each: the unsigned ones take a branch and
// several where the build targets every x86-64 (no AVX-512), and the memory
// pipeline converts on most cycles a request waits.
double as_double(uint64_t n) { return double(static_cast<int64_t>(n)); }

// floor and ceil of a finite value at least 0 (a booked cycle, a count of
// write-back sectors), as the integer conversion gives them: std::floor and
// std::ceil are calls into libm where the build targets every x86-64 (no
// SSE4.1).
uint64_t floor_nonnegative(double x) { return static_cast<uint64_t>(static_cast<int64_t>(x)); }
uint64_t ceil_nonnegative(double x) {
  int64_t t = static_cast<int64_t>(x);
  return static_cast<uint64_t>(t) + (double(t) < x);
}

// The shared-memory wavefronts an access of `lanes` lanes of `width` bytes
// needs whatever its banks: one per 128 bytes moved, at least one. Those
// beyond it are bank conflicts (as Nsight Compute's
// l1tex__data_bank_conflicts_pipe_lsu_mem_shared counts them: an LDS.128
// without conflicts takes 4 wavefronts and has none).
uint32_t smem_width_wavefronts(unsigned lanes, unsigned width) {
  return static_cast<uint32_t>(std::max<uint64_t>(1, (uint64_t(lanes) * std::max(1u, width) + 127) / 128));
}

// Shared-memory wavefronts: the most distinct 4-byte words any bank must
// serve, and at least smem_width_wavefronts. Each bank keeps a chain of
// the words it serves, so a broadcast or a conflict-free access costs one
// comparison per word whatever the lane order.
uint32_t smem_wavefronts(const uint64_t* addrs, unsigned lanes, unsigned width, unsigned banks, BankChains& c) {
  c.head.assign(banks, -1);
  c.count.assign(banks, 0);
  c.word.clear();
  c.next.clear();
  Divisor bank_of(banks);
  uint32_t worst = 1;
  uint64_t generated = 0;
  unsigned bytes = std::max(1u, width);
  for (unsigned l = 0; l < lanes && l < 32 && generated < kMaxUnits; ++l) {
    uint64_t first = addrs[l] / 4, last = (addrs[l] + bytes - 1) / 4;
    if (last < first) continue;
    uint64_t end = first + std::min<uint64_t>(last - first + 1, kMaxUnits - generated);
    generated += end - first;
    for (uint64_t w = first; w < end; ++w) {
      size_t b = bank_of.mod(w);
      int32_t i = c.head[b];
      while (i >= 0 && c.word[i] != w) i = c.next[i];
      if (i >= 0) continue;
      c.next.push_back(c.head[b]);
      c.head[b] = static_cast<int32_t>(c.word.size());
      c.word.push_back(w);
      worst = std::max(worst, ++c.count[b]);
    }
  }
  return std::max(worst, smem_width_wavefronts(lanes, width));
}

bool spread(double& acc, double rate) {
  acc += rate;
  if (acc >= 1.0 - 1e-9) {
    acc -= 1.0;
    return true;
  }
  return false;
}

}  // namespace

void ReleaseCycles::Run::push(uint64_t cycle) {
  if (first > 0 && cycles.size() == cycles.capacity()) {
    cycles.erase(cycles.begin(), cycles.begin() + static_cast<std::ptrdiff_t>(first));
    first = 0;
  }
  cycles.push_back(cycle);
}

void ReleaseCycles::Run::insert_sorted(uint64_t cycle) {
  cycles.insert(std::upper_bound(cycles.begin() + static_cast<std::ptrdiff_t>(first), cycles.end(), cycle), cycle);
}

// The run whose last cycle is the latest not after `cycle`, else an empty
// one, else a new one while there is room; null when none is left.
ReleaseCycles::Run* ReleaseCycles::run_for(uint64_t cycle) {
  Run* best = nullptr;
  Run* empty = nullptr;
  for (Run& r : runs_) {
    if (r.empty()) {
      if (!empty) empty = &r;
    } else if (r.cycles.back() <= cycle && (!best || r.cycles.back() > best->cycles.back())) {
      best = &r;
    }
  }
  if (best) return best;
  if (empty) return empty;
  return runs_.size() < kMaxRuns ? &runs_.emplace_back() : nullptr;
}

void ReleaseCycles::add(uint64_t cycle) {
  ++size_;
  Run* run = run_for(cycle);
  if (run) {
    run->push(cycle);
  } else {
    run = &runs_.front();
    run->insert_sorted(cycle);
  }
  if (cycle < earliest_) {
    earliest_ = cycle;
    earliest_run_ = static_cast<size_t>(run - runs_.data());
  }
}

void ReleaseCycles::release_earliest() {
  Run& done = runs_[earliest_run_];
  if (++done.first == done.cycles.size()) {
    done.cycles.clear();
    done.first = 0;
  }
  --size_;
  earliest_ = kNever;
  for (size_t r = 0; r < runs_.size(); ++r) {
    if (runs_[r].empty() || runs_[r].cycles[runs_[r].first] >= earliest_) continue;
    earliest_ = runs_[r].cycles[runs_[r].first];
    earliest_run_ = r;
  }
}

inline void LatchOutlet::result(unsigned subcore, const Op& op) { write_back_.enqueue_result(subcore, op); }
inline void LatchOutlet::done(const Op& op) { warps_.complete(op); }

MemoryPipeline::MemoryPipeline(const Stage& wiring, LatchOutlet outlet)
    : Stage(wiring),
      outlet_(outlet),
      mshrs_(gpu_.l1d.mshrs),
      dram_backlog_(std::max(1u, gpu_.dram_latency)),
      sector_bytes_(std::max(4u, gpu_.l1d.sector_bytes)),
      l1_data_bytes_(4 * std::max(1u, gpu_.smem_banks)),
      latches_(subcores()) {
  l1_acc_.assign(prog_.pcs.size(), 0);
  l2_acc_.assign(prog_.pcs.size(), 0);
  wb_acc_.assign(prog_.pcs.size(), 0);
}

// The SMs running share the chip's interconnect and DRAM bandwidth (the
// timeline decides how); one SM moves at most what its interconnect port
// carries.
void MemoryPipeline::share_bandwidth(const BandwidthShare& share) {
  const GpuConfig& g = gpu_;
  if (g.noc_bytes_per_cycle > 0)
    noc_bytes_per_cycle_ = std::min(g.l2_bytes_per_cycle() / share.l2_divisor, g.noc_port_bytes());
  dram_bytes_per_cycle_ = g.dram_bytes_per_cycle() / share.dram_divisor;
}

// As send_miss and book_dram book them.
MovedBytes MemoryPipeline::moved() const {
  const SimCounters& c = counters_;
  return {noc_bytes(c.l2_sectors), dram_bytes(c.dram_read_sectors + c.dram_write_sectors),
          double(c.l2_sectors - c.l2_write_sectors), double(c.dram_read_sectors)};
}

bool MemoryPipeline::accept(unsigned subcore, const Op& op) {
  if (prog_.async && prog_.insts[op.inst].op.is_async) [[unlikely]] {
    bulk_queue_.push_back(op);
    return true;
  }
  MemLatch& latch = latches_[subcore];
  if (latch.busy) {
    ports_[subcore].events.add(StallEvent::DispatchQueue, true, prog_.insts[op.inst].pc_index);
    return false;
  }
  coalesce(op, latch);
  ports_[subcore].set_latch_busy(true);
  return true;
}

void MemoryPipeline::count_quiet_cycles(uint64_t n) {
  if (n == 0) return;  // most calls: a latch streak's cycles follow one another
  for (const MemLatch& latch : latches_)
    if (latch.busy) counters_.units[static_cast<size_t>(UnitClass::Ldst)].busy_cycles += n;
}

MemoryPipeline::MemRequest MemoryPipeline::outcome(const DecodedInst& d, uint32_t sectors) {
  const GpuConfig& g = gpu_;
  bool atomic = d.op.is_atomic;
  bool cacheable = d.op.space != MemSpace::Global || g.l1_caches_global_loads;
  bool l1_hit = !atomic && !d.op.is_store && cacheable && spread(l1_acc_[d.pc_index], d.l1_hit);
  if (l1_hit) return MemRequest{sectors, request_latency(g.l1d.latency), false};
  bool l2_hit = spread(l2_acc_[d.pc_index], d.l2_hit);
  unsigned measured = g.l2.latency + (l2_hit ? 0 : g.dram_latency) + (atomic ? g.l2_atomic_latency : 0);
  // As rd-cache routes them: a write-back L2 takes a store it allocates, and
  // an atomic, into the line without reading DRAM for the store (it keeps
  // which bytes were written); DRAM sees them when the dirty line is evicted
  // (book_writebacks). A write-through L2 passes every write on to DRAM, and
  // a store L2 does not allocate goes there directly.
  bool writes = d.op.is_store || atomic;
  bool through = g.l2.write_policy == WritePolicy::WriteThrough;
  bool bypasses = d.op.is_store && !atomic && !g.l2.write_allocate;
  bool reads_dram = !l2_hit && (atomic || !d.op.is_store);
  bool writes_dram = (writes && through) || bypasses;
  bool uses_dram = reads_dram || writes_dram || causes_writebacks(d);
  return MemRequest{sectors, request_latency(measured), true, reads_dram, writes_dram, uses_dram};
}

// Forms the requests of a dispatched memory instruction in the latch.
void MemoryPipeline::coalesce(const Op& op, MemLatch& latch) {
  const DecodedInst& d = prog_.insts[op.inst];
  unsigned lanes = active_lanes(op.mask);
  latch.busy = true;
  latch.op = op;
  latch.op.done = 0;
  latch.reqs.clear();
  latch.next = 0;
  const uint64_t* addrs = op.addrs;
  const GpuConfig& g = gpu_;
  if (d.op.space == MemSpace::Shared) {
    uint32_t waves =
        lanes ? smem_wavefronts(addrs, lanes, d.mem_width, std::max(1u, g.smem_banks), smem_scratch_) : 1;
    counters_.smem_conflict_cycles += waves - (lanes ? smem_width_wavefronts(lanes, d.mem_width) : 1);
    for (uint32_t i = 0; i < waves; ++i) latch.reqs.push_back(MemRequest{0, request_latency(g.smem_latency), false});
  } else if (d.op.space == MemSpace::Constant || lanes == 0 || d.mem_width == 0) {
    latch.reqs.push_back(MemRequest{0, request_latency(g.l1d.latency), false});
  } else {
    unsigned line = std::max(32u, g.l1d.line_bytes), sector = std::max(4u, g.l1d.sector_bytes);
    std::array<uint64_t, kMaxUnits> sectors;
    size_t n = 0;
    for_each_distinct_unit(addrs, lanes, d.mem_width, Divisor(sector), [&](uint64_t u) { sectors[n++] = u; });
    Divisor line_of(line);
    for (size_t i = 0; i < n;) {
      // The sectors come in ascending order: those of the line start at or
      // after its first byte and end before the next line's.
      const uint64_t line_start = line_of.div(sectors[i] * sector) * line;
      size_t j = i + 1;
      while (j < n && sectors[j] * sector - line_start < line) ++j;
      latch.reqs.push_back(outcome(d, static_cast<uint32_t>(j - i)));
      i = j;
    }
  }
  counters_.mem_requests += latch.reqs.size();
}

// Sectors read or written cross the SM's share of DRAM bandwidth, first come
// first served. Returns how long they waited for the transfers booked
// before them.
double MemoryPipeline::book_dram(uint64_t sectors) {
  if (dram_bytes_per_cycle_ <= 0 || sectors == 0) return 0;
  double bytes = dram_bytes(sectors);
  double wait = std::max(0.0, dram_free_ - as_double(clock_.now));
  dram_free_ = as_double(clock_.now) + wait + bytes / dram_bytes_per_cycle_;
  return wait;
}

// The dirty sectors a request's L2 allocations evict, at the PC's rate
// (rd-cache's write-backs per L2 sector), spread deterministically; they
// take the SM's DRAM share when the request reaches L2. Returns how many.
uint64_t MemoryPipeline::book_writebacks(const DecodedInst& d, uint32_t sectors) {
  if (!causes_writebacks(d)) return 0;
  double& acc = wb_acc_[d.pc_index];
  acc += as_double(sectors) * d.writeback_rate;
  uint64_t whole = floor_nonnegative(acc + 1e-9);
  acc -= as_double(whole);
  book_dram(whole);
  return whole;
}

// Only a write-back L2 evicts dirty lines, and a store it does not allocate
// allocates nothing.
bool MemoryPipeline::causes_writebacks(const DecodedInst& d) const {
  const GpuConfig& g = gpu_;
  bool allocates = !d.op.is_store || d.op.is_atomic || g.l2.write_allocate;
  return d.writeback_rate > 0 && g.l2.write_policy == WritePolicy::WriteBack && allocates;
}

// The SM's L1 data / shared-memory array: its banks deliver smem_banks x 4
// bytes per cycle to all sub-cores together (a shared-memory wavefront, or up
// to that many bytes of one global line), so a request that finds it busy
// waits. Returns whether the request may use it now, and books it if so.
bool MemoryPipeline::take_l1_data_port(uint32_t bytes) {
  if (l1_data_free_ > clock_.now) {
    clock_.wake_at(l1_data_free_);
    return false;
  }
  l1_data_free_ = clock_.now + std::max<uint64_t>(1, (bytes + l1_data_bytes_ - 1) / l1_data_bytes_);
  return true;
}

// Whether a request that leaves the SM must wait: for an MSHR (loads), for
// the interconnect, which takes a request while its backlog is under a cycle,
// or for the SM's DRAM queue, which takes a request that moves DRAM data
// (a read, a write passed on, a write-back it causes) while its backlog is
// under the DRAM latency (so a change of the SM's share soon takes effect).
inline bool MemoryPipeline::miss_must_wait(SubCorePort& port, const DecodedInst& d, const MemRequest& req) {
  bool needs_mshr = !d.op.is_store;
  bool noc_busy = noc_busy_until_ >= as_double(clock_.now + 1);
  bool dram_busy = dram_bytes_per_cycle_ > 0 && req.uses_dram && dram_free_ > as_double(clock_.now) + dram_backlog_;
  if (!(needs_mshr && mshrs_ && mshr_release_.size() >= mshrs_) && !noc_busy && !dram_busy) return false;
  port.events.add(StallEvent::Interconnect, true, d.pc_index);
  if (noc_busy) clock_.wake_at(floor_nonnegative(noc_busy_until_));
  if (dram_busy) clock_.wake_at(ceil_nonnegative(dram_free_ - dram_backlog_));
  clock_.wake_at(mshr_release_.earliest());  // kNever while none is in use: no wake
  return true;
}

// Books a request that leaves the SM: its MSHR, interconnect and DRAM shares
// (what it reads, what it writes through, the write-backs it causes).
// Returns when its data is back: a read waits for the DRAM transfers booked
// before it.
inline uint64_t MemoryPipeline::send_miss(const DecodedInst& d, const MemRequest& req) {
  uint64_t done = clock_.now + req.latency;
  SimCounters& c = counters_;
  if (req.to_dram) {
    done += ceil_nonnegative(book_dram(req.sectors));
    c.dram_read_sectors += req.sectors;
  }
  if (req.writes_dram) {
    book_dram(req.sectors);
    c.dram_write_sectors += req.sectors;
  }
  c.dram_write_sectors += book_writebacks(d, req.sectors);
  if (!d.op.is_store) mshr_release_.add(done);
  if (noc_bytes_per_cycle_ > 0) {
    double bytes = noc_bytes(req.sectors);
    noc_busy_until_ = std::max(noc_busy_until_, as_double(clock_.now)) + bytes / noc_bytes_per_cycle_;
  }
  ++c.l1d_misses;
  c.l2_sectors += req.sectors;
  if (d.op.is_store && !d.op.is_atomic) c.l2_write_sectors += req.sectors;
  return done;
}

bool MemoryPipeline::cycle() {
  mshr_release_.release_due(clock_.now);
  const uint32_t n = static_cast<uint32_t>(latches_.size());
  bool emptied = false;
  MemLatch* latches = latches_.data();
  SubCorePort* ports = ports_.data();
  for (uint32_t i = 0, s = rr_; i < n; ++i, s = s + 1 < n ? s + 1 : 0) emptied |= step(s, latches[s], ports[s]);
  rr_ = rr_ + 1 < n ? rr_ + 1 : 0;
  if (prog_.async) [[unlikely]] emptied |= step_bulk();
  return emptied;
}

bool MemoryPipeline::step_bulk() {
  if (!bulk_.busy) {
    if (bulk_queue_.empty()) return false;
    coalesce(bulk_queue_.front(), bulk_);
    bulk_queue_.pop_front();
  }
  const unsigned s = subcore_of_slot(bulk_.op.warp, subcores());
  return step(s, bulk_, ports_[s]);
}

// The sub-core's latch sends its next request; returns whether that was its last.
inline bool MemoryPipeline::step(unsigned subcore, MemLatch& latch, SubCorePort& port) {
  if (port.long_misses > 0) port.events.add(StallEvent::MemoryAccess, true);
  if (!latch.busy) return false;
  if (&latch != &bulk_) ++counters_.units[static_cast<size_t>(UnitClass::Ldst)].busy_cycles;  // the latch is the LDST unit
  const DecodedInst& d = prog_.insts[latch.op.inst];
  MemRequest& req = latch.reqs[latch.next];
  if (req.leaves_sm && miss_must_wait(port, d, req)) return false;
  uint32_t bytes = req.sectors ? req.sectors * sector_bytes_ : l1_data_bytes_;
  if (!take_l1_data_port(bytes)) return false;
  if (req.leaves_sm) {
    latch.op.long_miss = true;
    latch.op.done = std::max(latch.op.done, send_miss(d, req));
  }
  latch.op.done = std::max(latch.op.done, clock_.now + req.latency);
  clock_.progressed();
  if (++latch.next < latch.reqs.size()) return false;
  latch.busy = false;
  if (&latch != &bulk_) port.set_latch_busy(false);
  // A bulk copy writes no register but completes when its data is back.
  bool waits_for_data = (d.ndst > 0 && !d.op.is_store) || d.op.is_async;
  if (waits_for_data) {
    outlet_.result(subcore, latch.op);
  } else {
    outlet_.done(latch.op);
  }
  return true;
}

}  // namespace sasskit::pipesim
