#include "sm.hpp"

#include <algorithm>

#include "formats/records.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::pipesim {

void check_model_limits(const GpuConfig& g) {
  auto at_most = [](unsigned value, unsigned limit, const char* key) {
    if (value > limit)
      fail_usage("GPU model: " + std::string(key) + " = " + std::to_string(value) + " exceeds the " +
                 std::to_string(limit) + " per sub-core that pipe-sim models");
  };
  at_most(g.collector_units, kMaxCollectors, "collector-units");
  at_most(g.reg_banks, kMaxBanks, "reg-banks");
}

SmSim::SmSim(const SimOptions& opt, const KernelProgram& program, const SmWork& work)
    : opt_(opt),
      prog_(program),
      work_(work),
      l1i_(opt.gpu.l1i) {
  const GpuConfig& g = gpu();
  unsigned nsub = std::max(1u, g.subcores_per_sm);
  for (unsigned i = 0; i < nsub; ++i) {
    SubCore sc(g.has_l0i ? g.l0i : CacheGeometry{}, g.has_l0i ? g.inst_prefetch_lines : 0);
    sc.cus.resize(g.collector_units);
    for (size_t u = 0; u < kUnitClasses; ++u) sc.pipes[u].assign(std::max(1u, g.units[u].count), 0);
    sc.ports.assign(g.reg_banks, 0);
    subcores_.push_back(std::move(sc));
  }
  warps_.resize(std::max(1u, g.max_warps_per_sm));
  heads_.resize(warps_.size());
  subcore_slots_ = static_cast<unsigned>((warps_.size() + nsub - 1) / nsub);
  mask_scan_ = opt.lrr_mask_scan && g.scheduler == SchedulerPolicy::Lrr && subcore_slots_ <= 64;
  can_fetch_.assign(warps_.size(), 0);
  ctas_.resize(std::max(1u, opt.ctas_per_sm));
  share_bandwidth(opt.active_sms);
  l1_acc_.assign(prog_.pcs.size(), 0);
  l2_acc_.assign(prog_.pcs.size(), 0);
  wb_acc_.assign(prog_.pcs.size(), 0);
  res_.sm = work.sm;
  res_.pc_insts.assign(prog_.pcs.size(), 0);
  for (auto& col : res_.pc_stalls) col.assign(prog_.pcs.size(), 0);
  res_.counters.max_warps = warps_.size();
  for (const CtaRef& c : work.ctas) {
    if (!c.held) res_.trace_insts += c.spilled_insts;
    else
      for (const auto& w : c.held->warps) res_.trace_insts += w.inst.size();
  }
}

// The SMs running a kernel share the chip's interconnect and DRAM bandwidth
// equally; one SM moves at most what its interconnect port carries.
void SmSim::share_bandwidth(unsigned sharing) {
  const GpuConfig& g = gpu();
  sharing = std::max(1u, sharing);
  if (g.noc_bytes_per_cycle > 0)
    noc_bytes_per_cycle_ = std::min(g.l2_bytes_per_cycle() / sharing, g.noc_port_bytes());
  dram_bytes_per_cycle_ = g.dram_bytes_per_cycle() / sharing;
}

bool SmSim::run_until(uint64_t limit) {
  while (busy() && !stopped_ && now_ < limit) {
    begin_cycle();
    launch_ctas();
    for (auto& sc : subcores_) write_back(sc);
    for (size_t i = 0; i < subcores_.size(); ++i) memory_pipeline(subcores_[(mem_rr_ + i) % subcores_.size()]);
    mem_rr_ = (mem_rr_ + 1) % subcores_.size();
    for (auto& sc : subcores_) dispatch(sc);
    for (auto& sc : subcores_) read_operands(sc);
    for (auto& sc : subcores_) issue(sc);
    l1i_arbiter();
    for (auto& sc : subcores_) fetch(sc);  // after issue: refills the slots issue freed
    account_cycle(now_);
    uint64_t next = activity_ ? now_ + 1 : wake_;
    if (busy() && next == kNever)
      throw Error(ExitCode::Internal, "SM " + std::to_string(work_.sm),
                  "simulation deadlock at cycle " + std::to_string(now_) + ": please report this trace");
    if (!busy()) next = now_ + 1;
    account_quiet_cycles(now_ + 1, next);
    now_ = next;
  }
  return busy() && !stopped_;
}

