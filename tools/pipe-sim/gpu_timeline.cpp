#include "gpu_timeline.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>

#include "bandwidth_lending.hpp"
#include "libcommon/cta_schedule.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/parallel.hpp"
#include "libcommon/progress.hpp"
#include "pkp.hpp"

namespace sasskit::pipesim {
namespace {

// Between windows of a kernel, every SM still running gets 1 / n of the
// bandwidth, n the SMs running any kernel at that cycle, plus those of a
// grid that the stream left out and that still run by plan_absent_sms, plus
// the SMs of a kernel PKP stopped until its projected end; while kernels of
// several streams run, each kernel's SMs also get what the others left of
// their parts in the window before (bandwidth_lending.hpp). SMs only meet at
// window boundaries (and, with PKP, at the sampling steps within a window),
// so the results do not depend on the thread count.
constexpr uint64_t kShareWindow = 1000;

// The largest divisor of kShareWindow that is at most PKP's sampling
// interval: windows split into steps without moving their boundaries.
uint64_t step_cycles(const PkpOptions& pkp) {
  if (!pkp.enabled) return kShareWindow;
  uint64_t interval = Pkp(pkp, {}, 1).interval(), step = 1;
  for (uint64_t d = 1; d <= std::min(interval, kShareWindow); ++d)
    if (kShareWindow % d == 0) step = d;
  return step;
}

// PKP's view of a kernel's work: per SM, the trace's warp instructions of
// each CTA in launch order.
std::vector<std::vector<uint64_t>> cta_insts(const KernelPlan& p) {
  std::vector<std::vector<uint64_t>> out;
  for (const SmWork& work : p.sms) {
    std::vector<uint64_t>& sm = out.emplace_back();
    for (uint32_t c : work.ctas) sm.push_back(work.source.insts(c));
  }
  return out;
}

// PKP for a kernel; without --pkp one that never stops, spared the walk
// over its CTAs.
Pkp kernel_pkp(const KernelPlan& p) {
  if (!p.sim.pkp.enabled) return Pkp(p.sim.pkp, {}, 1);
  return Pkp(p.sim.pkp, cta_insts(p), p.sim.ctas_per_sm,
             ChipMemory{p.sim.gpu.l2_bytes_per_cycle(), p.sim.gpu.dram_bytes_per_cycle(),
                        double(p.sim.gpu.l2.size_bytes)});
}

// What PKP reads of a segment's SM at a step.
SmProgress progress_of(const SmSim& sim) {
  const MovedBytes moved = sim.moved();
  return {sim.simulated_insts(), sim.finished_ctas(), moved.l2, moved.dram, sim.insts_left_per_warp(),
          moved.l2_reads, moved.l2_read_misses};
}

// One segment: a kernel's CTAs on one SM, simulated in its own clock from
// its start on the timeline. Its simulator exists only while it may run or
// be read (GpuTimeline::sim): made when first needed, it is finished and
// freed as the segment ends, so memory holds the SMs of the kernels running,
// not of every kernel of the batch.
struct Task {
  size_t kernel = 0;
  size_t position = 0;  // in its kernel's KernelPlan::sms
  const SmWork* work = nullptr;
  std::unique_ptr<SmSim> sim;
  // Once done: its results (merged into its kernel's and dropped unless the
  // run keeps each SM's), and what its kernel's PKP steps and bandwidth
  // shares still read of it.
  std::unique_ptr<SmResult> result;
  SmProgress final_progress;
  double final_done_share = 1.0;  // SmSim::progress
  uint64_t final_cycle = 0;       // SmSim::cycle
  SmLoad load;              // of the SM, held from its start to its end
  uint64_t start = kNever;  // on the timeline, once known
  bool shared = false;      // has had its bandwidth share
  bool done = false;
  uint64_t end = 0;         // on the timeline, once done
  uint64_t window_from = kNever;  // the last window boundary it ran at
  MovedBytes window_moved;        // what it had moved then
  std::chrono::steady_clock::duration last_run{};  // host time of its last run_until (thread scheduling only)
};

// A kernel's running segments at a window boundary, and what those that ran
// through the whole window before moved in it.
struct KernelWindow {
  unsigned segments = 0;
  unsigned measured = 0;
  MovedBytes moved;
  // Its use of a resource of the chip's `rate`, when all its segments ran
  // the `span` cycles.
  KernelUse use(double bytes, double span, double rate) const {
    if (measured < segments || span <= 0 || rate <= 0) return {segments, std::nullopt};
    return {segments, bytes / span / rate};
  }
};

struct KernelState {
  uint64_t launch = kNever;
  // When its first segment starts (later than the launch while other
  // kernels hold the SMs): its windows and PKP's cycles count from there.
  uint64_t origin = kNever;
  uint64_t end = 0;  // on the timeline: the latest end of its segments so far
  size_t left = 0;   // segments not done
  std::vector<size_t> tasks;
  std::optional<size_t> stream_before;  // the previous kernel of its stream in the batch
  Pkp pkp;
  SmMerge merged;        // its segments' results, as they end
  bool stopped = false;  // by PKP
  std::optional<double> projection_error;  // PKP's estimate, once stopped
  bool launched() const { return launch != kNever; }
  bool finished() const { return launched() && left == 0; }
};

// The segments one physical SM runs, in kernel launch order.
struct Lane {
  std::vector<size_t> tasks;
  size_t next = 0;  // the first one not started in order
};

// What a kernel's segment holds of its SM: the CTAs its occupancy lets run
// there at once.
SmLoad segment_load(const KernelPlan& p, const SmWork& work) {
  return p.cta_load.times(std::min<uint64_t>(work.ctas.size(), p.sim.ctas_per_sm));
}

class GpuTimeline {
 public:
  GpuTimeline(const std::vector<KernelPlan>& plans, const TimelineStart& start, const PkpOptions& pkp,
              unsigned threads)
      : plans_(plans), start_(start), threads_(threads), keep_sm_results_(plans.front().sim.trace_stalls),
        step_(step_cycles(pkp)),
        progress_("simulating " + std::to_string(plans.size()) + (plans.size() == 1 ? " kernel" : " kernels")) {
    const GpuConfig& gpu = plans.front().sim.gpu;
    latency_ = gpu.kernel_launch_latency;
    fixed_ = gpu.kernel_fixed_cycles;
    max_kernels_ = gpu.max_concurrent_kernels;
    capacity_ = sm_capacity(gpu);
    std::map<uint64_t, size_t> last_of_stream;
    for (size_t k = 0; k < plans.size(); ++k) {
      const KernelPlan& p = plans[k];
      KernelState ks{.pkp = kernel_pkp(p), .merged = SmMerge(p.program.pcs.size(), p.sms.size())};
      if (auto it = last_of_stream.find(p.stream_id); it != last_of_stream.end()) ks.stream_before = it->second;
      last_of_stream[p.stream_id] = k;
      for (const SmWork& work : p.sms) {
        ks.tasks.push_back(tasks_.size());
        lanes_[work.sm].tasks.push_back(tasks_.size());
        tasks_.push_back(Task{.kernel = k, .position = ks.tasks.size() - 1, .work = &work, .load = segment_load(p, work)});
      }
      ks.left = ks.tasks.size();
      kernels_.push_back(std::move(ks));
    }
    progress_.expect(tasks_.size());
  }

