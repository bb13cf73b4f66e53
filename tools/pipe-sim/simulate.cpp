#include "simulate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <set>

#include "kernel_stats.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/nonstall.hpp"
#include "parallel.hpp"
#include "pkp.hpp"

namespace sasskit::pipesim {
namespace {

struct KernelPlan {
  KernelProgram program;
  SimOptions sim;
  std::vector<SmWork> sms;  // ascending SM number, only SMs with CTAs
  std::string schedule;
  // SMs of the grid that the stream left out: each counts as running while
  // the lead simulated SM (sms[lead]) has simulated less than this share of
  // its instructions.
  std::vector<double> absent_until;
  size_t lead = 0;
};

unsigned resident_ctas(const GpuConfig& gpu, const KernelInfo& k) {
  CtaResources need{static_cast<unsigned>(k.block.volume()), k.nregs, k.shmem};
  Occupancy occ = occupancy(gpu, need);
  if (occ.ctas_per_sm == 0)
    fail("kernel " + std::to_string(k.id) + " (" + k.name + "): GPU model '" + gpu.name +
         "' cannot hold one of its CTAs (" + std::to_string(need.threads) + " threads, " +
         std::to_string(need.regs_per_thread) + " registers per thread, " + std::to_string(need.smem_bytes) +
         " bytes of shared memory; limited by " + occ.limiter + ")");
  return occ.ctas_per_sm;
}

// A CTA of the stream as placement sees it: where it lies in the grid, its
// entry in the schedule's arrays, its HyFiSS non-stall time (Eq. 2) and how
// the SM reaches its trace.
struct PlacedCta {
  uint64_t linear = 0;
  uint64_t slot = 0;
  uint64_t cycles = 0;
  CtaRef ref;
};

// Every CTA of the kernel, held or spilled, in stream order. The non-stall
// time lets the modelled schedule give an SM with longer CTAs fewer of
// them, as cta-sample's schedule does.
std::vector<PlacedCta> stream_ctas(const KernelInput& k, const KernelProgram& program, const GpuConfig& gpu) {
  const NonStallModel model(gpu);
  auto cycles = [&](const UnitCounts& counts) { return static_cast<uint64_t>(std::ceil(model.cycles(counts))); };
  std::vector<PlacedCta> out;
  for (const CtaTrace& c : k.ctas) {
    UnitCounts counts = count_units(c.warps, [&](uint32_t inst) { return program.insts[inst].op.unit; });
    uint64_t linear = stream::cta_linear_index(c.cta, k.info.grid, stream::kernel_label(k.info),
                                               "kernel " + std::to_string(k.info.id));
    out.push_back(PlacedCta{linear, linear, cycles(counts), CtaRef(&c)});
  }
  for (const SpilledCta& c : k.spilled)
    out.push_back(PlacedCta{c.linear, c.linear, cycles(c.units), CtaRef(c.record, c.insts)});
  return out;
}

// The sched record covers the whole grid, indexed by linear CTA index (the
// reader checked its arrays against the data, not the declared grid).
KernelSchedule recorded_schedule(const KernelInput& k) {
  const uint64_t grid = k.info.grid.volume();
  if (k.sched->sm.size() != grid)
    fail_input("sched record of kernel " + std::to_string(k.info.id),
               "places " + std::to_string(k.sched->sm.size()) + " CTAs; the grid has " + std::to_string(grid));
  return *k.sched;
}

// Without a sched record, the modelled schedule covers the CTAs the stream
// holds, in grid order (all of the grid for an unsampled stream, so the
// same schedule as over the grid), and never allocates for CTAs a declared
// grid has but the data does not (formats/SECURITY.md).
KernelSchedule modelled_schedule(const KernelInput& k, unsigned ctas_per_sm, const RunOptions& opt,
                                 std::vector<PlacedCta>& ctas) {
  std::stable_sort(ctas.begin(), ctas.end(), [](const PlacedCta& a, const PlacedCta& b) { return a.linear < b.linear; });
  std::vector<uint64_t> cycles;
  for (size_t i = 0; i < ctas.size(); ++i) {
    ctas[i].slot = i;
    cycles.push_back(ctas[i].cycles);
  }
  return model_schedule(opt.sim.gpu, k.info.id, static_cast<uint32_t>(ctas.size()), ctas_per_sm, opt.policy, cycles);
}

// Which SM runs each CTA present in the stream, in launch order per SM.
std::vector<SmWork> place_ctas(const KernelInput& k, const std::vector<PlacedCta>& ctas, const KernelSchedule& sched,
                               const GpuConfig& gpu, const SpillFile* spill) {
  std::map<uint32_t, std::vector<std::pair<std::pair<uint64_t, uint64_t>, CtaRef>>> by_sm;
  for (const PlacedCta& c : ctas) {
    uint32_t sm = sched.sm[c.slot];
    if (sm >= gpu.num_sms)
      fail_input("sched record of kernel " + std::to_string(k.info.id),
                 "SM " + std::to_string(sm) + " does not exist in GPU model '" + gpu.name + "'");
    uint64_t start = c.slot < sched.start.size() ? sched.start[c.slot] : 0;
    by_sm[sm].push_back({{start, c.linear}, c.ref});
  }
  std::vector<SmWork> out;
  for (auto& [sm, list] : by_sm) {
    std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    SmWork w{sm, {}, spill};
    for (const auto& e : list) w.ctas.push_back(e.second);
    out.push_back(std::move(w));
  }
  return out;
}

// With cta-sample's predicted time per SM (HyFiSS Eq. 2), an SM left out
// runs while the lead kept SM, at the same pace, is short of the predicted
// ratio; without it, the SMs left out run throughout.
void plan_absent_sms(const KernelInput& k, const std::set<uint32_t>& busy_sms, KernelPlan& p) {
  std::set<uint32_t> absent = busy_sms;
  for (const SmWork& w : p.sms) absent.erase(w.sm);
  const KernelSample* sample = k.sample ? &*k.sample : nullptr;
  double lead_time = 0;
  if (sample && !sample->sms.empty() && sample->sms[0] < sample->predicted_cycles.size()) {
    lead_time = sample->predicted_cycles[sample->sms[0]];
    for (size_t i = 0; i < p.sms.size(); ++i)
      if (p.sms[i].sm == sample->sms[0]) p.lead = i;
  }
  for (uint32_t sm : absent) {
    bool predicted = lead_time > 0 && sm < sample->predicted_cycles.size();
    p.absent_until.push_back(predicted ? sample->predicted_cycles[sm] / lead_time
                                       : std::numeric_limits<double>::infinity());
  }
}

KernelPlan plan_kernel(const KernelInput& k, const SpillFile* spill, uint64_t code_base, const RunOptions& opt,
                       const ClassifierFor& classify) {
  KernelPlan p;
  p.sim = opt.sim;
  p.sim.ctas_per_sm = resident_ctas(opt.sim.gpu, k.info);
  const uint64_t wave = uint64_t(p.sim.ctas_per_sm) * opt.sim.gpu.num_sms;
  p.sim.pkp.grid_below_wave = k.info.grid.volume() < wave;
  if (p.sim.pkp.enabled && p.sim.pkp.grid_below_wave)
    warn(stream::kernel_label(k.info), "PKP: its " + std::to_string(k.info.grid.volume()) +
                                           " CTAs are fewer than one wave (" + std::to_string(wave) +
                                           "): simulated in full, not projected");
  MemoryDefaults mem = opt.memory;
  p.program = build_program(k.info.id, k.table, code_base, classify(k.info.binary_version),
                            k.cache ? &*k.cache : nullptr, mem);
  std::vector<PlacedCta> ctas = stream_ctas(k, p.program, opt.sim.gpu);
  KernelSchedule sched = k.sched ? recorded_schedule(k) : modelled_schedule(k, p.sim.ctas_per_sm, opt, ctas);
  p.schedule = k.sched ? "sched-record" : std::string(policy_name(opt.policy));
  p.sms = place_ctas(k, ctas, sched, opt.sim.gpu, spill);
  // Bandwidth is shared by every SM the whole grid runs on, also those whose
  // CTAs cta-sample left out of the stream.
  std::set<uint32_t> busy_sms(sched.sm.begin(), sched.sm.end());
  p.sim.active_sms = static_cast<unsigned>(std::max<size_t>(1, busy_sms.size()));
  plan_absent_sms(k, busy_sms, p);
  return p;
}

// Same stream: one after the other; different streams: side by side. Each
// kernel starts `launch_latency` cycles after its predecessor in the stream
// ends, and not before the kernel launched before it.
void place_on_timeline(const std::vector<KernelInput>& kernels, uint64_t launch_latency, RunState& state,
                       std::vector<KernelResult>& results) {
  for (size_t i = 0; i < results.size(); ++i) {
    KernelStats& s = results[i].stats;
    uint64_t& stream_end = state.stream_end[kernels[i].info.stream_id];
    s.start_cycle = std::max(state.previous_start, stream_end + launch_latency);
    stream_end = s.start_cycle + s.cycles;
    state.previous_start = s.start_cycle;
  }
}

// Runs every (kernel, SM) task in windows of kShareWindow cycles. Between
// windows, each SM still running gets 1 / n of the bandwidth, n the SMs of
// its kernel still running, plus those of the grid that the stream left out
// and that still run by plan_absent_sms. Tasks only meet at the window
// boundaries (and, with PKP, at the sampling steps within a window), so the
// results do not depend on the thread count.
constexpr uint64_t kShareWindow = 1000;

// The largest divisor of kShareWindow that is at most PKP's sampling
// interval: windows split into steps without moving their boundaries.
uint64_t step_cycles(const PkpOptions& pkp) {
  if (!pkp.enabled) return kShareWindow;
  uint64_t interval = Pkp(pkp, 1).interval(), step = 1;
  for (uint64_t d = 1; d <= std::min(interval, kShareWindow); ++d)
    if (kShareWindow % d == 0) step = d;
  return step;
}

// PKP over one kernel's SMs (pka-micro21 §3.2, at kernel level).
struct KernelWatch {
  Pkp pkp;
  std::vector<size_t> tasks;
  bool stopped = false;
};

std::vector<KernelWatch> watch_kernels(const std::vector<KernelPlan>& plans,
                                       const std::vector<std::pair<size_t, size_t>>& tasks) {
  std::vector<KernelWatch> out;
  for (const KernelPlan& p : plans) out.push_back(KernelWatch{Pkp(p.sim.pkp, uint64_t(p.sim.ctas_per_sm) * p.sms.size()), {}});
  for (size_t i = 0; i < tasks.size(); ++i) out[tasks[i].first].tasks.push_back(i);
  return out;
}

// Stops every SM of a kernel whose GPU-wide IPC is stable at `cycle`, with
// the kernel's end projected from its unfinished CTAs.
void apply_pkp(std::vector<KernelWatch>& watches, std::vector<std::unique_ptr<SmSim>>& sims, uint64_t cycle) {
  for (KernelWatch& w : watches) {
    if (w.stopped || w.tasks.empty()) continue;
    uint64_t insts = 0, trace = 0, finished = 0, total = 0;
    for (size_t i : w.tasks) {
      insts += sims[i]->simulated_insts();
      trace += sims[i]->trace_insts();
      finished += sims[i]->finished_ctas();
      total += sims[i]->ctas();
    }
    if (!w.pkp.stable(cycle, insts, finished, total)) continue;
    w.stopped = true;
    uint64_t end = cycle + Pkp::remaining_cycles(cycle, insts, trace);
    for (size_t i : w.tasks) sims[i]->stop(end);
  }
}

void share_bandwidth(const std::vector<KernelPlan>& plans, const std::vector<std::pair<size_t, size_t>>& tasks,
                     const std::vector<std::unique_ptr<SmSim>>& sims, const std::vector<size_t>& running) {
  std::vector<size_t> lead_task(plans.size());
  for (size_t i = 0; i < tasks.size(); ++i)
    if (tasks[i].second == plans[tasks[i].first].lead) lead_task[tasks[i].first] = i;
  std::vector<unsigned> sharing(plans.size());
  for (size_t k = 0; k < plans.size(); ++k) {
    if (plans[k].sms.empty()) continue;
    double progress = sims[lead_task[k]]->progress();
    for (double until : plans[k].absent_until) sharing[k] += progress < until;
  }
  for (size_t i : running) ++sharing[tasks[i].first];
  for (size_t i : running) sims[i]->share_bandwidth(sharing[tasks[i].first]);
}

std::vector<SmResult> run_in_windows(const std::vector<KernelPlan>& plans,
                                     const std::vector<std::pair<size_t, size_t>>& tasks, const PkpOptions& pkp,
                                     unsigned threads) {
  std::vector<std::unique_ptr<SmSim>> sims;
  for (const auto& [k, s] : tasks) sims.push_back(std::make_unique<SmSim>(plans[k].sim, plans[k].program, plans[k].sms[s]));
  std::vector<size_t> running(tasks.size());
  std::iota(running.begin(), running.end(), size_t(0));
  std::vector<KernelWatch> watches = watch_kernels(plans, tasks);
  const uint64_t step = step_cycles(pkp);
  for (uint64_t limit = step; !running.empty(); limit += step) {
    if ((limit - step) % kShareWindow == 0) share_bandwidth(plans, tasks, sims, running);
    std::vector<char> more(running.size());
    parallel_for(running.size(), threads, [&](size_t j) { more[j] = sims[running[j]]->run_until(limit); });
    apply_pkp(watches, sims, limit);
    std::vector<size_t> still;
    for (size_t j = 0; j < running.size(); ++j)
      if (more[j] && !watches[tasks[running[j]].first].stopped) still.push_back(running[j]);
    running = std::move(still);
  }
  std::vector<SmResult> done;
  for (auto& sim : sims) done.push_back(sim->finish());
  return done;
}

}  // namespace

std::vector<KernelResult> simulate_workload(const Workload& w, const RunOptions& opt,
                                            const ClassifierFor& classify) {
  RunState fresh;
  return simulate_workload(w, opt, classify, fresh);
}

std::vector<KernelResult> simulate_workload(const Workload& w, const RunOptions& opt,
                                            const ClassifierFor& classify, RunState& state) {
  std::vector<KernelPlan> plans;
  unsigned line = std::max(1u, opt.sim.gpu.l1i.line_bytes);
  for (const KernelInput& k : w.kernels) {
    plans.push_back(plan_kernel(k, w.spill.get(), state.code_base, opt, classify));
    state.code_base += code_footprint(k.table, line);
  }
  std::vector<std::pair<size_t, size_t>> tasks;  // (kernel, SM position)
  for (size_t k = 0; k < plans.size(); ++k)
    for (size_t s = 0; s < plans[k].sms.size(); ++s) tasks.push_back({k, s});
  std::vector<SmResult> done = run_in_windows(plans, tasks, opt.sim.pkp, opt.threads);

  std::vector<KernelResult> results(plans.size());
  for (size_t i = 0; i < tasks.size(); ++i) results[tasks[i].first].sms.push_back(std::move(done[i]));
  for (size_t k = 0; k < plans.size(); ++k) {
    const KernelInfo& info = w.kernels[k].info;
    KernelStats& s = results[k].stats;
    s.kernel_id = info.id;
    s.name = info.name;
    s.gpu = opt.sim.gpu.name;
    s.schedule = plans[k].schedule;
    s.memory = w.kernels[k].cache ? "cache-record" : "defaults";
    s.stream_id = info.stream_id;
    merge_sm_results(plans[k].program, results[k].sms, s);
    if (!opt.sim.trace_stalls) results[k].sms.clear();
  }
  place_on_timeline(w.kernels, opt.sim.gpu.kernel_launch_latency, state, results);
  return results;
}

}  // namespace sasskit::pipesim
