// cta-sample's stream processing: for each kernel, count its CTAs'
// instructions by unit class in one pass while spilling their records to a
// temporary file, place the CTAs on SMs (the stream's sched record, a
// replayed log, or modeled: libcommon/placement.hpp), choose
// the SM(s) to simulate, and emit a sched and a sample record followed by
// the kept CTAs. Every other record passes through unchanged and in order.
#pragma once

#include <memory>

#include "formats/cta_log.hpp"
#include "formats/stream.hpp"
#include "libcommon/cta_schedule.hpp"
#include "libcommon/gpu_config.hpp"
#include "libcommon/json.hpp"
#include "sampler.hpp"

namespace sasskit::ctasample {

struct Options {
  SampleOptions sample;
  SchedPolicyKind policy = SchedPolicyKind::RoundRobin;
  const CtaLog* replay = nullptr;  // replay this log instead of modeling
  bool accept_other_gpu = false;   // records of upstream stages made for another GPU model
};

// Writes either a stream (`writer`) or a JSON array with one summary object
// per kernel (`json`); exactly one of them is non-null.
class CtaSampleStream {
 public:
  CtaSampleStream(const GpuConfig& gpu, const Options& options, stream::Writer* writer,
                  JsonWriter* json);
  ~CtaSampleStream();
  // Reads every member of the stream through the kernel layer, writing one
  // output member per input member.
  void read(stream::Reader& reader);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Checks options against the model before any input is read (--sm range).
void check_options(const GpuConfig& gpu, const Options& options);

}  // namespace sasskit::ctasample