  std::vector<KernelRun> run() {
    resolve();
    for (uint64_t from = 0; next_launch_ < kernels_.size() || unfinished_ > 0;) {
      const uint64_t limit = next_boundary(from);
      run_until(limit);
      now_ = limit;
      at_boundary(limit);
      resolve();
      from = limit + 1;
    }
    return results();
  }

 private:
  // Launches and segment starts that what has ended allows; true if any.
  bool resolve() {
    bool changed = false;
    while (next_launch_ < kernels_.size() && try_launch(next_launch_)) {
      ++next_launch_;
      changed = true;
    }
    for (auto& [sm, lane] : lanes_) changed |= advance(lane);
    return changed;
  }

  bool try_launch(size_t k) {
    KernelState& ks = kernels_[k];
    uint64_t ready = start_.floor;
    if (k > 0) ready = std::max(ready, kernels_[k - 1].launch);
    if (ks.stream_before) {
      const KernelState& before = kernels_[*ks.stream_before];
      if (!before.finished()) return false;
      ready = std::max(ready, before.end + latency_);
    } else {
      auto it = start_.stream_end.find(plans_[k].stream_id);
      ready = std::max(ready, (it == start_.stream_end.end() ? 0 : it->second) + latency_);
    }
    std::optional<uint64_t> slot = launch_slot(ready);
    if (!slot) return false;
    ks.launch = *slot;
    ks.end = ks.launch;
    resident_.push_back(k);
    if (ks.left > 0) ++unfinished_;
    return true;
  }

