// How kernels of different streams running side by side share the chip's L2
// or DRAM bandwidth: the chip's queues serve whichever SM's request comes, so
// what one kernel leaves of its equal part goes to the others (issue 33).
#pragma once

#include <optional>
#include <vector>

namespace sasskit::pipesim {

// One kernel's use of one resource over the last window.
struct KernelUse {
  unsigned segments = 0;       // running now
  std::optional<double> used;  // share of the chip's rate its segments used, when measured over the whole window
};

// Per kernel, the share of the chip's rate that its running segments get
// together: its equal part, segments / `sharing` (`sharing` also counts
// SMs no kernel here runs: those a sampled stream left out, a stopped
// kernel's), plus what every other kernel left unused of its own part,
// split among the rest by their segments. A kernel not measured over the
// whole window lends nothing.
std::vector<double> lend_bandwidth(const std::vector<KernelUse>& kernels, unsigned sharing);

}  // namespace sasskit::pipesim
