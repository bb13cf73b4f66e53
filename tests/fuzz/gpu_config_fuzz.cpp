// libFuzzer target: a GPU model config file (sasskit-config(5)) as --config
// reads it, validated, dumped and read back, and the occupancy of one CTA.
#include <sstream>

#include "fuzz_input.hpp"
#include "libcommon/gpu_options.hpp"

namespace {
sasskit::GpuConfig parse(const std::string& text) {
  CLI::App app;
  sasskit::GpuOptions options(app);
  std::istringstream in(text);
  app.parse_from_stream(in);
  return options.config();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sasskit;
  return fuzz::refuse_or_parse([&] {
    GpuConfig gpu;
    try {
      gpu = parse(std::string(fuzz::bytes(data, size)));
    } catch (const CLI::ParseError&) {
      return;  // a malformed file: tools report it as a usage error
    }
    occupancy(gpu, {256, 32, 1024});
    const std::string dumped = dump_config(gpu);
    if (dump_config(parse(dumped)) != dumped) __builtin_trap();  // --dump-config reads back unchanged
  });
}
