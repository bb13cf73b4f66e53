#include "libcommon/tool_options.hpp"

#include <vector>

#include "libcommon/cta_schedule.hpp"

namespace sasskit {

CLI::Option* add_stream_io_options(CLI::App& app, StreamIo& io, const std::string& output_what) {
  app.add_option("input", io.input, "Input stream (- = stdin)")->capture_default_str();
  app.add_option("-o,--output", io.output, output_what + " (- = stdout)")->capture_default_str();
  return app.add_option("--format", io.format, "Output: stream, or json (a summary per kernel)")
      ->check(CLI::IsMember({"stream", "json"}))
      ->capture_default_str();
}

PlacementOptions add_placement_options(CLI::App& app, PlacementChoice& choice) {
  std::vector<std::string> names;
  for (const auto& entry : kSchedPolicies) names.emplace_back(entry.name);
  PlacementOptions added;
  added.policy = app.add_option("--sched-policy", choice.policy,
                                "CTA placement where no sched record gives it: " +
                                    names_of(kSchedPolicies, ", ", " or "))
                     ->check(CLI::IsMember(names))
                     ->capture_default_str();
  added.serial_kernels = app.add_flag(
      "--serial-kernels", choice.serial_kernels,
      "Place one kernel at a time on the GPU, whatever its stream, as Accel-Sim does by default "
      "(without it kernels of different streams share SMs, as on the GPU)");
  return added;
}

}  // namespace sasskit
