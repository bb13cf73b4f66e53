// libFuzzer target: replay files, a CTA -> SM log in HyFiSS issue.config or
// CSV form (the first byte picks), and the schedule built from it.
#include "formats/cta_log.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sasskit;
  if (size == 0) return 0;
  return fuzz::refuse_or_parse([&] {
    auto in = fuzz::stream(data + 1, size - 1);
    const CtaLog log = data[0] & 1 ? CtaLog::parse_csv(in, "log.csv") : CtaLog::parse_issue_config(in, "issue.config");
    for (uint32_t kernel = 0; kernel < 4; ++kernel)
      if (log.has_kernel(kernel)) log.schedule(kernel, 16, 8);
  });
}
