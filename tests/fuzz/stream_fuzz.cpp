// libFuzzer target for the stream decoder: any bytes must either decode or
// raise sasskit::Error, never crash, hang or allocate without bound.
#include <sstream>

#include "formats/records.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sasskit;
  auto in = fuzz::stream(data, size);
  return fuzz::refuse_or_parse([&] {
    stream::Reader reader(in, "fuzz");
    stream::Record r;
    while (reader.next(r)) {
      if (r.type() == "kernel") stream::decode<KernelInfo>(r);
      if (r.type() == "insts") stream::decode<InstTable>(r);
      if (r.type() == "cta") stream::decode<CtaTrace>(r);
      if (r.type() == "memcpy") stream::decode<Memcpy>(r);
    }
  });
}
