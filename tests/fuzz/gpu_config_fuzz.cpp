// libFuzzer target: a GPU model config file (sasskit-config(5)) as --config
// reads it, validated, dumped and read back, and the occupancy of one CTA.
#include <sstream>

#include "fuzz_input.hpp"
#include "libcommon/gpu_options.hpp"

namespace {

// The ~150-option parser costs far more to build than a file costs to parse,
// so one is kept and cleared between inputs. A model file sets model keys
// only (the reader refuses the tool's other options: output, input,
// dump-config, ...), so clearing the options' results leaves no state behind.
class ConfigParser {
 public:
  sasskit::GpuConfig parse(const std::string& text) {
    app_.clear();
    std::istringstream in(text);
    app_.parse_from_stream(in);
    return options_.config();
  }

 private:
  CLI::App app_;
  sasskit::GpuOptions options_{app_};
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sasskit;
  static ConfigParser parser;
  return fuzz::refuse_or_parse([&] {
    GpuConfig gpu;
    try {
      gpu = parser.parse(std::string(fuzz::bytes(data, size)));
    } catch (const CLI::ParseError&) {
      return;  // a malformed file: tools report it as a usage error
    }
    occupancy(gpu, {256, 32, 1024});
    const std::string dumped = dump_config(gpu);
    if (dump_config(parser.parse(dumped)) != dumped) __builtin_trap();  // --dump-config reads back unchanged
  });
}
