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
struct CacheModel::L2Request {
  uint32_t kernel = 0;  // of the run
  uint32_t inst = 0;
  bool lookup = true;  // L2 allocates them
  Op op = Op::Load;
  uint32_t begin = 0, end = 0;  // into SmPass::l2_lines (kept for the sweep's stacks only)
};

// An L2 line of a request, in its slice of the L2's tags.
struct SliceLine {
  uint64_t line = 0;  // as the slice names it (SlicedTags::Place)
  uint32_t mask = 0;
  uint32_t request = 0;  // into SmPass::l2
};

// One kernel's CTAs on one SM, issued group after group: its CTAs in order
// of start, `ctas_per_sm` at a time. A group is a stretch of that order and
// its placed time (its first start to its last end) is worked out as it is
// loaded, so memory holds 4 bytes a CTA rather than a list a group.
struct CacheModel::Lane {
  Lane(const KernelRun& kernel_run, std::vector<uint32_t> ctas_in_order, const LaunchRules& launch_rules)
      : run(&kernel_run), rules(&launch_rules), ctas(std::move(ctas_in_order)), per_group(kernel_run.ctas_per_sm) {
    counts.inst.resize(kernel_run.kernel.table.size());
  }
  const KernelRun* run;
  const LaunchRules* rules;
  std::vector<uint32_t> ctas;  // the SM's, in order of start
  size_t per_group;
  KernelCounts counts;  // traffic, l1, inst (traffic and l1)
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
  LaunchRules::CtaRun placed(uint32_t cta) const {
    return placed_run(*rules, run->schedule, run->cta_cycles, run->ctas.linear(cta));
  }
  uint64_t placed_start(uint32_t cta) const { return placed(cta).begin; }
  // Sets the placed time of group `g`, to be loaded.
  void place_group(size_t g) {
    const std::span<const uint32_t> members = group_ctas(g);
    group_begin = placed_start(members.front());
    group_end = 0;
    for (uint32_t c : members) group_end = std::max(group_end, placed(c).end);
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
  SmPass(const GpuConfig& gpu, const std::vector<SweepPoint>& sweep, unsigned l2_slices)
      : to_l2(l2_slices), l1(Level::L1, gpu.l1d, sweep) {}
  std::vector<Lane> lanes;           // per kernel of the run
  std::vector<L2Request> l2;         // this chunk's, those L2 does not look up included
  std::vector<std::vector<SliceLine>> to_l2;  // their L2 lines to look up, per slice of L2's tags
  std::vector<LineAccess> l2_lines;  // the same in order, where L2 has sweep stacks
  LevelStacks l1;
  // A request's scratch: its L1 lines with the sectors bound for L2, and
  // those as L2 lines.
  std::vector<LineAccess> from_l1, in_l2;
  std::vector<uint64_t> sectors;
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

CacheModel::CacheModel(const GpuConfig& gpu, const LaunchRules& rules, std::unique_ptr<AccessOrder> order,
                       std::vector<SweepPoint> sweep, unsigned threads)
    : gpu_(gpu), rules_(rules), order_(std::move(order)), sweep_(std::move(sweep)), threads_(std::max(1u, threads)),
      l2_(Level::L2, gpu.l2, sweep_, threads_) {
  // Checks the L1 geometry and sweep points now rather than at the first kernel.
  LevelStacks(Level::L1, gpu_.l1d, sweep_);
  if (gpu_.num_sms == 0) fail_usage("the GPU model has no SMs (num-sms is 0)");
}

namespace {

// The L2 lookups of a copy of `bytes` from `address`, in order: body(access)
// for each line that wanted(line) takes. The bytes of the copy within line
// a / line_bytes are one lookup of that line, so lines are picked before
// they are coalesced.
template <class Wanted, class Body>
void for_each_copied_line(uint64_t address, uint64_t bytes, const LineShape& shape, Wanted wanted, Body body) {
  const unsigned line = shape.line_bytes;
  std::vector<LineAccess> lines;
  for (uint64_t a = address - address % line; a < address + bytes; a += line) {
    if (!wanted(a / line)) continue;
    const uint64_t from = std::max(a, address), to = std::min(a + line, address + bytes);
    const uint64_t start[1] = {from};
    coalesce(start, static_cast<uint32_t>(to - from), shape, lines);
    for (const LineAccess& l : lines) body(l);
  }
}

}  // namespace

void CacheModel::copy_to_l2(uint64_t address, uint64_t bytes) {
  uint64_t keep = gpu_.l2.size_bytes;
  for (const SweepPoint& p : sweep_)
    if (p.level == Level::L2) keep = std::max(keep, p.size_bytes);
  if (bytes > keep) {
    address += bytes - keep;
    bytes = keep;
  }
  // A task per slice of L2's tags, each looking up its own lines of the
  // copy in order, and one for the sweep's stacks (which see every line).
  const SlicedTags& tags = l2_.tags();
  const size_t stacks = l2_.sweeps() ? 1 : 0;
  parallel_for(stacks + tags.slices(), threads_, [&](size_t task) {
    if (task < stacks) {
      for_each_copied_line(address, bytes, l2_.shape(), [](uint64_t) { return true; },
                           [&](const LineAccess& l) { l2_.access_stacks(l, false); });
      return;
    }
    const unsigned slice = static_cast<unsigned>(task - stacks);
    for_each_copied_line(address, bytes, l2_.shape(), [&](uint64_t line) { return tags.place(line).slice == slice; },
                         [&](const LineAccess& l) { l2_.access_tags(tags.place(l.line), l.mask, false); });
  });
}

LaunchRules::CtaRun placed_run(const LaunchRules& rules, const KernelSchedule& schedule,
                               std::span<const uint64_t> cta_cycles, uint32_t linear) {
  const uint64_t start = linear < schedule.start.size() ? schedule.start[linear] : 0;
  return rules.run_of(schedule.launch + start, linear < cta_cycles.size() ? cta_cycles[linear] : 0);
}

namespace {

// Per SM, the kernel's CTAs in order of start (then launch order). Each
// SM's CTAs are put in order on the threads; they come in that order
// already where the placement started CTAs in stream order, as it does
// for one kernel on an idle GPU.
std::vector<std::vector<uint32_t>> ctas_by_sm(const KernelRun& run, unsigned num_sms, unsigned threads) {
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
  const auto earlier = [&](uint32_t a, uint32_t b) {
    return std::pair(start(a), ctas.linear(a)) < std::pair(start(b), ctas.linear(b));
  };
  parallel_for(num_sms, threads, [&](size_t sm) {
    std::vector<uint32_t>& mine = on_sm[sm];
    if (!std::is_sorted(mine.begin(), mine.end(), earlier)) std::stable_sort(mine.begin(), mine.end(), earlier);
  });
  return on_sm;
}

}  // namespace

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

// Runs the SM's memory instructions through its L1 until this chunk holds
// kL2Chunk requests to L2 or the SM's CTAs are done.
void CacheModel::advance_sm(std::span<const KernelRun> kernels, SmPass& pass) const {
  pass.l2.clear();
  for (std::vector<SliceLine>& lines : pass.to_l2) lines.clear();
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
      l1.measure_into(k);
      pass.from_l1.clear();
      uint64_t hit_sectors = 0, bound = 0;  // counted once per request: the lookups may alias the counts
      for (const LineAccess& l : lines) {
        uint32_t hits = 0;
        if (route.l1_lookup) {
          hits = l1.access(l, false).hits;  // an L1's write-backs are not modeled (requests.hpp)
          hit_sectors += sectors_in(hits);
        }
        const uint32_t to_l2 = route.l2_all ? l.mask : (route.l1_lookup ? l.mask & ~hits : 0);
        if (to_l2) {
          pass.from_l1.push_back(LineAccess{l.line, to_l2});
          bound += sectors_in(to_l2);
        }
      }
      if (route.l1_lookup) {
        lane.counts.l1.add(sectors, hit_sectors);
        ic.l1.add(sectors, hit_sectors);
      }
      if (bound) send_to_l2(static_cast<uint32_t>(k), inst, route, bound, pass, lane.counts);
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


// Hands a request's L1 lines bound for L2 (pass.from_l1, `bound` sectors)
// on to L2: counts the sectors it sends, and for a request L2 does not look
// up those that go on to DRAM; the L2 lines to look up go to their slices of
// L2's tags. The request is written once, whole, where it is kept: one
// built field by field and passed along was read back whole before its
// stores were done (a store-forwarding stall at every request).
void CacheModel::send_to_l2(uint32_t kernel, uint32_t inst, const Route& route, uint64_t bound, SmPass& pass,
                            KernelCounts& counts) const {
  counts.l2_bound_sectors += bound;
  if (route.op == Op::Store) counts.l2_bound_write_sectors += bound;
  const std::span<const LineAccess> lines =
      in_l2_lines(pass.from_l1, pass.l1.shape(), l2_.shape(), pass.sectors, pass.in_l2);
  const auto begin = static_cast<uint32_t>(pass.l2_lines.size());
  if (!route.l2_lookup) {
    uint64_t n = 0;
    for (const LineAccess& l : lines) n += sectors_in(l.mask);
    (route.op != Op::Load ? counts.dram_write_sectors : counts.dram_read_sectors) += n;
  } else {
    const auto request = static_cast<uint32_t>(pass.l2.size());
    for (const LineAccess& l : lines) {
      const SlicedTags::Place at = l2_.tags().place(l.line);
      pass.to_l2[at.slice].push_back(SliceLine{at.line, l.mask, request});
    }
    if (l2_.sweeps()) pass.l2_lines.insert(pass.l2_lines.end(), lines.begin(), lines.end());
  }
  pass.l2.push_back(
      L2Request{kernel, inst, route.l2_lookup, route.op, begin, static_cast<uint32_t>(pass.l2_lines.size())});
}

// The SMs' request streams are merged round-robin: request i of SM 0, 1,
// ..., then request i + 1; the same proxy for time as within an SM. A slice
// of L2's tags sees its own lines in that order, so each set sees its
// lines in the order one pass over every line would give it.
void CacheModel::run_l2_slice(const std::vector<SmPass>& sms, unsigned slice, std::vector<KernelCounts>& counts) {
  // Per SM, where it stands in its lines of the slice and its requests,
  // side by side: the merge visits every SM for each request.
  struct Stream {
    const SliceLine* at;
    const SliceLine* end;
    const L2Request* requests;
  };
  std::vector<Stream> streams;
  streams.reserve(sms.size());
  size_t longest = 0;
  for (const SmPass& p : sms) {
    const std::vector<SliceLine>& lines = p.to_l2[slice];
    streams.push_back(Stream{lines.data(), lines.data() + lines.size(), p.l2.data()});
    longest = std::max(longest, p.l2.size());
  }
  for (uint32_t i = 0; i < longest; ++i) {
    for (size_t sm = 0; sm < streams.size(); ++sm) {
      Stream& st = streams[sm];
      if (st.at == st.end || st.at->request != i) continue;
      const L2Request& req = st.requests[i];
      KernelCounts& c = counts[req.kernel];
      // Loads and atomics read what misses; stores and atomics write, into
      // the line (dirty until evicted) or, past a write-through L2, on to
      // DRAM.
      const bool reads = req.op != Op::Store, writes = req.op != Op::Load;
      // Summed over the request's lines, then counted once.
      uint64_t n = 0, h = 0, written_back = 0;
      for (; st.at != st.end && st.at->request == i; ++st.at) {
        n += sectors_in(st.at->mask);
        const TagOutcome out = l2_.access_tags(SlicedTags::Place{st.at->line, slice}, st.at->mask, writes);
        h += sectors_in(out.hits);
        written_back += out.written_back;
      }
      // The SMs' lines and requests together outgrow the CPU's caches, and
      // this SM's next ones come up only after every other SM's.
      __builtin_prefetch(st.at);
      __builtin_prefetch(st.requests + i + 1);
      InstCounts& ic = c.inst[req.inst];
      c.l2.add(n, h);
      c.sm_l2[sm].add(n, h);
      ic.l2.add(n, h);
      ic.written_back += written_back;
      c.dram_write_sectors += written_back;
      if (reads) c.dram_read_sectors += n - h;
      if (writes && gpu_.l2.write_policy == WritePolicy::WriteThrough) c.dram_write_sectors += n;
    }
  }
}

// The sweep's L2 stacks over every line looked up, in the merged order.
void CacheModel::run_l2_stacks(const std::vector<SmPass>& sms) {
  size_t longest = 0;
  for (const SmPass& p : sms) longest = std::max(longest, p.l2.size());
  for (size_t i = 0; i < longest; ++i) {
    for (const SmPass& p : sms) {
      if (i >= p.l2.size()) continue;
      const L2Request& req = p.l2[i];
      l2_.measure_into(req.kernel);
      for (uint32_t l = req.begin; l < req.end; ++l) l2_.access_stacks(p.l2_lines[l], true);
    }
  }
}

// The L2 pass over a chunk of the SMs' requests: a task per slice of L2's
// tags, and one for the sweep's stacks (first: the longest).
void CacheModel::run_l2(const std::vector<SmPass>& sms, std::vector<std::vector<KernelCounts>>& slice_counts) {
  const size_t stacks = l2_.sweeps() ? 1 : 0;
  parallel_for(stacks + slice_counts.size(), threads_, [&](size_t task) {
    if (task < stacks)
      run_l2_stacks(sms);
    else
      run_l2_slice(sms, static_cast<unsigned>(task - stacks), slice_counts[task - stacks]);
  });
}

namespace {

// A kernel's counts of one SM's lane or one slice of L2, sized for it.
KernelCounts sized_counts(const KernelAccesses& kernel, unsigned num_sms) {
  KernelCounts counts;
  counts.inst.resize(kernel.table.size());
  counts.sm_l2.resize(num_sms);
  return counts;
}

// A kernel's L2 counts from one slice of L2's tags, added to the kernel's.
void add_l2(const KernelCounts& slice, KernelCounts& counts) {
  counts.l2.merge(slice.l2);
  for (size_t sm = 0; sm < counts.sm_l2.size(); ++sm) counts.sm_l2[sm].merge(slice.sm_l2[sm]);
  for (size_t i = 0; i < counts.inst.size(); ++i) {
    counts.inst[i].l2.merge(slice.inst[i].l2);
    counts.inst[i].written_back += slice.inst[i].written_back;
  }
  counts.dram_read_sectors += slice.dram_read_sectors;
  counts.dram_write_sectors += slice.dram_write_sectors;
}

// A kernel's L1 counts over the SMs' lanes, what they sent to L2 (and past
// it, where L2 does not look a request up).
void gather_l1(const KernelAccesses& kernel, const std::vector<KernelCounts*>& lanes, KernelCounts& counts) {
  counts.traffic = kernel.uncached;
  for (size_t sm = 0; sm < lanes.size(); ++sm) {
    const KernelCounts& p = *lanes[sm];
    for (size_t c = 0; c < kCategories; ++c) {
      counts.traffic[c].requests += p.traffic[c].requests;
      counts.traffic[c].sectors += p.traffic[c].sectors;
    }
    counts.l1.merge(p.l1);
    counts.sm_l1.push_back(p.l1);
    counts.l2_bound_sectors += p.l2_bound_sectors;
    counts.l2_bound_write_sectors += p.l2_bound_write_sectors;
    counts.dram_read_sectors += p.dram_read_sectors;
    counts.dram_write_sectors += p.dram_write_sectors;
    for (size_t i = 0; i < counts.inst.size(); ++i) {
      counts.inst[i].traffic.requests += p.inst[i].traffic.requests;
      counts.inst[i].traffic.sectors += p.inst[i].traffic.sectors;
      counts.inst[i].l1.merge(p.inst[i].l1);
    }
  }
}

}  // namespace

std::vector<KernelResult> CacheModel::run(std::span<const KernelRun> kernels) {
  std::vector<SmPass> sms;
  sms.reserve(gpu_.num_sms);
  for (unsigned sm = 0; sm < gpu_.num_sms; ++sm) sms.emplace_back(gpu_, sweep_, l2_.tags().slices());
  std::vector<KernelResult> results(kernels.size());
  for (const KernelRun& k : kernels) {
    if (k.ctas_per_sm == 0)  // resident_ctas() refuses such a kernel first
      throw Error(ExitCode::Internal, "rd-cache", "cache model run with no resident CTA per SM");
    auto on_sm = ctas_by_sm(k, gpu_.num_sms, threads_);
    for (unsigned sm = 0; sm < gpu_.num_sms; ++sm) sms[sm].lanes.emplace_back(k, std::move(on_sm[sm]), rules_);
  }
  l2_.clear_histograms();
  std::vector<std::vector<KernelCounts>> slice_counts(l2_.tags().slices());  // per slice, per kernel
  for (size_t k = 0; k < kernels.size(); ++k) {
    results[k].counts = sized_counts(kernels[k].kernel, gpu_.num_sms);
    for (std::vector<KernelCounts>& slice : slice_counts) slice.push_back(results[k].counts);
    l2_.measure_into(k);
  }
  for (bool more = true; more;) {
    parallel_for(sms.size(), threads_, [&](size_t sm) { advance_sm(kernels, sms[sm]); });
    run_l2(sms, slice_counts);
    more = std::any_of(sms.begin(), sms.end(), [](const SmPass& p) { return !p.done(); });
  }
  for (const std::vector<KernelCounts>& slice : slice_counts)
    for (size_t k = 0; k < kernels.size(); ++k) add_l2(slice[k], results[k].counts);

  for (size_t k = 0; k < kernels.size(); ++k) {
    std::vector<KernelCounts*> lanes;
    std::vector<DistanceHistogram> l1_histograms(sms[0].l1.histograms().size());
    for (SmPass& p : sms) {
      lanes.push_back(&p.lanes[k].counts);
      p.l1.measure_into(k);  // a kernel that issued nothing on the SM has an empty set
      const std::vector<DistanceHistogram>& sm_histograms = p.l1.histograms(k);
      for (size_t h = 0; h < l1_histograms.size(); ++h) l1_histograms[h].merge(sm_histograms[h]);
    }
    gather_l1(kernels[k].kernel, lanes, results[k].counts);
    results[k].sweep = LevelStacks(Level::L1, gpu_.l1d, sweep_).sweep_results(l1_histograms);
    for (const SweepResult& r : l2_.sweep_results(l2_.histograms(k))) results[k].sweep.push_back(r);
  }
  return results;
}

}  // namespace sasskit::rdcache
