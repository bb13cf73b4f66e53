#include "cache_model.hpp"

#include <algorithm>

#include "libcommon/diag.hpp"
#include "libcommon/parallel.hpp"

namespace sasskit::rdcache {

uint64_t KernelCounts::gmem_requests() const {
  uint64_t n = 0;
  for (size_t op = 0; op < kOps; ++op) n += traffic[static_cast<size_t>(MemSpace::Global) * kOps + op].requests;
  return n;
}

// Sectors one SM sends to L2, in its issue order.
struct L2Request {
  uint32_t kernel = 0;  // of the run
  uint32_t inst = 0;
  bool lookup = true;  // L2 allocates them
  Op op = Op::Load;
  uint32_t begin = 0, end = 0;  // into SmPass::l2_lines
};

// One kernel's CTAs on one SM, issued group after group: its CTAs in order
// of start, `ctas_per_sm` at a time. A group is a stretch of that order and
// its placed time (its first start to its last end) is worked out as it is
// loaded, so memory holds 4 bytes a CTA rather than a list a group.
struct CacheModel::Lane {
  Lane(const KernelRun& kernel_run, std::vector<uint32_t> ctas_in_order)
      : run(&kernel_run), ctas(std::move(ctas_in_order)), per_group(kernel_run.ctas_per_sm) {
    counts.inst.resize(kernel_run.kernel.table.size());
  }
  const KernelRun* run;
  std::vector<uint32_t> ctas;  // the SM's, in order of start
  size_t per_group;
  KernelCounts counts;  // traffic, l1, inst (traffic and l1)
  uint64_t warp_insts = 0;
  size_t next_group = 0;
  uint64_t group_begin = 0, group_end = 0;  // the loaded group's placed time
  std::vector<CtaAccesses> group;  // the resident group
  std::vector<MemRef> refs;        // its memory instructions in issue order
  size_t next_ref = 0;
  double last_time = 0;  // of the request issued last
  size_t groups() const { return (ctas.size() + per_group - 1) / per_group; }
  bool done() const { return next_ref == refs.size() && next_group == groups(); }
  std::span<const uint32_t> group_ctas(size_t g) const {
    const size_t first = g * per_group;
    return std::span(ctas).subspan(first, std::min(per_group, ctas.size() - first));
  }
  uint64_t placed_start(uint32_t cta) const {
    const uint32_t linear = run->ctas.linear(cta);
    return run->schedule.launch + (linear < run->schedule.start.size() ? run->schedule.start[linear] : 0);
  }
  // Sets the placed time of group `g`, to be loaded.
  void place_group(size_t g) {
    const std::span<const uint32_t> members = group_ctas(g);
    group_begin = placed_start(members.front());
    group_end = 0;
    for (uint32_t c : members)
      group_end = std::max(group_end, placed_end(run->schedule, run->cta_cycles, run->ctas.linear(c)));
  }
  // When its next request issues, or its next group starts (to be loaded).
  double next_time() const {
    if (next_ref == refs.size()) return std::max(last_time, double(placed_start(ctas[next_group * per_group])));
    const double spread = double(group_end - group_begin) * double(next_ref) / double(refs.size());
    return std::max(last_time, double(group_begin) + spread);
  }
};

// One SM's L1 pass over its lanes, resumed for each chunk of its requests
// to L2.
struct CacheModel::SmPass {
  SmPass(const GpuConfig& gpu, const std::vector<SweepPoint>& sweep) : l1(Level::L1, gpu.l1d, sweep) {}
  std::vector<Lane> lanes;           // per kernel of the run
  std::vector<L2Request> l2;         // this chunk's
  std::vector<LineAccess> l2_lines;  // L1 lines, with the sectors bound for L2
  LevelStacks l1;
  bool done() const {
    return std::all_of(lanes.begin(), lanes.end(), [](const Lane& l) { return l.done(); });
  }
  // The lane whose request issues next: the earliest, the first on a tie.
  size_t next_lane() const {
    size_t best = lanes.size();
    for (size_t k = 0; k < lanes.size(); ++k)
      if (!lanes[k].done() && (best == lanes.size() || lanes[k].next_time() < lanes[best].next_time())) best = k;
    return best;
  }
};

CacheModel::CacheModel(const GpuConfig& gpu, std::unique_ptr<AccessOrder> order,
                       std::vector<SweepPoint> sweep, unsigned threads)
    : gpu_(gpu), order_(std::move(order)), sweep_(std::move(sweep)), threads_(std::max(1u, threads)),
      l2_(Level::L2, gpu.l2, sweep_) {
  // Checks the L1 geometry and sweep points now rather than at the first kernel.
  LevelStacks(Level::L1, gpu_.l1d, sweep_);
  if (gpu_.num_sms == 0) fail_usage("the GPU model has no SMs (num-sms is 0)");
}

void CacheModel::copy_to_l2(uint64_t address, uint64_t bytes) {
  uint64_t keep = gpu_.l2.size_bytes;
  for (const SweepPoint& p : sweep_)
    if (p.level == Level::L2) keep = std::max(keep, p.size_bytes);
  if (bytes > keep) {
    address += bytes - keep;
    bytes = keep;
  }
  const unsigned line = l2_.shape().line_bytes;
  std::vector<LineAccess> lines;
  for (uint64_t a = address - address % line; a < address + bytes; a += line) {
    const uint64_t from = std::max(a, address), to = std::min(a + line, address + bytes);
    const uint64_t start[1] = {from};
    coalesce(start, static_cast<uint32_t>(to - from), l2_.shape(), lines);
    for (const LineAccess& l : lines) l2_.access(l, false, false);
  }
}

uint64_t placed_end(const KernelSchedule& schedule, std::span<const uint64_t> cta_cycles, uint32_t linear) {
  const uint64_t start = linear < schedule.start.size() ? schedule.start[linear] : 0;
  return schedule.launch + start + std::max<uint64_t>(1, linear < cta_cycles.size() ? cta_cycles[linear] : 0);
}

namespace {

// Per SM, the kernel's CTAs in order of start (then launch order).
std::vector<std::vector<uint32_t>> ctas_by_sm(const KernelRun& run, unsigned num_sms) {
  const KernelAccesses& kernel = run.kernel;
  const CtaSource& ctas = run.ctas;
  const KernelSchedule& schedule = run.schedule;
  std::vector<std::vector<uint32_t>> on_sm(num_sms);
  std::vector<size_t> per_sm(num_sms);  // each SM's vector is sized once: no spare capacity per CTA
  for (uint32_t c = 0; c < ctas.size(); ++c) {
    const uint32_t linear = ctas.linear(c);
    if (linear < schedule.sm.size() && schedule.sm[linear] < num_sms) ++per_sm[schedule.sm[linear]];
  }
  for (unsigned sm = 0; sm < num_sms; ++sm) on_sm[sm].reserve(per_sm[sm]);
  for (uint32_t c = 0; c < ctas.size(); ++c) {
    const uint32_t linear = ctas.linear(c);
    if (linear >= schedule.sm.size())
      fail_input("kernel " + std::to_string(kernel.info.id),
                 "the schedule has no SM for CTA " + std::to_string(linear));
    if (schedule.sm[linear] >= num_sms)
      fail_input("kernel " + std::to_string(kernel.info.id),
                 "CTA " + std::to_string(linear) + " is scheduled on SM " +
                     std::to_string(schedule.sm[linear]) + " of a GPU with " + std::to_string(num_sms));
    on_sm[schedule.sm[linear]].push_back(c);
  }
  auto start = [&](uint32_t c) {
    const uint32_t linear = ctas.linear(c);
    return linear < schedule.start.size() ? schedule.start[linear] : 0;
  };
  for (std::vector<uint32_t>& mine : on_sm)
    std::stable_sort(mine.begin(), mine.end(), [&](uint32_t a, uint32_t b) {
      return std::pair(start(a), ctas.linear(a)) < std::pair(start(b), ctas.linear(b));
    });
  return on_sm;
}

}  // namespace

// Runs the SM's memory instructions through its L1 until this chunk holds
// kL2Chunk requests to L2 or the SM's CTAs are done.
void CacheModel::advance_sm(std::span<const KernelRun> kernels, SmPass& pass) const {
  pass.l2.clear();
  pass.l2_lines.clear();
  LevelStacks& l1 = pass.l1;
  while (pass.l2.size() < kL2Chunk && !pass.done()) {
    const bool alone = pass.lanes.size() == 1;  // one kernel: no times to merge by
    const size_t k = alone ? 0 : pass.next_lane();
    Lane& lane = pass.lanes[k];
    if (!alone) lane.last_time = lane.next_time();
    if (lane.next_ref == lane.refs.size()) {
      const std::span<const uint32_t> ids = lane.group_ctas(lane.next_group);
      lane.place_group(lane.next_group++);
      lane.group.resize(ids.size());  // the previous group's buffers are reused
      for (size_t g = 0; g < ids.size(); ++g) kernels[k].ctas.load(ids[g], lane.group[g]);
      lane.refs.clear();
      lane.next_ref = 0;
      order_->order(lane.group, lane.refs);
      for (const CtaAccesses& c : lane.group)
        for (const WarpAccesses& w : c.warps) lane.warp_insts += w.dyn_insts;
      continue;
    }
    const MemRef& ref = lane.refs[lane.next_ref++];
    {
      const KernelAccesses& kernel = kernels[k].kernel;
      const WarpAccesses& w = lane.group[ref.cta].warps[ref.warp];
      const uint32_t inst = w.inst[ref.k];
      const Route& route = kernel.routes[inst];
      const std::span<const LineAccess> lines(w.lines.data() + w.line_begin[ref.k],
                                              w.line_begin[ref.k + 1] - w.line_begin[ref.k]);
      Traffic& t = lane.counts.traffic[route.category];
      InstCounts& ic = lane.counts.inst[inst];
      uint64_t sectors = 0;
      for (const LineAccess& l : lines) sectors += sectors_in(l.mask);
      t.requests += 1;
      t.sectors += sectors;
      ic.traffic.requests += 1;
      ic.traffic.sectors += sectors;
      L2Request req{static_cast<uint32_t>(k), inst, route.l2_lookup, route.op,
                    static_cast<uint32_t>(pass.l2_lines.size()), 0};
      l1.measure_into(k);
      uint64_t hit_sectors = 0;  // counted once per request: the lookups may alias the counts
      for (const LineAccess& l : lines) {
        uint32_t hits = 0;
        if (route.l1_lookup) {
          hits = l1.access(l, false).hits;  // an L1's write-backs are not modeled (requests.hpp)
          hit_sectors += sectors_in(hits);
        }
        const uint32_t to_l2 = route.l2_all ? l.mask : (route.l1_lookup ? l.mask & ~hits : 0);
        if (to_l2) pass.l2_lines.push_back(LineAccess{l.line, to_l2});
      }
      if (route.l1_lookup) {
        lane.counts.l1.add(sectors, hit_sectors);
        ic.l1.add(sectors, hit_sectors);
      }
      req.end = static_cast<uint32_t>(pass.l2_lines.size());
      if (req.end > req.begin) pass.l2.push_back(req);
    }
  }
  if (pass.done()) {
    for (Lane& lane : pass.lanes) {
      lane.group = {};  // frees the last group
      lane.refs = {};
      lane.next_ref = 0;
    }
  }
}

namespace {

// The L2 lines and sectors of L1 lines bound for L2: the same lines where
// both levels have the same shape, else their sectors coalesced again
// (`sectors` and `out` are scratch).
std::span<const LineAccess> in_l2_lines(std::span<const LineAccess> from_l1, const LineShape& l1,
                                        const LineShape& l2, std::vector<uint64_t>& sectors,
                                        std::vector<LineAccess>& out) {
  if (l1.line_bytes == l2.line_bytes && l1.sector_bytes == l2.sector_bytes) return from_l1;
  sectors.clear();
  for (const LineAccess& l : from_l1)
    for (unsigned s = 0; s < kMaxSectorsPerLine; ++s)
      if (l.mask & (1u << s)) sectors.push_back((l.line * l1.sectors_per_line() + s) * l1.sector_bytes);
  coalesce(sectors, l1.sector_bytes, l2, out);
  return out;
}

}  // namespace

void CacheModel::run_l2(const std::vector<SmPass>& sms, std::vector<KernelResult>& results) {
  // The SMs' request streams merged round-robin: request i of SM 0, 1, ...,
  // then request i + 1; the same proxy for time as within an SM.
  const LineShape l1 = line_shape(gpu_.l1d, level_name(Level::L1));
  std::vector<uint64_t> sectors;
  std::vector<LineAccess> lines;
  size_t longest = 0;
  for (const SmPass& p : sms) longest = std::max(longest, p.l2.size());
  for (size_t i = 0; i < longest; ++i) {
    for (size_t sm = 0; sm < sms.size(); ++sm) {
      if (i >= sms[sm].l2.size()) continue;
      const L2Request& req = sms[sm].l2[i];
      KernelCounts& counts = results[req.kernel].counts;
      l2_.measure_into(req.kernel);
      const std::span<const LineAccess> from_l1(sms[sm].l2_lines.data() + req.begin, req.end - req.begin);
      // The SMs' chunks together outgrow the CPU's caches, and this SM's
      // next request comes up only after every other SM's.
      __builtin_prefetch(sms[sm].l2_lines.data() + req.end);
      __builtin_prefetch(&req + 2);
      uint64_t bound = 0;
      for (const LineAccess& l : from_l1) bound += sectors_in(l.mask);
      counts.l2_bound_sectors += bound;
      if (req.op == Op::Store) counts.l2_bound_write_sectors += bound;
      // Loads and atomics read what misses; stores and atomics write, into
      // the line (dirty until evicted) or, past a write-through or
      // non-allocating L2, on to DRAM.
      const bool reads = req.op != Op::Store, writes = req.op != Op::Load;
      // Summed over the request's lines, then counted once.
      uint64_t n = 0, h = 0, written_back = 0;
      for (const LineAccess& l : in_l2_lines(from_l1, l1, l2_.shape(), sectors, lines)) {
        n += sectors_in(l.mask);
        if (!req.lookup) continue;
        const TagOutcome out = l2_.access(l, writes);
        h += sectors_in(out.hits);
        written_back += out.written_back;
      }
      if (!req.lookup) {
        (writes ? counts.dram_write_sectors : counts.dram_read_sectors) += n;
        continue;
      }
      InstCounts& ic = counts.inst[req.inst];
      counts.l2.add(n, h);
      counts.sm_l2[sm].add(n, h);
      ic.l2.add(n, h);
      ic.written_back += written_back;
      counts.dram_write_sectors += written_back;
      if (reads) counts.dram_read_sectors += n - h;
      if (writes && gpu_.l2.write_policy == WritePolicy::WriteThrough) counts.dram_write_sectors += n;
    }
  }
}

namespace {

// A kernel's L1 counts over the SMs' lanes, and its issue cycles.
void gather_l1(const KernelAccesses& kernel, const std::vector<KernelCounts*>& lanes,
               const std::vector<uint64_t>& warp_insts, unsigned subcores_per_sm, KernelCounts& counts) {
  counts.traffic = kernel.uncached;
  for (size_t sm = 0; sm < lanes.size(); ++sm) {
    const KernelCounts& p = *lanes[sm];
    for (size_t c = 0; c < kCategories; ++c) {
      counts.traffic[c].requests += p.traffic[c].requests;
      counts.traffic[c].sectors += p.traffic[c].sectors;
    }
    counts.l1.merge(p.l1);
    counts.sm_l1.push_back(p.l1);
    for (size_t i = 0; i < counts.inst.size(); ++i) {
      counts.inst[i].traffic.requests += p.inst[i].traffic.requests;
      counts.inst[i].traffic.sectors += p.inst[i].traffic.sectors;
      counts.inst[i].l1.merge(p.inst[i].l1);
    }
    const uint64_t subcores = std::max(1u, subcores_per_sm);
    counts.issue_cycles = std::max(counts.issue_cycles, (warp_insts[sm] + subcores - 1) / subcores);
  }
}

}  // namespace

std::vector<KernelResult> CacheModel::run(std::span<const KernelRun> kernels) {
  std::vector<SmPass> sms;
  sms.reserve(gpu_.num_sms);
  for (unsigned sm = 0; sm < gpu_.num_sms; ++sm) sms.emplace_back(gpu_, sweep_);
  std::vector<KernelResult> results(kernels.size());
  for (const KernelRun& k : kernels) {
    if (k.ctas_per_sm == 0)  // resident_ctas() refuses such a kernel first
      throw Error(ExitCode::Internal, "rd-cache", "cache model run with no resident CTA per SM");
    auto on_sm = ctas_by_sm(k, gpu_.num_sms);
    for (unsigned sm = 0; sm < gpu_.num_sms; ++sm) sms[sm].lanes.emplace_back(k, std::move(on_sm[sm]));
  }
  l2_.clear_histograms();
  for (size_t k = 0; k < kernels.size(); ++k) {
    results[k].counts.inst.resize(kernels[k].kernel.table.size());
    results[k].counts.sm_l2.resize(gpu_.num_sms);
    l2_.measure_into(k);
  }
  for (bool more = true; more;) {
    parallel_for(sms.size(), threads_, [&](size_t sm) { advance_sm(kernels, sms[sm]); });
    run_l2(sms, results);
    more = std::any_of(sms.begin(), sms.end(), [](const SmPass& p) { return !p.done(); });
  }

  for (size_t k = 0; k < kernels.size(); ++k) {
    std::vector<KernelCounts*> lanes;
    std::vector<uint64_t> warp_insts;
    std::vector<DistanceHistogram> l1_histograms(sms[0].l1.histograms().size());
    for (SmPass& p : sms) {
      lanes.push_back(&p.lanes[k].counts);
      warp_insts.push_back(p.lanes[k].warp_insts);
      p.l1.measure_into(k);  // a kernel that issued nothing on the SM has an empty set
      const std::vector<DistanceHistogram>& sm_histograms = p.l1.histograms(k);
      for (size_t h = 0; h < l1_histograms.size(); ++h) l1_histograms[h].merge(sm_histograms[h]);
    }
    gather_l1(kernels[k].kernel, lanes, warp_insts, gpu_.subcores_per_sm, results[k].counts);
    results[k].sweep = LevelStacks(Level::L1, gpu_.l1d, sweep_).sweep_results(l1_histograms);
    for (const SweepResult& r : l2_.sweep_results(l2_.histograms(k))) results[k].sweep.push_back(r);
  }
  return results;
}

}  // namespace sasskit::rdcache
