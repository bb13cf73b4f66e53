// Builds GPU models the way a tool does: a real CLI::App with ToolApp's
// --config resolution and GpuOptions, parsed from an argument list.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "libcommon/gpu_options.hpp"

namespace sasskit::test {

// `model`, if given, gets what the tool's provenance would record of it.
inline GpuConfig parse_gpu(std::vector<std::string> args, ModelInUse* model = nullptr) {
  CLI::App app("test");
  app.set_config("--config")->transform(config_file_resolver());
  GpuOptions options(app);
  args.insert(args.begin(), "tool");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  app.parse(static_cast<int>(argv.size()), argv.data());
  const GpuConfig gpu = options.config();
  if (model) *model = *options.model_in_use();
  return gpu;
}

inline GpuConfig bundled(const std::string& name) { return parse_gpu({"--config", name}); }

inline const std::vector<std::string>& bundled_models() {
  static const std::vector<std::string> names = {"qv100", "rtx2060", "rtx3070", "a100",
                                                 "h100",  "gtx1080", "titanx"};
  return names;
}

}  // namespace sasskit::test
