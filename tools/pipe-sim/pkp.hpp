// Principal Kernel Projection (pka-micro21 §3.2) for one kernel: stop when
// the kernel's GPU-wide IPC has been quasi-stable over the window and a wave
// of CTAs has finished, then project the cycles the unfinished CTAs still
// need linearly. A grid smaller than one wave is simulated in full: the
// paper stops it at the first stable IPC, which on bench/pkp's stencil was
// 11-13% off (bench/README.md).
#pragma once

#include <cstdint>
#include <deque>

#include "program.hpp"

namespace sasskit::pipesim {

class Pkp {
 public:
  // The IPC is sampled kSamples times per window (cumulative IPC of the
  // kernel; the paper's per-cycle series, thinned so skipped cycles cost
  // nothing).
  static constexpr uint64_t kSamples = 30;

  // `wave`: the CTAs that fill the kernel's SMs once.
  Pkp(const PkpOptions& opt, uint64_t wave);
  // Cycles between samples.
  uint64_t interval() const { return interval_; }
  // Feeds the kernel's progress up to `cycle`; true when it may stop.
  bool stable(uint64_t cycle, uint64_t insts, uint64_t finished_ctas, uint64_t total_ctas);
  // The cycles a kernel stopped at `cycle` would still need: the
  // instructions its unfinished CTAs have left (known from the trace) at the
  // kernel's IPC so far.
  static uint64_t remaining_cycles(uint64_t cycle, uint64_t insts, uint64_t trace_insts);

 private:
  PkpOptions opt_;
  uint64_t wave_;
  uint64_t interval_;
  uint64_t next_sample_;
  std::deque<double> samples_;
};

}  // namespace sasskit::pipesim
