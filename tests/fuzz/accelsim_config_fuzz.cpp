// libFuzzer target: the Accel-Sim config importer (gpgpusim.config and
// trace.config as one text), validated and used for an occupancy.
#include "fuzz_input.hpp"
#include "libcommon/accelsim_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sasskit;
  return fuzz::refuse_or_parse([&] {
    AccelSimOptions options;
    auto in = fuzz::stream(data, size);
    options.read(in, "gpgpusim.config");
    GpuConfig gpu = import_accelsim(options, "FUZZ");
    validate(gpu);
    occupancy(gpu, {256, 32, 1024});
  });
}