  // When max-concurrent-kernels lets the kernel launch, or nothing while
  // that depends on kernels still running.
  std::optional<uint64_t> launch_slot(uint64_t ready) {
    std::erase_if(resident_, [&](size_t j) { return kernels_[j].finished() && kernels_[j].end <= now_; });
    std::vector<uint64_t> ends;
    size_t pending = 0;
    for (size_t j : resident_) {
      if (kernels_[j].finished())
        ends.push_back(kernels_[j].end);
      else
        ++pending;
    }
    return concurrent_kernel_slot(ready, max_kernels_, std::move(ends), pending);
  }

  // Starts the lane's segments in order, each once its kernel has launched,
  // its fixed start cost has passed, and the SM has room for it (PKP may have given a stopped kernel's
  // segments their start already).
  bool advance(Lane& lane) {
    bool changed = false;
    for (; lane.next < lane.tasks.size(); ++lane.next) {
      Task& t = tasks_[lane.tasks[lane.next]];
      if (t.start != kNever) continue;
      KernelState& ks = kernels_[t.kernel];
      if (!ks.launched()) break;
      const std::optional<uint64_t> start = room_at(lane, t.load, ks.launch + fixed_);
      if (!start) break;
      t.start = *start;
      ks.origin = std::min(ks.origin, t.start);
      active_.push_back(lane.tasks[lane.next]);
      changed = true;
    }
    return changed;
  }

  // The first cycle from `from` on at which the SM holds `need` beside the
  // lane's started segments that still run then (an idle SM holds any
  // segment); nothing while that waits for a segment whose end is not known.
  std::optional<uint64_t> room_at(const Lane& lane, const SmLoad& need, uint64_t from) const {
    std::vector<std::pair<uint64_t, SmLoad>> ending;  // done segments that end after `from`
    SmLoad held;
    size_t holders = 0;
    for (size_t i : lane.tasks) {
      const Task& t = tasks_[i];
      if (t.start == kNever || (t.done && t.end <= from)) continue;
      held += t.load;
      ++holders;
      if (t.done) ending.emplace_back(t.end, t.load);
    }
    std::ranges::sort(ending, {}, [](const auto& e) { return e.first; });
    uint64_t at = from;
    for (auto it = ending.begin();; ++it) {
      SmLoad with = held;
      with += need;
      if (holders == 0 || within(with, capacity_)) return at;
      if (it == ending.end()) return std::nullopt;
      at = it->first;
      held -= it->second;
      --holders;
    }
  }

  // The first window or PKP step of a kernel from cycle `from` on.
  uint64_t next_boundary(uint64_t from) const {
    uint64_t next = kNever;
    for (size_t k : resident_) {
      const KernelState& ks = kernels_[k];
      if (ks.finished() || ks.origin == kNever) continue;
      uint64_t point = ks.origin >= from ? ks.origin : ks.origin + (from - ks.origin + step_ - 1) / step_ * step_;
      next = std::min(next, point);
    }
    if (next == kNever)
      throw Error(ExitCode::Internal, "pipe-sim", "no kernel can launch: please report this stream");
    return next;
  }

  // Runs every started segment up to `limit`; segments that this lets
  // start before `limit` run in further passes.
  void run_until(uint64_t limit) {
    for (bool more = true; more; more = resolve()) {
      std::vector<size_t> now;
      for (size_t i : active_)
        if (tasks_[i].start < limit) now.push_back(i);
      if (now.empty()) return;
      make_sims(now);
      for (size_t i : now)
        if (!tasks_[i].shared) share(tasks_[i], BandwidthShare::equal(sharing_at(tasks_[i].start)));
      std::vector<char> busy(now.size());
      const std::vector<size_t> order = longest_first(now);
      parallel_for(now.size(), threads_, [&](size_t q) {
        const size_t j = order[q];
        Task& t = tasks_[now[j]];
        const auto begun = std::chrono::steady_clock::now();
        busy[j] = t.sim->run_until(limit - t.start);
        if (!busy[j]) retire(t);  // on the threads: finishing sorts a stall trace, freeing returns pages
        t.last_run = std::chrono::steady_clock::now() - begun;
      });
      for (size_t j = 0; j < now.size(); ++j)
        if (!busy[j]) end_segment(now[j], tasks_[now[j]].start + tasks_[now[j]].final_cycle);
    }
  }

  SmSim& sim(Task& t) {
    if (!t.sim) t.sim = std::make_unique<SmSim>(plans_[t.kernel].sim, plans_[t.kernel].program, *t.work);
    return *t.sim;
  }

  // On the threads: each SM's first allocations touch fresh pages.
  void make_sims(const std::vector<size_t>& segments) {
    std::vector<size_t> unmade;
    for (size_t i : segments)
      if (!tasks_[i].sim) unmade.push_back(i);
    parallel_for(unmade.size(), threads_, [&](size_t q) { sim(tasks_[unmade[q]]); });
  }

