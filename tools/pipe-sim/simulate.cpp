#include "simulate.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <iterator>
#include <set>

#include "gpu_timeline.hpp"
#include "kernel_stats.hpp"
#include "formats/kernel_placement.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/nonstall.hpp"
#include "libcommon/placement.hpp"

namespace sasskit::pipesim {
namespace {

// What placement needs of a kernel's held CTAs, as the reader keeps of
// spilled ones.
CtaSummaries summarize_held(const KernelInput& k, const KernelProgram& program) {
  CtaSummaries out;
  for (const CtaTrace& c : k.ctas)
    out.add(stream::cta_linear_index(c.cta, k.info.grid, stream::kernel_label(k.info),
                                     "kernel " + std::to_string(k.info.id)),
            count_units(c.warps, [&](uint32_t inst) { return program.insts[inst].op.unit; }));
  return out;
}

// The kernel's CTAs in grid order (stable: as they came within a grid
// index), by their place in the stream. Without a sched record, placement
// models the CTAs the stream holds, ranked 0, 1, ... in this order (all of
// the grid for an unsampled stream, so the same schedule as over the grid),
// and never allocates for CTAs a declared grid has but the data does not
// (formats/SECURITY.md).
class GridOrder {
 public:
  explicit GridOrder(const CtaSummaries& ctas) : size_(static_cast<uint32_t>(ctas.size())) {
    auto linear = [&](uint32_t i) { return ctas.linear(i); };
    bool in_order = true;  // (clang 14 cannot use libstdc++ 12's views::iota)
    for (uint32_t i = 1; i < size_ && in_order; ++i) in_order = linear(i - 1) <= linear(i);
    if (in_order) return;
    place_.resize(size_);
    std::iota(place_.begin(), place_.end(), 0u);
    std::ranges::stable_sort(place_, {}, linear);
  }
  uint32_t size() const { return size_; }
  // The place in the stream of the CTA of rank `rank`.
  uint32_t operator[](uint32_t rank) const { return place_.empty() ? rank : place_[rank]; }

 private:
  uint32_t size_;
  std::vector<uint32_t> place_;  // by rank; empty while the stream is in grid order, as an unsampled one is
};

// Each CTA's HyFiSS non-stall time (Eq. 2) in grid order, computed once per
// distinct instruction counts.
std::vector<uint64_t> predicted_cycles(const CtaSummaries& ctas, const GridOrder& order,
                                       const NonStallModel& model) {
  const std::vector<uint64_t> of_distinct = predicted_cycles_by_id(model, ctas.distinct());
  std::vector<uint64_t> out;
  out.reserve(order.size());
  for (uint32_t rank = 0; rank < order.size(); ++rank) out.push_back(of_distinct[ctas.units_id(order[rank])]);
  return out;
}

// Which SM runs each CTA present in the stream, in launch order per SM (by
// start, then grid order). A sched record covers the whole grid, indexed by
// linear CTA index; a modeled schedule the CTAs by rank in `order`.
std::vector<SmWork> place_ctas(const KernelInput& k, const CtaSummaries& ctas, const GridOrder& order,
                               const KernelSchedule& sched, const GpuConfig& gpu, const CtaSource& source) {
  auto slot = [&](uint32_t rank) { return k.sched ? ctas.linear(order[rank]) : uint64_t{rank}; };
  std::vector<uint32_t> per_sm(gpu.num_sms);
  for (uint32_t rank = 0; rank < order.size(); ++rank) {
    const uint32_t sm = sched.sm[slot(rank)];
    if (sm >= gpu.num_sms)
      fail_input("sched record of kernel " + std::to_string(k.info.id),
                 "SM " + std::to_string(sm) + " does not exist in GPU model '" + gpu.name + "'");
    ++per_sm[sm];
  }
  std::vector<SmWork> out;
  std::vector<size_t> work_of(gpu.num_sms);
  for (uint32_t sm = 0; sm < gpu.num_sms; ++sm) {
    if (per_sm[sm] == 0) continue;
    work_of[sm] = out.size();
    out.push_back(SmWork{sm, {}, source});
    out.back().ctas.reserve(per_sm[sm]);
  }
  for (uint32_t rank = 0; rank < order.size(); ++rank) out[work_of[sched.sm[slot(rank)]]].ctas.push_back(rank);
  auto start = [&](uint32_t rank) {
    const uint64_t s = slot(rank);
    return s < sched.start.size() ? sched.start[s] : 0;
  };
  for (SmWork& w : out) {
    std::ranges::stable_sort(w.ctas, {}, start);
    for (uint32_t& c : w.ctas) c = order[c];
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
  p.stream_id = placement.rules().stream_of(k.info.stream_id);
  p.sim = opt.sim;
  const KernelToPlace to_place = stream::kernel_to_place(k.info, k.where);
  p.cta_load = cta_load(opt.sim.gpu, to_place.cta);
  p.sim.ctas_per_sm = resident_ctas(opt.sim.gpu, to_place);
  const uint64_t wave = uint64_t(p.sim.ctas_per_sm) * opt.sim.gpu.num_sms;
  p.sim.pkp.grid_below_wave = k.info.grid.volume() < wave;
  MemoryDefaults mem = opt.memory;
  p.program = build_program(k.info.id, k.table, code_base, classify(k.info.binary_version),
                            k.cache ? &*k.cache : nullptr, mem);
  const CtaSummaries held = summarize_held(k, p.program);
  const CtaSummaries& ctas = k.ctas.empty() ? k.spilled : held;
  const GridOrder order(ctas);
  // One Placement plans the batch's kernels jointly, in launch order: a
  // kernel of another stream takes the room on the SMs that the kernels
  // launched before it leave, first on the SMs they use least (run_on_gpu's
  // model, with predicted CTA times and launches).
  const KernelSchedule sched =
      placement.place(to_place, k.sched ? &*k.sched : nullptr,
                      k.sched ? std::vector<uint64_t>{} : predicted_cycles(ctas, order, NonStallModel(opt.sim.gpu)));
  p.schedule = k.sched ? "sched-record" : std::string(policy_name(opt.policy));
  const CtaSource source = k.ctas.empty() ? CtaSource{nullptr, &k.spilled, spill, k.first_spilled} : CtaSource{&k.ctas};
  p.sms = place_ctas(k, ctas, order, sched, opt.sim.gpu, source);
  // Bandwidth is shared by every SM the whole grid runs on, also those whose
  // CTAs cta-sample left out of the stream.
  std::set<uint32_t> busy_sms(sched.sm.begin(), sched.sm.end());
  p.sim.active_sms = static_cast<unsigned>(std::max<size_t>(1, busy_sms.size()));
  for (SmWork& w : p.sms)
    w.dispatch_rank = static_cast<uint32_t>(std::distance(busy_sms.begin(), busy_sms.find(w.sm)));
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
  std::vector<KernelRun> runs = run_on_gpu(plans, timeline_start(state), placement.rules(), opt.sim.pkp, opt.threads);

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
    runs[k].merged.finish(plans[k].program, s);
    s.projection.error_frac = runs[k].projection_error;
    s.start_cycle = runs[k].launch;
    state.stream_end[plans[k].stream_id] = s.start_cycle + s.cycles;
    state.previous_start = s.start_cycle;
  }
  return results;
}

}  // namespace sasskit::pipesim
