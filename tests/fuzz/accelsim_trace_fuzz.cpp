// libFuzzer target: Accel-Sim kernel trace text (kernel-N.traceg), raw or
// post-processed, and what the writer makes of what the reader accepted.
#include <sstream>

#include "formats/accelsim.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sasskit;
  return fuzz::refuse_or_parse([&] {
    auto in = fuzz::stream(data, size);
    std::ostringstream text;
    std::unique_ptr<accelsim::KernelTraceWriter> writer;
    accelsim::read_kernel_trace(in, "fuzz.traceg",
                                accelsim::KernelSink{
                                    [&](const KernelInfo& k) {
                                      writer = std::make_unique<accelsim::KernelTraceWriter>(text, k);
                                    },
                                    [&](const InstTable& t) { writer->insts(t); },
                                    [&](const CtaTrace& c) { writer->cta(c); }});
  });
}
