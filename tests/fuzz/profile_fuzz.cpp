// libFuzzer target for the profile readers (formats/profile.hpp) and what
// kernel-select and stall-report make of a profile: any bytes must either
// read or raise sasskit::Error, never crash, hang or allocate without bound.
//   cmake -DCMAKE_CXX_COMPILER=clang++ -DSASSKIT_FUZZ=ON ...
//   build/bin/profile_fuzz -max_len=16384 tests/fuzz/corpus/profile
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "formats/profile.hpp"
#include "formats/reference_stats.hpp"
#include "libcommon/diag.hpp"
#include "read_profile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    std::istringstream in(text);
    const sasskit::profile::Profile p = sasskit::profile::read_profile(in, "fuzz");
    try {
      sasskit::to_reference(p);
    } catch (const sasskit::Error&) {
    }
    sasskit::kselect::from_export(p);
  } catch (const sasskit::Error&) {
  }
  return 0;
}
