// The GPU model a tool computes for, as its GpuOptions built it: what the
// tool's provenance entry records of it (formats/stream.hpp, this_stage).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace sasskit {

struct ModelInUse {
  std::string name;
  std::string fingerprint;  // model_fingerprint() (gpu_options.hpp)
  // The keys given on the command line, not by the --config file: key ->
  // value as --dump-config writes it.
  std::map<std::string, std::string> keys_given;
  // Those of them whose value differs from the model's without the command
  // line (the --config file, --import-accelsim or the built-in default).
  std::vector<std::string> keys_changed;
};

}  // namespace sasskit
