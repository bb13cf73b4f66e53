// PKP (pkp.hpp) over the kernels of a batch on the GPU timeline
// (gpu_timeline.hpp): one Pkp per kernel, stepped at the timeline's PKP
// steps with its segments' progress, and what it found. The timeline stops
// the segments where it says so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "gpu_timeline.hpp"
#include "pkp.hpp"

namespace sasskit::pipesim {

// What PKP reads of a segment's SM at a step.
SmProgress progress_of(const SmSim& sim);

class PkpDriver {
 public:
  // `segments`: how many segments the timeline numbers.
  PkpDriver(const std::vector<KernelPlan>& plans, const PkpOptions& pkp, size_t segments);

  // Cycles between PKP's steps: the largest divisor of the bandwidth window
  // that is at most its sampling interval (a window without --pkp), so
  // windows split into steps without moving their boundaries.
  uint64_t step() const { return step_; }
  // Whether the kernel's steps are due at all.
  bool enabled(size_t kernel) const { return enabled_[kernel]; }

  // A segment's last progress, once its SM is retired, and gone once its
  // kernel has ended (no step reads it any more).
  void keep(size_t segment, SmProgress final) { final_[segment] = std::move(final); }
  const SmProgress& kept(size_t segment) const { return final_[segment]; }
  void forget(const std::vector<size_t>& segments);

  // The kernel's step `since` cycles after its first segment started, with
  // each segment's progress: the cycles it still needs where PKP stops it.
  std::optional<uint64_t> step(size_t kernel, uint64_t since, const std::vector<SmProgress>& sms);
  bool stopped(size_t kernel) const { return error_[kernel].has_value(); }
  // PKP's estimate of the projection's error, where it stopped the kernel.
  const std::optional<double>& projection_error(size_t kernel) const { return error_[kernel]; }

 private:
  uint64_t step_;
  std::vector<Pkp> pkps_;  // per kernel
  std::vector<bool> enabled_;
  std::vector<std::optional<double>> error_;
  std::vector<SmProgress> final_;  // per segment
};

}  // namespace sasskit::pipesim
