// The loaded latency of the request path from the SMs to L2: the queueing
// delay a request meets at its L2 slice when the chip's L2 is busy, beyond
// the unloaded l2-latency that the micro-benchmarks measure (one warp on an
// idle chip). Each SM sends its requests to slices by address, so what
// reaches one slice is the merge of many SMs' streams, each thinned at
// random: close to Poisson. A slice serves a sector in a fixed time at its
// peak rate (noc-bandwidth / l2-slices); what the L2 sustains below that
// (l2-efficiency) is the load at which the queues stand. So: an M/D/1 queue
// per slice, bounded by its finite source (no more requests wait than the
// SMs' MSHRs hold). Where an SM's demand exceeds its share, its requests
// wait in the SM (memory_pipeline.cpp) and are not queued here twice.
#pragma once

#include "libcommon/gpu_config.hpp"

namespace sasskit::pipesim {

// The chip's L2 load over a window: what its SMs moved and in how many
// requests.
struct L2Load {
  double bytes = 0;
  double requests = 0;
  double cycles = 0;  // the window
  unsigned sms = 0;   // that ran in it
};

// Mean cycles a request waits at its L2 slice under `load` (0 on a model
// without an interconnect rate or slices, or with no requests).
double l2_queue_cycles(const L2Load& load, const GpuConfig& gpu);

}  // namespace sasskit::pipesim
