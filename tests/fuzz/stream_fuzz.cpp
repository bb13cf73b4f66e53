// libFuzzer target for the stream decoder: any bytes must either decode or
// raise sasskit::Error, never crash, hang or allocate without bound.
//   cmake -DCMAKE_CXX_COMPILER=clang++ -DSASSKIT_FUZZ=ON ...
//   build/bin/stream_fuzz -max_len=65536 -rss_limit_mb=512
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "formats/records.hpp"
#include "libcommon/diag.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    sasskit::stream::Reader reader(in, "fuzz");
    sasskit::stream::Record r;
    while (reader.next(r)) {
      if (r.type() == "kernel") sasskit::stream::decode<sasskit::KernelInfo>(r);
      if (r.type() == "insts") sasskit::stream::decode<sasskit::InstTable>(r);
      if (r.type() == "cta") sasskit::stream::decode<sasskit::CtaTrace>(r);
      if (r.type() == "memcpy") sasskit::stream::decode<sasskit::Memcpy>(r);
    }
  } catch (const sasskit::Error&) {
  }
  return 0;
}
