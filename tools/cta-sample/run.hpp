// cta-sample from file names to finished output, for main() and tests.
#pragma once

#include <optional>
#include <string>

#include "libcommon/cli.hpp"
#include "libcommon/gpu_config.hpp"
#include "libcommon/model_in_use.hpp"
#include "libcommon/tool_options.hpp"

namespace sasskit::ctasample {

struct RunOptions {
  StreamIo io;
  std::string replay;               // CTA -> SM log; empty = model the schedule
  PlacementChoice placement;
  std::string keep = "sampled";     // or "all"
  std::optional<unsigned> sm;
  unsigned top = 1;
  std::string estimate = "check";   // or "limits"
  bool accept_other_gpu = false;
};

// `gpu` as GpuOptions built it, `model` its model_in_use().
void run(const RunOptions& options, const GpuConfig& gpu, const ModelInUse& model, const CommonOptions& common);

}  // namespace sasskit::ctasample
