// libFuzzer target: a GPU model config file (sasskit-config(5)) as --config
// reads it, validated, dumped and read back, and the occupancy of one CTA.
#include <array>
#include <memory>
#include <sstream>

#include "fuzz_input.hpp"
#include "libcommon/gpu_options.hpp"

namespace {

// The ~150-option parser costs far more to build than a file costs to parse,
// so one is kept and cleared between inputs. Clearing resets every option's
// results but not the variables bound to the three options that are not GPU
// keys; an input that names one of them gets a fresh parser next time, so
// every input starts from the same state.
class ConfigParser {
 public:
  sasskit::GpuConfig parse(const std::string& text) {
    if (!parser_ || touched_bound_option()) parser_ = std::make_unique<Parser>();
    parser_->app.clear();
    std::istringstream in(text);
    parser_->app.parse_from_stream(in);
    return parser_->options.config();
  }

 private:
  struct Parser {
    CLI::App app;
    sasskit::GpuOptions options{app};
  };
  bool touched_bound_option() const {
    constexpr std::array bound{"--import-accelsim", "--dump-config", "--accept-other-gpu"};
    for (const char* name : bound)
      if (parser_->app.get_option(name)->count() > 0) return true;
    return false;
  }
  std::unique_ptr<Parser> parser_;
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
