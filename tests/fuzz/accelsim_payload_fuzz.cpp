// libFuzzer target: a stream's CTAs written as Accel-Sim text straight from
// their compact payloads (KernelTraceWriter::cta(Dim3, payload)), as
// trace-unpack --to accelsim writes them, against the decoder's way (decode,
// validate_cta, cta(CtaTrace)): a CTA the payload path writes must be one the
// decoder's way writes, with the same text; one it leaves goes that way.
#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>

#include "formats/accelsim.hpp"
#include "formats/kernel_stream.hpp"
#include "fuzz_input.hpp"

namespace {
using namespace sasskit;

class TwoWriters : public stream::KernelHandler {
 public:
  void begin_kernel(const stream::Kernel& k, const stream::Record&) override {
    payload_text_.str("");
    decoded_text_.str("");
    payload_ = std::make_unique<accelsim::KernelTraceWriter>(payload_text_, k.info());
    decoded_ = std::make_unique<accelsim::KernelTraceWriter>(decoded_text_, k.info());
  }
  void insts(const stream::Kernel&, const InstTable& slice, const stream::Record&) override {
    payload_->insts(slice);
    decoded_->insts(slice);
  }
  void cta(const stream::Kernel&, const stream::CtaRecord& c) override {
    const std::optional<std::string_view> payload = stream::cta_payload(c.record());
    const bool written = payload && payload_->cta(c.cta(), *payload);
    std::optional<CtaTrace> trace;
    try {
      trace = c.decode();
      decoded_->cta(*trace);
    } catch (const Error&) {
      if (written) std::abort();  // the payload path wrote a CTA the decoder's way refuses
      throw;
    }
    if (!written) payload_->cta(*trace);
    if (payload_text_.str() != decoded_text_.str()) std::abort();
  }

 private:
  std::ostringstream payload_text_, decoded_text_;
  std::unique_ptr<accelsim::KernelTraceWriter> payload_, decoded_;
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto in = sasskit::fuzz::stream(data, size);
  return sasskit::fuzz::refuse_or_parse([&] {
    sasskit::stream::Reader reader(in, "fuzz");
    TwoWriters writers;
    sasskit::stream::read_kernels(reader, writers);
  });
}
