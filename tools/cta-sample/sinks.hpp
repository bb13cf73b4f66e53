// Where cta-sample's results go (formats/sink.hpp): the stream, with each
// kernel's sched and sample records ahead of its kept CTAs, or a JSON
// object: {"kernels": [one summary per kernel], "provenance": [...]}.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "formats/kernel_stream.hpp"
#include "formats/sample_record.hpp"
#include "formats/sink.hpp"
#include "libcommon/cta_schedule.hpp"

namespace sasskit::ctasample {

// A kernel's placement and sample, as cta-sample hands them to its sink.
struct SampledKernel {
  const stream::Kernel& kernel;
  unsigned ctas_per_sm = 0;
  uint32_t num_ctas = 0;
  const KernelSchedule& schedule;
  const std::vector<double>& predicted;       // per SM (HyFiSS Eq. 2)
  const std::optional<KernelSample>& sample;  // none with --keep all
};

using Sink = stream::Sink<SampledKernel>;

std::unique_ptr<Sink> stream_sink(std::ostream& out, const std::string& name, const stream::Header& upstream,
                                  stream::Stage self);
// `provenance` as formats/stream_json.hpp's report_provenance gives it.
std::unique_ptr<Sink> json_sink(std::ostream& out, std::vector<stream::Stage> provenance);

}  // namespace sasskit::ctasample