  // Positions in `now` with the segments that took longest last time first,
  // so that threads taking them in turn end a window close together (a
  // long one taken last would leave the other threads waiting). The order
  // changes nothing but which thread runs what: segments meet only at the
  // boundary.
  std::vector<size_t> longest_first(const std::vector<size_t>& now) const {
    std::vector<size_t> order(now.size());
    for (size_t j = 0; j < order.size(); ++j) order[j] = j;
    if (threads_ > 1)
      std::ranges::stable_sort(order, std::greater{}, [&](size_t j) { return tasks_[now[j]].last_run; });
    return order;
  }

  // The segment's SM ended, or PKP stopped it: nothing runs or changes it
  // any more. Keeps what is still read of it and frees its simulator.
  static void retire(Task& t) {
    t.final_progress = progress_of(*t.sim);
    t.final_done_share = t.sim->progress();
    t.final_cycle = t.sim->cycle();
    t.result = std::make_unique<SmResult>(t.sim->finish());
    t.sim.reset();
  }

  // The retired segment ends at `end` on the timeline; its results go to
  // its kernel's.
  void end_segment(size_t i, uint64_t end) {
    Task& t = tasks_[i];
    KernelState& ks = kernels_[t.kernel];
    count_from_launch(t, *t.result);
    ks.merged.add(t.position, *t.result);
    if (!keep_sm_results_) t.result.reset();
    t.done = true;
    t.end = end;
    ks.end = std::max(ks.end, end);
    if (--ks.left == 0) {
      --unfinished_;
      for (size_t j : ks.tasks) tasks_[j].final_progress = {};  // no PKP step reads them now
    }
    std::erase(active_, i);
    progress_.advance();
  }

  void at_boundary(uint64_t at) {
    bool window = false;
    for (size_t k : resident_) {
      const KernelState& ks = kernels_[k];
      if (ks.finished() || ks.origin == kNever || ks.origin > at) continue;
      if (ks.origin < at && (at - ks.origin) % step_ == 0) apply_pkp(k, at);
      window |= !ks.finished() && (at - ks.origin) % kShareWindow == 0;
    }
    if (window) share_window(at);
  }

  // Sets the bandwidth of every running segment for the window from `at`:
  // 1 / n each while one kernel runs; while several do, lent out from each
  // kernel's use in the window before.
  void share_window(uint64_t at) {
    std::vector<size_t> running;
    for (size_t i : active_)
      if (tasks_[i].start <= at) running.push_back(i);
    make_sims(running);  // a kernel's first window boundary comes before its segments first run
    const unsigned sharing = sharing_at(at);
    std::map<size_t, KernelWindow> kernels;
    for (size_t i : running) {
      const Task& t = tasks_[i];
      KernelWindow& w = kernels[t.kernel];
      ++w.segments;
      if (last_window_ == kNever || t.window_from != last_window_) continue;  // started within the window
      const MovedBytes now = t.sim->moved();
      w.moved.l2 += now.l2 - t.window_moved.l2;
      w.moved.dram += now.dram - t.window_moved.dram;
      ++w.measured;
    }
    if (kernels.size() < 2) {
      for (size_t i : running) share(tasks_[i], BandwidthShare::equal(sharing));
    } else {
      lend(kernels, running, sharing, double(at - last_window_));
    }
    for (size_t i : running) {
      tasks_[i].window_from = at;
      tasks_[i].window_moved = sim(tasks_[i]).moved();
    }
    last_window_ = at;
  }

  // Each segment's part of what its kernel gets of L2 and DRAM from
  // lend_bandwidth.
  void lend(const std::map<size_t, KernelWindow>& kernels, const std::vector<size_t>& running, unsigned sharing,
            double span) {
    const GpuConfig& gpu = plans_.front().sim.gpu;
    std::vector<KernelUse> l2, dram;
    for (const auto& [k, w] : kernels) {
      l2.push_back(w.use(w.moved.l2, span, gpu.l2_bytes_per_cycle()));
      dram.push_back(w.use(w.moved.dram, span, gpu.dram_bytes_per_cycle()));
    }
    const std::vector<double> l2_parts = lend_bandwidth(l2, sharing), dram_parts = lend_bandwidth(dram, sharing);
    std::map<size_t, BandwidthShare> per_segment;
    size_t j = 0;
    for (const auto& [k, w] : kernels) {
      const double segments = w.segments;
      per_segment[k] = {segments / l2_parts[j], segments / dram_parts[j]};
      ++j;
    }
    for (size_t i : running) share(tasks_[i], per_segment.at(tasks_[i].kernel));
  }

