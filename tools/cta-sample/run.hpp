// cta-sample from file names to finished output, for main() and tests.
#pragma once

#include <optional>
#include <string>

#include "libcommon/cli.hpp"
#include "libcommon/gpu_config.hpp"

namespace sasskit::ctasample {

struct RunOptions {
  std::string input = "-";
  std::string output = "-";
  std::string replay;               // CTA -> SM log; empty = model the schedule
  std::string policy = "round-robin";
  bool serial_kernels = false;
  std::string keep = "sampled";     // or "all"
  std::optional<unsigned> sm;
  unsigned top = 1;
  std::string estimate = "check";   // or "limits"
  std::string format = "stream";    // or "json"
  bool accept_other_gpu = false;
};

void run(const RunOptions& options, const GpuConfig& gpu, const CommonOptions& common);

}  // namespace sasskit::ctasample
