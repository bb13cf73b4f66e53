#include "gpu_timeline.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>

#include "bandwidth_arbiter.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/parallel.hpp"
#include "libcommon/progress.hpp"
#include "launch_queue.hpp"
#include "pkp_driver.hpp"

namespace sasskit::pipesim {
namespace {

// One segment's SM: a kernel's CTAs on one SM, simulated in its own clock
// from its start on the timeline (LaunchQueue::start). Its simulator exists
// only while it may run or be read (GpuTimeline::sim): made when first
// needed, it is finished and freed as the segment ends, so memory holds the
// SMs of the kernels running, not of every kernel of the batch.
struct Task {
  size_t position = 0;  // in its kernel's KernelPlan::sms
  const SmWork* work = nullptr;
  std::unique_ptr<SmSim> sim;
  // Once done: its results (merged into its kernel's and dropped unless the
  // run keeps each SM's), and what the bandwidth shares still read of it.
  std::unique_ptr<SmResult> result;
  double final_done_share = 1.0;  // SmSim::progress
  uint64_t final_cycle = 0;       // SmSim::cycle
  std::chrono::steady_clock::duration last_run{};  // host time of its last run_until (thread scheduling only)
};

size_t segment_count(const std::vector<KernelPlan>& plans) {
  size_t n = 0;
  for (const KernelPlan& p : plans) n += p.sms.size();
  return n;
}

std::vector<QueuedKernel> queued_kernels(const std::vector<KernelPlan>& plans) {
  std::vector<QueuedKernel> kernels;
  for (const KernelPlan& p : plans) {
    QueuedKernel& k = kernels.emplace_back(QueuedKernel{.stream = p.stream_id});
    for (const SmWork& work : p.sms) k.segments.push_back({work.sm, segment_load(p, work)});
  }
  return kernels;
}

// Wires the launch queue (when each segment starts), the SMs' simulators,
// the bandwidth arbiter (each window's shares) and the PKP driver (where a
// kernel stops), and merges the segments' results per kernel.
class GpuTimeline {
 public:
  GpuTimeline(const std::vector<KernelPlan>& plans, const TimelineStart& start, const LaunchRules& rules,
              const PkpOptions& pkp, unsigned threads)
      : plans_(plans), threads_(threads), keep_sm_results_(plans.front().sim.trace_stalls),
        queue_(queued_kernels(plans), start, rules),
        arbiter_(plans.front().sim.gpu, segment_count(plans)),
        pkp_(plans, pkp, segment_count(plans)),
        progress_("simulating " + std::to_string(plans.size()) + (plans.size() == 1 ? " kernel" : " kernels")) {
    for (size_t k = 0; k < plans.size(); ++k) {
      const KernelPlan& p = plans[k];
      merged_.emplace_back(p.program.pcs.size(), p.sms.size());
      for (size_t s = 0; s < p.sms.size(); ++s) tasks_.push_back(Task{.position = s, .work = &p.sms[s]});
    }
    progress_.expect(tasks_.size());
  }

  std::vector<KernelRun> run() {
    queue_.resolve();
    for (uint64_t from = 0; !queue_.idle();) {
      const uint64_t limit = next_boundary(from);
      run_until(limit);
      queue_.reached(limit);
      at_boundary(limit);
      queue_.resolve();
      from = limit + 1;
    }
    return results();
  }

 private:
  // The first window or PKP step of a kernel from cycle `from` on.
  uint64_t next_boundary(uint64_t from) const {
    const uint64_t step = pkp_.step();
    uint64_t next = kNever;
    for (size_t k : queue_.resident()) {
      const uint64_t origin = queue_.origin(k);
      if (queue_.finished(k) || origin == kNever) continue;
      uint64_t point = origin >= from ? origin : origin + (from - origin + step - 1) / step * step;
      next = std::min(next, point);
    }
    if (next == kNever)
      throw Error(ExitCode::Internal, "pipe-sim", "no kernel can launch: please report this stream");
    return next;
  }

