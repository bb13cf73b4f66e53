// Principal Kernel Projection (pka-micro21 §3.2) for one SM: stop when the
// IPC has been quasi-stable over the window and a wave of CTAs has
// finished, then project the remaining cycles linearly.
#pragma once

#include <cstdint>
#include <deque>

#include "program.hpp"

namespace sasskit::pipesim {

class Pkp {
 public:
  // The IPC is sampled kSamples times per window (cumulative IPC of the SM;
  // the paper's per-cycle series, thinned so skipped cycles cost nothing).
  static constexpr uint64_t kSamples = 30;

  Pkp(const PkpOptions& opt, unsigned ctas_per_sm);
  // Feeds the SM's progress up to `cycle`; true when it may stop.
  bool stable(uint64_t cycle, uint64_t insts, uint32_t finished_ctas, uint32_t total_ctas);
  // The cycles a stopped SM would still need: the instructions its
  // unfinished CTAs have left (known from the trace) at the IPC so far.
  static uint64_t remaining_cycles(uint64_t cycle, uint64_t insts, uint64_t trace_insts);

 private:
  PkpOptions opt_;
  unsigned ctas_per_sm_;
  uint64_t interval_;
  uint64_t next_sample_;
  std::deque<double> samples_;
};

}  // namespace sasskit::pipesim
