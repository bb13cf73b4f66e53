// rd-cache as a filter: reads a stream, models each kernel's caches, and
// hands the input records and each kernel's results to a Sink
// (summary.hpp).
#pragma once

#include <string>
#include <vector>

#include "formats/stream.hpp"
#include "level_stacks.hpp"
#include "libcommon/cta_schedule.hpp"
#include "libcommon/gpu_config.hpp"
#include "summary.hpp"

namespace sasskit::rdcache {

struct Options {
  std::string order = "round-robin";  // access_order.hpp
  SchedPolicyKind policy = SchedPolicyKind::RoundRobin;  // placement without a sched record
  std::vector<SweepPoint> sweep;
  bool memcpy_to_l2 = true;
  bool serial_kernels = false;  // one kernel at a time on the GPU (placement.hpp)
  unsigned threads = 1;
};

// Reads the stream through the kernel layer (every member: each starts
// with an empty L2 and its own output member). Kernels that share SMs as
// placed (kernels of different streams, unless options.serial_kernels) are
// modeled together, their L1s seeing each other's requests (cache_model.hpp).
// A kernel's results are handed to the sink once no later kernel can join
// it: when a later kernel is placed beside none of those waiting, at a
// memcpy, or at the member's end. Its records from the first cta record
// on, and every record after them, are held meanwhile
// (formats/held_kernel.hpp) and follow the results, so its cache record
// comes before its cta records and memory holds only the model's state. Kernels without cta records (a
// stream without addresses) get a warning and no results. An upstream cache
// record is dropped: this run's replaces it.
void run_filter(stream::Reader& in, Sink& sink, const GpuConfig& gpu, const Options& options);

// "--sweep" sizes: comma-separated SIZE or LEVEL:SIZE items (LEVEL l1 or l2;
// SIZE bytes with an optional K, KiB, M, MiB, G or GiB suffix; no level =
// both levels), each at every associativity of `assocs` (0 = fully
// associative), a comma-separated list; an empty `assocs` means the
// level's own and 0.
std::vector<SweepPoint> parse_sweep(const std::string& sizes, const std::string& assocs, const GpuConfig& gpu);

}  // namespace sasskit::rdcache
