// libFuzzer target: kernelslist.g, read and written back.
#include <sstream>

#include "formats/accelsim.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sasskit;
  return fuzz::refuse_or_parse([&] {
    auto in = fuzz::stream(data, size);
    const auto entries = accelsim::read_kernel_list(in, "kernelslist.g");
    std::ostringstream out;
    accelsim::write_kernel_list(out, entries);
    std::istringstream again(out.str());
    if (accelsim::read_kernel_list(again, "rewritten") != entries) __builtin_trap();
  });
}