  void share(Task& t, const BandwidthShare& bandwidth) {
    sim(t).share_bandwidth(bandwidth);
    t.shared = true;
  }

  // The SMs running at `at`: started segments, the SMs of a stopped kernel
  // until its projected end, and the SMs sampled kernels left out.
  unsigned sharing_at(uint64_t at) {
    unsigned n = 0;
    for (size_t i : active_) n += tasks_[i].start <= at;
    for (size_t k : resident_) {
      const KernelState& ks = kernels_[k];
      if (ks.origin == kNever || ks.origin > at) continue;
      if (ks.stopped) {
        if (ks.end > at) n += static_cast<unsigned>(ks.tasks.size());
        continue;
      }
      if (ks.finished() || ks.tasks.empty()) continue;
      Task& lead = tasks_[ks.tasks[plans_[k].lead]];
      const double progress = lead.done ? lead.final_done_share : sim(lead).progress();
      for (double until : plans_[k].absent_until) n += progress < until;
    }
    return std::max(1u, n);
  }

  // Stops every SM of a kernel that PKP finds safe to project at `at`
  // (pkp.hpp), with the kernel's end projected from its unfinished CTAs.
  // Its segments that have not started end with it: the SMs are free for
  // the next segments at the projected end.
  void apply_pkp(size_t k, uint64_t at) {
    if (!plans_[k].sim.pkp.enabled) return;
    KernelState& ks = kernels_[k];
    std::vector<SmProgress> sms;
    for (size_t i : ks.tasks) {
      Task& t = tasks_[i];
      sms.push_back(t.done ? t.final_progress : progress_of(sim(t)));
    }
    const std::optional<PkpStop> stop = ks.pkp.step(at - ks.origin, sms);
    if (!stop) return;
    const uint64_t end = at + stop->remaining_cycles;
    ks.stopped = true;
    ks.projection_error = stop->error_frac;
    for (size_t i : ks.tasks) {
      Task& t = tasks_[i];
      if (t.done) continue;
      if (t.start == kNever || t.start > at) t.start = at;
      sim(t).stop(end - t.start);
      retire(t);
      end_segment(i, std::max(end, t.start + t.final_cycle));  // as SmSim::finish projects it
    }
  }

  std::vector<KernelRun> results() {
    std::vector<KernelRun> out(kernels_.size());
    for (size_t k = 0; k < kernels_.size(); ++k) {
      out[k].launch = kernels_[k].launch;
      out[k].projection_error = kernels_[k].projection_error;
    }
    for (size_t k = 0; k < kernels_.size(); ++k) out[k].merged = std::move(kernels_[k].merged);
    if (keep_sm_results_)
      for (Task& t : tasks_) out[t.kernel].sms.push_back(std::move(*t.result));
    return out;
  }

  // A segment's cycles count from its start; its kernel's, from the launch
  // (the segment may have waited for room on its SM).
  void count_from_launch(const Task& t, SmResult& r) const {
    const uint64_t offset = t.start - kernels_[t.kernel].launch;
    r.cycles += offset;
    r.projected_cycles += offset;
    for (StallTraceRow& row : r.trace) row.cycle += offset;
  }

  const std::vector<KernelPlan>& plans_;
  const TimelineStart& start_;
  unsigned threads_;
  bool keep_sm_results_;  // each SM's results, for the stall trace
  uint64_t step_;
  uint64_t latency_ = 0;
  uint64_t fixed_ = 0;  // kernel-fixed-cycles: from a kernel's launch to its first CTA
  unsigned max_kernels_ = 0;
  SmLoad capacity_;  // of one SM
  std::vector<Task> tasks_;
  std::vector<KernelState> kernels_;
  std::map<uint32_t, Lane> lanes_;  // by SM number
  std::vector<size_t> active_;      // segments with a start, not done
  std::vector<size_t> resident_;    // launched kernels not known to have ended
  size_t next_launch_ = 0;
  size_t unfinished_ = 0;           // launched kernels with segments not done
  uint64_t now_ = 0;                // the last boundary reached
  uint64_t last_window_ = kNever;   // the last window boundary
  WorkProgress progress_;           // by segments ended
};

}  // namespace

std::vector<KernelRun> run_on_gpu(const std::vector<KernelPlan>& plans, const TimelineStart& start,
                                  const PkpOptions& pkp, unsigned threads) {
  if (plans.empty()) return {};
  return GpuTimeline(plans, start, pkp, threads).run();
}

}  // namespace sasskit::pipesim