SmResult SmSim::finish() {
  res_.cycles = now_;
  res_.counters.active_cycles = now_;
  res_.counters.sm_cycles = now_;
  res_.simulated_insts = res_.counters.insts;
  res_.projected_cycles = res_.projected ? std::max(res_.projected_cycles, now_) : now_;
  for (const auto& sc : subcores_) {
    res_.counters.l0i.accesses += sc.l0i.counters().accesses;
    res_.counters.l0i.misses += sc.l0i.counters().misses;
  }
  res_.counters.l1i = l1i_.counters();
  std::stable_sort(res_.trace.begin(), res_.trace.end(), [](const StallTraceRow& a, const StallTraceRow& b) {
    return a.cycle != b.cycle ? a.cycle < b.cycle : a.subcore < b.subcore;
  });
  return std::move(res_);
}

void SmSim::stop(uint64_t projected_end) {
  if (!busy() || stopped_) return;
  stopped_ = true;
  res_.projected = true;
  res_.unfinished_ctas = static_cast<uint32_t>(work_.ctas.size() - res_.counters.ctas);
  res_.projected_cycles = projected_end;
}

void SmSim::launch_ctas() {
  while (next_cta_ < work_.ctas.size() && resident_ctas_ < ctas_.size()) {
    const CtaTrace* cta = &next_cta();
    if (resident_warps_ + cta->warps.size() > warps_.size()) {
      if (resident_ctas_ == 0)
        fail("a CTA of kernel " + std::to_string(cta->kernel_id) + " has " + std::to_string(cta->warps.size()) +
             " warps; the SM holds " + std::to_string(warps_.size()));
      return;
    }
    CtaSlot* slot = launchable_slot();
    if (!slot) return;
    uint32_t cta_index = static_cast<uint32_t>(slot - ctas_.data());
    *slot = CtaSlot{};
    slot->cta = cta;
    slot->loaded = std::move(next_loaded_);
    for (const auto& wt : cta->warps) {
      uint32_t w = 0;
      while (warps_[w].active) ++w;
      Warp& warp = warps_[w];
      warp = Warp{};
      warp.trace = &wt;
      warp.cta = cta_index;
      warp.age = warp_age_++;
      warp.active = true;
      set_head(w, Head{});
      touch(w);
      if (wt.inst.empty()) {
        warp.issued_all = true;
      } else {
        ++slot->live;
      }
      slot->warps.push_back(w);
      SubCore& sc = subcores_[w % subcores_.size()];
      sc.warps.push_back(w);
      refresh_fetchable(w);
      sc.by_slot.insert(std::upper_bound(sc.by_slot.begin(), sc.by_slot.end(), w), w);
      ++resident_warps_;
    }
    ++resident_ctas_;
    ++next_cta_;
    activity_ = true;
    for (uint32_t w : std::vector<uint32_t>(slot->warps)) retire(w);  // empty warps
  }
}

// The CTA the SM launches next: held, or read back from the spill file once.
const CtaTrace& SmSim::next_cta() {
  const CtaRef& ref = work_.ctas[next_cta_];
  if (ref.held) return *ref.held;
  if (!next_loaded_) {
    std::string bytes;
    work_.spill->read(ref.spilled, bytes);
    next_loaded_ = std::make_unique<CtaTrace>(stream::decode<CtaTrace>(stream::Record(bytes, "spilled cta record")));
  }
  return *next_loaded_;
}

// The first free CTA slot whose launch latency has passed, or null (then
// the simulation wakes when the earliest one is ready).
SmSim::CtaSlot* SmSim::launchable_slot() {
  uint64_t latency = gpu().cta_launch_latency, earliest = kNever;
  for (CtaSlot& c : ctas_) {
    if (c.cta) continue;
    if (c.freed_at + latency <= now_) return &c;
    earliest = std::min(earliest, c.freed_at + latency);
  }
  wake_at(earliest);
  return nullptr;
}

