// The cache record of a kernel from the model's counts, and the other
// outputs: the --format json summary and the --sweep CSV.
#pragma once

#include <memory>
#include <ostream>
#include <vector>

#include "cache_model.hpp"
#include "formats/cache_record.hpp"
#include "formats/sink.hpp"
#include "formats/stream.hpp"

namespace sasskit::rdcache {

// The kernel's cache record: `result` of its `ctas` CTAs (those in the input).
KernelCacheModel make_record(const KernelAccesses& kernel, const KernelResult& result, uint64_t ctas,
                             const GpuConfig& gpu);

// A kernel's results, as rd-cache hands them to its sink.
struct KernelCacheResult {
  const KernelInfo& info;
  const KernelCacheModel& model;
  const std::vector<SweepResult>& sweep;
};

// Where rd-cache's results go (formats/sink.hpp): every input record (to
// pass through) and each kernel's results, then finish().
using Sink = stream::Sink<KernelCacheResult>;

// The stream with a cache record added per kernel.
std::unique_ptr<Sink> stream_sink(std::ostream& out, const std::string& name,
                                  const stream::Header& upstream, stream::Stage self);
// {"gpu": ..., "kernels": [{"kernel_id", "kernel_name", "l1_hit_frac",
// "l2_hit_frac", "gmem_requests", ...}, ...], "provenance": [...]}:
// sasskit(7)'s column names; `provenance` as formats/stream_json.hpp's
// report_provenance gives it.
std::unique_ptr<Sink> json_sink(std::ostream& out, const std::string& gpu_name,
                                std::vector<stream::Stage> provenance);
// kernel_id,level,size_bytes,assoc,sets,sectors,hit_sectors,hit_frac
std::unique_ptr<Sink> sweep_csv_sink(std::ostream& out);

}  // namespace sasskit::rdcache
