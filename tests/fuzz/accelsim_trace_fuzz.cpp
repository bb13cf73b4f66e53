// libFuzzer target: Accel-Sim kernel trace text (kernel-N.traceg), raw or
// post-processed, and what the writer makes of what the reader accepted.
// Read on three threads in pieces of a few bytes (every '#BEGIN_TB' line a
// cut), the text must give what one thread gives: the same records in the
// same order, and the same refusal.
#include <sstream>

#include "../formats/accelsim_test_support.hpp"
#include "formats/accelsim.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sasskit;
  const std::string text(fuzz::bytes(data, size));
  if (!(test::read_all(text, 3, 16) == test::read_all(text))) __builtin_trap();
  return fuzz::refuse_or_parse([&] {
    std::istringstream in(text);
    std::ostringstream rewritten;
    std::unique_ptr<accelsim::KernelTraceWriter> writer;
    accelsim::read_kernel_trace(in, "fuzz.traceg",
                                accelsim::KernelSink{
                                    [&](const KernelInfo& k) {
                                      writer = std::make_unique<accelsim::KernelTraceWriter>(rewritten, k);
                                    },
                                    [&](const InstTable& t) { writer->insts(t); },
                                    [&](const CtaTrace& c) { writer->cta(c); }});
  });
}
