// trace-unpack's library: turn any trace source into the stream, Accel-Sim
// text or JSON Lines.
#pragma once

#include <optional>
#include <string>

#include "cta_range.hpp"
#include "formats/trace_source.hpp"
#include "libcommon/cli.hpp"

namespace sasskit::unpack {

enum class Target { Stream, Accelsim, Jsonl };

struct Options {
  std::string input = "-";
  std::string output = "-";
  Target target = Target::Stream;
  KernelSelectionOptions kernels;  // --kernels, -k, --launch-skip, --launch-count
  std::string plan;  // optional plan file: keep only its kernels
  std::optional<CtaRange> ctas;  // --ctas: only these CTAs of each kernel
};

// Runs the conversion; throws sasskit::Error on bad input or failed output.
void run(const Options& options, const CommonOptions& common);

}  // namespace sasskit::unpack
