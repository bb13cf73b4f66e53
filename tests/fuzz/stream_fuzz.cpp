// libFuzzer target for the stream decoder: any bytes must either decode or
// raise sasskit::Error, never crash, hang or allocate without bound. The
// same bytes go through the kernel layer too (formats/kernel_stream.hpp):
// its order, grid and count checks, every CTA decoded.
#include <sstream>

#include "formats/kernel_stream.hpp"
#include "formats/records.hpp"
#include "fuzz_input.hpp"

namespace {
struct DecodeEveryCta : sasskit::stream::KernelHandler {
  void cta(const sasskit::stream::Kernel&, const sasskit::stream::CtaRecord& c) override { c.decode(); }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sasskit;
  auto in = fuzz::stream(data, size);
  fuzz::refuse_or_parse([&] {
    stream::Reader reader(in, "fuzz");
    stream::Record r;
    while (reader.next(r)) {
      if (r.type() == stream::RecordType::Kernel) stream::decode<KernelInfo>(r);
      if (r.type() == stream::RecordType::Insts) stream::decode<InstTable>(r);
      if (r.type() == stream::RecordType::Cta) stream::decode<CtaTrace>(r);
      if (r.type() == stream::RecordType::Memcpy) stream::decode<Memcpy>(r);
    }
  });
  auto again = fuzz::stream(data, size);
  return fuzz::refuse_or_parse([&] {
    stream::Reader reader(again, "fuzz");
    DecodeEveryCta handler;
    stream::read_kernels(reader, handler);
  });
}
