// cta-sample's stream processing: for each kernel, count its CTAs'
// instructions by unit class in one pass while the filter skeleton holds
// their records (formats/held_kernel.hpp), place the CTAs on SMs (the stream's sched record, a
// replayed log, or modeled: libcommon/placement.hpp), choose
// the SM(s) to simulate, and hand the sink (sinks.hpp) a sched and a sample
// record, which go ahead of the kept CTAs. Every other record passes through
// unchanged and in order.
#pragma once

#include <memory>

#include "formats/cta_log.hpp"
#include "formats/stream.hpp"
#include "libcommon/cta_schedule.hpp"
#include "libcommon/gpu_config.hpp"
#include "sampler.hpp"
#include "sinks.hpp"

namespace sasskit::ctasample {

struct Options {
  SampleOptions sample;
  SchedPolicyKind policy = SchedPolicyKind::RoundRobin;
  bool serial_kernels = false;     // one kernel at a time on the GPU (pipe-sim --serial-kernels)
  const CtaLog* replay = nullptr;  // replay this log instead of modeling
  bool accept_other_gpu = false;   // records of upstream stages made for another GPU model
  std::string gpu_fingerprint;      // the model's (model_fingerprint()); empty: names checked, not values
};

class CtaSampleStream {
 public:
  CtaSampleStream(const GpuConfig& gpu, const Options& options, Sink& sink);
  ~CtaSampleStream();
  // Reads every member of the stream through the kernel layer (one output
  // member per input member), then finishes the sink.
  void read(stream::Reader& reader);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Checks options against the model before any input is read (--sm range).
void check_options(const GpuConfig& gpu, const Options& options);

}  // namespace sasskit::ctasample
