#include "bandwidth_arbiter.hpp"

#include <algorithm>
#include <map>

#include "bandwidth_lending.hpp"

namespace sasskit::pipesim {
namespace {

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

}  // namespace

BandwidthArbiter::BandwidthArbiter(const GpuConfig& gpu, size_t segments)
    : l2_rate_(gpu.l2_bytes_per_cycle()), dram_rate_(gpu.dram_bytes_per_cycle()), segments_(segments) {}

BandwidthShare BandwidthArbiter::first_share(size_t segment, unsigned sharing) {
  segments_[segment].shared = true;
  return BandwidthShare::equal(sharing);
}

std::vector<BandwidthShare> BandwidthArbiter::window(uint64_t at, const std::vector<SegmentAtWindow>& running,
                                                     unsigned sharing) {
  const bool several = std::any_of(running.begin(), running.end(),
                                   [&](const SegmentAtWindow& r) { return r.kernel != running.front().kernel; });
  std::vector<BandwidthShare> shares =
      several ? lend(running, sharing, double(at - last_window_))
              : std::vector<BandwidthShare>(running.size(), BandwidthShare::equal(sharing));
  for (const SegmentAtWindow& r : running) {
    Segment& s = segments_[r.segment];
    s.shared = true;
    s.window_from = at;
    s.window_moved = r.moved;
  }
  last_window_ = at;
  return shares;
}

// Each segment's part of what its kernel gets of L2 and DRAM from
// lend_bandwidth.
std::vector<BandwidthShare> BandwidthArbiter::lend(const std::vector<SegmentAtWindow>& running, unsigned sharing,
                                                   double span) const {
  std::map<size_t, KernelWindow> kernels;
  for (const SegmentAtWindow& r : running) {
    KernelWindow& w = kernels[r.kernel];
    ++w.segments;
    const Segment& s = segments_[r.segment];
    if (last_window_ == kNever || s.window_from != last_window_) continue;  // started within the window
    w.moved.l2 += r.moved.l2 - s.window_moved.l2;
    w.moved.dram += r.moved.dram - s.window_moved.dram;
    ++w.measured;
  }
  std::vector<KernelUse> l2, dram;
  for (const auto& [k, w] : kernels) {
    l2.push_back(w.use(w.moved.l2, span, l2_rate_));
    dram.push_back(w.use(w.moved.dram, span, dram_rate_));
  }
  const std::vector<double> l2_parts = lend_bandwidth(l2, sharing), dram_parts = lend_bandwidth(dram, sharing);
  std::map<size_t, BandwidthShare> per_kernel;
  size_t j = 0;
  for (const auto& [k, w] : kernels) {
    const double segments = w.segments;
    per_kernel[k] = {segments / l2_parts[j], segments / dram_parts[j]};
    ++j;
  }
  std::vector<BandwidthShare> shares;
  for (const SegmentAtWindow& r : running) shares.push_back(per_kernel.at(r.kernel));
  return shares;
}

}  // namespace sasskit::pipesim
