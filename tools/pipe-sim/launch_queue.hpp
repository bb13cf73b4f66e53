// The kernels of a batch as they launch and their segments start, with the
// simulated ends (pipe-sim's timeline, gpu_timeline.hpp), by libcommon's
// launch rules (launch_rules.hpp), which the CTA scheduler applies to
// predicted ends. A kernel launches by LaunchRules::launch_at once the
// previous kernel of its launch stream has ended; each physical SM (a lane)
// starts its segments in kernel launch order, each once its kernel's first
// CTA may be dispatched (LaunchRules::dispatch_at) and the SM holds it
// beside its segments still running there (LaunchRules::fits; an idle SM
// holds any segment).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "gpu_timeline.hpp"
#include "libcommon/launch_rules.hpp"
#include "ports.hpp"

namespace sasskit::pipesim {

// A kernel as the queue sees it: its launch stream (LaunchRules::stream_of)
// and per segment its SM and what it holds there from its start to its end.
struct QueuedKernel {
  struct Segment {
    uint32_t sm = 0;
    SmLoad load;
  };
  uint64_t stream = 0;
  std::vector<Segment> segments;
};

// What a kernel's segment holds of its SM: the CTAs its occupancy lets run
// there at once.
SmLoad segment_load(const KernelPlan& p, const SmWork& work);

class LaunchQueue {
 public:
  // Segments are numbered kernel after kernel, in launch order, each
  // kernel's in the order of `kernels`.
  LaunchQueue(const std::vector<QueuedKernel>& kernels, const TimelineStart& start, const LaunchRules& rules);

  // Launches and segment starts that what has ended allows; true if any.
  bool resolve();
  // The timeline has reached `at`: kernels that have ended by then no
  // longer count among those running.
  void reached(uint64_t at) { now_ = at; }
  // Every kernel launched and every segment done.
  bool idle() const { return next_launch_ == kernels_.size() && unfinished_ == 0; }

  // Segments.
  size_t kernel_of(size_t segment) const { return segments_[segment].kernel; }
  uint64_t start(size_t segment) const { return segments_[segment].start; }  // kNever until known
  bool done(size_t segment) const { return segments_[segment].done; }
  // PKP stops the segment's kernel at `at`: a segment not started by then
  // starts there (and ends with its kernel).
  void start_by(size_t segment, uint64_t at);
  // The segment ends at `end`; true if its kernel has now ended.
  bool end(size_t segment, uint64_t end);
  // Started and not done, in the order they started.
  const std::vector<size_t>& active() const { return active_; }

  // Kernels.
  // Launched and not known to have ended, in launch order.
  const std::vector<size_t>& resident() const { return resident_; }
  uint64_t launch(size_t kernel) const { return kernels_[kernel].launch; }
  // When its first segment starts (later than the launch while other
  // kernels hold the SMs; kNever before): its windows and PKP's cycles
  // count from there.
  uint64_t origin(size_t kernel) const { return kernels_[kernel].origin; }
  uint64_t end_of(size_t kernel) const { return kernels_[kernel].end; }  // the latest end of its segments so far
  bool finished(size_t kernel) const { return kernels_[kernel].finished(); }
  const std::vector<size_t>& segments(size_t kernel) const { return kernels_[kernel].segments; }

 private:
  struct Segment {
    size_t kernel = 0;
    SmLoad load;
    uint64_t start = kNever;
    bool done = false;
    uint64_t end = 0;
  };
  struct Kernel {
    uint64_t stream = 0;
    uint64_t launch = kNever;
    uint64_t origin = kNever;
    uint64_t end = 0;
    size_t left = 0;  // segments not done
    std::vector<size_t> segments;
    std::optional<size_t> stream_before;  // the previous kernel of its stream in the batch
    bool launched() const { return launch != kNever; }
    bool finished() const { return launched() && left == 0; }
  };
  // The segments one physical SM runs, in kernel launch order.
  struct Lane {
    std::vector<size_t> segments;
    size_t next = 0;  // the first one not started in order
  };

  bool try_launch(size_t k);
  bool advance(Lane& lane);
  std::optional<uint64_t> room_at(const Lane& lane, const SmLoad& need, uint64_t from) const;

  const TimelineStart& start_;
  LaunchRules rules_;
  std::vector<Segment> segments_;
  std::vector<Kernel> kernels_;
  std::map<uint32_t, Lane> lanes_;  // by SM number
  std::vector<size_t> active_;
  std::vector<size_t> resident_;
  size_t next_launch_ = 0;
  size_t unfinished_ = 0;  // launched kernels with segments not done
  uint64_t now_ = 0;       // the timeline's last boundary
};

}  // namespace sasskit::pipesim
