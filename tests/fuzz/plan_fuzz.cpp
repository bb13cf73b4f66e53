// libFuzzer target for the plan CSV reader (formats/plan_record.hpp, what
// trace-unpack --plan reads): any bytes must either read or raise
// sasskit::Error, never crash or hang.
//   build/bin/plan_fuzz -max_len=16384 tests/fuzz/corpus/plan
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "formats/plan_record.hpp"
#include "libcommon/diag.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    sasskit::PlanSelection selection(sasskit::read_plan_csv(in, "fuzz"));
  } catch (const sasskit::Error&) {
  }
  return 0;
}