  // Runs every started segment up to `limit`; segments that this lets
  // start before `limit` run in further passes.
  void run_until(uint64_t limit) {
    for (bool more = true; more; more = queue_.resolve()) {
      std::vector<size_t> now;
      for (size_t i : queue_.active())
        if (queue_.start(i) < limit) now.push_back(i);
      if (now.empty()) return;
      make_sims(now);
      for (size_t i : now)
        if (!arbiter_.has_share(i)) sim(i).share_bandwidth(arbiter_.first_share(i, sharing_at(queue_.start(i))));
      std::vector<char> busy(now.size());
      const std::vector<size_t> order = longest_first(now);
      parallel_for(now.size(), threads_, [&](size_t q) {
        const size_t j = order[q];
        Task& t = tasks_[now[j]];
        const auto begun = std::chrono::steady_clock::now();
        busy[j] = t.sim->run_until(limit - queue_.start(now[j]));
        if (!busy[j]) retire(now[j]);  // on the threads: finishing sorts a stall trace, freeing returns pages
        t.last_run = std::chrono::steady_clock::now() - begun;
      });
      for (size_t j = 0; j < now.size(); ++j)
        if (!busy[j]) end_segment(now[j], queue_.start(now[j]) + tasks_[now[j]].final_cycle);
    }
  }

  SmSim& sim(size_t i) {
    Task& t = tasks_[i];
    const KernelPlan& p = plans_[queue_.kernel_of(i)];
    if (!t.sim) t.sim = std::make_unique<SmSim>(p.sim, p.program, *t.work);
    return *t.sim;
  }