// Ends a warp that has issued everything and has nothing in flight, and
// its CTA when that was the CTA's last warp.
void SmSim::retire(uint32_t w) {
  Warp& warp = warps_[w];
  if (!warp.active || !warp.issued_all || warp.outstanding > 0) return;
  warp.active = false;
  refresh_fetchable(w);
  set_head(w, Head{});
  touch(w);
  --resident_warps_;
  SubCore& sc = subcores_[w % subcores_.size()];
  sc.warps.erase(std::find(sc.warps.begin(), sc.warps.end(), w));
  sc.by_slot.erase(std::find(sc.by_slot.begin(), sc.by_slot.end(), w));
  CtaSlot& c = ctas_[warp.cta];
  if (++c.done == c.warps.size()) {
    c = CtaSlot{};
    c.freed_at = now_ + 1;  // the next CTA could start next cycle
    --resident_ctas_;
    ++res_.counters.ctas;
  }
  activity_ = true;
}

void SmSim::begin_cycle() {
  activity_ = false;
  wake_ = kNever;
  while (!mshr_release_.empty() && mshr_release_.top() <= now_) mshr_release_.pop();
  for (auto& sc : subcores_) {
    sc.events = CycleEvents{};
    sc.issued = false;
    std::fill(sc.ports.begin(), sc.ports.end(), 0);
  }
}

void SmSim::record(SubCore& sc, uint8_t index, uint64_t cycle, const Attribution& a, uint64_t count) {
  auto& c = res_.counters;
  c.stall_type[static_cast<size_t>(a.type)] += count;
  c.stall_event[static_cast<size_t>(a.event)] += count;
  bool blame = a.direct != StallEvent::None && a.direct != StallEvent::NoActiveWarp;
  uint32_t pc = sc.events.pc[static_cast<size_t>(a.direct)];
  if (blame) res_.pc_stalls[static_cast<size_t>(a.type)][pc] += count;
  if (!opt_.trace_stalls) return;
  for (uint64_t i = 0; i < count && res_.trace.size() < opt_.trace_stalls_limit; ++i)
    res_.trace.push_back(StallTraceRow{cycle + i, index, false, a, blame ? prog_.pcs[pc] : 0, blame});
}

void SmSim::account_cycle(uint64_t cycle) {
  auto& c = res_.counters;
  c.sched_cycles += subcores_.size();
  c.warp_cycles += resident_warps_;
  for (size_t i = 0; i < subcores_.size(); ++i) {
    SubCore& sc = subcores_[i];
    sc.history.push(sc.events);
    if (sc.issued) {
      if (opt_.trace_stalls && res_.trace.size() < opt_.trace_stalls_limit)
        res_.trace.push_back(StallTraceRow{cycle, uint8_t(i), true, {}, prog_.pcs[sc.issued_pc], true});
      continue;
    }
    record(sc, uint8_t(i), cycle, sc.history.attribute_latest(!sc.warps.empty()), 1);
  }
}

// Cycles [from, to) in which nothing changed: every scheduler sees the
// events of the last evaluated cycle again. After two such cycles its
// three-cycle history is uniform, so the rest repeat one attribution.
void SmSim::account_quiet_cycles(uint64_t from, uint64_t to) {
  if (to <= from) return;
  uint64_t n = to - from;
  auto& c = res_.counters;
  c.sched_cycles += n * subcores_.size();
  c.warp_cycles += n * resident_warps_;
  for (size_t i = 0; i < subcores_.size(); ++i) {
    SubCore& sc = subcores_[i];
    if (sc.latch.busy) c.units[static_cast<size_t>(UnitClass::Ldst)].busy_cycles += n;
    bool resident_here = !sc.warps.empty();
    uint64_t cycle = from;
    for (; cycle < to && cycle < from + 2; ++cycle) {
      sc.history.push(sc.events);
      record(sc, uint8_t(i), cycle, sc.history.attribute_latest(resident_here), 1);
    }
    if (cycle < to) record(sc, uint8_t(i), cycle, sc.history.attribute_latest(resident_here), to - cycle);
  }
}

}  // namespace sasskit::pipesim
