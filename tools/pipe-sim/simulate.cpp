#include "simulate.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "gpu_timeline.hpp"
#include "kernel_stats.hpp"
#include "formats/kernel_placement.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/nonstall.hpp"
#include "libcommon/placement.hpp"

namespace sasskit::pipesim {
namespace {

// A CTA of the stream as placement sees it: where it lies in the grid, its
// entry in the schedule's arrays, its HyFiSS non-stall time (Eq. 2) and how
// the SM reaches its trace.
struct PlacedCta {
  uint64_t linear = 0;
  uint64_t slot = 0;
  uint64_t cycles = 0;
  CtaRef ref;
};

// Every CTA of the kernel, held or spilled, in grid order (stable: as they
// came within a grid index), each numbered by its rank: without a sched
// record, placement models the CTAs the stream holds, in grid order (all of
// the grid for an unsampled stream, so the same schedule as over the grid),
// and never allocates for CTAs a declared grid has but the data does not
// (formats/SECURITY.md).
std::vector<PlacedCta> stream_ctas(const KernelInput& k, const KernelProgram& program, const NonStallModel& model) {
  std::vector<PlacedCta> out;
  for (const CtaTrace& c : k.ctas) {
    UnitCounts counts = count_units(c.warps, [&](uint32_t inst) { return program.insts[inst].op.unit; });
    uint64_t linear = stream::cta_linear_index(c.cta, k.info.grid, stream::kernel_label(k.info),
                                               "kernel " + std::to_string(k.info.id));
    out.push_back(PlacedCta{linear, 0, predicted_cta_cycles(model, counts), CtaRef(&c)});
  }
  for (const SpilledCta& c : k.spilled)
    out.push_back(PlacedCta{c.linear, 0, predicted_cta_cycles(model, c.units), CtaRef(c.record, c.insts)});
  std::stable_sort(out.begin(), out.end(), [](const PlacedCta& a, const PlacedCta& b) { return a.linear < b.linear; });
  for (size_t i = 0; i < out.size(); ++i) out[i].slot = i;
  return out;
}

// The kernel's placement (libcommon/placement.hpp). One Placement plans the
// batch's kernels jointly, in launch order: a kernel of another stream takes
// the room on the SMs that the kernels launched before it leave, first on
// the SMs they use least (run_on_gpu's model, with predicted CTA times and
// launches). A sched record covers the whole grid, indexed by linear CTA
// index.
KernelSchedule place_kernel(const KernelInput& k, const KernelToPlace& to_place, Placement& placement,
                            std::vector<PlacedCta>& ctas) {
  std::vector<uint64_t> cycles;
  for (const PlacedCta& c : ctas) cycles.push_back(c.cycles);
  KernelSchedule sched = placement.place(to_place, k.sched ? &*k.sched : nullptr, cycles);
  if (k.sched)
    for (PlacedCta& c : ctas) c.slot = c.linear;
  return sched;
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
                       const ClassifierFor& classify, Placement& placement) {
  KernelPlan p;
  p.stream_id = launch_stream(gpu_sharing(opt.sim.gpu, opt.serial_kernels), k.info.stream_id);
  p.sim = opt.sim;
  const KernelToPlace to_place = stream::kernel_to_place(k.info, k.where);
  p.cta_load = cta_load(opt.sim.gpu, to_place.cta);
  p.sim.ctas_per_sm = resident_ctas(opt.sim.gpu, to_place);
  const uint64_t wave = uint64_t(p.sim.ctas_per_sm) * opt.sim.gpu.num_sms;
  p.sim.pkp.grid_below_wave = k.info.grid.volume() < wave;
  if (p.sim.pkp.enabled && p.sim.pkp.grid_below_wave)
    warn(stream::kernel_label(k.info), "PKP: its " + std::to_string(k.info.grid.volume()) +
                                           " CTAs are fewer than one wave (" + std::to_string(wave) +
                                           "): simulated in full, not projected");
  MemoryDefaults mem = opt.memory;
  p.program = build_program(k.info.id, k.table, code_base, classify(k.info.binary_version),
                            k.cache ? &*k.cache : nullptr, mem);
  std::vector<PlacedCta> ctas = stream_ctas(k, p.program, NonStallModel(opt.sim.gpu));
  const KernelSchedule sched = place_kernel(k, to_place, placement, ctas);
  p.schedule = k.sched ? "sched-record" : std::string(policy_name(opt.policy));
  p.sms = place_ctas(k, ctas, sched, opt.sim.gpu, spill);
  // Bandwidth is shared by every SM the whole grid runs on, also those whose
  // CTAs cta-sample left out of the stream.
  std::set<uint32_t> busy_sms(sched.sm.begin(), sched.sm.end());
  p.sim.active_sms = static_cast<unsigned>(std::max<size_t>(1, busy_sms.size()));
  plan_absent_sms(k, busy_sms, p);
  return p;
}

// The GPU the batch's kernels find: every earlier batch has ended.
TimelineStart timeline_start(const RunState& state) {
  TimelineStart start{state.stream_end, state.previous_start};
  for (const auto& [stream, end] : state.stream_end) start.floor = std::max(start.floor, end);
  return start;
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
  Placement placement(opt.sim.gpu, opt.policy, opt.serial_kernels);
  unsigned line = std::max(1u, opt.sim.gpu.l1i.line_bytes);
  for (const KernelInput& k : w.kernels) {
    plans.push_back(plan_kernel(k, w.spill.get(), state.code_base, opt, classify, placement));
    state.code_base += code_footprint(k.table, line);
  }
  std::vector<KernelRun> runs = run_on_gpu(plans, timeline_start(state), opt.sim.pkp, opt.threads);

  std::vector<KernelResult> results(plans.size());
  for (size_t k = 0; k < plans.size(); ++k) {
    const KernelInfo& info = w.kernels[k].info;
    KernelStats& s = results[k].stats;
    s.kernel_id = info.id;
    s.name = info.name;
    s.gpu = opt.sim.gpu.name;
    s.schedule = plans[k].schedule;
    s.memory = w.kernels[k].cache ? "cache-record" : "defaults";
    s.stream_id = info.stream_id;
    results[k].sms = std::move(runs[k].sms);
    merge_sm_results(plans[k].program, results[k].sms, s);
    s.projection.error_frac = runs[k].projection_error;
    s.start_cycle = runs[k].launch;
    state.stream_end[plans[k].stream_id] = s.start_cycle + s.cycles;
    state.previous_start = s.start_cycle;
    if (!opt.sim.trace_stalls) results[k].sms.clear();
  }
  return results;
}

}  // namespace sasskit::pipesim
