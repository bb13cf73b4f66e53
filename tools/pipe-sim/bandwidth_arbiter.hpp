// How the running segments share the chip's interconnect and DRAM
// bandwidth, window by window (pipe-sim's timeline, gpu_timeline.hpp).
// Between windows, every segment still running gets 1 / n of the
// bandwidth, n the SMs running at that cycle (the timeline counts them:
// started segments, the SMs of a grid that the stream left out and that
// still run, the SMs of a kernel PKP stopped until its projected end);
// while kernels of several streams run, each kernel's segments also get
// what the others left of their parts in the window before
// (bandwidth_lending.hpp). Its state is what each segment had moved at the
// last window boundary; it reads the SMs only through what it is given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "libcommon/gpu_config.hpp"
#include "memory_pipeline.hpp"

namespace sasskit::pipesim {

// A segment running at a window boundary: its number, its kernel's, and
// what its SM has moved so far.
struct SegmentAtWindow {
  size_t segment = 0;
  size_t kernel = 0;
  MovedBytes moved;
};

class BandwidthArbiter {
 public:
  // Windows of this many cycles, counted from each kernel's first segment:
  // SMs meet only at their boundaries (and PKP's steps within them), so
  // results do not depend on the thread count.
  static constexpr uint64_t kWindow = 1000;

  // `segments`: how many segments the timeline numbers.
  BandwidthArbiter(const GpuConfig& gpu, size_t segments);

  // Whether the segment has had a share; a segment first runs with
  // first_share's, before a window boundary gives it one.
  bool has_share(size_t segment) const { return segments_[segment].shared; }
  BandwidthShare first_share(size_t segment, unsigned sharing);

  // The shares for the window from `at` of the segments running then, in
  // the order of `running`, with `sharing` SMs running: 1 / sharing each
  // while one kernel runs; while several do, lent out from each kernel's
  // use in the window before.
  std::vector<BandwidthShare> window(uint64_t at, const std::vector<SegmentAtWindow>& running, unsigned sharing);

 private:
  struct Segment {
    bool shared = false;
    uint64_t window_from = kNever;  // the last window boundary it ran at
    MovedBytes window_moved;        // what it had moved then
  };
  std::vector<BandwidthShare> lend(const std::vector<SegmentAtWindow>& running, unsigned sharing,
                                   double span) const;

  double l2_rate_, dram_rate_;  // the chip's, bytes per cycle
  std::vector<Segment> segments_;
  uint64_t last_window_ = kNever;  // the last window boundary
};

}  // namespace sasskit::pipesim
