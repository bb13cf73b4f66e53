// kernel-select from options to output: read the profile, prepare the
// method, then write the plan (stream, CSV or JSON) or the evaluation.
#pragma once

#include <string>

#include "formats/profile.hpp"
#include "libcommon/cli.hpp"
#include "methods.hpp"

namespace sasskit::kselect {

struct RunOptions {
  std::string input = "-";
  std::string output = "-";
  std::string format = "stream";  // stream, csv, json
  profile::ReadOptions profile;   // --profile-config
  MethodOptions method;
  uint64_t seed = 1;
  unsigned repeat = 1;
  bool evaluate = false;
};

// Checks option values (Usage error), then runs.
void run(const RunOptions& o, const CommonOptions& common);

}  // namespace sasskit::kselect
