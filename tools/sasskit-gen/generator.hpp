// Generates a multi-kernel application trace in launch order, one CTA at a
// time, into any sink: the Accel-Sim directory writer, or a test.
#pragma once

#include <functional>
#include <vector>

#include "formats/records.hpp"
#include "kernels.hpp"

namespace sasskit::gen {

struct GenOptions {
  std::vector<KernelKind> kernels;  // one launch each, in this order
  std::vector<uint64_t> streams;    // CUDA stream of each of `kernels` (empty: all on stream 0)
  uint32_t repeat = 1;              // the whole list is launched this many times
  KernelParams params;
  uint32_t binary_version = 70;
};

// Receives the trace in order: per launch its input copies, its header and
// whole instruction table, its CTAs (x fastest), then kernel_end.
struct TraceSink {
  std::function<void(const Memcpy&)> memcpy;
  std::function<void(const KernelInfo&, const InstTable&)> kernel;
  std::function<void(const CtaTrace&)> cta;
  std::function<void(const KernelInfo&)> kernel_end;
};

// The header fields the tracer adds to a kernel model's launch: id (from 1),
// file name, stream, windows, NVBit and tracer versions.
KernelInfo traced_launch(const KernelModel& model, uint32_t id);

void generate(const GenOptions& options, const TraceSink& sink);

}  // namespace sasskit::gen