  // On the threads: each SM's first allocations touch fresh pages.
  void make_sims(const std::vector<size_t>& segments) {
    std::vector<size_t> unmade;
    for (size_t i : segments)
      if (!tasks_[i].sim) unmade.push_back(i);
    parallel_for(unmade.size(), threads_, [&](size_t q) { sim(unmade[q]); });
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
  // any more. Keeps what is still read of it and frees its simulator (on
  // the threads: each segment's own entries only).
  void retire(size_t i) {
    Task& t = tasks_[i];
    pkp_.keep(i, progress_of(*t.sim));
    t.final_done_share = t.sim->progress();
    t.final_cycle = t.sim->cycle();
    t.result = std::make_unique<SmResult>(t.sim->finish());
    t.sim.reset();
  }

  // The retired segment ends at `end` on the timeline; its results go to
  // its kernel's.
  void end_segment(size_t i, uint64_t end) {
    Task& t = tasks_[i];
    const size_t k = queue_.kernel_of(i);
    count_from_launch(i, *t.result);
    merged_[k].add(t.position, *t.result);
    if (!keep_sm_results_) t.result.reset();
    if (queue_.end(i, end)) pkp_.forget(queue_.segments(k));  // no PKP step reads them now
    progress_.advance();
  }

  void at_boundary(uint64_t at) {
    const uint64_t step = pkp_.step();
    bool window = false;
    for (size_t k : queue_.resident()) {
      const uint64_t origin = queue_.origin(k);
      if (queue_.finished(k) || origin == kNever || origin > at) continue;
      if (origin < at && (at - origin) % step == 0) apply_pkp(k, at);
      window |= !queue_.finished(k) && (at - origin) % BandwidthArbiter::kWindow == 0;
    }
    if (window) share_window(at);
  }

  // Sets the bandwidth of every running segment for the window from `at`.
  void share_window(uint64_t at) {
    std::vector<size_t> running;
    for (size_t i : queue_.active())
      if (queue_.start(i) <= at) running.push_back(i);
    make_sims(running);  // a kernel's first window boundary comes before its segments first run
    const unsigned sharing = sharing_at(at);
    std::vector<SegmentAtWindow> segments;
    for (size_t i : running) segments.push_back({i, queue_.kernel_of(i), tasks_[i].sim->moved()});
    const std::vector<BandwidthShare> shares = arbiter_.window(at, segments, sharing);
    for (size_t j = 0; j < running.size(); ++j) sim(running[j]).share_bandwidth(shares[j]);
  }

  // The SMs running at `at`: started segments, the SMs of a stopped kernel
  // until its projected end, and the SMs sampled kernels left out.
  unsigned sharing_at(uint64_t at) {
    unsigned n = 0;
    for (size_t i : queue_.active()) n += queue_.start(i) <= at;
    for (size_t k : queue_.resident()) {
      const uint64_t origin = queue_.origin(k);
      if (origin == kNever || origin > at) continue;
      const std::vector<size_t>& segments = queue_.segments(k);
      if (pkp_.stopped(k)) {
        if (queue_.end_of(k) > at) n += static_cast<unsigned>(segments.size());
        continue;
      }
      if (queue_.finished(k) || segments.empty()) continue;
      const size_t lead = segments[plans_[k].lead];
      const double progress = queue_.done(lead) ? tasks_[lead].final_done_share : sim(lead).progress();
      for (double until : plans_[k].absent_until) n += progress < until;
    }
    return std::max(1u, n);
  }

  // Stops every SM of a kernel that PKP finds safe to project at `at`
  // (pkp.hpp), with the kernel's end projected from its unfinished CTAs.
  // Its segments that have not started end with it: the SMs are free for
  // the next segments at the projected end.
  void apply_pkp(size_t k, uint64_t at) {
    if (!pkp_.enabled(k)) return;
    const std::vector<size_t>& segments = queue_.segments(k);
    std::vector<SmProgress> sms;
    for (size_t i : segments) sms.push_back(queue_.done(i) ? pkp_.kept(i) : progress_of(sim(i)));
    const std::optional<uint64_t> remaining = pkp_.step(k, at - queue_.origin(k), sms);
    if (!remaining) return;
    const uint64_t end = at + *remaining;
    for (size_t i : segments) {
      if (queue_.done(i)) continue;
      queue_.start_by(i, at);
      sim(i).stop(end - queue_.start(i));
      retire(i);
      end_segment(i, std::max(end, queue_.start(i) + tasks_[i].final_cycle));  // as SmSim::finish projects it
    }
  }

  std::vector<KernelRun> results() {
    std::vector<KernelRun> out(plans_.size());
    for (size_t k = 0; k < plans_.size(); ++k) {
      out[k].launch = queue_.launch(k);
      out[k].projection_error = pkp_.projection_error(k);
      out[k].merged = std::move(merged_[k]);
    }
    if (keep_sm_results_)
      for (size_t i = 0; i < tasks_.size(); ++i) out[queue_.kernel_of(i)].sms.push_back(std::move(*tasks_[i].result));
    return out;
  }

  // A segment's cycles count from its start; its kernel's, from the launch
  // (the segment may have waited for room on its SM).
  void count_from_launch(size_t i, SmResult& r) const {
    const uint64_t offset = queue_.start(i) - queue_.launch(queue_.kernel_of(i));
    r.cycles += offset;
    r.projected_cycles += offset;
    for (StallTraceRow& row : r.trace) row.cycle += offset;
  }

  const std::vector<KernelPlan>& plans_;
  unsigned threads_;
  bool keep_sm_results_;  // each SM's results, for the stall trace
  LaunchQueue queue_;
  std::vector<Task> tasks_;          // per segment, numbered as the queue does
  std::vector<SmMerge> merged_;      // per kernel: its segments' results, as they end
  BandwidthArbiter arbiter_;
  PkpDriver pkp_;
  WorkProgress progress_;            // by segments ended
};

}  // namespace

std::vector<KernelRun> run_on_gpu(const std::vector<KernelPlan>& plans, const TimelineStart& start,
                                  const LaunchRules& rules, const PkpOptions& pkp, unsigned threads) {
  if (plans.empty()) return {};
  return GpuTimeline(plans, start, rules, pkp, threads).run();
}

}  // namespace sasskit::pipesim
