#include "loaded_latency.hpp"

#include <algorithm>
#include <limits>

namespace sasskit::pipesim {

// Pollaczek-Khinchine with a constant service time S: a request waits
// rho S / (2 (1 - rho)) on average, rho the slices' utilisation. One
// request is a line's sectors, arriving together at the line's slice and
// served one after another, so S is its bytes at the slice's rate. Near
// rho = 1 the wait is held to the finite source's: every MSHR of every SM
// that ran queued evenly over the slices, a request waiting on average for
// half of its slice's queue.
double l2_queue_cycles(const L2Load& load, const GpuConfig& gpu) {
  if (gpu.noc_bytes_per_cycle <= 0 || gpu.l2_slices == 0 || load.cycles <= 0 || load.requests <= 0) return 0;
  const double slice_rate = gpu.noc_bytes_per_cycle / gpu.l2_slices;
  const double service = load.bytes / load.requests / slice_rate;
  const double rho = load.bytes / load.cycles / gpu.noc_bytes_per_cycle;
  const double mshrs = gpu.l1d.mshrs > 0 ? gpu.l1d.mshrs : std::numeric_limits<double>::infinity();
  const double most = 0.5 * load.sms * mshrs / gpu.l2_slices * service;
  if (rho >= 1) return most;
  return std::min(most, rho * service / (2 * (1 - rho)));
}

}  // namespace sasskit::pipesim
