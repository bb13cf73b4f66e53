#include "sm.hpp"

#include <algorithm>
#include <cmath>

#include "libcommon/diag.hpp"

namespace sasskit::pipesim {
namespace {

#ifdef NDEBUG
constexpr bool kCheckWarpTable = false;
#else
constexpr bool kCheckWarpTable = true;
#endif

unsigned subcores(const GpuConfig& g) { return std::max(1u, g.subcores_per_sm); }

}  // namespace

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
      work_(work),
      ports_(subcores(opt.gpu)),
      wiring_(opt.gpu, program, clock_, ports_, res_.counters),
      warps_(wiring_, opt.ctas_per_sm, opt.lrr_mask_scan && opt.gpu.scheduler == SchedulerPolicy::Lrr),
      frontend_(wiring_, opt.fetch_width),
      exec_(wiring_),
      memory_(wiring_, LatchOutlet(exec_, warps_)),
      collectors_(wiring_),
      issue_target_(warps_, collectors_),
      dispatch_target_{exec_, memory_},
      scheduler_(wiring_, res_.pc_insts, warps_.heads(), issue_target_, opt.lrr_mask_scan),
      accounting_(opt, program, ports_, warps_, res_) {
  memory_.share_bandwidth(BandwidthShare::equal(opt.active_sms));
  res_.sm = work.sm;
  res_.pc_insts.assign(program.pcs.size(), 0);
  for (auto& col : res_.pc_stalls) col.assign(program.pcs.size(), 0);
  res_.counters.max_warps = warps_.slots();
  if (opt.gpu.cta_dispatch_rate > 0) {
    dispatch_at_ = work.dispatch_rank / opt.gpu.cta_dispatch_rate;
    dispatch_interval_ = opt.active_sms / opt.gpu.cta_dispatch_rate;
  }
  for (uint32_t c : work.ctas) res_.trace_insts += work.source.insts(c);
}

bool SmSim::run_until(uint64_t limit) {
  while (busy() && !stopped_ && clock_.now < limit) {
    step();
    if (opt_.latch_streaks && !others_.activity && !latch_emptied_) run_latch_streak(limit);
    uint64_t next = clock_.next();
    if (busy() && next == kNever)
      throw Error(ExitCode::Internal, "SM " + std::to_string(work_.sm),
                  "simulation deadlock at cycle " + std::to_string(clock_.now) + ": please report this trace");
    if (!busy()) next = clock_.now + 1;
    account_quiet_cycles(clock_.now + 1, next);
    clock_.now = next;
  }
  return busy() && !stopped_;
}

// One evaluated cycle: the stages in pipeline order, back to front, so
// that what a stage frees this cycle is taken by the stage before it next
// cycle; fetch goes after issue and refills the slots issue freed.
void SmSim::step() {
  const unsigned n = static_cast<unsigned>(ports_.size());
  clock_.take();
  for (auto& port : ports_) port.new_cycle();
  launch_ctas();
  for (unsigned s = 0; s < n; ++s) exec_.write_back(s, warps_);
  upstream_ = clock_.take();
  latch_emptied_ = memory_.cycle();
  finish_cycle();
}

// The stages after the memory pipeline, and the cycle's accounting.
inline void SmSim::finish_cycle() {
  const unsigned n = static_cast<unsigned>(ports_.size());
  const Clock::Requests latches = clock_.take();
  if (!collectors_.idle()) {
    for (unsigned s = 0; s < n; ++s) collectors_.dispatch(s, dispatch_target_);
    for (unsigned s = 0; s < n; ++s) collectors_.read_operands(s);
  }
  for (unsigned s = 0; s < n; ++s) scheduler_.issue(s);
  frontend_.arbitrate();
  for (unsigned s = 0; s < n; ++s) frontend_.fetch(s, warps_);
  others_ = upstream_;
  others_.add(clock_.take());
  clock_.asked = latches;
  clock_.asked.add(others_);
  accounting_.account_cycle(clock_.now);
  if (kCheckWarpTable || opt_.check_warp_table) warps_.check();
}

// The cycles after one in which no stage but the memory pipeline
// progressed and no address latch emptied. Until the first cycle another
// stage asked to wake at, every other stage does in each cycle what it did
// in that one (the clock's contract; the latches change nothing the others
// read until one empties) and adds the same stall events: so only the
// latches' requests are booked, a cycle at a time, each cycle's events are
// the last one's with the memory pipeline's own renewed, and each
// scheduler's cycles are accounted in runs of cycles with the same events.
// In a cycle in which a latch empties, the later stages run for real and
// the streak ends.
void SmSim::run_latch_streak(uint64_t limit) {
  const uint64_t others_wake = others_.wake;
  const uint64_t end = std::min({others_wake, limit, accounting_.traceable_until(clock_.now + 1)});
  accounting_.begin_streak(clock_.now + 1);
  for (uint64_t next = clock_.next(); next < end; next = clock_.next()) {
    memory_.count_quiet_cycles(next - clock_.now - 1);
    clock_.now = next;
    clock_.take();
    for (auto& port : ports_) port.events.forget(MemoryPipeline::kCycleEvents);
    if (memory_.cycle()) {
      accounting_.end_streak(clock_.now);
      for (auto& port : ports_) port.restart_with(MemoryPipeline::kCycleEvents);
      latch_emptied_ = true;
      finish_cycle();
      return;
    }
    clock_.wake_at(others_wake);
    accounting_.account_streak_cycle(clock_.now, MemoryPipeline::kCycleEvents);  // only the latches' events renew
  }
  accounting_.end_streak(clock_.now + 1);
}

void SmSim::account_quiet_cycles(uint64_t from, uint64_t to) {
  if (to <= from) return;
  accounting_.account_repeated_cycles(from, to);
  memory_.count_quiet_cycles(to - from);
}

SmResult SmSim::finish() {
  res_.cycles = clock_.now;
  res_.counters.active_cycles = clock_.now;
  res_.counters.sm_cycles = clock_.now;
  res_.simulated_insts = res_.counters.insts;
  res_.projected_cycles = res_.projected ? std::max(res_.projected_cycles, clock_.now) : clock_.now;
  frontend_.add_counters(res_.counters);
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
  while (next_cta_ < work_.ctas.size() && warps_.resident_ctas() < warps_.cta_slots()) {
    const CtaTrace& cta = next_cta();
    if (warps_.resident_warps() + cta.warps.size() > warps_.slots()) {
      if (warps_.resident_ctas() == 0)
        fail("a CTA of kernel " + std::to_string(cta.kernel_id) + " has " + std::to_string(cta.warps.size()) +
             " warps; the SM holds " + std::to_string(warps_.slots()));
      return;
    }
    const auto dispatched = static_cast<uint64_t>(std::ceil(dispatch_at_));
    if (clock_.now < dispatched) {
      clock_.wake_at(dispatched);
      return;
    }
    CtaSlot* slot = warps_.launchable_slot(opt_.gpu.cta_launch_latency);
    if (!slot) return;
    const std::vector<uint32_t> launched = warps_.launch(*slot, cta, std::move(next_loaded_));
    ++next_cta_;
    // The next dispatch follows this one; a CTA that waited for a slot
    // restarts the interval from its own launch.
    const double now = double(clock_.now);
    dispatch_at_ = (now - dispatch_at_ < 1 ? dispatch_at_ : now) + dispatch_interval_;
    clock_.progressed();
    for (uint32_t w : launched) warps_.retire(w);  // empty warps
  }
}

// The CTA the SM launches next: held, or read back from the spill file once.
const CtaTrace& SmSim::next_cta() {
  const CtaSource& source = work_.source;
  const uint32_t i = work_.ctas[next_cta_];
  if (source.held) return (*source.held)[i];
  if (!next_loaded_) {
    next_loaded_ = warps_.spare_trace();
    source.read_back(i, *next_loaded_, record_bytes_);
  }
  return *next_loaded_;
}

}  // namespace sasskit::pipesim
